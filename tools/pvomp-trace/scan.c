/* Opening a log: the top-level walk that learns descriptors and streams, and
 * decoding of one record's arguments. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

/* ------------------------------------------------------------- windows */
void tr_win_init(struct tr_win *w, int fd, uint64_t fsize, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->fd = fd;
    w->fsize = fsize;
    w->cap = cap;
}

void tr_win_free(struct tr_win *w)
{
    free(w->buf);
    w->buf = NULL;
    w->alloc = w->len = 0;
}

const uint8_t *tr_win_fill(struct tr_win *w, uint64_t off, size_t n)
{
    if (off > w->fsize || n > w->fsize - off)
        return NULL;
    size_t want = n > w->cap ? n : w->cap;
    if (want > w->fsize - off)
        want = (size_t)(w->fsize - off);
    if (want > w->alloc) {
        uint8_t *b = realloc(w->buf, want);
        if (!b) {
            fprintf(stderr, "pvomp-trace: out of memory\n");
            exit(1);
        }
        w->buf = b;
        w->alloc = want;
    }
    size_t got = 0;
    while (got < want) {
        ssize_t r = pread(w->fd, w->buf + got, want - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    w->base = off;
    w->len = got;
    return got >= n ? w->buf : NULL;
}

/* ------------------------------------------------------------- id maps */
static void idmap_put(struct tr_idmap *m, uint64_t key, uint32_t val);

static size_t idmap_slot(const struct tr_idmap *m, uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    size_t i = (size_t)(h >> 17) & (m->cap - 1);
    while (m->vals[i] != UINT32_MAX && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void idmap_grow(struct tr_idmap *m)
{
    struct tr_idmap old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = malloc(m->cap * sizeof *m->vals);
    if (!m->keys || !m->vals) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    memset(m->vals, 0xff, m->cap * sizeof *m->vals);
    m->n = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.vals[i] != UINT32_MAX)
            idmap_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
}

static void idmap_put(struct tr_idmap *m, uint64_t key, uint32_t val)
{
    if ((m->n + 1) * 2 > m->cap)
        idmap_grow(m);
    size_t i = idmap_slot(m, key);
    if (m->vals[i] == UINT32_MAX)
        m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
}

static uint32_t idmap_get(const struct tr_idmap *m, uint64_t key)
{
    if (!m->cap)
        return UINT32_MAX;
    return m->vals[idmap_slot(m, key)];
}

/* --------------------------------------------------------- descriptors */
static const struct {
    const char *name;
    const char *args;
    enum tr_kind kind;
} builtin[] = {
    { "pvtrace_event", "uint64_t id, const char *name, const char *args, const char *fmt", K_META_EVENT },
    { "pvtrace_process", "uint64_t pid, const char *exe, const char *cmdline, const char *runtime", K_META_PROCESS },
    { "pvtrace_clock", "const char *source, uint64_t ticks_per_sec, uint64_t monotonic_ns, uint64_t realtime_ns", K_META_CLOCK },
    { "pvtrace_chunk", "uint64_t stream, uint64_t seq, uint64_t bytes", K_META_CHUNK },
    { "pvtrace_cut", "uint64_t arg, uint64_t len", K_META_CUT },
    { "pvtrace_end", "uint64_t streams, uint64_t chunks, uint64_t bytes, uint64_t monotonic_ns", K_META_END },
    { "pvtrace_object", "uint64_t bias, uint64_t start, uint64_t end, const char *path, const char *build_id", K_META_OBJECT },
    { "pvtrace_snapshot", "const char *reason, uint64_t number, uint64_t overwritten_events, uint64_t overwritten_chunks", K_META_SNAPSHOT },
};

static const struct {
    const char *name;
    enum tr_kind kind;
} known[] = {
    { "thread_begin", K_THREAD_BEGIN }, { "thread_end", K_THREAD_END },
    { "parallel_begin", K_PARALLEL_BEGIN }, { "parallel_end", K_PARALLEL_END },
    { "implicit_task_begin", K_ITASK_BEGIN }, { "implicit_task_end", K_ITASK_END },
    { "barrier_enter", K_BARRIER_ENTER }, { "barrier_leave", K_BARRIER_LEAVE },
    { "wait_begin", K_WAIT_BEGIN }, { "wait_block", K_WAIT_BLOCK },
    { "wait_wake", K_WAIT_WAKE }, { "wait_end", K_WAIT_END },
    { "critical_enter", K_CRIT_ENTER }, { "critical_acquired", K_CRIT_ACQ },
    { "critical_release", K_CRIT_REL }, { "critical_held", K_CRIT_HELD },
    { "lock_enter", K_LOCK_ENTER }, { "lock_acquired", K_LOCK_ACQ }, { "lock_release", K_LOCK_REL },
    { "lock_held", K_LOCK_HELD },
    { "task_begin", K_TASK_BEGIN }, { "task_end", K_TASK_END },
    { "target_begin", K_TARGET_BEGIN }, { "target_end", K_TARGET_END },
    { "phantom_change", K_PHANTOM },
};

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    return d;
}

static char *xstrndup(const uint8_t *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static uint32_t desc_new(struct tr_log *log, const char *name)
{
    if (log->ndescs == log->descs_cap) {
        size_t cap = log->descs_cap ? 2 * log->descs_cap : 64;
        struct tr_desc *d = realloc(log->descs, cap * sizeof *d);
        if (!d) {
            fprintf(stderr, "pvomp-trace: out of memory\n");
            exit(1);
        }
        log->descs = d;
        log->descs_cap = cap;
    }
    struct tr_desc *d = &log->descs[log->ndescs];
    memset(d, 0, sizeof *d);
    d->name = xstrdup(name);
    d->fmt = xstrdup("");
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (!strcmp(name, builtin[i].name)) {
            tr_parse_args(d, builtin[i].args);
            d->kind = builtin[i].kind;
        }
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(name, known[i].name))
            d->kind = known[i].kind;
    if (!d->declared)
        for (size_t i = 0; i < log->nside; i++)
            if (!strcmp(log->side[i].name, name)) {
                tr_parse_args(d, log->side[i].args_text);
                free(d->fmt);
                d->fmt = xstrdup(log->side[i].fmt);
            }
    return (uint32_t)log->ndescs++;
}

/* Every id -> descriptor binding goes through here (keeps the direct table). */
static void bind_id(struct tr_log *log, uint64_t id, uint32_t ix)
{
    idmap_put(&log->ids, id, ix);
    if (id < TR_DIRECT_IDS)
        log->direct[id] = ix + 1;
}

struct tr_desc *tr_log_desc(struct tr_log *log, uint64_t id)
{
    if (id < TR_DIRECT_IDS)
        return log->direct[id] ? &log->descs[log->direct[id] - 1] : NULL;
    uint32_t i = idmap_get(&log->ids, id);
    return i == UINT32_MAX ? NULL : &log->descs[i];
}

void tr_desc_finish(struct tr_desc *d)
{
    size_t n = strlen(d->name);
    d->namelen = (uint16_t)(n > UINT16_MAX ? UINT16_MAX : n);
    for (unsigned i = 0; i < d->nargs; i++) {
        n = strlen(d->argname[i]);
        d->argnamelen[i] = (uint8_t)(n > 255 ? 255 : n);
    }
}

/* ---------------------------------------------------------- decoding */
const char *tr_decode(struct tr_log *log, const uint8_t *rec, uint32_t length, struct tr_rec *out)
{
    out->id = rd64(rec + 8);
    out->ts = rd64(rec + 16);
    out->tid = rd32(rec + 28);
    out->d = tr_log_desc(log, out->id);
    out->nargs = 0;
    if (!out->d)
        return "unknown event id (no name mapping before it)";
    if (!out->d->declared)
        return "event has no declaration (pass the trace-events file with --events)";
    const uint8_t *p = rec + 32, *end = rec + 8 + length;
    for (unsigned i = 0; i < out->d->nargs; i++) {
        out->cut[i] = 0;
        if (out->d->is_str[i]) {
            if (end - p < 4)
                return "record too short for its arguments";
            uint32_t n = rd32(p);
            p += 4;
            if ((uint64_t)(end - p) < n)
                return "string argument runs past the end of its record";
            out->s[i] = p;
            out->slen[i] = n;
            out->u[i] = 0;
            p += n;
        } else {
            if (end - p < 8)
                return "record too short for its arguments";
            out->u[i] = rd64(p);
            out->s[i] = NULL;
            out->slen[i] = 0;
            p += 8;
        }
    }
    out->nargs = out->d->nargs;
    return NULL; /* bytes left over are padding (tolerated) */
}

/* ------------------------------------------------------------ the scan */
static void store_string(char **dst, const struct tr_rec *r, unsigned i)
{
    free(*dst);
    *dst = xstrndup(r->s[i], r->slen[i]);
}

static void on_object(struct tr_log *log, const struct tr_rec *r)
{
    struct tr_object o = { r->u[0], r->u[1], r->u[2], NULL, NULL };
    store_string(&o.path, r, 3);
    store_string(&o.build_id, r, 4);
    struct tr_object *n = realloc(log->objects, (log->nobjects + 1) * sizeof *n);
    if (!n) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    log->objects = n;
    log->objects[log->nobjects++] = o;
}

static void on_decl(struct tr_log *log, const struct tr_rec *r, uint64_t off)
{
    char *name = xstrndup(r->s[1], r->slen[1]);
    char *args = xstrndup(r->s[2], r->slen[2]);
    uint32_t ix = idmap_get(&log->ids, r->u[0]);
    if (ix == UINT32_MAX) {
        ix = desc_new(log, name);
        bind_id(log, r->u[0], ix);
        if (log->descs[ix].kind == K_META_CHUNK)
            log->chunk_id = r->u[0];
        if (log->descs[ix].kind == K_META_CUT)
            log->cut_id = r->u[0];
    }
    struct tr_desc *d = &log->descs[ix];
    if (strcmp(d->name, name) != 0) {
        tr_problem(&log->diag, off, "declaration of event id %llu says '%s' but its name "
                   "mapping says '%s'; using the declaration", (unsigned long long)r->u[0],
                   name, d->name);
        free(d->name);
        d->name = xstrdup(name);
    }
    if (d->kind >= K_META_EVENT && d->kind <= K_META_END) {
        /* The reader's own knowledge of these layouts wins. */
    } else {
        const char *err = tr_parse_args(d, args);
        if (err)
            tr_problem(&log->diag, off, "declaration of '%s': %s", name, err);
        free(d->fmt);
        d->fmt = xstrndup(r->s[3], r->slen[3]);
    }
    free(name);
    free(args);
}

static void on_chunk(struct tr_log *log, const struct tr_rec *r, uint64_t off, uint64_t payload)
{
    uint64_t sid = r->u[0];
    uint32_t ix = idmap_get(&log->stream_ix, sid);
    if (ix == UINT32_MAX) {
        if (log->nstreams == log->streams_cap) {
            size_t cap = log->streams_cap ? 2 * log->streams_cap : 16;
            struct tr_stream *s = realloc(log->streams, cap * sizeof *s);
            if (!s) {
                fprintf(stderr, "pvomp-trace: out of memory\n");
                exit(1);
            }
            log->streams = s;
            log->streams_cap = cap;
        }
        ix = (uint32_t)log->nstreams++;
        struct tr_stream *s = &log->streams[ix];
        memset(s, 0, sizeof *s);
        s->id = sid;
        s->tid = r->tid;
        s->first_chunk = off;
        s->first_ts = r->ts;
        idmap_put(&log->stream_ix, sid, ix);
    }
    struct tr_stream *s = &log->streams[ix];
    if (r->u[1] != s->next_seq)
        tr_problem(&log->diag, off, "thread %u (stream %llu): chunk %llu follows chunk %llu: "
                   "chunks are missing", s->tid, (unsigned long long)sid,
                   (unsigned long long)r->u[1], (unsigned long long)s->next_seq - 1);
    s->next_seq = r->u[1] + 1;
    s->last_chunk = off;
    s->nchunks++;
    s->bytes += payload;
    log->has_chunks = true;
}

/* Walk the top level from data_start; stop at the first thing that cannot be read. */
static void scan(struct tr_log *log)
{
    struct tr_win w;
    uint64_t off = log->data_start;
    tr_win_init(&w, log->fd, log->size, 1u << 16);
    while (off < log->size) {
        const uint8_t *p = tr_win_get(&w, off, 8);
        if (!p) {
            tr_problem(&log->diag, off, "the log ends inside a record type word");
            break;
        }
        uint64_t type = rd64(p);
        if (type == PVOMP_TRACE_REC_MAPPING) {
            p = tr_win_get(&w, off, 20);
            if (!p) {
                tr_problem(&log->diag, off, "the log ends inside a name mapping record");
                break;
            }
            uint32_t n = rd32(p + 16);
            if (n == 0 || n > TR_MAX_NAME) {
                tr_problem(&log->diag, off, "name mapping with an absurd name length %u", n);
                break;
            }
            uint64_t id = rd64(p + 8);
            p = tr_win_get(&w, off + 20, n);
            if (!p) {
                tr_problem(&log->diag, off, "the log ends inside a name mapping record");
                break;
            }
            char *name = xstrndup(p, n);
            uint32_t ix = idmap_get(&log->ids, id);
            if (id == PVOMP_TRACE_DROPPED_ID) {
                tr_problem(&log->diag, off, "name mapping for the reserved dropped-events id");
            } else if (ix == UINT32_MAX) {
                ix = desc_new(log, name);
                bind_id(log, id, ix);
                if (log->descs[ix].kind >= K_META_EVENT && log->descs[ix].kind <= K_META_END)
                    log->is_pvomp = true; /* written by pvomp: it ends with pvtrace_end */
                if (log->descs[ix].kind == K_META_CHUNK)
                    log->chunk_id = id;
                if (log->descs[ix].kind == K_META_CUT)
                    log->cut_id = id;
            } else if (strcmp(log->descs[ix].name, name) != 0) {
                tr_problem(&log->diag, off, "event id %llu renamed from '%s' to '%s'",
                           (unsigned long long)id, log->descs[ix].name, name);
            }
            free(name);
            off += 20 + n;
            continue;
        }
        if (type != PVOMP_TRACE_REC_EVENT) {
            tr_problem(&log->diag, off, "unknown record type %llu (corrupt data?)",
                       (unsigned long long)type);
            break;
        }
        p = tr_win_get(&w, off, PVOMP_TRACE_EVENT_HDR);
        if (!p) {
            tr_problem(&log->diag, off, "the log ends inside a record header");
            break;
        }
        uint32_t length = rd32(p + 24);
        if (length < 24 || length > TR_MAX_RECORD) {
            tr_problem(&log->diag, off, "record with an absurd length %u", length);
            break;
        }
        p = tr_win_get(&w, off, 8 + (size_t)length);
        if (!p) {
            tr_problem(&log->diag, off, "the log ends inside a record (%u bytes announced, "
                       "%llu left)", length + 8, (unsigned long long)(log->size - off));
            break;
        }
        struct tr_rec r;
        const char *err = tr_decode(log, p, length, &r);
        uint64_t next = off + 8 + length;
        if (err) {
            tr_problem(&log->diag, off, "event id %llu%s%s%s: %s", (unsigned long long)r.id,
                       r.d ? " '" : "", r.d ? r.d->name : "", r.d ? "'" : "", err);
            if (r.d && r.d->kind == K_META_CHUNK)
                break; /* a chunk we cannot read cannot be skipped either */
            log->top_events++; /* skipped by its length */
        } else {
            switch (r.d->kind) {
            case K_META_EVENT:
                on_decl(log, &r, off);
                break;
            case K_META_PROCESS:
                log->pid = r.u[0];
                store_string(&log->exe, &r, 1);
                store_string(&log->cmdline, &r, 2);
                store_string(&log->runtime, &r, 3);
                break;
            case K_META_CLOCK:
                store_string(&log->clock_source, &r, 0);
                log->clock_hz = r.u[1];
                log->clock_mono = r.u[2];
                log->clock_real = r.u[3];
                log->clock_ts = r.ts;
                break;
            case K_META_CHUNK: {
                uint64_t bytes = r.u[2];
                if (bytes > TR_MAX_CHUNK) {
                    tr_problem(&log->diag, off, "chunk with an absurd length %llu",
                               (unsigned long long)bytes);
                    goto stop;
                }
                on_chunk(log, &r, off, bytes);
                if (next + bytes > log->size) {
                    struct tr_stream *s = &log->streams[idmap_get(&log->stream_ix, r.u[0])];
                    s->truncated = true;
                    tr_problem(&log->diag, off, "thread %u: its last chunk is cut off by the "
                               "end of the log (%llu of %llu bytes present)", r.tid,
                               (unsigned long long)(log->size - next), (unsigned long long)bytes);
                    next = log->size;
                } else {
                    next += bytes;
                }
                break;
            }
            case K_META_END:
                log->has_end = true;
                log->end_streams = r.u[0];
                log->end_chunks = r.u[1];
                log->end_bytes = r.u[2];
                break;
            case K_META_CUT:
                break;
            case K_META_OBJECT:
                on_object(log, &r);
                break;
            case K_META_SNAPSHOT:
                store_string(&log->snap_reason, &r, 0);
                log->snap_number = r.u[1];
                log->snap_over_events = r.u[2];
                log->snap_over_chunks = r.u[3];
                break;
            default:
                log->top_events++;
            }
        }
        if (!log->first_ts || r.ts < log->first_ts)
            log->first_ts = r.ts;
        if (r.ts > log->last_ts)
            log->last_ts = r.ts;
        off = next;
    }
stop:
    log->valid_end = off < log->size ? off : log->size;
    tr_win_free(&w);
}

static int read_side_events(struct tr_log *log, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[8192];
    unsigned lineno = 0;
    if (!f) {
        fprintf(stderr, "pvomp-trace: %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#' || *s == '\n')
            continue;
        char *name, *args, *fmt;
        const char *err = tr_parse_event_line(s, &name, &args, &fmt);
        if (err) {
            fprintf(stderr, "pvomp-trace: %s:%u: %s\n", path, lineno, err);
            continue;
        }
        struct tr_desc *n = realloc(log->side, (log->nside + 1) * sizeof *n);
        if (!n) {
            fprintf(stderr, "pvomp-trace: out of memory\n");
            exit(1);
        }
        log->side = n;
        memset(&log->side[log->nside], 0, sizeof *n);
        log->side[log->nside].name = name;
        log->side[log->nside].fmt = fmt;
        err = tr_parse_args(&log->side[log->nside], args);
        free(args);
        if (err)
            fprintf(stderr, "pvomp-trace: %s:%u: %s\n", path, lineno, err);
        log->nside++;
    }
    fclose(f);
    return 0;
}

int tr_log_open_fd(struct tr_log *log, int fd, const char *name, const char *events_file,
                   FILE *diag)
{
    struct stat st;
    memset(log, 0, sizeof *log);
    log->chunk_id = log->cut_id = UINT64_MAX;
    log->path = name;
    log->fd = fd;
    log->diag = (struct tr_diag){ .limit = 20, .out = diag, .path = name };
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(diag, "pvomp-trace: %s: not a regular file (the reader needs to seek)\n", name);
        return -1;
    }
    log->size = (uint64_t)st.st_size;
    if (events_file && read_side_events(log, events_file) != 0)
        return -1;
    /* descs[0]: the dropped-events records (reserved id, never mapped). */
    bind_id(log, PVOMP_TRACE_DROPPED_ID, desc_new(log, "dropped"));
    tr_parse_args(&log->descs[0], "uint64_t count");
    log->descs[0].kind = K_DROPPED;

    uint8_t hdr[24];
    ssize_t n = pread(fd, hdr, sizeof hdr, 0);
    if (n != (ssize_t)sizeof hdr) {
        fprintf(diag, "pvomp-trace: %s: %s\n", name,
                n < 0 ? strerror(errno) : "too short for a log header (24 bytes)");
        return -1;
    }
    if (rd64(hdr) != PVOMP_TRACE_HEADER_ID || rd64(hdr + 8) != PVOMP_TRACE_MAGIC) {
        fprintf(diag, "pvomp-trace: %s: byte 0: not a simpletrace log (wrong header id or "
                      "magic)\n", name);
        return -1;
    }
    if (rd64(hdr + 16) != PVOMP_TRACE_VERSION) {
        fprintf(diag, "pvomp-trace: %s: byte 16: log version %llu; this reader reads "
                      "version 4\n", name, (unsigned long long)rd64(hdr + 16));
        return -1;
    }
    log->data_start = 24;
    scan(log);
    for (size_t i = 0; i < log->ndescs; i++)
        tr_desc_finish(&log->descs[i]);
    return 0;
}

int tr_log_open(struct tr_log *log, const char *path, const char *events_file, FILE *diag)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        memset(log, 0, sizeof *log);
        log->fd = -1;
        fprintf(diag, "pvomp-trace: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (tr_log_open_fd(log, fd, path, events_file, diag) != 0) {
        tr_log_close(log);
        return -1;
    }
    return 0;
}

void tr_log_close(struct tr_log *log)
{
    for (size_t i = 0; i < log->ndescs; i++) {
        tr_desc_clear(&log->descs[i]);
        free(log->descs[i].name);
        free(log->descs[i].fmt);
    }
    for (size_t i = 0; i < log->nside; i++) {
        tr_desc_clear(&log->side[i]);
        free(log->side[i].name);
        free(log->side[i].fmt);
    }
    free(log->side);
    free(log->descs);
    free(log->streams);
    free(log->ids.keys);
    free(log->ids.vals);
    free(log->stream_ix.keys);
    free(log->stream_ix.vals);
    for (size_t i = 0; i < log->nobjects; i++) {
        free(log->objects[i].path);
        free(log->objects[i].build_id);
    }
    free(log->objects);
    free(log->exe);
    free(log->cmdline);
    free(log->runtime);
    free(log->snap_reason);
    free(log->clock_source);
    if (log->fd >= 0)
        close(log->fd);
    log->fd = -1;
}

bool tr_log_report_end(struct tr_log *log)
{
    struct tr_diag *dg = &log->diag;
    if (dg->suppressed)
        tr_note(dg, "%u more problems not shown", dg->suppressed);
    if (log->valid_end < log->size) {
        tr_note(dg, "the log is readable up to byte %llu of %llu; everything before that "
                    "was used", (unsigned long long)log->valid_end, (unsigned long long)log->size);
        return false;
    }
    if (log->valid_end <= log->data_start) {
        tr_note(dg, "the log ends at byte %llu, right after its header: no records (cut "
                    "short?)", (unsigned long long)log->size);
        return false;
    }
    if (log->is_pvomp && !log->has_end) {
        tr_note(dg, "no end record: the process did not close the log (killed or crashed?); "
                    "the log ends at byte %llu after %zu thread(s)' data up to their last "
                    "hand-over", (unsigned long long)log->size, log->nstreams);
        return false;
    }
    return !dg->damaged;
}
