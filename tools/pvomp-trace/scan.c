/* Opening a log: the top-level walk that learns descriptors and streams, and
 * decoding of one record's arguments. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "desc.h"
#include "diag.h"
#include "idmap.h"
#include "log.h"
#include "mem.h"
#include "win.h"


/* --------------------------------------------------------- descriptors */
/* Where a descriptor comes from: the layouts of the log's own records
 * (pvtrace_*) are the reader's, from pvomp's catalog compiled in
 * (gen/catalog.c), whatever a log declares; every other event's argument
 * list, format and enumerations are the log's own (pvtrace_event and
 * pvtrace_enum records), or, for a log without declarations, those of the
 * --events file.  The catalog also gives the kinds the analyses understand
 * (by name), and the enumerations of a pvomp log written before logs
 * carried them (builtin_enums). */

static void desc_from_catalog(struct tr_desc *d, const struct tr_cat_event *c)
{
    tr_desc_clear(d);
    d->args_text = tr_xstrdup(c->args);
    d->nargs = c->nargs;
    for (unsigned i = 0; i < c->nargs; i++) {
        d->argname[i] = tr_xstrdup(c->argname[i]);
        d->argtype[i] = tr_xstrdup(c->argtype[i]);
        d->is_str[i] = c->is_str[i];
    }
    d->declared = true;
}

static uint32_t desc_new(struct tr_log *log, const char *name)
{
    if (log->ndescs == log->descs_cap) {
        size_t cap = log->descs_cap ? 2 * log->descs_cap : 64;
        log->descs = tr_xrealloc(log->descs, cap, sizeof *log->descs);
        log->descs_cap = cap;
    }
    struct tr_desc *d = &log->descs[log->ndescs];
    memset(d, 0, sizeof *d);
    d->name = tr_xstrdup(name);
    d->fmt = tr_xstrdup("");
    int ci = tr_cat_find(name);
    if (ci >= 0) {
        d->kind = (enum tr_kind)(K_CAT + ci);
        if (ci < TR_NMETA)
            desc_from_catalog(d, &tr_cat_events[ci]);
        if (d->kind == K_META_ENUM)
            log->has_enum_decls = true;
    }
    if (!d->declared)
        for (size_t i = 0; i < log->nside; i++)
            if (!strcmp(log->side[i].name, name)) {
                tr_parse_args(d, log->side[i].args_text);
                free(d->fmt);
                d->fmt = tr_xstrdup(log->side[i].fmt);
            }
    return (uint32_t)log->ndescs++;
}

/* The analyses read a runtime event's arguments where the catalog has them
 * (TR_ARG_*): an event the log declares otherwise (another version) is
 * left to dump, under its name, and said once.  A log written before an
 * event gained a last `codeptr_ra` (critical_enter) declares it without:
 * the analyses that read it check the record's nargs. */
static void check_layouts(struct tr_log *log)
{
    for (size_t i = 0; i < log->ndescs; i++) {
        struct tr_desc *d = &log->descs[i];
        if (d->kind < K_CAT + TR_NMETA || !d->declared)
            continue;
        const struct tr_cat_event *c = &tr_cat_events[d->kind - K_CAT];
        bool same = d->nargs == c->nargs ||
                    (d->nargs + 1 == c->nargs && !strcmp(c->argname[d->nargs], "codeptr_ra"));
        for (unsigned a = 0; same && a < d->nargs; a++)
            same = d->is_str[a] == c->is_str[a] && !strcmp(d->argname[a], c->argname[a]);
        if (!same) {
            tr_note(&log->diag, "event '%s' is declared (%s), this reader knows it as (%s): "
                    "the analyses leave it out", d->name, d->args_text, c->args);
            d->kind = K_OTHER;
        }
    }
}

/* A pvomp log written before logs carried their enumerations: the
 * catalog's, for each event declared exactly as the catalog declares it. */
static void builtin_enums(struct tr_log *log)
{
    for (size_t i = 0; i < log->ndescs; i++) {
        struct tr_desc *d = &log->descs[i];
        if (d->kind < K_CAT || !d->declared)
            continue;
        const struct tr_cat_event *c = &tr_cat_events[d->kind - K_CAT];
        if (strcmp(d->args_text, c->args) != 0)
            continue;
        for (unsigned a = 0; a < d->nargs; a++)
            if (c->argenum[a])
                d->argenum[a] = &tr_cat_enums[c->argenum[a] - 1];
    }
}

