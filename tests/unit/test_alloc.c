/* Allocators: predefined handles, traits (alignment, pool_size accounting,
 * fallbacks, pinned, bad values), realloc/calloc, per-thread default
 * allocator, GOMP_alloc, thread-safe pool accounting, abort_fb. */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvomp_check.h"

void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator);
void GOMP_free(void *ptr, uintptr_t allocator);

#define ALIGNED(p, a) ((((uintptr_t)(p)) % (a)) == 0)

/* Not const: libomp's omp.h (clang's) declares the traits without it. */
static omp_allocator_handle_t make(int n, omp_alloctrait_t *t)
{
    return omp_init_allocator(omp_default_mem_space, n, t);
}

static void handles(void)
{
    /* The values of gcc 12's omp.h. */
    CHECK(omp_null_allocator == 0 && omp_default_mem_alloc == 1 && omp_large_cap_mem_alloc == 2 &&
          omp_const_mem_alloc == 3 && omp_high_bw_mem_alloc == 4 && omp_low_lat_mem_alloc == 5 &&
          omp_cgroup_mem_alloc == 6 && omp_pteam_mem_alloc == 7 && omp_thread_mem_alloc == 8);
    for (uintptr_t a = 1; a <= 8; a++) {
        char *p = omp_alloc(100, (omp_allocator_handle_t)a);
        CHECK(p && ALIGNED(p, 16));
        memset(p, 0x5a, 100);
        omp_free(p, (omp_allocator_handle_t)a);
    }
    CHECK(omp_alloc(0, omp_default_mem_alloc) == NULL);
    CHECK(omp_aligned_alloc(64, 0, omp_default_mem_alloc) == NULL);
    CHECK(omp_calloc(0, 8, omp_default_mem_alloc) == NULL);
    CHECK(omp_calloc(8, 0, omp_default_mem_alloc) == NULL);
    CHECK(omp_aligned_calloc(64, 0, 0, omp_default_mem_alloc) == NULL);
    omp_free(NULL, omp_default_mem_alloc);
}

static void bad_traits(void)
{
    omp_alloctrait_t t;
#define REJECT(k, v)                                                    \
    do {                                                                \
        t.key = (k);                                                    \
        t.value = (omp_uintptr_t)(v);                                   \
        CHECK(make(1, &t) == omp_null_allocator);                       \
    } while (0)
    REJECT(omp_atk_alignment, 3);
    REJECT(omp_atk_alignment, 0);
    REJECT(omp_atk_sync_hint, omp_atv_all);
    REJECT(omp_atk_access, omp_atv_contended);
    REJECT(omp_atk_fallback, omp_atv_true);
    REJECT(omp_atk_pinned, 2);
    REJECT(omp_atk_partition, omp_atv_thread);
    REJECT((omp_alloctrait_key_t)99, 0);
    /* Unknown memory spaces and (as in libgomp 12) high-bandwidth memory. */
    CHECK(omp_init_allocator((omp_memspace_handle_t)99, 0, NULL) == omp_null_allocator);
    CHECK(omp_init_allocator(omp_high_bw_mem_space, 0, NULL) == omp_null_allocator);
    /* Every default value is accepted. */
    omp_alloctrait_t all[] = {
        {omp_atk_sync_hint, omp_atv_default}, {omp_atk_alignment, omp_atv_default},
        {omp_atk_access, omp_atv_default},    {omp_atk_pool_size, omp_atv_default},
        {omp_atk_fallback, omp_atv_default},  {omp_atk_fb_data, 0},
        {omp_atk_pinned, omp_atv_default},    {omp_atk_partition, omp_atv_default},
    };
    omp_allocator_handle_t a = make(8, all);
    CHECK(a != omp_null_allocator);
    void *p = omp_alloc(1 << 20, a);
    CHECK(p != NULL);
    omp_free(p, a);
    omp_destroy_allocator(a);
    omp_allocator_handle_t lc = omp_init_allocator(omp_large_cap_mem_space, 0, NULL);
    omp_allocator_handle_t ll = omp_init_allocator(omp_low_lat_mem_space, 0, NULL);
    CHECK(lc != omp_null_allocator && ll != omp_null_allocator);
    omp_destroy_allocator(lc);
    omp_destroy_allocator(ll);
}

