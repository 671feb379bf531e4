/* Building records in memory (struct pv_trace_buf): the bytes of a
 * simpletrace mapping or event record with u64 and string arguments.  The
 * log's own records (meta.c, objects.c) and the file's end record
 * (logfile.c) are made with it. */
#include <stdarg.h>
#include <string.h>

#include "base/alloc.h"
#include "trace/trace.h"

void pv_trace_buf_put(struct pv_trace_buf *b, const void *bytes, size_t len)
{
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len)
            cap *= 2;
        uint8_t *p = pv_realloc(b->p, cap);
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, bytes, len);
    b->len += len;
}

static void put_u64(struct pv_trace_buf *b, uint64_t v)
{
    pv_trace_buf_put(b, &v, 8);
}

static void put_u32(struct pv_trace_buf *b, uint32_t v)
{
    pv_trace_buf_put(b, &v, 4);
}

void pv_trace_buf_mapping(struct pv_trace_buf *b, uint64_t id, const char *name)
{
    put_u64(b, PVOMP_TRACE_REC_MAPPING);
    put_u64(b, id);
    put_u32(b, (uint32_t)strlen(name));
    pv_trace_buf_put(b, name, strlen(name));
}

void pv_trace_buf_event(struct pv_trace_buf *b, uint64_t id, uint64_t ts, uint32_t tid,
                        const char *kinds, ...)
{
    va_list ap;
    uint32_t size = PVOMP_TRACE_EVENT_HDR;
    uint8_t hdr[PVOMP_TRACE_EVENT_HDR] = { 0 };
    size_t at = b->len;
    va_start(ap, kinds);
    pv_trace_buf_put(b, hdr, sizeof hdr); /* written below, when the size is known */
    for (const char *k = kinds; *k; k++) {
        if (*k == 's') {
            const char *s = va_arg(ap, const char *);
            uint32_t n = s ? (uint32_t)strnlen(s, PV_TRACE_STRMAX) : 0;
            put_u32(b, n);
            pv_trace_buf_put(b, s, n);
            size += 4 + n;
        } else {
            put_u64(b, va_arg(ap, uint64_t));
            size += 8;
        }
    }
    va_end(ap);
    pvomp_trace_put_header(b->p + at, id, ts, size, tid);
}
