/* Helpers of the phantom tracker tests: a private pvomp-phantomd, the pvomp
 * library's registration function, read-only views of the phantom pages. */
#ifndef PHTEST_H
#define PHTEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "../common/check.h"
#include "pvomp/phantom.h"

#define PH_CHECK(cond) CHECK(cond)

typedef const volatile struct pvomp_phantom_proc ph_proc_t;
typedef const volatile struct pvomp_phantom_global ph_global_t;

/* Start a private daemon (own socket and pin directory; exported to children
 * through PVOMP_PHANTOMD_SOCKET); it is stopped at exit.  Fails the test when
 * not root or when the daemon cannot start. */
void ph_start_daemon(void);
const char *ph_pin_dir(void);

/* Load the pvomp library (by path, for plain pthread tests), have the daemon
 * probe it, and return its pvomp_phantom_register. */
void (*ph_load_pvomp(void))(void);

/* The whole phantom map, read-only. */
const volatile struct pvomp_phantom_page *ph_pages(void);
ph_global_t *ph_global(void);
/* The page of process pid, or NULL. */
ph_proc_t *ph_find(pid_t pid);

/* OpenMP tests: the runtime reads GOMP_WAIT_POLICY and opens the phantom
 * page before main runs, so a test starts the daemon and then runs itself
 * again as a child ("child" as argv[1]... from `args`) under `policy`.
 * Returns the child's stdout (malloc'ed); fails the test if the child fails. */
char *ph_run_child(const char *policy, const char *const args[]);
bool ph_is_child(void);

/* The pvomp library this process runs on (realpath), for uprobes. */
const char *ph_runtime_path(void);

void ph_pin_cpu(int cpu);
pid_t ph_gettid(void);
/* Wait (no time limit) until the thread's /proc entry is gone: it has fully
 * exited, so the tracker's exit tracepoint has run. */
void ph_wait_thread_gone(pid_t tid);
/* Thread state letter from /proc/self/task/<tid>/stat ('R', 'S', ...). */
char ph_thread_state(pid_t tid);
uint64_t ph_now_ns(void);
/* The scheduler's account of a thread of this process: time on a CPU (ns)
 * and times it was switched in (/proc/self/task/<tid>/schedstat). */
bool ph_thread_sched(pid_t tid, uint64_t *cpu_ns, uint64_t *switch_ins);
/* Tasks running or waiting for a CPU now, the whole machine's
 * (/proc/loadavg's fourth field), or -1. */
int ph_runnable_tasks(void);
/* USER_HZ ticks the hypervisor took a CPU from this guest (/proc/stat), or -1. */
long long ph_cpu_steal_ticks(int cpu);
void ph_busy_ns(uint64_t ns);
double ph_avg(ph_proc_t *p);

#endif
