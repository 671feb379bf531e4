/* Locks: simple and nestable, with contention from plain pthreads (so that the
 * test does not depend on parallel regions), ownership by task inside a
 * parallel region, and the pre-GCC-4.4 layouts exported as @OMP_1.0. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "pvomp_check.h"

#define THREADS 6
#define ITERS 20000

static omp_lock_t lock;
static omp_nest_lock_t nlock;
static long counter;         /* protected by lock / nlock */
static int inside;           /* threads inside the critical section (must stay <= 1) */
static int max_inside;
/* The compat test guards a second section with a second lock: it has its own
 * count (two sections under two different locks may overlap legitimately). */
static long counter_nest;
static int inside_nest, max_inside_nest;

static void enter_section(int *in, int *max)
{
    int n = __atomic_add_fetch(in, 1, __ATOMIC_RELAXED);
    if (n > __atomic_load_n(max, __ATOMIC_RELAXED))
        __atomic_store_n(max, n, __ATOMIC_RELAXED);
}

static void enter(void)
{
    enter_section(&inside, &max_inside);
}

static void leave(void)
{
    __atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED);
}

static void *simple_worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS; i++) {
        if (i % 7 == 0) {
            while (!omp_test_lock(&lock))
                ;
        } else {
            omp_set_lock(&lock);
        }
        enter();
        counter++;
        leave();
        omp_unset_lock(&lock);
    }
    return NULL;
}

static void *nest_worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS / 4; i++) {
        omp_set_nest_lock(&nlock);
        enter();
        /* Re-entering is allowed for the owner; test returns the new depth. */
        CHECK(omp_test_nest_lock(&nlock) == 2);
        omp_set_nest_lock(&nlock);
        CHECK(omp_test_nest_lock(&nlock) == 4);
        counter++;
        omp_unset_nest_lock(&nlock);
        omp_unset_nest_lock(&nlock);
        omp_unset_nest_lock(&nlock);
        leave();
        omp_unset_nest_lock(&nlock);
    }
    return NULL;
}

static void run_threads(void *(*fn)(void *))
{
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, fn, NULL) == 0);
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
}

/* A nest lock held by one thread is unavailable to another. */
static void *try_nest_elsewhere(void *arg)
{
    return (void *)(intptr_t)omp_test_nest_lock((omp_nest_lock_t *)arg);
}

static void *try_simple_elsewhere(void *arg)
{
    return (void *)(intptr_t)omp_test_lock((omp_lock_t *)arg);
}

static intptr_t on_other_thread(void *(*fn)(void *), void *arg)
{
    pthread_t t;
    void *ret;
    CHECK(pthread_create(&t, NULL, fn, arg) == 0);
    CHECK(pthread_join(t, &ret) == 0);
    return (intptr_t)ret;
}

static void layouts(void)
{
    CHECK(sizeof(omp_lock_t) == 4);
    CHECK(sizeof(omp_nest_lock_t) == 16);
    /* An initialised lock is all zero bytes (what static zero-init gives). */
    omp_lock_t l;
    omp_nest_lock_t n;
    memset(&l, 0xff, sizeof l);
    memset(&n, 0xff, sizeof n);
    omp_init_lock(&l);
    omp_init_nest_lock(&n);
    static const char zero[16];
    CHECK(memcmp(&l, zero, sizeof l) == 0);
    CHECK(memcmp(&n, zero, sizeof n) == 0);
    omp_destroy_lock(&l);
    omp_destroy_nest_lock(&n);
}

static void single_thread(void)
{
    omp_lock_t l;
    omp_init_lock(&l);
    CHECK(omp_test_lock(&l) == 1);
    CHECK(omp_test_lock(&l) == 0); /* simple locks do not nest */
    CHECK(on_other_thread(try_simple_elsewhere, &l) == 0);
    omp_unset_lock(&l);
    CHECK(on_other_thread(try_simple_elsewhere, &l) == 1); /* the other thread took it ... */
    omp_unset_lock(&l);                                     /* ... and any thread may release */
    omp_destroy_lock(&l);

    omp_nest_lock_t n;
    omp_init_nest_lock(&n);
    CHECK(omp_test_nest_lock(&n) == 1);
    CHECK(omp_test_nest_lock(&n) == 2);
    omp_set_nest_lock(&n);
    CHECK(omp_test_nest_lock(&n) == 4);
    CHECK(on_other_thread(try_nest_elsewhere, &n) == 0);
    for (int i = 0; i < 4; i++)
        omp_unset_nest_lock(&n);
    CHECK(on_other_thread(try_nest_elsewhere, &n) == 1);
    omp_destroy_nest_lock(&n);
}

/* Nestable locks belong to tasks: two implicit tasks of a team (even if one
 * thread ran both) must not share ownership. */
