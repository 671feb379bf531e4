/* Memory allocators through libomp's ABI (the allocate directive and
 * clause): the omp_alloc family with the calling thread's gtid in front.
 * clang's allocator handles are omp_allocator_handle_t values, the same
 * predefined numbers as the GOMP ABI's. */
#include <stddef.h>
#include <stdint.h>

#include "abi/kmpc.h"
#include "runtime/omp_api.h"


PV_EXPORT void *__kmpc_alloc(kmp_int32 gtid, size_t size, uintptr_t allocator)
{
    (void)gtid;
    return omp_alloc(size, allocator);
}

PV_EXPORT void *__kmpc_aligned_alloc(kmp_int32 gtid, size_t align, size_t size,
                                     uintptr_t allocator)
{
    (void)gtid;
    return omp_aligned_alloc(align, size, allocator);
}

PV_EXPORT void *__kmpc_calloc(kmp_int32 gtid, size_t nmemb, size_t size, uintptr_t allocator)
{
    (void)gtid;
    return omp_calloc(nmemb, size, allocator);
}

PV_EXPORT void *__kmpc_realloc(kmp_int32 gtid, void *ptr, size_t size, uintptr_t allocator,
                               uintptr_t free_allocator)
{
    (void)gtid;
    return omp_realloc(ptr, size, allocator, free_allocator);
}

PV_EXPORT void __kmpc_free(kmp_int32 gtid, void *ptr, uintptr_t allocator)
{
    (void)gtid;
    omp_free(ptr, allocator);
}
