/* The phantom page: what the eBPF phantom tracker (bpf/phantom.bpf.c, loaded
 * by tools/pvomp-phantomd) publishes and what pvomp processes read.
 *
 * A "phantom" is a team thread the runtime believes is running but that cannot
 * make progress: a registered thread switched out while still runnable
 * (preempted) or woken but still waiting for a CPU, or a registered thread
 * whose vCPU the hypervisor has preempted.
 *
 * The tracker owns one BPF_F_MMAPABLE array map of PVOMP_PHANTOM_PAGES pages.
 * Page 0 describes the tracker and the CPUs; pages 1.. belong to processes,
 * one page per process that registered team threads.  Processes map the
 * array read-only (the map is frozen: nobody can map it writable; the BPF
 * programs still write it).  All counters are written by BPF programs with
 * atomic adds or plain stores; a reader takes one plain load per field.
 *
 * This header is shared by the BPF programs, the daemon, the runtime's client
 * and the tests, so it uses only fixed-width types. */
#ifndef PVOMP_PHANTOM_H
#define PVOMP_PHANTOM_H

#ifndef __VMLINUX_H__
#include <stdint.h>
#endif

#define PVOMP_PHANTOM_MAGIC 0x70766f6dU /* "pvom" */
#define PVOMP_PHANTOM_VERSION 2U
#define PVOMP_PHANTOM_PAGE_SIZE 4096U
#define PVOMP_PHANTOM_PAGES 128U                      /* page 0 + 127 process pages */
#define PVOMP_PHANTOM_SLOTS (PVOMP_PHANTOM_PAGES - 1U) /* process pages 1..127 */
#define PVOMP_PHANTOM_MAX_CPUS 128U

/* The smoothed phantom average is fixed point with this many fraction bits:
 * avg / 65536.0 phantoms (so 0.9 reads as 58982, not 0). */
#define PVOMP_PHANTOM_AVG_SHIFT 16U

enum pvomp_phantom_kind {
    PVOMP_PHANTOM_KIND_GLOBAL = 1, /* page 0 */
    PVOMP_PHANTOM_KIND_PROCESS = 2,
};

/* Flags of the global page. */
#define PVOMP_PHANTOM_F_VCPU 1U /* vCPU phantoms tracked (KVM steal time found) */

/* Both page kinds begin with this. */
struct pvomp_phantom_hdr {
    uint32_t magic;    /* PVOMP_PHANTOM_MAGIC */
    uint16_t version;  /* PVOMP_PHANTOM_VERSION */
    uint16_t kind;     /* enum pvomp_phantom_kind */
};

/* What the tracker knows about one CPU (global page). */
struct pvomp_phantom_cpu {
    uint32_t pid;        /* process whose registered thread runs here, 0 = none */
    uint32_t preempted;  /* at the last tick: PVOMP_PHANTOM_CPU_PREEMPTED (the host
                          * has preempted this vCPU) | PVOMP_PHANTOM_CPU_SIMULATED */
    uint64_t steal_ns;   /* cumulative steal time of this vCPU (KVM steal time) */
    uint64_t preempted_ticks; /* ticks at which the host had preempted this vCPU */
};
#define PVOMP_PHANTOM_CPU_PREEMPTED 1U
#define PVOMP_PHANTOM_CPU_SIMULATED 2U /* test hook, see tests/phantom/phantom_vcpu.c */

struct pvomp_phantom_global {
    struct pvomp_phantom_hdr hdr;
    uint32_t nr_pages;       /* PVOMP_PHANTOM_PAGES */
    uint32_t nr_cpus;        /* CPUs described below */
    uint32_t flags;          /* PVOMP_PHANTOM_F_* */
    uint32_t period_us;      /* timer period (vCPU refresh, average) */
    uint64_t ticks;          /* timer callbacks so far */
    uint64_t tick_ns;        /* CLOCK_MONOTONIC of the last timer callback */
    uint64_t registrations;  /* threads registered so far (all processes) */
    uint64_t vcpu_preemptions; /* ticks at which some vCPU was seen preempted */
    uint32_t unregistrable;  /* registrations refused: tid >= pid_max at load time */
    uint8_t pad_[64 - 60];
    struct pvomp_phantom_cpu cpu[PVOMP_PHANTOM_MAX_CPUS];
};

