/* The ICVs as the environment sets them, read once at runtime init with
 * libgomp's syntax and defaults.  A value that does not parse gets one warning
 * naming the variable and the value; the default is kept.  Also prints the
 * OPENMP DISPLAY ENVIRONMENT block (OMP_DISPLAY_ENV, omp_display_env). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/message.h"
#include "runtime/affinity.h"
#include "runtime/icv.h"
#include "runtime/omp_api.h"
#include "runtime/ompt_view.h"

static char default_affinity_format[] = "level %L thread %i affinity %A";

struct pv_icv pv_initial_icv = {
    .nthreads_var = 1,
    .run_sched_var = PV_SCHED_DYNAMIC,
    .run_sched_chunk = 1,
    .run_sched_kmp = PV_RUN_SCHED_KMP_DEFAULT,
    .dyn_var = false,
    .max_active_levels_var = 1,
    .thread_limit_var = UINT_MAX,
    .bind_var = PV_BIND_FALSE,
    .default_device_var = 0,
    .def_allocator_var = 1, /* omp_default_mem_alloc; OMP_ALLOCATOR may change it */
};

struct pv_global_icv pv_gicv = {
    .affinity_format = default_affinity_format,
    .default_allocator = 1, /* omp_default_mem_alloc */
    .wait_policy = PV_WAIT_DEFAULT,
    .task_throttle = 64, /* as libgomp */
    .hidden_helpers = 8, /* as libomp */
    .teams_bind = PV_BIND_SPREAD, /* as libomp */
};

unsigned pv_num_procs = 1;

/* What OMP_DISPLAY_ENV shows beyond the ICVs. */
static unsigned long long shown_spin_count = 300000;
static bool shown_active;

/* ------------------------------------------------------------ lexing */

