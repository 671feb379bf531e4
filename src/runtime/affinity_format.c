/* The affinity-format API (OpenMP 5.0 3.2.29-3.2.32) and OMP_DISPLAY_AFFINITY.
 *
 * A format is text with fields "%[[[0].]size]type"; type is one letter or a
 * {long_name}: t team_num, T num_teams, L nesting_level, n thread_num,
 * N num_threads, a ancestor_tnum, H host, P process_id, i native_thread_id,
 * A thread_affinity.  "0." pads numbers with zeros, "." right-justifies, a
 * size alone (or "0" without ".", as libomp takes it) left-justifies; "%%" is
 * a percent sign; an unknown type prints "undefined". */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/linux.h"
#include "base/message.h"
#include "runtime/affinity.h"
#include "runtime/icv.h"
#include "runtime/omp_api.h"
#include "runtime/places.h"
#include "runtime/thread.h"

/* The lead's queries (team.c). */

/* affinity-format-var is replaced under this lock; readers copy it. */
static pthread_mutex_t format_lock = PTHREAD_MUTEX_INITIALIZER;
static bool format_owned; /* pv_gicv.affinity_format was malloc'd here */

/* Where affinity lines go: libgomp prints them on stderr, libomp on stdout
 * (the spec names no stream); set once a clang program starts using the
 * runtime (pv_kmpc_start).  From then on, too, %i is libomp's (the thread's
 * kernel id in decimal, libgomp's is its pthread_t in hex) and, unless
 * OMP_AFFINITY_FORMAT or omp_set_affinity_format gave one, so is the default
 * format: implementation defined, one per process, the first ABI's. */
static bool display_stdout;

/* Output with snprintf semantics: everything is counted, only what fits is
 * stored. */
