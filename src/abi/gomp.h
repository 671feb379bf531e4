/* GOMP_* entry points of the construct families (src/loops, src/sync,
 * src/parallel, src/tasks, src/api; libgomp's ABI, exported through the
 * generated version script) that __kmpc_* entry points call: the families
 * build libomp's entry points on them.  The files that define them include this
 * header, so that a definition and its declaration cannot drift apart.
 */
#ifndef PV_GOMP_GOMP_H
#define PV_GOMP_GOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* src/parallel/gomp_parallel.c */
void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads);
void GOMP_parallel_end(void);
bool GOMP_cancellation_point(int which);
bool GOMP_cancel(int which, bool do_cancel);

/* src/sync/gomp_barrier.c */
void GOMP_barrier(void);
bool GOMP_barrier_cancel(void);

/* loops/gomp_single.c */
bool GOMP_single_start(void);
void *GOMP_single_copy_start(void);
void GOMP_single_copy_end(void *data);

/* loops/gomp_loop.c: the loops over long */
bool GOMP_loop_static_start(long start, long end, long incr, long chunk, long *istart,
                            long *iend);
bool GOMP_loop_dynamic_start(long start, long end, long incr, long chunk, long *istart,
                             long *iend);
bool GOMP_loop_guided_start(long start, long end, long incr, long chunk, long *istart,
                            long *iend);
bool GOMP_loop_runtime_start(long start, long end, long incr, long *istart, long *iend);
bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk, long *istart,
                     long *iend, uintptr_t *reductions, void **mem);
bool GOMP_loop_static_next(long *istart, long *iend);
bool GOMP_loop_dynamic_next(long *istart, long *iend);
bool GOMP_loop_guided_next(long *istart, long *iend);
bool GOMP_loop_runtime_next(long *istart, long *iend);
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);
bool GOMP_loop_end_cancel(void);

/* loops/gomp_loop_ull.c: the loops over unsigned long long */
bool GOMP_loop_ull_static_start(bool up, unsigned long long start, unsigned long long end,
                                unsigned long long incr, unsigned long long chunk,
                                unsigned long long *istart, unsigned long long *iend);
bool GOMP_loop_ull_dynamic_start(bool up, unsigned long long start, unsigned long long end,
                                 unsigned long long incr, unsigned long long chunk,
                                 unsigned long long *istart, unsigned long long *iend);
bool GOMP_loop_ull_guided_start(bool up, unsigned long long start, unsigned long long end,
                                unsigned long long incr, unsigned long long chunk,
                                unsigned long long *istart, unsigned long long *iend);
bool GOMP_loop_ull_runtime_start(bool up, unsigned long long start, unsigned long long end,
                                 unsigned long long incr, unsigned long long *istart,
                                 unsigned long long *iend);
bool GOMP_loop_ull_start(bool up, unsigned long long start, unsigned long long end,
                         unsigned long long incr, long sched, unsigned long long chunk,
                         unsigned long long *istart, unsigned long long *iend,
                         uintptr_t *reductions, void **mem);
bool GOMP_loop_ull_static_next(unsigned long long *istart, unsigned long long *iend);
bool GOMP_loop_ull_dynamic_next(unsigned long long *istart, unsigned long long *iend);
bool GOMP_loop_ull_guided_next(unsigned long long *istart, unsigned long long *iend);
bool GOMP_loop_ull_runtime_next(unsigned long long *istart, unsigned long long *iend);

/* loops/gomp_ordered.c: the ordered construct and the ordered loops */
void GOMP_ordered_start(void);
void GOMP_ordered_end(void);
bool GOMP_loop_ordered_static_start(long start, long end, long incr, long chunk, long *istart,
                                    long *iend);
bool GOMP_loop_ordered_dynamic_start(long start, long end, long incr, long chunk, long *istart,
                                     long *iend);
bool GOMP_loop_ordered_guided_start(long start, long end, long incr, long chunk, long *istart,
                                    long *iend);
bool GOMP_loop_ordered_static_next(long *istart, long *iend);
bool GOMP_loop_ordered_dynamic_next(long *istart, long *iend);
bool GOMP_loop_ordered_guided_next(long *istart, long *iend);
bool GOMP_loop_ull_ordered_static_start(bool up, unsigned long long start,
                                        unsigned long long end, unsigned long long incr,
                                        unsigned long long chunk, unsigned long long *istart,
                                        unsigned long long *iend);
bool GOMP_loop_ull_ordered_dynamic_start(bool up, unsigned long long start,
                                         unsigned long long end, unsigned long long incr,
                                         unsigned long long chunk, unsigned long long *istart,
                                         unsigned long long *iend);
bool GOMP_loop_ull_ordered_guided_start(bool up, unsigned long long start,
                                        unsigned long long end, unsigned long long incr,
                                        unsigned long long chunk, unsigned long long *istart,
                                        unsigned long long *iend);
bool GOMP_loop_ull_ordered_static_next(unsigned long long *istart, unsigned long long *iend);
bool GOMP_loop_ull_ordered_dynamic_next(unsigned long long *istart, unsigned long long *iend);
bool GOMP_loop_ull_ordered_guided_next(unsigned long long *istart, unsigned long long *iend);

/* tasks/gomp_task.c */
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach);
void GOMP_taskyield(void);
void GOMP_taskgroup_start(void);
void GOMP_taskgroup_end(void);

/* tasks/gomp_taskwait.c */
void GOMP_taskwait(void);
void GOMP_taskwait_depend(void **depend);
void GOMP_taskwait_depend_nowait(void **depend);

/* src/parallel/gomp_teams.c */
void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams, unsigned thread_limit,
                    unsigned flags);

/* src/sync/gomp_critical.c */
void GOMP_critical_start(void);
void GOMP_critical_end(void);
void GOMP_critical_name_start(void **pptr);
void GOMP_critical_name_end(void **pptr);
void GOMP_atomic_start(void);
void GOMP_atomic_end(void);

/* error.c */
void GOMP_warning(const char *msg, size_t msglen);
void GOMP_error(const char *msg, size_t msglen);

/* api/gomp_alloc.c */
void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator);
void GOMP_free(void *ptr, uintptr_t allocator);
void GOMP_add_alloc(void *ptr);
bool GOMP_is_alloc(void *ptr);

#endif
