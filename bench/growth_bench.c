/* mk_growth_bench: growth distance (issue 6) per query, cold start, warm start
 * after a small displacement, and Boolean mode, beside our GJK distance on the
 * same pairs. Prints a table; speed is measured, never asserted.
 *
 *     mk_growth_bench [--pairs N] [--runs R] [--seed S] [--quick] [--only DATASET]
 *     mk_growth_bench --calls K [--method cold|warm|bool] [--only DATASET]
 *
 * The second form times nothing: it calls the method K times on every pair, for
 * instruction counts under valgrind (cachegrind "I refs" at two K, difference
 * over the difference of calls = instructions per call):
 *     valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
 *         mk_growth_bench --pairs 200 --only boxes --calls 5
 *
 * Datasets (generated here, fixed seed):
 *   ellipsoids  semi-axes uniform in [0.05, 0.5] m
 *   boxes       half-extents uniform in [0.05, 0.5] m
 *   hull-240    hull of 240 random points on an ellipsoid with semi-axes in
 *               [0.05, 0.5] m (every point a vertex; > 32 vertices, so the
 *               support hill-climbs), a pool of 64 hulls
 *   capsules    radius uniform in [0.025, 0.25] m, half-height in [0.05, 0.5] m
 *               (rounded polytope cores: the corner steps of growth.c)
 *   cylinders   radius uniform in [0.025, 0.25] m, half-height in [0.05, 0.5] m
 *               (curved, not strictly convex: the paper's loop, converging
 *               linearly on the curved pieces; warm start from the wide basis)
 * Pairs: random rotations, B's centre at distance f (R_A + R_B) from A's along a
 * random direction, f uniform in [0.3, 1.3] (R = largest semi-axis / half-extent
 * norm): a mix of overlapping and separated pairs, split in the table by the
 * growth distance (sigma < 1 overlapping, > 1 separated). Centres: frame origins.
 * Warm start: the cache of a converged query at the pose, then B moved by 1% of
 * its size (translation 0.01 * R_B along a random direction, rotation about
 * 0.01 rad about a random axis) and queried from that cache.
 * Accuracy (one line per dataset, every pair, exit status 1 on any failure):
 * cold and warm brackets within the tolerance and equal to it, and sigma
 * checked independently: the shapes scaled by sigma (1 -+ 1e-5) about their
 * centres must be apart / overlap by our GJK Boolean on scaled callback shapes.
 *
 * Timing: CLOCK_MONOTONIC. Per pair, a block of `reps` identical calls (reps
 * chosen so a block lasts at least ~2 us), `runs` blocks interleaved across the
 * methods; per-call time = the median block / reps. Table: median (and 90th
 * percentile) over pairs. Warm calls start each repetition from a copy of the
 * cache (the copy, ~100 bytes, is inside the timing). Every result feeds a
 * volatile sink. Settings: growth defaults (tolerance sqrt(DBL_EPSILON), 100
 * iterations); GJK defaults (Nesterov, absolute gap 1e-8), cold. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <minkowski/minkowski.h>

#define PI 3.14159265358979323846
#define HULL_POOL 64
#define HULL_POINTS 240

typedef struct options {
    int pairs, runs;
    uint64_t seed;
    const char *only; /* one dataset (ellipsoids, boxes, hull-240, capsules, cylinders, 2d), or NULL for all */
    int calls;        /* > 0: instruction-count mode, each pair called this many times untimed */
    const char *method; /* that mode's method: cold, warm or bool */
} options;

/* ------------------------------------------------------------ random numbers */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(rng *r, double lo, double hi) { return lo + (hi - lo) * ((next(r) >> 11) * 0x1.0p-53); }

static mk_vec3 unit(rng *r)
{
    for (;;) {
        mk_vec3 v = {uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1)};
        double l = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        if (l > 1e-3 && l <= 1)
            return (mk_vec3){v.x / l, v.y / l, v.z / l};
    }
}

static mk_quat random_quat(rng *r)
{
    double u1 = uniform(r, 0, 1), u2 = uniform(r, 0, 2 * PI), u3 = uniform(r, 0, 2 * PI);
    double a = sqrt(1 - u1), b = sqrt(u1);
    return (mk_quat){a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3)};
}

/* ------------------------------------------------------------ datasets */

typedef enum dataset { DS_ELLIPSOIDS, DS_BOXES, DS_HULL240, DS_CAPSULES, DS_CYLINDERS, DS_COUNT } dataset;
static const char *DS_NAME[DS_COUNT] = {"ellipsoids", "boxes", "hull-240", "capsules", "cylinders"};

