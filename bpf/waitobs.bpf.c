/* Wait-path observer for the pvsched tests (tests/phantom): watches one
 * process and tells what its waiting threads did after entering pvomp's wait
 * path - returned while spinning, entered a futex wait (and how long after
 * entering), or were switched out while still spinning.
 *
 *   uprobe    pv_wait_while_eq (entry)   a waiter enters the wait path
 *   uretprobe pv_wait_while_eq           it leaves
 *   tp_btf/sys_enter, id == futex        FUTEX_WAIT from a waiter
 *   tp_btf/sched_switch                  a waiter switched out runnable
 *
 * The syscall tracepoint is the raw sys_enter one filtered on the futex
 * number: the per-syscall "syscalls/sys_enter_futex" event needs tracefs,
 * which these machines refuse. */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile __u32 target_tgid = 0;
const volatile long futex_nr = 202; /* __NR_futex on x86_64; set by the loader */

#define FUTEX_CMD_MASK 0x7f /* op without FUTEX_PRIVATE_FLAG / CLOCK_REALTIME */
#define FUTEX_WAIT_OP 0
#define FUTEX_WAIT_BITSET_OP 9
#define HIST_BUCKETS 40

struct waitobs_stats {
    u64 entries;          /* wait-path entries */
    u64 returned_spinning;/* left the wait path without a futex wait */
    u64 blocked;          /* entries that reached a futex wait */
    u64 futex_waits;      /* all FUTEX_WAITs of the process's threads */
    u64 preempted_spinning; /* switched out runnable while spinning in the wait path */
    u64 latency_sum_ns;   /* entry -> futex wait, summed over `blocked` */
    u64 latency_hist[HIST_BUCKETS]; /* log2(ns) buckets of entry -> futex wait */
};

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, u32);
    __type(value, struct waitobs_stats);
} stats SEC(".maps");

struct waiter {
    u64 entry_ns;
    u32 spinning; /* entered, no futex wait yet */
    u32 pad;
};

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 4096);
    __type(key, u32);
    __type(value, struct waiter);
} waiters SEC(".maps");

static __always_inline struct waitobs_stats *st(void)
{
    u32 k = 0;
    return bpf_map_lookup_elem(&stats, &k);
}

static __always_inline bool ours(u64 id)
{
    return (u32)(id >> 32) == target_tgid;
}

static __always_inline u32 log2_u64(u64 v)
{
    u32 r = 0;
    for (int i = 32; i > 0; i >>= 1) {
        if (v >> i) {
            v >>= i;
            r += i;
        }
    }
    return r;
}

SEC("uprobe")
int BPF_KPROBE(wait_enter)
{
    u64 id = bpf_get_current_pid_tgid();
    if (!ours(id))
        return 0;
    u32 tid = (u32)id;
    struct waiter w = { .entry_ns = bpf_ktime_get_ns(), .spinning = 1 };
    bpf_map_update_elem(&waiters, &tid, &w, BPF_ANY);
    struct waitobs_stats *s = st();
    if (s)
        __sync_fetch_and_add(&s->entries, 1);
    return 0;
}

SEC("uretprobe")
int BPF_KRETPROBE(wait_exit)
{
    u64 id = bpf_get_current_pid_tgid();
    if (!ours(id))
        return 0;
    u32 tid = (u32)id;
    struct waiter *w = bpf_map_lookup_elem(&waiters, &tid);
    struct waitobs_stats *s = st();
    if (w && w->spinning && s)
        __sync_fetch_and_add(&s->returned_spinning, 1);
    bpf_map_delete_elem(&waiters, &tid);
    return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(futex_enter, struct pt_regs *regs, long nr)
{
    if (nr != futex_nr)
        return 0;
    u64 id = bpf_get_current_pid_tgid();
    if (!ours(id))
        return 0;
    long op = PT_REGS_PARM2_CORE_SYSCALL(regs) & FUTEX_CMD_MASK;
    if (op != FUTEX_WAIT_OP && op != FUTEX_WAIT_BITSET_OP)
        return 0;
    struct waitobs_stats *s = st();
    if (!s)
        return 0;
    __sync_fetch_and_add(&s->futex_waits, 1);
    u32 tid = (u32)id;
    struct waiter *w = bpf_map_lookup_elem(&waiters, &tid);
    if (!w || !w->spinning)
        return 0;
    w->spinning = 0;
    u64 lat = bpf_ktime_get_ns() - w->entry_ns;
    __sync_fetch_and_add(&s->blocked, 1);
    __sync_fetch_and_add(&s->latency_sum_ns, lat);
    u32 b = log2_u64(lat);
    if (b < HIST_BUCKETS)
        __sync_fetch_and_add(&s->latency_hist[b], 1);
    return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(waiter_switch, bool preempt, struct task_struct *prev)
{
    if (BPF_CORE_READ(prev, tgid) != (int)target_tgid)
        return 0;
    if (BPF_CORE_READ(prev, __state) != 0)
        return 0;
    u32 tid = BPF_CORE_READ(prev, pid);
    struct waiter *w = bpf_map_lookup_elem(&waiters, &tid);
    struct waitobs_stats *s = st();
    if (w && w->spinning && s)
        __sync_fetch_and_add(&s->preempted_spinning, 1);
    return 0;
}
