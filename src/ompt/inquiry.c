/* Inquiry entry points (OpenMP 5.1, 4.6.1).  They may be called from any
 * callback and from signal handlers on the thread they ask about, so they
 * only read the calling thread's state and never lock or allocate. */
#include <limits.h>
#include <sched.h>
#include <stdatomic.h>

#include "ompt/inquiry.h"
#include "ompt/tool.h"
#include "runtime/ompt_view.h"


/* A thread the runtime does not know (yet, or any more), and any thread
 * while no tool is active, runs code outside all parallel regions as far as
 * the runtime can tell: ompt_state_work_serial, as libomp answers (OpenMP 5.1
 * names no state for such threads; ompt_state_undefined is the start of
 * ompt_enumerate_states, see docs/ompt.md). */
int pv_ompt_get_state(ompt_wait_id_t *wait_id)
{
    struct pv_ompt_thread *t = &pv_ompt_thr;
    if (!__atomic_load_n(&pv_ompt_active, __ATOMIC_ACQUIRE) || !t->begun || t->ended)
        return ompt_state_work_serial;
    if (wait_id)
        *wait_id = t->wait_id;
    return t->state;
}

ompt_data_t *pv_ompt_get_thread_data(void)
{
    struct pv_ompt_thread *t = &pv_ompt_thr;
    return t->begun ? &t->data : NULL;
}

uint64_t pv_ompt_get_unique_id(void)
{
    static _Atomic uint64_t next = 1;
    return atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
}

int pv_ompt_get_parallel_info(int ancestor_level, ompt_data_t **parallel_data, int *team_size)
{
    struct pv_ompt_region r;
    if (!pv_ompt_thr.begun || !pv_ompt_region_at(ancestor_level, &r))
        return 0;
    if (parallel_data)
        *parallel_data = r.parallel;
    if (team_size)
        *team_size = (int)r.team_size;
    return 2;
}

int pv_ompt_get_task_info(int ancestor_level, int *flags, ompt_data_t **task_data,
                          ompt_frame_t **task_frame, ompt_data_t **parallel_data,
                          int *thread_num)
{
    struct pv_ompt_task *task;
    if (!pv_ompt_thr.begun || !(task = pv_ompt_task_at(ancestor_level)))
        return 0;
    if (flags)
        *flags = task->flags;
    if (task_data)
        *task_data = &task->data;
    if (task_frame)
        *task_frame = &task->frame;
    if (parallel_data)
        *parallel_data = task->parallel;
    if (thread_num)
        *thread_num = task->thread_num;
    return 2;
}

int pv_ompt_get_task_memory(void **addr, size_t *size, int block)
{
    /* pvomp keeps no task-private memory block that a tool could save. */
    (void)addr;
    (void)size;
    (void)block;
    return 0;
}

int pv_ompt_get_num_procs(void)
{
    return (int)pv_num_procs;
}

int pv_ompt_get_num_places(void)
{
    return (int)pv_num_places;
}

int pv_ompt_get_place_proc_ids(int place_num, int ids_size, int *ids)
{
    if (place_num < 0 || (unsigned)place_num >= pv_num_places)
        return 0;
    unsigned ncpus;
    const int *cpus = pv_place_cpus((unsigned)place_num, &ncpus);
    for (unsigned i = 0; ids && ids_size > 0 && i < ncpus && i < (unsigned)ids_size; i++)
        ids[i] = cpus[i];
    return (int)ncpus;
}

int pv_ompt_get_place_num(void)
{
    unsigned p = pv_thr_ts()->place;
    return pv_num_places && p < pv_num_places ? (int)p : -1;
}

int pv_ompt_get_partition_place_nums(int place_nums_size, int *place_nums)
{
    if (!pv_num_places)
        return 0;
    const struct pv_ts *ts = pv_thr_ts();
    unsigned off = ts->place == UINT_MAX ? 0 : ts->part_off;
    unsigned len = ts->place == UINT_MAX ? pv_num_places : ts->part_len;
    for (unsigned i = 0; place_nums && place_nums_size > 0 && i < len &&
                         i < (unsigned)place_nums_size; i++)
        place_nums[i] = (int)(off + i);
    return (int)len;
}

/* -1 on a thread the runtime does not know, and with no tool active (as
 * libomp; OpenMP 5.1 4.6.1.11 lets it be unavailable). */
int pv_ompt_get_proc_id(void)
{
    if (!__atomic_load_n(&pv_ompt_active, __ATOMIC_ACQUIRE) || !pv_ompt_thr.begun)
        return -1;
    return sched_getcpu();
}

int pv_ompt_get_num_devices(void)
{
    return omp_get_num_devices();
}
