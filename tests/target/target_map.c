/* Target constructs on device 0 (the host device with its own memory):
 * every map really copies, reference counts decide when, and the device
 * routines see the same table.  Run with an argument naming one part. */
#define _GNU_SOURCE
#include <errno.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pvomp_check.h"

struct S {
    int a;
    int *p;
    double b[4];
    int c;
};

/* A write on the device is not visible on the host until copied back. */
static void maps_copy(void)
{
    CHECK(omp_get_num_devices() == 1);
    CHECK(omp_get_initial_device() == 1);
    CHECK(omp_get_default_device() == 0);
    int a[4] = {1, 2, 3, 4};
    int seen = -1;
    #pragma omp target map(to: a) map(from: seen)
    {
        seen = a[2];
        a[2] = 99;   /* device copy only */
    }
    CHECK(seen == 3 && a[2] == 3);
    #pragma omp target map(tofrom: a)
    a[1] = 77;
    CHECK(a[1] == 77);
    int x = 5;
    #pragma omp target map(alloc: x)
    x = 6;
    CHECK(x == 5);
    #pragma omp target map(from: x)
    x = 7;
    CHECK(x == 7);
    /* Host addresses are not device addresses. */
    uintptr_t host = (uintptr_t)a, dev = 0;
    #pragma omp target map(tofrom: a) map(from: dev)
    dev = (uintptr_t)a;
    CHECK(dev != 0 && dev != host);
}

/* Reference counts: enter/exit data, nested data regions, always, delete. */
static void refcounts(void)
{
    int v[16];
    for (int i = 0; i < 16; i++)
        v[i] = i;
    #pragma omp target enter data map(to: v)
    CHECK(omp_target_is_present(v, 0));
    CHECK(omp_target_is_present(&v[15], 0));
    CHECK(omp_target_is_present(v, omp_get_initial_device()) == 1);
    v[0] = 100;   /* host only */
    #pragma omp target map(tofrom: v)   /* present: no copy in, no copy out */
    v[1] = v[0] + 1000;
    CHECK(v[0] == 100 && v[1] == 1);
    #pragma omp target update from(v)
    CHECK(v[0] == 0 && v[1] == 1000);
    v[2] = 222;
    #pragma omp target map(always, to: v)
    v[3] = v[2];
    #pragma omp target update from(v[3:1])
    CHECK(v[3] == 222);
    /* Two references: the first exit only releases. */
    #pragma omp target enter data map(to: v)
    #pragma omp target exit data map(from: v)
    CHECK(omp_target_is_present(v, 0));
    #pragma omp target exit data map(release: v)
    CHECK(!omp_target_is_present(v, 0));
    /* delete drops every reference at once. */
    #pragma omp target enter data map(alloc: v)
    #pragma omp target enter data map(alloc: v)
    #pragma omp target exit data map(delete: v)
    CHECK(!omp_target_is_present(v, 0));
    /* A data region keeps the mapping; from copies at its end only. */
    int w = 1;
    #pragma omp target data map(tofrom: w)
    {
        #pragma omp target map(from: w)
        w = 2;
        CHECK(w == 1);
    }
    CHECK(w == 2);
    /* delete inside a data region: its end finds nothing left to do. */
    int z = 1;
    #pragma omp target data map(tofrom: z)
    {
        #pragma omp target exit data map(delete: z)
        CHECK(!omp_target_is_present(&z, 0));
        z = 2;
    }
    CHECK(z == 2);
}

