/* pvomp-trace: reader of pvomp (and QEMU simpletrace v4) logs.
 *
 * A log is read in two passes over the file, never loaded whole:
 *   scan   (scan.c)  walks the top-level records once: header, name
 *                    mappings, declarations, process and clock records, and
 *                    the pvtrace_chunk records that frame each thread's data
 *                    (their payload is skipped).  It learns the event
 *                    descriptors and the list of streams (one per thread).
 *   merge  (merge.c) reads every stream with its own cursor and a small
 *                    window of the file, and returns records in time order
 *                    with a heap: memory is O(streams) for the stream table
 *                    plus one window per stream that is active at that time.
 * Errors carry the byte offset; whatever was read before an error is kept. */
#ifndef PVOMP_TRACE_READER_H
#define PVOMP_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "catalog.h"
#include "pvomp/trace.h"

/* Little-endian fields at any alignment (the log is written on x86-64). */
static inline uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    __builtin_memcpy(&v, p, 8);
    return v;
}

static inline uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}

struct tr_out;

#define TR_MAX_ARGS PVOMP_TRACE_MAX_ARGS
#define TR_MAX_RECORD (1u << 20)       /* a longer record is corrupt */
#define TR_MAX_NAME 4096u
#define TR_MAX_CHUNK (1ull << 32)      /* a longer chunk is corrupt */

/* ------------------------------------------------------------- windows */
/* A window onto the file: pread()s what is asked for, keeps it. */
struct tr_win {
    int fd;
    uint64_t fsize;
    uint8_t *buf;
    size_t cap;       /* bytes read at a time */
    size_t alloc;
    uint64_t base;    /* file offset of buf[0] */
    size_t len;
};
void tr_win_init(struct tr_win *w, int fd, uint64_t fsize, size_t cap);
void tr_win_free(struct tr_win *w);
/* n bytes at off, or NULL when the file ends before off + n. */
const uint8_t *tr_win_fill(struct tr_win *w, uint64_t off, size_t n);
static inline const uint8_t *tr_win_get(struct tr_win *w, uint64_t off, size_t n)
{
    if (off >= w->base && off - w->base + n <= w->len)
        return w->buf + (off - w->base);
    return tr_win_fill(w, off, n);
}

/* ------------------------------------------------------ event descriptors */
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

