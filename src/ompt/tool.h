/* Internals of src/ompt shared by its files (not for runtime code: that
 * includes ompt/ompt.h only). */
#ifndef PV_OMPT_TOOL_H
#define PV_OMPT_TOOL_H

#include <stdio.h>

#include "ompt/ompt.h"

/* The OpenMP version pvomp's OMPT implements, as passed to ompt_start_tool. */
#define PV_OMPT_OMP_VERSION 202011u

/* tool.c: the tool's lifetime. */
void pv_ompt_finalize_tool(void);             /* entry point ompt_finalize_tool */
void pv_ompt_register_atexit(void);           /* once main runs: finalize before DSO destructors */

/* devices.c: the entries src/target registered (ompt/devices.h).  Detach:
 * every used device ends its tracing (all records delivered) and
 * dispatches device_unload/device_finalize; called first when the tool is
 * finalized. */
void pv_ompt_devices_detach(void);
void pv_ompt_devices_end_threads(void); /* the idle device threads end (thread_end) */
int pv_ompt_get_target_info(uint64_t *device_num, ompt_id_t *target_id, ompt_id_t *host_op_id);

/* callbacks.c: the registry. */
ompt_set_result_t pv_ompt_set_callback(ompt_callbacks_t event, ompt_callback_t callback);
int pv_ompt_get_callback(ompt_callbacks_t event, ompt_callback_t *callback);
ompt_set_result_t pv_ompt_support(int event);  /* what set_callback answers for `event` */
void pv_ompt_clear_callbacks(void);
/* The finalizer's waits: until done() holds, polled every 50 us, at most
 * about a second (for a thread that is not scheduled, or that waits for the
 * finalizing thread itself). */
void pv_ompt_wait_until(bool (*done)(void));
/* After clearing the table: until only the calling thread's own callbacks
 * (it may be finalizing from one) are in progress (ompt.h). */
void pv_ompt_wait_dispatches(void);
void pv_ompt_wait_workers_ended(void); /* ev_team.c */

/* lookup.c: the entry-point lookup function given to the tool. */
ompt_interface_fn_t pv_ompt_lookup(const char *name);

/* enumerate.c */
int pv_ompt_enumerate_states(int current_state, int *next_state, const char **next_state_name);
int pv_ompt_enumerate_mutex_impls(int current_impl, int *next_impl, const char **next_impl_name);
#define PV_OMPT_MUTEX_IMPL_FUTEX 1   /* the one mutex implementation (runtime/mutex.h) */

/* inquiry.c: the other entry points. */
int pv_ompt_get_state(ompt_wait_id_t *wait_id);
ompt_data_t *pv_ompt_get_thread_data(void);
uint64_t pv_ompt_get_unique_id(void);
int pv_ompt_get_parallel_info(int ancestor_level, ompt_data_t **parallel_data, int *team_size);
int pv_ompt_get_task_info(int ancestor_level, int *flags, ompt_data_t **task_data,
                          ompt_frame_t **task_frame, ompt_data_t **parallel_data,
                          int *thread_num);
int pv_ompt_get_task_memory(void **addr, size_t *size, int block);
int pv_ompt_get_num_procs(void);
int pv_ompt_get_num_places(void);
int pv_ompt_get_place_proc_ids(int place_num, int ids_size, int *ids);
int pv_ompt_get_place_num(void);
int pv_ompt_get_partition_place_nums(int place_nums_size, int *place_nums);
int pv_ompt_get_proc_id(void);
int pv_ompt_get_num_devices(void);

/* thread.c: the calling thread as the tool knows it. */
/* (pv_ompt_thread_begin, pv_ompt_thread_ensure: ompt.h) */
void pv_ompt_thread_end(void);        /* initial task end (initial threads), thread_end */
void pv_ompt_end_workers(void);       /* docked workers exit, with thread_end, before the finalizer */

/* where.c: codeptr_ra and the entry's frame for sites deep in the runtime,
 * found by unwinding to the first frame outside pvomp (a return address
 * inside pvomp -- a tail call from an outlined body -- gives the body). */
void pv_ompt_where_init(void);     /* once, before the first event */
void pv_ompt_caller(const void **codeptr, void **frame);
const void *pv_ompt_codeptr(const void *given);

/* verbose.c: OMP_TOOL_VERBOSE_INIT. */
void pv_ompt_verbose_open(void);
__attribute__((format(printf, 1, 2))) void pv_ompt_verbose(const char *fmt, ...);
void pv_ompt_verbose_close(void);

#endif
