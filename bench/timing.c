/* mk_bench timing: CLOCK_MONOTONIC blocks, interleaved runs, medians. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "bench_c.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every query result is added here so no call can be optimised away. */
volatile double bench_sink;

/* Shortest timed block (ns) and the most calls of one problem per block. */
#define BLOCK_NS 1000.0
#define MAX_REPS 32

double bench_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

double bench_clock_overhead_ns(void)
{
    static double cached = -1;
    if (cached >= 0)
        return cached;
    enum { N = 2001 };
    double d[N];
    for (int i = 0; i < N; ++i) {
        double a = bench_now_ns();
        double b = bench_now_ns();
        d[i] = b - a;
    }
    cached = bench_median(d, N);
    return cached;
}

/* ------------------------------------------------------------ statistics */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(const double *v, int n)
{
    if (n <= 0)
        return NAN;
    double *c = malloc(sizeof *c * (size_t)n);
    if (!c)
        return NAN;
    memcpy(c, v, sizeof *c * (size_t)n);
    qsort(c, (size_t)n, sizeof *c, cmp_double);
    double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    free(c);
    return m;
}

void bench_mean_std(const double *v, int n, double *mean, double *std)
{
    double s = 0, s2 = 0;
    for (int i = 0; i < n; ++i)
        s += v[i];
    double m = n > 0 ? s / n : NAN;
    for (int i = 0; i < n; ++i)
        s2 += (v[i] - m) * (v[i] - m);
    *mean = m;
    *std = n > 1 ? sqrt(s2 / (n - 1)) : 0;
}

double bench_max(const double *v, int n)
{
    double m = n > 0 ? v[0] : NAN;
    for (int i = 1; i < n; ++i)
        if (v[i] > m)
            m = v[i];
    return m;
}

/* ------------------------------------------------------------ the harness */

static double time_block(const bench_query *q, void *ctx, int i, int reps)
{
    double acc = 0;
    double t0 = bench_now_ns();
    for (int r = 0; r < reps; ++r)
        acc += q->run(ctx, i);
    double t1 = bench_now_ns();
    bench_sink += acc;
    return t1 - t0;
}

static double time_sweep(const bench_query *q, void *ctx, int n)
{
    double acc = 0;
    double t0 = bench_now_ns();
    for (int i = 0; i < n; ++i)
        acc += q->run(ctx, i);
    double t1 = bench_now_ns();
    bench_sink += acc;
    return (t1 - t0) / n;
}

int bench_time(const bench_query *const *q, void *const *ctx, int nq, int n, int runs, double *per_problem,
               double *sweep_mean)
{
    double overhead = bench_clock_overhead_ns();
    int *reps = malloc(sizeof *reps * (size_t)nq * (size_t)n);
    double *samples = malloc(sizeof *samples * (size_t)nq * (size_t)n * (size_t)runs);
    double *sweeps = malloc(sizeof *sweeps * (size_t)nq * (size_t)runs);
    if (!reps || !samples || !sweeps) {
        free(reps);
        free(samples);
        free(sweeps);
        return 0;
    }
    /* Warm-up pass, which also sizes each problem's block. */
    for (int k = 0; k < nq; ++k) {
        for (int i = 0; i < n; ++i) {
            double t = time_block(q[k], ctx[k], i, 1) - overhead;
            int r = t > 0 ? (int)ceil(BLOCK_NS / t) : MAX_REPS;
            reps[k * n + i] = r < 1 ? 1 : r > MAX_REPS ? MAX_REPS : r;
        }
    }
    /* Interleaved runs: a noisy moment hits every library alike. */
    for (int run = 0; run < runs; ++run) {
        for (int k = 0; k < nq; ++k) {
            for (int i = 0; i < n; ++i) {
                int r = reps[k * n + i];
                double t = (time_block(q[k], ctx[k], i, r) - overhead) / r;
                samples[((size_t)k * n + i) * runs + run] = t > 0 ? t : 0;
            }
            sweeps[k * runs + run] = time_sweep(q[k], ctx[k], n);
        }
    }
    for (int k = 0; k < nq; ++k) {
        for (int i = 0; i < n; ++i)
            per_problem[k * n + i] = bench_median(&samples[((size_t)k * n + i) * runs], runs);
        if (sweep_mean)
            sweep_mean[k] = bench_median(&sweeps[k * runs], runs);
    }
    free(reps);
    free(samples);
    free(sweeps);
    return 1;
}
