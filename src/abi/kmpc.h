/* libomp's ABI as clang calls it: the types of the __kmpc_* entry points.
 * Every entry point is built on pvomp's GOMP entry points and omp_* routines,
 * so both ABIs share one thread pool, one set of ICVs, one tool, one log. */
#ifndef PV_KMPC_H
#define PV_KMPC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"
#include "abi/gomp.h"
#include "runtime/omp_api.h" /* the omp_* routines the __kmpc_* layer stands on */

typedef int32_t kmp_int32;
typedef uint32_t kmp_uint32;
typedef int64_t kmp_int64;
typedef uint64_t kmp_uint64;
typedef uint8_t kmp_uint8;

/* The source location clang passes first: only psource is read, never. */
typedef struct ident {
    kmp_int32 reserved_1, flags, reserved_2, reserved_3;
    const char *psource;
} ident_t;

/* A named critical section: 32 zeroed bytes per name; pvomp's lock word
 * lives in its first 4. */
typedef kmp_int32 kmp_critical_name[8];

/* The outlined body of a parallel region: (global tid, bound tid, shared...). */
typedef void (*kmpc_micro)(kmp_int32 *gtid, kmp_int32 *btid, ...);

/* libomp's schedule numbers (enum sched_type in kmp.h), modifiers masked off. */
enum pv_kmp_sched {
    PV_KMP_STATIC_CHUNKED = 33,
    PV_KMP_STATIC = 34,
    PV_KMP_DYNAMIC_CHUNKED = 35,
    PV_KMP_GUIDED_CHUNKED = 36,
    PV_KMP_RUNTIME = 37,
    PV_KMP_AUTO = 38,
    PV_KMP_TRAPEZOIDAL = 39,
    PV_KMP_STATIC_GREEDY = 40,
    PV_KMP_STATIC_BALANCED = 41,
    PV_KMP_GUIDED_ITERATIVE = 42,
    PV_KMP_GUIDED_ANALYTICAL = 43,
    PV_KMP_STATIC_STEAL = 44,
    PV_KMP_STATIC_BALANCED_CHUNKED = 45,
    PV_KMP_GUIDED_SIMD = 46,
    PV_KMP_RUNTIME_SIMD = 47,
    PV_KMP_ORD_LOWER = 65,  /* ordered kinds: the plain kind + 32 */
    PV_KMP_ORD_UPPER = 72,
    PV_KMP_DISTRIBUTE_CHUNKED = 91,
    PV_KMP_DISTRIBUTE = 92,
};
#define PV_KMP_SCHED_MODIFIERS ((1u << 29) | (1u << 30))

/* omp_sched_t as libomp's omp_get_schedule/omp_set_schedule take it: the
 * spec's monotonic modifier bit, and libomp's own kinds beyond the spec's
 * 1..4 (kmpc_sched.c, src/api/kmpc_answers.c, kmpc_dispatch.c). */
#define PV_KMP_SCHED_MONOTONIC 0x80000000u /* omp_sched_monotonic */
#define PV_KMP_SCHED_TRAPEZOIDAL 101       /* libomp's kmp_sched_trapezoidal */
#define PV_KMP_SCHED_STATIC_STEAL 102      /* libomp's kmp_sched_static_steal */

/* GOMP_barrier's body, inlined in an exported __kmpc_* entry point (which
 * includes runtime/barrier_site.h): its return address and frame are the
 * events' codeptr_ra and the waiting task's enter_frame, as GOMP_barrier's
 * are for gcc's code. */
#define PV_KMPC_BARRIER() pv_barrier_at(PV_BARRIER_EXPLICIT, 0, true)

/* In an exported entry point after which the program calls a body itself
 * (serialized parallel, an if(0) task): the program's frame pointer, which
 * that body's __builtin_frame_address(1) gives too; its exit_frame for a
 * tool, as libomp reports an if(0) task's.  It is the saved frame pointer
 * in this entry's own frame record (x86-64, AArch64), which
 * __builtin_frame_address(0) makes it keep; a program built without frame
 * pointers gets whatever its register held, as with libomp. */
#define PV_KMPC_PROGRAM_FRAME() (*(void *const *)__builtin_frame_address(0))

/* Exports impl as libomp's name@VERSION (the row of name in kmpc.abi says
 * compat, so gen_abi.py makes no alias of its own). */
#define PV_KMP_SYMVER(impl, name) __asm__(".symver " #impl ", " #name "@VERSION")

/* At every entry through which a clang program starts using the runtime
 * (fork, serialized parallel, displaying affinity, libomp's view of
 * run-sched-var): the first one switches what libomp does differently
 * for the rest of the process (kmpc_start.c). */
void pv_kmpc_start(void);

/* run-sched-var's kind and chunk as libgomp shows them -> as libomp does
 * (kmpc_sched.c). */
void pv_kmpc_sched_view(int *kind, int *chunk);

/* omp_get_schedule@VERSION: run-sched-var as libomp reports it;
 * omp_set_schedule@VERSION: libomp's kinds 101 and 102 too (defined
 * above, in src/api/kmpc_answers.c; kmpc_ext.c's kmp_set_schedule calls
 * the second). */
void pv_kmp_omp_get_schedule(int *kind, int *chunk);
void pv_kmp_omp_set_schedule(int kind, int chunk);

/* The process-wide thread number libomp calls the gtid (src/parallel/kmpc_fork.c). */
kmp_int32 pv_kmpc_gtid(void);
/* A hidden helper thread takes its number, 1..N (tasks/kmpc_hidden.c). */
void pv_kmpc_gtid_set_helper(kmp_int32 gtid);

/* The object the first thread of the team to get here makes with create;
 * every thread of the team must call it at the same construct
 * (kmpc_team.c). */
void *pv_kmpc_team_once(void *(*create)(void *ctx), void *ctx);

#endif