/* Structs, pointers attached inside mapped structs, zero-length sections. */
static void structs_pointers(void)
{
    int data[10];
    for (int i = 0; i < 10; i++)
        data[i] = i;
    struct S s = {1, data, {0}, 3};
    #pragma omp target map(to: s.a) map(tofrom: s.c)
    s.c = s.a + 10;
    CHECK(s.c == 11);
    /* The struct and what its pointer points to, attached on the device. */
    struct S *sp = &s;
    #pragma omp target enter data map(to: sp[0:1]) map(to: sp->p[0:10])
    int ok = 0;
    #pragma omp target map(from: ok)
    {
        ok = sp->p[9] == 9 && sp->a == 1;
        sp->p[0] = 50;   /* device copy of data */
    }
    CHECK(ok);
    CHECK(data[0] == 0);
    #pragma omp target exit data map(from: sp->p[0:10]) map(release: sp[0:1])
    CHECK(data[0] == 50);
    CHECK(s.p == data);   /* the host pointer is untouched */
    /* Zero-length array section of something unmapped: NULL on the device. */
    int *q = data;
    uintptr_t qdev = 1;
    #pragma omp target map(q[0:0]) map(from: qdev)
    qdev = (uintptr_t)q;
    CHECK(qdev == 0);
    /* ... and of something mapped: its device address. */
    #pragma omp target enter data map(to: data)
    #pragma omp target map(q[0:0]) map(from: qdev)
    qdev = (uintptr_t)q;
    CHECK(qdev != 0 && qdev != (uintptr_t)data);
    #pragma omp target exit data map(delete: data)
}

#pragma omp declare target
int dt_arr[8];
int *dt_ptr;
#pragma omp end declare target

/* declare target variables: the kernel code is the host code, so they are
 * their own device copies (identity mappings): maps and updates of them
 * copy nothing, and a pointer attached inside one is restored after. */
static void declare_target(void)
{
    CHECK(omp_target_is_present(dt_arr, 0));
    dt_arr[1] = 5;
    #pragma omp target map(always, tofrom: dt_arr)
    dt_arr[1] += 1;
    CHECK(dt_arr[1] == 6);
    #pragma omp target update from(dt_arr)
    CHECK(dt_arr[1] == 6);
    int data[4] = {1, 2, 3, 4};
    dt_ptr = data;
    uintptr_t seen = 0;
    #pragma omp target map(dt_ptr[:4]) map(from: seen)
    {
        seen = (uintptr_t)dt_ptr;
        dt_ptr[0] = 9;
    }
    CHECK(seen != (uintptr_t)data);   /* the device copy of data, attached */
    CHECK(dt_ptr == data && data[0] == 9);
    CHECK(omp_target_disassociate_ptr(dt_arr, 0) != 0);
}

/* firstprivate (values taken at the construct), use_device_ptr. */
static void firstprivate_use_device(void)
{
    double y = 2.5;
    struct S s = {4, NULL, {1, 2, 3, 4}, 0};
    int x = 3, r = 0;
    #pragma omp target firstprivate(y, s, x) map(from: r)
    {
        r = (int)(x + y * 2 + s.b[3] + s.a);
        y = 0;
        s.a = 0;
    }
    CHECK(r == 3 + 5 + 4 + 4 && y == 2.5 && s.a == 4);
    int *p = malloc(8 * sizeof(int));
    int *host_p = p;
    uintptr_t devp = 0;
    #pragma omp target data map(alloc: p[0:8]) use_device_ptr(p)
    devp = (uintptr_t)p;
    CHECK(devp != 0 && devp != (uintptr_t)host_p);
    free(host_p);
}

