/* Reading a thread's run delay (run_delay.h). */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "trace/run_delay.h"

/* The thread's /proc/thread-self/schedstat, opened at its first read and
 * kept (a read is then one pread); -1 before that.  The key's destructor
 * closes it when the thread exits (its value: the descriptor + 1). */
static __thread int schedstat_fd = -1;
static pthread_key_t schedstat_key;
static pthread_once_t schedstat_once = PTHREAD_ONCE_INIT;
static bool schedstat_keyed;

static void schedstat_close(void *v)
{
    close((int)(intptr_t)v - 1);
}

static void schedstat_key_create(void)
{
    schedstat_keyed = pthread_key_create(&schedstat_key, schedstat_close) == 0;
}

static int schedstat_open(void)
{
    int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    pthread_once(&schedstat_once, schedstat_key_create);
    if (!schedstat_keyed || pthread_setspecific(schedstat_key, (void *)(intptr_t)(fd + 1)) != 0) {
        close(fd);  /* it could not be closed at the thread's exit */
        return -1;
    }
    return fd;
}

void pv_trace_run_delay_read(struct pv_trace_ring *r)
{
    r->run_delay_due = r->last_ts + PV_RUN_DELAY_EVERY_NS;
    if (!(pv_trace_state[PV_TRACE_EV_run_delay] & PV_TRACE_TRACED))
        return;
    if (schedstat_fd < 0)
        schedstat_fd = schedstat_open();
    char buf[96];
    ssize_t n = schedstat_fd < 0 ? -1 : pread(schedstat_fd, buf, sizeof buf - 1, 0);
    if (n <= 0) {
        /* No schedstat (a kernel without CONFIG_SCHEDSTATS, no /proc): this
         * thread stops trying.  The log then has no run_delay records and
         * the advisor sees such members as it did before. */
        r->run_delay_due = UINT64_MAX;
        return;
    }
    buf[n] = '\0';
    /* "<on-CPU ns> <runnable-waiting ns> <timeslices>" */
    char *end;
    strtoull(buf, &end, 10);
    uint64_t waited = strtoull(end, NULL, 10);
    trace_run_delay(waited);
}
