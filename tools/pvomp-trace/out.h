/* Buffered output (out.c): numbers, times, escapes for each output format. */
#ifndef PVOMP_TRACE_OUT_H
#define PVOMP_TRACE_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tr_desc;

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

#endif
