/* Buffered text output with hand-written number formatting: dump has to
 * print more than ten million records a second. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "mem.h"
#include "out.h"


size_t tr_out_bufsize = 1u << 20;

void tr_out_init(struct tr_out *o, FILE *f)
{
    o->f = f;
    o->cap = tr_out_bufsize;
    o->len = 0;
    o->buf = tr_xrealloc(NULL, o->cap, 1);
}

void tr_out_flush(struct tr_out *o)
{
    if (o->len && o->f)
        fwrite(o->buf, 1, o->len, o->f);
    o->len = 0;
}

void tr_out_big(struct tr_out *o, const void *p, size_t n)
{
    if (n > o->cap / 2) {
        tr_out_flush(o);
        if (o->f)
            fwrite(p, 1, n, o->f);
        return;
    }
    tr_out_reserve(o, n);
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

void tr_out_str(struct tr_out *o, const char *s)
{
    tr_out_bytes(o, s, strlen(s));
}

void tr_out_int_arg(struct tr_out *o, const struct tr_desc *d, unsigned i, uint64_t v)
{
    const struct tr_enum *e = d->argenum[i];
    const char *name = tr_enum_name(e, v);
    if (name) {
        tr_out_str(o, name);
        return;
    }
    tr_out_hex(o, v);
    if (e) {
        tr_out_str(o, " [not a ");
        tr_out_str(o, e->name);
        tr_out_char(o, ']');
    }
}

/* Python's '%0.3f' % (ns / 1000.0) for integer ns: exact decimal digits. */
void tr_out_us3(struct tr_out *o, int64_t ns)
{
    uint64_t a;
    if (ns < 0) {
        tr_out_char(o, '-');
        a = (uint64_t)0 - (uint64_t)ns;
    } else {
        a = (uint64_t)ns;
    }
    tr_out_u64(o, a / 1000);
    unsigned f = (unsigned)(a % 1000);
    tr_out_reserve(o, 4);
    o->buf[o->len++] = '.';
    o->buf[o->len++] = (char)('0' + f / 100);
    o->buf[o->len++] = (char)('0' + f / 10 % 10);
    o->buf[o->len++] = (char)('0' + f % 10);
}

void tr_out_fmt(struct tr_out *o, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof tmp) {
        char *big = malloc((size_t)n + 1);
        if (!big)
            return;
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        tr_out_bytes(o, big, (size_t)n);
        free(big);
        return;
    }
    tr_out_bytes(o, tmp, (size_t)n);
}

static void out_xbyte(struct tr_out *o, uint8_t c)
{
    static const char digits[] = "0123456789abcdef";
    char t[4] = { '\\', 'x', digits[c >> 4], digits[c & 15] };
    tr_out_bytes(o, t, 4);
}

void tr_out_cstr(struct tr_out *o, const uint8_t *s, size_t n)
{
    tr_out_char(o, '"');
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == '"' || c == '\\') {
            tr_out_char(o, '\\');
            tr_out_char(o, (char)c);
        } else if (c == '\n') {
            tr_out_bytes(o, "\\n", 2);
        } else if (c == '\t') {
            tr_out_bytes(o, "\\t", 2);
        } else if (c < 0x20 || c == 0x7f) {
            out_xbyte(o, c);
        } else {
            tr_out_char(o, (char)c);
        }
    }
    tr_out_char(o, '"');
}

/* repr() of a Python bytes object (CPython's rules). */
void tr_out_pybytes(struct tr_out *o, const uint8_t *s, size_t n)
{
    char quote = '\'';
    if (memchr(s, '\'', n) && !memchr(s, '"', n))
        quote = '"';
    tr_out_char(o, 'b');
    tr_out_char(o, quote);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == (uint8_t)quote || c == '\\') {
            tr_out_char(o, '\\');
            tr_out_char(o, (char)c);
        } else if (c == '\t') {
            tr_out_bytes(o, "\\t", 2);
        } else if (c == '\n') {
            tr_out_bytes(o, "\\n", 2);
        } else if (c == '\r') {
            tr_out_bytes(o, "\\r", 2);
        } else if (c < 0x20 || c >= 0x7f) {
            out_xbyte(o, c);
        } else {
            tr_out_char(o, (char)c);
        }
    }
    tr_out_char(o, quote);
}

void tr_out_json_str(struct tr_out *o, const uint8_t *s, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    tr_out_char(o, '"');
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == '"' || c == '\\') {
            tr_out_char(o, '\\');
            tr_out_char(o, (char)c);
        } else if (c < 0x20 || c >= 0x7f || c == '<') {
            /* Bytes, not necessarily UTF-8: escape everything outside ASCII;
             * and '<', so that a string never closes an HTML <script>. */
            char t[6] = { '\\', 'u', '0', '0', digits[c >> 4], digits[c & 15] };
            tr_out_bytes(o, t, 6);
        } else {
            tr_out_char(o, (char)c);
        }
    }
    tr_out_char(o, '"');
}

void tr_out_html(struct tr_out *o, const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        switch (c) {
        case '<': tr_out_str(o, "&lt;"); break;
        case '>': tr_out_str(o, "&gt;"); break;
        case '&': tr_out_str(o, "&amp;"); break;
        case '"': tr_out_str(o, "&quot;"); break;
        case '\'': tr_out_str(o, "&#39;"); break;
        default:
            if (c < 0x20 || c >= 0x7f)
                tr_out_fmt(o, "&#%u;", c < 0x20 ? 0xfffdu : (unsigned)c);
            else
                tr_out_char(o, (char)c);
        }
    }
}
