/* The phantom tracker (CO-RE; loaded by tools/pvomp-phantomd).
 *
 * Registration: every pvomp team thread calls pvomp_phantom_register(); a
 * uprobe on it records the thread and gives its process a page in `pages`.
 * Cleanup: sched_process_exit forgets exiting threads and frees the page of
 * a dead process; sched_process_exec forgets a process that exec'd.
 * Thread phantoms: tp_btf/sched_switch.  A registered thread switched out
 * while TASK_RUNNING was preempted (the `preempt` argument is not trusted:
 * user-space preemptions arrive with preempt == false); it is a phantom until
 * it is switched in again.  So is a registered thread woken from a sleep
 * (tp_btf/sched_wakeup) onto a busy CPU, until that CPU runs it.
 * vCPU phantoms: sched_switch also records which registered process runs on
 * each CPU; a BPF timer reads every vCPU's KVM steal-time record (the
 * `preempted` byte the host sets when it deschedules a runnable vCPU) and
 * counts registered threads sitting on preempted vCPUs.
 * Every count lives in the mmapable `pages` array that processes map
 * read-only (include/pvomp/phantom.h). */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "pvomp/phantom.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define CLOCK_MONOTONIC 1 /* not in vmlinux.h (macros are not in BTF) */
#define EBUSY 16

/* Filled by the daemon before loading. */
const volatile __u64 steal_offset = 0;  /* &steal_time - &runqueues inside the per-CPU area */
const volatile __u32 vcpu_tracking = 0; /* steal_offset is valid */
const volatile __u32 nr_cpus = 1;
const volatile __u64 period_ns = 1000000;
const volatile __u32 avg_shift = 4;     /* EWMA weight 1/2^avg_shift per tick */

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(map_flags, BPF_F_MMAPABLE);
    __uint(max_entries, PVOMP_PHANTOM_PAGES);
    __type(key, u32);
    __type(value, struct pvomp_phantom_page);
} pages SEC(".maps");

/* Registered threads, indexed by tid: an array (the daemon sizes it to
 * pid_max) makes the lookups on every context switch and wake-up of the
 * machine a bounds check and an add, where a hash map cost ~150 ns. */
struct pv_thread_rec {
    u32 tgid;  /* 0: not registered */
    u32 state; /* page << 1 | 1 while a phantom */
};

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 32768); /* set to pid_max by the daemon */
    __type(key, u32); /* tid */
    __type(value, struct pv_thread_rec);
} threads SEC(".maps");

static __always_inline struct pv_thread_rec *thread_rec(u32 tid)
{
    struct pv_thread_rec *t = bpf_map_lookup_elem(&threads, &tid);
    return t && t->tgid ? t : NULL;
}

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, PVOMP_PHANTOM_SLOTS * 2);
    __type(key, u32); /* tgid */
    __type(value, u32); /* page index */
} procs SEC(".maps");

struct cpu_state {
    u64 rq;    /* this CPU's struct rq (its per-CPU area), learnt on a switch */
    u64 since; /* when the registered thread running here was switched in */
    u32 slot;  /* page of the registered thread running here, 0 = none */
    u32 pid;   /* its process */
    u32 idle;  /* the idle task runs here and no woken task has claimed the CPU */
    u32 switches; /* bumped at every switch here, before the word is cleared */
};

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, PVOMP_PHANTOM_MAX_CPUS);
    __type(key, u32);
    __type(value, struct cpu_state);
} cpus SEC(".maps");

/* Per page: vCPU phantoms counted during the current tick. */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, PVOMP_PHANTOM_PAGES);
    __type(key, u32);
    __type(value, u32);
} vcpu_count SEC(".maps");

/* Test hook (root only, through the daemon's pin directory): a nonzero entry
 * makes the timer treat that vCPU as preempted by the host. */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, PVOMP_PHANTOM_MAX_CPUS);
    __type(key, u32);
    __type(value, u32);
} vcpu_simulate SEC(".maps");

