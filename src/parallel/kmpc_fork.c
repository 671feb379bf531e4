/* Parallel regions through libomp's ABI: __kmpc_fork_call and the calls
 * clang makes around it (push_num_threads, push_proc_bind, serialized
 * parallel), and libomp's thread numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>

#include "abi/kmpc.h"
#include "ompt/ompt.h"
#include "parallel/kmpc_args.h"
#include "runtime/icv.h" /* pv_gicv */
#include "runtime/thread.h"
#include "runtime/unsupported.h"
#include "trace/trace.h"

/* What push_num_threads / push_proc_bind asked of the next fork on this
 * thread (0: nothing). */
static __thread unsigned pushed_threads;
static __thread unsigned pushed_bind;

/* libomp's numbering: the first thread to ask is 0, the hidden helper
 * threads (tasks/kmpc_hidden.c) are 1..N, every other thread is N + 1 on,
 * in the order they first ask. */
static _Atomic kmp_int32 next_gtid;
static __thread kmp_int32 my_gtid = -1;

kmp_int32 pv_kmpc_gtid(void)
{
    if (__builtin_expect(my_gtid < 0, 0)) {
        kmp_int32 n = atomic_fetch_add_explicit(&next_gtid, 1, memory_order_relaxed);
        my_gtid = n ? n + (kmp_int32)pv_gicv.hidden_helpers : 0;
    }
    return my_gtid;
}

void pv_kmpc_gtid_set_helper(kmp_int32 gtid)
{
    my_gtid = gtid;
}

PV_EXPORT kmp_int32 __kmpc_global_thread_num(ident_t *loc)
{
    (void)loc;
    return pv_kmpc_gtid();
}

PV_EXPORT kmp_int32 __kmpc_global_num_threads(ident_t *loc)
{
    (void)loc;
    kmp_int32 n = atomic_load_explicit(&next_gtid, memory_order_relaxed);
    return n > 1 ? n + (kmp_int32)pv_gicv.hidden_helpers : n;
}

PV_EXPORT kmp_int32 __kmpc_bound_thread_num(ident_t *loc)
{
    (void)loc;
    return omp_get_thread_num();
}

PV_EXPORT kmp_int32 __kmpc_bound_num_threads(ident_t *loc)
{
    (void)loc;
    return omp_get_num_threads();
}

PV_EXPORT kmp_int32 __kmpc_in_parallel(ident_t *loc)
{
    (void)loc;
    return omp_in_parallel();
}

PV_EXPORT kmp_int32 __kmpc_ok_to_fork(ident_t *loc)
{
    (void)loc;
    return 1;
}

PV_EXPORT void __kmpc_begin(ident_t *loc, kmp_int32 flags)
{
    (void)loc, (void)flags;
}

PV_EXPORT void __kmpc_end(ident_t *loc)
{
    (void)loc;
}

PV_EXPORT void __kmpc_push_num_threads(ident_t *loc, kmp_int32 gtid, kmp_int32 num_threads)
{
    (void)loc, (void)gtid;
    pushed_threads = num_threads > 0 ? (unsigned)num_threads : 0;
}

/* libomp's proc_bind numbers are omp_proc_bind_t's, as GOMP's flags are. */
PV_EXPORT void __kmpc_push_proc_bind(ident_t *loc, kmp_int32 gtid, int proc_bind)
{
    (void)loc, (void)gtid;
    pushed_bind = proc_bind >= 0 && proc_bind <= 4 ? (unsigned)proc_bind : 0;
}

/* Calls the microtask with every shared argument.  Passing the unused
 * trailing slots too is harmless in the psABIs pvomp supports (x86-64,
 * AArch64): the caller owns the stack arguments. */
static inline __attribute__((always_inline)) void
invoke_microtask(const struct pv_kmpc_args *a, kmp_int32 gtid, kmp_int32 btid)
{
    void *const *v = a->argv;
    if (a->argc <= 4) {
        a->fn(&gtid, &btid, v[0], v[1], v[2], v[3]);
        return;
    }
    a->fn(&gtid, &btid, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],
          v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18], v[19], v[20], v[21], v[22],
          v[23], v[24], v[25], v[26], v[27], v[28], v[29]);
}

/* The frame that calls the microtask is the implicit task's exit_frame, as
 * in libomp (a tool compares it with the microtask's
 * __builtin_frame_address(1)), not the frame of the runtime's call to this
 * body. */
void pv_kmpc_body(void *data)
{
    if (pv_ompt_tool())
        pv_ompt_exit_frame(__builtin_frame_address(0));
    invoke_microtask(data, pv_kmpc_gtid(), omp_get_thread_num());
}

void pv_kmpc_pack(struct pv_kmpc_args *a, kmp_int32 argc, kmpc_micro microtask, va_list ap)
{
    if (argc < 0 || argc > PV_KMPC_MAX_ARGS)
        pv_unsupported("__kmpc_fork_call/fork_teams with more than 30 shared arguments");
    pv_kmpc_start(); /* OMP_DISPLAY_AFFINITY prints as libomp does, ... */
    a->fn = microtask;
    a->argc = argc;
    for (int i = 0; i < argc; i++)
        a->argv[i] = va_arg(ap, void *);
}

PV_EXPORT void __kmpc_fork_call(ident_t *loc, kmp_int32 argc, kmpc_micro microtask, ...)
{
    (void)loc;
    struct pv_kmpc_args a;
    PV_KMPC_PACK_ARGS(a, argc, microtask);
    unsigned n = pushed_threads, bind = pushed_bind;
    pushed_threads = pushed_bind = 0;
    PV_OMPT_GIVE(); /* the region's codeptr_ra and enter_frame: the program's call */
    PV_OMPT_GIVE_BODY(microtask);
    /* the log names the program's microtask, not the trampoline */
    if (pv_trace_site_on(PV_TRACE_EV_parallel_begin))
        pv_thr.trace_body = (const void *)(uintptr_t)microtask;
    GOMP_parallel(pv_kmpc_body, &a, n, bind);
}

/* `if(false)`: a team of one; clang calls the microtask itself between. */
static void serialized_body(void *data)
{
    (void)data;
}

PV_EXPORT void __kmpc_serialized_parallel(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    pushed_threads = pushed_bind = 0;
    pv_kmpc_start();
    PV_OMPT_GIVE();
    GOMP_parallel_start(serialized_body, NULL, 1);
    /* The program calls the body: its frame is the implicit task's exit_frame. */
    if (pv_ompt_tool())
        pv_ompt_exit_program_frame(PV_KMPC_PROGRAM_FRAME());
}

PV_EXPORT void __kmpc_end_serialized_parallel(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    GOMP_parallel_end();
}
