/* Run this test program again as a child with a chosen environment and
 * collect its stdout, stderr and exit status.  The child gets the parent's
 * environment without any OMP_* / GOMP_* variable, plus the case's ones. */
#ifndef PVOMP_CHILD_RUN_H
#define PVOMP_CHILD_RUN_H

#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct child_result {
    char out[65536];
    char err[65536];
    int status; /* raw wait status */
};

static inline void child_read_all(int fd_out, int fd_err, struct child_result *r)
{
    size_t no = 0, ne = 0;
    struct pollfd p[2] = {{fd_out, POLLIN, 0}, {fd_err, POLLIN, 0}};
    int open_fds = 2;
    while (open_fds) {
        if (poll(p, 2, -1) < 0)
            break;
        for (int i = 0; i < 2; i++) {
            if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
                continue;
            char *buf = i ? r->err : r->out;
            size_t *n = i ? &ne : &no;
            char tmp[4096];
            ssize_t k = read(p[i].fd, tmp, sizeof tmp);
            if (k <= 0) {
                close(p[i].fd);
                p[i].fd = -1;
                open_fds--;
                continue;
            }
            size_t room = sizeof r->out - 1 - *n;
            memcpy(buf + *n, tmp, (size_t)k < room ? (size_t)k : room);
            *n += (size_t)k < room ? (size_t)k : room;
        }
    }
    r->out[no] = '\0';
    r->err[ne] = '\0';
}

/* Run `self` with argv {self, arg, NULL} and environment: parent's minus
 * OMP_* and GOMP_*, plus `vars` (NULL-terminated "NAME=value" strings). */
static inline void child_run(const char *self, const char *arg, const char *const *vars,
                      struct child_result *r)
{
    int po[2], pe[2];
    if (pipe(po) || pipe(pe)) {
        perror("pipe");
        exit(2);
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        size_t n = 0;
        for (char **e = environ; *e; e++)
            n++;
        for (const char *const *v = vars; v && *v; v++)
            n++;
        char **env = calloc(n + 1, sizeof *env);
        size_t k = 0;
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "OMP_", 4) != 0 && strncmp(*e, "GOMP_", 5) != 0)
                env[k++] = *e;
        for (const char *const *v = vars; v && *v; v++)
            env[k++] = (char *)*v;
        env[k] = NULL;
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        close(po[1]);
        close(pe[1]);
        char *argv[] = {(char *)self, (char *)arg, NULL};
        execve(self, argv, env);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    child_read_all(po[0], pe[0], r);
    waitpid(pid, &r->status, 0);
}

/* Count lines of `text` that contain `needle`. */
static inline int count_lines_with(const char *text, const char *needle)
{
    int n = 0;
    const char *line = text;
    while (*line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *copy = strndup(line, len);
        if (strstr(copy, needle))
            n++;
        free(copy);
        if (!nl)
            break;
        line = nl + 1;
    }
    return n;
}

/* The value after "key=" on a line of its own in `text` (static buffer). */
static inline const char *value_of(const char *text, const char *key)
{
    static char val[1024];
    size_t kl = strlen(key);
    const char *line = text;
    while (*line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len > kl && strncmp(line, key, kl) == 0 && line[kl] == '=') {
            size_t vl = len - kl - 1 < sizeof val - 1 ? len - kl - 1 : sizeof val - 1;
            memcpy(val, line + kl + 1, vl);
            val[vl] = '\0';
            return val;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    return NULL;
}

#endif