static void alignment(void)
{
    for (size_t al = 1; al <= 4096; al *= 2) {
        omp_alloctrait_t t = {omp_atk_alignment, al};
        omp_allocator_handle_t a = make(1, &t);
        CHECK(a != omp_null_allocator);
        for (int i = 0; i < 4; i++) {
            char *p = omp_alloc(1 + 37 * i, a);
            CHECK(p && ALIGNED(p, al));
            memset(p, 1, 1 + 37 * i);
            omp_free(p, a);
            /* omp_aligned_alloc: the larger of the two alignments */
            p = omp_aligned_alloc(256, 10, a);
            CHECK(p && ALIGNED(p, al > 256 ? al : 256));
            omp_free(p, omp_null_allocator);
        }
        omp_destroy_allocator(a);
    }
}

/* pool_size is charged with whole blocks (data plus the allocator's header
 * and padding), so these limits are exact for a 4096-byte pool: */
static void pool_and_fallbacks(void)
{
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 4096}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = make(2, t);
    CHECK(a != omp_null_allocator);
    void *p = omp_alloc(3000, a);
    CHECK(p != NULL);
    CHECK(omp_alloc(3000, a) == NULL); /* over budget: null_fb */
    void *q = omp_alloc(1000, a);
    CHECK(q != NULL);
    CHECK(omp_alloc(100, a) == NULL);
    omp_free(p, a);
    p = omp_alloc(3000, a); /* freed bytes come back */
    CHECK(p != NULL);
    omp_free(p, a);
    omp_free(q, a);
    /* With nothing allocated the whole pool minus one header is usable. */
    p = omp_alloc(4096 - 64, a);
    CHECK(p != NULL);
    omp_free(p, a);
    CHECK(omp_alloc(4097, a) == NULL);
    omp_destroy_allocator(a);

    /* default_mem_fb: the allocation comes from omp_default_mem_alloc. */
    omp_alloctrait_t d[] = {{omp_atk_pool_size, 128}, {omp_atk_alignment, 64}};
    a = make(2, d);
    p = omp_alloc(1000, a);
    CHECK(p != NULL);
    omp_free(p, a);

    /* allocator_fb: the fb_data allocator (alignment 32) takes over. */
    omp_alloctrait_t fb[] = {{omp_atk_pool_size, 256},
                             {omp_atk_fallback, omp_atv_allocator_fb},
                             {omp_atk_fb_data, 0},
                             {omp_atk_alignment, 8}};
    omp_alloctrait_t big[] = {{omp_atk_alignment, 512}, {omp_atk_fallback, omp_atv_null_fb},
                              {omp_atk_pool_size, 2048}};
    omp_allocator_handle_t b = make(3, big);
    fb[2].value = (omp_uintptr_t)b;
    omp_allocator_handle_t c = make(4, fb);
    CHECK(b != omp_null_allocator && c != omp_null_allocator);
    p = omp_alloc(100, c);            /* fits the small pool */
    CHECK(p && ALIGNED(p, 8));
    q = omp_alloc(1000, c);           /* does not: from b, aligned 512 */
    CHECK(q && ALIGNED(q, 512));
    CHECK(omp_alloc(1000, c) == NULL); /* b is full too, and b says null_fb */
    omp_free(p, omp_null_allocator);
    omp_free(q, omp_null_allocator);
    omp_destroy_allocator(c);
    omp_destroy_allocator(b);
    omp_destroy_allocator(a);
}

