/* Several logs on one time line (timebase.c). */
#ifndef PVOMP_TRACE_TIMEBASE_H
#define PVOMP_TRACE_TIMEBASE_H

#include <stdint.h>

#include "log.h"

/* The common time base minus the log's clock, ns: CLOCK_MONOTONIC (or
 * CLOCK_REALTIME with log->realtime_base) as the log's pvtrace_clock record
 * pairs it with the log's clock, plus log->shift_ns (0 + shift: the log has
 * no clock record). */
int64_t tr_log_time_offset(const struct tr_log *log);
/* Clock sums and differences, modulo 2^64: a corrupt log's stamps and clock
 * records may lie anywhere, where signed arithmetic would overflow. */
static inline int64_t tr_time_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}
static inline int64_t tr_time_sub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}
/* A log's lane name among several: its file name (PVOMP_TRACE=run.%r.pvtrace
 * names it by rank). */
const char *tr_log_lane(const struct tr_log *log);

#endif