/* The device memory routines. */
static void device_api(void)
{
    int dev = 0, host = omp_get_initial_device();
    int *d = omp_target_alloc(64 * sizeof(int), dev);
    CHECK(d != NULL);
    CHECK(omp_target_alloc(16, 5) == NULL);
    int h[64], back[64];
    for (int i = 0; i < 64; i++)
        h[i] = i * 3;
    CHECK(omp_target_memcpy(d, h, sizeof h, 0, 0, dev, host) == 0);
    CHECK(omp_target_memcpy(back, d, 32 * sizeof(int), 0, 32 * sizeof(int), host, dev) == 0);
    CHECK(back[0] == 96 && back[31] == 189);
    CHECK(omp_target_memcpy(back, d, 4, 0, 0, host, 7) == EINVAL);
    /* Rectangular: a 3x4 block out of an 8x8 matrix. */
    int m[8][8], sub[3][4];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            m[i][j] = i * 10 + j;
    size_t vol[2] = {3, 4}, doff[2] = {0, 0}, soff[2] = {2, 3};
    size_t ddim[2] = {3, 4}, sdim[2] = {8, 8};
    int *dm = omp_target_alloc(sizeof m, dev);
    CHECK(omp_target_memcpy(dm, m, sizeof m, 0, 0, dev, host) == 0);
    CHECK(omp_target_memcpy_rect(sub, dm, sizeof(int), 2, vol, doff, soff, ddim, sdim, host,
                                 dev) == 0);
    CHECK(sub[0][0] == 23 && sub[2][3] == 46);
    CHECK(omp_target_memcpy_rect(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, host, dev) > 2);
    /* Associate: the construct then uses our block, without copying. */
    int arr[64];
    CHECK(omp_target_associate_ptr(arr, d, sizeof arr, 0, dev) == 0);
    CHECK(omp_target_is_present(arr, dev));
    CHECK(omp_target_associate_ptr(arr, d, sizeof arr, 0, dev) == 0);   /* same again: fine */
    CHECK(omp_target_associate_ptr(arr, d, sizeof arr, 4, dev) == EINVAL);
    int first = -1;
    #pragma omp target map(tofrom: arr) map(from: first)
    first = arr[1];   /* from the associated block */
    CHECK(first == 3);
    CHECK(omp_target_disassociate_ptr(arr, dev) == 0);
    CHECK(!omp_target_is_present(arr, dev));
    CHECK(omp_target_disassociate_ptr(arr, dev) == EINVAL);
    CHECK(omp_target_is_present(NULL, dev));
    omp_target_free(dm, dev);
    omp_target_free(d, dev);
    omp_target_free(NULL, dev);
}

/* Called inside teams regions (gcc allows no API call or atomic directly). */
static void note_team(int *teams, int *nteams)
{
    teams[omp_get_team_num()] = 1 + !omp_is_initial_device();
    if (omp_get_team_num() == 0)
        *nteams = omp_get_num_teams();
}

static void meet(int *met, int *arrived)
{
    __atomic_add_fetch(arrived, 1, __ATOMIC_SEQ_CST);
    long spins = 0;
    while (__atomic_load_n(arrived, __ATOMIC_SEQ_CST) < 2 && ++spins < 2000000000L)
        ;
    met[omp_get_team_num()] = spins < 2000000000L;
}

/* Kernels: device threads, granted teams and threads, device identity. */
static void kernels(void)
{
    int init = -1, devnum = -1, level = -1;
    #pragma omp target map(from: init, devnum, level)
    {
        init = omp_is_initial_device();
        devnum = omp_get_device_num();
        level = omp_get_level() + omp_get_num_threads() * 10;
    }
    CHECK(init == 0 && devnum == 0 && level == 10);
    CHECK(omp_is_initial_device() && omp_get_device_num() == omp_get_initial_device());
    int teams[8] = {0}, nteams = 0;
    #pragma omp target teams num_teams(6) map(tofrom: teams, nteams)
    note_team(teams, &nteams);
    CHECK(nteams == 6);
    for (int i = 0; i < 6; i++)
        CHECK(teams[i] == 2);
    CHECK(teams[6] == 0);
    /* Teams run at the same time on different device threads. */
    int met[2] = {0, 0}, arrived = 0;
    #pragma omp target teams num_teams(2) map(tofrom: met, arrived)
    meet(met, &arrived);
    CHECK(met[0] == 1 && met[1] == 1);
    int nthr = 0, limit = 0;
    #pragma omp target parallel num_threads(3) map(from: nthr)
    if (omp_get_thread_num() == 0)
        nthr = omp_get_num_threads() + 100 * omp_is_initial_device();
    CHECK(nthr == 3);
    #pragma omp target teams num_teams(2) thread_limit(2) map(tofrom: limit)
    #pragma omp parallel num_threads(4)
    if (omp_get_thread_num() == 0 && omp_get_team_num() == 1)
        limit = omp_get_num_threads() * 10 + omp_get_thread_limit();
    CHECK(limit == 22);
    /* Host fallback: if(false) runs on the initial device with host memory. */
    int here = 0, shared = 1;
    #pragma omp target if (0) map(from: here) map(to: shared)
    {
        here = omp_is_initial_device();
        shared = 2;
    }
    CHECK(here == 1 && shared == 2);
    #pragma omp target device(1) map(to: shared)
    shared = 3;   /* device 1 is the initial device: host memory */
    CHECK(shared == 3);
}

