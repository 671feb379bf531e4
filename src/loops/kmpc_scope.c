/* The scope construct through libomp's ABI. */
#include "abi/kmpc.h"

/* scope: clang emits the closing barrier itself. */
PV_EXPORT void __kmpc_scope(ident_t *loc, kmp_int32 gtid, void *reserved)
{
    (void)loc, (void)gtid, (void)reserved;
}

PV_EXPORT void __kmpc_end_scope(ident_t *loc, kmp_int32 gtid, void *reserved)
{
    (void)loc, (void)gtid, (void)reserved;
}
