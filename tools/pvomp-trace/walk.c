/* File-order reading: every event record as it comes in the file, the log's
 * own records included (what QEMU's simpletrace.py prints). */
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "diag.h"
#include "log.h"
#include "records.h"
#include "win.h"


struct tr_walk {
    struct tr_log *log;
    struct tr_win win;
    uint64_t pos;
    uint64_t chunk_end;       /* inside a chunk: where it ends; 0 at the top level */
    uint32_t stream;
    struct tr_rec rec;
};

struct tr_walk *tr_walk_new(struct tr_log *log)
{
    struct tr_walk *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->log = log;
    w->pos = log->data_start;
    w->stream = UINT32_MAX;
    tr_win_init(&w->win, log->fd, log->size, 1u << 16);
    return w;
}

void tr_walk_free(struct tr_walk *w)
{
    if (!w)
        return;
    tr_win_free(&w->win);
    free(w);
}

const struct tr_rec *tr_walk_next(struct tr_walk *w)
{
    struct tr_log *log = w->log;
    for (;;) {
        if (w->chunk_end && w->pos >= w->chunk_end) {
            w->pos = w->chunk_end;
            w->chunk_end = 0;
            w->stream = UINT32_MAX;
        }
        /* The top level is only read as far as the scan could read it. */
        if (!w->chunk_end && w->pos >= log->valid_end)
            return NULL;
        const uint8_t *p = tr_win_get(&w->win, w->pos, 8);
        if (!p)
            return NULL;
        if (rd64(p) == PVOMP_TRACE_REC_MAPPING && !w->chunk_end) {
            p = tr_win_get(&w->win, w->pos, 20);
            if (!p)
                return NULL;
            w->pos += 20 + (uint64_t)rd32(p + 16);
            continue;
        }
        p = tr_win_get(&w->win, w->pos, PVOMP_TRACE_EVENT_HDR);
        uint32_t length = p ? rd32(p + 24) : 0;
        uint64_t limit = w->chunk_end ? w->chunk_end : log->size;
        if (!p || rd64(p) != PVOMP_TRACE_REC_EVENT || length < 24 || w->pos + 8 + length > limit ||
            !(p = tr_win_get(&w->win, w->pos, 8 + (size_t)length))) {
            if (!w->chunk_end)
                return NULL; /* the scan reported it */
            if (w->pos + 8 + length > log->size && length <= TR_MAX_RECORD)
                tr_problem(&log->diag, w->pos, "records stop here, cut off by the end of the log");
            else
                tr_problem(&log->diag, w->pos, "corrupt record inside a chunk; the rest of the "
                           "chunk is skipped");
            w->pos = w->chunk_end;
            continue;
        }
        uint64_t at = w->pos;
        const char *err = tr_decode(log, p, length, &w->rec);
        w->pos += 8 + length;
        if (err) {
            tr_problem(&log->diag, at, "event id %llu: %s; record skipped",
                       (unsigned long long)w->rec.id, err);
            continue;
        }
        w->rec.off = at;
        w->rec.stream = w->stream;
        if (w->rec.d->kind == K_META_CHUNK && !w->chunk_end) {
            uint64_t end = w->pos + w->rec.u[TR_ARG_pvtrace_chunk_bytes];
            w->chunk_end = end < w->pos || end > log->size ? log->size : end;
            /* The stream index, for callers that want it. */
            for (size_t i = 0; i < log->nstreams; i++)
                if (log->streams[i].id == w->rec.u[TR_ARG_pvtrace_chunk_stream]) {
                    w->stream = (uint32_t)i;
                    break;
                }
            if (w->chunk_end == w->pos) /* empty chunk */
                w->chunk_end = 0;
        }
        return &w->rec;
    }
}
