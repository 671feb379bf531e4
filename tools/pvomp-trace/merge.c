/* Time-ordered reading: one cursor per thread stream (plus one for records
 * outside any chunk) and a binary heap keyed by (timestamp, cursor).
 *
 * A cursor reads its stream's chunks through its own small window of the
 * file; to find its next chunk it steps over the other streams' chunks by
 * their headers (a few dozen bytes each).  A cursor gets its window when its
 * stream first comes up in the merge and frees it when the stream ends, so
 * memory stays proportional to the streams active at one time. */
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "diag.h"
#include "log.h"
#include "mem.h"
#include "records.h"
#include "win.h"


#define REC_WINDOW (64u << 10)
#define HDR_WINDOW 256u
#define CHUNK_HDR (PVOMP_TRACE_EVENT_HDR + 24u)

struct cursor {
    uint32_t stream;          /* index in log->streams; nstreams for the top level */
    bool loaded, done, reported;
    uint64_t chunk_off;       /* current chunk header (stream cursors) */
    uint64_t pos, end;        /* next record, end of the current chunk / top level */
    struct tr_win win, hwin;
    struct tr_rec rec;
    uint8_t *scratch;         /* copies of the current record's strings */
    size_t scratch_cap;
};

struct heap_ent {
    uint64_t ts;
    uint32_t cur;
};

struct tr_merge {
    struct tr_log *log;
    bool with_meta;
    struct cursor *cur;
    size_t ncur;
    struct heap_ent *heap;
    size_t nheap;
    struct cursor *last;      /* returned last; advanced on the next call */
};

static inline bool ent_less(struct heap_ent a, struct heap_ent b)
{
    return a.ts < b.ts || (a.ts == b.ts && a.cur < b.cur);
}

static void heap_push(struct tr_merge *m, struct heap_ent e)
{
    size_t i = m->nheap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ent_less(e, m->heap[p]))
            break;
        m->heap[i] = m->heap[p];
        i = p;
    }
    m->heap[i] = e;
}

static struct heap_ent heap_pop(struct tr_merge *m)
{
    struct heap_ent top = m->heap[0], e = m->heap[--m->nheap];
    size_t i = 0, n = m->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ent_less(m->heap[c + 1], m->heap[c]))
            c++;
        if (!ent_less(m->heap[c], e))
            break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    if (n)
        m->heap[i] = e;
    return top;
}

static const char *who(struct tr_merge *m, struct cursor *c, char *buf, size_t n)
{
    if (c->stream >= m->log->nstreams)
        snprintf(buf, n, "top level");
    else
        snprintf(buf, n, "thread %u", m->log->streams[c->stream].tid);
    return buf;
}

static void finish(struct cursor *c)
{
    c->done = true;
    tr_win_free(&c->win);
    tr_win_free(&c->hwin);
    free(c->scratch);
    c->scratch = NULL;
    c->scratch_cap = 0;
}

/* Enter the chunk whose header is at off: sets pos/end. */
static bool enter_chunk(struct tr_merge *m, struct cursor *c, uint64_t off)
{
    const uint8_t *h = tr_win_get(&c->hwin, off, CHUNK_HDR);
    if (!h)
        return false;
    uint64_t bytes = rd64(h + 48);
    c->chunk_off = off;
    c->pos = off + 8 + rd32(h + 24);
    c->end = c->pos + bytes;
    if (c->end > m->log->size || c->end < c->pos)
        c->end = m->log->size;
    return true;
}

/* Size of the top-level item at off (a chunk counts with its payload), and
 * whether it is a chunk of stream `sid`.  0 when unreadable. */
static uint64_t top_item(struct tr_merge *m, struct tr_win *w, uint64_t off, uint64_t sid,
                         bool *mine)
{
    const uint8_t *p = tr_win_get(w, off, 20);
    *mine = false;
    if (!p)
        return 0;
    uint64_t type = rd64(p);
    if (type == PVOMP_TRACE_REC_MAPPING)
        return 20 + (uint64_t)rd32(p + 16);
    if (type != PVOMP_TRACE_REC_EVENT)
        return 0;
    p = tr_win_get(w, off, PVOMP_TRACE_EVENT_HDR);
    if (!p)
        return 0;
    uint64_t len = 8 + (uint64_t)rd32(p + 24);
    if (len < PVOMP_TRACE_EVENT_HDR)
        return 0;
    if (rd64(p + 8) != m->log->chunk_id || len < CHUNK_HDR)
        return len;
    p = tr_win_get(w, off, CHUNK_HDR);
    if (!p)
        return 0;
    *mine = rd64(p + TR_ARG_AT(pvtrace_chunk, stream)) == sid;
    return len + rd64(p + TR_ARG_AT(pvtrace_chunk, bytes));
}

