/* pvomp's own identification, so that tests and tools can prove which
 * runtime a program really loaded. */
#include <dlfcn.h>

#include "runtime/internal.h"

PV_EXPORT const char *pvomp_version(void)
{
    return "pvomp 0.1";
}

/* Path of the shared object this code was loaded from. */
PV_EXPORT const char *pvomp_runtime_path(void)
{
    Dl_info info;
    if (dladdr((void *)pvomp_runtime_path, &info) && info.dli_fname)
        return info.dli_fname;
    return "?";
}
