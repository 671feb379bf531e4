/* Doacross loops through libomp's ABI: ordered(n) with depend(sink) and
 * depend(source).  Every thread of the team calls __kmpc_doacross_init with
 * the loop nest's dimensions before it schedules its iterations (through
 * for_static_init or dispatch_init, any schedule), post(vec) after an
 * iteration's source point, wait(vec) at a sink, fini when it is done.
 *
 * Each dimension is libomp's kmp_dim {lo, up, st} with `up` INCLUSIVE: the
 * dimension has (up - lo) / st + 1 iterations.  (clang 14 passes lo = 0,
 * st = 1 and up = the trip count, one more than the last iteration number,
 * so there is one iteration too many; nobody ever posts it, exactly as with
 * libomp.)  Vectors outside the ranges are ignored, as libomp does.
 *
 * The iteration space is linearised (row-major) into one bit per iteration
 * in a table the team shares.  It is created by the first thread to reach
 * init (pv_kmpc_team_once) and freed by the last thread through fini.
 * A post sets its bit (release) and bumps the table's futex word; a wait
 * sleeps on the word until its bit is set (acquire).  The loop's schedule
 * does not matter, which is why this is not pvomp's lane-based GOMP
 * doacross (that one knows the GOMP loop's schedule).
 *
 * With a tool, as libomp reports them: post, before its bit is set, and
 * wait, once the iteration it names has been posted, each make one
 * dependences event of the implicit task with the vector's per-dimension
 * iteration numbers ((v - lo) / st), as ompt_dependence_type_source or
 * _sink.  A vector outside the nest (ignored) and a one-thread team (no
 * table) report nothing. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "abi/kmpc.h"
#include "base/alloc.h"
#include "base/message.h"
#include "ompt/ompt.h"    /* pv_ompt_doacross */
#include "wait/wait.h"

struct kmp_dim {
    kmp_int64 lo, up, st;
};

struct doacross {
    _Atomic int users;      /* threads that have not called fini yet */
    kmp_int32 ndims;
    bool empty;             /* some dimension has no iteration */
    pv_futex_t posted;      /* bumped on every post */
    struct kmp_dim *dims;
    kmp_uint64 *range;      /* iterations per dimension */
    _Atomic kmp_uint32 *bits;
};

static __thread struct doacross *cur;

struct table_args {
    kmp_int32 ndims;
    const struct kmp_dim *dims;
    int nthreads;
};

static void *table_new(void *ctx)
{
    const struct table_args *a = ctx;
    kmp_int32 ndims = a->ndims;
    const struct kmp_dim *dims = a->dims;
    kmp_uint64 total = 1;
    bool empty = false;
    kmp_uint64 range[ndims > 0 ? ndims : 1];
    for (kmp_int32 i = 0; i < ndims; i++) {
        const struct kmp_dim *d = &dims[i];
        kmp_uint64 n = 0;
        if (d->st > 0 && d->up >= d->lo)
            n = ((kmp_uint64)d->up - (kmp_uint64)d->lo) / (kmp_uint64)d->st + 1;
        else if (d->st < 0 && d->lo >= d->up)
            n = ((kmp_uint64)d->lo - (kmp_uint64)d->up) / ((kmp_uint64)0 - (kmp_uint64)d->st) + 1;
        range[i] = n;
        if (n == 0)
            empty = true;
        else if (__builtin_mul_overflow(total, n, &total))
            pv_fatal("doacross loop nest too large");
    }
    if (empty)
        total = 0;
    size_t words = (size_t)((total + 31) / 32);
    size_t head = sizeof(struct doacross), dsz = (size_t)ndims * sizeof *dims;
    struct doacross *t = pv_malloc(head + dsz + (size_t)ndims * sizeof(kmp_uint64) +
                                   words * sizeof(kmp_uint32));
    memset(t, 0, sizeof *t);
    atomic_init(&t->users, a->nthreads);
    t->ndims = ndims;
    t->empty = empty;
    t->dims = (struct kmp_dim *)(t + 1);
    memcpy(t->dims, dims, dsz);
    t->range = (kmp_uint64 *)((char *)t->dims + dsz);
    memcpy(t->range, range, (size_t)ndims * sizeof(kmp_uint64));
    t->bits = (_Atomic kmp_uint32 *)(t->range + ndims);
    memset((void *)t->bits, 0, words * sizeof(kmp_uint32));
    return t;
}

