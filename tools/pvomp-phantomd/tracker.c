/* Loading, attaching and pinning the phantom tracker. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "phantom.skel.h"
#include "phantomd.h"
#include "pvomp/phantom.h"

#define BPF_FS_MAGIC_NUMBER 0xcafe4a11

struct lib_probe {
    dev_t dev;
    ino_t ino;
    struct bpf_link *link;
};

struct pvd_tracker {
    struct phantom_bpf *skel;
    struct bpf_link *links[4];
    struct lib_probe libs[PVD_MAX_LIBS];
    int nlibs;
    char pin_dir[PATH_MAX];
    bool pinned;
};

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
    if (level != LIBBPF_WARN && !pvd_verbose)
        return 0;
    return vfprintf(stderr, fmt, ap);
}

/* Where the KVM steal-time record of a CPU lies relative to its runqueue:
 * both are per-CPU variables, so their distance is the same on every CPU and
 * the kernel's BTF (DATASEC .data..percpu) gives it. */
static bool steal_time_offset(long long *delta, char *why, size_t len)
{
    struct btf *btf = btf__load_vmlinux_btf();
    if (!btf) {
        snprintf(why, len, "cannot read the kernel's BTF");
        return false;
    }
    long long rq = -1, st = -1;
    int id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
    if (id > 0) {
        const struct btf_type *sec = btf__type_by_id(btf, id);
        const struct btf_var_secinfo *v = btf_var_secinfos(sec);
        for (unsigned i = 0; i < btf_vlen(sec); i++, v++) {
            const char *name = btf__name_by_offset(btf, btf__type_by_id(btf, v->type)->name_off);
            if (strcmp(name, "runqueues") == 0)
                rq = v->offset;
            else if (strcmp(name, "steal_time") == 0)
                st = v->offset;
        }
    }
    bool have_type = btf__find_by_name_kind(btf, "kvm_steal_time", BTF_KIND_STRUCT) > 0;
    btf__free(btf);
    if (rq < 0 || st < 0 || !have_type) {
        snprintf(why, len, "the kernel's BTF has no per-CPU KVM steal time (not a KVM guest kernel)");
        return false;
    }
    *delta = st - rq;
    return true;
}

static int init_pages(int fd, unsigned ncpus, unsigned flags, unsigned period_us)
{
    struct pvomp_phantom_page *pg = calloc(1, sizeof(*pg));
    if (!pg)
        return -ENOMEM;
    for (uint32_t i = 0; i < PVOMP_PHANTOM_PAGES; i++) {
        memset(pg, 0, sizeof(*pg));
        pg->hdr.magic = PVOMP_PHANTOM_MAGIC;
        pg->hdr.version = PVOMP_PHANTOM_VERSION;
        pg->hdr.kind = i ? PVOMP_PHANTOM_KIND_PROCESS : PVOMP_PHANTOM_KIND_GLOBAL;
        if (i == 0) {
            pg->g.nr_pages = PVOMP_PHANTOM_PAGES;
            pg->g.nr_cpus = ncpus;
            pg->g.flags = flags;
            pg->g.period_us = period_us;
        }
        if (bpf_map_update_elem(fd, &i, pg, BPF_ANY)) {
            int e = -errno;
            free(pg);
            return e;
        }
    }
    free(pg);
    /* Frozen: no writable mapping and no syscall update from anyone, ever;
     * the BPF programs keep writing. */
    return bpf_map_freeze(fd) ? -errno : 0;
}

static int ensure_bpffs(const char *dir)
{
    struct statfs sfs;
    if (strncmp(dir, "/sys/fs/bpf", 11) != 0)
        return 0;
    if (statfs("/sys/fs/bpf", &sfs) == 0 && (unsigned long)sfs.f_type == BPF_FS_MAGIC_NUMBER)
        return 0;
    if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0755"))
        return -errno;
    return 0;
}

static void unpin(struct pvd_tracker *t)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof(p), "%s/pages", t->pin_dir);
    unlink(p);
    snprintf(p, sizeof(p), "%s/vcpu_simulate", t->pin_dir);
    unlink(p);
    rmdir(t->pin_dir);
}

