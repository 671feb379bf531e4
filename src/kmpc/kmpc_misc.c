/* Smaller libomp entry points on pvomp's routines: the error directive,
 * scope, the split barriers, OpenMP 5.1 num_teams bounds, pause,
 * target-offload, allocators. */
#include "kmpc/kmpc.h"
#include "runtime/barrier_site.h" /* pv_barrier_at */
#include "runtime/internal.h" /* pv_gicv */

void GOMP_warning(const char *msg, size_t msglen);
void GOMP_error(const char *msg, size_t msglen);
int omp_pause_resource_all(int kind);
uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits, const void *traits);
void omp_destroy_allocator(uintptr_t allocator);
void omp_set_default_allocator(uintptr_t allocator);
uintptr_t omp_get_default_allocator(void);
void __kmpc_push_num_teams(ident_t *loc, kmp_int32 gtid, kmp_int32 num_teams,
                           kmp_int32 num_threads);

/* error directive at(execution): severity 1 warning, 2 fatal. */
PV_EXPORT void __kmpc_error(ident_t *loc, int severity, const char *message)
{
    (void)loc;
    size_t len = message ? __builtin_strlen(message) : 0;
    if (severity == 2)
        GOMP_error(message, len);
    else
        GOMP_warning(message, len);
}

/* scope: clang emits the closing barrier itself. */
PV_EXPORT void __kmpc_scope(ident_t *loc, kmp_int32 gtid, void *reserved)
{
    (void)loc, (void)gtid, (void)reserved;
}

PV_EXPORT void __kmpc_end_scope(ident_t *loc, kmp_int32 gtid, void *reserved)
{
    (void)loc, (void)gtid, (void)reserved;
}

/* A barrier whose primary thread runs a block (until end_barrier_master)
 * before the others leave it; they wait at a second barrier. */
PV_EXPORT kmp_int32 __kmpc_barrier_master(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
    if (omp_get_thread_num() == 0)
        return 1;
    PV_KMPC_BARRIER(); /* the primary's end_barrier_master */
    return 0;
}

PV_EXPORT void __kmpc_end_barrier_master(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
}

/* The same, the others not waiting for the primary's block. */
PV_EXPORT kmp_int32 __kmpc_barrier_master_nowait(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
    return omp_get_thread_num() == 0;
}

/* num_teams(lb : ub): pvomp makes ub teams on the host (lb <= ub teams is
 * what the construct allows). */
PV_EXPORT void __kmpc_push_num_teams_51(ident_t *loc, kmp_int32 gtid, kmp_int32 num_teams_lb,
                                        kmp_int32 num_teams_ub, kmp_int32 num_threads)
{
    (void)num_teams_lb;
    __kmpc_push_num_teams(loc, gtid, num_teams_ub, num_threads);
}

PV_EXPORT int __kmpc_pause_resource(int level)
{
    return omp_pause_resource_all(level);
}

/* libomp's numbering: 0 disabled, 1 default, 2 mandatory. */
PV_EXPORT int __kmpc_get_target_offload(void)
{
    switch (pv_gicv.target_offload) {
    case 1:
        return 2;
    case 2:
        return 0;
    default:
        return 1;
    }
}

PV_EXPORT uintptr_t __kmpc_init_allocator(int gtid, uintptr_t memspace, int ntraits,
                                          const void *traits)
{
    (void)gtid;
    return omp_init_allocator(memspace, ntraits, traits);
}

PV_EXPORT void __kmpc_destroy_allocator(int gtid, uintptr_t allocator)
{
    (void)gtid;
    omp_destroy_allocator(allocator);
}

PV_EXPORT void __kmpc_set_default_allocator(int gtid, uintptr_t allocator)
{
    (void)gtid;
    omp_set_default_allocator(allocator);
}

PV_EXPORT uintptr_t __kmpc_get_default_allocator(int gtid)
{
    (void)gtid;
    return omp_get_default_allocator();
}
