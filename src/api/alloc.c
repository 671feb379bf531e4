/* Memory allocators (OpenMP 5.1 2.13): the predefined allocators, allocators
 * built from traits, and the omp_alloc family.
 *
 * Every block starts with a header just below the pointer handed out: where
 * the underlying block starts, how many bytes it counts against a pool, which
 * allocator made it and how many bytes the user asked for.  A pool_size trait
 * is a byte budget charged with whole blocks (header and alignment padding
 * included, as libgomp does), updated with a CAS loop so that it holds under
 * concurrency.  When an allocation fails the fallback trait decides: another
 * try with omp_default_mem_alloc, NULL, abort, or the fb_data allocator.
 * Pinned allocators take whole pages and lock them in memory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/message.h"
#include "runtime/omp_api.h"
#include "runtime/thread.h"

/* omp.h values (gcc 12). */
enum {
    NULL_ALLOC = 0,
    DEFAULT_MEM_ALLOC = 1,
    LAST_PREDEFINED = 8, /* omp_thread_mem_alloc */
};
enum { MS_DEFAULT = 0, MS_LARGE_CAP, MS_CONST, MS_HIGH_BW, MS_LOW_LAT };
enum {
    ATK_SYNC_HINT = 1, ATK_ALIGNMENT, ATK_ACCESS, ATK_POOL_SIZE, ATK_FALLBACK, ATK_FB_DATA,
    ATK_PINNED, ATK_PARTITION,
};
#define ATV_DEFAULT ((uintptr_t)-1)
enum {
    ATV_FALSE = 0, ATV_TRUE = 1, ATV_CONTENDED = 3, ATV_UNCONTENDED, ATV_SERIALIZED,
    ATV_PRIVATE, ATV_ALL, ATV_THREAD, ATV_PTEAM, ATV_CGROUP, ATV_DEFAULT_MEM_FB, ATV_NULL_FB,
    ATV_ABORT_FB, ATV_ALLOCATOR_FB, ATV_ENVIRONMENT, ATV_NEAREST, ATV_BLOCKED, ATV_INTERLEAVED,
};

/* omp_alloctrait_t */
struct trait {
    int key;
    uintptr_t value;
};

#define ALLOCATOR_MAGIC 0x70764f4d414c4c43ull /* "pvOMALLC" */

struct allocator {
    uint64_t magic;
    uintptr_t memspace;
    size_t alignment;
    size_t pool_size;            /* SIZE_MAX: no pool */
    _Atomic size_t pool_used;
    uintptr_t fb_data;
    unsigned fallback;
    unsigned sync_hint, access, partition;
    bool pinned;
};

/* Just below every pointer handed out; 32 bytes keeps malloc's 16-byte
 * alignment for the user's data. */
struct header {
    void *base;          /* what malloc/mmap returned */
    size_t charged;      /* the whole block: header, padding, data */
    uintptr_t allocator; /* the allocator that made it */
    size_t size;         /* bytes the user asked for */
};
_Static_assert(sizeof(struct header) == 32, "header keeps 16-byte alignment");

#define NATURAL_ALIGN 16u

static struct allocator *data_of(uintptr_t a)
{
    if (a <= LAST_PREDEFINED)
        return NULL;
    struct allocator *d = (struct allocator *)a;
    if (d->magic != ALLOCATOR_MAGIC)
        pv_fatal("invalid OpenMP allocator handle %#lx", (unsigned long)a);
    return d;
}

/* def-allocator-var of the current task (implicit tasks inherit it). */
static uintptr_t default_allocator(void)
{
    uintptr_t a = pv_icv_get()->def_allocator_var;
    return a != NULL_ALLOC ? a : DEFAULT_MEM_ALLOC;
}

static size_t pow2_at_least(size_t a)
{
    size_t p = 1;
    while (p < a && p < ((size_t)1 << (sizeof(size_t) * 8 - 1)))
        p <<= 1;
    return p;
}

static size_t effective_align(struct allocator *d, size_t align)
{
    if (d && d->alignment > align)
        align = d->alignment;
    return pow2_at_least(align < NATURAL_ALIGN ? NATURAL_ALIGN : align);
}

/* ----------------------------------------------------------- pool budget */

static bool pool_charge(struct allocator *d, size_t n)
{
    if (!d || d->pool_size == SIZE_MAX)
        return true;
    size_t used = atomic_load_explicit(&d->pool_used, memory_order_relaxed);
    size_t want;
    do {
        if (__builtin_add_overflow(used, n, &want) || want > d->pool_size)
            return false;
        /* Relaxed: the counter is a budget; it orders no other memory. */
    } while (!atomic_compare_exchange_weak_explicit(&d->pool_used, &used, want,
                                                    memory_order_relaxed,
                                                    memory_order_relaxed));
    return true;
}

