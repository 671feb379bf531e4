/* ompt_enumerate_states and ompt_enumerate_mutex_impls: start from
 * ompt_state_undefined (ompt_mutex_impl_none), pass back what was returned,
 * stop when the answer is 0. */
#include "ompt/tool.h"

struct named {
    int value;
    const char *name;
};

#define STATE(s) {s, #s}
static const struct named states[] = {
    STATE(ompt_state_undefined),  /* the start of the enumeration, not returned */
    STATE(ompt_state_work_serial),
    STATE(ompt_state_work_parallel),
    STATE(ompt_state_work_reduction),
    STATE(ompt_state_wait_barrier_implicit_parallel),
    STATE(ompt_state_wait_barrier_implicit_workshare),
    STATE(ompt_state_wait_barrier_explicit),
    STATE(ompt_state_wait_barrier_implementation),
    STATE(ompt_state_wait_barrier_teams),
    STATE(ompt_state_wait_taskwait),
    STATE(ompt_state_wait_taskgroup),
    STATE(ompt_state_wait_mutex),
    STATE(ompt_state_wait_lock),
    STATE(ompt_state_wait_critical),
    STATE(ompt_state_wait_atomic),
    STATE(ompt_state_wait_ordered),
    STATE(ompt_state_wait_target),
    STATE(ompt_state_wait_target_map),
    STATE(ompt_state_wait_target_update),
    STATE(ompt_state_idle),
    STATE(ompt_state_overhead),
};

static const struct named mutex_impls[] = {
    {ompt_mutex_impl_none, "ompt_mutex_impl_none"},
    /* runtime/mutex.h: one futex word, spin then sleep through src/wait. */
    {PV_OMPT_MUTEX_IMPL_FUTEX, "pvomp_mutex_spin_futex"},
};

static int next_of(const struct named *list, int n, int current, int *next, const char **name)
{
    for (int i = 0; i + 1 < n; i++) {
        if (list[i].value == current) {
            if (next)
                *next = list[i + 1].value;
            if (name)
                *name = list[i + 1].name;
            return 1;
        }
    }
    return 0;
}

int pv_ompt_enumerate_states(int current_state, int *next_state, const char **next_state_name)
{
    return next_of(states, (int)(sizeof states / sizeof states[0]), current_state, next_state,
                   next_state_name);
}

int pv_ompt_enumerate_mutex_impls(int current_impl, int *next_impl, const char **next_impl_name)
{
    return next_of(mutex_impls, (int)(sizeof mutex_impls / sizeof mutex_impls[0]),
                   current_impl, next_impl, next_impl_name);
}