PV_EXPORT void __kmpc_doacross_init(ident_t *loc, kmp_int32 gtid, kmp_int32 num_dims,
                                    const struct kmp_dim *dims)
{
    (void)loc, (void)gtid;
    int nth = omp_get_num_threads();
    if (nth <= 1 || num_dims <= 0) { /* nothing to order against */
        cur = NULL;
        return;
    }
    struct table_args a = {num_dims, dims, nth};
    cur = pv_kmpc_team_once(table_new, &a);
}

/* The linear number of the iteration vec names; false when it lies outside
 * the nest. */
static bool linear(const struct doacross *t, const kmp_int64 *vec, kmp_uint64 *out)
{
    if (t->empty)
        return false;
    kmp_uint64 k = 0;
    for (kmp_int32 i = 0; i < t->ndims; i++) {
        const struct kmp_dim *d = &t->dims[i];
        kmp_int64 v = vec[i];
        kmp_uint64 n;
        if (d->st > 0) {
            if (v < d->lo || v > d->up)
                return false;
            n = ((kmp_uint64)v - (kmp_uint64)d->lo) / (kmp_uint64)d->st;
        } else {
            if (v > d->lo || v < d->up)
                return false;
            n = ((kmp_uint64)d->lo - (kmp_uint64)v) / ((kmp_uint64)0 - (kmp_uint64)d->st);
        }
        k = k * t->range[i] + n;
    }
    *out = k;
    return true;
}

/* The dependences event of post or wait (type: ompt_dependence_type_*). */
static __attribute__((noinline)) void report(const struct doacross *t, const kmp_int64 *vec,
                                             int type)
{
    unsigned long long small[8] = {0};
    unsigned long long *v =
        t->ndims <= 8 ? small : pv_malloc((size_t)t->ndims * sizeof *v);
    for (kmp_int32 i = 0; i < t->ndims; i++) {
        const struct kmp_dim *d = &t->dims[i];
        v[i] = d->st > 0 ? ((kmp_uint64)vec[i] - (kmp_uint64)d->lo) / (kmp_uint64)d->st
                         : ((kmp_uint64)d->lo - (kmp_uint64)vec[i]) /
                               ((kmp_uint64)0 - (kmp_uint64)d->st);
    }
    pv_ompt_doacross(type, v, (unsigned)t->ndims);
    if (v != small)
        free(v);
}

/* This thread's table when vec names an iteration of the nest (its linear
 * number in *k); otherwise NULL after a full fence, all post and wait do
 * then (one thread, or a vector outside the nest). */
static struct doacross *table_for(const kmp_int64 *vec, kmp_uint64 *k)
{
    struct doacross *t = cur;
    if (t && linear(t, vec, k))
        return t;
    atomic_thread_fence(memory_order_seq_cst);
    return NULL;
}

PV_EXPORT void __kmpc_doacross_wait(ident_t *loc, kmp_int32 gtid, const kmp_int64 *vec)
{
    (void)loc, (void)gtid;
    kmp_uint64 k;
    struct doacross *t = table_for(vec, &k);
    if (!t)
        return;
    kmp_uint32 mask = 1u << (k % 32);
    _Atomic kmp_uint32 *w = &t->bits[k / 32];
    for (;;) {
        uint32_t g = atomic_load_explicit(&t->posted.word, memory_order_seq_cst);
        /* Acquire: the posting iteration's work happens before ours. */
        if (atomic_load_explicit(w, memory_order_acquire) & mask)
            break;
        pv_wait_while_eq(&t->posted, g);
    }
    if (pv_ompt_tool())
        report(t, vec, ompt_dependence_type_sink);
}

PV_EXPORT void __kmpc_doacross_post(ident_t *loc, kmp_int32 gtid, const kmp_int64 *vec)
{
    (void)loc, (void)gtid;
    kmp_uint64 k;
    struct doacross *t = table_for(vec, &k);
    if (!t)
        return;
    if (pv_ompt_tool())
        report(t, vec, ompt_dependence_type_source);
    /* Release: this iteration's work before its bit. */
    atomic_fetch_or_explicit(&t->bits[k / 32], 1u << (k % 32), memory_order_release);
    /* seq_cst, as pv_wake requires: a waiter that read the old word sleeps
     * only while the word still has it. */
    atomic_fetch_add_explicit(&t->posted.word, 1, memory_order_seq_cst);
    pv_wake(&t->posted);
}

PV_EXPORT void __kmpc_doacross_fini(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    struct doacross *t = cur;
    cur = NULL;
    if (t && atomic_fetch_sub_explicit(&t->users, 1, memory_order_acq_rel) == 1)
        free(t);
}
