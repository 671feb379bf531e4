/* What the parallel family's two forks through libomp's ABI share
 * (__kmpc_fork_call, kmpc_fork.c; __kmpc_fork_teams, kmpc_teams.c): the
 * microtask and its shared arguments, packed once by pv_kmpc_pack and
 * called by the GOMP body pv_kmpc_body.  Private to src/parallel. */
#ifndef PV_PARALLEL_KMPC_ARGS_H
#define PV_PARALLEL_KMPC_ARGS_H

#include <stdarg.h>

#include "abi/kmpc.h"

/* A microtask and its shared arguments, for the GOMP body pv_kmpc_body
 * (kmpc_fork.c), which calls it with the gtid and the team-local id. */
#define PV_KMPC_MAX_ARGS 30
struct pv_kmpc_args {
    kmpc_micro fn;
    int argc;
    void *argv[PV_KMPC_MAX_ARGS];
};
void pv_kmpc_pack(struct pv_kmpc_args *a, kmp_int32 argc, kmpc_micro microtask, va_list ap);
void pv_kmpc_body(void *data);

/* In a variadic fork entry (__kmpc_fork_call, __kmpc_fork_teams, whose
 * last named parameter is microtask): packs its shared arguments into the
 * struct pv_kmpc_args a.  A macro, since va_start belongs to the entry. */
#define PV_KMPC_PACK_ARGS(a, argc, microtask)                                                    \
    do {                                                                                         \
        va_list ap_;                                                                             \
        va_start(ap_, microtask);                                                                \
        pv_kmpc_pack(&(a), argc, microtask, ap_);                                                \
        va_end(ap_);                                                                             \
    } while (0)

#endif
