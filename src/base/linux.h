/* Thin wrappers over the Linux system calls glibc 2.36 does not wrap the way
 * pvomp needs: private futexes and the thread id. */
#ifndef PV_BASE_LINUX_H
#define PV_BASE_LINUX_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* Sleep while *word == val; returns on wake, on a changed value, or on a signal. */
static inline void pv_futex_wait(_Atomic uint32_t *word, uint32_t val)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static inline void pv_futex_wake(_Atomic uint32_t *word, int count)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

/* The calling thread's kernel id. */
static inline pid_t pv_gettid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

#endif
