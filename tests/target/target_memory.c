/* Device 0's memory in each mode: argument "shared" (the default, no
 * PVOMP_DEVICE_MEMORY) or "separate" (PVOMP_DEVICE_MEMORY=separate) says
 * which mode the environment selected, and every check expects that mode's
 * answer, so the same program shows where the two differ.  The shared
 * checks are what programs written against libgomp's host fallback rely
 * on: a kernel's write to a map(to:) array is seen on the host. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pvomp_check.h"

struct node {
    int *data;
    int len;
};

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    bool shared = strcmp(argv[1], "shared") == 0;
    CHECK(shared || strcmp(argv[1], "separate") == 0);

    /* The device routines answer the same in both modes (docs/target.md). */
    CHECK(omp_get_num_devices() == 1);
    CHECK(omp_get_initial_device() == 1);
    CHECK(omp_get_default_device() == 0);
    CHECK(omp_is_initial_device());

    /* A kernel's write to map(to:) data: on the host at once when shared. */
    enum { N = 1000 };
    double *a = malloc(N * sizeof *a);
    for (int i = 0; i < N; i++)
        a[i] = i;
    int initial = -1;
    #pragma omp target teams distribute parallel for map(to: a[0:N]) map(from: initial)
    for (int i = 0; i < N; i++) {
        if (i == 0)
            initial = omp_is_initial_device();
        a[i] = 2.0 * i;
    }
    CHECK(initial == 0);   /* a non-host device in both modes */
    for (int i = 0; i < N; i++)
        CHECK(a[i] == (shared ? 2.0 * i : (double)i));

    /* map(alloc:) and the device address of a mapped object. */
    int x = 5;
    uintptr_t dev = 0;
    #pragma omp target map(alloc: x) map(from: dev)
    {
        x = 6;
        dev = (uintptr_t)&x;
    }
    CHECK(x == (shared ? 6 : 5));
    CHECK(shared ? dev == (uintptr_t)&x : dev != (uintptr_t)&x);

    /* A host write inside a data region reaches the kernel only when shared. */
    int v[8] = {0};
    int seen = -1;
    #pragma omp target data map(tofrom: v)
    {
        v[3] = 42;   /* host only, unless shared */
        #pragma omp target map(from: seen)
        seen = v[3];
    }
    CHECK(seen == (shared ? 42 : 0));
    CHECK(v[3] == (shared ? 42 : 0));   /* separate: tofrom copies the device's 0 back */

    /* Presence is bookkeeping in both modes: reference counts decide. */
    int w[2];
    CHECK(!omp_target_is_present(w, 0));
    #pragma omp target enter data map(to: w)
    CHECK(omp_target_is_present(w, 0));
    #pragma omp target exit data map(release: w)
    CHECK(!omp_target_is_present(w, 0));
    /* Association: nothing to associate with shared memory (libgomp's EINVAL). */
    CHECK((omp_target_associate_ptr(w, a, sizeof w, 0, 0) == 0) == !shared);
    CHECK((omp_target_disassociate_ptr(w, 0) == 0) == !shared);

    /* A pointer member attached in a struct: the kernel follows it. */
    int buf[4] = {1, 2, 3, 4};
    struct node n = {buf, 4};
    int sum = 0;
    #pragma omp target map(to: n, n.data[0:4]) map(tofrom: sum)
    for (int i = 0; i < n.len; i++) {
        sum += n.data[i];
        n.data[i] = 0;
    }
    CHECK(sum == 10);
    CHECK(n.data == buf);   /* the host pointer is the host's again in both modes */
    CHECK(buf[0] == (shared ? 0 : 1));

    /* An unmapped zero-length array section: the host address when shared
     * (valid there), NULL with separate memory. */
    int *p = buf;
    uintptr_t pdev = 1;
    #pragma omp target map(from: pdev) map(to: p[:0])
    pdev = (uintptr_t)p;
    CHECK(shared ? pdev == (uintptr_t)buf : pdev == 0);

    free(a);
    printf("target_memory %s: ok\n", argv[1]);
    return 0;
}
