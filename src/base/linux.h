/* Thin wrappers over the Linux calls pvomp makes, one each, so that no
 * module spells a system call itself: private futexes (glibc 2.36 wraps
 * none), membarrier, memfd and the thread id. */
#ifndef PV_BASE_LINUX_H
#define PV_BASE_LINUX_H

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Sleep while *word == val, at most `timeout` (relative; NULL: no limit);
 * returns on wake, on a changed value, on a signal or at the timeout. */
static inline void pv_futex_wait_for(_Atomic uint32_t *word, uint32_t val,
                                     const struct timespec *timeout)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, val, timeout, NULL, 0);
}

/* Sleep while *word == val; returns on wake, on a changed value, or on a signal. */
static inline void pv_futex_wait(_Atomic uint32_t *word, uint32_t val)
{
    pv_futex_wait_for(word, val, NULL);
}

static inline void pv_futex_wake(_Atomic uint32_t *word, int count)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

/* membarrier(2) with a MEMBARRIER_CMD_*: 0 on success, -1 (errno) otherwise. */
static inline int pv_membarrier(int cmd)
{
    return (int)syscall(SYS_membarrier, cmd, 0, 0);
}

/* An anonymous memory file, closed on exec: a descriptor, or -1 (errno). */
static inline int pv_memfd(const char *name)
{
    return memfd_create(name, MFD_CLOEXEC);
}

/* The calling thread's kernel id. */
static inline pid_t pv_gettid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

#endif