static bool next_chunk(struct tr_merge *m, struct cursor *c)
{
    struct tr_stream *s = &m->log->streams[c->stream];
    bool mine;
    uint64_t off = c->chunk_off;
    uint64_t n = top_item(m, &c->hwin, off, s->id, &mine);
    if (!n)
        return false;
    off += n;
    while (off <= s->last_chunk && off < m->log->valid_end) {
        n = top_item(m, &c->hwin, off, s->id, &mine);
        if (!n)
            return false;
        if (mine)
            return enter_chunk(m, c, off);
        off += n;
    }
    return false;
}

static void copy_strings(struct cursor *c)
{
    size_t need = 0;
    for (unsigned i = 0; i < c->rec.nargs; i++)
        need += c->rec.slen[i];
    if (!need)
        return;
    if (need > c->scratch_cap) {
        c->scratch = tr_xrealloc(c->scratch, need, 1);
        c->scratch_cap = need;
    }
    uint8_t *p = c->scratch;
    for (unsigned i = 0; i < c->rec.nargs; i++)
        if (c->rec.s[i]) {
            memcpy(p, c->rec.s[i], c->rec.slen[i]);
            c->rec.s[i] = p;
            p += c->rec.slen[i];
        }
}

/* pvtrace_cut records right after the record: mark its cut strings. */
static void take_cuts(struct tr_merge *m, struct cursor *c)
{
    while (c->pos + PVOMP_TRACE_CUT_REC <= c->end) {
        const uint8_t *p = tr_win_get(&c->win, c->pos, PVOMP_TRACE_CUT_REC);
        if (!p || rd64(p) != PVOMP_TRACE_REC_EVENT || rd64(p + 8) != m->log->cut_id ||
            rd32(p + 24) != PVOMP_TRACE_CUT_REC - 8)
            return;
        uint64_t arg = rd64(p + TR_ARG_AT(pvtrace_cut, arg));
        uint64_t len = rd64(p + TR_ARG_AT(pvtrace_cut, len));
        if (arg < c->rec.nargs && c->rec.d->is_str[arg])
            c->rec.cut[arg] = len;
        c->pos += PVOMP_TRACE_CUT_REC;
    }
}

static bool is_meta(const struct tr_desc *d)
{
    return tr_kind_is_meta(d->kind);
}

