/* Turning the flight log on: the environment, event selection, programs'
 * own event catalogs, and the exported control functions.
 *
 *   PVOMP_TRACE=<file>          write a log (%p in the name becomes the pid, %r
 *                               the MPI rank, %% a %)
 *   PVOMP_TRACE_MAX=<n>[K|M|G]  stop writing records at this file size (counted
 *                               as dropped)
 *   PVOMP_TRACE_EVENTS=<list>   comma-separated globs; !glob excludes; later
 *                               entries win; with no positive glob every
 *                               event starts enabled; "list" prints the catalog
 *   PVOMP_TRACE_BUFSIZE=<n>[K|M] most a thread's buffer gets (default 4M, power of two)
 *   PVOMP_TRACE_BUFFER=<n>[K|M|G] all threads' buffers together (default 16M)
 *   PVOMP_TRACE_MODE=file|ring  ring: keep the newest records in memory, write
 *                               them out on SIGUSR2, exit and crashes (flight.c)
 *   PVOMP_TRACE_RING=<n>[K|M|G],<s>s  what ring mode keeps (default 64M)
 *   PVOMP_TRACE_PERIOD_MS=<n>   drain buffers at least this often (default 100, 0 = never)
 *   PVOMP_TRACE_CLOCK=auto|tsc|monotonic
 *
 * pv_trace_init() runs from a constructor; calling it again is harmless. */
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compiler.h"
#include "base/message.h"
#include "trace/held.h"
#include "trace/registry.h"
#include "trace/trace.h"

#define MIN_BUFSIZE 4096u
#define MAX_BUFSIZE (1u << 30)
#define MIN_MAX (64u << 10) /* PVOMP_TRACE_MAX: room for the log's own records */
#define MIN_BUDGET (1u << 20)
#define MIN_RING (1u << 20)

struct pattern {
    char *glob;
    bool exclude;
    bool matched;
};
static struct pattern *patterns;
static unsigned npatterns;
static bool any_include;
static bool list_events;

/* Names in use (runtime catalog and registered programs' catalogs). */
static pthread_mutex_t cat_lock = PTHREAD_MUTEX_INITIALIZER;
static char **names;
static size_t nnames, names_cap;
static uint64_t next_id = PV_TRACE_NEVENTS;
static const struct pvomp_trace_catalog **cats;
static size_t ncats;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void warn_bad(const char *var, const char *val, const char *why)
{
    pv_warn("%s=%s: %s", var, val, why);
}

static void parse_events(const char *spec)
{
    char *copy = strdup(spec), *save = NULL;
    if (!copy)
        return;
    if (!strcmp(spec, "list")) {
        list_events = true;
        free(copy);
        return;
    }
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t l = strlen(tok);
        while (l && tok[l - 1] == ' ')
            tok[--l] = 0;
        bool ex = tok[0] == '!';
        if (ex)
            tok++;
        if (!*tok)
            continue;
        if (!strcmp(tok, "list")) {
            list_events = true;
            continue;
        }
        struct pattern *np = realloc(patterns, (npatterns + 1) * sizeof *np);
        char *g = strdup(tok);
        if (!np || !g) {
            free(g);
            break;
        }
        patterns = np;
        patterns[npatterns++] = (struct pattern){ g, ex, false };
        any_include |= !ex;
    }
    free(copy);
}

/* N[K|M|G] in bytes; false when s is not that (or overflows). */
static bool parse_bytes(const char *s, uint64_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K')
        shift = 10, end++;
    else if (*end == 'm' || *end == 'M')
        shift = 20, end++;
    else if (*end == 'g' || *end == 'G')
        shift = 30, end++;
    if (end == s || *end != 0 || v > (UINT64_MAX >> shift))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}

static uint64_t parse_size(const char *s, bool *ok)
{
    uint64_t v = 0;
    *ok = parse_bytes(s, &v) && v >= MIN_BUFSIZE && v <= MAX_BUFSIZE;
    uint64_t p = MIN_BUFSIZE;
    while (p < v)
        p <<= 1;
    return p;
}

/* The process's MPI rank as the launcher tells it (Open MPI, then the PMI
 * of MPICH/Intel MPI/Slurm, then PMIx); 0 outside MPI. */
static long mpi_rank(void)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK" };
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long r = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && *end == 0 && r >= 0)
            return r;
    }
    return 0;
}

