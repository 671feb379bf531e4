/* Score-P's activation probe: a tool linked into the program is started,
 * and ompt_finalize_tool, called by the program, delivers the worker
 * thread's thread_end (an "overdue" event) before the tool's finalizer. */
#define PROBE_NAME "scorep_activation"
#include <omp.h>
#include "probe.h"

static int threads_begun;         /* two threads, each begins once */
static int worker_thread_ended;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    (void)type;
    thread_data->value = (uint64_t)__atomic_fetch_add(&threads_begun, 1, __ATOMIC_RELAXED);
}

static void on_thread_end(ompt_data_t *thread_data)
{
    if (thread_data->value == 1)
        worker_thread_ended = 1;
}

static void probe_register(void)
{
    PROBE_REGISTER(ompt_callback_thread_begin, on_thread_begin);
    PROBE_REGISTER(ompt_callback_thread_end, on_thread_end);
}

static const char *probe_verdict(void)
{
    return worker_thread_ended ? NULL : "the worker's thread_end was not dispatched";
}

int main(void)
{
#pragma omp parallel num_threads(2)
    probe_use(omp_get_thread_num());
    if (probe_initialized)
        probe_finalize_tool();
    return probe_not_finalized();
}
