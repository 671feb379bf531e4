/* The entry points GCC 13-16 added to libgomp's ABI (issue 29;
 * src/runtime/abi/libgomp16_added.txt), each called through its versioned
 * symbol as a program built by GCC 13+ references it.  gcc 12 cannot emit
 * these references, so .symver binds each one by hand; the program is
 * linked against pvomp's libgomp.so (the only one that defines them).
 *
 *   abi_gcc16 tasks              omp_in_explicit_task, taskwait depend
 *                                nowait, GOMP_add_alloc / GOMP_is_alloc
 *   abi_gcc16 device shared|separate
 *                                the device routines, on device 0 in the
 *                                mode PVOMP_DEVICE_MEMORY gives it
 *   abi_gcc16 all MODE           both (the ABI bindings check runs this)
 *   abi_gcc16 present_fatal      target update to(present: y) of an
 *                                unmapped y: must end the program */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvomp_check.h"

#include "gcc16_refs.h"

/* The construct's entry, called as GCC 16 calls it for
 * device(omp_default_device): device number -5 (GOMP_DEVICE_DEFAULT_OMP_61). */
void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                     size_t *sizes, unsigned short *kinds, unsigned flags, void **depend,
                     void **args);
/* And the map kinds of GCC 14's present modifier (gomp-constants.h values):
 * always,present,to/from/tofrom on constructs, present with to/from on
 * target update. */
void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                            unsigned short *kinds, unsigned flags, void **depend);
void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                 unsigned short *kinds, unsigned flags, void **depend);
enum {
    KIND_PRESENT_TO = 0x85, KIND_ALWAYS_PRESENT_TO = 0x95, KIND_ALWAYS_PRESENT_FROM = 0x96,
    FLAG_EXIT_DATA = 2,
};

/* ----------------------------------------------------------------- tasks */

static void test_in_explicit_task(void)
{
    CHECK(omp_in_explicit_task_v() == 0);   /* the initial task */
    int in_implicit = -1, in_task = -1, in_undeferred = -1, in_nested = -1, f_task = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        in_implicit = omp_in_explicit_task_v();
#pragma omp task
        {
            in_task = omp_in_explicit_task_v();
            f_task = omp_in_explicit_task__v();
#pragma omp task
            in_nested = omp_in_explicit_task_v();
        }
#pragma omp task if (0)
        in_undeferred = omp_in_explicit_task_v();
    }
    CHECK(in_implicit == 0);
    CHECK(in_task == 1 && f_task == 1);
    CHECK(in_nested == 1);
    CHECK(in_undeferred == 1);
    CHECK(omp_in_explicit_task__v() == 0);
    /* A target region's initial task is an implicit task, even when a
     * target task (nowait) launched it. */
    int in_target = -1, in_target_task = -1;
#pragma omp target map(from : in_target)
    in_target = omp_in_explicit_task_v();
#pragma omp target nowait map(from : in_target_task)
    in_target_task = omp_in_explicit_task_v();
#pragma omp taskwait
    CHECK(in_target == 0 && in_target_task == 0);
}

/* taskwait depend(out: y) depend(in: x) nowait: the later reader of y runs
 * after the writer of x, and the encountering thread does not wait (the
 * writer holds until it has gone on: a waiting call would hang here). */
static void test_taskwait_nowait(void)
{
    int x = 0, y = 0, seen = -1;
    atomic_int released = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task depend(out : x) shared(x, released)
        {
            while (!atomic_load(&released))
                sched_yield();
            usleep(20000);
            x = 1;
        }
        void *depend[4] = {(void *)2, (void *)1, &y, &x};   /* n, n_out, out: y, in: x */
        GOMP_taskwait_depend_nowait_v(depend);
        atomic_store(&released, 1);
#pragma omp task depend(in : y) shared(x, seen)
        seen = x;
#pragma omp taskwait
    }
    CHECK(seen == 1);
}

