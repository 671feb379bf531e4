/* Included by every OpenMP test: before main runs, prove that the OpenMP
 * runtime this program loaded is pvomp and not the system libgomp. */
#ifndef PVOMP_CHECK_H
#define PVOMP_CHECK_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

__attribute__((constructor)) static void pvomp_check_runtime(void)
{
    const char *(*version)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "pvomp_version");
    const char *(*path)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "pvomp_runtime_path");
    Dl_info info;
    void *fn = dlsym(RTLD_DEFAULT, "omp_get_thread_num");
    if (!version || !path || !fn || !dladdr(fn, &info) || strcmp(info.dli_fname, path()) != 0) {
        fprintf(stderr, "FAIL: the OpenMP runtime loaded is not pvomp (omp_get_thread_num from %s)\n",
                fn && dladdr(fn, &info) ? info.dli_fname : "?");
        exit(1);
    }
}

#endif
