/* Client side of the pvomp-phantomd socket protocol. */
#include "phantom/connect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "pvomp/phantom.h"

const char *pv_phantomd_socket_path(void)
{
    const char *p = getenv(PVOMP_PHANTOMD_SOCKET_ENV);
    return p && *p ? p : PVOMP_PHANTOMD_SOCKET;
}

static int send_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Receive the reply and the descriptor that rides on its first byte. */
static int recv_reply(int fd, struct pvomp_phantomd_reply *rep, int *map_fd)
{
    char *p = (char *)rep;
    size_t got = 0;
    *map_fd = -1;
    while (got < sizeof(*rep)) {
        union {
            struct cmsghdr h;
            char buf[CMSG_SPACE(sizeof(int))];
        } ctl;
        struct iovec iov = { p + got, sizeof(*rep) - got };
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                              .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
        ssize_t n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && *map_fd < 0)
                memcpy(map_fd, CMSG_DATA(c), sizeof(int));
        }
        got += (size_t)n;
    }
    return 0;
}

int pv_phantomd_request(const char *socket_path, uint32_t op, const char *library,
                        uint32_t *nr_pages, char *why, size_t why_len)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    if (strlen(socket_path) >= sizeof(addr.sun_path)) {
        snprintf(why, why_len, "socket path %s is too long", socket_path);
        return -1;
    }
    strcpy(addr.sun_path, socket_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(why, why_len, "socket: %s", strerror(errno));
        return -1;
    }
    /* A wedged daemon must not hang the program's start-up. */
    struct timeval tv = { .tv_sec = 5 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
        snprintf(why, why_len, "pvomp-phantomd is not running (cannot connect to %s: %s)",
                 socket_path, strerror(errno));
        close(fd);
        return -1;
    }
    struct pvomp_phantomd_req *req = calloc(1, sizeof(*req));
    if (!req) {
        snprintf(why, why_len, "out of memory");
        close(fd);
        return -1;
    }
    req->magic = PVOMP_PHANTOMD_REQ_MAGIC;
    req->version = PVOMP_PHANTOM_VERSION;
    req->op = op;
    if (library)
        snprintf(req->library, sizeof(req->library), "%s", library);
    struct pvomp_phantomd_reply rep;
    int map_fd = -1;
    int rc = send_all(fd, req, sizeof(*req));
    free(req);
    if (rc == 0)
        rc = recv_reply(fd, &rep, &map_fd);
    close(fd);
    if (rc != 0) {
        snprintf(why, why_len, "pvomp-phantomd at %s closed the connection", socket_path);
        if (map_fd >= 0)
            close(map_fd);
        return -1;
    }
    rep.message[sizeof(rep.message) - 1] = 0;
    if (rep.status != 0 || map_fd < 0) {
        snprintf(why, why_len, "pvomp-phantomd: %s",
                 rep.message[0] ? rep.message : "no map descriptor in the reply");
        if (map_fd >= 0)
            close(map_fd);
        return -1;
    }
    if (rep.version != PVOMP_PHANTOM_VERSION || rep.nr_pages == 0) {
        snprintf(why, why_len, "pvomp-phantomd speaks page version %u, this pvomp %u",
                 rep.version, PVOMP_PHANTOM_VERSION);
        close(map_fd);
        return -1;
    }
    *nr_pages = rep.nr_pages;
    return map_fd;
}

void *pv_phantom_map_pages(int map_fd, uint32_t nr_pages)
{
    void *p = mmap(NULL, (size_t)nr_pages * PVOMP_PHANTOM_PAGE_SIZE, PROT_READ, MAP_SHARED,
                   map_fd, 0);
    return p == MAP_FAILED ? NULL : p;
}