/* Every id -> descriptor binding goes through here (keeps the direct table). */
static void bind_id(struct tr_log *log, uint64_t id, uint32_t ix)
{
    tr_idmap_put(&log->ids, id, ix);
    if (id < TR_DIRECT_IDS)
        log->direct[id] = ix + 1;
}

struct tr_desc *tr_log_desc(struct tr_log *log, uint64_t id)
{
    if (id < TR_DIRECT_IDS)
        return log->direct[id] ? &log->descs[log->direct[id] - 1] : NULL;
    uint32_t i = tr_idmap_get(&log->ids, id);
    return i == UINT32_MAX ? NULL : &log->descs[i];
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
    *dst = tr_xstrndup(r->s[i], r->slen[i]);
}

static void on_object(struct tr_log *log, const struct tr_rec *r)
{
    struct tr_object o = { r->u[TR_ARG_pvtrace_object_bias], r->u[TR_ARG_pvtrace_object_start],
                           r->u[TR_ARG_pvtrace_object_end], NULL, NULL };
    store_string(&o.path, r, TR_ARG_pvtrace_object_path);
    store_string(&o.build_id, r, TR_ARG_pvtrace_object_build_id);
    log->objects = tr_xrealloc(log->objects, log->nobjects + 1, sizeof *log->objects);
    log->objects[log->nobjects++] = o;
}

static void on_decl(struct tr_log *log, const struct tr_rec *r, uint64_t off)
{
    uint64_t id = r->u[TR_ARG_pvtrace_event_id];
    char *name = tr_xstrndup(r->s[TR_ARG_pvtrace_event_name], r->slen[TR_ARG_pvtrace_event_name]);
    char *args = tr_xstrndup(r->s[TR_ARG_pvtrace_event_args], r->slen[TR_ARG_pvtrace_event_args]);
    uint32_t ix = tr_idmap_get(&log->ids, id);
    if (ix == UINT32_MAX) {
        ix = desc_new(log, name);
        bind_id(log, id, ix);
        if (log->descs[ix].kind == K_META_CHUNK)
            log->chunk_id = id;
        if (log->descs[ix].kind == K_META_CUT)
            log->cut_id = id;
    }
    struct tr_desc *d = &log->descs[ix];
    if (strcmp(d->name, name) != 0) {
        tr_problem(&log->diag, off, "declaration of event id %llu says '%s' but its name "
                   "mapping says '%s'; using the declaration", (unsigned long long)id,
                   name, d->name);
        free(d->name);
        d->name = tr_xstrdup(name);
    }
    if (tr_kind_is_meta(d->kind)) {
        /* The reader's own knowledge of these layouts wins. */
    } else {
        const char *err = tr_parse_args(d, args);
        if (err)
            tr_problem(&log->diag, off, "declaration of '%s': %s", name, err);
        free(d->fmt);
        d->fmt = tr_xstrndup(r->s[TR_ARG_pvtrace_event_fmt], r->slen[TR_ARG_pvtrace_event_fmt]);
    }
    free(name);
    free(args);
}

/* pvtrace_enum: the names of an argument's values.  A declaration that
 * cannot be used is one problem; that argument then prints as numbers. */
static void on_enum(struct tr_log *log, const struct tr_rec *r, uint64_t off)
{
    uint64_t id = r->u[TR_ARG_pvtrace_enum_id], arg = r->u[TR_ARG_pvtrace_enum_arg];
    char *name = tr_xstrndup(r->s[TR_ARG_pvtrace_enum_name], r->slen[TR_ARG_pvtrace_enum_name]);
    char *values = tr_xstrndup(r->s[TR_ARG_pvtrace_enum_values],
                            r->slen[TR_ARG_pvtrace_enum_values]);
    struct tr_desc *d = tr_log_desc(log, id);
    struct tr_enum *e = NULL;
    const char *err;
    if (!d || !d->declared || tr_kind_is_meta(d->kind))
        err = "no declared event has that id";
    else if (arg >= d->nargs || d->is_str[arg])
        err = "the event has no integer argument of that number";
    else
        err = tr_parse_enum(name, values, &e);
    if (err) {
        tr_problem(&log->diag, off, "enumeration '%s' for argument %llu of event %llu%s%s%s: %s; "
                   "that argument prints as numbers", name, (unsigned long long)arg,
                   (unsigned long long)id, d ? " '" : "", d ? d->name : "", d ? "'" : "", err);
    } else {
        log->enums = tr_xrealloc(log->enums, log->nenums + 1, sizeof *log->enums);
        log->enums[log->nenums++] = e;
        d->argenum[arg] = e;
    }
    free(name);
    free(values);
}