/* ------------------------------------------------------------- problems */
struct tr_diag {
    unsigned n;             /* messages printed */
    unsigned limit;         /* print at most this many, count the rest */
    unsigned suppressed;
    bool damaged;           /* some input could not be read */
    FILE *out;
    const char *path;
};
__attribute__((format(printf, 3, 4)))
void tr_problem(struct tr_diag *dg, uint64_t off, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void tr_note(struct tr_diag *dg, const char *fmt, ...);

/* --------------------------------------------------------------- a log */
struct tr_stream {
    uint64_t id;            /* stream number from pvtrace_chunk (0: top level) */
    uint32_t tid;
    uint64_t first_chunk;   /* offset of its first pvtrace_chunk record */
    uint64_t last_chunk;
    uint64_t first_ts;      /* from the first chunk header */
    uint64_t nchunks;
    uint64_t next_seq;
    uint64_t bytes;
    bool truncated;         /* its last chunk runs past the end of the file */
    /* filled in by analyses */
    uint64_t records, dropped, last_ts;
};

struct tr_idmap {           /* open addressing: event id -> descriptor index */
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, n;
};
#define TR_DIRECT_IDS 1024     /* small ids looked up directly */
void tr_idmap_put(struct tr_idmap *m, uint64_t key, uint32_t val); /* val != UINT32_MAX */
uint32_t tr_idmap_get(const struct tr_idmap *m, uint64_t key);     /* UINT32_MAX: absent */
uint32_t tr_idmap_take(struct tr_idmap *m, uint64_t key);          /* get, and remove */
void tr_idmap_free(struct tr_idmap *m);

/* Allocation that exits with one message when there is no memory
 * (mem.c); tr_xcalloc's memory is zeroed. */
void *tr_xcalloc(size_t n, size_t size);
void *tr_xrealloc(void *p, size_t n, size_t size);
/* A copy of n bytes at s with a 0 after them; of the string s ("" for NULL). */
char *tr_xstrndup(const void *s, size_t n);
char *tr_xstrdup(const char *s);

struct tr_object {          /* one pvtrace_object record */
    uint64_t bias, start, end;  /* ELF address + bias = address; [start, end) mapped */
    char *path, *build_id;      /* build_id: hex, "" when the object has none */
};

struct tr_log {
    const char *path;
    int fd;
    uint64_t size;
    struct tr_diag diag;

    struct tr_desc *descs;   /* descs[0] is the dropped-events pseudo event */
    size_t ndescs, descs_cap;
    struct tr_idmap ids;
    uint32_t direct[TR_DIRECT_IDS]; /* id -> descriptor index + 1 (0: unknown) */
    struct tr_desc *side;    /* from an --events file, by name */
    size_t nside;

    struct tr_stream *streams;
    size_t nstreams, streams_cap;
    struct tr_idmap stream_ix; /* stream id -> index */

    uint64_t chunk_id, cut_id;  /* ids of pvtrace_chunk / pvtrace_cut (UINT64_MAX: none) */
    uint64_t data_start;     /* first record after the header */
    uint64_t valid_end;      /* where the top-level walk stopped */
    uint64_t top_events;     /* top-level event records that are not meta */
    bool has_chunks;
    bool is_pvomp;           /* has the pvtrace_* records: must end with pvtrace_end */
    bool has_enum_decls;     /* names pvtrace_enum: its enumerations are its own */
    struct tr_enum **enums;  /* from its pvtrace_enum records */
    size_t nenums;
    bool has_end;
    uint64_t end_streams, end_chunks, end_bytes;
    /* a ring-mode snapshot (pvtrace_snapshot): why, which, what was overwritten */
    char *snap_reason;
    uint64_t snap_number, snap_over_events, snap_over_chunks;

    /* process and clock (pvtrace_process / pvtrace_clock) */
    uint64_t pid;
    char *exe, *cmdline, *runtime, *clock_source;
    uint64_t clock_hz, clock_mono, clock_real, clock_ts;
    uint64_t first_ts, last_ts;  /* over records seen by the scan */
    /* the time base of several logs (set by the caller: --time-base,
     * --clock-offset): CLOCK_REALTIME instead of CLOCK_MONOTONIC, and a
     * shift in ns added to this log's times */
    bool realtime_base;
    int64_t shift_ns;

    /* the loaded objects (pvtrace_object), in log order */
    struct tr_object *objects;
    size_t nobjects;
    struct tr_names *names;  /* set by the caller (tr_names_open), or NULL */
};

/* ------------------------------------------------- naming code (names.c) */
struct tr_names;
/* debuginfo_dir: NULL, or a directory with .build-id/xx/yyyy.debug files. */
struct tr_names *tr_names_open(const struct tr_log *log, const char *debuginfo_dir);
void tr_names_close(struct tr_names *nm);
/* "main:42 (demo.c)", "main._omp_fn.0", "demo+0x11f1 [why]" or "0x..." (see
 * names.c); owned by nm; NULL when nm is NULL. */
const char *tr_names_get(struct tr_names *nm, uint64_t addr);
/* The name of addr, or addr in hex (written to hex) without names. */
const char *tr_code_name(struct tr_log *log, uint64_t addr, char hex[24]);
/* The name of argument i of d, value v, when it is a code address (fn,
 * codeptr*; one ending in _ra is a return address, named by the call
 * before it); NULL otherwise, for 0, and when nm is NULL. */
const char *tr_code_arg_name(struct tr_names *nm, const struct tr_desc *d, unsigned i, uint64_t v);

/* Open and scan.  Returns 0, or -1 when the file is not a readable log
 * (message printed).  events_file: optional trace-events file for logs
 * without declarations (QEMU's). */
int tr_log_open(struct tr_log *log, const char *path, const char *events_file, FILE *diag);
/* Same for a log already open as fd (the fuzz target uses a memfd). */
int tr_log_open_fd(struct tr_log *log, int fd, const char *name, const char *events_file,
                   FILE *diag);
void tr_log_close(struct tr_log *log);
struct tr_desc *tr_log_desc(struct tr_log *log, uint64_t id); /* NULL when unknown */
/* Print the "where the log ends" summary; returns true if the log is complete. */
bool tr_log_report_end(struct tr_log *log);

/* ------------------------------------------------------------- records */
struct tr_rec {
    struct tr_desc *d;      /* never NULL (descs[0] for dropped records) */
    uint64_t id, ts, off;
    uint32_t tid;
    uint32_t stream;        /* index into log->streams, or UINT32_MAX (top level) */
    unsigned nargs;
    uint64_t u[TR_MAX_ARGS];
    const uint8_t *s[TR_MAX_ARGS];
    uint32_t slen[TR_MAX_ARGS];
    uint64_t cut[TR_MAX_ARGS]; /* original length of a cut string, or 0 */
};

/* Decode the arguments of the record whose header is at hdr (length bytes
 * from the id on).  Returns NULL or an error message. */
const char *tr_decode(struct tr_log *log, const uint8_t *rec, uint32_t length, struct tr_rec *out);

/* Records in time order (merge.c). */
struct tr_merge;
struct tr_merge *tr_merge_new(struct tr_log *log, bool with_meta);
/* Next record, or NULL at the end.  The record stays valid until the next call. */
const struct tr_rec *tr_merge_next(struct tr_merge *m);
void tr_merge_free(struct tr_merge *m);

/* Records in file order (walk.c), every event record including the log's own. */
struct tr_walk;
struct tr_walk *tr_walk_new(struct tr_log *log);
const struct tr_rec *tr_walk_next(struct tr_walk *w);
void tr_walk_free(struct tr_walk *w);

/* ------------------------------------------------------------ analysis */
/* Intervals that the runtime events describe, per thread (analyze.c). */
enum tr_iv {
    IV_REGION,      /* primary thread: parallel_begin .. parallel_end */
    IV_PARALLEL,    /* every member: implicit_task_begin .. _end */
    IV_BARRIER,
    IV_SPIN,        /* wait_begin/wake .. wait_block/end */
    IV_BLOCK,       /* wait_block .. wait_wake/end */
    IV_CRIT_WAIT, IV_CRIT,
    IV_LOCK_WAIT, IV_LOCK,
    IV_TASK, IV_TARGET,
    IV_PHANTOM,     /* process-wide: phantoms > 0 */
    IV__COUNT
};
extern const char *const tr_iv_name[IV__COUNT];

struct tr_thr {
    uint32_t tid;
    uint64_t first_ts, last_ts;
    uint64_t records, dropped;
    uint64_t t[IV__COUNT];              /* time in each kind of interval */
    uint64_t n[IV__COUNT];
    /* open intervals */
    uint64_t region_start[8];
    unsigned region_depth;
    uint64_t itask_start, itask_barrier;
    void *itask_team;
    unsigned itask_num;
    uint64_t barrier_start;
    uint64_t spin_start, block_start;
    struct tr_sect {                    /* critical sections, locks */
        uint64_t wait_start, start;     /* _enter; the outermost acquisition */
        unsigned depth;                 /* sections of the kind held */
    } crit, lock;
    uint64_t task_start[16], target_start[16];
    uint32_t task_site[16];             /* the running tasks' sites (tr_analysis.sites) */
    unsigned task_depth, target_depth;
};

struct tr_region_fn {                   /* parallel regions, by outlined function */
    uint64_t fn;
    uint64_t instances, wall, work;
    double imb_sum, imb_max;
    unsigned max_threads;
};

/* Explicit tasks, by where they were created: task_create's fn (the body)
 * and codeptr_ra (the program's call that created it; 0 when not known).
 * sites[0] stands for tasks whose task_create is not in the log. */
struct tr_task_site {
    uint64_t fn, ra;
    uint64_t instances, total, max;     /* task_begin .. task_end, ns */
    uint64_t *ran;                      /* bit per thread (tr_analysis.thr) that ran one */
};
/* A task site's name: the construct's function:line (file) (codeptr_ra),
 * else the body's name (tr_code_name of fn), else codeptr_ra's; for sites[0]
 * "(created before the log)".  Owned by log->names or written to hex. */
const char *tr_task_name(struct tr_log *log, const struct tr_task_site *s, char hex[24]);

typedef void (*tr_iv_fn)(void *ctx, uint32_t thr, enum tr_iv kind, uint64_t start, uint64_t end);

struct tr_analysis {
    struct tr_log *log;
    size_t nthr;                        /* streams + 1: the last is the top level */
    struct tr_thr *thr;
    uint64_t t0, t1;                    /* first and last timestamp */
    uint64_t records, dropped;
    struct tr_region_fn *fns;
    size_t nfns, fns_cap;
    struct tr_active_region *active;
    size_t nactive, active_cap;
    unsigned phantoms;
    uint64_t phantom_start, phantom_max;
    tr_iv_fn on_interval;               /* optional */
    void *ctx;
    uint64_t iv_fn;                     /* during on_interval: the region's outlined
                                           function (IV_REGION, IV_PARALLEL), or 0 */
    struct tr_task_site *sites;         /* [0]: tasks created before the log */
    size_t nsites, sites_cap;
    struct tr_idmap pending;            /* created, not yet begun: task -> site */
    uint32_t iv_site;                   /* during on_interval of IV_TASK: its site */
};
void tr_analysis_init(struct tr_analysis *a, struct tr_log *log);
void tr_analysis_add(struct tr_analysis *a, const struct tr_rec *r);
void tr_analysis_finish(struct tr_analysis *a);    /* closes open intervals */
void tr_analysis_free(struct tr_analysis *a);
/* Run a whole log through an analysis (time order). */
void tr_analysis_run(struct tr_analysis *a);
/* Tasks (tasks.c): task_create maps its task to a site; task_begin takes
 * the task's site (0: created before the log); a finished run counts. */
void tr_task_created(struct tr_analysis *a, const struct tr_rec *r);
uint32_t tr_task_begun(struct tr_analysis *a, uint64_t task);
void tr_task_ran(struct tr_analysis *a, uint32_t site, uint32_t thr, uint64_t ns);
unsigned tr_task_threads(const struct tr_analysis *a, const struct tr_task_site *s);
void tr_tasks_free(struct tr_analysis *a);
void tr_stats_text(struct tr_analysis *a, struct tr_out *o);
void tr_stats_html(struct tr_analysis *a, struct tr_out *o);

/* ------------------------------------------------------------ commands */
struct tr_opts {
    const char *events_file;
    const char *output;
    bool simpletrace;       /* dump: exactly like QEMU's simpletrace.py */
    bool file_order;        /* dump: file order instead of time order */
    bool all;               /* dump: include the log's own records */
    bool absolute;          /* dump: time since the start instead of deltas */
    bool html, json;        /* timeline */
    unsigned width;         /* timeline html: pixels */
    unsigned top;           /* advise: at most this many findings (0: 10) */
    const char *debuginfo;  /* --debuginfo DIR: separate debug files by build-id */
    bool realtime_base;     /* --time-base realtime */
    size_t noffsets;        /* --clock-offset LOG=NS */
    struct tr_clock_offset {
        const char *log;
        int64_t ns;
        bool used;
    } offsets[64];
};
int tr_cmd_dump(struct tr_log *log, const struct tr_opts *o, FILE *out);
/* stats and timeline --json take several logs (MPI ranks, processes of one
 * host): one summary, one timeline on the monotonic clock. */
int tr_cmd_stats(struct tr_log **logs, size_t n, const struct tr_opts *o, FILE *out);
int tr_cmd_timeline(struct tr_log **logs, size_t n, const struct tr_opts *o, FILE *out);
/* timeline --html (html.c): the interactive report of one log or several
 * (one time base: each log's CLOCK_MONOTONIC). */
int tr_html_report(struct tr_log **logs, size_t n, const struct tr_opts *o, struct tr_out *out);
/* The common time base minus the log's clock, ns: CLOCK_MONOTONIC (or
 * CLOCK_REALTIME with log->realtime_base) as the log's pvtrace_clock record
 * pairs it with the log's clock, plus log->shift_ns (0 + shift: the log has
 * no clock record). */
int64_t tr_log_time_offset(const struct tr_log *log);
/* A log's lane name among several: its file name (PVOMP_TRACE=run.%r.pvtrace
 * names it by rank). */
const char *tr_log_lane(const struct tr_log *log);
/* advise (advise_out.c): findings ranked by estimated gain, text or --json. */
int tr_cmd_advise(struct tr_log **logs, size_t n, const struct tr_opts *o, FILE *out);
int tr_cmd_events(struct tr_log *log, FILE *out);      /* log may be NULL: built-in catalog */
int tr_cmd_snapshot(int argc, char **argv, FILE *out);  /* snapshot.c: argv = PID */

/* ------------------------------------------------------------ output */
struct tr_out {
    FILE *f;
    char *buf;
    size_t len, cap;
};
extern size_t tr_out_bufsize;        /* buffer of each output (default 1 MiB) */
void tr_out_init(struct tr_out *o, FILE *f);
void tr_out_flush(struct tr_out *o);
static inline void tr_out_reserve(struct tr_out *o, size_t n)
{
    if (o->len + n > o->cap)
        tr_out_flush(o);
}
void tr_out_big(struct tr_out *o, const void *p, size_t n);
static inline void tr_out_bytes(struct tr_out *o, const void *p, size_t n)
{
    if (n > 256) {
        tr_out_big(o, p, n);
        return;
    }
    tr_out_reserve(o, n);
    __builtin_memcpy(o->buf + o->len, p, n);
    o->len += n;
}
void tr_out_str(struct tr_out *o, const char *s);
static inline void tr_out_char(struct tr_out *o, char c)
{
    tr_out_reserve(o, 1);
    o->buf[o->len++] = c;
}
static inline void tr_out_u64(struct tr_out *o, uint64_t v)
{
    char tmp[20];
    int n = 0;
    tr_out_reserve(o, 20);
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        o->buf[o->len++] = tmp[--n];
}
static inline void tr_out_hex(struct tr_out *o, uint64_t v)   /* 0x... */
{
    int digits = v ? (67 - __builtin_clzll(v)) / 4 : 1;
    tr_out_reserve(o, 18);
    char *p = o->buf + o->len;
    p[0] = '0';
    p[1] = 'x';
    for (int i = digits + 1; i >= 2; i--, v >>= 4)
        p[i] = "0123456789abcdef"[v & 15];
    o->len += (size_t)digits + 2;
}
void tr_out_us3(struct tr_out *o, int64_t ns);
/* Integer argument i of an event of d: the name of its value when the
 * argument is enumerated ("join"), else hex; a value the enumeration does not
 * name is "0x9 [not a barrier_kind]". */
void tr_out_int_arg(struct tr_out *o, const struct tr_desc *d, unsigned i, uint64_t v);          /* ns as microseconds, 3 decimals */
__attribute__((format(printf, 2, 3))) void tr_out_fmt(struct tr_out *o, const char *fmt, ...);
/* Escapes for the different outputs. */
void tr_out_cstr(struct tr_out *o, const uint8_t *s, size_t n);     /* "..." C-style */
void tr_out_pybytes(struct tr_out *o, const uint8_t *s, size_t n);  /* b'...' like Python */
void tr_out_json_str(struct tr_out *o, const uint8_t *s, size_t n);
void tr_out_html(struct tr_out *o, const uint8_t *s, size_t n);

/* Built-in catalog as a trace-events file (gen/catalog.c). */
extern const char tr_builtin_catalog[];

#endif