static int pin(struct pvd_tracker *t, const char *dir, char *err, size_t len)
{
    snprintf(t->pin_dir, sizeof(t->pin_dir), "%s", dir);
    int e = ensure_bpffs(dir);
    if (e) {
        snprintf(err, len, "cannot mount bpffs on /sys/fs/bpf: %s", strerror(-e));
        return e;
    }
    if (mkdir(dir, 0755) && errno != EEXIST) {
        snprintf(err, len, "cannot create %s: %s", dir, strerror(errno));
        return -errno;
    }
    unpin(t); /* stale pins of a daemon that died (the caller checked none runs) */
    mkdir(dir, 0755);
    char p[PATH_MAX + 32];
    snprintf(p, sizeof(p), "%s/pages", dir);
    if (bpf_map__pin(t->skel->maps.pages, p) || chmod(p, 0666)) {
        snprintf(err, len, "cannot pin the phantom map at %s: %s", p, strerror(errno));
        return -errno;
    }
    snprintf(p, sizeof(p), "%s/vcpu_simulate", dir);
    if (bpf_map__pin(t->skel->maps.vcpu_simulate, p) || chmod(p, 0600)) {
        snprintf(err, len, "cannot pin %s: %s", p, strerror(errno));
        return -errno;
    }
    t->pinned = true;
    return 0;
}

static const char *load_hint(int e)
{
    switch (e) {
    case EPERM:
        return " (the kernel refused: needs root with CAP_BPF/CAP_PERFMON, and no lockdown)";
    case EACCES:
        return " (the verifier rejected a program; run with --verbose for its log)";
    case ENOSYS:
        return " (this kernel has no bpf() system call)";
    case EINVAL:
    case ENOTSUP:
        return " (this kernel lacks a feature the tracker needs: tp_btf, BPF timers, "
               "bpf_loop or mmapable arrays; run with --verbose for the verifier's words)";
    default:
        return "";
    }
}

struct pvd_tracker *pvd_tracker_start(const struct pvd_options *o, char *err, size_t len)
{
    libbpf_set_print(libbpf_print);
    if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
        snprintf(err, len, "BTF is unavailable: /sys/kernel/btf/vmlinux is missing (the kernel "
                 "needs CONFIG_DEBUG_INFO_BTF=y); the phantom tracker cannot run here");
        return NULL;
    }
    struct pvd_tracker *t = calloc(1, sizeof(*t));
    if (!t) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    t->skel = phantom_bpf__open();
    if (!t->skel) {
        snprintf(err, len, "cannot open the eBPF object: %s", strerror(errno));
        free(t);
        return NULL;
    }
    int ncpus = libbpf_num_possible_cpus();
    if (ncpus <= 0)
        ncpus = 1;
    if (ncpus > (int)PVOMP_PHANTOM_MAX_CPUS)
        ncpus = PVOMP_PHANTOM_MAX_CPUS;
    long long delta = 0;
    char why[200] = "";
    bool vcpu = o->vcpu && steal_time_offset(&delta, why, sizeof(why));
    if (o->vcpu && !vcpu)
        pvd_info("vCPU phantoms are not tracked: %s", why);
    t->skel->rodata->steal_offset = (uint64_t)delta;
    t->skel->rodata->vcpu_tracking = vcpu;
    t->skel->rodata->nr_cpus = (uint32_t)ncpus;
    t->skel->rodata->period_ns = (uint64_t)o->period_us * 1000;
    t->skel->rodata->avg_shift = o->avg_shift;
    /* Registered threads are indexed by tid. */
    long pid_max = 32768;
    FILE *pm = fopen("/proc/sys/kernel/pid_max", "re");
    if (pm) {
        if (fscanf(pm, "%ld", &pid_max) != 1)
            pid_max = 32768;
        fclose(pm);
    }
    if (pid_max < 1024)
        pid_max = 1024;
    bpf_map__set_max_entries(t->skel->maps.threads, (uint32_t)pid_max);

    int e = phantom_bpf__load(t->skel);
    if (e) {
        e = -e;
        snprintf(err, len, "cannot load the eBPF phantom tracker: %s%s", strerror(e), load_hint(e));
        goto fail;
    }
    int map_fd = bpf_map__fd(t->skel->maps.pages);
    e = init_pages(map_fd, (unsigned)ncpus, vcpu ? PVOMP_PHANTOM_F_VCPU : 0, o->period_us);
    if (e) {
        snprintf(err, len, "cannot initialise the phantom map: %s", strerror(-e));
        goto fail;
    }
    struct bpf_program *progs[4] = { t->skel->progs.phantom_switch, t->skel->progs.phantom_wakeup,
                                     t->skel->progs.phantom_exit, t->skel->progs.phantom_exec };
    for (int i = 0; i < 4; i++) {
        t->links[i] = bpf_program__attach(progs[i]);
        if (!t->links[i]) {
            e = errno;
            snprintf(err, len, "cannot attach %s: %s%s", bpf_program__name(progs[i]), strerror(e),
                     load_hint(e));
            goto fail;
        }
    }
    LIBBPF_OPTS(bpf_test_run_opts, run);
    e = bpf_prog_test_run_opts(bpf_program__fd(t->skel->progs.phantom_start_timer), &run);
    if (e || run.retval) {
        snprintf(err, len, "cannot start the tracker's BPF timer: %s (step %u)",
                 e ? strerror(errno) : "refused", run.retval);
        goto fail;
    }
    if (o->pin_dir && pin(t, o->pin_dir, err, len))
        goto fail;
    pvd_info("tracker loaded: %d CPUs, %u us ticks, vCPU phantoms %s%s%s", ncpus, o->period_us,
             vcpu ? "tracked (KVM steal time)" : "not tracked", t->pinned ? ", map pinned at " : "",
             t->pinned ? t->pin_dir : "");
    for (int i = 0; i < o->nlibs; i++) {
        if (pvd_tracker_probe(t, o->libs[i], NULL, err, len))
            goto fail;
    }
    return t;
