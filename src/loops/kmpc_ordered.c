/* ordered through libomp's ABI, on GOMP_ordered_start/end (gomp_ordered.c). */
#include "abi/kmpc.h"

PV_EXPORT void __kmpc_ordered(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    GOMP_ordered_start();
}

PV_EXPORT void __kmpc_end_ordered(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    GOMP_ordered_end();
}
