/* The Linux sysfs topology (/sys/devices/system/{cpu,node}): the places of
 * the abstract names threads, cores, sockets, ll_caches and numa_domains,
 * and the default place list.  See affinity_internal.h for the parts. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/affinity_internal.h"

const char *pv_affinity_sysfs_root = "/sys/devices/system";

/* ------------------------------------------------------------ sysfs */

/* Read a CPU list file ("0-3,8,10-11") into `out` (not cleared first). */
static bool read_cpulist(const char *path, cpu_set_t *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[4096];
    bool ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (!ok)
        return false;
    const char *p = line;
    while (*p && *p != '\n') {
        char *end;
        unsigned long first = strtoul(p, &end, 10), last;
        if (end == p)
            return false;
        p = end;
        last = first;
        if (*p == '-') {
            last = strtoul(p + 1, &end, 10);
            if (end == p + 1 || last < first)
                return false;
            p = end;
        }
        for (unsigned long c = first; c <= last && c < pv_set_max; c++)
            CPU_SET_S(c, pv_set_bytes, out);
        if (*p == ',')
            p++;
    }
    return true;
}

static bool read_cpu_file(unsigned cpu, const char *file, cpu_set_t *out)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cpu/cpu%u/%s", pv_affinity_sysfs_root, cpu, file);
    return read_cpulist(path, out);
}

static long read_long(const char *path)
{
    FILE *f = fopen(path, "r");
    long v = -1;
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* The CPUs sharing `cpu`'s core, package, or last-level cache. */

static void group_of(unsigned cpu, enum level level, cpu_set_t *out)
{
    CPU_ZERO_S(pv_set_bytes, out);
    bool ok = false;
    if (level == L_CORES || level == L_THREADS) {
        ok = read_cpu_file(cpu, "topology/thread_siblings_list", out) ||
             read_cpu_file(cpu, "topology/core_cpus_list", out);
    } else if (level == L_SOCKETS) {
        ok = read_cpu_file(cpu, "topology/package_cpus_list", out) ||
             read_cpu_file(cpu, "topology/core_siblings_list", out);
    } else if (level == L_LLC) {
        char path[512];
        int best = -1;
        long best_level = -1;
        for (int i = 0; i < 32; i++) {
            snprintf(path, sizeof path, "%s/cpu/cpu%u/cache/index%d/level",
                     pv_affinity_sysfs_root, cpu, i);
            long lv = read_long(path);
            if (lv < 0) {
                if (access(path, F_OK) != 0)
                    break;
                continue;
            }
            if (lv >= best_level) {
                best_level = lv;
                best = i;
            }
        }
        if (best >= 0) {
            char file[64];
            snprintf(file, sizeof file, "cache/index%d/shared_cpu_list", best);
            ok = read_cpu_file(cpu, file, out);
        }
        if (!ok) { /* no cache information: a package is the next best guess */
            group_of(cpu, L_SOCKETS, out);
            return;
        }
    }
    if (!ok && level == L_SOCKETS) {
        memcpy(out, pv_proc_mask, pv_set_bytes); /* one package */
        return;
    }
    CPU_SET_S(cpu, pv_set_bytes, out); /* missing files: the CPU stands alone */
}

static void push_if_nonempty(struct plist *l, const cpu_set_t *s, unsigned long count)
{
    if (!pv_cpuset_empty(s) && l->n < count)
        pv_plist_push(l, pv_cpuset_dup(s));
}

static void build_numa(struct plist *l, cpu_set_t *left, unsigned long count)
{
    char path[512];
    cpu_set_t *nodes = pv_cpuset_new(), *s = pv_cpuset_new();
    snprintf(path, sizeof path, "%s/node/online", pv_affinity_sysfs_root);
    if (read_cpulist(path, nodes)) { /* a node list has the cpu-list syntax */
        for (unsigned node = 0; node < pv_set_max && l->n < count; node++) {
            if (!CPU_ISSET_S(node, pv_set_bytes, nodes))
                continue;
            CPU_ZERO_S(pv_set_bytes, s);
            snprintf(path, sizeof path, "%s/node/node%u/cpulist", pv_affinity_sysfs_root, node);
            if (!read_cpulist(path, s))
                continue;
            CPU_AND_S(pv_set_bytes, s, s, left);
            push_if_nonempty(l, s, count);
            for (unsigned c = 0; c < pv_set_max; c++)
                if (CPU_ISSET_S(c, pv_set_bytes, s))
                    CPU_CLR_S(c, pv_set_bytes, left);
        }
    }
    /* CPUs in no node (or no NUMA information): one more domain. */
    push_if_nonempty(l, left, count);
    free(nodes);
    free(s);
}

/* The places of an abstract name, in topology order: package by package,
 * core by core, hardware thread by hardware thread. */
void pv_places_build_level(enum level level, unsigned long count, struct plist *l)
{
    cpu_set_t *left = pv_cpuset_dup(pv_proc_mask);
    cpu_set_t *sock = pv_cpuset_new(), *core = pv_cpuset_new(), *one = pv_cpuset_new();
    if (level == L_NUMA) {
        build_numa(l, left, count);
        goto out;
    }
    for (unsigned c = 0; c < pv_set_max && l->n < count; c++) {
        if (!CPU_ISSET_S(c, pv_set_bytes, left))
            continue;
        group_of(c, level == L_LLC ? L_LLC : L_SOCKETS, sock);
        CPU_SET_S(c, pv_set_bytes, sock);
        CPU_AND_S(pv_set_bytes, sock, sock, left);
        if (level == L_SOCKETS || level == L_LLC) {
            push_if_nonempty(l, sock, count);
        } else {
            for (unsigned c2 = 0; c2 < pv_set_max && l->n < count; c2++) {
                if (!CPU_ISSET_S(c2, pv_set_bytes, sock) || !CPU_ISSET_S(c2, pv_set_bytes, left))
                    continue;
                group_of(c2, L_CORES, core);
                CPU_SET_S(c2, pv_set_bytes, core);
                CPU_AND_S(pv_set_bytes, core, core, sock);
                CPU_AND_S(pv_set_bytes, core, core, left);
                if (level == L_CORES) {
                    push_if_nonempty(l, core, count);
                } else {
                    for (unsigned c3 = 0; c3 < pv_set_max && l->n < count; c3++) {
                        if (!CPU_ISSET_S(c3, pv_set_bytes, core))
                            continue;
                        CPU_ZERO_S(pv_set_bytes, one);
                        CPU_SET_S(c3, pv_set_bytes, one);
                        push_if_nonempty(l, one, count);
                    }
                }
                for (unsigned k = 0; k < pv_set_max; k++)
                    if (CPU_ISSET_S(k, pv_set_bytes, core))
                        CPU_CLR_S(k, pv_set_bytes, left);
            }
        }
        for (unsigned k = 0; k < pv_set_max; k++)
            if (CPU_ISSET_S(k, pv_set_bytes, sock))
                CPU_CLR_S(k, pv_set_bytes, left);
    }
out:
    free(left);
    free(sock);
    free(core);
    free(one);
}

bool pv_places_default(void)
{
    struct plist l = {0};
    pv_places_build_level(L_THREADS, ULONG_MAX, &l);
    return pv_plist_install(&l, NULL, NULL);
}