static void realloc_calloc(void)
{
    int *p = omp_calloc(1000, sizeof(int), omp_default_mem_alloc);
    CHECK(p != NULL);
    for (int i = 0; i < 1000; i++)
        CHECK(p[i] == 0);
    for (int i = 0; i < 1000; i++)
        p[i] = i;
    p = omp_realloc(p, 5000 * sizeof(int), omp_null_allocator, omp_null_allocator);
    CHECK(p != NULL);
    for (int i = 0; i < 1000; i++)
        CHECK(p[i] == i);
    p = omp_realloc(p, 10 * sizeof(int), omp_default_mem_alloc, omp_default_mem_alloc);
    CHECK(p && p[9] == 9);
    CHECK(omp_realloc(p, 0, omp_null_allocator, omp_null_allocator) == NULL);
    p = omp_realloc(NULL, 16, omp_default_mem_alloc, omp_null_allocator);
    CHECK(p != NULL);
    omp_free(p, omp_null_allocator);

    /* Growing inside a pool charges the difference only. */
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 4096}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = make(2, t);
    char *c = omp_alloc(3000, a);
    CHECK(c != NULL);
    c[2999] = 7;
    c = omp_realloc(c, 3500, a, a);
    CHECK(c && c[2999] == 7);
    char *d = omp_alloc(16, a);
    CHECK(d != NULL);
    CHECK(omp_realloc(d, 1000, a, a) == NULL); /* no room: d stays valid */
    d[0] = 1;
    omp_free(d, a);
    omp_free(c, a);
    /* Moving to an aligned allocator keeps the contents. */
    omp_alloctrait_t al = {omp_atk_alignment, 256};
    omp_allocator_handle_t b = make(1, &al);
    c = omp_alloc(300, a);
    memset(c, 3, 300);
    c = omp_realloc(c, 600, b, a);
    CHECK(c && ALIGNED(c, 256) && c[0] == 3 && c[299] == 3);
    omp_free(c, b);
    omp_destroy_allocator(b);
    omp_destroy_allocator(a);

    /* calloc overflow is a failed allocation, not a small block. */
    volatile size_t huge = SIZE_MAX / 2; /* hidden from the compiler's size check */
    CHECK(omp_calloc(huge, 4, omp_default_mem_alloc) == NULL);
}

static void *default_in_thread(void *arg)
{
    /* def-allocator-var is per thread: a new thread starts from the global one. */
    return (void *)(uintptr_t)(omp_get_default_allocator() == (omp_allocator_handle_t)(uintptr_t)arg);
}

static void default_allocator(void)
{
    CHECK(omp_get_default_allocator() == omp_default_mem_alloc);
    omp_alloctrait_t t = {omp_atk_alignment, 128};
    omp_allocator_handle_t a = make(1, &t);
    omp_set_default_allocator(a);
    CHECK(omp_get_default_allocator() == a);
    void *p = omp_alloc(10, omp_null_allocator);
    CHECK(p && ALIGNED(p, 128));
    omp_free(p, omp_null_allocator);
    pthread_t th;
    void *r;
    CHECK(pthread_create(&th, NULL, default_in_thread, (void *)omp_default_mem_alloc) == 0);
    CHECK(pthread_join(th, &r) == 0 && r == (void *)1);
    /* def-allocator-var is an ICV of the data environment: the implicit
     * tasks of a region start with the encountering task's value, and a
     * change inside the region stays there. */
    int inherited[2] = {0, 0};
#pragma omp parallel num_threads(2)
    {
        int id = omp_get_thread_num();
        inherited[id] = omp_get_default_allocator() == a;
        omp_set_default_allocator(omp_low_lat_mem_alloc);
    }
    CHECK(inherited[0] && inherited[1]);
    CHECK(omp_get_default_allocator() == a);
    omp_set_default_allocator(omp_null_allocator); /* means the default memory allocator */
    CHECK(omp_get_default_allocator() == omp_default_mem_alloc);
    omp_destroy_allocator(a);
}

static void gomp_entry_points(void)
{
    void *p = GOMP_alloc(64, 100, omp_default_mem_alloc);
    CHECK(p && ALIGNED(p, 64));
    GOMP_free(p, omp_default_mem_alloc);
    CHECK(GOMP_alloc(8, 0, omp_default_mem_alloc) == NULL);
}

