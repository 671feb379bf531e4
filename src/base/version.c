/* pvomp's own identification (base/version.h). */
#include <dlfcn.h>

#include "base/compiler.h"
#include "base/version.h"

PV_EXPORT const char *pvomp_version(void)
{
    return "pvomp 0.1";
}

PV_EXPORT const char *pvomp_runtime_path(void)
{
    Dl_info info;
    if (dladdr((void *)pvomp_runtime_path, &info) && info.dli_fname)
        return info.dli_fname;
    return "?";
}
