/* The base layer on its own (src/base compiled into this program, no OpenMP
 * runtime): the message format, pv_realloc, the Linux call wrappers and the
 * clocks. */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/linux.h"
#include "base/message.h"
#include "check.h"

/* What the messages write on stderr, caught through a pipe. */
static void messages(void)
{
    int p[2];
    CHECK(pipe(p) == 0);
    int saved = dup(2);
    CHECK(saved >= 0 && dup2(p[1], 2) == 2);
    pv_warn("PVOMP_X=%s: not a number; using %d", "abc", 4);
    pv_note("trace: snapshot %d written to %s", 1, "/tmp/t");
    fflush(stderr);
    CHECK(dup2(saved, 2) == 2);
    close(p[1]);
    char buf[256] = { 0 };
    ssize_t n = 0, k;
    while ((k = read(p[0], buf + n, sizeof buf - 1 - (size_t)n)) > 0)
        n += k;
    close(p[0]);
    CHECK(!strcmp(buf, "pvomp: warning: PVOMP_X=abc: not a number; using 4\n"
                       "pvomp: trace: snapshot 1 written to /tmp/t\n"));
}

static void reallocation(void)
{
    char *p = pv_realloc(NULL, 4);
    memcpy(p, "abc", 4);
    p = pv_realloc(p, 1 << 20);
    CHECK(!strcmp(p, "abc"));
    p[(1 << 20) - 1] = 1;
    free(p);
}

static _Atomic uint32_t word;

static void *waker(void *arg)
{
    (void)arg;
    struct timespec t = { 0, 1000000 };
    nanosleep(&t, NULL);
    atomic_store(&word, 1);
    pv_futex_wake(&word, 1);
    return NULL;
}

static void linux_calls(void)
{
    /* A wait on a value the word does not hold returns at once; a timed one
     * on the value it holds returns at the latest after its timeout. */
    atomic_store(&word, 5);
    pv_futex_wait(&word, 4);
    struct timespec t = { 0, 1000000 };
    uint64_t t0 = pv_monotonic_ns();
    pv_futex_wait_for(&word, 5, &t);
    CHECK(pv_monotonic_ns() - t0 >= 500000); /* slept, unless a signal came */
    /* A sleeper is woken by the wake that follows the store. */
    atomic_store(&word, 0);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, waker, NULL) == 0);
    while (atomic_load(&word) == 0)
        pv_futex_wait(&word, 0);
    CHECK(pthread_join(th, NULL) == 0);

    CHECK(pv_gettid() == getpid()); /* the initial thread's id is the process id */
    int fd = pv_memfd("pvomp-test");
    CHECK(fd >= 0 && ftruncate(fd, 4096) == 0);
    char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(m != MAP_FAILED);
    m[0] = 'x';
    munmap(m, 4096);
    close(fd);
    int q = pv_membarrier(MEMBARRIER_CMD_QUERY);
    CHECK(q >= 0 || errno == ENOSYS);
}

static void clocks(void)
{
    uint64_t a = pv_monotonic_ns(), b = pv_monotonic_ns();
    CHECK(b >= a);
    uint64_t r = pv_realtime_ns();
    time_t now = time(NULL);
    CHECK(r / 1000000000u + 2 >= (uint64_t)now && r / 1000000000u <= (uint64_t)now + 2);
    struct timespec ts = pv_timespec_of_ns(3000000123ull);
    CHECK(ts.tv_sec == 3 && ts.tv_nsec == 123);
}

int main(void)
{
    messages();
    reallocation();
    linux_calls();
    clocks();
    printf("base: all checks passed\n");
    return 0;
}