struct ticker {
    struct bpf_timer timer;
};

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, u32);
    __type(value, struct ticker);
} ticker SEC(".maps");

/* Kernels before 5.14 called task_struct::__state `state`. */
struct task_struct___old {
    long state;
} __attribute__((preserve_access_index));

/* tp_btf arguments are trusted BTF pointers: their fields are read with
 * direct (CO-RE relocated) loads, much cheaper than bpf_probe_read calls -
 * these programs run on every context switch and wake-up of the machine. */
static __always_inline long task_state(struct task_struct *t)
{
    if (bpf_core_field_exists(t->__state))
        return t->__state;
    return ((struct task_struct___old *)t)->state;
}

/* Kernels without THREAD_INFO_IN_TASK keep the CPU in task_struct. */
struct task_struct___cpu {
    unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline u32 task_cpu(struct task_struct *t)
{
    if (bpf_core_field_exists(t->thread_info.cpu))
        return t->thread_info.cpu;
    return ((struct task_struct___cpu *)t)->cpu;
}

static __always_inline struct pvomp_phantom_page *page_at(u32 slot)
{
    return bpf_map_lookup_elem(&pages, &slot);
}

static __always_inline struct pvomp_phantom_global *global_page(void)
{
    struct pvomp_phantom_page *pg = page_at(0);
    return pg ? &pg->g : NULL;
}

/* Publish a change: timestamp, then the sequence number. */
static __always_inline void touch(struct pvomp_phantom_proc *p)
{
    p->update_ns = bpf_ktime_get_ns();
    __sync_fetch_and_add(&p->seq, 1);
}

/* The page of a thread, if it still belongs to the thread's process. */
static __always_inline struct pvomp_phantom_proc *thread_page(const struct pv_thread_rec *t)
{
    struct pvomp_phantom_page *pg = page_at(t->state >> 1);
    if (!pg || pg->p.pid != t->tgid)
        return NULL;
    return &pg->p;
}

/* `phantoms` and `thread_phantoms` are adjacent u32 in one aligned u64
 * (little-endian: phantoms the low half): a thread phantom changes both
 * with one atomic add on the hot line instead of two.  No carry or borrow
 * crosses the halves: phantoms >= thread_phantoms >= 1 before a decrement. */
#define PHANTOM_AND_THREAD_PHANTOM (1ULL | 1ULL << 32)
_Static_assert(__builtin_offsetof(struct pvomp_phantom_proc, thread_phantoms) ==
                   __builtin_offsetof(struct pvomp_phantom_proc, phantoms) + 4 &&
               __builtin_offsetof(struct pvomp_phantom_proc, phantoms) % 8 == 0,
               "phantoms and thread_phantoms share an aligned u64");
static __always_inline u64 *both_counts(struct pvomp_phantom_proc *p)
{
    return (u64 *)&p->phantoms;
}

/* The per-thread half of a transition: true when this call made it (the
 * compare-and-swap keeps a switch and a wake-up on two CPUs from both
 * counting one thread). */
static __always_inline bool mark_phantom(struct pv_thread_rec *t)
{
    u32 s = t->state;
    return !(s & 1) && __sync_val_compare_and_swap(&t->state, s, s | 1) == s;
}

static __always_inline bool unmark_phantom(struct pv_thread_rec *t)
{
    u32 s = t->state;
    return (s & 1) && __sync_val_compare_and_swap(&t->state, s, s & ~1u) == s;
}

/* The page's half: the counts, then the publication. */
static __always_inline void count_begin(struct pvomp_phantom_proc *p)
{
    __sync_fetch_and_add(both_counts(p), PHANTOM_AND_THREAD_PHANTOM);
    __sync_fetch_and_add(&p->phantom_events, 1);
    touch(p);
}

static __always_inline void count_end(struct pvomp_phantom_proc *p)
{
    __sync_fetch_and_sub(both_counts(p), PHANTOM_AND_THREAD_PHANTOM);
    touch(p);
}

static __always_inline void phantom_begin(struct pv_thread_rec *t)
{
    struct pvomp_phantom_proc *p;
    if (mark_phantom(t) && (p = thread_page(t)))
        count_begin(p);
}

static __always_inline void phantom_end(struct pv_thread_rec *t)
{
    struct pvomp_phantom_proc *p;
    if (unmark_phantom(t) && (p = thread_page(t)))
        count_end(p);
}

/* ------------------------------------------------------------ page slots */

static __always_inline void reset_page(struct pvomp_phantom_proc *p)
{
    p->threads = 0;
    p->registered = 0;
    p->phantoms = 0;
    p->thread_phantoms = 0;
    p->vcpu_phantoms = 0;
    p->avg = 0;
    p->phantom_events = 0;
    p->vcpu_events = 0;
}

struct claim_ctx {
    u32 tgid;
    u32 slot;
};

static long claim_one(u32 i, struct claim_ctx *c)
{
    u32 slot = 1 + (c->tgid + i) % PVOMP_PHANTOM_SLOTS;
    struct pvomp_phantom_page *pg = page_at(slot);
    if (!pg || pg->p.pid != 0)
        return 0;
    if (__sync_val_compare_and_swap(&pg->p.pid, 0, c->tgid) != 0)
        return 0;
    reset_page(&pg->p);
    touch(&pg->p);
    c->slot = slot;
    return 1;
}

/* The page of process tgid, claimed on first use; 0 when all are taken. */
static __always_inline u32 proc_slot(u32 tgid)
{
    u32 *s = bpf_map_lookup_elem(&procs, &tgid);
    if (s)
        return *s;
    struct claim_ctx c = { .tgid = tgid, .slot = 0 };
    bpf_loop(PVOMP_PHANTOM_SLOTS, claim_one, &c, 0);
    if (!c.slot)
        return 0;
    if (bpf_map_update_elem(&procs, &tgid, &c.slot, BPF_NOEXIST) == 0)
        return c.slot;
    /* Another thread of the process won the race: give our page back. */
    struct pvomp_phantom_page *pg = page_at(c.slot);
    if (pg)
        __sync_val_compare_and_swap(&pg->p.pid, tgid, 0);
    s = bpf_map_lookup_elem(&procs, &tgid);
    return s ? *s : 0;
}

static __always_inline void release_proc(u32 tgid)
{
    u32 *s = bpf_map_lookup_elem(&procs, &tgid);
    if (!s)
        return;
    u32 slot = *s;
    bpf_map_delete_elem(&procs, &tgid);
    struct pvomp_phantom_page *pg = page_at(slot);
    if (!pg || pg->p.pid != tgid)
        return;
    reset_page(&pg->p);
    touch(&pg->p);
    /* Fully ordered: the page reads as reset before it reads as free. */
    __sync_val_compare_and_swap(&pg->p.pid, tgid, 0);
}

static __always_inline void forget_thread(u32 tid)
{
    struct pv_thread_rec *t = thread_rec(tid);
    if (!t)
        return;
    phantom_end(t);
    struct pvomp_phantom_proc *p = thread_page(t);
    if (p)
        __sync_fetch_and_sub(&p->threads, 1);
    /* Fully ordered: unregistered (tgid 0) before the state is cleared. */
    __sync_lock_test_and_set(&t->tgid, 0);
    t->state = 0;
}

/* ---------------------------------------------------------- registration */

SEC("uprobe")
int BPF_KPROBE(phantom_register)
{
    u64 id = bpf_get_current_pid_tgid();
    u32 tid = (u32)id, tgid = id >> 32;

    struct pv_thread_rec *t = bpf_map_lookup_elem(&threads, &tid);
    if (!t) {
        struct pvomp_phantom_global *g = global_page();
        if (g)
            __sync_fetch_and_add(&g->unregistrable, 1); /* tid beyond pid_max at load */
        return 0;
    }
    if (t->tgid) {
        if (t->tgid == tgid && thread_page(t))
            return 0; /* already registered */
        forget_thread(tid); /* a stale entry */
    }
    u32 slot = proc_slot(tgid);
    if (!slot)
        return 0;
    t->state = slot << 1;
    /* Fully ordered: the state is in place before the thread counts as
     * registered. */
    if (__sync_val_compare_and_swap(&t->tgid, 0, tgid) != 0)
        return 0;
    struct pvomp_phantom_page *pg = page_at(slot);
    if (pg) {
        __sync_fetch_and_add(&pg->p.threads, 1);
        __sync_fetch_and_add(&pg->p.registered, 1);
        touch(&pg->p);
    }
    struct pvomp_phantom_global *g = global_page();
    if (g)
        __sync_fetch_and_add(&g->registrations, 1);
    return 0;
}

/* --------------------------------------------------------------- cleanup */

SEC("tp_btf/sched_process_exit")
int BPF_PROG(phantom_exit, struct task_struct *p)
{
    forget_thread(BPF_CORE_READ(p, pid));
    /* signal->live drops to 0 when the last thread of the group exits
     * (it is decremented before this tracepoint). */
    if (BPF_CORE_READ(p, signal, live.counter) == 0)
        release_proc(BPF_CORE_READ(p, tgid));
    return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(phantom_exec, struct task_struct *p, pid_t old_pid)
{
    /* The other threads are gone already (exec kills them first). */
    forget_thread(old_pid);
    forget_thread(BPF_CORE_READ(p, pid));
    release_proc(BPF_CORE_READ(p, tgid));
    return 0;
}

/* ------------------------------------------------------- thread phantoms */

/* Tasks on this CPU's runqueue besides `next`, the one being switched in:
 * runnable fair tasks (h_nr_runnable leaves out sleepers whose dequeue the
 * scheduler delays), or nr_running on kernels without that count.  The
 * runqueue is reached from the task (per-CPU data symbols such as
 * `runqueues` cannot be resolved as ksyms without CONFIG_KALLSYMS_ALL);
 * the loads are direct, the verifier guards them against faults. */
static __always_inline u32 others_queued(struct task_struct *next)
{
    struct cfs_rq *cfs = next->se.cfs_rq;
    if (!cfs)
        return 0;
    struct rq *rq = cfs->rq;
    if (!rq)
        return 0;
    u32 n = bpf_core_field_exists(rq->cfs.h_nr_runnable) ? rq->cfs.h_nr_runnable
                                                         : rq->nr_running;
    return n > 1 ? n - 1 : 0;
}

static __always_inline u64 *queued_since(u32 slot, u32 cpu)
{
    struct pvomp_phantom_page *pg = page_at(slot);
    return pg ? &pg->p.queued_since_ns[cpu & (PVOMP_PHANTOM_MAX_CPUS - 1)] : NULL;
}

/* The per-CPU "another task waits for this CPU" word of the switch's two
 * threads: cleared for the registered thread going out, set for the one
 * coming in when the runqueue holds more (see include/pvomp/phantom.h). */
static __always_inline void publish_queued(struct cpu_state *cs, u32 cpu, u32 next_slot,
                                           struct task_struct *next)
{
    u64 *q;
    if (cs->slot && (q = queued_since(cs->slot, cpu)) && *q)
        *q = 0;
    if (!next_slot)
        return;
    u64 now = bpf_ktime_get_ns();
    cs->since = now;
    if ((q = queued_since(next_slot, cpu)))
        *q = others_queued(next) ? now : 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(phantom_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
    u32 cpu = bpf_get_smp_processor_id();
    struct cpu_state *cs = bpf_map_lookup_elem(&cpus, &cpu);

    if (cs && vcpu_tracking && !cs->rq) {
        /* This CPU's runqueue, reached from a task on it; it anchors the
         * per-CPU area where the KVM steal-time record lives. */
        struct rq *rq = BPF_CORE_READ(prev, se.cfs_rq, rq);
        if (rq && BPF_CORE_READ(rq, cpu) == (int)cpu)
            cs->rq = (u64)rq;
    }

    u32 pid = prev->pid;
    struct pv_thread_rec *t = thread_rec(pid);
    struct pvomp_phantom_proc *began = NULL, *ended = NULL;
    if (t && task_state(prev) == 0 /* TASK_RUNNING: preempted, still runnable */ &&
        mark_phantom(t))
        began = thread_page(t);

    pid = next->pid;
    t = thread_rec(pid);
    if (t && unmark_phantom(t))
        ended = thread_page(t);
    if (began && began == ended) {
        /* A switch between two threads of one process (a yield to a
         * teammate): one phantom more and one fewer, the counts and so the
         * published fields do not change. */
        __sync_fetch_and_add(&began->phantom_events, 1);
    } else {
        if (began)
            count_begin(began);
        if (ended)
            count_end(ended);
    }
    if (cs) {
        /* Before the word is cleared: a wake-up on another CPU that read
         * the old slot sees the bump and takes back what it set. */
        __sync_fetch_and_add(&cs->switches, 1);
        publish_queued(cs, cpu, t ? t->state >> 1 : 0, next);
        cs->slot = t ? t->state >> 1 : 0;
        cs->pid = t ? t->tgid : 0;
        cs->idle = pid == 0;
    }
    return 0;
}

/* A registered thread woken from a sleep waits in a runqueue until a CPU
 * takes it: it cannot make progress either, so it is a phantom until it is
 * switched in.  (A thread woken while still on its CPU - it had not gone to
 * sleep yet - is running and stays out of the count.) */
/* A task was woken onto `cpu` (from any CPU) while a registered thread may
 * run there: set that thread's word.  The CPU may be switching at the same
 * moment; if it did (the counter moved), the slot read here may be stale and
 * the value set is taken back - only it (compare-and-swap), not the one the
 * switch published.  The atomics are full barriers, so the counter is read
 * before the slot and again after the set. */
static __always_inline void publish_woken_behind(struct cpu_state *cs, u32 cpu)
{
    u32 gen = __sync_fetch_and_add(&cs->switches, 0);
    u32 slot = cs->slot;
    u64 since = cs->since;
    u64 *q;
    if (!slot || !(q = queued_since(slot, cpu)))
        return;
    if (__sync_val_compare_and_swap(q, 0, since) == 0 &&
        __sync_fetch_and_add(&cs->switches, 0) != gen)
        __sync_val_compare_and_swap(q, since, 0);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(phantom_wakeup, struct task_struct *p)
{
    if (p->on_cpu != 0)
        return 0; /* woken before it got off its CPU: still running */
    /* The first task woken onto an idle CPU runs as soon as that CPU
     * notices: no phantom (a preempted vCPU there is the timer's business).
     * It claims the CPU, so that the next ones woken there before it runs -
     * a barrier wakes all its sleepers at once - queue behind it and count.
     * Every task claims, registered or not: any of them takes the CPU. */
    u32 cpu = task_cpu(p);
    struct cpu_state *cs = bpf_map_lookup_elem(&cpus, &cpu);
    bool claimed = cs && cs->idle && __sync_val_compare_and_swap(&cs->idle, 1, 0) == 1;
    struct pv_thread_rec *t = thread_rec(p->pid);
    if (t && !claimed)
        phantom_begin(t);
    /* A task woken onto a CPU where a registered thread runs waits for it
     * (unless it preempts the thread: the switch then clears the word). */
    if (cs && !claimed)
        publish_woken_behind(cs, cpu);
    return 0;
}

/* --------------------------------------------------------- vCPU phantoms */

#define KVM_VCPU_PREEMPTED_BIT 1

static long tick_cpu(u32 i, void *unused)
{
    if (i >= nr_cpus || i >= PVOMP_PHANTOM_MAX_CPUS)
        return 1;
    struct cpu_state *cs = bpf_map_lookup_elem(&cpus, &i);
    struct pvomp_phantom_global *g = global_page();
    if (!cs || !g)
        return 1;
    u32 preempted = 0;
    u64 steal = 0;
    if (vcpu_tracking && cs->rq) {
        struct kvm_steal_time st;
        if (bpf_probe_read_kernel(&st, sizeof(st), (void *)(cs->rq + steal_offset)) == 0) {
            preempted = st.preempted & KVM_VCPU_PREEMPTED_BIT;
            steal = st.steal;
        }
    }
    u32 *sim = bpf_map_lookup_elem(&vcpu_simulate, &i);
    u32 flags = preempted ? PVOMP_PHANTOM_CPU_PREEMPTED : 0;
    if (sim && *sim) {
        preempted = 1;
        flags |= PVOMP_PHANTOM_CPU_SIMULATED;
    }
    u32 slot = cs->slot;
    if (preempted && slot) {
        u32 *n = bpf_map_lookup_elem(&vcpu_count, &slot);
        if (n)
            *n += 1; /* only the timer touches vcpu_count */
    }
    struct pvomp_phantom_cpu *pc = &g->cpu[i & (PVOMP_PHANTOM_MAX_CPUS - 1)];
    pc->pid = cs->pid;
    pc->preempted = flags;
    pc->steal_ns = steal;
    if (flags & PVOMP_PHANTOM_CPU_PREEMPTED) {
        pc->preempted_ticks += 1;
        __sync_fetch_and_add(&g->vcpu_preemptions, 1);
    }
    return 0;
}

static long tick_page(u32 i, void *unused)
{
    u32 slot = i + 1;
    struct pvomp_phantom_page *pg = page_at(slot);
    if (!pg)
        return 1;
    u32 *n = bpf_map_lookup_elem(&vcpu_count, &slot);
    u32 vcpu = 0;
    if (n) {
        vcpu = *n;
        *n = 0;
    }
    struct pvomp_phantom_proc *p = &pg->p;
    if (!p->pid)
        return 0;
    u32 old = p->vcpu_phantoms;
    if (vcpu != old) {
        p->vcpu_phantoms = vcpu;
        __sync_fetch_and_add(&p->phantoms, vcpu - old);
        if (vcpu > old)
            __sync_fetch_and_add(&p->vcpu_events, 1);
    }
    /* Smoothed average, 16.16 fixed point; phantoms is bounded by the
     * number of threads, so the shift cannot overflow in practice. */
    s64 now = (s64)(p->phantoms & 0x7fff) << PVOMP_PHANTOM_AVG_SHIFT;
    s64 avg = p->avg;
    avg += (now - avg) >> avg_shift;
    p->avg = (u32)avg;
    touch(p);
    return 0;
}

static int tick(void *map, int *key, struct ticker *tk)
{
    struct pvomp_phantom_global *g = global_page();
    if (g) {
        bpf_loop(PVOMP_PHANTOM_MAX_CPUS, tick_cpu, NULL, 0);
        g->tick_ns = bpf_ktime_get_ns();
        __sync_fetch_and_add(&g->ticks, 1);
    }
    bpf_loop(PVOMP_PHANTOM_SLOTS, tick_page, NULL, 0);
    bpf_timer_start(&tk->timer, period_ns, 0);
    return 0;
}

/* Run once by the daemon (BPF_PROG_TEST_RUN) to start the timer. */
SEC("syscall")
int phantom_start_timer(void *ctx)
{
    u32 key = 0;
    struct ticker *tk = bpf_map_lookup_elem(&ticker, &key);
    if (!tk)
        return 1;
    long err = bpf_timer_init(&tk->timer, &ticker, CLOCK_MONOTONIC);
    if (err && err != -EBUSY)
        return 2;
    bpf_timer_set_callback(&tk->timer, tick);
    if (bpf_timer_start(&tk->timer, period_ns, 0))
        return 3;
    return 0;
}
