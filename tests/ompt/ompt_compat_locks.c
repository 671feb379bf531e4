/* The OpenMP 2.5 nestable lock entry points (omp_*_nest_lock@OMP_1.0, the
 * 8-byte { owner thread, count } layout that GCC < 4.4 compiled against)
 * under the recording tool: the same events as the OpenMP 3.0 nest locks
 * (lock_init / lock_destroy with ompt_mutex_nest_lock, mutex_acquire /
 * acquired / released, nest_lock begin/end for re-acquisition and partial
 * release, test_nest_lock acquire/acquired and a failed test), all with the
 * lock's address as wait id. */
#include <dlfcn.h>
#include <omp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ttq.h"

#define T 2
#define ROUNDS 50

/* The 2.5 lock between guard words (the entry points must write 8 bytes). */
static struct {
    uint32_t g0;
    int32_t nest[2];
    uint32_t g1;
} l25 = {0xabababab, {0, 0}, 0xcdcdcdcd};

typedef void (*lock_fn)(void *);
typedef int (*test_fn)(void *);
static lock_fn init_nest, destroy_nest, set_nest, unset_nest;
static test_fn test_nest;

/* name@OMP_1.0 from the runtime that pvomp_check.h proved is pvomp. */
static void *old_sym(const char *name)
{
    void *p = dlvsym(RTLD_DEFAULT, name, "OMP_1.0");
    if (!p)
        fprintf(stderr, "no %s@OMP_1.0\n", name);
    CHECK(p != NULL);
    const char *(*path)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "pvomp_runtime_path");
    Dl_info info;
    CHECK(path && dladdr(p, &info) && strcmp(info.dli_fname, path()) == 0);
    /* Not the default (OpenMP 3.0) version. */
    CHECK(p != dlsym(RTLD_DEFAULT, name));
    return p;
}

/* The events of this lock, in log order, as a string of letters:
 * i init, d destroy, a acquire, A acquired, r released, t test acquire,
 * T test acquired, b nest_lock begin, e nest_lock end.  Also checks that
 * every event names the lock and was called from the program. */
static void lock_story(char *out, size_t cap)
{
    uint64_t wid = (uintptr_t)l25.nest;
    size_t n = 0;
    for (size_t i = 0; i < tt_count() && n + 1 < cap; i++) {
        const struct tt_event *e = tt_get(i);
        char c = 0;
        switch (e->type) {
        case ompt_callback_lock_init:
            c = 'i';
            break;
        case ompt_callback_lock_destroy:
            c = 'd';
            break;
        case ompt_callback_mutex_acquire:
            c = e->kind == ompt_mutex_test_nest_lock ? 't' : 'a';
            break;
        case ompt_callback_mutex_acquired:
            c = e->kind == ompt_mutex_test_nest_lock ? 'T' : 'A';
            break;
        case ompt_callback_mutex_released:
            c = 'r';
            break;
        case ompt_callback_nest_lock:
            c = e->endpoint == ompt_scope_begin ? 'b' : 'e';
            break;
        default:
            continue;
        }
        TCHECK(e->a == wid);
        TCHECK(ttq_in_program(e->codeptr));
        if (e->type != ompt_callback_nest_lock && c != 't' && c != 'T')
            TCHECK(e->kind == ompt_mutex_nest_lock);
        out[n++] = c;
    }
    out[n] = 0;
}

static void expect_story(const char *want)
{
    char got[64];
    lock_story(got, sizeof got);
    if (strcmp(got, want) != 0) {
        ttq_dump("lock events");
        fprintf(stderr, "FAIL: lock events '%s', expected '%s'\n", got, want);
        exit(1);
    }
}

