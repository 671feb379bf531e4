/* omp_*_nest_lock@VERSION: the nestable lock routines in libomp's layout.
 * clang's omp.h makes omp_nest_lock_t one pointer (8 bytes), too small for
 * pvomp's 16-byte nestable lock, so here the pointer holds a lock of pvomp's
 * layout allocated by init and freed by destroy.  The simple lock needs no
 * twin: its 4-byte word fits in clang's pointer, so omp_*_lock@VERSION are
 * plain aliases (gen_abi.py). */
#include <stdlib.h>

#include "base/alloc.h"
#include "abi/kmpc.h"
#include "ompt/ompt.h"
#include "sync/lock.h" /* the gcc-layout (OMP_3.0) implementations */


#define PV_NEST_LOCK_BYTES 16

typedef struct {
    void *lk;
} kmp_nest_lock_t;

PV_EXPORT void pv_kmp_init_nest_lock(kmp_nest_lock_t *lock)
{
    lock->lk = pv_malloc(PV_NEST_LOCK_BYTES);
    pv_init_nest_lock_30(lock->lk);
}

/* Its event here, not through pv_destroy_nest_lock_30 (which has only the
 * event to do): the others tail-call their _30 twin, which then sees the
 * program's return address, but this one frees after it. */
PV_EXPORT void pv_kmp_destroy_nest_lock(kmp_nest_lock_t *lock)
{
    if (pv_ompt_tool())
        pv_ompt_lock_destroy(ompt_mutex_nest_lock, lock->lk, pv_ompt_entry_ra());
    free(lock->lk);
    lock->lk = NULL;
}

PV_EXPORT void pv_kmp_set_nest_lock(kmp_nest_lock_t *lock)
{
    pv_set_nest_lock_30(lock->lk);
}

PV_EXPORT void pv_kmp_unset_nest_lock(kmp_nest_lock_t *lock)
{
    pv_unset_nest_lock_30(lock->lk);
}

PV_EXPORT int pv_kmp_test_nest_lock(kmp_nest_lock_t *lock)
{
    return pv_test_nest_lock_30(lock->lk);
}

PV_KMP_SYMVER(pv_kmp_init_nest_lock, omp_init_nest_lock);
PV_KMP_SYMVER(pv_kmp_destroy_nest_lock, omp_destroy_nest_lock);
PV_KMP_SYMVER(pv_kmp_set_nest_lock, omp_set_nest_lock);
PV_KMP_SYMVER(pv_kmp_unset_nest_lock, omp_unset_nest_lock);
PV_KMP_SYMVER(pv_kmp_test_nest_lock, omp_test_nest_lock);

/* libomp's own lock entry points (__kmpc_*_lock), which compilers other
 * than clang call for omp_*_lock: the user's lock in libomp's layout, as
 * omp_*_lock@VERSION take it.  Hints are advisory: ignored. */

PV_EXPORT void __kmpc_init_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    omp_init_lock(user_lock);
}

PV_EXPORT void __kmpc_init_lock_with_hint(ident_t *loc, kmp_int32 gtid, void **user_lock,
                                          uintptr_t hint)
{
    (void)loc, (void)gtid, (void)hint;
    omp_init_lock(user_lock);
}

PV_EXPORT void __kmpc_destroy_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    omp_destroy_lock(user_lock);
}

PV_EXPORT void __kmpc_set_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    omp_set_lock(user_lock);
}

PV_EXPORT void __kmpc_unset_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    omp_unset_lock(user_lock);
}

PV_EXPORT int __kmpc_test_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    return omp_test_lock(user_lock);
}

PV_EXPORT void __kmpc_init_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    pv_kmp_init_nest_lock((kmp_nest_lock_t *)user_lock);
}

PV_EXPORT void __kmpc_init_nest_lock_with_hint(ident_t *loc, kmp_int32 gtid,
                                               void **user_lock, uintptr_t hint)
{
    (void)loc, (void)gtid, (void)hint;
    pv_kmp_init_nest_lock((kmp_nest_lock_t *)user_lock);
}

PV_EXPORT void __kmpc_destroy_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    pv_kmp_destroy_nest_lock((kmp_nest_lock_t *)user_lock);
}

PV_EXPORT void __kmpc_set_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    pv_kmp_set_nest_lock((kmp_nest_lock_t *)user_lock);
}

PV_EXPORT void __kmpc_unset_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    pv_kmp_unset_nest_lock((kmp_nest_lock_t *)user_lock);
}

PV_EXPORT int __kmpc_test_nest_lock(ident_t *loc, kmp_int32 gtid, void **user_lock)
{
    (void)loc, (void)gtid;
    return pv_kmp_test_nest_lock((kmp_nest_lock_t *)user_lock);
}
