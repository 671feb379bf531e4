/* pvomp-phantomd: loads the eBPF phantom tracker (bpf/phantom.bpf.c), keeps
 * it alive, and hands pvomp processes a read-only view of their phantom page
 * over a unix socket (protocol: include/pvomp/phantom.h). */
#ifndef PVD_PHANTOMD_H
#define PVD_PHANTOMD_H

#include <stdbool.h>
#include <stddef.h>

#define PVD_MAX_LIBS 32
#define PVD_DEFAULT_PIN_DIR "/sys/fs/bpf/pvomp"

struct pvd_options {
    bool foreground;
    bool verbose;
    bool vcpu;                 /* track vCPU phantoms (KVM steal time) */
    const char *socket_path;
    const char *pin_dir;       /* NULL: do not pin */
    unsigned period_us;        /* timer period */
    unsigned avg_shift;        /* EWMA weight 1/2^shift per tick */
    const char *libs[PVD_MAX_LIBS]; /* libraries to probe at start */
    int nlibs;
};

/* log.c: stderr in the foreground, syslog otherwise. */
void pvd_log_to_syslog(void);
__attribute__((format(printf, 1, 2))) void pvd_info(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void pvd_error(const char *fmt, ...);
extern bool pvd_verbose;

/* tracker.c */
struct pvd_tracker;
struct pvd_tracker *pvd_tracker_start(const struct pvd_options *o, char *err, size_t len);
int pvd_tracker_map_fd(const struct pvd_tracker *t);
unsigned pvd_tracker_nr_pages(const struct pvd_tracker *t);
/* Put the registration uprobe on a library (once per file); `name` (may be
 * NULL) is what the log calls it. */
int pvd_tracker_probe(struct pvd_tracker *t, const char *path, const char *name, char *err,
                      size_t len);
void pvd_tracker_stop(struct pvd_tracker *t);

/* server.c: listen on the socket (-1 on failure, message logged), then serve
 * clients until SIGTERM/SIGINT/SIGHUP; pvd_serve returns the exit status. */
int pvd_listen(const char *path);
int pvd_serve(struct pvd_tracker *t, const struct pvd_options *o, int listen_fd);
/* True when a daemon answers on this socket. */
bool pvd_socket_alive(const char *path);

/* status.c: `pvomp-phantomd status` */
int pvd_status_main(int argc, char **argv);

#endif
