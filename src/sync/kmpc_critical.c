/* critical through libomp's ABI, on GOMP_critical_name_* (gomp_critical.c). */
#include "abi/kmpc.h"

_Static_assert(sizeof(kmp_critical_name) >= sizeof(void *), "a GOMP critical name fits");

PV_EXPORT void __kmpc_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit)
{
    (void)loc, (void)gtid;
    GOMP_critical_name_start((void **)crit);
}

/* Hints are advisory (OpenMP 5.1 2.19.12): every hint gets the same lock. */
PV_EXPORT void __kmpc_critical_with_hint(ident_t *loc, kmp_int32 gtid,
                                         kmp_critical_name *crit, uint32_t hint)
{
    (void)loc, (void)gtid, (void)hint;
    GOMP_critical_name_start((void **)crit);
}

PV_EXPORT void __kmpc_end_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit)
{
    (void)loc, (void)gtid;
    GOMP_critical_name_end((void **)crit);
}