/* Pinned memory: locked pages (VmLck grows while the block lives). */
static long vmlck_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static void pinned(void)
{
    omp_alloctrait_t t[] = {{omp_atk_pinned, omp_atv_true}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = make(2, t);
    CHECK(a != omp_null_allocator);
    long before = vmlck_kb();
    char *p = omp_alloc(100000, a);
    if (!p) {
        printf("note: pinned allocation refused (RLIMIT_MEMLOCK?); not checked\n");
    } else {
        memset(p, 1, 100000);
        CHECK(vmlck_kb() >= before + 97);
        omp_free(p, a);
        CHECK(vmlck_kb() == before);
    }
    omp_destroy_allocator(a);
}

/* Many threads allocate and free from one pool: the budget is never exceeded
 * and everything is refunded. */
#define POOL (64 * 1024)
static omp_allocator_handle_t shared_pool;
static _Atomic long live_bytes, max_live;

static void *pool_worker(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    void *mine[32] = {0};
    size_t sizes[32] = {0};
    for (int i = 0; i < 20000; i++) {
        int k = (int)(rand_r(&seed) % 32);
        if (mine[k]) {
            live_bytes -= (long)sizes[k];
            omp_free(mine[k], shared_pool);
            mine[k] = NULL;
        } else {
            sizes[k] = 16 + rand_r(&seed) % 2000;
            mine[k] = omp_alloc(sizes[k], shared_pool);
            if (mine[k]) {
                /* Not live_bytes += ...: clang 14 types that _Atomic long. */
                long now = atomic_fetch_add(&live_bytes, (long)sizes[k]) + (long)sizes[k];
                long m = max_live;
                while (now > m && !atomic_compare_exchange_weak(&max_live, &m, now))
                    ;
                memset(mine[k], 0x11, sizes[k]);
            }
        }
    }
    for (int k = 0; k < 32; k++)
        if (mine[k]) {
            live_bytes -= (long)sizes[k];
            omp_free(mine[k], shared_pool);
        }
    return NULL;
}

static void concurrent_pool(void)
{
    omp_alloctrait_t t[] = {{omp_atk_pool_size, POOL}, {omp_atk_fallback, omp_atv_null_fb}};
    shared_pool = make(2, t);
    pthread_t th[6];
    for (int i = 0; i < 6; i++)
        CHECK(pthread_create(&th[i], NULL, pool_worker, (void *)(uintptr_t)(i + 1)) == 0);
    for (int i = 0; i < 6; i++)
        CHECK(pthread_join(th[i], NULL) == 0);
    CHECK(live_bytes == 0);
    CHECK(max_live <= POOL);
    /* All refunded: nearly the whole pool is available again. */
    void *p = omp_alloc(POOL - 64, shared_pool);
    CHECK(p != NULL);
    omp_free(p, shared_pool);
    omp_destroy_allocator(shared_pool);
}

/* abort_fb: a failed allocation stops the program with a message. */
static void abort_fallback(void)
{
    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(pipefd[1], 2);
        omp_alloctrait_t t[] = {{omp_atk_pool_size, 100}, {omp_atk_fallback, omp_atv_abort_fb}};
        omp_allocator_handle_t a = make(2, t);
        omp_alloc(1000, a);
        _exit(0); /* not reached */
    }
    close(pipefd[1]);
    char buf[512] = {0};
    ssize_t n = 0, k;
    while ((k = read(pipefd[0], buf + n, sizeof buf - 1 - (size_t)n)) > 0)
        n += k;
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    CHECK(n > 0 && strstr(buf, "out of memory allocating 1000 bytes"));
}

int main(void)
{
    handles();
    bad_traits();
    alignment();
    pool_and_fallbacks();
    realloc_calloc();
    default_allocator();
    gomp_entry_points();
    pinned();
    concurrent_pool();
    abort_fallback();
    printf("allocators: all checks passed\n");
    return 0;
}
