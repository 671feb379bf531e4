/* Score-P's remediable probe wrong_test_lock_mutex: mutex_acquire and
 * mutex_acquired of omp_test_lock / omp_test_nest_lock carry the test-lock
 * kinds (ompt_mutex_test_lock, ompt_mutex_test_nest_lock). */
#define PROBE_NAME "scorep_test_lock_mutex"
#include <omp.h>
#include "probe.h"

static int events, wrong_kind;

static void check_kind(ompt_mutex_t kind)
{
    __atomic_fetch_add(&events, 1, __ATOMIC_RELAXED);
    if (kind != ompt_mutex_test_lock && kind != ompt_mutex_test_nest_lock)
        wrong_kind = (int)kind;
}

static void on_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl, ompt_wait_id_t wait_id,
                       const void *codeptr)
{
    (void)hint, (void)impl, (void)wait_id, (void)codeptr;
    check_kind(kind);
}

static void on_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)wait_id, (void)codeptr;
    check_kind(kind);
}

static void probe_register(void)
{
    PROBE_REGISTER(ompt_callback_mutex_acquire, on_acquire);
    PROBE_REGISTER(ompt_callback_mutex_acquired, on_acquired);
}

static const char *probe_verdict(void)
{
    static char why[96];
    if (wrong_kind) {
        snprintf(why, sizeof why, "a test lock's acquire/acquired had mutex kind %d", wrong_kind);
        return why;
    }
    /* Score-P passes a runtime that sends nothing; ours must send the four. */
    if (events != 4) {
        snprintf(why, sizeof why, "%d acquire/acquired events, expected 4", events);
        return why;
    }
    return NULL;
}

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    while (!omp_test_lock(&lock)) {
    }
    omp_unset_lock(&lock);
    omp_destroy_lock(&lock);

    omp_nest_lock_t nest;
    omp_init_nest_lock(&nest);
    while (!omp_test_nest_lock(&nest)) {
    }
    omp_unset_nest_lock(&nest);
    omp_destroy_nest_lock(&nest);
    return PROBE_NOT_FINALIZED;   /* the runtime's finalization ends the program first */
}