typedef struct problem {
    mk_shape a, b;
    mk_transform xa, xb, xb_moved;
    mk_growth_cache warm; /* converged at xb */
    double sigma;
} problem;

static double shape_radius(const mk_shape *s)
{
    mk_vec3 lo, hi;
    mk_shape_local_aabb(s, &lo, &hi);
    double x = fmax(-lo.x, hi.x), y = fmax(-lo.y, hi.y), z = fmax(-lo.z, hi.z);
    return s->type == MK_SHAPE_ELLIPSOID ? fmax(x, fmax(y, z)) : sqrt(x * x + y * y + z * z);
}

static void random_shape(rng *r, dataset ds, mk_hull *const *pool, mk_shape *s)
{
    mk_vec3 h = {uniform(r, 0.05, 0.5), uniform(r, 0.05, 0.5), uniform(r, 0.05, 0.5)};
    mk_status st = MK_OK;
    switch (ds) {
    case DS_ELLIPSOIDS: st = mk_shape_ellipsoid(s, h); break;
    case DS_BOXES: st = mk_shape_box(s, h, 0); break;
    case DS_CAPSULES: st = mk_shape_capsule(s, 0.5 * h.x, h.y); break;
    case DS_CYLINDERS: st = mk_shape_cylinder(s, 0.5 * h.x, h.y, 0); break;
    default: st = mk_shape_hull(s, pool[next(r) % HULL_POOL], 0); break;
    }
    if (st != MK_OK) {
        fprintf(stderr, "shape: %s\n", mk_status_string(st));
        exit(1);
    }
}

static mk_hull *random_hull(rng *r)
{
    mk_vec3 ax = {uniform(r, 0.05, 0.5), uniform(r, 0.05, 0.5), uniform(r, 0.05, 0.5)};
    mk_vec3 pts[HULL_POINTS];
    for (int i = 0; i < HULL_POINTS; ++i) {
        mk_vec3 u = unit(r);
        pts[i] = (mk_vec3){ax.x * u.x, ax.y * u.y, ax.z * u.z};
    }
    mk_hull *h = NULL;
    mk_status st = mk_hull_create(pts, HULL_POINTS, &h);
    if (st != MK_OK) {
        fprintf(stderr, "hull: %s\n", mk_status_string(st));
        exit(1);
    }
    return h;
}

static mk_transform compose_rot(const mk_transform *d, const mk_transform *x)
{
    mk_transform o;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            o.R.m[i][j] = d->R.m[i][0] * x->R.m[0][j] + d->R.m[i][1] * x->R.m[1][j] + d->R.m[i][2] * x->R.m[2][j];
    o.p = x->p;
    return o;
}

static mk_growth_input input_of(const problem *p, const mk_transform *xb)
{
    mk_growth_input in;
    memset(&in, 0, sizeof in);
    in.pair.a = &p->a;
    in.pair.b = &p->b;
    in.pair.xf_a = p->xa;
    in.pair.xf_b = *xb;
    return in;
}

static void make_problem(rng *r, dataset ds, mk_hull *const *pool, problem *p)
{
    random_shape(r, ds, pool, &p->a);
    random_shape(r, ds, pool, &p->b);
    double ra = shape_radius(&p->a), rb = shape_radius(&p->b);
    p->xa = mk_transform_from_quat((mk_vec3){0, 0, 0}, random_quat(r));
    mk_vec3 u = unit(r);
    double d = uniform(r, 0.3, 1.3) * (ra + rb);
    p->xb = mk_transform_from_quat((mk_vec3){d * u.x, d * u.y, d * u.z}, random_quat(r));
    /* The small displacement for warm start. */
    mk_vec3 axis = unit(r);
    double half = 0.005; /* 0.01 rad */
    mk_quat dq = {axis.x * sin(half), axis.y * sin(half), axis.z * sin(half), cos(half)};
    mk_transform rot = mk_transform_from_quat((mk_vec3){0, 0, 0}, dq);
    p->xb_moved = compose_rot(&rot, &p->xb);
    mk_vec3 t = unit(r);
    p->xb_moved.p.x += 0.01 * rb * t.x;
    p->xb_moved.p.y += 0.01 * rb * t.y;
    p->xb_moved.p.z += 0.01 * rb * t.z;
    memset(&p->warm, 0, sizeof p->warm);
    mk_growth_input in = input_of(p, &p->xb);
    mk_growth_result res;
    mk_status st = mk_growth_distance(&in, NULL, &p->warm, &res);
    if (st != MK_GJK_SEPARATED && st != MK_GJK_INTERSECTING) {
        fprintf(stderr, "%s: growth distance %s\n", DS_NAME[ds], mk_status_string(st));
        exit(1);
    }
    in = input_of(p, &p->xb_moved);
    mk_growth_distance(&in, NULL, NULL, &res);
    p->sigma = res.sigma;
}

