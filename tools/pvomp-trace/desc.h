/* Event descriptors (desc.c): what the reader knows of an event -- its
 * name, arguments, format, enumerations and kind -- from the log, an
 * --events file or pvomp's catalog (gen/catalog.c). */
#ifndef PVOMP_TRACE_DESC_H
#define PVOMP_TRACE_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog.h"
#include "pvomp/trace.h"

#define TR_MAX_ARGS PVOMP_TRACE_MAX_ARGS

/* The enumeration of an argument: the names of its values. */
struct tr_enum {
    const char *name;
    unsigned n;
    const char *const *names;
    const uint64_t *values;
};
/* The name of value v, or NULL when e (which may be NULL) has none for it. */
const char *tr_enum_name(const struct tr_enum *e, uint64_t v);
/* Parse a pvtrace_enum record's name and values ("name=number,...") into a
 * malloc'ed enumeration (*out; free with tr_enum_free).  Returns NULL or an
 * error message. */
const char *tr_parse_enum(const char *name, const char *values, struct tr_enum **out);
void tr_enum_free(struct tr_enum *e);

/* pvomp's catalog (src/trace/trace-events) as tracegen.py --reader makes it
 * into C (gen/catalog.c; gen/catalog.h has the TR_EV_ and TR_ARG_ indexes). */
struct tr_cat_event {
    const char *name, *args, *fmt;
    unsigned nargs;
    const char *argname[TR_MAX_ARGS];
    const char *argtype[TR_MAX_ARGS];
    bool is_str[TR_MAX_ARGS];
    unsigned argenum[TR_MAX_ARGS];  /* tr_cat_enums index + 1, 0: not enumerated */
};
extern const struct tr_cat_event tr_cat_events[TR_NEVENTS];
extern const struct tr_enum tr_cat_enums[TR_NENUMS];
/* The catalog's index of event `name`, or -1. */
int tr_cat_find(const char *name);

/* What the reader knows an event as: K_OTHER for an event it does not know
 * (a program's own, another version's), K_DROPPED, else K_CAT + its index in
 * pvomp's catalog.  The names below are the ones the analyses understand. */
enum tr_kind {
    K_OTHER = 0,
    K_DROPPED,
    K_CAT,
    /* the log's own records: the catalog's first TR_NMETA events */
    K_META_EVENT = K_CAT + TR_EV_pvtrace_event,
    K_META_PROCESS = K_CAT + TR_EV_pvtrace_process,
    K_META_CLOCK = K_CAT + TR_EV_pvtrace_clock,
    K_META_CHUNK = K_CAT + TR_EV_pvtrace_chunk,
    K_META_CUT = K_CAT + TR_EV_pvtrace_cut,
    K_META_END = K_CAT + TR_EV_pvtrace_end,
    K_META_OBJECT = K_CAT + TR_EV_pvtrace_object,
    K_META_SNAPSHOT = K_CAT + TR_EV_pvtrace_snapshot,
    K_META_ENUM = K_CAT + TR_EV_pvtrace_enum,
    /* runtime events the analyses understand */
    K_THREAD_BEGIN = K_CAT + TR_EV_thread_begin, K_THREAD_END = K_CAT + TR_EV_thread_end,
    K_PARALLEL_BEGIN = K_CAT + TR_EV_parallel_begin, K_PARALLEL_END = K_CAT + TR_EV_parallel_end,
    K_ITASK_BEGIN = K_CAT + TR_EV_implicit_task_begin,
    K_ITASK_END = K_CAT + TR_EV_implicit_task_end,
    K_BARRIER_ENTER = K_CAT + TR_EV_barrier_enter, K_BARRIER_LEAVE = K_CAT + TR_EV_barrier_leave,
    K_WAIT_BEGIN = K_CAT + TR_EV_wait_begin, K_WAIT_BLOCK = K_CAT + TR_EV_wait_block,
    K_WAIT_WAKE = K_CAT + TR_EV_wait_wake, K_WAIT_END = K_CAT + TR_EV_wait_end,
    /* in this order: enter, acquired, release, held (analyze.c; the catalog
     * keeps them so, src/trace/held.h) */
    K_CRIT_ENTER = K_CAT + TR_EV_critical_enter, K_CRIT_ACQ = K_CAT + TR_EV_critical_acquired,
    K_CRIT_REL = K_CAT + TR_EV_critical_release, K_CRIT_HELD = K_CAT + TR_EV_critical_held,
    K_LOCK_ENTER = K_CAT + TR_EV_lock_enter, K_LOCK_ACQ = K_CAT + TR_EV_lock_acquired,
    K_LOCK_REL = K_CAT + TR_EV_lock_release, K_LOCK_HELD = K_CAT + TR_EV_lock_held,
    K_TASK_CREATE = K_CAT + TR_EV_task_create,
    K_TASK_BEGIN = K_CAT + TR_EV_task_begin, K_TASK_END = K_CAT + TR_EV_task_end,
    K_TARGET_BEGIN = K_CAT + TR_EV_target_begin, K_TARGET_END = K_CAT + TR_EV_target_end,
    K_PHANTOM = K_CAT + TR_EV_phantom_change,
    K_SINGLE = K_CAT + TR_EV_single,
    K_LOOP_INIT = K_CAT + TR_EV_loop_init, K_LOOP_CHUNK = K_CAT + TR_EV_loop_chunk,
    K_CPUS = K_CAT + TR_EV_cpus,
    K_RUN_DELAY = K_CAT + TR_EV_run_delay,
};
_Static_assert(K_CRIT_HELD - K_CRIT_ENTER == 3 && K_LOCK_HELD - K_LOCK_ENTER == 3,
               "the catalog keeps critical_* and lock_* in order");
/* Byte offset, from the record's start, of argument `arg` of the log's own
 * record `ev` whose arguments before it are all integers (chunk, cut). */
#define TR_ARG_AT(ev, arg) (PVOMP_TRACE_EVENT_HDR + 8u * TR_ARG_##ev##_##arg)
/* One of the log's own records (pvtrace_*)? */
static inline bool tr_kind_is_meta(enum tr_kind k)
{
    return k >= K_CAT && k < K_CAT + TR_NMETA;
}

struct tr_desc {
    char *name;
    char *args_text;        /* as declared ("void" for none) */
    char *fmt;              /* as declared, may be "" */
    unsigned nargs;
    char *argname[TR_MAX_ARGS];
    char *argtype[TR_MAX_ARGS];
    bool is_str[TR_MAX_ARGS];
    const struct tr_enum *argenum[TR_MAX_ARGS]; /* the values' names, or NULL */
    bool declared;          /* argument list known */
    enum tr_kind kind;
    uint64_t count;         /* records seen (stats) */
    uint16_t namelen;       /* strlen(name), set by tr_desc_finish() */
    uint8_t argnamelen[TR_MAX_ARGS];
};
void tr_desc_finish(struct tr_desc *d);

/* Parse "type name, type name" (trace-events syntax) into d.  Returns NULL
 * or an error message. */
const char *tr_parse_args(struct tr_desc *d, const char *args);
/* Parse one trace-events line ("[disable] name(args) fmt"); *name etc. are
 * malloc'ed.  Returns NULL, or an error message. */
const char *tr_parse_event_line(const char *line, char **name, char **args, char **fmt);
void tr_desc_clear(struct tr_desc *d);

/* Built-in catalog as a trace-events file (gen/catalog.c). */
extern const char tr_builtin_catalog[];

#endif
