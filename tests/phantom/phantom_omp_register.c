/* OpenMP programs on pvsched register their team threads: the initial
 * thread when the runtime starts, each pool thread when it starts; a bigger
 * team registers only the new threads; a thread of the program registers
 * when it starts its first team.  Without a daemon, pvsched warns once
 * and falls back to the default policy. */
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "phtest.h"
#include "pvomp_check.h"

/* A thread the program created itself registers when it starts its first
 * team (a team of one: no pool thread can account for the registration). */
static void *user_thread_team(void *arg)
{
    ph_proc_t *p = (ph_proc_t *)(uintptr_t)arg;
    unsigned long long before = p->registered;
    unsigned long long inside = 0;
#pragma omp parallel num_threads(1)
    inside = p->registered;
    printf("user thread's team: registered %llu -> %llu\n", before, inside);
    return (void *)(uintptr_t)(inside == before + 1);
}

static int child_register(void)
{
    ph_proc_t *p = ph_find(getpid());
    CHECK(p != NULL); /* the runtime opened the page and registered itself */
    printf("at start: threads %u, registered %llu\n", p->threads,
           (unsigned long long)p->registered);
    CHECK(p->threads == 1 && p->registered == 1);

    int ok = 1;
#pragma omp parallel num_threads(4)
    {
#pragma omp barrier
        if (p->threads != 4) /* every member registered before the barrier */
            ok = 0;
    }
    printf("team of 4: threads %u, registered %llu\n", p->threads,
           (unsigned long long)p->registered);
    CHECK(ok);
    CHECK(p->registered == 4);

#pragma omp parallel num_threads(3)
    {
#pragma omp barrier
    }
    CHECK(p->registered == 4); /* the pool's threads are registered already */

#pragma omp parallel num_threads(6)
    {
#pragma omp barrier
        if (p->threads < 6)
            ok = 0;
    }
    printf("team of 6: threads %u, registered %llu\n", p->threads,
           (unsigned long long)p->registered);
    CHECK(ok);
    CHECK(p->registered == 6);

    pthread_t user;
    void *registered_once = NULL;
    CHECK(pthread_create(&user, NULL, user_thread_team, (void *)(uintptr_t)p) == 0);
    CHECK(pthread_join(user, &registered_once) == 0);
    CHECK(registered_once != NULL);
    return 0;
}

static int child_fallback(void)
{
    int n = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp barrier
#pragma omp atomic
        n++;
    }
    CHECK(n == 2);
    printf("fallback: ran a team of %d without a page\n", n);
    return 0;
}

int main(int argc, char **argv)
{
    (void)argc;
    if (ph_is_child())
        return strcmp(argv[1], "fallback") == 0 ? child_fallback() : child_register();
    ph_start_daemon();
    const char *reg[] = { "register", NULL };
    char *out = ph_run_child("pvsched", reg);
    printf("%s", out);
    free(out);

    /* No daemon at this socket: one warning, then the default policy. */
    setenv(PVOMP_PHANTOMD_SOCKET_ENV, "/nonexistent/phantomd.sock", 1);
    const char *fb[] = { "fallback", NULL };
    out = ph_run_child("pvsched", fb);
    printf("%s", out);
    CHECK(strstr(out, "GOMP_WAIT_POLICY=pvsched") && strstr(out, "pvomp-phantomd is not running"));
    CHECK(strstr(out, "using the default policy"));
    free(out);
    printf("PASS\n");
    return 0;
}
