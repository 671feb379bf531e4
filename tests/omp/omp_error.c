/* The error directive at execution time (GOMP_warning / GOMP_error):
 * severity(warning) prints the message and continues; severity(fatal), and
 * the default severity, print it and stop the program with a failure
 * status, also when raised by one thread inside a parallel region.  Each
 * case runs in a child process (this program re-executed with a mode). */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvomp_check.h"
#include "omp_test.h"

static int child_mode(const char *mode)
{
    if (strcmp(mode, "warning") == 0) {
#pragma omp error at(execution) severity(warning) message("pvomp-test-warning-1")
        printf("after warning\n");
        return 0;
    }
    if (strcmp(mode, "warning-nomsg") == 0) {
#pragma omp error at(execution) severity(warning)
        printf("after warning\n");
        return 0;
    }
    if (strcmp(mode, "warning-parallel") == 0) {
        int n = 0;
#pragma omp parallel num_threads(3) reduction(+ : n)
        {
#pragma omp error at(execution) severity(warning) message("pvomp-test-warning-par")
            n++;
        }
        printf("after warning %d\n", n);
        return n == 3 ? 0 : 1;
    }
    if (strcmp(mode, "warning-dynamic") == 0) {
        static char msg[64];
        snprintf(msg, sizeof msg, "pvomp-test-%s-%d", "dyn", 42);
#pragma omp error at(execution) severity(warning) message(msg)
        printf("after warning\n");
        return 0;
    }
    if (strcmp(mode, "fatal") == 0) {
#pragma omp error at(execution) severity(fatal) message("pvomp-test-fatal")
        printf("after fatal\n");
        return 0;
    }
    if (strcmp(mode, "default") == 0) {
#pragma omp error at(execution) message("pvomp-test-default")
        printf("after fatal\n");
        return 0;
    }
    if (strcmp(mode, "fatal-parallel") == 0) {
#pragma omp parallel num_threads(3)
        {
            if (omp_get_thread_num() == 1) {
#pragma omp error at(execution) severity(fatal) message("pvomp-test-fatal-par")
            }
#pragma omp barrier
        }
        printf("after fatal\n");
        return 0;
    }
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}

/* Runs this program in `mode`; returns its wait status and output. */
static int run_child(const char *self, const char *mode, char *out, size_t outsz, char *err,
                     size_t errsz)
{
    int po[2], pe[2];
    CHECK(pipe(po) == 0 && pipe(pe) == 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        execl(self, self, mode, (char *)NULL);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    /* Outputs are small: read stdout to the end, then stderr. */
    size_t lo = 0, le = 0;
    ssize_t r;
    while ((r = read(po[0], out + lo, outsz - 1 - lo)) > 0)
        lo += (size_t)r;
    while ((r = read(pe[0], err + le, errsz - 1 - le)) > 0)
        le += (size_t)r;
    out[lo] = err[le] = 0;
    close(po[0]);
    close(pe[0]);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    fprintf(stderr, "--- mode %s: status %#x\nstdout: %sstderr: %s", mode, status, out, err);
    return status;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static int failed(int status)
{
    return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return child_mode(argv[1]);
    static char out[8192], err[8192];
    int st;

    st = run_child(argv[0], "warning", out, sizeof out, err, sizeof err);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(count(err, "pvomp-test-warning-1") == 1 && strstr(out, "after warning"));
    /* libgomp's wording and prefix (GCC's testsuite matches them). */
    CHECK(strcmp(err, "\nlibgomp: error directive encountered: pvomp-test-warning-1\n") == 0);

    st = run_child(argv[0], "warning-nomsg", out, sizeof out, err, sizeof err);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(out, "after warning"));
    CHECK(strcmp(err, "\nlibgomp: error directive encountered\n") == 0);

    st = run_child(argv[0], "warning-parallel", out, sizeof out, err, sizeof err);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(count(err, "pvomp-test-warning-par") == 3 && strstr(out, "after warning 3"));

    st = run_child(argv[0], "warning-dynamic", out, sizeof out, err, sizeof err);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(count(err, "pvomp-test-dyn-42") == 1 && strstr(out, "after warning"));

    st = run_child(argv[0], "fatal", out, sizeof out, err, sizeof err);
    CHECK(failed(st) && count(err, "pvomp-test-fatal") == 1 && !strstr(out, "after fatal"));
    CHECK(strcmp(err, "\nlibgomp: fatal error: error directive encountered: pvomp-test-fatal\n") == 0);

    st = run_child(argv[0], "default", out, sizeof out, err, sizeof err);
    CHECK(failed(st) && count(err, "pvomp-test-default") == 1 && !strstr(out, "after fatal"));

    st = run_child(argv[0], "fatal-parallel", out, sizeof out, err, sizeof err);
    CHECK(failed(st) && count(err, "pvomp-test-fatal-par") == 1 && !strstr(out, "after fatal"));

    printf("omp_error: ok\n");
    return 0;
}