struct out {
    char *buf;
    size_t size;
    size_t len;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->len < o->size) {
        size_t room = o->size - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

static void pad(struct out *o, char c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(o, &c, 1);
}

/* A field value as text, justified in `width` (0: as is). */
static void put_field(struct out *o, const char *s, size_t width, bool zero, bool right)
{
    size_t n = strlen(s);
    if (width <= n) {
        put(o, s, n);
    } else if (zero && right) {
        /* Zeros go after a sign or a 0x prefix. */
        size_t pre = s[0] == '-' ? 1 : (s[0] == '0' && s[1] == 'x') ? 2 : 0;
        put(o, s, pre);
        pad(o, '0', width - n);
        put(o, s + pre, n - pre);
    } else if (right) {
        pad(o, ' ', width - n);
        put(o, s, n);
    } else {
        put(o, s, n);
        pad(o, ' ', width - n);
    }
}

static const struct {
    const char *name;
    char c;
} long_names[] = {
    {"team_num", 't'},      {"num_teams", 'T'},       {"nesting_level", 'L'},
    {"thread_num", 'n'},    {"num_threads", 'N'},     {"ancestor_tnum", 'a'},
    {"host", 'H'},          {"process_id", 'P'},      {"native_thread_id", 'i'},
    {"thread_affinity", 'A'},
};

static void hostname(char *buf, size_t size)
{
    if (gethostname(buf, size) == 0) {
        buf[size - 1] = '\0';
        return;
    }
    struct utsname u;
    snprintf(buf, size, "%s", uname(&u) == 0 ? u.nodename : "node");
}

/* A malformed field is said once per process (the format is expanded on
 * every OMP_DISPLAY_AFFINITY line) and its text is printed as written; the
 * rest of the format is still expanded.  A user's typo never ends a program. */
static void bad_field(struct out *o, const char *fmt, const char *field, size_t n,
                      const char *why)
{
    static int said;
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        pv_warn("affinity format '%s': %s at '%.*s'; printed as written"
                " (an unknown type as 'undefined')", fmt, why,
                (int)n, field);
    put(o, field, n);
}

/* A well-formed field of a type pvomp does not know prints "undefined", as
 * the spec has for a type without information (and as libomp does). */
static void undefined_field(struct out *o, const char *fmt, const char *field, size_t n,
                            const char *why)
{
    bad_field(o, fmt, field, n, why);
    o->len -= n; /* the text bad_field put is replaced */
    put(o, "undefined", strlen("undefined"));
}

/* Expand `fmt` for the calling thread. */
static size_t expand(char *buffer, size_t size, const char *fmt)
{
    struct out o = {buffer, size, 0};
    const char *p = fmt;
    while (*p) {
        const char *pct = strchr(p, '%');
        if (!pct) {
            put(&o, p, strlen(p));
            break;
        }
        put(&o, p, (size_t)(pct - p));
        p = pct + 1;
        if (*p == '%') {
            put(&o, "%", 1);
            p++;
            continue;
        }
        bool zero = false, right = false;
        size_t width = 0;
        if (*p == '0') { /* without '.', left-justified: no zeros (as libomp) */
            zero = true;
            p++;
        }
        if (*p == '.') {
            right = true;
            p++;
        }
        if (*p >= '1' && *p <= '9') {
            char *end;
            width = strtoul(p, &end, 10);
            p = end;
            if (width > 4096) /* a size no line needs: the field as written */
                width = 4096;
        } else if (right) {
            bad_field(&o, fmt, pct, (size_t)(p - pct),
                      "'0.' or '.' must be followed by a size");
            continue;
        }
        char c = *p;
        if (c == '{') {
            const char *close = strchr(p, '}');
            c = 0;
            for (unsigned i = 0; close && i < sizeof long_names / sizeof long_names[0]; i++)
                if ((size_t)(close - p - 1) == strlen(long_names[i].name) &&
                    strncmp(p + 1, long_names[i].name, (size_t)(close - p - 1)) == 0)
                    c = long_names[i].c;
            if (!c) {
                /* without a '}', only "%{" is bad: the rest is text */
                const char *end = close ? close + 1 : p + 1;
                if (close)
                    undefined_field(&o, fmt, pct, (size_t)(end - pct), "unknown field name");
                else
                    bad_field(&o, fmt, pct, (size_t)(end - pct), "'{' without '}'");
                p = end;
                continue;
            }
            p = close;
        }
        char val[512];
        switch (c) {
        case 't': snprintf(val, sizeof val, "%d", omp_get_team_num()); break;
        case 'T': snprintf(val, sizeof val, "%d", omp_get_num_teams()); break;
        case 'L': snprintf(val, sizeof val, "%d", omp_get_level()); break;
        case 'n': snprintf(val, sizeof val, "%d", omp_get_thread_num()); break;
        case 'N': snprintf(val, sizeof val, "%d", omp_get_num_threads()); break;
        case 'a':
            snprintf(val, sizeof val, "%d", omp_get_ancestor_thread_num(omp_get_level() - 1));
            break;
        case 'P': snprintf(val, sizeof val, "%d", (int)getpid()); break;
        case 'i':
            if (__atomic_load_n(&display_stdout, __ATOMIC_RELAXED))
                snprintf(val, sizeof val, "%d", (int)pv_gettid());
            else
                snprintf(val, sizeof val, "0x%lx", (unsigned long)pthread_self());
            break;
        case 'H':
            hostname(val, sizeof val);
            zero = false; /* strings are padded with spaces */
            break;
        case 'A': {
            size_t n = pv_place_format(val, sizeof val, pv_thr.ts.place);
            if (n >= sizeof val) { /* a very long CPU list */
                char *big = pv_malloc(n + 1);
                pv_place_format(big, n + 1, pv_thr.ts.place);
                put_field(&o, big, width, false, right);
                free(big);
                p++;
                continue;
            }
            zero = false;
            break;
        }
        case '\0':
            bad_field(&o, fmt, pct, (size_t)(p - pct), "the format ends inside a field");
            continue;
        default:
            undefined_field(&o, fmt, pct, (size_t)(p + 1 - pct), "unknown field type");
            p++;
            continue;
        }
        put_field(&o, val, width, zero, right);
        p++;
    }
    return o.len;
}

/* A private copy of affinity-format-var (freed by the caller). */
static char *format_copy(void)
{
    pthread_mutex_lock(&format_lock);
    char *s = strdup(pv_gicv.affinity_format);
    pthread_mutex_unlock(&format_lock);
    if (!s)
        pv_fatal("out of memory copying the affinity format");
    return s;
}

PV_EXPORT void omp_set_affinity_format(const char *format)
{
    pv_runtime_init();
    char *s = strdup(format ? format : "");
    if (!s)
        pv_fatal("out of memory copying the affinity format");
    pthread_mutex_lock(&format_lock);
    char *old = format_owned ? pv_gicv.affinity_format : NULL;
    pv_gicv.affinity_format = s;
    format_owned = true;
    pthread_mutex_unlock(&format_lock);
    free(old);
}

PV_EXPORT size_t omp_get_affinity_format(char *buffer, size_t size)
{
    pv_runtime_init();
    pthread_mutex_lock(&format_lock);
    size_t len = strlen(pv_gicv.affinity_format);
    if (buffer && size) {
        size_t n = len < size ? len : size - 1;
        memcpy(buffer, pv_gicv.affinity_format, n);
        buffer[n] = '\0';
    }
    pthread_mutex_unlock(&format_lock);
    return len;
}

PV_EXPORT size_t omp_capture_affinity(char *buffer, size_t size, const char *format)
{
    pv_runtime_init();
    char *own = NULL;
    if (!format || !*format)
        format = own = format_copy();
    size_t len = expand(buffer ? buffer : NULL, buffer ? size : 0, format);
    if (buffer && size)
        buffer[len < size ? len : size - 1] = '\0';
    free(own);
    return len;
}

static char kmp_default_format[] = "OMP: pid %P tid %i thread %n bound to OS proc set {%A}";

void pv_affinity_display_kmp(void)
{
    if (__atomic_load_n(&display_stdout, __ATOMIC_RELAXED))
        return;
    pthread_mutex_lock(&format_lock);
    if (!format_owned && !pv_gicv.affinity_format_env)
        pv_gicv.affinity_format = kmp_default_format;
    pthread_mutex_unlock(&format_lock);
    __atomic_store_n(&display_stdout, true, __ATOMIC_RELAXED);
}

/* The line (with '\n') goes out in one write. */
static void display(const char *format)
{
    char small[512];
    size_t len = omp_capture_affinity(small, sizeof small - 1, format);
    char *b = small;
    if (len + 1 >= sizeof small) {
        b = pv_malloc(len + 2);
        omp_capture_affinity(b, len + 1, format);
    }
    b[len] = '\n';
    FILE *f = __atomic_load_n(&display_stdout, __ATOMIC_RELAXED) ? stdout : stderr;
    fwrite(b, 1, len + 1, f);
    if (f == stdout) /* libomp's lines are not held back behind the program's */
        fflush(stdout);
    if (b != small)
        free(b);
}

PV_EXPORT void omp_display_affinity(const char *format)
{
    display(format);
}

/* OMP_DISPLAY_AFFINITY: a thread shows its line when it first runs in a
 * parallel region and whenever something the format can show changed; and
 * when a teammate's place changed, every member shows its line (the spec:
 * "if affinity of any thread in a parallel region changes", all of them). */
struct shown {
    bool valid;
    int level, num, nthreads, ancestor, team, nteams;
    unsigned place;
};
static __thread struct shown last_shown;

unsigned pv_affinity_shown_place(void)
{
    return last_shown.valid ? last_shown.place : UINT_MAX;
}

void pv_affinity_display_thread(bool team_changed)
{
    if (!pv_gicv.display_affinity)
        return;
    int level = omp_get_level();
    struct shown now;
    memset(&now, 0, sizeof now); /* padding too: the structs are compared whole */
    now.valid = true;
    now.level = level;
    now.num = omp_get_thread_num();
    now.nthreads = omp_get_num_threads();
    now.ancestor = omp_get_ancestor_thread_num(level - 1);
    now.team = omp_get_team_num();
    now.nteams = omp_get_num_teams();
    now.place = pv_thr.ts.place;
    if (!team_changed && last_shown.valid && memcmp(&now, &last_shown, sizeof now) == 0)
        return;
    last_shown = now;
    display(NULL);
}
