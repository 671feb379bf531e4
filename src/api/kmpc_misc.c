/* Smaller libomp entry points on pvomp's routines: the error directive,
 * pause, target-offload, allocators (OpenMP 5.1's num_teams bounds are
 * src/parallel's: kmpc_teams.c). */
#include <stdio.h>
#include <stdlib.h>

#include "base/message.h" /* pv_warn */
#include "abi/kmpc.h"
#include "ompt/ompt.h"    /* pv_ompt_error */
#include "runtime/icv.h"   /* pv_gicv */
#include "runtime/omp_api.h"


/* The error directive with at(execution), as libomp does it: severity 1
 * (warning) prints a message on stderr and the program goes on; 2 (fatal)
 * prints one and ends the program.  With a tool, the error event first
 * (the program's call as codeptr_ra).  The message is libomp's, so that
 * programs and tests that match it (LLVM's ompt/misc/runtime_error.c) see
 * it:  "OMP: Warning #283: LOC: Encountered user-directed warning: MSG."
 * and  "OMP: Error #282: LOC: Encountered user-directed error: MSG."
 * LOC is file:line:col from the ident's psource (";file;func;line;col;;"),
 * or "unknown".  Unlike libomp, fatal ends with exit(EXIT_FAILURE) (stdio
 * flushed, as GOMP_error does for gcc programs), not abort(); an unknown
 * severity is taken as a warning, with a note. */
static void source_location(const ident_t *loc, char *buf, size_t size)
{
    const char *p = loc ? loc->psource : NULL;
    const char *field[4] = {NULL};
    int len[4] = {0};
    if (p && *p == ';') {
        for (int i = 0; i < 4 && *p == ';'; i++) {
            field[i] = ++p;
            while (*p && *p != ';')
                p++;
            len[i] = (int)(p - field[i]);
        }
    }
    /* fields: file, function, line, column */
    if (field[3] && len[0] > 0 && len[2] > 0)
        snprintf(buf, size, "%.*s:%.*s:%.*s", len[0], field[0], len[2], field[2], len[3],
                 field[3]);
    else
        snprintf(buf, size, "unknown");
}

PV_EXPORT void __kmpc_error(ident_t *loc, int severity, const char *message)
{
    bool fatal = severity == 2;
    if (severity != 1 && severity != 2)
        pv_warn("__kmpc_error: unknown severity %d, taken as a warning", severity);
    if (pv_ompt_tool())
        pv_ompt_error(fatal ? ompt_fatal : ompt_warning, message, (size_t)-1,
                      __builtin_return_address(0));
    char where[512];
    source_location(loc, where, sizeof where);
    flockfile(stderr);
    fprintf(stderr, "OMP: %s #%d: %s: Encountered user-directed %s", fatal ? "Error" : "Warning",
            fatal ? 282 : 283, where, fatal ? "error" : "warning");
    if (message)
        fprintf(stderr, ": %s", message);
    fputs(".\n", stderr);
    funlockfile(stderr);
    if (fatal)
        exit(EXIT_FAILURE);
}

PV_EXPORT int __kmpc_pause_resource(int level)
{
    return omp_pause_resource_all(level);
}

/* libomp's numbering: 0 disabled, 1 default, 2 mandatory. */
PV_EXPORT int __kmpc_get_target_offload(void)
{
    switch (pv_gicv.target_offload) {
    case 1:
        return 2;
    case 2:
        return 0;
    default:
        return 1;
    }
}

PV_EXPORT uintptr_t __kmpc_init_allocator(int gtid, uintptr_t memspace, int ntraits,
                                          const void *traits)
{
    (void)gtid;
    return omp_init_allocator(memspace, ntraits, traits);
}

PV_EXPORT void __kmpc_destroy_allocator(int gtid, uintptr_t allocator)
{
    (void)gtid;
    omp_destroy_allocator(allocator);
}

PV_EXPORT void __kmpc_set_default_allocator(int gtid, uintptr_t allocator)
{
    (void)gtid;
    omp_set_default_allocator(allocator);
}

PV_EXPORT uintptr_t __kmpc_get_default_allocator(int gtid)
{
    (void)gtid;
    return omp_get_default_allocator();
}
