/* Places: the sets of CPUs that OpenMP threads are bound to.
 *
 * The list comes from OMP_PLACES (an abstract name - threads, cores, sockets,
 * ll_caches, numa_domains - read from the sysfs topology, or an explicit list
 * of {cpu,...} sets with intervals and exclusions), from GOMP_CPU_AFFINITY, or,
 * when a binding policy is asked for without places, one place per hardware
 * thread.  Every place is cut down to the CPUs this process may run on; places
 * left empty are dropped.
 *
 * pv_affinity_assign() implements the spec's close / primary / spread rules
 * (OpenMP 5.1, 2.6.2) for a new team; pv_affinity_bind_self() pins the
 * calling thread with pthread_setaffinity_np. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "runtime/affinity.h"
#include "runtime/internal.h"

struct pv_place *pv_places;
unsigned pv_num_places;

const char *pv_affinity_sysfs_root = "/sys/devices/system";

static cpu_set_t *proc_mask;       /* the process affinity mask at init */
static size_t set_bytes;           /* size of every cpu_set_t here */
static unsigned set_max;           /* CPU numbers representable: 8 * set_bytes */
static cpu_set_t **place_sets;     /* place_sets[i]: the CPUs of place i */

#define MAX_PLACES 65536u

/* ----------------------------------------------------------- masks */

void pv_cpu_mask_init(void)
{
    long conf = sysconf(_SC_NPROCESSORS_CONF);
    size_t ncpus = conf > 1024 ? (size_t)conf : 1024;
    for (;;) {
        set_bytes = CPU_ALLOC_SIZE(ncpus);
        proc_mask = pv_calloc(1, set_bytes);
        if (sched_getaffinity(0, set_bytes, proc_mask) == 0)
            break;
        free(proc_mask);
        proc_mask = NULL;
        if (errno != EINVAL || ncpus >= (1u << 22))
            break;
        ncpus *= 2; /* the kernel's mask is larger than ours */
    }
    set_max = 8 * set_bytes;
    if (!proc_mask) {
        /* Unknown: assume every online CPU. */
        long onln = sysconf(_SC_NPROCESSORS_ONLN);
        proc_mask = pv_calloc(1, set_bytes);
        for (long c = 0; c < (onln > 0 ? onln : 1) && c < (long)set_max; c++)
            CPU_SET_S((size_t)c, set_bytes, proc_mask);
    }
    unsigned n = (unsigned)CPU_COUNT_S(set_bytes, proc_mask);
    pv_num_procs = n ? n : 1;
}

const cpu_set_t *pv_cpu_mask(void)
{
    return proc_mask;
}

size_t pv_cpu_set_bytes(void)
{
    return set_bytes;
}

unsigned pv_cpu_set_max(void)
{
    return set_max;
}

static cpu_set_t *set_new(void)
{
    return pv_calloc(1, set_bytes);
}

static cpu_set_t *set_dup(const cpu_set_t *s)
{
    cpu_set_t *d = set_new();
    memcpy(d, s, set_bytes);
    return d;
}

static bool set_empty(const cpu_set_t *s)
{
    return CPU_COUNT_S(set_bytes, s) == 0;
}

/* ------------------------------------------------------- place lists */

struct plist {
    cpu_set_t **v;
    unsigned n, cap;
};

static void plist_push(struct plist *l, cpu_set_t *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            pv_fatal("out of memory building the place list");
    }
    l->v[l->n++] = s;
}