static void test_alloc_registry(void)
{
    enum { N = 3000 };
    static char blocks[N];
    CHECK(!GOMP_is_alloc_v(&blocks[0]));
    GOMP_add_alloc_v(NULL);   /* nothing */
    CHECK(!GOMP_is_alloc_v(NULL));
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < N; i++)
        GOMP_add_alloc_v(&blocks[i]);
    int found = 0, again = 0;
#pragma omp parallel for num_threads(2) reduction(+ : found)
    for (int i = 0; i < N; i += 2)
        found += GOMP_is_alloc_v(&blocks[i]);
    for (int i = 0; i < N; i++)   /* the even ones are forgotten, the odd ones kept */
        again += GOMP_is_alloc_v(&blocks[i]);
    CHECK(found == N / 2);
    CHECK(again == N / 2);
    CHECK(!GOMP_is_alloc_v(&blocks[1]));
}

/* ---------------------------------------------------------------- device */

static bool separate;

static void test_memset(int dev, int host)
{
    unsigned char buf[64];
    unsigned char *p = omp_target_alloc(sizeof buf, dev);
    CHECK(p != NULL);
    CHECK(omp_target_memset_v(p, 0x5a, sizeof buf, dev) == p);
    memset(buf, 0, sizeof buf);
    CHECK(omp_target_memcpy(buf, p, sizeof buf, 0, 0, host, dev) == 0);
    for (size_t i = 0; i < sizeof buf; i++)
        CHECK(buf[i] == 0x5a);
    omp_target_free(p, dev);

    /* A mapped array: the fill reaches the host copy only through an update
     * when device 0 has its own memory. */
    int arr[16];
    for (int i = 0; i < 16; i++)
        arr[i] = i + 1;
#pragma omp target enter data map(to : arr)
    int *d = omp_get_mapped_ptr_v(arr, dev);
    CHECK(d != NULL);
    CHECK(separate ? d != arr : d == arr);
    CHECK(omp_get_mapped_ptr_v(&arr[5], dev) == d + 5);
    /* The fill waits for the task that writes the device copy first. */
    omp_depend_t obj;
#pragma omp depobj(obj) depend(inout : arr)
    static const int sevens[16] = {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7};
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task depend(out : arr)
        {
            usleep(20000);
            CHECK(omp_target_memcpy(d, sevens, sizeof sevens, 0, 0, dev, host) == 0);
        }
        CHECK(omp_target_memset_async_v(d, 0, 8 * sizeof(int), dev, 1, &obj) == d);
    }
    CHECK(arr[0] == (separate ? 1 : 0));
#pragma omp target update from(arr)
    for (int i = 0; i < 16; i++)
        CHECK(arr[i] == (i < 8 ? 0 : 7));
#pragma omp target exit data map(delete : arr)
#pragma omp depobj(obj) destroy
    CHECK(omp_get_mapped_ptr_v(arr, dev) == NULL);
    /* The host fill, and an invalid device (nothing is written). */
    CHECK(omp_target_memset_v(buf, 7, 4, host) == buf && buf[3] == 7 && buf[4] == 0x5a);
    CHECK(omp_target_memset_v(buf, 9, 4, 42) == buf && buf[0] == 7);
}