/* ------------------------------------------------------------ methods */

typedef enum method { M_COLD, M_WARM, M_BOOL, M_GJK, M_COUNT } method;
static const char *M_NAME[M_COUNT] = {"growth cold", "growth warm", "growth Boolean", "GJK distance"};

static volatile double g_sink;

/* One call of a method on the displaced pose; returns its iteration count. */
static int call(const problem *p, method m)
{
    mk_growth_input in = input_of(p, &p->xb_moved);
    switch (m) {
    case M_COLD: {
        mk_growth_result r;
        mk_growth_distance(&in, NULL, NULL, &r);
        g_sink += r.sigma;
        return r.iterations;
    }
    case M_WARM: {
        mk_growth_cache c = p->warm;
        mk_growth_result r;
        mk_growth_distance(&in, NULL, &c, &r);
        g_sink += r.sigma;
        return r.iterations;
    }
    case M_BOOL: {
        mk_growth_intersect_result r;
        mk_growth_intersect(&in, NULL, NULL, &r);
        g_sink += r.status;
        return r.iterations;
    }
    case M_GJK: {
        mk_gjk_result r;
        mk_gjk_distance(&in.pair, NULL, NULL, &r);
        g_sink += r.distance;
        return r.iterations;
    }
    default: break;
    }
    return 0;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(double *v, int n, double q)
{
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i];
}

/* ------------------------------------------------------------ accuracy */

/* A shape scaled by k about its frame origin, through a user support callback
 * for its core and k times its rounding radius. */
typedef struct scaled {
    const mk_shape *s;
    double k;
} scaled;

static mk_vec3 scaled_support(const void *data, mk_vec3 d)
{
    const scaled *sc = data;
    mk_vec3 v = mk_shape_support(sc->s, d, NULL);
    return (mk_vec3){sc->k * v.x, sc->k * v.y, sc->k * v.z};
}

/* Do A and B scaled by k about their frame origins intersect? Our GJK Boolean
 * on callback shapes (no hull tables, no growth code involved): 1 yes, 0 no,
 * -1 no answer. */
static int scaled_overlap(const problem *p, double k)
{
    scaled sa = {&p->a, k}, sb = {&p->b, k};
    mk_vec3 lo, hi;
    mk_shape a, b;
    const mk_shape *src[2] = {&p->a, &p->b};
    const scaled *data[2] = {&sa, &sb};
    mk_shape *dst[2] = {&a, &b};
    for (int i = 0; i < 2; ++i) {
        mk_shape_local_aabb(src[i], &lo, &hi); /* of the whole shape: the core's is smaller by the radius */
        const double q = src[i]->radius;
        mk_shape_user(dst[i], scaled_support, data[i], (mk_vec3){k * (lo.x + q), k * (lo.y + q), k * (lo.z + q)},
                      (mk_vec3){k * (hi.x - q), k * (hi.y - q), k * (hi.z - q)}, k * q);
    }
    mk_pair pair = {&a, p->xa, &b, p->xb_moved};
    /* A relative gap tolerance: the default absolute one (1e-8 m^2) cannot
     * certify a separation of a few micrometres. */
    mk_gjk_settings gs = mk_gjk_default_settings();
    gs.variant = MK_GJK_VANILLA;
    gs.relative_tolerance = 1;
    gs.tolerance = 1e-12;
    gs.max_iterations = 1000;
    mk_gjk_intersect_result r;
    mk_status st = mk_gjk_intersect(&pair, &gs, NULL, &r);
    return st == MK_GJK_INTERSECTING ? 1 : st == MK_GJK_SEPARATED ? 0 : -1;
}

/* "Exact to the tolerance", checked on every pair of the dataset at the timed
 * pose: cold and warm status and bracket (lower <= sigma <= upper, relative
 * width within the tolerance), warm == cold to twice the tolerance, and an
 * independent check of sigma: the shapes scaled by sigma (1 - 1e-5) must be
 * apart and by sigma (1 + 1e-5) must overlap (our GJK Boolean on scaled
 * callback shapes; 1e-5 of a 0.05-0.5 m shape is 0.5-5 um, far above GJK's
 * Boolean resolution). Prints one line; returns the number of failures. */