static void plist_free(struct plist *l)
{
    for (unsigned i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

/* Make `l` the place list: each place cut down to the process mask, empty
 * places dropped.  `what` names the source for the warnings. */
static bool plist_install(struct plist *l, const char *name, const char *value)
{
    unsigned kept = 0, given = l->n;
    for (unsigned i = 0; i < l->n; i++) {
        CPU_AND_S(set_bytes, l->v[i], l->v[i], proc_mask);
        if (set_empty(l->v[i]))
            free(l->v[i]);
        else
            l->v[kept++] = l->v[i];
    }
    l->n = kept;
    if (kept == 0) {
        if (name)
            pv_warn("no place in %s='%s' contains a CPU this process may run on; "
                    "threads are not bound", name, value);
        plist_free(l);
        return false;
    }
    if (kept < given && name)
        pv_warn("%s='%s': %u of %u places contain no CPU this process may run on and were "
                "dropped", name, value, given - kept, given);

    pv_places = pv_calloc(kept, sizeof *pv_places);
    place_sets = l->v;
    for (unsigned i = 0; i < kept; i++) {
        unsigned n = (unsigned)CPU_COUNT_S(set_bytes, l->v[i]), k = 0;
        pv_places[i].ncpus = n;
        pv_places[i].cpus = pv_calloc(n, sizeof(int));
        for (unsigned c = 0; c < set_max && k < n; c++)
            if (CPU_ISSET_S(c, set_bytes, l->v[i]))
                pv_places[i].cpus[k++] = (int)c;
    }
    pv_num_places = kept;
    l->v = NULL;
    l->n = l->cap = 0;
    return true;
}

/* ------------------------------------------------------------ sysfs */

/* Read a CPU list file ("0-3,8,10-11") into `out` (not cleared first). */
static bool read_cpulist(const char *path, cpu_set_t *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[4096];
    bool ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (!ok)
        return false;
    const char *p = line;
    while (*p && *p != '\n') {
        char *end;
        unsigned long first = strtoul(p, &end, 10), last;
        if (end == p)
            return false;
        p = end;
        last = first;
        if (*p == '-') {
            last = strtoul(p + 1, &end, 10);
            if (end == p + 1 || last < first)
                return false;
            p = end;
        }
        for (unsigned long c = first; c <= last && c < set_max; c++)
            CPU_SET_S(c, set_bytes, out);
        if (*p == ',')
            p++;
    }
    return true;
}

static bool read_cpu_file(unsigned cpu, const char *file, cpu_set_t *out)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cpu/cpu%u/%s", pv_affinity_sysfs_root, cpu, file);
    return read_cpulist(path, out);
}

static long read_long(const char *path)
{
    FILE *f = fopen(path, "r");
    long v = -1;
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* The CPUs sharing `cpu`'s core, package, or last-level cache. */
enum level { L_THREADS = 1, L_CORES, L_SOCKETS, L_LLC, L_NUMA };

static void group_of(unsigned cpu, enum level level, cpu_set_t *out)
{
    CPU_ZERO_S(set_bytes, out);
    bool ok = false;
    if (level == L_CORES || level == L_THREADS) {
        ok = read_cpu_file(cpu, "topology/thread_siblings_list", out) ||
             read_cpu_file(cpu, "topology/core_cpus_list", out);
    } else if (level == L_SOCKETS) {
        ok = read_cpu_file(cpu, "topology/package_cpus_list", out) ||
             read_cpu_file(cpu, "topology/core_siblings_list", out);
    } else if (level == L_LLC) {
        char path[512];
        int best = -1;
        long best_level = -1;
        for (int i = 0; i < 32; i++) {
            snprintf(path, sizeof path, "%s/cpu/cpu%u/cache/index%d/level",
                     pv_affinity_sysfs_root, cpu, i);
            long lv = read_long(path);
            if (lv < 0) {
                if (access(path, F_OK) != 0)
                    break;
                continue;
            }
            if (lv >= best_level) {
                best_level = lv;
                best = i;
            }
        }
        if (best >= 0) {
            char file[64];
            snprintf(file, sizeof file, "cache/index%d/shared_cpu_list", best);
            ok = read_cpu_file(cpu, file, out);
        }
        if (!ok) { /* no cache information: a package is the next best guess */
            group_of(cpu, L_SOCKETS, out);
            return;
        }
    }
    if (!ok && level == L_SOCKETS) {
        memcpy(out, proc_mask, set_bytes); /* one package */
        return;
    }
    CPU_SET_S(cpu, set_bytes, out); /* missing files: the CPU stands alone */
}

static void push_if_nonempty(struct plist *l, const cpu_set_t *s, unsigned long count)
{
    if (!set_empty(s) && l->n < count)
        plist_push(l, set_dup(s));
}

static void build_numa(struct plist *l, cpu_set_t *left, unsigned long count)
{
    char path[512];
    cpu_set_t *nodes = set_new(), *s = set_new();
    snprintf(path, sizeof path, "%s/node/online", pv_affinity_sysfs_root);
    if (read_cpulist(path, nodes)) { /* a node list has the cpu-list syntax */
        for (unsigned node = 0; node < set_max && l->n < count; node++) {
            if (!CPU_ISSET_S(node, set_bytes, nodes))
                continue;
            CPU_ZERO_S(set_bytes, s);
            snprintf(path, sizeof path, "%s/node/node%u/cpulist", pv_affinity_sysfs_root, node);
            if (!read_cpulist(path, s))
                continue;
            CPU_AND_S(set_bytes, s, s, left);
            push_if_nonempty(l, s, count);
            for (unsigned c = 0; c < set_max; c++)
                if (CPU_ISSET_S(c, set_bytes, s))
                    CPU_CLR_S(c, set_bytes, left);
        }
    }
    /* CPUs in no node (or no NUMA information): one more domain. */
    push_if_nonempty(l, left, count);
    free(nodes);
    free(s);
}

/* The places of an abstract name, in topology order: package by package,
 * core by core, hardware thread by hardware thread. */
static void build_level(enum level level, unsigned long count, struct plist *l)
{
    cpu_set_t *left = set_dup(proc_mask);
    cpu_set_t *sock = set_new(), *core = set_new(), *one = set_new();
    if (level == L_NUMA) {
        build_numa(l, left, count);
        goto out;
    }
    for (unsigned c = 0; c < set_max && l->n < count; c++) {
        if (!CPU_ISSET_S(c, set_bytes, left))
            continue;
        group_of(c, level == L_LLC ? L_LLC : L_SOCKETS, sock);
        CPU_SET_S(c, set_bytes, sock);
        CPU_AND_S(set_bytes, sock, sock, left);
        if (level == L_SOCKETS || level == L_LLC) {
            push_if_nonempty(l, sock, count);
        } else {
            for (unsigned c2 = 0; c2 < set_max && l->n < count; c2++) {
                if (!CPU_ISSET_S(c2, set_bytes, sock) || !CPU_ISSET_S(c2, set_bytes, left))
                    continue;
                group_of(c2, L_CORES, core);
                CPU_SET_S(c2, set_bytes, core);
                CPU_AND_S(set_bytes, core, core, sock);
                CPU_AND_S(set_bytes, core, core, left);
                if (level == L_CORES) {
                    push_if_nonempty(l, core, count);
                } else {
                    for (unsigned c3 = 0; c3 < set_max && l->n < count; c3++) {
                        if (!CPU_ISSET_S(c3, set_bytes, core))
                            continue;
                        CPU_ZERO_S(set_bytes, one);
                        CPU_SET_S(c3, set_bytes, one);
                        push_if_nonempty(l, one, count);
                    }
                }
                for (unsigned k = 0; k < set_max; k++)
                    if (CPU_ISSET_S(k, set_bytes, core))
                        CPU_CLR_S(k, set_bytes, left);
            }
        }
        for (unsigned k = 0; k < set_max; k++)
            if (CPU_ISSET_S(k, set_bytes, sock))
                CPU_CLR_S(k, set_bytes, left);
    }
out:
    free(left);
    free(sock);
    free(core);
    free(one);
}

bool pv_places_default(void)
{
    struct plist l = {0};
    build_level(L_THREADS, ULONG_MAX, &l);
    return plist_install(&l, NULL, NULL);
}

/* --------------------------------------------------- OMP_PLACES parsing */

struct lexer {
    const char *p;
    const char *why; /* the first error */
};

static void skip(struct lexer *x)
{
    while (isspace((unsigned char)*x->p))
        x->p++;
}

static bool fail(struct lexer *x, const char *why)
{
    if (!x->why)
        x->why = why;
    return false;
}

static bool lex_num(struct lexer *x, long *out, bool allow_sign)
{
    skip(x);
    const char *p = x->p;
    if (!(isdigit((unsigned char)*p) || (allow_sign && (*p == '-' || *p == '+') &&
                                         isdigit((unsigned char)p[1]))))
        return fail(x, "a number was expected");
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (errno)
        return fail(x, "a number is out of range");
    x->p = end;
    *out = v;
    return true;
}

static bool lex_char(struct lexer *x, char c)
{
    skip(x);
    if (*x->p != c)
        return false;
    x->p++;
    return true;
}

/* [":" len [":" stride]] after a CPU number or a place. */
static bool lex_interval(struct lexer *x, long *len, long *stride)
{
    *len = 1;
    *stride = 1;
    if (!lex_char(x, ':'))
        return true;
    if (!lex_num(x, len, false))
        return false;
    if (*len <= 0 || *len >= (long)MAX_PLACES)
        return fail(x, "an interval length must be between 1 and 65535");
    if (lex_char(x, ':') && !lex_num(x, stride, true))
        return false;
    return true;
}

static bool add_cpu(struct lexer *x, cpu_set_t *s, long cpu)
{
    if (cpu < 0 || cpu >= (long)set_max)
        return fail(x, "a CPU number is out of range");
    CPU_SET_S((size_t)cpu, set_bytes, s);
    return true;
}

/* One place: "{res,...}" or a bare CPU number; '!' exclusions inside a
 * place apply after its inclusions. */
static bool lex_place(struct lexer *x, cpu_set_t *s)
{
    long num, len, stride;
    CPU_ZERO_S(set_bytes, s);
    if (!lex_char(x, '{')) {
        if (!lex_num(x, &num, false))
            return false;
        return add_cpu(x, s, num);
    }
    cpu_set_t *excl = set_new();
    bool ok = true;
    do {
        bool neg = lex_char(x, '!');
        if (!(ok = lex_num(x, &num, false)))
            break;
        if (neg) {
            skip(x);
            if (*x->p == ':') {
                ok = fail(x, "an excluded CPU cannot have an interval");
                break;
            }
            if (!(ok = add_cpu(x, excl, num)))
                break;
            continue;
        }
        if (!(ok = lex_interval(x, &len, &stride)))
            break;
        for (long k = 0; k < len && ok; k++)
            ok = add_cpu(x, s, num + k * stride);
    } while (ok && lex_char(x, ','));
    if (ok && !lex_char(x, '}'))
        ok = fail(x, "'}' or ',' was expected");
    for (unsigned c = 0; ok && c < set_max; c++) {
        if (!CPU_ISSET_S(c, set_bytes, excl))
            continue;
        if (!CPU_ISSET_S(c, set_bytes, s))
            ok = fail(x, "an excluded CPU is not in its place");
        CPU_CLR_S(c, set_bytes, s);
    }
    free(excl);
    return ok;
}

/* A copy of `s` with every CPU moved by `by`. */
static bool shift_place(struct lexer *x, const cpu_set_t *s, long by, cpu_set_t *out)
{
    CPU_ZERO_S(set_bytes, out);
    for (unsigned c = 0; c < set_max; c++)
        if (CPU_ISSET_S(c, set_bytes, s) && !add_cpu(x, out, (long)c + by))
            return false;
    return true;
}

static bool parse_explicit(struct lexer *x, struct plist *l)
{
    do {
        bool neg = lex_char(x, '!');
        cpu_set_t *s = set_new();
        if (!lex_place(x, s)) {
            free(s);
            return false;
        }
        if (neg) {
            unsigned i;
            skip(x);
            if (*x->p == ':') {
                free(s);
                return fail(x, "an excluded place cannot have an interval");
            }
            for (i = 0; i < l->n; i++)
                if (CPU_EQUAL_S(set_bytes, l->v[i], s))
                    break;
            free(s);
            if (i == l->n)
                return fail(x, "an excluded place is not in the list");
            free(l->v[i]);
            memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
            l->n--;
            continue;
        }
        long len, stride;
        if (!lex_interval(x, &len, &stride)) {
            free(s);
            return false;
        }
        if (l->n + (unsigned long)len > MAX_PLACES) {
            free(s);
            return fail(x, "too many places");
        }
        plist_push(l, s);
        for (long k = 1; k < len; k++) {
            cpu_set_t *t = set_new();
            if (!shift_place(x, l->v[l->n - 1], stride, t)) {
                free(t);
                return false;
            }
            plist_push(l, t);
        }
    } while (lex_char(x, ','));
    skip(x);
    if (*x->p)
        return fail(x, "',' was expected");
    if (l->n == 0)
        return fail(x, "every place was excluded");
    return true;
}

static void bad_places(const char *name, const char *value, const char *why)
{
    pv_warn("invalid value '%s' for environment variable %s (%s); using the default", value,
            name, why ? why : "not understood");
}

bool pv_places_parse(const char *name, const char *value, bool build)
{
    static const struct { const char *word; enum level level; } names[] = {
        {"threads", L_THREADS}, {"cores", L_CORES}, {"sockets", L_SOCKETS},
        {"ll_caches", L_LLC},   {"numa_domains", L_NUMA},
    };
    struct lexer x = {value, NULL};
    struct plist l = {0};
    skip(&x);
    if (!*x.p) {
        bad_places(name, value, "empty");
        return false;
    }
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i].word);
        if (strncasecmp(x.p, names[i].word, n) != 0)
            continue;
        x.p += n;
        unsigned long count = ULONG_MAX;
        if (lex_char(&x, '(')) {
            long c;
            if (!lex_num(&x, &c, false) || !lex_char(&x, ')')) {
                bad_places(name, value, "expected a count in parentheses");
                return false;
            }
            if (c <= 0) {
                bad_places(name, value, "the count must be positive");
                return false;
            }
            count = (unsigned long)c;
        }
        skip(&x);
        if (*x.p) {
            bad_places(name, value, "unexpected text after the place name");
            return false;
        }
        if (!build)
            return true;
        build_level(names[i].level, count, &l);
        if (l.n == 0) {
            bad_places(name, value, "no topology information");
            return false;
        }
        return plist_install(&l, NULL, NULL);
    }
    if (!parse_explicit(&x, &l)) {
        plist_free(&l);
        bad_places(name, value, x.why);
        return false;
    }
    if (!build) {
        plist_free(&l);
        return true;
    }
    return plist_install(&l, name, value);
}

