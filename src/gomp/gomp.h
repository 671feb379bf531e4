/* GOMP_* entry points of src/gomp, libgomp's ABI (exported through the
 * generated version script), as the modules above build on them
 * (src/kmpc); loop.c, loop_ull.c and sections.c's are declared where
 * they are called (src/kmpc/kmpc_dispatch.c).  The ordered, doacross,
 * task and teams entry points are still in src/runtime (docs/DESIGN.md,
 * "Layers"). */
#ifndef PV_GOMP_GOMP_H
#define PV_GOMP_GOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* parallel.c */
void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads);
void GOMP_parallel_end(void);
bool GOMP_cancellation_point(int which);
bool GOMP_cancel(int which, bool do_cancel);

/* barrier.c */
void GOMP_barrier(void);
bool GOMP_barrier_cancel(void);

/* single.c */
bool GOMP_single_start(void);
void *GOMP_single_copy_start(void);
void GOMP_single_copy_end(void *data);

/* critical.c */
void GOMP_critical_start(void);
void GOMP_critical_end(void);
void GOMP_critical_name_start(void **pptr);
void GOMP_critical_name_end(void **pptr);
void GOMP_atomic_start(void);
void GOMP_atomic_end(void);

/* error.c */
void GOMP_warning(const char *msg, size_t msglen);
void GOMP_error(const char *msg, size_t msglen);

/* alloc.c */
void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator);
void GOMP_free(void *ptr, uintptr_t allocator);

#endif