static void on_chunk(struct tr_log *log, const struct tr_rec *r, uint64_t off, uint64_t payload)
{
    uint64_t sid = r->u[TR_ARG_pvtrace_chunk_stream], seq = r->u[TR_ARG_pvtrace_chunk_seq];
    uint32_t ix = tr_idmap_get(&log->stream_ix, sid);
    if (ix == UINT32_MAX) {
        if (log->nstreams == log->streams_cap) {
            size_t cap = log->streams_cap ? 2 * log->streams_cap : 16;
            log->streams = tr_xrealloc(log->streams, cap, sizeof *log->streams);
            log->streams_cap = cap;
        }
        ix = (uint32_t)log->nstreams++;
        struct tr_stream *s = &log->streams[ix];
        memset(s, 0, sizeof *s);
        s->id = sid;
        s->tid = r->tid;
        s->first_chunk = off;
        s->first_ts = r->ts;
        tr_idmap_put(&log->stream_ix, sid, ix);
    }
    struct tr_stream *s = &log->streams[ix];
    if (seq != s->next_seq)
        tr_problem(&log->diag, off, "thread %u (stream %llu): chunk %llu follows chunk %llu: "
                   "chunks are missing", s->tid, (unsigned long long)sid,
                   (unsigned long long)seq, (unsigned long long)s->next_seq - 1);
    s->next_seq = seq + 1;
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
            char *name = tr_xstrndup(p, n);
            uint32_t ix = tr_idmap_get(&log->ids, id);
            if (id == PVOMP_TRACE_DROPPED_ID) {
                tr_problem(&log->diag, off, "name mapping for the reserved dropped-events id");
            } else if (ix == UINT32_MAX) {
                ix = desc_new(log, name);
                bind_id(log, id, ix);
                if (tr_kind_is_meta(log->descs[ix].kind))
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
                log->pid = r.u[TR_ARG_pvtrace_process_pid];
                store_string(&log->exe, &r, TR_ARG_pvtrace_process_exe);
                store_string(&log->cmdline, &r, TR_ARG_pvtrace_process_cmdline);
                store_string(&log->runtime, &r, TR_ARG_pvtrace_process_runtime);
                break;
            case K_META_CLOCK:
                store_string(&log->clock_source, &r, TR_ARG_pvtrace_clock_source);
                log->clock_hz = r.u[TR_ARG_pvtrace_clock_ticks_per_sec];
                log->clock_mono = r.u[TR_ARG_pvtrace_clock_monotonic_ns];
                log->clock_real = r.u[TR_ARG_pvtrace_clock_realtime_ns];
                log->clock_ts = r.ts;
                break;
            case K_META_CHUNK: {
                uint64_t bytes = r.u[TR_ARG_pvtrace_chunk_bytes];
                if (bytes > TR_MAX_CHUNK) {
                    tr_problem(&log->diag, off, "chunk with an absurd length %llu",
                               (unsigned long long)bytes);
                    goto stop;
                }
                on_chunk(log, &r, off, bytes);
                if (next + bytes > log->size) {
                    uint64_t sid = r.u[TR_ARG_pvtrace_chunk_stream];
                    struct tr_stream *s = &log->streams[tr_idmap_get(&log->stream_ix, sid)];
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
                log->end_streams = r.u[TR_ARG_pvtrace_end_streams];
                log->end_chunks = r.u[TR_ARG_pvtrace_end_chunks];
                log->end_bytes = r.u[TR_ARG_pvtrace_end_bytes];
                break;
            case K_META_ENUM:
                on_enum(log, &r, off);
                break;
            case K_META_CUT:
                break;
            case K_META_OBJECT:
                on_object(log, &r);
                break;
            case K_META_SNAPSHOT:
                store_string(&log->snap_reason, &r, TR_ARG_pvtrace_snapshot_reason);
                log->snap_number = r.u[TR_ARG_pvtrace_snapshot_number];
                log->snap_over_events = r.u[TR_ARG_pvtrace_snapshot_overwritten_events];
                log->snap_over_chunks = r.u[TR_ARG_pvtrace_snapshot_overwritten_chunks];
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
        log->side = tr_xrealloc(log->side, log->nside + 1, sizeof *log->side);
        memset(&log->side[log->nside], 0, sizeof *log->side);
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
    check_layouts(log);
    if (log->is_pvomp && !log->has_enum_decls)
        builtin_enums(log);
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
    for (size_t i = 0; i < log->nenums; i++)
        tr_enum_free(log->enums[i]);
    free(log->enums);
    free(log->streams);
    tr_idmap_free(&log->ids);
    tr_idmap_free(&log->stream_ix);
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
