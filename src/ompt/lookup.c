/* The lookup function handed to the tool's initializer: the host's runtime
 * entry points by name (OpenMP 5.1, 4.6.1).  Unknown names answer NULL. */
#include "ompt/entry_table.h"
#include "ompt/tool.h"

#define ENTRY(name, fn) {name, (ompt_interface_fn_t)(fn)}

static const struct pv_ompt_entry entries[] = {
    ENTRY("ompt_enumerate_states", pv_ompt_enumerate_states),
    ENTRY("ompt_enumerate_mutex_impls", pv_ompt_enumerate_mutex_impls),
    ENTRY("ompt_set_callback", pv_ompt_set_callback),
    ENTRY("ompt_get_callback", pv_ompt_get_callback),
    ENTRY("ompt_get_state", pv_ompt_get_state),
    ENTRY("ompt_get_parallel_info", pv_ompt_get_parallel_info),
    ENTRY("ompt_get_task_info", pv_ompt_get_task_info),
    ENTRY("ompt_get_task_memory", pv_ompt_get_task_memory),
    ENTRY("ompt_get_thread_data", pv_ompt_get_thread_data),
    ENTRY("ompt_get_unique_id", pv_ompt_get_unique_id),
    ENTRY("ompt_finalize_tool", pv_ompt_finalize_tool),
    ENTRY("ompt_get_num_procs", pv_ompt_get_num_procs),
    ENTRY("ompt_get_num_places", pv_ompt_get_num_places),
    ENTRY("ompt_get_place_proc_ids", pv_ompt_get_place_proc_ids),
    ENTRY("ompt_get_place_num", pv_ompt_get_place_num),
    ENTRY("ompt_get_partition_place_nums", pv_ompt_get_partition_place_nums),
    ENTRY("ompt_get_proc_id", pv_ompt_get_proc_id),
    ENTRY("ompt_get_target_info", pv_ompt_get_target_info),   /* devices.c */
    ENTRY("ompt_get_num_devices", pv_ompt_get_num_devices),
};

ompt_interface_fn_t pv_ompt_lookup(const char *name)
{
    return pv_ompt_entry_find(entries, sizeof entries / sizeof entries[0], name);
}
