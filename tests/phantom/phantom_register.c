/* Registration and cleanup: threads that call pvomp_phantom_register appear
 * in their process's page; they disappear when they exit, when the process
 * exits (the page is freed) and when the process execs (likewise). */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "phtest.h"

static void (*reg)(void);
static _Atomic int registered_count, release;

static void *worker(void *arg)
{
    pid_t *tid = arg;
    *tid = ph_gettid();
    reg();
    reg(); /* registering twice counts once */
    atomic_fetch_add(&registered_count, 1);
    while (!atomic_load(&release))
        usleep(1000);
    return NULL;
}

static void threads_come_and_go(void)
{
    reg();
    ph_proc_t *p = ph_find(getpid());
    PH_CHECK(p != NULL);
    PH_CHECK(p->hdr.magic == PVOMP_PHANTOM_MAGIC && p->hdr.kind == PVOMP_PHANTOM_KIND_PROCESS);
    PH_CHECK(p->threads == 1 && p->registered == 1);
    /* The page sits where the client looks first unless that was taken. */
    printf("process %d: page at offset %td, home page %u\n", (int)getpid(),
           (const volatile char *)p - (const volatile char *)ph_pages(),
           pvomp_phantom_home((uint32_t)getpid()));

    enum { N = 3 };
    pthread_t th[N];
    pid_t tid[N];
    for (int i = 0; i < N; i++)
        PH_CHECK(pthread_create(&th[i], NULL, worker, &tid[i]) == 0);
    while (atomic_load(&registered_count) < N)
        usleep(1000);
    printf("after %d threads registered: threads %u, registered %llu\n", N, p->threads,
           (unsigned long long)p->registered);
    PH_CHECK(p->threads == 1 + N);
    PH_CHECK(p->registered == 1 + N);
    atomic_store(&release, 1);
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        ph_wait_thread_gone(tid[i]);
    }
    printf("after they exited: threads %u\n", p->threads);
    PH_CHECK(p->threads == 1);
    PH_CHECK(p->pid == (uint32_t)getpid());
}

/* A child registers two threads, then either exits or execs. */
static void child_lifecycle(bool do_exec)
{
    int up[2], down[2];
    PH_CHECK(pipe(up) == 0 && pipe(down) == 0);
    pid_t c = fork();
    PH_CHECK(c >= 0);
    if (c == 0) {
        close(up[0]);
        close(down[1]);
        reg();
        pthread_t th;
        pid_t tid;
        atomic_store(&registered_count, 0);
        atomic_store(&release, 0);
        pthread_create(&th, NULL, worker, &tid);
        while (atomic_load(&registered_count) < 1)
            usleep(1000);
        char b = 'r';
        if (write(up[1], &b, 1) != 1)
            _exit(2);
        if (read(down[0], &b, 1) != 1)
            _exit(3);
        if (do_exec) {
            /* The new program says "x" on the pipe once it runs, i.e. after
             * the exec completed, then waits for a line on stdin. */
            dup2(up[1], 1);
            dup2(down[0], 0);
            execl("/bin/sh", "sh", "-c", "echo x; read y", (char *)NULL);
            _exit(4);
        }
        _exit(0); /* both threads go */
    }
    close(up[1]);
    close(down[0]);
    char b;
    PH_CHECK(read(up[0], &b, 1) == 1 && b == 'r');
    ph_proc_t *p = ph_find(c);
    PH_CHECK(p != NULL);
    PH_CHECK(p->threads == 2);
    PH_CHECK(write(down[1], "g", 1) == 1);
    if (do_exec) {
        PH_CHECK(read(up[0], &b, 1) == 1 && b == 'x');
        PH_CHECK(kill(c, 0) == 0); /* still alive, running sh */
        printf("child %d after exec: page %s\n", (int)c, ph_find(c) ? "still there" : "freed");
        PH_CHECK(ph_find(c) == NULL);
        PH_CHECK(write(down[1], "\n", 1) == 1);
    }
    int st;
    PH_CHECK(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    if (!do_exec) {
        printf("child %d after exit: page %s\n", (int)c, ph_find(c) ? "still there" : "freed");
        PH_CHECK(ph_find(c) == NULL);
    }
    close(up[0]);
    close(down[1]);
}

int main(void)
{
    ph_start_daemon();
    reg = ph_load_pvomp();
    uint64_t regs0 = ph_global()->registrations;
    threads_come_and_go();
    child_lifecycle(false);
    child_lifecycle(true);
    printf("registrations seen by the tracker: %llu\n",
           (unsigned long long)(ph_global()->registrations - regs0));
    PH_CHECK(ph_global()->registrations - regs0 == 1 + 3 + 2 + 2);
    printf("PASS\n");
    return 0;
}