int main(void)
{
    CHECK(tt_initialized());
    init_nest = (lock_fn)old_sym("omp_init_nest_lock");
    destroy_nest = (lock_fn)old_sym("omp_destroy_nest_lock");
    set_nest = (lock_fn)old_sym("omp_set_nest_lock");
    unset_nest = (lock_fn)old_sym("omp_unset_nest_lock");
    test_nest = (test_fn)old_sym("omp_test_nest_lock");
    void *lk = l25.nest;

    /* One thread: init, acquire, re-acquire twice (set, test), partial
     * releases, release; then a test that takes the free lock. */
    tt_reset();
    init_nest(lk);
    set_nest(lk);
    CHECK(l25.nest[0] == (int32_t)syscall(SYS_gettid) && l25.nest[1] == 1); /* the 2.5 layout */
    set_nest(lk);
    CHECK(test_nest(lk) == 3);
    unset_nest(lk);
    unset_nest(lk);
    unset_nest(lk);
    CHECK(l25.nest[0] == 0 && l25.nest[1] == 0);
    CHECK(test_nest(lk) == 1);
    unset_nest(lk);
    expect_story("iaAabtbeertTr"); /* each set/test is an acquire, the owner's too */
    const struct tt_event *a = ttq_nth(ompt_callback_mutex_acquire, ANY, ompt_mutex_nest_lock, 0);
    TCHECK(a->state == ompt_state_wait_lock && a->wait_id == (uintptr_t)lk);
    TCHECK((a->b & 0xffffffffu) != 0);   /* an implementation is named */
    const struct tt_event *got = ttq_nth(ompt_callback_mutex_acquired, ANY, ompt_mutex_nest_lock, 0);
    TCHECK(got->state == ompt_state_work_serial);
    const struct tt_event *t = ttq_nth(ompt_callback_mutex_acquire, ANY, ompt_mutex_test_nest_lock, 0);
    TCHECK(t->state == ompt_state_wait_lock && t->wait_id == (uintptr_t)lk);

    /* A test by another thread while the lock is held fails: an acquire
     * with no acquired, and the thread's state is back to work. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
        if (omp_get_thread_num() == 0)
            set_nest(lk);
#pragma omp barrier
        if (omp_get_thread_num() == 1)
            CHECK(test_nest(lk) == 0);
#pragma omp barrier
        if (omp_get_thread_num() == 0)
            unset_nest(lk);
    }
    expect_story("aAtr");
    TCHECK(ttq_nth(ompt_callback_mutex_acquire, ANY, ompt_mutex_test_nest_lock, 0)->thread !=
           ttq_nth(ompt_callback_mutex_acquire, ANY, ompt_mutex_nest_lock, 0)->thread);

    /* Contention: each thread's own events pair up (acquire, acquired,
     * acquire, begin, end, released), with the wait state in the acquire. */
    tt_reset();
    static int counter;
#pragma omp parallel num_threads(T)
    for (int i = 0; i < ROUNDS; i++) {
        set_nest(lk);
        set_nest(lk);
        counter++;
        unset_nest(lk);
        unset_nest(lk);
    }
    CHECK(counter == T * ROUNDS);
    char all[8 * T * ROUNDS];
    lock_story(all, sizeof all);
    CHECK(strlen(all) == 6 * T * ROUNDS);
    /* two acquires a round (the owner's second set is one too) */
    TCHECK(ttq_count(ompt_callback_mutex_acquire, ANY, ompt_mutex_nest_lock) == 2 * T * ROUNDS);
    size_t firsts = 0;
    for (size_t k = 0; k < 2 * T * ROUNDS; k++) {
        const struct tt_event *acq = ttq_nth(ompt_callback_mutex_acquire, ANY, ompt_mutex_nest_lock, k);
        TCHECK(acq->state == ompt_state_wait_lock && acq->wait_id == (uintptr_t)lk);
        /* The owner's acquire (a nest_lock begin follows) is checked from the first. */
        const struct tt_event *after = NULL;
        for (size_t i = acq->seq + 1; i < tt_count() && !after; i++)
            if (tt_get(i)->thread == acq->thread)
                after = tt_get(i);
        TCHECK(after);
        if (after->type == ompt_callback_nest_lock)
            continue;
        firsts++;
        static const int want[] = {ompt_callback_mutex_acquired, ompt_callback_mutex_acquire,
                                   ompt_callback_nest_lock, ompt_callback_nest_lock,
                                   ompt_callback_mutex_released};
        int s = 0;
        for (size_t i = acq->seq + 1; i < tt_count() && s < 5; i++) {
            const struct tt_event *e = tt_get(i);
            if (e->thread != acq->thread)
                continue;
            TCHECK(e->type == want[s]);
            if (s == 2)
                TCHECK(e->endpoint == ompt_scope_begin);
            if (s == 3)
                TCHECK(e->endpoint == ompt_scope_end);
            s++;
        }
        TCHECK(s == 5);
    }
    TCHECK(firsts == T * ROUNDS);

    tt_reset();
    destroy_nest(lk);
    expect_story("d");
    CHECK(l25.g0 == 0xabababab && l25.g1 == 0xcdcdcdcd);
    printf("ompt_compat_locks: ok\n");
    return 0;
}
