/* A window onto the file (win.h): pread()s what is asked for, keeps it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem.h"
#include "win.h"


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
        w->buf = tr_xrealloc(w->buf, want, 1);
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
