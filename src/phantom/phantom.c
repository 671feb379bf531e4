/* Placeholder client until the tracker lands: no page, no phantoms. */
#include "phantom/phantom.h"

static const uint32_t no_phantoms;
const volatile uint32_t *pv_phantom_count_ptr = &no_phantoms;

bool pv_phantom_open(const char **why)
{
    *why = "the phantom tracker is not built yet";
    return false;
}

void pv_phantom_thread_start(void)
{
}
