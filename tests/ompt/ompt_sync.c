/* Synchronisation under the recording tool: explicit and implicit
 * barriers (sync_region and sync_region_wait pairs, states), critical
 * (unnamed, named), atomic, ordered and the lock API (mutex_acquire /
 * acquired / released with one wait id per lock and the matching wait
 * state; lock_init/destroy; nest_lock; test locks). */
#include <omp.h>

#include "ttq.h"

#define T 3

/* For each thread: acquire -> acquired -> released of one kind and wait id,
 * n times, in order, with the wait state seen in the acquire callback. */
static void check_mutex(int kind, int state, uint64_t wait_id, size_t n)
{
    ttq_wait(ompt_callback_mutex_released, ANY, kind, n);
    TCHECK(ttq_count(ompt_callback_mutex_acquire, ANY, kind) == n);
    TCHECK(ttq_count(ompt_callback_mutex_acquired, ANY, kind) == n);
    TCHECK(ttq_count(ompt_callback_mutex_released, ANY, kind) == n);
    for (size_t k = 0; k < n; k++) {
        const struct tt_event *a = ttq_nth(ompt_callback_mutex_acquire, ANY, kind, k);
        TCHECK(wait_id == 0 || a->a == wait_id);
        TCHECK(a->state == state && a->wait_id == a->a);
        TCHECK((a->b & 0xffffffffu) != 0);   /* an implementation is named */
        TCHECK(ttq_in_program(a->codeptr));
        /* This thread's next acquired and released of the same lock. */
        const struct tt_event *got = NULL, *rel = NULL;
        for (size_t i = a->seq + 1; i < tt_count(); i++) {
            const struct tt_event *e = tt_get(i);
            if (e->thread != a->thread || e->a != a->a)
                continue;
            if (!got && ttq_is(e, ompt_callback_mutex_acquired, ANY, kind))
                got = e;
            else if (got && ttq_is(e, ompt_callback_mutex_released, ANY, kind)) {
                rel = e;
                break;
            }
        }
        TCHECK(got && rel);
        TCHECK(got->state == ompt_state_work_parallel);
        TCHECK(ttq_in_program(got->codeptr) && ttq_in_program(rel->codeptr));
    }
}

static void check_barriers(int kind, int state, size_t n)
{
    ttq_wait(ompt_callback_sync_region, ompt_scope_end, kind, n);
    TCHECK(ttq_count(ompt_callback_sync_region, ompt_scope_begin, kind) == n);
    TCHECK(ttq_count(ompt_callback_sync_region_wait, ompt_scope_begin, kind) == n);
    TCHECK(ttq_count(ompt_callback_sync_region_wait, ompt_scope_end, kind) == n);
    for (size_t k = 0; k < n; k++) {
        const struct tt_event *b = ttq_nth(ompt_callback_sync_region, ompt_scope_begin, kind, k);
        const struct tt_event *wb = ttq_nth(ompt_callback_sync_region_wait, ompt_scope_begin, kind, k);
        TCHECK(b->parallel != 0 && b->task != 0 && b->q_task == b->task);
        TCHECK(ttq_in_program(b->codeptr));
        TCHECK(wb->state == state);
        /* The thread's own order: begin, wait begin, wait end, end. */
        const struct tt_event *seq[4] = {NULL};
        int s = 0;
        for (size_t i = b->seq; i < tt_count() && s < 4; i++) {
            const struct tt_event *e = tt_get(i);
            if (e->thread != b->thread || e->kind != kind)
                continue;
            if ((s == 0 && ttq_is(e, ompt_callback_sync_region, ompt_scope_begin, kind)) ||
                (s == 1 && ttq_is(e, ompt_callback_sync_region_wait, ompt_scope_begin, kind)) ||
                (s == 2 && ttq_is(e, ompt_callback_sync_region_wait, ompt_scope_end, kind)) ||
                (s == 3 && ttq_is(e, ompt_callback_sync_region, ompt_scope_end, kind)))
                seq[s++] = e;
        }
        TCHECK(s == 4 && seq[3]->task == b->task && seq[3]->parallel == b->parallel);
    }
    /* A barrier: every thread's wait begins before any thread's wait ends. */
    size_t last_begin = 0, first_end = SIZE_MAX;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (ttq_is(e, ompt_callback_sync_region_wait, ompt_scope_begin, kind))
            last_begin = i;
        if (ttq_is(e, ompt_callback_sync_region_wait, ompt_scope_end, kind) && i < first_end)
            first_end = i;
    }
    if (n > 1)
        TCHECK(last_begin < first_end);
}

