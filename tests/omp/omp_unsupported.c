/* A GOMP entry point that pvomp does not implement still resolves to pvomp
 * (never silently to another libgomp) and, when called, stops the program
 * with "pvomp: NAME is not supported yet".  GOMP_offload_register is the
 * GCC 5 offload-image registration call (superseded by
 * GOMP_offload_register_ver in GCC 6), so it stays unimplemented. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvomp_check.h"

void GOMP_offload_register(const void *host_table, int target_type, const void *target_data);

#define SYMBOL "GOMP_offload_register"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "call") == 0) {
        GOMP_offload_register(NULL, 0, NULL);
        printf("returned from " SYMBOL "\n");
        return 0;
    }

    /* The program's reference binds to pvomp's library. */
    Dl_info info;
    void *p = dlsym(RTLD_DEFAULT, SYMBOL);
    const char *(*path)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "pvomp_runtime_path");
    CHECK(p != NULL && path != NULL && dladdr(p, &info) != 0);
    CHECK(strcmp(info.dli_fname, path()) == 0);
    CHECK(dlvsym(RTLD_DEFAULT, SYMBOL, "GOMP_4.0.1") == p);

    int po[2], pe[2];
    CHECK(pipe(po) == 0 && pipe(pe) == 0);
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        execl(argv[0], argv[0], "call", (char *)NULL);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    static char out[4096], err[4096];
    size_t lo = 0, le = 0;
    ssize_t r;
    while ((r = read(po[0], out + lo, sizeof out - 1 - lo)) > 0)
        lo += (size_t)r;
    while ((r = read(pe[0], err + le, sizeof err - 1 - le)) > 0)
        le += (size_t)r;
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    fprintf(stderr, "child status %#x\nstdout: %s\nstderr: %s\n", status, out, err);
    CHECK(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0));
    CHECK(strstr(err, "pvomp: " SYMBOL " is not supported yet") != NULL);
    CHECK(strstr(out, "returned from") == NULL);
    printf("omp_unsupported: ok\n");
    return 0;
}