/* PVOMP_TRACE_RING: "64M", "30s", or both ("30s,256M"); seconds alone keep
 * at most the default size too.  False when s is not that. */
static bool parse_ring(const char *s, uint64_t *bytes, uint64_t *ns)
{
    char *copy = strdup(s), *save = NULL;
    bool ok = copy != NULL, got_bytes = false, got_ns = false;
    *bytes = PV_TRACE_DEFAULT_RING;
    *ns = 0;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; ok && tok;
         tok = strtok_r(NULL, ",", &save)) {
        size_t l = strlen(tok);
        char *end;
        if (l > 1 && tok[l - 1] == 's' && tok[0] >= '0' && tok[0] <= '9' && !got_ns) {
            tok[l - 1] = 0;
            unsigned long long sec = strtoull(tok, &end, 10);
            ok = *end == 0 && sec >= 1 && sec <= 86400;
            *ns = sec * 1000000000ull;
            got_ns = true;
        } else if (!got_bytes) {
            ok = parse_bytes(tok, bytes) && *bytes >= MIN_RING && *bytes <= (64ull << 30);
            got_bytes = true;
        } else {
            ok = false;
        }
    }
    free(copy);
    if (!ok || (!got_bytes && !got_ns)) {
        *bytes = PV_TRACE_DEFAULT_RING;
        *ns = 0;
        return false;
    }
    return true;
}

static char *expand_path(const char *s)
{
    size_t cap = strlen(s) + 32, n = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (; *s; s++) {
        if (n + 24 >= cap) {
            cap *= 2;
            char *o = realloc(out, cap);
            if (!o) {
                free(out);
                return NULL;
            }
            out = o;
        }
        if (s[0] == '%' && s[1] == 'p') {
            n += (size_t)sprintf(out + n, "%d", (int)getpid());
            s++;
        } else if (s[0] == '%' && s[1] == 'r') {
            n += (size_t)sprintf(out + n, "%ld", mpi_rank());
            s++;
        } else if (s[0] == '%' && s[1] == '%') {
            out[n++] = '%';
            s++;
        } else {
            out[n++] = *s;
        }
    }
    out[n] = 0;
    return out;
}

static void read_env(void)
{
    const char *v;
    bool ok;
    if ((v = getenv("PVOMP_TRACE_EVENTS")) && *v)
        parse_events(v);
    if ((v = getenv("PVOMP_TRACE_BUFSIZE")) && *v) {
        uint64_t sz = parse_size(v, &ok);
        if (ok)
            pv_trace_cfg.bufsize = sz;
        else
            warn_bad("PVOMP_TRACE_BUFSIZE", v, "not a size between 4K and 1G; using 4M");
    }
    if ((v = getenv("PVOMP_TRACE_PERIOD_MS")) && *v) {
        char *end;
        unsigned long ms = strtoul(v, &end, 10);
        if (end != v && *end == 0 && ms <= 3600000)
            pv_trace_cfg.period_ms = (unsigned)ms;
        else
            warn_bad("PVOMP_TRACE_PERIOD_MS", v, "not a number of milliseconds; using 100");
    }
    if ((v = getenv("PVOMP_TRACE_DIRECT")) && *v) {
        if (!strcmp(v, "0") || !strcmp(v, "1"))
            pv_trace_cfg.direct = v[0] == '1';
        else
            warn_bad("PVOMP_TRACE_DIRECT", v, "not 0 or 1; using 1");
    }
    if ((v = getenv("PVOMP_TRACE_MAX")) && *v) {
        uint64_t max = 0;
        if (parse_bytes(v, &max) && max >= MIN_MAX)
            pv_trace_cfg.max_bytes = max;
        else
            warn_bad("PVOMP_TRACE_MAX", v, "not a size of at least 64K (N, NK, NM, NG); "
                                           "no cap");
    }
    if ((v = getenv("PVOMP_TRACE_BUFFER")) && *v) {
        uint64_t b = 0;
        if (parse_bytes(v, &b) && b >= MIN_BUDGET)
            pv_trace_cfg.budget = b;
        else
            warn_bad("PVOMP_TRACE_BUFFER", v, "not a size of at least 1M; using 16M");
    }
    if ((v = getenv("PVOMP_TRACE_MODE")) && *v) {
        if (!strcmp(v, "ring") || !strcmp(v, "file"))
            pv_trace_cfg.ring = v[0] == 'r';
        else
            warn_bad("PVOMP_TRACE_MODE", v, "not 'file' or 'ring'; using file");
    }
    if ((v = getenv("PVOMP_TRACE_RING")) && *v &&
        !parse_ring(v, &pv_trace_cfg.ring_bytes, &pv_trace_cfg.ring_ns))
        warn_bad("PVOMP_TRACE_RING", v, "not a size of at least 1M (64M), a time (30s), or "
                                        "both (30s,256M); using 64M");
    if (pv_trace_cfg.ring && pv_trace_cfg.max_bytes) {
        pv_warn("PVOMP_TRACE_MAX does not apply in ring mode (PVOMP_TRACE_RING bounds it); "
                "ignored");
        pv_trace_cfg.max_bytes = 0;
    }
    if ((v = getenv("PVOMP_TRACE")) && *v)
        pv_trace_cfg.path = expand_path(v);
}