/* One process's page.  `phantoms` is the word the pvsched waiter loads. */
struct pvomp_phantom_proc {
    struct pvomp_phantom_hdr hdr;
    uint32_t pid;            /* owning process (thread group id), 0 = free page */
    uint32_t threads;        /* registered threads alive */
    uint64_t registered;     /* threads registered since the page was taken */
    uint8_t pad0_[64 - 24];

    /* Hot line: changes on every phantom transition. */
    uint32_t phantoms;        /* phantoms now = thread_phantoms + vcpu_phantoms */
    uint32_t thread_phantoms; /* registered threads runnable but not running */
    uint32_t vcpu_phantoms;   /* registered threads on a preempted vCPU */
    uint32_t avg;             /* smoothed phantoms, fixed point (PVOMP_PHANTOM_AVG_SHIFT) */
    uint64_t seq;             /* incremented after every change of the fields above */
    uint64_t update_ns;       /* CLOCK_MONOTONIC of the last change (bpf_ktime_get_ns) */
    uint64_t phantom_events;  /* times a registered thread became a phantom */
    uint64_t vcpu_events;     /* times the vCPU phantom count rose */
    uint8_t pad1_[64 - 48];

    /* Per CPU: while a registered thread of this process runs on CPU c and
     * another task waits for that CPU, queued_since_ns[c] is the time
     * (CLOCK_MONOTONIC) the thread was switched in; 0 otherwise.  Set at
     * the switch (when the CPU's runqueue holds more than the thread) and
     * when a task is woken onto the CPU without preempting the thread;
     * cleared when the thread is switched out.  pvsched uses it to give the
     * CPU away after a slice (see src/phantom/phantom.h). */
    uint64_t queued_since_ns[PVOMP_PHANTOM_MAX_CPUS];
};

/* The map's value type: one page. */
struct pvomp_phantom_page {
    union {
        struct pvomp_phantom_hdr hdr;
        struct pvomp_phantom_global g;
        struct pvomp_phantom_proc p;
        uint8_t bytes[PVOMP_PHANTOM_PAGE_SIZE];
    };
};

_Static_assert(sizeof(struct pvomp_phantom_global) <= PVOMP_PHANTOM_PAGE_SIZE &&
                   sizeof(struct pvomp_phantom_proc) <= PVOMP_PHANTOM_PAGE_SIZE,
               "a phantom page holds its description");

/* Process page i of the map lives at byte offset i * PVOMP_PHANTOM_PAGE_SIZE.
 * The tracker places process `pid` at the first free page probing from this
 * one, so a reader usually finds its page at the first look. */
static inline uint32_t pvomp_phantom_home(uint32_t pid)
{
    return 1U + pid % PVOMP_PHANTOM_SLOTS;
}

/* ---- The daemon's socket protocol (unix stream socket) ------------------
 * A client sends one request; the daemon answers with one reply and, when
 * status == 0, the map's descriptor as SCM_RIGHTS ancillary data.  The
 * daemon trusts only the kernel's peer credentials, never the message, for
 * who the client is. */
#define PVOMP_PHANTOMD_SOCKET "/run/pvomp/phantomd.sock"
#define PVOMP_PHANTOMD_SOCKET_ENV "PVOMP_PHANTOMD_SOCKET"
#define PVOMP_PHANTOMD_REQ_MAGIC 0x70767271U /* "pvrq" */

enum pvomp_phantomd_op {
    PVOMP_PHANTOMD_OP_MAP = 1,      /* just the map descriptor (status tools) */
    PVOMP_PHANTOMD_OP_REGISTER = 2, /* probe my runtime library, then the map */
};

struct pvomp_phantomd_req {
    uint32_t magic;    /* PVOMP_PHANTOMD_REQ_MAGIC */
    uint32_t version;  /* PVOMP_PHANTOM_VERSION */
    uint32_t op;       /* enum pvomp_phantomd_op */
    uint32_t reserved;
    char library[4096]; /* OP_REGISTER: path of the mapped pvomp library */
};

struct pvomp_phantomd_reply {
    int32_t status;     /* 0 or a positive errno value */
    uint32_t version;   /* PVOMP_PHANTOM_VERSION */
    uint32_t nr_pages;  /* pages in the mapped array */
    uint32_t reserved;
    char message[240];  /* why, when status != 0 */
};

/* The exported pvomp function the tracker's registration uprobe sits on. */
#define PVOMP_PHANTOM_REGISTER_SYMBOL "pvomp_phantom_register"

#endif
