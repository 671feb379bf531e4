/* Name -> entry point tables, for the lookup functions handed to tools (the
 * host's in lookup.c, each device's in device_entry.c). */
#ifndef PV_OMPT_ENTRY_TABLE_H
#define PV_OMPT_ENTRY_TABLE_H

#include <stddef.h>
#include <string.h>

#include "omp-tools.h"

struct pv_ompt_entry {
    const char *name;
    ompt_interface_fn_t fn;
};

/* The entry named `name` in table[0..n), or NULL (also for a NULL name). */
static inline ompt_interface_fn_t pv_ompt_entry_find(const struct pv_ompt_entry *table,
                                                     size_t n, const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0)
            return table[i].fn;
    return NULL;
}

#endif