static void pool_refund(struct allocator *d, size_t n)
{
    if (d && d->pool_size != SIZE_MAX)
        atomic_fetch_sub_explicit(&d->pool_used, n, memory_order_relaxed);
}

/* ------------------------------------------------------------ one try */

/* Allocate from one allocator without fallback; NULL on failure. */
static void *try_alloc(uintptr_t a, struct allocator *d, size_t align, size_t size, bool zero)
{
    align = effective_align(d, align);
    size_t extra = sizeof(struct header) + (align > NATURAL_ALIGN ? align - NATURAL_ALIGN : 0);
    size_t block;
    if (__builtin_add_overflow(size, extra, &block))
        return NULL;

    bool pinned = d && d->pinned;
    if (pinned) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        if (__builtin_add_overflow(block, page - 1, &block))
            return NULL;
        block &= ~(page - 1);
    }
    if (!pool_charge(d, block))
        return NULL;

    char *base;
    if (pinned) {
        base = mmap(NULL, block, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) {
            base = NULL;
        } else if (mlock(base, block) != 0) {
            munmap(base, block);
            base = NULL;
        }
    } else {
        base = zero ? calloc(1, block) : malloc(block);
    }
    if (!base) {
        pool_refund(d, block);
        return NULL;
    }
    uintptr_t p = ((uintptr_t)base + sizeof(struct header) + align - 1) & ~(uintptr_t)(align - 1);
    struct header *h = (struct header *)p - 1;
    h->base = base;
    h->charged = block;
    h->allocator = a;
    h->size = size;
    return (void *)p;
}

/* Grow or shrink a block of allocator `d` with realloc, charging the pool
 * only the difference.  Only for blocks without alignment padding. */
static void *resize(struct header *h, struct allocator *d, size_t size)
{
    size_t block, old = h->charged;
    if (__builtin_add_overflow(size, sizeof(struct header), &block))
        return NULL;
    if (block > old && !pool_charge(d, block - old))
        return NULL;
    char *base = realloc(h->base, block);
    if (!base) {
        if (block > old)
            pool_refund(d, block - old);
        return NULL;
    }
    if (block < old)
        pool_refund(d, old - block);
    h = (struct header *)base;
    h->base = base;
    h->charged = block;
    h->size = size;
    return base + sizeof(struct header);
}

/* Allocate with the fallback chain.  With `old` (omp_realloc), a block of the
 * same allocator without alignment padding is resized in place and *resized
 * is set; otherwise the caller copies and frees. */
static void *alloc_fb(uintptr_t a, size_t align, size_t size, bool zero, struct header *old,
                      bool *resized)
{
    for (int hops = 0; hops < 64; hops++) {
        if (a == NULL_ALLOC)
            a = default_allocator();
        struct allocator *d = data_of(a);
        void *p;
        if (old && old->allocator == a && !(d && d->pinned) &&
            (char *)old->base + sizeof *old == (char *)(old + 1) &&
            effective_align(d, align) == NATURAL_ALIGN) {
            p = resize(old, d, size);
            if (p) {
                *resized = true;
                return p;
            }
        } else {
            p = try_alloc(a, d, align, size, zero);
            if (p)
                return p;
        }
        if (!d)
            return NULL; /* predefined allocators fall back to nothing better */
        switch (d->fallback) {
        case ATV_DEFAULT_MEM_FB:
            a = DEFAULT_MEM_ALLOC;
            break;
        case ATV_NULL_FB:
            return NULL;
        case ATV_ALLOCATOR_FB:
            a = d->fb_data;
            break;
        case ATV_ABORT_FB:
        default:
            pv_fatal("out of memory allocating %zu bytes (allocator fallback is abort_fb)", size);
        }
    }
    return NULL; /* a cycle of allocator_fb allocators */
}

static void release(void *ptr)
{
    struct header *h = (struct header *)ptr - 1;
    struct allocator *d = data_of(h->allocator);
    pool_refund(d, h->charged);
    if (d && d->pinned) {
        munlock(h->base, h->charged);
        munmap(h->base, h->charged);
    } else {
        free(h->base);
    }
}

/* ------------------------------------------------------------- the API */

