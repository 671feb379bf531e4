/* An unprivileged process (user nobody) gets its phantom page read-only:
 * through the daemon's socket (the runtime's way) and through the pinned
 * map; it can map it for reading, register its threads and read its own
 * counts, but it can neither map it writable, nor upgrade the mapping, nor
 * update the map with the bpf() system call. */
#include <errno.h>
#include <grp.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "phantom/connect.h"
#include "phtest.h"

#define NOBODY 65534

static void check_fd_read_only(int fd, const char *how)
{
    size_t len = (size_t)PVOMP_PHANTOM_PAGES * PVOMP_PHANTOM_PAGE_SIZE;
    const volatile struct pvomp_phantom_page *pg = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    PH_CHECK(pg != MAP_FAILED);
    PH_CHECK(pg[0].hdr.magic == PVOMP_PHANTOM_MAGIC);

    void *w = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int werr = errno;
    PH_CHECK(w == MAP_FAILED);
    int perr = mprotect((void *)pg, PVOMP_PHANTOM_PAGE_SIZE, PROT_READ | PROT_WRITE) ? errno : 0;
    PH_CHECK(perr != 0);

    uint32_t key = 1;
    struct pvomp_phantom_page *val = calloc(1, sizeof(*val));
    PH_CHECK(val != NULL);
    int uerr = bpf_map_update_elem(fd, &key, val, BPF_ANY) ? errno : 0;
    PH_CHECK(uerr != 0);
    free(val);
    printf("uid %d via %s: read-only mapping ok; writable mmap: %s; mprotect(WRITE): %s; "
           "bpf(MAP_UPDATE_ELEM): %s\n",
           (int)geteuid(), how, strerror(werr), strerror(perr), strerror(uerr));
    munmap((void *)pg, len);
}

int main(void)
{
    ph_start_daemon();
    void (*reg)(void) = ph_load_pvomp(); /* loaded while root; the probe is on the file */
    char pin[300];
    snprintf(pin, sizeof(pin), "%s/pages", ph_pin_dir());

    pid_t c = fork();
    PH_CHECK(c >= 0);
    if (c == 0) {
        PH_CHECK(setgroups(0, NULL) == 0);
        PH_CHECK(setgid(NOBODY) == 0 && setuid(NOBODY) == 0);
        PH_CHECK(geteuid() == NOBODY && getuid() == NOBODY);

        /* The runtime's way: the socket. */
        char why[300];
        uint32_t n = 0;
        int fd = pv_phantomd_request(pv_phantomd_socket_path(), PVOMP_PHANTOMD_OP_MAP, NULL, &n,
                                     why, sizeof(why));
        if (fd < 0)
            fprintf(stderr, "%s\n", why);
        PH_CHECK(fd >= 0 && n == PVOMP_PHANTOM_PAGES);
        check_fd_read_only(fd, "the daemon's socket");
        close(fd);

        /* The pinned map (mode 0666). */
        fd = bpf_obj_get(pin);
        if (fd < 0)
            fprintf(stderr, "bpf_obj_get(%s): %s\n", pin, strerror(errno));
        PH_CHECK(fd >= 0);
        check_fd_read_only(fd, "the pinned map");
        close(fd);

        /* Registering works unprivileged, and the process sees its own page. */
        reg();
        ph_proc_t *p = ph_find(getpid());
        PH_CHECK(p != NULL && p->threads == 1);
        printf("uid %d: registered, own page shows %u thread(s)\n", (int)geteuid(), p->threads);
        fflush(stdout);
        _exit(0);
    }
    int st;
    PH_CHECK(waitpid(c, &st, 0) == c);
    PH_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    printf("PASS\n");
    return 0;
}
