/* mk_bench: declarations shared by the C files only (datasets, timing, tables). */
#ifndef MK_BENCH_C_H
#define MK_BENCH_C_H

#include <math.h>
#include <stdio.h>
#include "bench.h"
#include "oracle.h"

/* ------------------------------------------------------------ small vector helpers */

static inline mk_vec3 b3(double x, double y, double z) { mk_vec3 r = {x, y, z}; return r; }
static inline mk_vec3 b3_add(mk_vec3 a, mk_vec3 b) { return b3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline mk_vec3 b3_sub(mk_vec3 a, mk_vec3 b) { return b3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline mk_vec3 b3_scale(mk_vec3 a, double s) { return b3(a.x * s, a.y * s, a.z * s); }
static inline mk_vec3 b3_madd(mk_vec3 a, double s, mk_vec3 b) { return b3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double b3_dot(mk_vec3 a, mk_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double b3_len(mk_vec3 a) { return sqrt(b3_dot(a, a)); }
static inline mk_vec3 b3_neg(mk_vec3 a) { return b3(-a.x, -a.y, -a.z); }

/* ------------------------------------------------------------ datasets (dataset.c) */

int bench_pool_size(bench_family f, const bench_opts *o);
/* Whether --family selects f. */
int bench_family_selected(bench_family f, const bench_opts *o);
/* Builds `count` random shapes of the family; returns 0 on a core error. */
int bench_pool_make(bench_pool *pool, bench_family f, int count, or_rng *rng);
void bench_pool_free(bench_pool *pool);
/* `count` problems of the category, references certified (see dataset.c).
 * oracle_checks: how many separated references to cross-check with tests/oracle;
 * exact_depth: compute exact penetration depths where the oracle can (slow). */
int bench_set_make(bench_set *set, const bench_pool *pool, bench_category cat, int count, or_rng *rng,
                   int oracle_checks, int exact_depth);
void bench_set_free(bench_set *set);

/* ------------------------------------------------------------ timing (timing.c) */

double bench_now_ns(void);
/* Median cost of one clock_gettime pair, subtracted from every timed block. */
double bench_clock_overhead_ns(void);
extern volatile double bench_sink;

/* Times queries q[0..nq) on the n problems of their contexts, interleaved:
 * every run times each query on every problem (a block of reps calls, reps
 * picked so a block lasts >= ~1 us), and once more as one sweep over all the
 * problems. per_problem[k*n + i] gets the median over runs of problem i's ns per
 * call; sweep_mean[k] the median over runs of the sweep's mean ns per call.
 * Returns 0 on allocation failure. */
int bench_time(const bench_query *const *q, void *const *ctx, int nq, int n, int runs, double *per_problem,
               double *sweep_mean);

/* ------------------------------------------------------------ statistics */

double bench_median(const double *v, int n); /* copies; NAN for n == 0 */
void bench_mean_std(const double *v, int n, double *mean, double *std);
double bench_max(const double *v, int n);

/* ------------------------------------------------------------ our configurations (ours.c) */

typedef struct ours_config {
    const char *name;
    mk_gjk_variant variant;
    int normalize;
} ours_config;

#define OURS_CONFIG_COUNT 5
extern const ours_config ours_configs[OURS_CONFIG_COUNT];
/* param: an ours_config. */
extern const bench_query ours_distance;
extern const bench_query ours_boolean;
/* Penetration depth through the core's epa.h: configuration k (0: defaults,
 * 1: EPA tolerance 1e-4), NULL past the last or when the core has no EPA. */
const bench_query *ours_penetration_query(int k);

/* ------------------------------------------------------------ sections */

void section_gjk(const bench_opts *o);
void section_support(const bench_opts *o);
void section_penetration(const bench_opts *o);
void section_contact(const bench_opts *o);
void section_ray(const bench_opts *o);
void section_mesh(const bench_opts *o);

#endif