static void test_queries(int dev, int host)
{
    int v = 0;
    CHECK(omp_get_mapped_ptr_v(&v, dev) == NULL);   /* not mapped */
    CHECK(omp_get_mapped_ptr_v(&v, host) == &v);
    CHECK(omp_get_mapped_ptr_v(&v, -1) == &v);      /* omp_initial_device */
    CHECK(omp_get_mapped_ptr_v(NULL, dev) == NULL);
    CHECK(omp_get_mapped_ptr_v(&v, 42) == NULL);
    CHECK(omp_target_is_accessible_v(&v, sizeof v, host) == 1);
    CHECK(omp_target_is_accessible_v(&v, sizeof v, dev) == (separate ? 0 : 1));
    CHECK(omp_target_is_accessible_v(NULL, 4, host) == 0);
    CHECK(omp_target_is_accessible_v(&v, 0, host) == 0);
    CHECK(omp_target_is_accessible_v(&v, sizeof v, 42) == 0);
    /* omp_initial_device (-1) and omp_default_device (-5, OpenMP 6.0: here
     * device 0, default-device-var's). */
    CHECK(omp_target_is_accessible_v(&v, sizeof v, -1) == 1);
    CHECK(omp_target_is_accessible_v(&v, sizeof v, -5) == (separate ? 0 : 1));
    CHECK(strcmp(omp_get_uid_from_device_v(-5), "OMP_DEV_0") == 0);

    CHECK(strcmp(omp_get_uid_from_device_v(host), "OMP_INITIAL_DEVICE") == 0);
    CHECK(strcmp(omp_get_uid_from_device_v(-1), "OMP_INITIAL_DEVICE") == 0);
    CHECK(strcmp(omp_get_uid_from_device_v(dev), "OMP_DEV_0") == 0);
    CHECK(omp_get_uid_from_device_v(42) == NULL);
    CHECK(omp_get_device_from_uid_v("OMP_DEV_0") == dev);
    CHECK(omp_get_device_from_uid_v("OMP_INITIAL_DEVICE") == -1);
    CHECK(omp_get_device_from_uid_v("OMP_DEV_7") == -4);   /* omp_invalid_device */
    CHECK(omp_get_device_from_uid_v(NULL) == -4);
    const char *s = NULL;
    size_t n = 99;
    omp_get_uid_from_device__v(&s, &n, dev);
    CHECK(s && n == 9 && memcmp(s, "OMP_DEV_0", 9) == 0);
    omp_get_uid_from_device_8__v(&s, &n, (int64_t)1 << 40);
    CHECK(s == NULL && n == 0);
    CHECK(omp_get_device_from_uid__v("OMP_DEV_0xx", 9) == dev);   /* its length is the string's */
    CHECK(omp_get_device_from_uid__v("OMP_INITIAL_DEVICE", 18) == -1);

    void (*fn)(int, int) = test_queries;
    CHECK(GOMP_target_map_indirect_ptr_v((void *)fn) == (void *)fn);
}

/* omp_target_memcpy_async: the copy waits for the task that writes the
 * source, and the task that reads the destination waits for the copy. */
static void test_memcpy_async(int dev, int host)
{
    enum { N = 256 };
    static int src[N], back[N];
    int *dbuf = omp_target_alloc(N * sizeof(int), dev);
    CHECK(dbuf != NULL);
    omp_depend_t obj;
#pragma omp depobj(obj) depend(inout : src)
    int rc = -1, ok = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task depend(out : src)
        {
            usleep(20000);
            for (int i = 0; i < N; i++)
                src[i] = 3 * i + 1;
        }
        /* the source named omp_initial_device, the destination omp_default_device */
        rc = omp_target_memcpy_async_v(dbuf, src, N * sizeof(int), 0, 0, -5, -1, 1, &obj);
#pragma omp task depend(in : src) shared(ok)
        {
            CHECK(omp_target_memcpy(back, dbuf, N * sizeof(int), 0, 0, host, dev) == 0);
            ok = 1;
            for (int i = 0; i < N; i++)
                ok &= back[i] == 3 * i + 1;
        }
    }
    CHECK(rc == 0);
    CHECK(ok == 1);
    CHECK(omp_target_memcpy_async_v(dbuf, src, 4, 0, 0, 42, host, 0, NULL) != 0);   /* EINVAL */
    CHECK(omp_target_memcpy_async_v(dbuf, NULL, 4, 0, 0, dev, host, 0, NULL) != 0);
#pragma omp depobj(obj) destroy
    omp_target_free(dbuf, dev);
}

/* A 3 x 4 block of a 5 x 6 host matrix to (1, 2) of a 4 x 8 device matrix;
 * the arrays describing it are overwritten right after the call. */