/* GOMP_CPU_AFFINITY="0 3 1-2 4-15:2": every CPU listed is one place. */
bool pv_places_parse_cpu_list(const char *name, const char *value, bool build)
{
    struct plist l = {0};
    const char *p = value;
    for (;;) {
        while (isspace((unsigned char)*p) || *p == ',')
            p++;
        if (!*p)
            break;
        char *end;
        unsigned long first = strtoul(p, &end, 0), last, step = 1;
        if (end == p || first >= 65536)
            goto bad;
        p = end;
        last = first;
        if (*p == '-') {
            last = strtoul(p + 1, &end, 0);
            if (end == p + 1 || last >= 65536 || last < first)
                goto bad;
            p = end;
            if (*p == ':') {
                step = strtoul(p + 1, &end, 0);
                if (end == p + 1 || step == 0 || step >= 65536)
                    goto bad;
                p = end;
            }
        }
        if (*p && !isspace((unsigned char)*p) && *p != ',')
            goto bad;
        for (unsigned long c = first; c <= last; c += step) {
            if (!build)
                continue;
            cpu_set_t *s = set_new();
            if (c < set_max)
                CPU_SET_S(c, set_bytes, s);
            plist_push(&l, s);
        }
    }
    if (!build)
        return true;
    if (l.n == 0)
        goto bad;
    return plist_install(&l, name, value);
bad:
    plist_free(&l);
    pv_warn("invalid value '%s' for environment variable %s; ignored", value, name);
    return false;
}

