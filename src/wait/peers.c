/* The registry of threads that run pvomp teams (peers.h). */
#include <pthread.h>
#include <stddef.h>
#include <sys/rseq.h>
#include <time.h>

#include "base/linux.h"
#include "wait/peers.h"
#include "wait/wait.h"

struct pv_peer pv_peers[PV_PEERS_MAX];
_Atomic unsigned pv_peers_high;
__thread struct pv_peer *pv_peer_self __attribute__((tls_model("initial-exec")));

/* Its destructor releases the slot of a thread that exits (a program's own
 * thread may exit without telling the runtime): its rseq area, in its TLS,
 * goes with it. */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void at_thread_exit(void *arg)
{
    (void)arg;
    pv_peer_thread_end();
}

static void make_exit_key(void)
{
    pthread_key_create(&exit_key, at_thread_exit);
}

/* The kernel's cpu_id in this thread's rseq area, when glibc registered one. */
static const volatile uint32_t *own_rseq_cpu(void)
{
    if (__rseq_size < offsetof(struct rseq, cpu_id) + sizeof(uint32_t))
        return NULL;
    struct rseq *area = (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
    if ((int32_t)area->cpu_id < 0) /* uninitialised, or registration failed */
        return NULL;
    return &area->cpu_id;
}

void pv_peer_thread_start(void)
{
    if (pv_peer_self)
        return;
    clockid_t clock;
    if (pthread_getcpuclockid(pthread_self(), &clock) != 0)
        return;
    for (unsigned i = 0; i < PV_PEERS_MAX; i++) {
        struct pv_peer *p = &pv_peers[i];
        pid_t free_slot = 0;
        /* -1 reserves the slot while its fields are filled in. */
        if (atomic_load_explicit(&p->tid, memory_order_relaxed) != 0 ||
            !atomic_compare_exchange_strong(&p->tid, &free_slot, -1))
            continue;
        p->cpu_clock = clock;
        atomic_store_explicit(&p->rseq_cpu, own_rseq_cpu(), memory_order_relaxed);
        atomic_store_explicit(&p->waiting, 0, memory_order_relaxed);
        /* Publishes the fields: readers load tid before them. */
        atomic_store_explicit(&p->tid, pv_gettid(), memory_order_seq_cst);
        unsigned high = atomic_load_explicit(&pv_peers_high, memory_order_relaxed);
        while (high < i + 1 && !atomic_compare_exchange_weak(&pv_peers_high, &high, i + 1))
            ;
        pv_peer_self = p;
        pthread_once(&exit_key_once, make_exit_key);
        pthread_setspecific(exit_key, p);
        return;
    }
    /* More than PV_PEERS_MAX team threads: this one is not looked at. */
}

void pv_peer_thread_end(void)
{
    struct pv_peer *p = pv_peer_self;
    if (!p)
        return;
    pv_peer_self = NULL;
    pthread_setspecific(exit_key, NULL);
    /* seq_cst store of tid, then seq_cst loads of readers, against
     * pv_peer_cpu's seq_cst increment of readers, then load of tid: either
     * the reader sees the slot free and does not touch the area, or this
     * thread sees the reader and waits for it before its rseq area can be
     * freed with its TLS. */
    atomic_store_explicit(&p->tid, 0, memory_order_seq_cst);
    while (atomic_load_explicit(&p->readers, memory_order_seq_cst) != 0)
        pv_cpu_relax();
}

void pv_peers_fork_child(void)
{
    struct pv_peer *self = pv_peer_self;
    unsigned high = atomic_load_explicit(&pv_peers_high, memory_order_relaxed);
    for (unsigned i = 0; i < high; i++) {
        atomic_store_explicit(&pv_peers[i].readers, 0, memory_order_relaxed);
        atomic_store_explicit(&pv_peers[i].tid, 0, memory_order_relaxed);
    }
    if (self) {
        /* The child's thread has a tid and a CPU clock of its own. */
        pv_peer_self = NULL;
        pv_peer_thread_start();
    }
}

int pv_peer_cpu(struct pv_peer *p)
{
    int cpu = -1;
    atomic_fetch_add_explicit(&p->readers, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&p->tid, memory_order_seq_cst) > 0) {
        const volatile uint32_t *where = atomic_load_explicit(&p->rseq_cpu, memory_order_relaxed);
        if (where)
            cpu = (int)*where;
    }
    atomic_fetch_sub_explicit(&p->readers, 1, memory_order_release);
    return cpu;
}

uint64_t pv_peer_cpu_ns(struct pv_peer *p)
{
    struct timespec ts;
    if (clock_gettime(p->cpu_clock, &ts) != 0)
        return 0; /* the thread is gone (its slot is being released) */
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