fail:
    pvd_tracker_stop(t);
    return NULL;
}

int pvd_tracker_map_fd(const struct pvd_tracker *t)
{
    return bpf_map__fd(t->skel->maps.pages);
}

unsigned pvd_tracker_nr_pages(const struct pvd_tracker *t)
{
    (void)t;
    return PVOMP_PHANTOM_PAGES;
}

int pvd_tracker_probe(struct pvd_tracker *t, const char *path, const char *name, char *err,
                      size_t len)
{
    struct stat st;
    if (stat(path, &st)) {
        snprintf(err, len, "cannot probe %s: %s", path, strerror(errno));
        return -1;
    }
    for (int i = 0; i < t->nlibs; i++) {
        if (t->libs[i].dev == st.st_dev && t->libs[i].ino == st.st_ino)
            return 0;
    }
    if (t->nlibs == PVD_MAX_LIBS) {
        snprintf(err, len, "cannot probe %s: already probing %d libraries (restart the daemon)",
                 path, PVD_MAX_LIBS);
        return -1;
    }
    LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = PVOMP_PHANTOM_REGISTER_SYMBOL);
    struct bpf_link *l =
        bpf_program__attach_uprobe_opts(t->skel->progs.phantom_register, -1, path, 0, &uo);
    if (!l) {
        int e = errno;
        snprintf(err, len, "cannot put the registration uprobe on %s (%s): %s",
                 path, PVOMP_PHANTOM_REGISTER_SYMBOL, strerror(e));
        return -1;
    }
    t->libs[t->nlibs++] = (struct lib_probe){ st.st_dev, st.st_ino, l };
    pvd_info("probing %s%s%s%s", name ? name : path, name ? " (" : "", name ? path : "",
             name ? ")" : "");
    return 0;
}

void pvd_tracker_stop(struct pvd_tracker *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nlibs; i++)
        bpf_link__destroy(t->libs[i].link);
    for (int i = 0; i < 4; i++)
        bpf_link__destroy(t->links[i]);
    if (t->pinned)
        unpin(t);
    phantom_bpf__destroy(t->skel);
    free(t);
}