static bool selected(const char *name)
{
    bool on = !any_include;
    for (unsigned i = 0; i < npatterns; i++)
        if (fnmatch(patterns[i].glob, name, 0) == 0) {
            on = !patterns[i].exclude;
            patterns[i].matched = true;
        }
    return on;
}

void pv_trace_set_all(uint8_t *state, const struct pvomp_trace_event_desc *d, unsigned n)
{
    bool on = atomic_load_explicit(&pv_trace_on, memory_order_acquire);
    for (unsigned i = 0; i < n; i++) {
        bool meta = !strncmp(d[i].name, "pvtrace_", 8);
        /* Bit 0 only: a tool's bit stays (pv_trace_observe). */
        if (on && !meta && selected(d[i].name))
            __atomic_fetch_or(&state[i], PV_TRACE_TRACED, __ATOMIC_RELAXED);
        else
            __atomic_fetch_and(&state[i], (uint8_t)~PV_TRACE_TRACED, __ATOMIC_RELAXED);
    }
}

void pv_trace_observe(unsigned id, bool on)
{
    if (on)
        __atomic_fetch_or(&pv_trace_state[id], PV_TRACE_OBSERVED, __ATOMIC_RELAXED);
    else
        __atomic_fetch_and(&pv_trace_state[id], (uint8_t)~PV_TRACE_OBSERVED, __ATOMIC_RELAXED);
}

void pv_trace_disable_all(void)
{
    for (unsigned i = 0; i < PV_TRACE_NEVENTS; i++)
        __atomic_fetch_and(&pv_trace_state[i], (uint8_t)~PV_TRACE_TRACED, __ATOMIC_RELAXED);
    pthread_mutex_lock(&cat_lock);
    for (size_t c = 0; c < ncats; c++)
        for (unsigned i = 0; i < cats[c]->count; i++)
            __atomic_store_n(&cats[c]->state[i], 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&cat_lock);
}

static void print_catalog(const char *group, const struct pvomp_trace_event_desc *d, unsigned n)
{
    fprintf(stderr, "pvomp trace events (%s):\n", group);
    for (unsigned i = 0; i < n; i++)
        fprintf(stderr, "  %s(%s)\n", d[i].name, d[i].args);
}