static int check_accuracy(const problem *probs, int n, const char *name)
{
    const double tol = mk_growth_default_settings().tolerance;
    double worst_gap = 0, worst_warm = 0;
    int bad = 0, oracle_bad = 0;
    for (int i = 0; i < n; ++i) {
        const problem *p = &probs[i];
        mk_growth_input in = input_of(p, &p->xb_moved);
        mk_growth_result rc, rw;
        mk_growth_cache c = p->warm;
        mk_status sc = mk_growth_distance(&in, NULL, NULL, &rc);
        mk_status sw = mk_growth_distance(&in, NULL, &c, &rw);
        int ok = (sc == MK_GJK_SEPARATED || sc == MK_GJK_INTERSECTING) && sw == sc;
        double gap = (rc.upper_bound - rc.lower_bound) / rc.sigma;
        double warm = fabs(rw.sigma - rc.sigma) / rc.sigma;
        ok = ok && rc.lower_bound <= rc.sigma && rc.sigma <= rc.upper_bound && gap <= tol && warm <= 2 * tol;
        worst_gap = fmax(worst_gap, gap);
        worst_warm = fmax(worst_warm, warm);
        bad += !ok;
        int lo = scaled_overlap(p, rc.sigma * (1 - 1e-5)), hi = scaled_overlap(p, rc.sigma * (1 + 1e-5));
        if ((lo != 0 || hi != 1) && oracle_bad < 5)
            printf("  %s pair %d: sigma %.17g, scaled by sigma (1 - 1e-5) overlap %d, by sigma (1 + 1e-5) overlap %d\n",
                   name, i, rc.sigma, lo, hi);
        oracle_bad += lo != 0 || hi != 1;
    }
    printf("%-11s accuracy: max relative bracket %.1e (tolerance %.1e), warm vs cold %.1e; bracket/status "
           "failures %d, scaled-shape oracle failures %d of %d\n",
           name, worst_gap, tol, worst_warm, bad, oracle_bad, n);
    return bad + oracle_bad;
}

/* ------------------------------------------------------------ 2D */

/* Cold 2D queries on random 8-gons (vertices on an ellipse with semi-axes in
 * [0.05, 0.5] m, sorted angles), placed as the 3D pairs. */
static void bench_2d(rng *r, const options *o);

/* ------------------------------------------------------------ main */


/* Instruction-count mode: every dataset generated as in the table (so the pairs
 * are the same), the chosen one (--only) or all called o->calls times per pair,
 * no clock. Prints the mean iterations per call. */
static int count_mode(const options *o, rng *r, mk_hull *const *pool, problem *probs)
{
    method m = !strcmp(o->method, "warm") ? M_WARM : !strcmp(o->method, "bool") ? M_BOOL : M_COLD;
    for (int ds = 0; ds < DS_COUNT; ++ds) {
        for (int i = 0; i < o->pairs; ++i)
            make_problem(r, (dataset)ds, pool, &probs[i]);
        if (o->only && strcmp(o->only, DS_NAME[ds]))
            continue;
        double its = 0;
        for (int i = 0; i < o->pairs; ++i)
            for (int k = 0; k < o->calls; ++k)
                its += call(&probs[i], m);
        printf("%s %s: %d pairs x %d calls, %.2f iterations per call\n", DS_NAME[ds], M_NAME[m], o->pairs, o->calls,
               its / ((double)o->pairs * o->calls));
    }
    return 0;
}

static void usage(void)
{
    printf("usage: mk_growth_bench [--pairs N] [--runs R] [--seed S] [--quick]\n"
           "  --pairs N  problems per dataset (default 1000)\n"
           "  --runs R   timing blocks per problem and method, median taken (default 7)\n"
           "  --seed S   dataset seed (default 6)\n"
           "  --quick    100 pairs, 5 runs\n"
           "  --only D   only dataset D: ellipsoids, boxes, hull-240, capsules, cylinders or 2d\n"
           "             (for profiling)\n"
           "  --calls K  no timing: call --method on every pair K times (for valgrind instruction counts;\n"
           "             instructions per call = difference of two K over the difference of calls)\n"
           "  --method M cold (default), warm or bool, with --calls\n");
}

