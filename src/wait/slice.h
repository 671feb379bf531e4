/* pvsched's slice rule (slice.c), a wait-policy rule that reads the phantom
 * page: nonzero - how long this thread has held its CPU, in ns - when that
 * is longer than a scheduler slice while another task waits for the CPU;
 * the caller then yields.  Says so at most once per slice. */
#ifndef PV_WAIT_SLICE_H
#define PV_WAIT_SLICE_H

#include <stdint.h>

uint64_t pv_slice_over(void);
/* Reads PVOMP_PVSCHED_SLICE_US (default: the kernel's base slice). */
void pv_slice_configure(void);
uint64_t pv_slice_ns(void);

#endif