PV_EXPORT uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits, const struct trait *traits)
{
    struct allocator a = {
        .magic = ALLOCATOR_MAGIC,
        .memspace = memspace,
        .alignment = 1,
        .pool_size = SIZE_MAX,
        .fallback = ATV_DEFAULT_MEM_FB,
        .sync_hint = ATV_CONTENDED,
        .access = ATV_ALL,
        .partition = ATV_ENVIRONMENT,
    };
    /* High-bandwidth memory is not available (as in libgomp 12). */
    if (memspace > MS_LOW_LAT || memspace == MS_HIGH_BW)
        return NULL_ALLOC;
    for (int i = 0; i < ntraits; i++) {
        uintptr_t v = traits[i].value;
        bool dflt = v == ATV_DEFAULT;
        switch (traits[i].key) {
        case ATK_SYNC_HINT:
            if (dflt)
                v = ATV_CONTENDED;
            if (v != ATV_CONTENDED && v != ATV_UNCONTENDED && v != ATV_SERIALIZED &&
                v != ATV_PRIVATE)
                return NULL_ALLOC;
            a.sync_hint = (unsigned)v;
            break;
        case ATK_ALIGNMENT:
            if (dflt)
                v = 1;
            if (v == 0 || (v & (v - 1)) != 0)
                return NULL_ALLOC;
            a.alignment = v;
            break;
        case ATK_ACCESS:
            if (dflt)
                v = ATV_ALL;
            if (v != ATV_ALL && v != ATV_CGROUP && v != ATV_PTEAM && v != ATV_THREAD)
                return NULL_ALLOC;
            a.access = (unsigned)v;
            break;
        case ATK_POOL_SIZE:
            a.pool_size = dflt ? SIZE_MAX : v;
            break;
        case ATK_FALLBACK:
            if (dflt)
                v = ATV_DEFAULT_MEM_FB;
            if (v != ATV_DEFAULT_MEM_FB && v != ATV_NULL_FB && v != ATV_ABORT_FB &&
                v != ATV_ALLOCATOR_FB)
                return NULL_ALLOC;
            a.fallback = (unsigned)v;
            break;
        case ATK_FB_DATA:
            a.fb_data = v;
            break;
        case ATK_PINNED:
            if (dflt)
                v = ATV_FALSE;
            if (v != ATV_FALSE && v != ATV_TRUE)
                return NULL_ALLOC;
            a.pinned = v == ATV_TRUE;
            break;
        case ATK_PARTITION:
            if (dflt)
                v = ATV_ENVIRONMENT;
            if (v != ATV_ENVIRONMENT && v != ATV_NEAREST && v != ATV_BLOCKED &&
                v != ATV_INTERLEAVED)
                return NULL_ALLOC;
            a.partition = (unsigned)v;
            break;
        default:
            return NULL_ALLOC;
        }
    }
    struct allocator *d = pv_malloc(sizeof *d);
    memcpy(d, &a, sizeof *d);
    return (uintptr_t)d;
}

PV_EXPORT void omp_destroy_allocator(uintptr_t allocator)
{
    struct allocator *d = data_of(allocator);
    if (!d)
        return;
    d->magic = 0;
    free(d);
}

PV_EXPORT void omp_set_default_allocator(uintptr_t allocator)
{
    pv_runtime_init();
    pv_icv_for_write()->def_allocator_var = allocator == NULL_ALLOC ? DEFAULT_MEM_ALLOC : allocator;
}

PV_EXPORT uintptr_t omp_get_default_allocator(void)
{
    pv_runtime_init();
    return default_allocator();
}

PV_EXPORT void *omp_aligned_alloc(size_t alignment, size_t size, uintptr_t allocator)
{
    if (pv_unlikely(size == 0))
        return NULL;
    return alloc_fb(allocator, alignment, size, false, NULL, NULL);
}

PV_EXPORT void *omp_alloc(size_t size, uintptr_t allocator)
{
    return omp_aligned_alloc(1, size, allocator);
}

PV_EXPORT void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size,
                                   uintptr_t allocator)
{
    size_t total;
    if (pv_unlikely(nmemb == 0 || size == 0))
        return NULL;
    if (__builtin_mul_overflow(nmemb, size, &total)) {
        /* As a failed allocation: the fallback decides (abort_fb aborts). */
        if (allocator == NULL_ALLOC)
            allocator = default_allocator();
        struct allocator *d = data_of(allocator);
        if (d && d->fallback == ATV_ABORT_FB)
            pv_fatal("out of memory allocating %zu x %zu bytes", nmemb, size);
        return NULL;
    }
    return alloc_fb(allocator, alignment, total, true, NULL, NULL);
}

PV_EXPORT void *omp_calloc(size_t nmemb, size_t size, uintptr_t allocator)
{
    return omp_aligned_calloc(1, nmemb, size, allocator);
}

PV_EXPORT void omp_free(void *ptr, uintptr_t allocator)
{
    (void)allocator; /* the header knows */
    if (ptr)
        release(ptr);
}

PV_EXPORT void *omp_realloc(void *ptr, size_t size, uintptr_t allocator, uintptr_t free_allocator)
{
    (void)free_allocator; /* the header knows */
    if (!ptr)
        return omp_alloc(size, allocator);
    if (size == 0) {
        release(ptr);
        return NULL;
    }
    struct header *h = (struct header *)ptr - 1;
    if (allocator == NULL_ALLOC)
        allocator = h->allocator;
    bool resized = false;
    void *n = alloc_fb(allocator, 1, size, false, h, &resized);
    if (!n || resized)
        return n; /* on failure the old block stays valid */
    memcpy(n, ptr, h->size < size ? h->size : size);
    release(ptr);
    return n;
}
