/* Reading the log file: a window onto it (win.c) and little-endian
 * fields at any alignment. */
#ifndef PVOMP_TRACE_WIN_H
#define PVOMP_TRACE_WIN_H

#include <stddef.h>
#include <stdint.h>

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

#endif
