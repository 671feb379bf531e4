/* pvomp-phantomd: the phantom tracker's daemon.
 *
 *   pvomp-phantomd [--foreground] [options]   load the tracker and serve
 *   pvomp-phantomd status [--watch S]         live phantom counts per process
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "phantom/connect.h"
#include "phantomd.h"
#include "pvomp/phantom.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: pvomp-phantomd [options]        load the eBPF phantom tracker (root)\n"
            "       pvomp-phantomd status [--watch S]  show live phantom counts per process\n"
            "options:\n"
            "  -f, --foreground      stay in the foreground, log to stderr\n"
            "  -s, --socket PATH     unix socket for pvomp processes (default %s,\n"
            "                        or $%s)\n"
            "  -p, --pin DIR         pin the phantom map in DIR (default %s)\n"
            "      --no-pin          do not pin the map\n"
            "  -l, --lib PATH        put the registration uprobe on this pvomp library now\n"
            "                        (repeatable; clients ask for their own library anyway)\n"
            "      --period-us N     timer period for vCPU phantoms and the average (1000)\n"
            "      --avg-shift N     average weight 1/2^N per tick (4)\n"
            "      --no-vcpu         do not track vCPU phantoms\n"
            "  -v, --verbose         libbpf and per-client messages\n",
            PVOMP_PHANTOMD_SOCKET, PVOMP_PHANTOMD_SOCKET_ENV, PVD_DEFAULT_PIN_DIR);
}

static int parse(int argc, char **argv, struct pvd_options *o)
{
    enum { OPT_NO_PIN = 256, OPT_PERIOD, OPT_SHIFT, OPT_NO_VCPU };
    static const struct option opts[] = {
        { "foreground", no_argument, NULL, 'f' },
        { "socket", required_argument, NULL, 's' },
        { "pin", required_argument, NULL, 'p' },
        { "no-pin", no_argument, NULL, OPT_NO_PIN },
        { "lib", required_argument, NULL, 'l' },
        { "period-us", required_argument, NULL, OPT_PERIOD },
        { "avg-shift", required_argument, NULL, OPT_SHIFT },
        { "no-vcpu", no_argument, NULL, OPT_NO_VCPU },
        { "verbose", no_argument, NULL, 'v' },
        { "help", no_argument, NULL, 'h' },
        { 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "fs:p:l:vh", opts, NULL)) != -1) {
        switch (c) {
        case 'f': o->foreground = true; break;
        case 's': o->socket_path = optarg; break;
        case 'p': o->pin_dir = optarg; break;
        case OPT_NO_PIN: o->pin_dir = NULL; break;
        case 'l':
            if (o->nlibs == PVD_MAX_LIBS) {
                fprintf(stderr, "pvomp-phantomd: too many --lib\n");
                return 2;
            }
            o->libs[o->nlibs++] = optarg;
            break;
        case OPT_PERIOD: o->period_us = (unsigned)strtoul(optarg, NULL, 10); break;
        case OPT_SHIFT: o->avg_shift = (unsigned)strtoul(optarg, NULL, 10); break;
        case OPT_NO_VCPU: o->vcpu = false; break;
        case 'v': o->verbose = true; break;
        case 'h': usage(stdout); exit(0);
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "pvomp-phantomd: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    if (o->period_us < 100 || o->period_us > 1000000) {
        fprintf(stderr, "pvomp-phantomd: --period-us must be within 100..1000000\n");
        return 2;
    }
    if (o->avg_shift < 1 || o->avg_shift > 12) {
        fprintf(stderr, "pvomp-phantomd: --avg-shift must be within 1..12\n");
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "status") == 0)
        return pvd_status_main(argc - 1, argv + 1);

    struct pvd_options o = {
        .vcpu = true,
        .socket_path = pv_phantomd_socket_path(),
        .pin_dir = PVD_DEFAULT_PIN_DIR,
        .period_us = 1000,
        .avg_shift = 4,
    };
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    pvd_verbose = o.verbose;
    if (geteuid() != 0) {
        fprintf(stderr, "pvomp-phantomd: must run as root: it loads eBPF programs "
                        "(try: sudo pvomp-phantomd, or systemctl start pvomp-phantomd)\n");
        return 1;
    }
    if (pvd_socket_alive(o.socket_path)) {
        fprintf(stderr, "pvomp-phantomd: another pvomp-phantomd already answers on %s\n",
                o.socket_path);
        return 1;
    }
    char err[512];
    struct pvd_tracker *t = pvd_tracker_start(&o, err, sizeof(err));
    if (!t) {
        fprintf(stderr, "pvomp-phantomd: %s\n", err);
        return 1;
    }
    int lfd = pvd_listen(o.socket_path);
    if (lfd < 0) {
        pvd_tracker_stop(t);
        return 1;
    }
    pvd_info("serving pvomp processes on %s", o.socket_path);
    if (!o.foreground) {
        /* Detach only now, so that start-up errors reach the caller and the
         * socket answers as soon as the command returns. */
        if (daemon(0, 0)) {
            fprintf(stderr, "pvomp-phantomd: cannot detach: %s\n", strerror(errno));
            pvd_tracker_stop(t);
            return 1;
        }
        pvd_log_to_syslog();
    }
    rc = pvd_serve(t, &o, lfd);
    pvd_tracker_stop(t);
    return rc;
}
