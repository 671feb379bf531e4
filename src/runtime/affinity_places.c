/* Parsing OMP_PLACES (an abstract name with an optional count, or an explicit
 * list of {cpu,...} places with intervals and exclusions) and
 * GOMP_CPU_AFFINITY.  See affinity_internal.h for the parts. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/message.h"
#include "runtime/affinity_internal.h"

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
    if (cpu < 0 || cpu >= (long)pv_set_max)
        return fail(x, "a CPU number is out of range");
    CPU_SET_S((size_t)cpu, pv_set_bytes, s);
    return true;
}

/* One place: "{res,...}" or a bare CPU number; '!' exclusions inside a
 * place apply after its inclusions. */
static bool lex_place(struct lexer *x, cpu_set_t *s)
{
    long num, len, stride;
    CPU_ZERO_S(pv_set_bytes, s);
    if (!lex_char(x, '{')) {
        if (!lex_num(x, &num, false))
            return false;
        return add_cpu(x, s, num);
    }
    cpu_set_t *excl = pv_cpuset_new();
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
    for (unsigned c = 0; ok && c < pv_set_max; c++) {
        if (!CPU_ISSET_S(c, pv_set_bytes, excl))
            continue;
        if (!CPU_ISSET_S(c, pv_set_bytes, s))
            ok = fail(x, "an excluded CPU is not in its place");
        CPU_CLR_S(c, pv_set_bytes, s);
    }
    free(excl);
    return ok;
}

/* A copy of `s` with every CPU moved by `by`. */
static bool shift_place(struct lexer *x, const cpu_set_t *s, long by, cpu_set_t *out)
{
    CPU_ZERO_S(pv_set_bytes, out);
    for (unsigned c = 0; c < pv_set_max; c++)
        if (CPU_ISSET_S(c, pv_set_bytes, s) && !add_cpu(x, out, (long)c + by))
            return false;
    return true;
}

static bool parse_explicit(struct lexer *x, struct plist *l)
{
    do {
        bool neg = lex_char(x, '!');
        cpu_set_t *s = pv_cpuset_new();
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
                if (CPU_EQUAL_S(pv_set_bytes, l->v[i], s))
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
        pv_plist_push(l, s);
        for (long k = 1; k < len; k++) {
            cpu_set_t *t = pv_cpuset_new();
            if (!shift_place(x, l->v[l->n - 1], stride, t)) {
                free(t);
                return false;
            }
            pv_plist_push(l, t);
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
        pv_places_build_level(names[i].level, count, &l);
        if (l.n == 0) {
            bad_places(name, value, "no topology information");
            return false;
        }
        return pv_plist_install(&l, NULL, NULL);
    }
    if (!parse_explicit(&x, &l)) {
        pv_plist_free(&l);
        bad_places(name, value, x.why);
        return false;
    }
    if (!build) {
        pv_plist_free(&l);
        return true;
    }
    return pv_plist_install(&l, name, value);
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
            cpu_set_t *s = pv_cpuset_new();
            if (c < pv_set_max)
                CPU_SET_S(c, pv_set_bytes, s);
            pv_plist_push(&l, s);
        }
    }
    if (!build)
        return true;
    if (l.n == 0)
        goto bad;
    return pv_plist_install(&l, name, value);
bad:
    pv_plist_free(&l);
    pv_warn("invalid value '%s' for environment variable %s; ignored", value, name);
    return false;
}