/* ------------------------------------------------------------ printing */

void pv_places_print(FILE *f)
{
    for (unsigned i = 0; i < pv_num_places; i++) {
        const struct pv_place *pl = &pv_places[i];
        fputc('{', f);
        for (unsigned k = 0; k < pl->ncpus;) {
            unsigned run = 1;
            while (k + run < pl->ncpus && pl->cpus[k + run] == pl->cpus[k] + (int)run)
                run++;
            fprintf(f, k ? ",%d" : "%d", pl->cpus[k]);
            if (run > 1)
                fprintf(f, ":%u", run);
            k += run;
        }
        fputs(i + 1 < pv_num_places ? "}," : "}", f);
    }
}

size_t pv_place_format(char *buf, size_t size, unsigned place)
{
    const cpu_set_t *s = place < pv_num_places ? place_sets[place] : proc_mask;
    size_t len = 0;
    bool first = true;
    for (unsigned c = 0; s && c < set_max; c++) {
        if (!CPU_ISSET_S(c, set_bytes, s))
            continue;
        unsigned e = c;
        while (e + 1 < set_max && CPU_ISSET_S(e + 1, set_bytes, s))
            e++;
        char tmp[32];
        int n = e > c ? snprintf(tmp, sizeof tmp, "%s%u-%u", first ? "" : ",", c, e)
                      : snprintf(tmp, sizeof tmp, "%s%u", first ? "" : ",", c);
        if (len < size)
            snprintf(buf + len, size - len, "%s", tmp);
        len += (size_t)n;
        first = false;
        c = e;
    }
    if (size && len >= size)
        buf[size - 1] = '\0';
    else if (size)
        buf[len] = '\0';
    return len;
}

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
    int err = pthread_setaffinity_np(pthread_self(), set_bytes, place_sets[place]);
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