static bool name_taken(const char *name)
{
    for (size_t i = 0; i < nnames; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

static void name_add(const char *name)
{
    if (nnames == names_cap) {
        size_t cap = names_cap ? 2 * names_cap : 128;
        char **n = realloc(names, cap * sizeof *n);
        if (!n)
            return;
        names = n;
        names_cap = cap;
    }
    char *s = strdup(name);
    if (s)
        names[nnames++] = s;
}

static void trace_exit(void)
{
    if (!atomic_load_explicit(&pv_trace_on, memory_order_acquire))
        return;
    trace_thread_end(); /* the thread that ends the process */
    pv_trace_held_flush(); /* this thread's acquisition not written yet, if any */
    atomic_store_explicit(&pv_trace_on, 0, memory_order_release);
    pv_trace_writer_quiesce(); /* records in flight in other threads are committed */
    pv_trace_writer_stop();    /* reads the flags for acquisitions still remembered */
    pv_trace_disable_all();
    for (unsigned i = 0; i < npatterns; i++)
        if (!patterns[i].matched)
            pv_warn("PVOMP_TRACE_EVENTS: '%s%s' matched no event", patterns[i].exclude ? "!" : "",
                    patterns[i].glob);
}

static void trace_fork_child(void)
{
    pv_trace_tls = NULL;
    if (!atomic_load_explicit(&pv_trace_on, memory_order_relaxed))
        return;
    atomic_store_explicit(&pv_trace_on, 0, memory_order_relaxed);
    for (unsigned i = 0; i < PV_TRACE_NEVENTS; i++)
        pv_trace_state[i] &= (uint8_t)~PV_TRACE_TRACED; /* a tool's bit stays */
    for (size_t c = 0; c < ncats; c++)
        for (unsigned i = 0; i < cats[c]->count; i++)
            cats[c]->state[i] = 0;
    pthread_mutex_init(&cat_lock, NULL);
    pv_trace_writer_forget();
}

static void trace_init_once(void)
{
    read_env();
    if (list_events)
        print_catalog("pvomp runtime", pv_trace_catalog, PV_TRACE_NEVENTS);
    for (unsigned i = 0; i < PV_TRACE_NEVENTS; i++)
        name_add(pv_trace_catalog[i].name);
    if (!pv_trace_cfg.path)
        return;
    pv_trace_clock_init();
    if (!pv_trace_writer_start())
        return;
    atomic_store_explicit(&pv_trace_on, 1, memory_order_release);
    pv_trace_set_all(pv_trace_state, pv_trace_catalog, PV_TRACE_NEVENTS);
    trace_thread_begin(0); /* the initial thread (the constructor runs on it) */
    atexit(trace_exit);
    pthread_atfork(NULL, NULL, trace_fork_child);
}

void pv_trace_init(void)
{
    pthread_once(&init_once, trace_init_once);
}

__attribute__((constructor)) static void pv_trace_constructor(void)
{
    pv_trace_init();
}

void pv_trace_flush_all(void)
{
    if (atomic_load_explicit(&pv_trace_on, memory_order_acquire)) {
        pv_trace_held_flush(); /* the caller's acquisition not written yet, if any */
        pv_trace_writer_flush();
    }
}

/* ------------------------------------------------------------- exported */

PV_EXPORT void pvomp_trace_flush(void)
{
    pv_trace_flush_all();
}

PV_EXPORT int pvomp_trace_active(void)
{
    return atomic_load_explicit(&pv_trace_on, memory_order_acquire);
}

PV_EXPORT int pvomp_trace_register(struct pvomp_trace_catalog *cat)
{
    pv_trace_init();
    if (!cat || cat->abi != PVOMP_TRACE_CATALOG_ABI) {
        pv_warn("trace: a program's event catalog has an unknown format (generated by another "
                "pvomp version?); ignored");
        return -1;
    }
    if (list_events)
        print_catalog(cat->group ? cat->group : "program", cat->events, cat->count);
    if (!atomic_load_explicit(&pv_trace_on, memory_order_acquire))
        return -1;
    pthread_mutex_lock(&cat_lock);
    for (size_t c = 0; c < ncats; c++)
        if (cats[c] == cat) {
            pthread_mutex_unlock(&cat_lock);
            return 0;
        }
    for (unsigned i = 0; i < cat->count; i++)
        if (name_taken(cat->events[i].name)) {
            pthread_mutex_unlock(&cat_lock);
            pv_warn("trace: event '%s' of group '%s' is already declared; the group is not traced",
                    cat->events[i].name, cat->group ? cat->group : "?");
            return -1;
        }
    const struct pvomp_trace_catalog **nc = realloc(cats, (ncats + 1) * sizeof *nc);
    if (!nc) {
        pthread_mutex_unlock(&cat_lock);
        return -1;
    }
    cats = nc;
    cats[ncats++] = cat;
    for (unsigned i = 0; i < cat->count; i++)
        name_add(cat->events[i].name);
    cat->base_id = next_id;
    next_id += cat->count;
    struct pv_trace_buf b = { 0 };
    pv_trace_buf_decls(&b, cat->base_id, cat->events, cat->count, pv_trace_now(),
                       (uint32_t)gettid());
    /* Queued before any of these events can be committed (flags are still off). */
    pv_trace_meta_append(b.p, b.len);
    free(b.p);
    pv_trace_set_all(cat->state, cat->events, cat->count);
    pthread_mutex_unlock(&cat_lock);
    return 0;
}