static const char *skip_ws(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* Case-insensitive keyword at *s; on a match *s moves past it. */
static bool eat_word(const char **s, const char *word)
{
    size_t n = strlen(word);
    if (strncasecmp(*s, word, n) != 0)
        return false;
    *s += n;
    return true;
}

static bool only_ws_left(const char *s)
{
    return *skip_ws(s) == '\0';
}

static void bad_value(const char *name, const char *value)
{
    pv_warn("invalid value '%s' for environment variable %s; using the default", value, name);
}

/* An unsigned decimal number (no sign) at *s. */
static bool eat_ulong(const char **s, unsigned long *out)
{
    const char *p = skip_ws(*s);
    char *end;
    if (!isdigit((unsigned char)*p))
        return false;
    errno = 0;
    unsigned long v = strtoul(p, &end, 10);
    if (errno)
        return false;
    *out = v;
    *s = end;
    return true;
}

/* NAME as one unsigned number; zero only when allowed.  Returns false when
 * unset or invalid (warned). */
static bool env_ulong(const char *name, unsigned long *out, bool allow_zero)
{
    const char *value = getenv(name);
    if (!value)
        return false;
    const char *p = value;
    unsigned long v;
    if (!eat_ulong(&p, &v) || !only_ws_left(p) || (v == 0 && !allow_zero)) {
        bad_value(name, value);
        return false;
    }
    *out = v;
    return true;
}

static bool env_int(const char *name, int *out, bool allow_zero)
{
    unsigned long v;
    if (!env_ulong(name, &v, allow_zero))
        return false;
    if (v > INT_MAX) {
        bad_value(name, getenv(name));
        return false;
    }
    *out = (int)v;
    return true;
}

/* Boolean, in the `n` words each value may be spelled as (yes[i], no[i]). */
static bool env_bool_words(const char *name, bool *out, const char *const *yes,
                           const char *const *no, int n)
{
    const char *value = getenv(name);
    if (!value)
        return false;
    for (int i = 0; i < n; i++) {
        const char *p = skip_ws(value), *q = p;
        bool is_yes = eat_word(&p, yes[i]) && only_ws_left(p);
        if (is_yes || (eat_word(&q, no[i]) && only_ws_left(q))) {
            *out = is_yes;
            return true;
        }
    }
    bad_value(name, value);
    return false;
}

/* Boolean: true / false. */
static bool env_bool(const char *name, bool *out)
{
    static const char *const yes[] = {"true"}, *const no[] = {"false"};
    return env_bool_words(name, out, yes, no, 1);
}

/* A libomp setting in libomp's boolean forms. */
static bool env_kmp_bool(const char *name, bool *out)
{
    static const char *const yes[] = {"1", "true", "on", "yes"}, *const no[] = {"0", "false", "off", "no"};
    return env_bool_words(name, out, yes, no, 4);
}

/* KMP_ENABLE_TASK_THROTTLING (libomp's setting, in its boolean forms):
 * false lets a team queue any number of tasks (src/tasks/task.c). */
static void parse_task_throttling(void)
{
    bool on;
    if (env_kmp_bool("KMP_ENABLE_TASK_THROTTLING", &on) && !on)
        pv_gicv.task_throttle = UINT32_MAX;
}

/* libomp's hidden helper settings: LIBOMP_NUM_HIDDEN_HELPER_THREADS (a
 * number up to MAX_HIDDEN_HELPERS, 0 turns them off; above it: warned, the
 * maximum) and LIBOMP_USE_HIDDEN_HELPER_TASK (false turns them off). */
#define MAX_HIDDEN_HELPERS 1024
static void parse_hidden_helpers(void)
{
    const char *name = "LIBOMP_NUM_HIDDEN_HELPER_THREADS";
    unsigned long n;
    if (env_ulong(name, &n, true)) {
        if (n > MAX_HIDDEN_HELPERS) {
            pv_warn("value '%s' for environment variable %s is above the maximum of %u; using %u",
                    getenv(name), name, MAX_HIDDEN_HELPERS, MAX_HIDDEN_HELPERS);
            n = MAX_HIDDEN_HELPERS;
        }
        pv_gicv.hidden_helpers = (unsigned)n;
    }
    bool on;
    if (env_kmp_bool("LIBOMP_USE_HIDDEN_HELPER_TASK", &on) && !on)
        pv_gicv.hidden_helpers = 0;
}

/* ------------------------------------------------------------ the variables */

/* OMP_SCHEDULE: [modifier:]kind[,chunk].  Without a modifier, static is
 * monotonic and the others are nonmonotonic (OpenMP 5.0).  libomp's own
 * kinds are read too (libgomp rejects them): static_steal runs, and is
 * reported, as dynamic (as libomp reports it); trapezoidal is guided for gcc
 * programs and libomp's kind 101 for clang ones (run_sched_kmp). */
static void schedule_from(const char *value)
{
    const char *p = skip_ws(value);
    unsigned char kmp = PV_RUN_SCHED_KMP_SAME;
    int monotonic = 0; /* 1 monotonic, -1 nonmonotonic, 0 unspecified */
    unsigned kind;
    if (eat_word(&p, "monotonic"))
        monotonic = 1;
    else if (eat_word(&p, "nonmonotonic"))
        monotonic = -1;
    if (monotonic) {
        p = skip_ws(p);
        if (*p++ != ':')
            goto bad;
        p = skip_ws(p);
    }
    if (eat_word(&p, "static_steal")) {
        kind = PV_SCHED_DYNAMIC;
    } else if (eat_word(&p, "trapezoidal")) {
        kind = PV_SCHED_GUIDED;
        kmp = PV_RUN_SCHED_KMP_TRAPEZOIDAL;
    } else if (eat_word(&p, "static")) {
        kind = PV_SCHED_STATIC;
    } else if (eat_word(&p, "dynamic")) {
        kind = PV_SCHED_DYNAMIC;
    } else if (eat_word(&p, "guided")) {
        kind = PV_SCHED_GUIDED;
    } else if (eat_word(&p, "auto")) {
        kind = PV_SCHED_AUTO;
    } else {
        goto bad;
    }

    long chunk = kind == PV_SCHED_STATIC ? 0 : 1;
    p = skip_ws(p);
    if (*p == ',') {
        unsigned long v;
        p++;
        if (!eat_ulong(&p, &v) || !only_ws_left(p) || v > INT_MAX)
            goto bad;
        chunk = (v == 0 && kind != PV_SCHED_STATIC) ? 1 : (long)v;
    } else if (*p != '\0') {
        goto bad;
    }
    if (monotonic == 0 && kind == PV_SCHED_STATIC)
        kmp = PV_RUN_SCHED_KMP_NO_MODIFIER;
    if (monotonic == 1 || (monotonic == 0 && kind == PV_SCHED_STATIC))
        kind |= PV_SCHED_MONOTONIC;
    pv_initial_icv.run_sched_var = kind;
    pv_initial_icv.run_sched_chunk = chunk;
    pv_initial_icv.run_sched_kmp = kmp;
    return;
bad:
    bad_value("OMP_SCHEDULE", value);
}

/* OMP_SCHEDULE as it was at load (NULL: unset), for pv_env_schedule_reread. */
static char *schedule_at_load;

static void parse_schedule(void)
{
    const char *value = getenv("OMP_SCHEDULE");
    if (!value)
        return;
    schedule_at_load = strdup(value);
    if (!schedule_at_load)
        pv_fatal("out of memory copying OMP_SCHEDULE");
    schedule_from(value);
}

bool pv_env_schedule_reread(struct pv_icv *icv)
{
    const char *value = getenv("OMP_SCHEDULE");
    if (!value || (schedule_at_load && strcmp(value, schedule_at_load) == 0))
        return false; /* unset since load: libomp too would see only the default */
    schedule_from(value);
    icv->run_sched_var = pv_initial_icv.run_sched_var;
    icv->run_sched_chunk = pv_initial_icv.run_sched_chunk;
    icv->run_sched_kmp = pv_initial_icv.run_sched_kmp;
    return true;
}

/* A comma-separated list of positive numbers (OMP_NUM_THREADS). */
static void parse_nthreads(void)
{
    const char *value = getenv("OMP_NUM_THREADS");
    if (!value)
        return;
    unsigned cap = 8, n = 0;
    unsigned *list = pv_malloc(cap * sizeof *list);
    const char *p = value;
    for (;;) {
        unsigned long v;
        if (!eat_ulong(&p, &v) || v == 0 || v > UINT_MAX)
            goto bad;
        PV_GROW(list, n, cap, 4);
        list[n++] = (unsigned)v;
        p = skip_ws(p);
        if (*p == '\0')
            break;
        if (*p++ != ',')
            goto bad;
    }
    pv_initial_icv.nthreads_var = list[0];
    if (n > 1) {
        pv_gicv.nthreads_list = list;
        pv_gicv.nthreads_list_len = n;
    } else {
        free(list);
    }
    return;
bad:
    free(list);
    bad_value("OMP_NUM_THREADS", value);
}

/* One binding word at *p (false, true, primary/master, close, spread). */
static bool eat_bind(const char **p, unsigned *kind)
{
    static const struct { const char *name; unsigned kind; } kinds[] = {
        {"false", PV_BIND_FALSE}, {"true", PV_BIND_TRUE},     {"master", PV_BIND_MASTER},
        {"primary", PV_BIND_MASTER}, {"close", PV_BIND_CLOSE}, {"spread", PV_BIND_SPREAD},
    };
    for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (eat_word(p, kinds[i].name)) {
            *kind = kinds[i].kind;
            return true;
        }
    return false;
}

/* KMP_TEAMS_PROC_BIND (libomp's): how a host teams region splits the
 * places among its teams: spread (the default), close or primary. */
static void parse_teams_proc_bind(void)
{
    const char *value = getenv("KMP_TEAMS_PROC_BIND");
    if (!value)
        return;
    const char *p = skip_ws(value);
    unsigned kind;
    if (eat_bind(&p, &kind) && only_ws_left(p) && kind != PV_BIND_FALSE && kind != PV_BIND_TRUE)
        pv_gicv.teams_bind = kind;
    else
        bad_value("KMP_TEAMS_PROC_BIND", value);
}

/* OMP_PROC_BIND: true | false | a list of primary/master, close, spread.
 * Returns true when the variable was set (validly). */
static bool parse_proc_bind(void)
{
    const char *value = getenv("OMP_PROC_BIND");
    if (!value)
        return false;
    unsigned cap = 8, n = 0;
    unsigned *list = pv_malloc(cap * sizeof *list);
    const char *p = value;
    for (;;) {
        p = skip_ws(p);
        unsigned kind;
        if (!eat_bind(&p, &kind))
            goto bad;
        PV_GROW(list, n, cap, 4);
        list[n++] = kind;
        p = skip_ws(p);
        if (*p == '\0')
            break;
        if (*p++ != ',')
            goto bad;
    }
    /* true and false stand alone; they are not policies for a level. */
    if (n > 1)
        for (unsigned i = 0; i < n; i++)
            if (list[i] == PV_BIND_FALSE || list[i] == PV_BIND_TRUE)
                goto bad;
    pv_initial_icv.bind_var = list[0];
    if (n > 1) {
        pv_gicv.bind_list = list;
        pv_gicv.bind_list_len = n;
    } else {
        free(list);
    }
    return true;
bad:
    free(list);
    bad_value("OMP_PROC_BIND", value);
    return false;
}

static void parse_max_active_levels(void)
{
    unsigned long v;
    bool nested;
    if (env_ulong("OMP_MAX_ACTIVE_LEVELS", &v, true))
        pv_initial_icv.max_active_levels_var =
            v > PV_SUPPORTED_ACTIVE_LEVELS ? PV_SUPPORTED_ACTIVE_LEVELS : (unsigned)v;
    else if (env_bool("OMP_NESTED", &nested)) /* deprecated in OpenMP 5.0 */
        pv_initial_icv.max_active_levels_var = nested ? PV_SUPPORTED_ACTIVE_LEVELS : 1;
    else if (pv_gicv.nthreads_list_len > 1 || pv_gicv.bind_list_len > 1)
        pv_initial_icv.max_active_levels_var = PV_SUPPORTED_ACTIVE_LEVELS;
}

/* OMP_STACKSIZE / GOMP_STACKSIZE: number[B|K|M|G], kilobytes by default. */
static bool parse_stacksize(const char *name, size_t *out)
{
    const char *value = getenv(name);
    if (!value)
        return false;
    const char *p = value;
    unsigned long v;
    unsigned shift = 10;
    if (!eat_ulong(&p, &v))
        goto bad;
    p = skip_ws(p);
    if (*p) {
        switch (tolower((unsigned char)*p)) {
        case 'b': shift = 0; break;
        case 'k': shift = 10; break;
        case 'm': shift = 20; break;
        case 'g': shift = 30; break;
        default: goto bad;
        }
        if (!only_ws_left(p + 1))
            goto bad;
    }
    if (((v << shift) >> shift) != v)
        goto bad;
    *out = (size_t)v << shift;
    return true;
bad:
    bad_value(name, value);
    return false;
}

static void parse_stack(void)
{
    size_t size;
    const char *name = "OMP_STACKSIZE";
    if (!parse_stacksize(name, &size)) {
        name = "GOMP_STACKSIZE";
        if (!parse_stacksize(name, &size))
            return;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int err = pthread_attr_setstacksize(&attr, size);
    pthread_attr_destroy(&attr);
    if (err) {
        pv_warn("stack size %zu bytes from %s='%s' is below the minimum of %zu bytes; using the "
                "default", size, name, getenv(name), (size_t)PTHREAD_STACK_MIN);
        return;
    }
    pv_gicv.stacksize = size;
}

/* GOMP_SPINCOUNT: a number with an optional k/M/G/T (powers of 1000), or
 * "infinite"/"infinity". */
static bool parse_spincount(unsigned long long *out)
{
    const char *value = getenv("GOMP_SPINCOUNT");
    if (!value)
        return false;
    const char *p = skip_ws(value);
    unsigned long long v, mult = 1;
    if (eat_word(&p, "infinite") || eat_word(&p, "infinity")) {
        v = ~0ULL;
    } else {
        char *end;
        if (!isdigit((unsigned char)*p))
            goto bad;
        errno = 0;
        v = strtoull(p, &end, 10);
        if (errno)
            goto bad;
        p = skip_ws(end);
        if (*p) {
            switch (tolower((unsigned char)*p)) {
            case 'k': mult = 1000ULL; break;
            case 'm': mult = 1000000ULL; break;
            case 'g': mult = 1000000000ULL; break;
            case 't': mult = 1000000000000ULL; break;
            default: goto bad;
            }
            p++;
        }
    }
    if (!only_ws_left(p))
        goto bad;
    *out = v > ~0ULL / mult ? ~0ULL : v * mult;
    return true;
bad:
    bad_value("GOMP_SPINCOUNT", value);
    return false;
}

/* OMP_WAIT_POLICY (active|passive) and pvomp's GOMP_WAIT_POLICY
 * (pvsched|active|passive), which wins when both are set. */
static void parse_wait(void)
{
    enum pv_wait_policy policy = PV_WAIT_DEFAULT;
    const char *value = getenv("OMP_WAIT_POLICY");
    if (value) {
        const char *p = skip_ws(value);
        if (eat_word(&p, "active"))
            policy = PV_WAIT_ACTIVE;
        else if (eat_word(&p, "passive"))
            policy = PV_WAIT_PASSIVE;
        else
            p = "?";
        if (!only_ws_left(p)) {
            bad_value("OMP_WAIT_POLICY", value);
            policy = PV_WAIT_DEFAULT;
        }
    }
    value = getenv("GOMP_WAIT_POLICY");
    if (value) {
        const char *p = skip_ws(value);
        enum pv_wait_policy g = PV_WAIT_DEFAULT;
        if (eat_word(&p, "pvsched"))
            g = PV_WAIT_PVSCHED;
        else if (eat_word(&p, "active"))
            g = PV_WAIT_ACTIVE;
        else if (eat_word(&p, "passive"))
            g = PV_WAIT_PASSIVE;
        else
            p = "?";
        if (only_ws_left(p))
            policy = g;
        else
            bad_value("GOMP_WAIT_POLICY", value);
    }

    unsigned long long spin = 0;
    bool given = parse_spincount(&spin);
    pv_wait_configure(policy, spin, given);
    pv_wait_set_available_cpus(pv_num_procs);
    /* The configured policy may differ (pvsched without a phantom page). */
    pv_gicv.wait_policy = pv_wait_policy();
    shown_active = pv_gicv.wait_policy == PV_WAIT_ACTIVE;
    if (given)
        shown_spin_count = spin;
    else if (pv_gicv.wait_policy == PV_WAIT_ACTIVE || pv_gicv.wait_policy == PV_WAIT_PVSCHED)
        shown_spin_count = 30000000000ULL;
    else if (pv_gicv.wait_policy == PV_WAIT_PASSIVE)
        shown_spin_count = 0;
}

/* PVOMP_DEVICE_MEMORY (pvomp's own): "shared" (the default: device 0 uses
 * the host's memory, maps are bookkeeping) or "separate" (device 0 has its
 * own memory and maps copy; see docs/target.md). */
static void parse_device_memory(void)
{
    const char *value = getenv("PVOMP_DEVICE_MEMORY");
    if (!value)
        return;
    const char *p = skip_ws(value);
    bool separate = false;
    if (eat_word(&p, "shared"))
        separate = false;
    else if (eat_word(&p, "separate"))
        separate = true;
    else
        p = "?";
    if (only_ws_left(p))
        pv_gicv.device_separate = separate;
    else
        bad_value("PVOMP_DEVICE_MEMORY", value);
}

static void parse_target_offload(void)
{
    const char *value = getenv("OMP_TARGET_OFFLOAD");
    if (!value)
        return;
    const char *p = skip_ws(value);
    int v = 0;
    if (eat_word(&p, "default"))
        v = 0;
    else if (eat_word(&p, "mandatory"))
        v = 1;
    else if (eat_word(&p, "disabled"))
        v = 2;
    else
        p = "?";
    if (only_ws_left(p))
        pv_gicv.target_offload = v;
    else
        bad_value("OMP_TARGET_OFFLOAD", value);
}

static const char *const allocator_names[] = {
    NULL,
    "omp_default_mem_alloc",
    "omp_large_cap_mem_alloc",
    "omp_const_mem_alloc",
    "omp_high_bw_mem_alloc",
    "omp_low_lat_mem_alloc",
    "omp_cgroup_mem_alloc",
    "omp_pteam_mem_alloc",
    "omp_thread_mem_alloc",
};
#define N_ALLOCATOR_NAMES (sizeof allocator_names / sizeof allocator_names[0])

static void parse_allocator(void)
{
    const char *value = getenv("OMP_ALLOCATOR");
    if (!value)
        return;
    const char *p = skip_ws(value);
    for (unsigned i = 1; i < N_ALLOCATOR_NAMES; i++) {
        const char *q = p;
        if (eat_word(&q, allocator_names[i]) && only_ws_left(q)) {
            pv_gicv.default_allocator = i;
            pv_initial_icv.def_allocator_var = i;
            return;
        }
    }
    bad_value("OMP_ALLOCATOR", value);
}

static void parse_display_env(void)
{
    const char *value = getenv("OMP_DISPLAY_ENV");
    if (!value)
        return;
    const char *p = skip_ws(value);
    bool show = false, verbose = false;
    if (eat_word(&p, "true"))
        show = true;
    else if (eat_word(&p, "false"))
        show = false;
    else if (eat_word(&p, "verbose"))
        show = verbose = true;
    else
        p = "?";
    if (!only_ws_left(p)) {
        bad_value("OMP_DISPLAY_ENV", value);
        return;
    }
    pv_gicv.display_env = show;
    pv_gicv.display_env_verbose = verbose;
}

/* OMP_PLACES and GOMP_CPU_AFFINITY.  When OMP_PROC_BIND is false they are only
 * checked; a place list turns a missing OMP_PROC_BIND into true; a binding
 * policy without a place list gets one place per hardware thread. */
static void parse_places(bool bind_given)
{
    bool build = !(bind_given && pv_initial_icv.bind_var == PV_BIND_FALSE);
    const char *value = getenv("OMP_PLACES");
    bool have = false;
    if (value)
        have = pv_places_parse("OMP_PLACES", value, build) && build;
    value = getenv("GOMP_CPU_AFFINITY");
    if (value)
        have = (pv_places_parse_cpu_list("GOMP_CPU_AFFINITY", value, build && !have) &&
                build) || have;
    if (have && pv_initial_icv.bind_var == PV_BIND_FALSE)
        pv_initial_icv.bind_var = PV_BIND_TRUE;
    if (!have && pv_initial_icv.bind_var != PV_BIND_FALSE)
        pv_places_default();
}

void pv_env_init(void)
{
    unsigned long ul;
    int i;

    pv_cpu_mask_init();
    pv_initial_icv.nthreads_var = pv_num_procs;

    parse_schedule();
    env_bool("OMP_DYNAMIC", &pv_initial_icv.dyn_var);
    env_bool("OMP_CANCELLATION", &pv_gicv.cancel_var);
    env_bool("OMP_DISPLAY_AFFINITY", &pv_gicv.display_affinity);
    if (env_int("OMP_DEFAULT_DEVICE", &i, true))
        pv_initial_icv.default_device_var = i;
    parse_target_offload();
    parse_device_memory();
    if (env_int("OMP_MAX_TASK_PRIORITY", &i, true))
        pv_gicv.max_task_priority_var = i;
    parse_allocator();
    if (env_ulong("OMP_THREAD_LIMIT", &ul, false))
        pv_initial_icv.thread_limit_var = ul > INT_MAX ? UINT_MAX : (unsigned)ul;
    parse_nthreads();
    if (env_int("OMP_NUM_TEAMS", &i, false))
        pv_gicv.num_teams_var = (unsigned)i;
    if (env_int("OMP_TEAMS_THREAD_LIMIT", &i, false))
        pv_gicv.teams_thread_limit_var = (unsigned)i;
    bool bind_given = parse_proc_bind();
    parse_max_active_levels();
    parse_places(bind_given);

    const char *fmt = getenv("OMP_AFFINITY_FORMAT");
    if (fmt) {
        char *copy = strdup(fmt);
        if (!copy)
            pv_fatal("out of memory copying OMP_AFFINITY_FORMAT");
        pv_gicv.affinity_format = copy;
        pv_gicv.affinity_format_env = true;
    }

    parse_wait();
    parse_task_throttling();
    env_kmp_bool("PVOMP_TASK_CHECKS", &pv_gicv.task_checks);
    parse_hidden_helpers();
    parse_teams_proc_bind();
    parse_stack();
    parse_display_env();
    if (pv_gicv.display_env)
        pv_display_env(pv_gicv.display_env_verbose);
}

/* -------------------------------------------------------- display */

static void print_schedule(FILE *f)
{
    unsigned var = pv_initial_icv.run_sched_var;
    unsigned kind = var & ~PV_SCHED_MONOTONIC;
    long chunk = pv_initial_icv.run_sched_chunk;
    /* The modifier is shown only where it differs from the default one. */
    if (var & PV_SCHED_MONOTONIC) {
        if (kind != PV_SCHED_STATIC)
            fputs("MONOTONIC:", f);
    } else if (kind == PV_SCHED_STATIC) {
        fputs("NONMONOTONIC:", f);
    }
    switch (kind) {
    case PV_SCHED_STATIC:
        fputs("STATIC", f);
        if (chunk != 0)
            fprintf(f, ",%ld", chunk);
        break;
    case PV_SCHED_DYNAMIC:
    case PV_SCHED_GUIDED:
    case PV_SCHED_RUNTIME:
        fputs(kind == PV_SCHED_DYNAMIC ? "DYNAMIC" : kind == PV_SCHED_GUIDED ? "GUIDED" : "RUNTIME",
              f);
        if (chunk != 1)
            fprintf(f, ",%ld", chunk);
        break;
    case PV_SCHED_AUTO:
        fputs("AUTO", f);
        break;
    }
}

static const char *bind_name(unsigned b)
{
    switch (b) {
    case PV_BIND_FALSE: return "FALSE";
    case PV_BIND_TRUE: return "TRUE";
    case PV_BIND_MASTER: return "MASTER";
    case PV_BIND_CLOSE: return "CLOSE";
    case PV_BIND_SPREAD: return "SPREAD";
    default: return "?";
    }
}

void pv_display_env(bool verbose)
{
    FILE *f = stderr;
    flockfile(f);
    fputs("\nOPENMP DISPLAY ENVIRONMENT BEGIN\n", f);
    fputs("  _OPENMP = '201511'\n", f);
    fprintf(f, "  OMP_DYNAMIC = '%s'\n", pv_initial_icv.dyn_var ? "TRUE" : "FALSE");
    fprintf(f, "  OMP_NESTED = '%s'\n", pv_initial_icv.max_active_levels_var > 1 ? "TRUE" : "FALSE");

    fprintf(f, "  OMP_NUM_THREADS = '%u", pv_initial_icv.nthreads_var);
    for (unsigned i = 1; i < pv_gicv.nthreads_list_len; i++)
        fprintf(f, ",%u", pv_gicv.nthreads_list[i]);
    fputs("'\n", f);

    fputs("  OMP_SCHEDULE = '", f);
    print_schedule(f);
    fputs("'\n", f);

    fprintf(f, "  OMP_PROC_BIND = '%s", bind_name(pv_initial_icv.bind_var));
    for (unsigned i = 1; i < pv_gicv.bind_list_len; i++)
        fprintf(f, ",%s", bind_name(pv_gicv.bind_list[i]));
    fputs("'\n", f);

    fputs("  OMP_PLACES = '", f);
    pv_places_print(f);
    fputs("'\n", f);

    fprintf(f, "  OMP_STACKSIZE = '%zu'\n", pv_gicv.stacksize);
    /* Like libgomp: anything that is not "active" shows as PASSIVE. */
    fprintf(f, "  OMP_WAIT_POLICY = '%s'\n", shown_active ? "ACTIVE" : "PASSIVE");
    fprintf(f, "  OMP_THREAD_LIMIT = '%u'\n", pv_initial_icv.thread_limit_var);
    fprintf(f, "  OMP_MAX_ACTIVE_LEVELS = '%u'\n", pv_initial_icv.max_active_levels_var);
    fprintf(f, "  OMP_NUM_TEAMS = '%u'\n", pv_gicv.num_teams_var);
    fprintf(f, "  OMP_TEAMS_THREAD_LIMIT = '%u'\n", pv_gicv.teams_thread_limit_var);
    fprintf(f, "  OMP_CANCELLATION = '%s'\n", pv_gicv.cancel_var ? "TRUE" : "FALSE");
    fprintf(f, "  OMP_DEFAULT_DEVICE = '%d'\n", pv_initial_icv.default_device_var);
    fprintf(f, "  OMP_MAX_TASK_PRIORITY = '%d'\n", pv_gicv.max_task_priority_var);
    fprintf(f, "  OMP_DISPLAY_AFFINITY = '%s'\n", pv_gicv.display_affinity ? "TRUE" : "FALSE");
    fprintf(f, "  OMP_AFFINITY_FORMAT = '%s'\n", pv_gicv.affinity_format);
    fprintf(f, "  OMP_ALLOCATOR = '%s'\n",
            pv_gicv.default_allocator < N_ALLOCATOR_NAMES && pv_gicv.default_allocator
                ? allocator_names[pv_gicv.default_allocator]
                : "");
    fprintf(f, "  OMP_TARGET_OFFLOAD = '%s'\n",
            pv_gicv.target_offload == 1   ? "MANDATORY"
            : pv_gicv.target_offload == 2 ? "DISABLED"
                                          : "DEFAULT");
    if (verbose) {
        fprintf(f, "  PVOMP_DEVICE_MEMORY = '%s'\n", pv_gicv.device_separate ? "SEPARATE" : "SHARED");
        fputs("  GOMP_CPU_AFFINITY = ''\n", f);
        fprintf(f, "  GOMP_STACKSIZE = '%zu'\n", pv_gicv.stacksize);
        fprintf(f, "  GOMP_SPINCOUNT = '%llu'\n", shown_spin_count);
        /* pvomp's own: the wait policy really in force. */
        const char *w = pv_wait_policy_name(pv_gicv.wait_policy);
        fputs("  GOMP_WAIT_POLICY = '", f);
        for (; *w; w++)
            fputc(toupper((unsigned char)*w), f);
        fputs("'\n", f);
    }
    fputs("OPENMP DISPLAY ENVIRONMENT END\n", f);
    funlockfile(f);
}

PV_EXPORT void omp_display_env(int verbose)
{
    pv_runtime_init();
    pv_display_env(verbose != 0);
}
