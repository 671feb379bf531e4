/* LD_PRELOAD shim for trace_test.py's `direct` test: a file system that
 * opens with O_DIRECT but refuses direct writes (EINVAL), as some do.  The
 * first refusal is reported on stderr, so the test knows it happened (and
 * fails should logfile.c ever write other than with pwritev). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

static atomic_int said;

static int refuse(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || !(fl & O_DIRECT))
        return 0;
    if (!atomic_exchange(&said, 1))
        fprintf(stderr, "nodirect_shim: refused a direct write\n");
    errno = EINVAL;
    return 1;
}

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
    static ssize_t (*real)(int, const struct iovec *, int, off_t);
    if (refuse(fd))
        return -1;
    if (!real)
        real = (ssize_t(*)(int, const struct iovec *, int, off_t))dlsym(RTLD_NEXT, "pwritev");
    return real(fd, iov, n, off);
}