/* ------------------------------------------------------------- the API */

PV_EXPORT int omp_get_num_places(void)
{
    pv_runtime_init();
    return (int)pv_num_places;
}

PV_EXPORT int omp_get_place_num_procs(int place_num)
{
    pv_runtime_init();
    if (place_num < 0 || (unsigned)place_num >= pv_num_places)
        return 0;
    return (int)pv_places[place_num].ncpus;
}

PV_EXPORT void omp_get_place_proc_ids(int place_num, int *ids)
{
    pv_runtime_init();
    if (place_num < 0 || (unsigned)place_num >= pv_num_places || !ids)
        return;
    memcpy(ids, pv_places[place_num].cpus, pv_places[place_num].ncpus * sizeof(int));
}

PV_EXPORT int omp_get_place_num(void)
{
    pv_runtime_init();
    unsigned p = pv_thr.ts.place;
    return pv_num_places && p < pv_num_places ? (int)p : -1;
}

PV_EXPORT int omp_get_partition_num_places(void)
{
    pv_runtime_init();
    return pv_num_places ? (int)pv_thr.ts.part_len : 0;
}

PV_EXPORT void omp_get_partition_place_nums(int *place_nums)
{
    pv_runtime_init();
    if (!pv_num_places || !place_nums)
        return;
    for (unsigned i = 0; i < pv_thr.ts.part_len; i++)
        place_nums[i] = (int)(pv_thr.ts.part_off + i);
}

PV_EXPORT int omp_get_proc_bind(void)
{
    pv_runtime_init();
    return (int)pv_icv_get()->bind_var;
}

PV_EXPORT int omp_get_num_procs(void)
{
    pv_runtime_init();
    if (pv_num_places == 0) {
        /* Unbound: the mask may have been changed since init (taskset, the
         * program itself); count it now, as libgomp does. */
        cpu_set_t *s = set_new();
        int n = 0;
        if (sched_getaffinity(0, set_bytes, s) == 0)
            n = CPU_COUNT_S(set_bytes, s);
        free(s);
        if (n > 0)
            return n;
    }
    return (int)pv_num_procs;
}