static void test_rect_async(int dev, int host)
{
    int m[5][6], d_back[4][8];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 6; j++)
            m[i][j] = 10 * i + j;
    int *d = omp_target_alloc(sizeof d_back, dev);
    CHECK(d != NULL);
    CHECK(omp_target_memset_v(d, 0, sizeof d_back, dev) == d);
    size_t volume[2] = {3, 4}, doff[2] = {1, 2}, soff[2] = {2, 1}, ddim[2] = {4, 8},
           sdim[2] = {5, 6};
    omp_depend_t obj;
#pragma omp depobj(obj) depend(inout : m)
    CHECK(omp_target_memcpy_rect_async_v(d, m, sizeof(int), 2, volume, doff, soff, ddim, sdim,
                                         dev, host, 1, &obj) == 0);
    volume[0] = volume[1] = doff[0] = soff[0] = 0;
#pragma omp taskwait
    CHECK(omp_target_memcpy(d_back, d, sizeof d_back, 0, 0, host, dev) == 0);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) {
            bool in = i >= 1 && i < 4 && j >= 2 && j < 6;
            CHECK(d_back[i][j] == (in ? 10 * (i + 1) + (j - 1) : 0));
        }
    CHECK(omp_target_memcpy_rect_async_v(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, dev,
                                         host, 0, NULL) > 0);   /* dimensions supported */
#pragma omp depobj(obj) destroy
    omp_target_free(d, dev);
}

static int kernel_on_host = -1;
static void kernel_where(void *devaddrs)
{
    (void)devaddrs;
    kernel_on_host = omp_is_initial_device();
}

static void test_default_device_construct(void)
{
    GOMP_target_ext(-5, kernel_where, 0, NULL, NULL, NULL, 0, NULL, NULL);
    CHECK(kernel_on_host == 0);   /* on device 0, default-device-var's */
}

/* The kernel of test_present: element 0 of its one mapped array, read and
 * set on the device. */
static int kernel_saw = -1;
static void kernel_first(void *devaddrs)
{
    int *a = ((void **)devaddrs)[0];
    kernel_saw = a[0];
    a[0] = 99;
}

static void test_present(int dev, int host)
{
    static int x[4] = {1, 2, 3, 4};
    void *addr[1] = {x};
    size_t size[1] = {sizeof x};
    int back[4];
#pragma omp target enter data map(to : x)
    int *d = omp_get_mapped_ptr_v(x, dev);
    CHECK(d != NULL);
    /* target update to(present: x) */
    x[0] = 5, x[1] = 6, x[2] = 7, x[3] = 8;
    unsigned short kind = KIND_PRESENT_TO;
    GOMP_target_update_ext(dev, 1, addr, size, &kind, 0, NULL);
    CHECK(omp_target_memcpy(back, d, sizeof back, 0, 0, host, dev) == 0);
    CHECK(back[0] == 5 && back[3] == 8);
    /* map(always, present, to: x): copied in although it is mapped */
    x[0] = 11;
    kind = KIND_ALWAYS_PRESENT_TO;
    GOMP_target_ext(dev, kernel_first, 1, addr, size, &kind, 0, NULL, NULL);
    CHECK(kernel_saw == 11);
    CHECK(x[0] == (separate ? 11 : 99));   /* not copied out: still mapped */
    /* map(always, present, from: x): copied out although it stays mapped */
    kind = KIND_ALWAYS_PRESENT_FROM;
    GOMP_target_ext(dev, kernel_first, 1, addr, size, &kind, 0, NULL, NULL);
    CHECK(x[0] == 99);
    /* target exit data map(always, present, from: x) */
    CHECK(omp_target_memset_v(d, 0, sizeof x, dev) == d);
    GOMP_target_enter_exit_data(dev, 1, addr, size, &kind, FLAG_EXIT_DATA, NULL);
    CHECK(x[0] == 0 && x[3] == 0);
    CHECK(!omp_target_is_present(x, dev));
}

/* present on something not mapped: OpenMP's runtime error termination
 * (ctest expects the message and a failed exit). */
