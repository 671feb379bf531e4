/* Client side of the phantom page.
 *
 * pv_phantom_open() asks pvomp-phantomd (over its unix socket) to put its
 * registration uprobe on this library and to hand over the phantom map, maps
 * the map read-only, registers the calling thread and finds this process's
 * page.  From then on pv_phantom_count_ptr points at the page's `phantoms`
 * word, and every team thread registers itself in pv_phantom_thread_start().
 * Registration is a call of the exported, never-inlined pvomp_phantom_register():
 * the tracker's uprobe on it records the calling thread (the function itself
 * does nothing). */
#include "phantom/phantom.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "phantom/connect.h"
#include "base/compiler.h"
#include "base/valgrind.h"
#include "pvomp/phantom.h"

static const uint32_t no_phantoms;
const volatile uint32_t *pv_phantom_count_ptr = &no_phantoms;
static const uint64_t no_queue[PVOMP_PHANTOM_MAX_CPUS];
const volatile uint64_t *pv_phantom_queued_ptr = no_queue;

static const struct pvomp_phantom_page *pages; /* the whole array, read-only */
static uint32_t nr_pages;
static const struct pvomp_phantom_proc *mine;  /* this process's page */
static _Atomic bool active;                    /* team threads must register */
static __thread bool registered;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static char reason[512];

/* The uprobe's anchor.  noipa: the compiler must neither inline it nor drop
 * a call to it because its body is empty (clang has no noipa; there noinline
 * and the asm with its memory clobber keep the call). */
#if defined(__clang__)
#define PV_NOIPA __attribute__((noinline))
#else
#define PV_NOIPA __attribute__((noinline, noipa))
#endif
PV_EXPORT PV_NOIPA void pvomp_phantom_register(void)
{
    __asm__ volatile("" ::: "memory");
}

static void register_self(void)
{
    if (registered)
        return;
    registered = true;
    pvomp_phantom_register();
}

/* This process's page: the tracker claims the first free page probing from
 * the "home" page of the pid. */
static const struct pvomp_phantom_proc *find_page(void)
{
    uint32_t pid = (uint32_t)getpid();
    for (uint32_t k = 0; k < PVOMP_PHANTOM_SLOTS; k++) {
        uint32_t i = 1 + (pid + k) % PVOMP_PHANTOM_SLOTS;
        if (i < nr_pages && pages[i].p.pid == pid)
            return &pages[i].p;
    }
    return NULL;
}

static void publish(const struct pvomp_phantom_proc *p)
{
    mine = p;
    pv_phantom_count_ptr = p ? &p->phantoms : &no_phantoms;
    pv_phantom_queued_ptr = p ? p->queued_since_ns : no_queue;
}

/* A forked child is a new process: register its first thread and find the
 * child's own page (the mapping is inherited). */
static void after_fork_child(void)
{
    pthread_mutex_init(&open_lock, NULL);
    publish(NULL);
    if (!atomic_load_explicit(&active, memory_order_relaxed))
        return;
    registered = false;
    register_self();
    publish(find_page());
}

static bool fail(const char **why, const char *fmt, const char *arg)
{
    snprintf(reason, sizeof(reason), fmt, arg);
    *why = reason;
    return false;
}

static bool open_locked(const char **why)
{
    /* valgrind runs translated code: the int3 of the tracker's registration
     * uprobe would reach the program as a SIGTRAP. */
    if (RUNNING_ON_VALGRIND)
        return fail(why, "the program runs under valgrind, which cannot take the tracker's "
                         "registration probe%s", "");
    Dl_info info;
    char lib[PATH_MAX];
    if (!dladdr((void *)pvomp_phantom_register, &info) || !info.dli_fname ||
        !realpath(info.dli_fname, lib))
        return fail(why, "cannot find the path of the pvomp library%s", "");

    char msg[400];
    uint32_t n = 0;
    int fd = pv_phantomd_request(pv_phantomd_socket_path(), PVOMP_PHANTOMD_OP_REGISTER, lib, &n,
                                 msg, sizeof(msg));
    if (fd < 0)
        return fail(why, "%.400s", msg);
    const struct pvomp_phantom_page *p = pv_phantom_map_pages(fd, n);
    close(fd);
    if (!p)
        return fail(why, "cannot map the phantom page read-only%s", "");
    if (p[0].hdr.magic != PVOMP_PHANTOM_MAGIC || p[0].hdr.version != PVOMP_PHANTOM_VERSION ||
        p[0].hdr.kind != PVOMP_PHANTOM_KIND_GLOBAL) {
        munmap((void *)p, (size_t)n * PVOMP_PHANTOM_PAGE_SIZE);
        return fail(why, "the phantom page has an unknown layout%s", "");
    }
    pages = p;
    nr_pages = n;

    register_self(); /* the uprobe claims this process's page synchronously */
    const struct pvomp_phantom_proc *page = find_page();
    if (!page) {
        munmap((void *)pages, (size_t)nr_pages * PVOMP_PHANTOM_PAGE_SIZE);
        pages = NULL;
        registered = false;
        return fail(why, "the tracker did not see %.300s register (no free page?)", lib);
    }
    publish(page);
    static bool atfork_done;
    if (!atfork_done) {
        pthread_atfork(NULL, NULL, after_fork_child);
        atfork_done = true;
    }
    /* Release: a thread that sees `active` also sees the published page. */
    atomic_store_explicit(&active, true, memory_order_release);
    return true;
}

bool pv_phantom_open(const char **why)
{
    pthread_mutex_lock(&open_lock);
    bool ok = mine != NULL || open_locked(why);
    pthread_mutex_unlock(&open_lock);
    return ok;
}

void pv_phantom_thread_start(void)
{
    if (atomic_load_explicit(&active, memory_order_acquire))
        register_self();
}

const struct pvomp_phantom_proc *pv_phantom_page(void)
{
    return mine;
}
