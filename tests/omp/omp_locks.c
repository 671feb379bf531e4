/* Locks: simple and nestable locks give mutual exclusion with exact counts;
 * omp_test_lock fails while another thread holds the lock and succeeds when
 * it is free; omp_test_nest_lock returns the new nesting count to the owner
 * and 0 to others; lock state stays inside the 4 and 16 bytes of gcc's
 * omp.h (guard words around packed locks stay intact); and the pre-GCC-4.4
 * lock entry points (@OMP_1.0, 4- and 8-byte layouts) work the same way. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdint.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define ITERS 20000
#define GUARD 0x5a5aa5a5u

static int inside, overlap;

static void enter(void)
{
    if (__atomic_exchange_n(&inside, 1, __ATOMIC_ACQ_REL) != 0)
        TEST_INC(&overlap);
}

static void leave(void)
{
    __atomic_store_n(&inside, 0, __ATOMIC_RELEASE);
}

static void test_simple(void)
{
    CHECK(sizeof(omp_lock_t) == 4 && sizeof(omp_nest_lock_t) == 16);
    omp_lock_t l;
    omp_init_lock(&l);
    for (int nt = 1; nt <= 4; nt++) {
        long counter = 0;
        overlap = 0;
#pragma omp parallel num_threads(nt)
        for (int i = 0; i < ITERS; i++) {
            if (i % 2) {
                omp_set_lock(&l);
            } else {
                while (!omp_test_lock(&l)) {
                }
            }
            enter();
            long v = counter;
            if (i % 1000 == 0)
                test_delay(300);
            counter = v + 1;
            leave();
            omp_unset_lock(&l);
        }
        CHECK(overlap == 0);
        CHECK(counter == (long)nt * ITERS);
    }

    /* omp_test_lock fails while another thread holds the lock. */
    int got_while_held = 0, got_when_free = 0;
#pragma omp parallel num_threads(3)
    {
        int me = omp_get_thread_num();
        if (me == 0)
            omp_set_lock(&l);
#pragma omp barrier
        if (me != 0 && omp_test_lock(&l))
            TEST_INC(&got_while_held);
#pragma omp barrier
        if (me == 0)
            omp_unset_lock(&l);
#pragma omp barrier
        if (me == 1 && omp_test_lock(&l)) {
            TEST_INC(&got_when_free);
            omp_unset_lock(&l);
        }
    }
    CHECK(got_while_held == 0 && got_when_free == 1);
    omp_destroy_lock(&l);

    /* Destroyed then initialised again: usable and free. */
    omp_init_lock(&l);
    CHECK(omp_test_lock(&l) == 1);
    omp_unset_lock(&l);
    omp_destroy_lock(&l);
}

static void test_nested(void)
{
    omp_nest_lock_t nl;
    omp_init_nest_lock(&nl);
    for (int nt = 1; nt <= 4; nt++) {
        long counter = 0;
        overlap = 0;
#pragma omp parallel num_threads(nt)
        for (int i = 0; i < ITERS / 2; i++) {
            omp_set_nest_lock(&nl);
            enter();
            leave();
            /* re-entry by the owner */
            omp_set_nest_lock(&nl);
            int depth = omp_test_nest_lock(&nl);
            enter();
            counter++;
            leave();
            omp_unset_nest_lock(&nl);
            omp_unset_nest_lock(&nl);
            omp_unset_nest_lock(&nl);
            if (depth != 3)
                TEST_INC(&overlap);
        }
        CHECK(overlap == 0);
        CHECK(counter == (long)nt * (ITERS / 2));
    }

    int counts[4] = {0}, others = 0, after = 0;
#pragma omp parallel num_threads(3)
    {
        int me = omp_get_thread_num();
        if (me == 0) {
            omp_set_nest_lock(&nl);
            omp_set_nest_lock(&nl);
            omp_set_nest_lock(&nl);
            counts[0] = omp_test_nest_lock(&nl); /* 4 */
        }
#pragma omp barrier
        if (me != 0)
            TEST_ADD(&others, omp_test_nest_lock(&nl)); /* 0: held by thread 0 */
#pragma omp barrier
        if (me == 0) {
            for (int k = 0; k < 3; k++)
                omp_unset_nest_lock(&nl);
            /* still held once: others still fail */
        }
#pragma omp barrier
        if (me != 0)
            TEST_ADD(&others, omp_test_nest_lock(&nl));
#pragma omp barrier
        if (me == 0)
            omp_unset_nest_lock(&nl);
#pragma omp barrier
        if (me == 2) {
            counts[1] = omp_test_nest_lock(&nl); /* 1: free now */
            counts[2] = omp_test_nest_lock(&nl); /* 2 */
            omp_unset_nest_lock(&nl);
            omp_unset_nest_lock(&nl);
        }
#pragma omp barrier
        if (me == 1) {
            after = omp_test_nest_lock(&nl);
            if (after)
                omp_unset_nest_lock(&nl);
        }
    }
    CHECK(counts[0] == 4 && others == 0 && counts[1] == 1 && counts[2] == 2 && after == 1);
    omp_destroy_nest_lock(&nl);
}