int main(int argc, char **argv)
{
    options o = {1000, 7, 6, NULL, 0, "cold"};
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
            o.pairs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            o.runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            o.seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            o.only = argv[++i];
        else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
            o.calls = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--method") && i + 1 < argc)
            o.method = argv[++i];
        else if (!strcmp(argv[i], "--quick")) {
            o.pairs = 100;
            o.runs = 5;
        } else {
            usage();
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (o.pairs < 1 || o.runs < 1) {
        usage();
        return 2;
    }

    rng r = {o.seed};
    mk_hull *pool[HULL_POOL];
    for (int i = 0; i < HULL_POOL; ++i)
        pool[i] = random_hull(&r);
    int nv = 0;
    for (int i = 0; i < HULL_POOL; ++i)
        nv += pool[i]->num_vertices;

    problem *probs = malloc(sizeof *probs * (size_t)o.pairs);
    double *block = malloc(sizeof *block * (size_t)o.runs);
    double *ns[M_COUNT][2];
    double *its[M_COUNT][2];
    for (int m = 0; m < M_COUNT; ++m)
        for (int c = 0; c < 2; ++c) {
            ns[m][c] = malloc(sizeof(double) * (size_t)o.pairs);
            its[m][c] = malloc(sizeof(double) * (size_t)o.pairs);
        }
    if (!probs || !block)
        return 1;

    if (o.calls > 0)
        return count_mode(&o, &r, pool, probs);

    printf("mk_growth_bench: %d pairs per dataset, %d runs, seed %llu; hull-240 pool: %d hulls, %.1f vertices "
           "on average\n",
           o.pairs, o.runs, (unsigned long long)o.seed, HULL_POOL, (double)nv / HULL_POOL);
    printf("ns per query: median over pairs (90th percentile); it: mean iterations per query\n\n");
    printf("%-11s %-11s %5s |", "dataset", "pairs", "n");
    for (int m = 0; m < M_COUNT; ++m)
        printf(" %-22s |", M_NAME[m]);
    printf("\n");

    int failures = 0;
    for (int ds = 0; ds < DS_COUNT; ++ds) {
        for (int i = 0; i < o.pairs; ++i)
            make_problem(&r, (dataset)ds, pool, &probs[i]);
        if (o.only && strcmp(o.only, DS_NAME[ds]))
            continue; /* generated all the same: the next datasets stay the same */
        int count[2] = {0, 0};
        for (int i = 0; i < o.pairs; ++i) {
            const problem *p = &probs[i];
            int cat = p->sigma > 1;
            /* Repetitions so a block lasts about 2 us (from one cold call). */
            double t0 = now_ns();
            call(p, M_COLD);
            double one = now_ns() - t0;
            int reps = one > 0 ? (int)(2000 / one) + 1 : 64;
            if (reps > 256)
                reps = 256;
            double per[M_COUNT][16];
            int it[M_COUNT];
            int runs = o.runs > 16 ? 16 : o.runs;
            for (int run = 0; run < runs; ++run)
                for (int m = 0; m < M_COUNT; ++m) {
                    double t = now_ns();
                    for (int k = 0; k < reps; ++k)
                        it[m] = call(p, (method)m);
                    per[m][run] = (now_ns() - t) / reps;
                }
            for (int m = 0; m < M_COUNT; ++m) {
                for (int run = 0; run < runs; ++run)
                    block[run] = per[m][run];
                ns[m][cat][count[cat]] = quantile(block, runs, 0.5);
                its[m][cat][count[cat]] = it[m];
            }
            count[cat]++;
        }
        static const char *CAT[2] = {"overlapping", "separated"};
        for (int c = 0; c < 2; ++c) {
            printf("%-11s %-11s %5d |", DS_NAME[ds], CAT[c], count[c]);
            for (int m = 0; m < M_COUNT; ++m) {
                double mean_it = 0;
                for (int i = 0; i < count[c]; ++i)
                    mean_it += its[m][c][i];
                mean_it = count[c] ? mean_it / count[c] : NAN;
                double med = quantile(ns[m][c], count[c], 0.5), p90 = quantile(ns[m][c], count[c], 0.9);
                printf(" %5.0f (%5.0f) ns %4.1f it |", med, p90, mean_it);
            }
            printf("\n");
        }
        /* All pairs together. */
        printf("%-11s %-11s %5d |", DS_NAME[ds], "all", count[0] + count[1]);
        for (int m = 0; m < M_COUNT; ++m) {
            int n = 0;
            double mean_it = 0;
            double *all = malloc(sizeof(double) * (size_t)o.pairs);
            for (int c = 0; c < 2; ++c)
                for (int i = 0; i < count[c]; ++i) {
                    all[n++] = ns[m][c][i];
                    mean_it += its[m][c][i];
                }
            double med = quantile(all, n, 0.5), p90 = quantile(all, n, 0.9);
            printf(" %5.0f (%5.0f) ns %4.1f it |", med, p90, n ? mean_it / n : NAN);
            free(all);
        }
        printf("\n");
        failures += check_accuracy(probs, o.pairs, DS_NAME[ds]);
        fflush(stdout);
    }

    if (!o.only || !strcmp(o.only, "2d"))
        bench_2d(&r, &o);

    for (int m = 0; m < M_COUNT; ++m)
        for (int c = 0; c < 2; ++c) {
            free(ns[m][c]);
            free(its[m][c]);
        }
    free(block);
    free(probs);
    for (int i = 0; i < HULL_POOL; ++i)
        mk_hull_destroy(pool[i]);
    if (failures)
        printf("\n%d accuracy failures (see the accuracy lines)\n", failures);
    return g_sink == 12345.6789 ? 3 : failures ? 1 : 0;
}

typedef struct poly8 {
    mk_vec2 v[8];
    mk_shape2d s;
} poly8;

static void random_poly8(rng *r, poly8 *p)
{
    double ax = uniform(r, 0.05, 0.5), ay = uniform(r, 0.05, 0.5), th[8];
    for (;;) {
        for (int i = 0; i < 8; ++i)
            th[i] = uniform(r, 0, 2 * PI);
        for (int i = 1; i < 8; ++i)
            for (int j = i; j > 0 && th[j] < th[j - 1]; --j) {
                double t = th[j];
                th[j] = th[j - 1];
                th[j - 1] = t;
            }
        double gap = th[0] + 2 * PI - th[7];
        for (int i = 1; i < 8; ++i)
            gap = fmax(gap, th[i] - th[i - 1]);
        if (gap < 0.9 * PI)
            break;
    }
    for (int i = 0; i < 8; ++i)
        p->v[i] = (mk_vec2){ax * cos(th[i]), ay * sin(th[i])};
    p->s.vertices = p->v;
    p->s.count = 8;
    p->s.radius = 0;
}

static void bench_2d(rng *r, const options *o)
{
    poly8 *pa = malloc(sizeof *pa * (size_t)o->pairs), *pb = malloc(sizeof *pb * (size_t)o->pairs);
    mk_growth_input2d *in = malloc(sizeof *in * (size_t)o->pairs);
    double *ns = malloc(sizeof(double) * (size_t)o->pairs), *block = malloc(sizeof(double) * (size_t)o->runs);
    if (!pa || !pb || !in || !ns || !block)
        exit(1);
    double its = 0;
    for (int i = 0; i < o->pairs; ++i) {
        random_poly8(r, &pa[i]);
        random_poly8(r, &pb[i]);
        memset(&in[i], 0, sizeof in[i]);
        in[i].a = &pa[i].s;
        in[i].b = &pb[i].s;
        double ra = 0, rb = 0;
        for (int k = 0; k < 8; ++k) {
            ra = fmax(ra, hypot(pa[i].v[k].x, pa[i].v[k].y));
            rb = fmax(rb, hypot(pb[i].v[k].x, pb[i].v[k].y));
        }
        double d = uniform(r, 0.3, 1.3) * (ra + rb), th = uniform(r, 0, 2 * PI);
        in[i].pose_a = (mk_pose2d){0, 0, uniform(r, 0, 2 * PI)};
        in[i].pose_b = (mk_pose2d){d * cos(th), d * sin(th), uniform(r, 0, 2 * PI)};
    }
    for (int i = 0; i < o->pairs; ++i) {
        mk_growth_result2d res;
        int reps = 32;
        for (int run = 0; run < o->runs; ++run) {
            double t = now_ns();
            for (int k = 0; k < reps; ++k) {
                mk_growth_distance_2d(&in[i], NULL, &res);
                g_sink += res.sigma;
            }
            block[run] = (now_ns() - t) / reps;
        }
        ns[i] = quantile(block, o->runs, 0.5);
        its += res.iterations;
    }
    double med = quantile(ns, o->pairs, 0.5), p90 = quantile(ns, o->pairs, 0.9);
    printf("\n2D (mk_growth_distance_2d), 8-gons, cold: %.0f (%.0f) ns, %.1f iterations per query (%d pairs)\n", med,
           p90, its / o->pairs, o->pairs);
    free(pa);
    free(pb);
    free(in);
    free(ns);
    free(block);
}
