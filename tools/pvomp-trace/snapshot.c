/* pvomp-trace snapshot PID: ask a process tracing in ring mode for a
 * snapshot (SIGUSR2) and say where it went.
 *
 * The process writes snapshot N to NAME.N (NAME: its PVOMP_TRACE, expanded
 * as the runtime does, relative to its working directory), N one more than
 * any NAME.N already there, through NAME.N.part and a rename.  So: read its
 * environment, note the largest N present, send the signal, and wait until
 * a larger one appears (or the process is gone). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"


/* The value of `name` in /proc/PID/environ (malloc'd), or NULL. */
static char *env_of(const char *environ_buf, size_t len, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i < len;) {
        const char *e = environ_buf + i;
        size_t l = strnlen(e, len - i);
        if (l > nl && !strncmp(e, name, nl) && e[nl] == '=')
            return strndup(e + nl + 1, l - nl - 1);
        i += l + 1;
    }
    return NULL;
}

static char *read_environ(long pid, size_t *len)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/%ld/environ", pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += r;
        if (n == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* The rank as the runtime reads it (src/trace/control.c): Open MPI, PMI, PMIx, else 0. */
static long rank_of(const char *env, size_t len)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK" };
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        char *v = env_of(env, len, vars[i]), *end;
        long r = v && *v ? strtol(v, &end, 10) : -1;
        bool ok = v && *v && *end == 0 && r >= 0;
        free(v);
        if (ok)
            return r;
    }
    return 0;
}

/* PVOMP_TRACE with %p, %r and %% expanded, made absolute with the process's cwd. */
static bool expand(const char *pat, long pid, long rank, const char *cwd, char *out, size_t cap)
{
    size_t n = 0;
    if (pat[0] != '/')
        n = (size_t)snprintf(out, cap, "%s/", cwd);
    for (const char *s = pat; *s && n + 24 < cap; s++) {
        if (s[0] == '%' && s[1] == 'p')
            n += (size_t)snprintf(out + n, cap - n, "%ld", pid), s++;
        else if (s[0] == '%' && s[1] == 'r')
            n += (size_t)snprintf(out + n, cap - n, "%ld", rank), s++;
        else if (s[0] == '%' && s[1] == '%')
            out[n++] = '%', s++;
        else
            out[n++] = *s;
    }
    out[n] = 0;
    return n + 24 < cap;
}

/* The largest N of the files PATH.N. */
static unsigned long largest(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    size_t dl = (size_t)(slash - path), blen = strlen(slash + 1);
    unsigned long max = 0;
    memcpy(dir, path, dl ? dl : 1);
    dir[dl ? dl : 1] = 0;
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d));) {
        char *end;
        if (strncmp(de->d_name, slash + 1, blen) || de->d_name[blen] != '.' ||
            de->d_name[blen + 1] < '0' || de->d_name[blen + 1] > '9')
            continue;
        unsigned long v = strtoul(de->d_name + blen + 1, &end, 10);
        if (*end == 0 && v > max)
            max = v;
    }
    if (d)
        closedir(d);
    return max;
}

/* Whether process pid catches SIGUSR2 (SigCgt in /proc/PID/status): a
 * process that does not would be killed by it. */
static bool catches_usr2(long pid)
{
    char p[64], line[256];
    snprintf(p, sizeof p, "/proc/%ld/status", pid);
    FILE *f = fopen(p, "r");
    bool yes = false;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "SigCgt:", 7))
            yes = (strtoull(line + 7, NULL, 16) >> (SIGUSR2 - 1)) & 1;
    if (f)
        fclose(f);
    return yes;
}

int tr_cmd_snapshot(int argc, char **argv, FILE *out)
{
    char *end;
    long pid = argc == 1 ? strtol(argv[0], &end, 10) : 0;
    if (argc != 1 || *end || pid <= 0) {
        fprintf(stderr, "usage: pvomp-trace snapshot PID\n");
        return 1;
    }
    size_t len = 0;
    char *env = read_environ(pid, &len);
    if (!env) {
        fprintf(stderr, "pvomp-trace: snapshot: process %ld: %s\n", pid, strerror(errno));
        return 1;
    }
    char *pat = env_of(env, len, "PVOMP_TRACE"), *mode = env_of(env, len, "PVOMP_TRACE_MODE");
    long rank = rank_of(env, len);
    free(env);
    int status = 1;
    char cwd[PATH_MAX], link[64], path[PATH_MAX], snap[PATH_MAX + 32];
    snprintf(link, sizeof link, "/proc/%ld/cwd", pid);
    ssize_t cl = readlink(link, cwd, sizeof cwd - 1);
    if (!pat || !*pat) {
        fprintf(stderr, "pvomp-trace: snapshot: process %ld does not trace (no PVOMP_TRACE)\n",
                pid);
    } else if (!mode || strcmp(mode, "ring")) {
        fprintf(stderr, "pvomp-trace: snapshot: process %ld does not trace in ring mode "
                        "(PVOMP_TRACE_MODE=ring); its log is %s\n", pid, pat);
    } else if (!catches_usr2(pid)) {
        fprintf(stderr, "pvomp-trace: snapshot: process %ld does not catch SIGUSR2 (its ring-mode "
                        "recorder did not start, or the program took the signal); not sent\n",
                pid);
    } else if (cl < 0) {
        fprintf(stderr, "pvomp-trace: snapshot: process %ld: %s\n", pid, strerror(errno));
    } else if (cwd[cl] = 0, !expand(pat, pid, rank, cwd, path, sizeof path)) {
        fprintf(stderr, "pvomp-trace: snapshot: PVOMP_TRACE=%s: name too long\n", pat);
    } else {
        unsigned long before = largest(path);
        if (kill((pid_t)pid, SIGUSR2) != 0) {
            fprintf(stderr, "pvomp-trace: snapshot: process %ld: %s\n", pid, strerror(errno));
        } else {
            /* Up to a minute: a process under load writes a 64 MB ring slowly. */
            struct timespec t = { 0, 20000000 };
            for (int i = 0; i < 3000 && status; i++) {
                unsigned long now = largest(path);
                if (now > before) {
                    snprintf(snap, sizeof snap, "%s.%lu", path, now);
                    fprintf(out, "snapshot %lu of process %ld written to %s\n", now, pid, snap);
                    status = 0;
                } else if (kill((pid_t)pid, 0) != 0) {
                    fprintf(stderr, "pvomp-trace: snapshot: process %ld ended before it wrote "
                                    "a snapshot\n", pid);
                    break;
                } else {
                    nanosleep(&t, NULL);
                }
            }
            if (status && kill((pid_t)pid, 0) == 0)
                fprintf(stderr, "pvomp-trace: snapshot: no %s.N appeared within a minute\n",
                        path);
        }
    }
    free(pat);
    free(mode);
    return status;
}
