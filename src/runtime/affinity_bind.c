/* Binding: the initial thread's place, pinning a thread to its place, and
 * the close / primary / spread rules (OpenMP 5.1, 2.6.2) that give a new
 * team its places.  See affinity_internal.h for the parts. */
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include "base/message.h"
#include "runtime/affinity_internal.h"
#include "runtime/icv.h"
#include "runtime/places.h"
#include "runtime/thread.h"

/* ------------------------------------------------- binding and teams */

void pv_affinity_init(void)
{
    struct pv_thread *t = &pv_thr;
    if (pv_num_places == 0) {
        t->ts.place = UINT_MAX;
        t->ts.part_off = 0;
        t->ts.part_len = 0;
        return;
    }
    /* The initial thread runs on the first place; its partition is the list. */
    t->ts.place = 0;
    t->ts.part_off = 0;
    t->ts.part_len = pv_num_places;
    pv_affinity_bind_self(0);
}

/* The place each thread of the calling thread is bound to, plus one (0: none). */
static __thread unsigned bound_plus1;

void pv_affinity_bind_self(unsigned place)
{
    if (place >= pv_num_places || bound_plus1 == place + 1)
        return;
    int err = pthread_setaffinity_np(pthread_self(), pv_set_bytes, pv_place_sets[place]);
    if (err) {
        static _Atomic int warned;
        if (!atomic_exchange_explicit(&warned, 1, memory_order_relaxed))
            pv_warn("cannot bind a thread to place %u: %s", place, strerror(err));
        return;
    }
    bound_plus1 = place + 1;
}

/* Spread T threads over the P places starting at the master's (relative
 * index m): the first T mod P places get one thread more; each place gets
 * consecutive thread numbers. */
static void pack(unsigned n, unsigned off, unsigned P, unsigned m, unsigned *place)
{
    unsigned s = n / P, r = n % P, i = 0;
    for (unsigned j = 0; j < P && i < n; j++)
        for (unsigned k = 0; k < s + (j < r) && i < n; k++)
            place[i++] = off + (m + j) % P;
}

void pv_affinity_assign(unsigned n, unsigned bind, unsigned parent_place, unsigned part_off,
                        unsigned part_len, unsigned *place, unsigned *sub_off, unsigned *sub_len)
{
    if (n == 0)
        return;
    if (pv_num_places == 0 || parent_place >= pv_num_places) {
        for (unsigned i = 0; i < n; i++) {
            place[i] = UINT_MAX;
            sub_off[i] = part_off;
            sub_len[i] = part_len;
        }
        return;
    }
    if (part_len == 0 || part_off >= pv_num_places || part_len > pv_num_places - part_off) {
        part_off = 0;
        part_len = pv_num_places;
    }
    unsigned P = part_len;
    unsigned m = parent_place >= part_off && parent_place < part_off + P ? parent_place - part_off
                                                                        : 0;
    for (unsigned i = 0; i < n; i++) {
        sub_off[i] = part_off;
        sub_len[i] = part_len;
    }
    switch (bind) {
    case PV_BIND_FALSE: /* not bound: the master keeps its place */
        place[0] = parent_place;
        for (unsigned i = 1; i < n; i++)
            place[i] = UINT_MAX;
        return;
    case PV_BIND_MASTER:
        for (unsigned i = 0; i < n; i++)
            place[i] = parent_place;
        return;
    case PV_BIND_SPREAD:
        if (n <= P) {
            /* T subpartitions of consecutive places; the first P mod T have
             * one place more.  Thread 0 keeps the parent's place in the
             * subpartition holding it; thread i takes the first place of the
             * i-th subpartition after that one. */
            unsigned s = P / n, r = P % n;
            unsigned q0 = m < r * (s + 1) ? m / (s + 1) : r + (m - r * (s + 1)) / s;
            for (unsigned i = 0; i < n; i++) {
                unsigned q = (q0 + i) % n;
                unsigned start = q * s + (q < r ? q : r);
                sub_off[i] = part_off + start;
                sub_len[i] = s + (q < r);
                place[i] = i == 0 ? part_off + m : sub_off[i];
            }
        } else {
            pack(n, part_off, P, m, place);
            for (unsigned i = 0; i < n; i++) {
                sub_off[i] = place[i];
                sub_len[i] = 1;
            }
        }
        return;
    case PV_BIND_TRUE: /* as libgomp: true behaves as close */
    case PV_BIND_CLOSE:
    default:
        if (n <= P)
            for (unsigned i = 0; i < n; i++)
                place[i] = part_off + (m + i) % P;
        else
            pack(n, part_off, P, m, place);
        return;
    }
}
