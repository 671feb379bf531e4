/* The daemon's unix socket: each client gets the phantom map's descriptor
 * (SCM_RIGHTS).  A REGISTER request names the pvomp library the client has
 * mapped; the daemon checks that the kernel's view of the peer (SO_PEERCRED,
 * /proc/<pid>/maps) agrees and probes exactly the file the peer mapped,
 * through /proc/<pid>/map_files. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "phantomd.h"
#include "pvomp/phantom.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

bool pvd_socket_alive(const char *path)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof(a.sun_path))
        return false;
    strcpy(a.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    bool ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
    close(fd);
    return ok;
}

/* The file the process maps as `library`, as a /proc/<pid>/map_files path. */
static bool find_mapping(pid_t pid, const char *library, char *out, size_t len)
{
    char path[64], line[PATH_MAX + 256];
    snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    bool found = false;
    while (!found && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi, ino;
        int name_at = 0;
        if (sscanf(line, "%lx-%lx %*s %*s %*s %lu %n", &lo, &hi, &ino, &name_at) < 3 || !name_at ||
            ino == 0)
            continue;
        char *name = line + name_at;
        name[strcspn(name, "\n")] = 0;
        char *del = strstr(name, " (deleted)");
        if (del && del[10] == 0)
            *del = 0;
        if (strcmp(name, library) == 0) {
            snprintf(out, len, "/proc/%d/map_files/%lx-%lx", (int)pid, lo, hi);
            found = true;
        }
    }
    fclose(f);
    return found;
}

static int recv_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len) {
        ssize_t n = recv(fd, p, len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void reply(int conn, const struct pvomp_phantomd_reply *rep, int map_fd)
{
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } ctl;
    struct iovec iov = { (void *)rep, sizeof(*rep) };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (map_fd >= 0) {
        memset(&ctl, 0, sizeof(ctl));
        msg.msg_control = ctl.buf;
        msg.msg_controllen = sizeof(ctl.buf);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &map_fd, sizeof(int));
    }
    /* A short write only loses this client; the next recv of the client fails. */
    if (sendmsg(conn, &msg, MSG_NOSIGNAL) < 0 && pvd_verbose)
        pvd_info("reply failed: %s", strerror(errno));
}

static void serve_one(struct pvd_tracker *t, int conn)
{
    struct timeval tv = { .tv_sec = 2 };
    setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(conn, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));

    struct pvomp_phantomd_reply rep = { .version = PVOMP_PHANTOM_VERSION };
    struct pvomp_phantomd_req *req = malloc(sizeof(*req));
    struct ucred cred;
    socklen_t cl = sizeof(cred);
    if (!req || recv_all(conn, req, sizeof(*req)) ||
        getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &cl)) {
        free(req);
        return;
    }
    req->library[sizeof(req->library) - 1] = 0;
    if (req->magic != PVOMP_PHANTOMD_REQ_MAGIC || req->version != PVOMP_PHANTOM_VERSION) {
        rep.status = EPROTO;
        snprintf(rep.message, sizeof(rep.message),
                 "protocol mismatch (client page version %u, daemon %u)", req->version,
                 PVOMP_PHANTOM_VERSION);
    } else if (req->op == PVOMP_PHANTOMD_OP_REGISTER) {
        char mapped[96], err[300];
        if (!find_mapping(cred.pid, req->library, mapped, sizeof(mapped))) {
            rep.status = ENOENT;
            snprintf(rep.message, sizeof(rep.message), "process %d does not map %.160s",
                     (int)cred.pid, req->library);
        } else if (pvd_tracker_probe(t, mapped, req->library, err, sizeof(err))) {
            rep.status = EIO;
            snprintf(rep.message, sizeof(rep.message), "%.230s", err);
        } else if (pvd_verbose) {
            pvd_info("process %d (uid %d) registers with %s", (int)cred.pid, (int)cred.uid,
                     req->library);
        }
    } else if (req->op != PVOMP_PHANTOMD_OP_MAP) {
        rep.status = EINVAL;
        snprintf(rep.message, sizeof(rep.message), "unknown request %u", req->op);
    }
    free(req);
    if (rep.status)
        pvd_info("refused process %d: %s", (int)cred.pid, rep.message);
    rep.nr_pages = pvd_tracker_nr_pages(t);
    reply(conn, &rep, rep.status ? -1 : pvd_tracker_map_fd(t));
}

static int make_socket(const char *path)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof(a.sun_path)) {
        pvd_error("socket path %s is too long", path);
        return -1;
    }
    strcpy(a.sun_path, path);
    /* The socket's directory (normally /run/pvomp; systemd creates it too). */
    char dir[sizeof(a.sun_path)];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        if (mkdir(dir, 0755) && errno != EEXIST) {
            pvd_error("cannot create %s: %s", dir, strerror(errno));
            return -1;
        }
    }
    unlink(path); /* the caller made sure no daemon answers there */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || chmod(path, 0666) ||
        listen(fd, 64)) {
        pvd_error("cannot listen on %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

int pvd_listen(const char *path)
{
    return make_socket(path);
}

int pvd_serve(struct pvd_tracker *t, const struct pvd_options *o, int lfd)
{
    struct sigaction sa = { .sa_handler = on_signal };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* The stop signals are only delivered inside ppoll: no lost wake-up. */
    sigset_t block, during;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &during);
    sigdelset(&during, SIGTERM);
    sigdelset(&during, SIGINT);
    sigdelset(&during, SIGHUP);

    while (!stop_requested) {
        struct pollfd p = { .fd = lfd, .events = POLLIN };
        int n = ppoll(&p, 1, NULL, &during);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            pvd_error("poll: %s", strerror(errno));
            break;
        }
        int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (conn < 0)
            continue;
        serve_one(t, conn);
        close(conn);
    }
    close(lfd);
    unlink(o->socket_path);
    pvd_info("stopping");
    return 0;
}
