/* The demo: a small but real OpenMP program (a Mandelbrot image with a
 * dynamically scheduled loop, a heat-diffusion stencil with barriers, a
 * critical histogram and a reduction).  Built with the system gcc -fopenmp;
 * scripts/demo.sh runs it on pvomp with the flight log on. */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define W 640
#define H 480
#define ITERS 400
#define N 4096
#define STEPS 200

static unsigned short image[H][W];

static unsigned mandel_pixel(int x, int y)
{
    double cr = -2.2 + 3.2 * x / W, ci = -1.2 + 2.4 * y / H, zr = 0, zi = 0;
    unsigned k = 0;
    while (k < ITERS && zr * zr + zi * zi < 4.0) {
        double t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
        k++;
    }
    return k;
}

int main(void)
{
    const char *(*runtime)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "pvomp_runtime_path");
    printf("OpenMP runtime: %s\n", runtime ? runtime() : "not pvomp (system libgomp?)");

    double t0 = omp_get_wtime();
    unsigned long inside = 0;
    #pragma omp parallel for schedule(dynamic, 4) reduction(+ : inside)
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            image[y][x] = (unsigned short)mandel_pixel(x, y);
            inside += image[y][x] == ITERS;
        }

    unsigned long histogram[8] = {0};
    #pragma omp parallel
    {
        unsigned long local[8] = {0};
        #pragma omp for schedule(static) nowait
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                local[image[y][x] * 8 / (ITERS + 1)]++;
        #pragma omp critical(histogram)
        for (int b = 0; b < 8; b++)
            histogram[b] += local[b];
    }

    static double a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = i == N / 2 ? 1000.0 : 0.0;
    #pragma omp parallel
    for (int s = 0; s < STEPS; s++) {
        #pragma omp for schedule(static)
        for (int i = 1; i < N - 1; i++)
            b[i] = a[i] + 0.25 * (a[i - 1] - 2 * a[i] + a[i + 1]);
        #pragma omp single
        {
            double *tmp = malloc(sizeof(double) * N);
            for (int i = 0; i < N; i++)
                tmp[i] = b[i];
            for (int i = 1; i < N - 1; i++)
                a[i] = tmp[i];
            free(tmp);
        }
    }
    double heat = 0;
    #pragma omp parallel for reduction(+ : heat)
    for (int i = 0; i < N; i++)
        heat += a[i];

    printf("threads: %d, points inside the set: %lu, heat kept: %.3f (of 1000), %.1f ms\n",
           omp_get_max_threads(), inside, heat, (omp_get_wtime() - t0) * 1e3);
    printf("escape-time histogram:");
    for (int b = 0; b < 8; b++)
        printf(" %lu", histogram[b]);
    printf("\n");
    return 0;
}