/* Read the cursor's next record into c->rec.  false at its end. */
static bool cur_read(struct tr_merge *m, struct cursor *c)
{
    struct tr_log *log = m->log;
    char name[64];
    bool top = c->stream >= log->nstreams;
    for (;;) {
        if (c->pos >= c->end) {
            if (top || !next_chunk(m, c)) {
                finish(c);
                return false;
            }
            continue;
        }
        const uint8_t *p = tr_win_get(&c->win, c->pos, PVOMP_TRACE_EVENT_HDR);
        if (!p) {
            if (!c->reported)
                tr_problem(&log->diag, c->pos, "%s: records stop here, cut off by the end "
                           "of the log", who(m, c, name, sizeof name));
            c->reported = true;
            finish(c);
            return false;
        }
        uint64_t type = rd64(p);
        if (top && type == PVOMP_TRACE_REC_MAPPING) {
            const uint8_t *q = tr_win_get(&c->win, c->pos, 20);
            if (!q) {
                finish(c);
                return false;
            }
            c->pos += 20 + (uint64_t)rd32(q + 16);
            continue;
        }
        uint32_t length = rd32(p + 24);
        if (type != PVOMP_TRACE_REC_EVENT || length < 24 || c->pos + 8 + length > c->end) {
            if (c->pos + 8 + length > log->size && type == PVOMP_TRACE_REC_EVENT &&
                length >= 24 && length <= TR_MAX_RECORD) {
                if (!c->reported)
                    tr_problem(&log->diag, c->pos, "%s: records stop here, cut off by the "
                               "end of the log", who(m, c, name, sizeof name));
                c->reported = true;
            } else {
                tr_problem(&log->diag, c->pos, "%s: corrupt record (type %llu, length %u); "
                           "the rest of its chunk is skipped", who(m, c, name, sizeof name),
                           (unsigned long long)type, length);
            }
            if (top) {
                finish(c);
                return false;
            }
            c->pos = c->end;
            continue;
        }
        p = tr_win_get(&c->win, c->pos, 8 + (size_t)length);
        if (!p) {
            finish(c);
            return false;
        }
        uint64_t at = c->pos;
        const char *err = tr_decode(log, p, length, &c->rec);
        c->pos += 8 + length;
        if (err) {
            tr_problem(&log->diag, at, "%s: event id %llu: %s; record skipped",
                       who(m, c, name, sizeof name), (unsigned long long)c->rec.id, err);
            continue;
        }
        if (top && c->rec.d->kind == K_META_CHUNK) {
            c->pos += c->rec.u[TR_ARG_pvtrace_chunk_bytes]; /* a stream cursor reads it */
            if (c->pos > c->end || c->pos < at)
                c->pos = c->end;
            if (!m->with_meta)
                continue;
        } else if (!m->with_meta && is_meta(c->rec.d)) {
            continue;
        }
        c->rec.off = at;
        c->rec.stream = top ? UINT32_MAX : c->stream;
        copy_strings(c);
        take_cuts(m, c);
        return true;
    }
}

static bool cur_load(struct tr_merge *m, struct cursor *c)
{
    c->loaded = true;
    if (c->stream < m->log->nstreams) {
        struct tr_stream *s = &m->log->streams[c->stream];
        tr_win_init(&c->hwin, m->log->fd, m->log->size, HDR_WINDOW);
        if (!enter_chunk(m, c, s->first_chunk)) {
            finish(c);
            return false;
        }
    } else {
        c->pos = m->log->data_start;
        c->end = m->log->valid_end;
    }
    tr_win_init(&c->win, m->log->fd, m->log->size, REC_WINDOW);
    return cur_read(m, c);
}

struct tr_merge *tr_merge_new(struct tr_log *log, bool with_meta)
{
    struct tr_merge *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->log = log;
    m->with_meta = with_meta;
    m->ncur = log->nstreams + 1;
    m->cur = calloc(m->ncur, sizeof *m->cur);
    m->heap = malloc(m->ncur * sizeof *m->heap);
    if (!m->cur || !m->heap) {
        tr_merge_free(m);
        return NULL;
    }
    for (size_t i = 0; i < m->ncur; i++) {
        m->cur[i].stream = (uint32_t)i;
        /* Not loaded yet: keyed by the time of its first chunk. */
        uint64_t key = i < log->nstreams ? log->streams[i].first_ts : 0;
        heap_push(m, (struct heap_ent){ key, (uint32_t)i });
    }
    return m;
}

const struct tr_rec *tr_merge_next(struct tr_merge *m)
{
    struct cursor *c = m->last;
    m->last = NULL;
    if (c && cur_read(m, c)) {
        struct heap_ent e = { c->rec.ts, (uint32_t)(c - m->cur) };
        /* Still the earliest: no heap traffic (the common case). */
        if (m->nheap == 0 || ent_less(e, m->heap[0])) {
            m->last = c;
            return &c->rec;
        }
        heap_push(m, e);
    }
    while (m->nheap) {
        struct heap_ent e = heap_pop(m);
        c = &m->cur[e.cur];
        if (!c->loaded) {
            if (cur_load(m, c))
                heap_push(m, (struct heap_ent){ c->rec.ts, e.cur });
            continue;
        }
        m->last = c;
        return &c->rec;
    }
    return NULL;
}

void tr_merge_free(struct tr_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->cur && i < m->ncur; i++)
        if (!m->cur[i].done)
            finish(&m->cur[i]);
    free(m->cur);
    free(m->heap);
    free(m);
}