static void task_ownership(void)
{
    omp_nest_lock_t n;
    int got[2] = {-1, -1};
    omp_init_nest_lock(&n);
    omp_set_nest_lock(&n); /* owned by the initial task */
#pragma omp parallel num_threads(2)
    {
        got[omp_get_thread_num()] = omp_test_nest_lock(&n);
    }
    /* Implicit task 0 runs on the same thread as the initial task, but it is
     * another task: the lock is not its to re-enter. */
    CHECK(got[0] == 0);
    CHECK(got[1] == 0);
    CHECK(omp_test_nest_lock(&n) == 2);
    omp_unset_nest_lock(&n);
    omp_unset_nest_lock(&n);

    long sum = 0;
#pragma omp parallel num_threads(4)
    for (int i = 0; i < 1000; i++) {
        omp_set_nest_lock(&n);
        omp_set_nest_lock(&n);
        sum++;
        omp_unset_nest_lock(&n);
        omp_unset_nest_lock(&n);
    }
    CHECK(sum == 4000);
    omp_destroy_nest_lock(&n);
}

/* ------------------------------------------------ the OpenMP 2.5 layouts */

typedef void (*lock_fn)(void *);
typedef int (*test_fn)(void *);

struct compat {
    lock_fn init, destroy, set, unset;
    test_fn test;
    lock_fn ninit, ndestroy, nset, nunset;
    test_fn ntest;
};

static void *sym(const char *name, const char *version)
{
    void *p = dlvsym(RTLD_DEFAULT, name, version);
    if (!p) {
        fprintf(stderr, "FAIL: %s@%s is not exported\n", name, version);
        exit(1);
    }
    return p;
}

static struct compat c25;
static int lock25;                                  /* omp_lock_t of 2.5 */
static struct { int owner, count; } nlock25;        /* omp_nest_lock_t of 2.5 */

static void *compat_worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS / 4; i++) {
        c25.set(&lock25);
        enter();
        counter++;
        leave();
        c25.unset(&lock25);
        c25.nset(&nlock25);
        c25.nset(&nlock25);
        enter_section(&inside_nest, &max_inside_nest);
        counter_nest++;
        __atomic_sub_fetch(&inside_nest, 1, __ATOMIC_RELAXED);
        c25.nunset(&nlock25);
        c25.nunset(&nlock25);
    }
    return NULL;
}

static void *compat_test_elsewhere(void *arg)
{
    (void)arg;
    return (void *)(intptr_t)c25.ntest(&nlock25);
}

static void compat(void)
{
    c25 = (struct compat){
        sym("omp_init_lock", "OMP_1.0"),      sym("omp_destroy_lock", "OMP_1.0"),
        sym("omp_set_lock", "OMP_1.0"),       sym("omp_unset_lock", "OMP_1.0"),
        sym("omp_test_lock", "OMP_1.0"),      sym("omp_init_nest_lock", "OMP_1.0"),
        sym("omp_destroy_nest_lock", "OMP_1.0"), sym("omp_set_nest_lock", "OMP_1.0"),
        sym("omp_unset_nest_lock", "OMP_1.0"), sym("omp_test_nest_lock", "OMP_1.0"),
    };
    /* The default versions are the ones the program linked against. */
    CHECK(sym("omp_set_lock", "OMP_3.0") == (void *)omp_set_lock);
    CHECK(sym("omp_set_nest_lock", "OMP_3.0") == (void *)omp_set_nest_lock);
    CHECK(sym("omp_set_nest_lock", "OMP_1.0") != (void *)omp_set_nest_lock);
    /* The Fortran twins exist in both versions too. */
    sym("omp_set_nest_lock_", "OMP_1.0");
    sym("omp_set_nest_lock_", "OMP_3.0");

    c25.init(&lock25);
    c25.ninit(&nlock25);
    CHECK(lock25 == 0 && nlock25.owner == 0 && nlock25.count == 0);
    CHECK(c25.test(&lock25) == 1 && c25.test(&lock25) == 0);
    c25.unset(&lock25);
    /* 2.5 nest locks belong to threads: the owner field is the thread id. */
    CHECK(c25.ntest(&nlock25) == 1);
    CHECK(nlock25.owner == (int)gettid() && nlock25.count == 1);
    CHECK(c25.ntest(&nlock25) == 2);
    CHECK(on_other_thread(compat_test_elsewhere, NULL) == 0);
    c25.nunset(&nlock25);
    c25.nunset(&nlock25);
    CHECK(nlock25.owner == 0);

    counter = counter_nest = 0;
    max_inside = max_inside_nest = 0;
    run_threads(compat_worker);
    CHECK(counter == (long)THREADS * (ITERS / 4));
    CHECK(counter_nest == (long)THREADS * (ITERS / 4));
    CHECK(max_inside == 1 && max_inside_nest == 1);
    c25.destroy(&lock25);
    c25.ndestroy(&nlock25);
}

int main(void)
{
    layouts();
    single_thread();

    omp_init_lock(&lock);
    run_threads(simple_worker);
    CHECK(counter == (long)THREADS * ITERS);
    CHECK(max_inside == 1);
    omp_destroy_lock(&lock);

    counter = 0;
    max_inside = 0;
    omp_init_nest_lock(&nlock);
    run_threads(nest_worker);
    CHECK(counter == (long)THREADS * (ITERS / 4));
    CHECK(max_inside == 1);
    omp_destroy_nest_lock(&nlock);

    task_ownership();
    compat();
    printf("locks: all checks passed\n");
    return 0;
}