static void present_not_mapped(void)
{
    static int y[2];
    void *addr[1] = {y};
    size_t size[1] = {sizeof y};
    unsigned short kind = KIND_PRESENT_TO;
    GOMP_target_update_ext(0, 1, addr, size, &kind, 0, NULL);
    printf("present_fatal: the update went on\n");
}

static void test_interop(void)
{
    void *obj = (void *)&obj, *none = NULL;
    void **init[1] = {&obj};
    int targetsync[1] = {1};
    int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task depend(out : x) shared(x)
        {
            usleep(20000);
            x = 1;
        }
        void *depend[3] = {(void *)1, (void *)1, &x};   /* depend(inout: x) */
        GOMP_interop_v(0, 1, init, targetsync, NULL, 1, &none, 0, NULL, 0, depend);
        CHECK(x == 1);   /* it waited for the writer of x */
    }
    CHECK(obj == NULL);   /* no foreign runtime: omp_interop_none */
    void **destroy[1] = {&obj};
    GOMP_interop_v(0, 0, NULL, NULL, NULL, 0, NULL, 1, destroy, 0, NULL);
    CHECK(obj == NULL);

    int rc = 99;
    CHECK(omp_get_num_interop_properties_v(NULL) == 0);
    CHECK(omp_get_interop_int_v(NULL, -1, &rc) == 0 && rc == -1);   /* fr_id: omp_irc_empty */
    CHECK(omp_get_interop_ptr_v(NULL, -7, &rc) == NULL && rc == -1);
    CHECK(omp_get_interop_str_v(NULL, -10, &rc) == NULL && rc == -2);   /* out of range */
    CHECK(omp_get_interop_int_v(NULL, 0, NULL) == 0);
    CHECK(strcmp(omp_get_interop_name_v(NULL, -5), "device_num") == 0);
    CHECK(strcmp(omp_get_interop_name_v(NULL, -9), "targetsync") == 0);
    CHECK(omp_get_interop_name_v(NULL, 0) == NULL);
    CHECK(omp_get_interop_type_desc_v(NULL, -1) == NULL);
    CHECK(omp_get_interop_rc_desc_v(NULL, -1) != NULL);
    CHECK(omp_get_interop_rc_desc_v(NULL, -6) == NULL);   /* omp_irc_other */
    const char *s = NULL;
    size_t n = 99;
    int32_t frc = 0;
    omp_get_interop_name__v(&s, &n, NULL, -1);
    CHECK(n == 5 && memcmp(s, "fr_id", 5) == 0);
    omp_get_interop_str__v(&s, &n, NULL, -2, &frc);
    CHECK(s == NULL && n == 0 && frc == -1);
    omp_get_interop_type_desc__v(&s, &n, NULL, -1);
    CHECK(s == NULL && n == 0);
    omp_get_interop_rc_desc__v(&s, &n, NULL, 0);
    CHECK(s && n == strlen(s) && n > 0);
}

static void run_tasks(void)
{
    test_in_explicit_task();
    test_taskwait_nowait();
    test_alloc_registry();
}

static void run_device(const char *mode)
{
    separate = strcmp(mode, "separate") == 0;
    CHECK(omp_get_num_devices() == 1);
    int dev = 0, host = omp_get_initial_device();
    test_memset(dev, host);
    test_queries(dev, host);
    test_memcpy_async(dev, host);
    test_rect_async(dev, host);
    test_interop();
    test_default_device_construct();
    test_present(dev, host);
}

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "";
    if (strcmp(part, "tasks") == 0)
        run_tasks();
    else if (strcmp(part, "present_fatal") == 0)
        present_not_mapped();
    else if ((strcmp(part, "device") == 0 || strcmp(part, "all") == 0) && argc > 2) {
        if (strcmp(part, "all") == 0)
            run_tasks();
        run_device(argv[2]);
    } else {
        fprintf(stderr, "usage: abi_gcc16 tasks | device MODE | all MODE\n");
        return 2;
    }
    printf("abi_gcc16 %s: ok\n", part);
    return 0;
}