int main(void)
{
    CHECK(tt_initialized());
    static volatile long counter;
    static long double ld;

    /* Explicit barrier. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp barrier
    }
    check_barriers(ompt_sync_region_barrier_explicit, ompt_state_wait_barrier_explicit, T);

    /* Implicit barrier of a worksharing loop (dynamic: goes through the runtime). */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp for schedule(dynamic)
        for (int i = 0; i < 100; i++)
            counter += 0;
    }
    check_barriers(ompt_sync_region_barrier_implicit_workshare,
                   ompt_state_wait_barrier_implicit_workshare, T);

    /* critical, named critical, atomic. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
        for (int i = 0; i < 5; i++) {
#pragma omp critical
            counter++;
#pragma omp critical(other)
            counter++;
#pragma omp atomic
            ld += 1.0L;
        }
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    const struct tt_event *c0 = ttq_nth(ompt_callback_mutex_acquire, ANY, ompt_mutex_critical, 0);
    TCHECK(c0 != NULL);
    size_t unnamed = 0;
    for (size_t i = 0; i < tt_count(); i++)
        unnamed += ttq_is(tt_get(i), ompt_callback_mutex_acquire, ANY, ompt_mutex_critical) &&
                   tt_get(i)->a == c0->a;
    TCHECK(unnamed == 5 * T);   /* one wait id for the unnamed critical, another for (other) */
    check_mutex(ompt_mutex_critical, ompt_state_wait_critical, 0, 2 * 5 * T);
    check_mutex(ompt_mutex_atomic, ompt_state_wait_atomic, 0, 5 * T);
    CHECK(counter == 2 * 5 * T && ld == 5 * T);

    /* Locks. */
    omp_lock_t lock;
    omp_nest_lock_t nest;
    tt_reset();
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
    TCHECK(ttq_count(ompt_callback_lock_init, ANY, ompt_mutex_lock) == 1);
    TCHECK(ttq_nth(ompt_callback_lock_init, ANY, ompt_mutex_lock, 0)->a == (uintptr_t)&lock);
    TCHECK(ttq_nth(ompt_callback_lock_init, ANY, ompt_mutex_nest_lock, 0)->a == (uintptr_t)&nest);
#pragma omp parallel num_threads(T)
    {
        for (int i = 0; i < 4; i++) {
            omp_set_lock(&lock);
            counter++;
            omp_unset_lock(&lock);
            omp_set_nest_lock(&nest);
            omp_set_nest_lock(&nest);   /* nested: nest_lock begin */
            counter++;
            omp_unset_nest_lock(&nest); /* nest_lock end */
            omp_unset_nest_lock(&nest);
        }
    }
    check_mutex(ompt_mutex_lock, ompt_state_wait_lock, (uintptr_t)&lock, 4 * T);
    /* Every omp_set_nest_lock is a lock-acquire event, the owner's too: */
    ttq_wait(ompt_callback_mutex_released, ANY, ompt_mutex_nest_lock, 4 * T);
    TCHECK(ttq_count(ompt_callback_mutex_acquire, ANY, ompt_mutex_nest_lock) == 8 * T);
    TCHECK(ttq_count(ompt_callback_mutex_acquired, ANY, ompt_mutex_nest_lock) == 4 * T);
    TCHECK(ttq_count(ompt_callback_mutex_released, ANY, ompt_mutex_nest_lock) == 4 * T);
    TCHECK(ttq_count(ompt_callback_nest_lock, ompt_scope_begin, ANY) == 4 * T);
    TCHECK(ttq_count(ompt_callback_nest_lock, ompt_scope_end, ANY) == 4 * T);
    /* test locks: one success, one failure (the lock is held). */
    tt_reset();
    CHECK(omp_test_lock(&lock));
    CHECK(!omp_test_lock(&lock));
    omp_unset_lock(&lock);
    TCHECK(ttq_count(ompt_callback_mutex_acquire, ANY, ompt_mutex_test_lock) == 2);
    TCHECK(ttq_count(ompt_callback_mutex_acquired, ANY, ompt_mutex_test_lock) == 1);
    TCHECK(ttq_count(ompt_callback_mutex_released, ANY, ompt_mutex_lock) == 1);
    CHECK(omp_test_nest_lock(&nest) == 1 && omp_test_nest_lock(&nest) == 2);
    omp_unset_nest_lock(&nest);
    omp_unset_nest_lock(&nest);
    TCHECK(ttq_count(ompt_callback_mutex_acquired, ANY, ompt_mutex_test_nest_lock) == 1);
    TCHECK(ttq_count(ompt_callback_nest_lock, ompt_scope_begin, ANY) == 1);
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    TCHECK(ttq_count(ompt_callback_lock_destroy, ANY, ompt_mutex_lock) == 1);
    TCHECK(ttq_count(ompt_callback_lock_destroy, ANY, ompt_mutex_nest_lock) == 1);
    TCHECK(ttq_nth(ompt_callback_lock_destroy, ANY, ompt_mutex_lock, 0)->a == (uintptr_t)&lock);

    /* ordered: every iteration's ordered region, in iteration order. */
    static int order[40];
    static int pos;
    tt_reset();
#pragma omp parallel for ordered schedule(dynamic) num_threads(T)
    for (int i = 0; i < 40; i++) {
#pragma omp ordered
        order[pos++] = i;
    }
    check_mutex(ompt_mutex_ordered, ompt_state_wait_ordered, 0, 40);
    for (int i = 0; i < 40; i++)
        CHECK(order[i] == i);
    printf("ompt_sync: ok\n");
    return 0;
}
