/* advise's state while it reads one log (advise.c: regions, barrier
 * episodes, loops; advise_sync.c: critical sections, locks, tasks). */
#ifndef PVOMP_TRACE_ADVISE_INTERNAL_H
#define PVOMP_TRACE_ADVISE_INTERNAL_H

#include "advice.h"
#include "idmap.h"
#include "log.h"

#define MAX_FINDINGS 4096u
#define MAX_ADV_SITES 1024u
#define TASK_DEPTH 64u
#define DISPATCH_CAP_NS 1000u   /* a shorter chunk interval counts as dispatch */
/* barrier_kind values (src/trace/trace-events): explicit 0, workshare 1,
 * join 2, cancel 3 are team barriers; other 4 (task reduction) is not. */
#define BARRIER_JOIN 2u
#define BARRIER_CANCEL 3u
#define THREAD_POOL 1u          /* thread_begin.worker: a pool thread */
#define LATE_NS 20000u          /* a spinning waiter this late was preempted */
#define LATE_WOKEN_NS 200000u   /* a woken one this late found no free CPU */
#define SECTION_ENTRY_NS 50u    /* taking and leaving a free section, traced */
#define SMALL_TASK_NS 10000u    /* tasks averaging less: overhead dominates */
#define GAP_BUCKETS 192u        /* section gaps' histogram: 4 buckets an octave */

/* A section's gaps: a member's time from a release to its next request of
 * the same lock in the same phase (its own work between entries, and the
 * lock's handing over), for their median (advise_sync.c). */
struct sec_gaps {
    uint64_t sum, n;
    uint32_t hist[GAP_BUCKETS];
};

_Static_assert(TR_ARG_critical_held_ns == TR_ARG_lock_held_ns, "_held events' ns argument");

struct episode {
    uint64_t k;               /* which barrier of the region (UINT64_MAX: unused) */
    unsigned arrived;
    uint64_t sum, max, min;   /* the members' phase work */
    uint64_t sum_at, max_at;  /* their arrival after the release that began it */
    uint64_t max_serial;      /* the slowest member's single body in the phase */
    uint64_t max_chunks, max_chunk_ns; /* its loop chunks in the phase, their time */
    uint64_t phantom_ns;      /* phantom time counter when the first arrived */
    uint64_t last_arrival;    /* when the last member arrived: the release */
    uint64_t starved;         /* members' waits in this barrier for a task to be created */
    uint64_t task_ns;         /* members' tasks run in this barrier: work */
    uint64_t ready_idle;      /* their idle time in it that began with a task queued */
    uint64_t max_lost;        /* of the slowest member's phase, the time it was off its CPU */
    size_t max_thr;           /* the slowest member (thread index) */
};

/* A region instance's findings are held until it ends (advise_region.c):
 * a region too short for its fork/join cost gives them all to fork_join. */
struct pending {
    uint64_t gain, ns, work, count;
};

/* A region function's instances without tasks, summed until the log's end
 * (advise_region.c): whether its regions are too short for their fork/join
 * cost is decided by most of them. */
struct fn_regions {
    uint64_t fn;
    struct pending pend[C__COUNT]; /* its findings, held */
    struct pending rest;      /* fork/join remainders: gain, wall, critical path */
    struct pending serial;    /* run serially: wall - work (gap included), wall, work */
    uint64_t work;            /* members' phase work */
    uint64_t gap, gap_fn;     /* serial gaps before them shorter than their serial gain */
    uint64_t n, short_n;      /* instances; those whose fork/join cost exceeds their work */
    unsigned threads, gaps;
    bool over;                /* a team larger than the CPUs */
};

struct region {
    uint64_t team, fn, start;
    unsigned nthreads;
    struct episode ep[4];     /* by k & 3 */
    uint64_t crit_path;       /* sum of complete episodes' slowest phase, and
                                 of the latest spinning waiter's late start */
    uint64_t released_k, release, late_max; /* the last complete episode */
    uint64_t creation;        /* the latest start of a member created for it */
    bool tasks;               /* tasks ran in it */
    unsigned level;           /* 1: not nested */
    uint64_t queued;          /* its tasks created and not yet begun */
    uint64_t work_sum;        /* its members' phase work, all episodes */
    uint64_t late_k, late_ns; /* the episode whose members started late, the latest's delay */
    uint64_t late_fj;         /* the late starts' share of fork/join cost (the limits) */
    bool dropped;             /* records were lost while it ran: its remainder is unknown */
    uint64_t gap, gap_fn;     /* the primary's serial code before its fork, and the region before */
    struct pending pend[C__COUNT];
};

struct site {                 /* a task construct: where, and its tasks */
    uint64_t fn, ra, region_fn;
    uint64_t n, excl;
};

