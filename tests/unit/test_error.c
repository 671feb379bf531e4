/* The error directive at(execution): severity(warning) prints and goes on;
 * severity(fatal) prints and ends the program with a non-zero status, after
 * what it printed before has been flushed. */
#define _GNU_SOURCE
#include "child_run.h"
#include "pvomp_check.h"

static int child(const char *mode)
{
    const char *msg = "runtime text";
    printf("before\n"); /* buffered: the fatal exit must flush it */
    if (strcmp(mode, "warn") == 0) {
#pragma omp error at(execution) severity(warning) message("constant text")
#pragma omp error at(execution) severity(warning) message(msg)
#pragma omp error at(execution) severity(warning)
        printf("after\n");
        return 0;
    }
#pragma omp error at(execution) severity(fatal) message(msg)
    printf("not reached\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return child(argv[1]);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(n > 0);
    self[n] = '\0';

    struct child_result *r = calloc(1, sizeof *r);
    child_run(self, "warn", NULL, r);
    CHECK(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0);
    CHECK(strstr(r->out, "before\nafter\n") != NULL);
    /* libgomp's wording and prefix, byte for byte (GCC's error-1.c matches it):
     * each message is "\nlibgomp: " + text + "\n". */
    CHECK(strcmp(r->err, "\nlibgomp: error directive encountered: constant text\n"
                         "\nlibgomp: error directive encountered: runtime text\n"
                         "\nlibgomp: error directive encountered\n") == 0);

    child_run(self, "fatal", NULL, r);
    CHECK(WIFEXITED(r->status) && WEXITSTATUS(r->status) != 0);
    CHECK(strstr(r->out, "before\n") != NULL);
    CHECK(strstr(r->out, "not reached") == NULL);
    CHECK(strcmp(r->err, "\nlibgomp: fatal error: error directive encountered: runtime text\n") == 0);
    free(r);
    printf("error directive: all checks passed\n");
    return 0;
}