/* Locks packed between guard words: the runtime keeps its state inside the
 * object. */
struct guarded {
    uint32_t g0;
    omp_lock_t l;
    uint32_t g1;
};
struct guarded_nest {
    uint64_t g0;
    omp_nest_lock_t l;
    uint64_t g1;
};

static void test_layout(void)
{
    enum { NL = 64 };
    static struct guarded gl[NL];
    static struct guarded_nest gn[NL];
    static long cnt[NL];
    for (int k = 0; k < NL; k++) {
        gl[k].g0 = gl[k].g1 = GUARD;
        gn[k].g0 = gn[k].g1 = ((uint64_t)GUARD << 32) | GUARD;
        omp_init_lock(&gl[k].l);
        omp_init_nest_lock(&gn[k].l);
    }
#pragma omp parallel num_threads(4)
    for (int i = 0; i < ITERS; i++) {
        int k = (i * 7 + omp_get_thread_num()) % NL;
        omp_set_lock(&gl[k].l);
        omp_set_nest_lock(&gn[k].l);
        omp_set_nest_lock(&gn[k].l);
        cnt[k]++;
        omp_unset_nest_lock(&gn[k].l);
        omp_unset_nest_lock(&gn[k].l);
        omp_unset_lock(&gl[k].l);
    }
    long total = 0;
    for (int k = 0; k < NL; k++) {
        total += cnt[k];
        CHECK(gl[k].g0 == GUARD && gl[k].g1 == GUARD);
        CHECK(gn[k].g0 == (((uint64_t)GUARD << 32) | GUARD) && gn[k].g1 == gn[k].g0);
        omp_destroy_lock(&gl[k].l);
        omp_destroy_nest_lock(&gn[k].l);
    }
    CHECK(total == 4L * ITERS);
}

/* The @OMP_1.0 versions: omp_lock_25_t is an int, omp_nest_lock_25_t is
 * two ints (owner thread, count). */
struct old_locks {
    uint32_t g0;
    int32_t lock;
    uint32_t g1;
    int32_t nest[2];
    uint32_t g2;
};

typedef void (*lockfn)(void *);
typedef int (*testfn)(void *);

static void *old_sym(const char *name)
{
    void *p = dlvsym(RTLD_DEFAULT, name, "OMP_1.0");
    if (!p) {
        fprintf(stderr, "no %s@OMP_1.0\n", name);
        CHECK(p != NULL);
    }
    /* It comes from the runtime that pvomp_check.h proved is pvomp. */
    const char *(*path)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "pvomp_runtime_path");
    Dl_info info;
    CHECK(dladdr(p, &info) != 0);
    if (path)
        CHECK(strcmp(info.dli_fname, path()) == 0);
    return p;
}

static void test_compat(void)
{
    lockfn init = (lockfn)old_sym("omp_init_lock"), destroy = (lockfn)old_sym("omp_destroy_lock");
    lockfn set = (lockfn)old_sym("omp_set_lock"), unset = (lockfn)old_sym("omp_unset_lock");
    testfn test = (testfn)old_sym("omp_test_lock");
    lockfn ninit = (lockfn)old_sym("omp_init_nest_lock");
    lockfn ndestroy = (lockfn)old_sym("omp_destroy_nest_lock");
    lockfn nset = (lockfn)old_sym("omp_set_nest_lock");
    lockfn nunset = (lockfn)old_sym("omp_unset_nest_lock");
    testfn ntest = (testfn)old_sym("omp_test_nest_lock");

    static struct old_locks o = {GUARD, 0, GUARD, {0, 0}, GUARD};
    init(&o.lock);
    ninit(o.nest);
    long counter = 0;
    int fail_held = 0, nest_other = 0, bad_depth = 0;
#pragma omp parallel num_threads(4)
    {
        for (int i = 0; i < ITERS; i++) {
            if (i % 2)
                set(&o.lock);
            else
                while (!test(&o.lock)) {
                }
            nset(o.nest);
            if (ntest(o.nest) != 2)
                TEST_INC(&bad_depth);
            counter++;
            nunset(o.nest);
            nunset(o.nest);
            unset(&o.lock);
        }
#pragma omp barrier
        int me = omp_get_thread_num();
        if (me == 0) {
            set(&o.lock);
            nset(o.nest);
        }
#pragma omp barrier
        if (me != 0) {
            TEST_ADD(&fail_held, test(&o.lock));
            TEST_ADD(&nest_other, ntest(o.nest));
        }
#pragma omp barrier
        if (me == 0) {
            nunset(o.nest);
            unset(&o.lock);
        }
    }
    CHECK(bad_depth == 0 && fail_held == 0 && nest_other == 0);
    CHECK(counter == 4L * ITERS);
    CHECK(o.g0 == GUARD && o.g1 == GUARD && o.g2 == GUARD);
    destroy(&o.lock);
    ndestroy(o.nest);
}

int main(void)
{
    test_simple();
    test_nested();
    test_layout();
    test_compat();
    printf("omp_locks: ok\n");
    return 0;
}