struct thr {
    uint64_t team;
    unsigned num, nthreads;
    uint64_t fn;              /* the region the thread is in (0: none) */
    uint64_t phase_start;     /* 0: not in a phase (in a barrier, outside) */
    uint64_t k;
    uint64_t single_ts;       /* an executed single in the phase: when */
    uint64_t single_ns;       /* its body, at the barrier */
    uint64_t last_chunk;      /* previous loop_chunk in the phase */
    uint64_t chunks, chunk_ns;  /* chunks taken in the phase, time between them */
    bool blocked;             /* its last wait ended after sleeping */
    bool created;             /* a pool thread that has not yet started a task */
    uint64_t joining;         /* the team whose join barrier it is in */
    uint64_t after_fn, after_ts; /* the outermost region it ended last: where, when */
    bool in_barrier;
    uint64_t idle_from;       /* in a barrier, idle since (0: in a task, or outside) */
    bool idle_queued;         /* a task was queued when it became idle */
    struct held_state {       /* critical sections [0], locks [1] */
        uint64_t wait, start; /* its _enter (0: none pending), its outermost acquisition */
        unsigned depth;
        uint64_t rel_ts, rel_lock, rel_fn, rel_k; /* its last release: when, which, the phase */
    } held[2];
    uint64_t crit_ra;         /* the waited-for critical construct's call site */
    uint64_t t_start[TASK_DEPTH], t_child[TASK_DEPTH];
    uint32_t t_site[TASK_DEPTH];
    unsigned t_depth;
    /* run_delay: the previous reading, and the episode the thread arrived
     * in last (its k) with the phase's wall time, which a reading right
     * after the arrival is about */
    uint64_t rd_ns;
    bool rd_any;
    struct episode *arrived_ep;
    uint64_t arrived_k, arrived_w;
};

struct adv {
    struct tr_advice *out;
    /* A complete episode whose last member's run_delay reading may come
     * next (advise.c, close_pending) */
    struct region *pend_g;
    struct episode *pend_e;
    uint64_t pend_ts;
    size_t pend_thr;
    size_t ix;
    struct thr *thr;
    size_t nthr;
    struct region *reg;
    size_t nreg, reg_cap;
    struct site *sites;
    size_t nsites;
    struct tr_idmap pending;  /* task -> site + 1 */
    unsigned cpus;
    unsigned phantoms;
    uint64_t phantom_since, phantom_ns;
    int64_t chunk;            /* the last loop_init's chunk */
    uint64_t forks;           /* regions begun (their primaries' implicit tasks) */
    uint64_t task_wall_fn_n;
    struct fn_wall { uint64_t fn, wall; } *task_regions, *work, *path;
    size_t ntask_regions, nwork, npath; /* work: members' work per region function;
                                 path: its episodes' slowest phases */
    struct sec_gaps **gaps;   /* by finding index: a critical or lock finding's gaps */
    struct fn_regions *fns;
    size_t nfns;
};

/* The finding of cause c at (fn, key) of the log being read, made when
 * missing; NULL when there are too many. */
struct tr_finding *tr_adv_finding(struct adv *a, enum tr_cause c, uint64_t fn, uint64_t key);
/* Add one instance: gain, the cause's own ns, work, the team size. */
void tr_adv_add(struct adv *a, enum tr_cause c, uint64_t fn, uint64_t key, uint64_t gain,
                uint64_t ns, uint64_t work, unsigned threads);
/* The entry of fn in a table of (fn, ns), made when missing. */
struct fn_wall *tr_adv_fn_slot(struct fn_wall **v, size_t *n, uint64_t fn);
struct region *tr_adv_region_of(struct adv *a, uint64_t team);

/* advise_region.c: a region instance's findings, held until it ends. */
void tr_adv_hold(struct region *g, enum tr_cause c, uint64_t gain, uint64_t ns, uint64_t work);
void tr_adv_region_end(struct adv *a, struct region *g, uint64_t ts);
void tr_adv_regions_finish(struct adv *a);

/* advise_sync.c */
uint32_t tr_adv_site_of(struct adv *a, uint64_t fn, uint64_t ra);
void tr_adv_section(struct adv *a, struct thr *t, enum tr_cause c, unsigned step,
                    const struct tr_rec *r);
void tr_adv_task_created(struct adv *a, struct thr *t);
void tr_adv_task_begun(struct adv *a, struct thr *t, uint64_t ts);
void tr_adv_task_ended(struct adv *a, struct thr *t, uint64_t ts, uint64_t dur);
void tr_adv_idle(struct adv *a, struct thr *t, uint64_t ts, bool idle);
void tr_adv_tasks_finish(struct adv *a);
void tr_adv_sections_finish(struct adv *a, size_t first);

#endif