/* nowait and depend: target tasks. */
static void tasks(void)
{
    int a = 0, b = 0, c = 0;
    #pragma omp parallel num_threads(2)
    #pragma omp single
    {
        #pragma omp target map(tofrom: a) depend(out: a) nowait
        a = 10;
        #pragma omp target map(tofrom: a, b) depend(in: a) depend(out: b) nowait
        b = a + 1;
        #pragma omp task depend(in: b) shared(b, c)
        c = b * 2;
        #pragma omp taskwait
    }
    CHECK(a == 10 && b == 11 && c == 22);
    int v[4] = {0};
    #pragma omp target enter data map(to: v) depend(out: v) nowait
    #pragma omp target map(tofrom: v) depend(inout: v) nowait
    v[2] = 5;
    #pragma omp target update from(v) depend(inout: v) nowait
    #pragma omp target exit data map(delete: v) depend(inout: v)
    #pragma omp taskwait
    CHECK(v[2] == 5);
    CHECK(!omp_target_is_present(v, 0));
    /* firstprivate of a nowait target is captured at the construct. */
    int x = 1, r = 0;
    #pragma omp parallel num_threads(2)
    #pragma omp single
    {
        #pragma omp target firstprivate(x) map(from: r) nowait depend(out: r)
        r = x;
        x = 2;
        #pragma omp taskwait
    }
    CHECK(r == 1);
}

/* Several host threads mapping and running at once. */
static void concurrent(void)
{
    int sums[8] = {0};
    #pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        int buf[256];
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 256; i++)
                buf[i] = i + me;
            int s = 0;
            #pragma omp target map(to: buf) map(from: s)
            {
                s = 0;
                for (int i = 0; i < 256; i++)
                    s += buf[i];
            }
            sums[me] += s == 256 * 255 / 2 + 256 * me;
        }
    }
    for (int i = 0; i < 4; i++)
        CHECK(sums[i] == 50);
}

/* OMP_DEFAULT_DEVICE / OMP_TARGET_OFFLOAD are set by the test's environment. */
static void env_default_host(void)
{
    CHECK(omp_get_default_device() == omp_get_initial_device());
    int a = 1;
    #pragma omp target map(to: a)
    a = 2;   /* runs on the host: shared memory */
    CHECK(a == 2);
}

static void env_disabled(void)
{
    CHECK(omp_get_num_devices() == 0 && omp_get_initial_device() == 0);
    int a = 1, init = 0;
    #pragma omp target map(to: a) map(from: init)
    {
        a = 2;
        init = omp_is_initial_device();
    }
    CHECK(a == 2 && init == 1);
}

static void env_mandatory(void)
{
    int a = 1;
    #pragma omp target map(tofrom: a)
    a = 2;
    CHECK(a == 2);
    #pragma omp target if (0) map(to: a)
    a = 3;   /* if(false) is not an offload failure; host memory */
    CHECK(a == 3);
    /* Device 5 does not exist: fatal (the test expects a failure exit). */
    #pragma omp target device(5)
    a = 4;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } parts[] = {
        {"maps_copy", maps_copy}, {"refcounts", refcounts}, {"structs", structs_pointers},
        {"firstprivate", firstprivate_use_device}, {"declare", declare_target},
        {"api", device_api}, {"kernels", kernels},
        {"tasks", tasks}, {"concurrent", concurrent}, {"env_default_host", env_default_host},
        {"env_disabled", env_disabled}, {"env_mandatory", env_mandatory},
    };
    CHECK(argc == 2);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (strcmp(argv[1], parts[i].name) == 0) {
            parts[i].fn();
            printf("%s: ok\n", argv[1]);
            return 0;
        }
    fprintf(stderr, "unknown part %s\n", argv[1]);
    return 2;
}
