/* Check suite "epa": penetration depth (mk_epa) and signed distance
 * (mk_signed_distance) against independent truths (tests/oracle.c).
 *
 * Truths: the separating-axis oracle for polytope cores (penetration depth =
 * minus the largest separation over the face normals of both and the edge x
 * edge cross products, or_poly_sat / or_exact_distance), closed forms for
 * spheres, capsules and axis-aligned boxes, and for curved cores a sampled
 * minimum of the oracle's support formulas (an upper bound of the true depth).
 *
 * Accuracy contract being tested. EPA stops when its certified bounds meet:
 * upper - lower <= max(tol, rel_tol * depth) (or at the floating-point floor,
 * flagged). The reported depth is the upper bound, attained by the reported
 * normal: the overlap of the shapes along the normal, recomputed here from
 * the oracle's support values, equals the depth. Hence
 *     0 <= depth - true depth <= upper - lower,
 * and the true depth lies in [lower, upper]. Witnesses satisfy
 * point_b - point_a = distance * normal and lie on the surfaces to within the
 * gap. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <minkowski/epa.h>
#include "epa_seed.h"
#include "oracle.h"
#include "require.h"
#include "vec.h"

#define PI 3.14159265358979323846
/* Absolute slack for rounding in oracle and query (unit-size scenes). */
#define SLACK 1e-9

/* ------------------------------------------------------------ helpers */

static mk_transform pose_aa(mk_vec3 p, mk_vec3 axis, double angle)
{
    mk_vec3 u = v3_normalize_or(axis, v3(0, 0, 1));
    mk_quat q = {u.x * sin(angle / 2), u.y * sin(angle / 2), u.z * sin(angle / 2), cos(angle / 2)};
    return mk_transform_from_quat(p, q);
}

static mk_transform compose(const mk_transform *a, const mk_transform *b)
{
    mk_transform r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.R.m[i][j] = a->R.m[i][0] * b->R.m[0][j] + a->R.m[i][1] * b->R.m[1][j] + a->R.m[i][2] * b->R.m[2][j];
    r.p = xf_apply(a, b->p);
    return r;
}

static int finite3(mk_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* One workspace per test process (fork mode: one per test). */
static void *workspace(size_t *bytes)
{
    static void *ws = NULL;
    static size_t n = 0;
    if (!ws) {
        n = mk_epa_workspace_size(mk_epa_default_settings().max_iterations);
        ws = malloc(n);
        ck_assert_ptr_nonnull(ws);
    }
    *bytes = n;
    return ws;
}

static mk_status signed_distance(const mk_shape *a, mk_transform xa, const mk_shape *b, mk_transform xb,
                                 const mk_epa_settings *es, mk_signed_distance_result *r)
{
    size_t n;
    void *ws = workspace(&n);
    mk_pair p = {a, xa, b, xb};
    return mk_signed_distance(&p, NULL, es, NULL, ws, n, r);
}

/* Separation of the shapes along unit n (A to B) from the oracle's support
 * formulas: > 0 a gap, < 0 the overlap along n. */
static double separation_along(const mk_shape *a, const mk_transform *xa, const mk_shape *b, const mk_transform *xb,
                               mk_vec3 n)
{
    return -or_support_value(b, xb, v3_neg(n)) - or_support_value(a, xa, n);
}

/* ------------------------------------------------------------ the common check */

/* What is known about the true signed distance of a pair. */
typedef struct truth {
    int exact;     /* d is exact (to rounding) */
    double d;      /* signed distance of the full shapes */
    double hi;     /* not exact: a certified upper bound of the signed distance... */
    double lo;     /* ... and a lower one (-INFINITY if none) */
} truth;

static truth exact(double d)
{
    truth t = {1, d, d, d};
    return t;
}

/* Statistics of a batch. */
typedef struct stats {
    int pairs, penetrating, separated, other;
    int epa_runs, max_epa_iters;
    long epa_iters;
    int flags[7];
    double *err;
    int nerr, cap;
    double max_err, max_gap;
} stats;

static void stats_init(stats *s, int cap)
{
    memset(s, 0, sizeof *s);
    s->cap = cap > 0 ? cap : 1;
    s->err = malloc(sizeof(double) * (size_t)s->cap);
    ck_assert_ptr_nonnull(s->err);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void stats_print(const char *name, stats *s)
{
    qsort(s->err, (size_t)s->nerr, sizeof(double), cmp_double);
    double median = s->nerr ? s->err[s->nerr / 2] : 0;
    printf("epa %-28s %6d pairs: %d penetrating, %d separated, %d other; |error| vs oracle max %.3g median %.3g "
           "(%d exact); max gap %.3g; EPA runs %d, iterations mean %.2f max %d; flags seed-grown %d touching %d "
           "cores-apart %d floor %d degenerate %d closed-form %d inner-cores %d\n",
           name, s->pairs, s->penetrating, s->separated, s->other, s->max_err, median, s->nerr, s->max_gap,
           s->epa_runs, s->epa_runs ? (double)s->epa_iters / s->epa_runs : 0.0, s->max_epa_iters, s->flags[0],
           s->flags[1], s->flags[2], s->flags[3], s->flags[4], s->flags[5], s->flags[6]);
    fflush(stdout);
    free(s->err);
}

typedef struct scene {
    const char *name;
    int index;
    const mk_shape *a, *b;
    mk_transform xa, xb;
} scene;

#define FAIL_IF(cond, ...)                                                                                         \
    do {                                                                                                           \
        if (cond) {                                                                                                \
            char msg_[640];                                                                                        \
            snprintf(msg_, sizeof msg_, __VA_ARGS__);                                                              \
            fprintf(stderr, "failing scene %s #%d: %s\n", sc->name, sc->index, msg_);                              \
            or_dump_shape("A", sc->a, &sc->xa);                                                                    \
            or_dump_shape("B", sc->b, &sc->xb);                                                                    \
            ck_abort_msg("%s #%d: %s", sc->name, sc->index, msg_);                                                 \
        }                                                                                                          \
    } while (0)

/* Size of a scene (for relative slack): the larger bounding radius. */
static double scene_scale(const scene *sc)
{
    mk_vec3 lo, hi;
    mk_shape_local_aabb(sc->a, &lo, &hi);
    double s = fmax(v3_max_abs(lo), v3_max_abs(hi));
    mk_shape_local_aabb(sc->b, &lo, &hi);
    s = fmax(s, fmax(v3_max_abs(lo), v3_max_abs(hi)));
    return s > 1 ? s : 1;
}

/* Everything a signed-distance answer promises, against the truth.
 * tol is the EPA tolerance asked for (absolute). */
static void check_result(const scene *sc, const mk_signed_distance_result *r, const truth *t, double tol,
                         stats *st)
{
    const double s = SLACK * scene_scale(sc);
    FAIL_IF(!isfinite(r->distance) || !isfinite(r->lower_bound) || !isfinite(r->upper_bound) ||
                !finite3(r->point_a) || !finite3(r->point_b) || !finite3(r->normal),
            "non-finite output (status %s)", mk_status_string(r->status));
    FAIL_IF(fabs(v3_len(r->normal) - 1) > 1e-12, "normal not unit: |n| = %.17g", v3_len(r->normal));
    FAIL_IF(r->status != MK_PENETRATING && r->status != MK_GJK_SEPARATED, "status %s",
            mk_status_string(r->status));
    FAIL_IF(!(r->lower_bound <= r->distance + 1e-15 && r->distance <= r->upper_bound + 1e-15),
            "distance %.17g outside its own bracket [%.17g, %.17g]", r->distance, r->lower_bound, r->upper_bound);
    FAIL_IF((r->status == MK_PENETRATING && r->distance > 0) || (r->status == MK_GJK_SEPARATED && r->distance < 0),
            "status %s with distance %.17g", mk_status_string(r->status), r->distance);
    double gap = r->upper_bound - r->lower_bound;
    int from_epa = r->status == MK_PENETRATING && !(r->epa_flags & MK_EPA_FLAG_CORES_SEPARATED);
    if (from_epa && !(r->epa_flags & MK_EPA_FLAG_PRECISION_FLOOR))
        FAIL_IF(gap > tol * (1 + 1e-9) + s, "EPA converged with a gap %.3g > tolerance %.3g", gap, tol);

    /* The truth is inside the certified bracket; the value is as close as the gap. */
    if (t->exact) {
        FAIL_IF(t->d < r->lower_bound - s || t->d > r->upper_bound + s,
                "bracket [%.17g, %.17g] misses the exact %.17g (status %s, flags %d)", r->lower_bound,
                r->upper_bound, t->d, mk_status_string(r->status), r->epa_flags);
        /* the sign is certain beyond the bracket's width */
        FAIL_IF(t->d < -(gap + s) && r->status != MK_PENETRATING, "overlap of %.3g reported %s", -t->d,
                mk_status_string(r->status));
        FAIL_IF(t->d > gap + s && r->status != MK_GJK_SEPARATED, "gap of %.3g reported %s", t->d,
                mk_status_string(r->status));
        double err = fabs(r->distance - t->d);
        FAIL_IF(err > gap + s, "error %.3g beyond the gap %.3g", err, gap);
        if (st) {
            if (st->nerr < st->cap)
                st->err[st->nerr++] = err;
            st->max_err = fmax(st->max_err, err);
        }
    } else {
        FAIL_IF(r->lower_bound > t->hi + s || r->upper_bound < t->lo - s,
                "bracket [%.17g, %.17g] misses the truth bracket [%.17g, %.17g]", r->lower_bound, r->upper_bound,
                t->lo, t->hi);
    }

    /* The normal achieves the distance: the shapes' separation along it,
     * recomputed from the oracle's supports, is the reported distance (EPA) or
     * at most it (GJK: any direction's separation is a lower bound). */
    double sep = separation_along(sc->a, &sc->xa, sc->b, &sc->xb, r->normal);
    if (from_epa)
        FAIL_IF(fabs(sep - r->distance) > s, "separation along the normal %.17g != distance %.17g", sep,
                r->distance);
    FAIL_IF(sep > r->upper_bound + s, "separation along the normal %.17g above the upper bound %.17g", sep,
            r->upper_bound);
    FAIL_IF(sep < r->lower_bound - fmax(gap, 1e-4) - s, "normal far from optimal: separation %.17g, bracket [%.17g, %.17g]",
            sep, r->lower_bound, r->upper_bound);

    /* Witnesses: b - a = distance * normal, both on their surfaces. */
    mk_vec3 dv = v3_sub(v3_sub(r->point_b, r->point_a), v3_scale(r->normal, r->distance));
    FAIL_IF(v3_len(dv) > 10 * s + 1e-12 * fabs(r->distance), "point_b - point_a - distance n = %.3g", v3_len(dv));
    double da = or_point_shape(sc->a, &sc->xa, r->point_a, NULL);
    double db = or_point_shape(sc->b, &sc->xb, r->point_b, NULL);
    if (isfinite(da) && isfinite(db)) {
        double on = fmax(gap, 1e-7) + s;
        FAIL_IF(fabs(da) > on || fabs(db) > on, "witnesses off the surfaces: A %.3g, B %.3g (gap %.3g)", da, db, gap);
    }

    if (st) {
        ++st->pairs;
        if (r->status == MK_PENETRATING)
            ++st->penetrating;
        else if (r->status == MK_GJK_SEPARATED)
            ++st->separated;
        else
            ++st->other;
        if (r->epa_iterations > 0 || (r->epa_flags & ~(MK_EPA_FLAG_CORES_SEPARATED | MK_EPA_FLAG_CLOSED_FORM))) {
            ++st->epa_runs;
            st->epa_iters += r->epa_iterations;
            if (r->epa_iterations > st->max_epa_iters)
                st->max_epa_iters = r->epa_iterations;
        }
        for (int k = 0; k < 7; ++k)
            if (r->epa_flags & (1 << k))
                ++st->flags[k];
        st->max_gap = fmax(st->max_gap, gap);
    }
}

/* Exact scene: signed distance from or_exact_distance (polytope, segment and
 * point cores, spheres), checked under a tolerance. */
static void check_exact_scene(const char *name, int index, const mk_shape *a, mk_transform xa, const mk_shape *b,
                              mk_transform xb, const mk_epa_settings *es, stats *st)
{
    scene scv = {name, index, a, b, xa, xb};
    const scene *sc = &scv;
    double d;
    ck_assert_msg(or_exact_distance(a, &xa, b, &xb, &d, NULL, NULL), "%s: no exact oracle for this pair", name);
    truth t = exact(d);
    mk_signed_distance_result r;
    signed_distance(a, xa, b, xb, es, &r);
    check_result(sc, &r, &t, es ? es->tolerance : 1e-8, st);
}

static mk_epa_settings tol_settings(double tol, double rel)
{
    mk_epa_settings s = mk_epa_default_settings();
    s.tolerance = tol;
    s.relative_tolerance = rel;
    return s;
}

/* Tolerances the random tests cycle through. */
static const double TOLS[] = {1e-8, 1e-10, 1e-12, 1e-6};
#define NTOLS ((int)(sizeof TOLS / sizeof TOLS[0]))

/* ------------------------------------------------------------ random polytopes */

static void make_pools(or_rng *r, or_hull_pool *p12, or_hull_pool *p60)
{
    mk_status s = or_hull_pool_make(p12, r, 24, 12);
    ck_assert_msg(s == MK_OK, "hull pool (12 points): %s %s", mk_status_string(s), p12->error);
    s = or_hull_pool_make(p60, r, 24, 60);
    ck_assert_msg(s == MK_OK, "hull pool (60 points): %s %s", mk_status_string(s), p60->error);
}

/* A random overlapping placement: or_place_pair with the support planes
 * overlapping by `overlap`; when its sideways slide left the shapes apart, B
 * moves towards A along the exact closest-point direction by the distance
 * plus `overlap`. Returns the exact signed distance (< 0) of the result. */
static double place_overlapping(or_rng *r, const mk_shape *a, const mk_shape *b, double overlap, mk_transform *xa,
                                mk_transform *xb)
{
    double d = 0;
    for (int attempt = 0; attempt < 100 && !(d < 0); ++attempt) {
        or_place_pair(r, a, b, -overlap, xa, xb);
        mk_vec3 pa, pb;
        ck_assert(or_exact_distance(a, xa, b, xb, &d, &pa, &pb));
        if (d >= 0) {
            mk_vec3 u = v3_normalize_or(v3_sub(pb, pa), or_unit(r));
            xb->p = v3_madd(xb->p, -(d + overlap), u);
            ck_assert(or_exact_distance(a, xa, b, xb, &d, NULL, NULL));
        }
    }
    return d;
}

/* Overlap of the support planes: mostly substantial, some tiny, some 1 cm. */
static double random_overlap(or_rng *r)
{
    int k = or_int(r, 10);
    if (k < 2)
        return pow(10, or_uniform(r, -7, -2));
    if (k == 2)
        return 0.01;
    return or_uniform(r, 1e-3, 1.2);
}

/* At least 10,000 random overlapping polytope pairs (boxes and mk_hull_create
 * hulls of 12 and 60 points, any orientation) against the exact SAT oracle,
 * under four tolerances. */
START_TEST(random_polytopes_vs_sat_oracle)
{
    or_rng r = or_test_rng(0xe9a0001);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    static const or_family kinds[6][2] = {{OR_BOX, OR_BOX},       {OR_BOX, OR_HULL12},    {OR_HULL12, OR_HULL12},
                                          {OR_HULL12, OR_HULL60}, {OR_BOX, OR_HULL60},    {OR_HULL60, OR_HULL60}};
    int n = or_scaled(10000);
    stats st;
    stats_init(&st, n);
    int overlapping = 0, failures = 0, beyond_tol = 0;
    double max_err[NTOLS] = {0};
    for (int i = 0; i < n; ++i) {
        mk_shape a, b;
        or_random_shape(&r, kinds[i % 6][0], &p12, &p60, &a);
        or_random_shape(&r, kinds[i % 6][1], &p12, &p60, &b);
        mk_transform xa, xb;
        double d = place_overlapping(&r, &a, &b, random_overlap(&r), &xa, &xb);
        mk_epa_settings es = tol_settings(TOLS[i % NTOLS], 0);
        scene scv = {"random polytopes", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        truth t = exact(d);
        overlapping += d < 0;
        mk_signed_distance_result res;
        signed_distance(&a, xa, &b, xb, &es, &res);
        check_result(sc, &res, &t, es.tolerance, &st);
        double err = fabs(res.distance - d);
        int k = i % NTOLS;
        max_err[k] = fmax(max_err[k], err);
        beyond_tol += err > TOLS[k] + 1e-12;
        failures += res.status != MK_PENETRATING || !isfinite(res.distance);
    }
    stats_print("random polytopes vs SAT", &st);
    for (int k = 0; k < NTOLS; ++k)
        printf("    tolerance %.0e: max |error| %.3g\n", TOLS[k], max_err[k]);
    printf("    %d failures (status other than MK_PENETRATING or NaN), %d errors beyond the tolerance\n", failures,
           beyond_tol);
    ck_assert_int_eq(failures, 0);
    ck_assert_int_eq(beyond_tol, 0);
    ck_assert_int_eq(overlapping, n);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* A point of D = A - B (A's frame) from the shapes' supports along d, and the
 * pair of core points it came from. */
static void d_support(const mk_pair *p, mk_vec3 d, mk_vec3 *a, mk_vec3 *b)
{
    const mk_mat3 R = m3_tmul_m3(&p->xf_a.R, &p->xf_b.R);
    const mk_vec3 t = m3_tmul(&p->xf_a.R, v3_sub(p->xf_b.p, p->xf_a.p));
    *a = mk_shape_support(p->a, d, NULL);
    *b = v3_add(m3_mul(&R, mk_shape_support(p->b, m3_tmul(&R, v3_neg(d)), NULL)), t);
}

/* EPA from a caller's points (epa_seed.h, collide.c's face-pair path): on
 * random overlapping polytope pairs, seeded with D's supports along the six
 * axes and the eight cube diagonals (a polytope around the origin), the
 * signed distance agrees with the exact oracle to the tolerance, inside its
 * bracket, with witnesses that far apart along the normal. Seeds it cannot start from
 * (four coplanar points, too few or too many points) give 0 and leave the
 * result alone. */
START_TEST(epa_from_points_vs_sat_oracle)
{
    or_rng r = or_test_rng(0xe9a5eed);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    size_t bytes;
    void *ws = workspace(&bytes);
    const mk_epa_settings es = mk_epa_default_settings();
    int n = or_scaled(1000), answered = 0;
    double worst = 0;
    for (int i = 0; i < n; ++i) {
        mk_shape a, b;
        or_random_shape(&r, i % 3 == 0 ? OR_BOX : OR_HULL12, &p12, &p60, &a);
        or_random_shape(&r, i % 2 == 0 ? OR_HULL60 : OR_HULL12, &p12, &p60, &b);
        mk_transform xa, xb;
        const double d = place_overlapping(&r, &a, &b, random_overlap(&r), &xa, &xb);
        mk_pair p = {&a, xa, &b, xb};
        mk_vec3 pa[14], pb[14];
        for (int k = 0; k < 14; ++k) {
            const mk_vec3 dir = k < 6 ? v3(k / 2 == 0 ? (k & 1 ? -1 : 1) : 0, k / 2 == 1 ? (k & 1 ? -1 : 1) : 0,
                                            k / 2 == 2 ? (k & 1 ? -1 : 1) : 0)
                                      : v3((k - 6) & 1 ? -1 : 1, (k - 6) & 2 ? -1 : 1, (k - 6) & 4 ? -1 : 1);
            d_support(&p, dir, &pa[k], &pb[k]);
        }
        mk_signed_distance_result sd;
        memset(&sd, 0, sizeof sd);
        if (!mk_epa_from_points(&p, pa, pb, 14, &es, ws, bytes, &sd)) {
            ck_assert_int_eq(sd.status, 0); /* untouched */
            continue;
        }
        ++answered;
        ck_assert_int_eq(sd.status, MK_PENETRATING);
        const double err = fabs(sd.distance - d);
        worst = fmax(worst, err);
        ck_assert_msg(err <= es.tolerance + 1e-12, "pair %d: distance %.17g, exact %.17g", i, sd.distance, d);
        ck_assert(sd.lower_bound <= d + 1e-12 && d <= sd.upper_bound + 1e-12);
        ck_assert(fabs(v3_len(sd.normal) - 1) < 1e-12);
        mk_vec3 gap = v3_sub(v3_sub(sd.point_b, sd.point_a), v3_scale(sd.normal, sd.distance));
        ck_assert(v3_len(gap) <= 1e-9 * (1 + v3_max_abs(sd.point_a)));
    }
    printf("epa from points: %d of %d overlapping pairs answered from 14 supports, worst |error| %.3g\n", answered, n,
           worst);
    ck_assert_int_gt(answered, n * 9 / 10);

    /* Seeds it cannot start from. */
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, v3(0.5, 0.5, 0.5), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(0.5, 0.5, 0.5), 0), MK_OK);
    mk_pair p = {&a, pose_aa(v3(0, 0, 0), v3(0, 0, 1), 0), &b, pose_aa(v3(0.1, 0, 0.9), v3(0, 0, 1), 0.3)};
    mk_vec3 pa[MK_EPA_SEED_VERTICES + 1], pb[MK_EPA_SEED_VERTICES + 1];
    for (int k = 0; k < 4; ++k) /* a - b on A's top face less one point of B: coplanar */
        pa[k] = v3(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, 0.5), pb[k] = v3(0.1, 0, 0.4);
    mk_signed_distance_result sd;
    memset(&sd, 0, sizeof sd);
    ck_assert_int_eq(mk_epa_from_points(&p, pa, pb, 4, &es, ws, bytes, &sd), 0);
    ck_assert_int_eq(mk_epa_from_points(&p, pa, pb, 3, &es, ws, bytes, &sd), 0);
    for (int k = 4; k <= MK_EPA_SEED_VERTICES; ++k)
        pa[k] = pa[0], pb[k] = pb[0];
    ck_assert_int_eq(mk_epa_from_points(&p, pa, pb, MK_EPA_SEED_VERTICES + 1, &es, ws, bytes, &sd), 0);
    ck_assert_int_eq(mk_epa_from_points(&p, pa, pb, 4, &es, ws, 16, &sd), 0); /* workspace too small */
    ck_assert_int_eq(sd.status, 0);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* Rounded polytopes, spheres and capsules against polytopes: the radii add to
 * the depth, and cores that are apart but closer than the radii give a
 * negative distance from GJK alone. Exact oracle for every pair here. */
START_TEST(random_rounded_and_segment_cores)
{
    or_rng r = or_test_rng(0xe9a0002);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    static const or_family fam[] = {OR_SPHERE, OR_BOX, OR_CAPSULE, OR_HULL12, OR_ROUNDED_BOX, OR_ROUNDED_HULL};
    const int nf = (int)(sizeof fam / sizeof fam[0]);
    int n = or_scaled(3000);
    stats st;
    stats_init(&st, n);
    for (int i = 0; i < n; ++i) {
        mk_shape a, b;
        or_random_shape(&r, fam[or_int(&r, nf)], &p12, &p60, &a);
        or_random_shape(&r, fam[or_int(&r, nf)], &p12, &p60, &b);
        mk_transform xa, xb;
        or_place_pair(&r, &a, &b, -random_overlap(&r), &xa, &xb);
        mk_epa_settings es = tol_settings(TOLS[i % NTOLS], 0);
        check_exact_scene("rounded and segment cores", i, &a, xa, &b, xb, &es, &st);
    }
    stats_print("rounded, spheres, capsules", &st);
    ck_assert_int_gt(st.flags[2], 0); /* some pairs had only their radii overlapping */
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* ------------------------------------------------------------ curved cores */

/* min over unit n of the overlap along n, by sampling (an upper bound of the
 * true depth: every direction's overlap is >= the depth), refined locally. */
static double sampled_depth(const mk_shape *a, const mk_transform *xa, const mk_shape *b, const mk_transform *xb,
                            mk_vec3 start)
{
    mk_vec3 best_n = start;
    double best = -separation_along(a, xa, b, xb, start);
    const int m = 4000;
    for (int i = 0; i < m; ++i) { /* Fibonacci sphere */
        double z = 1 - (2.0 * i + 1) / m, rr = sqrt(1 - z * z), phi = i * 2.39996322972865332;
        mk_vec3 n = v3(rr * cos(phi), rr * sin(phi), z);
        double o = -separation_along(a, xa, b, xb, n);
        if (o < best) {
            best = o;
            best_n = n;
        }
    }
    /* pattern search on the sphere */
    for (double step = 0.05; step > 1e-9; step *= 0.5)
        for (int improved = 1, guard = 0; improved && guard < 200; ++guard) {
            improved = 0;
            mk_vec3 u1, u2;
            mk_vec3 ax = fabs(best_n.x) < 0.6 ? v3(1, 0, 0) : v3(0, 1, 0);
            u1 = v3_normalize_or(v3_cross(best_n, ax), v3(0, 0, 1));
            u2 = v3_cross(best_n, u1);
            for (int k = 0; k < 8; ++k) {
                double t = k * PI / 4;
                mk_vec3 n = v3_normalize_or(v3_add(best_n, v3_scale(v3_add(v3_scale(u1, cos(t)), v3_scale(u2, sin(t))), step)), best_n);
                double o = -separation_along(a, xa, b, xb, n);
                if (o < best) {
                    best = o;
                    best_n = n;
                    improved = 1;
                }
            }
        }
    return best;
}

/* Cylinders, cones, ellipsoids and their rounded versions: no closed form, so
 * the bracket must contain the sampled minimum's neighbourhood: the depth is
 * at most the sampled minimum (which over-estimates the truth) plus the gap,
 * and the certified lower bound may not exceed the sampled minimum. */
START_TEST(random_curved_cores)
{
    or_rng r = or_test_rng(0xe9a0003);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    static const or_family fam[] = {OR_CYLINDER, OR_CONE, OR_ELLIPSOID, OR_ROUNDED_CYLINDER, OR_ROUNDED_CONE,
                                    OR_BOX, OR_HULL60};
    const int nf = (int)(sizeof fam / sizeof fam[0]);
    int n = or_scaled(400);
    stats st;
    stats_init(&st, n);
    int worse = 0, at_bound = 0;
    double worst = 0;
    for (int i = 0; i < n; ++i) {
        mk_shape a, b;
        or_random_shape(&r, fam[or_int(&r, 5)], &p12, &p60, &a);
        or_random_shape(&r, fam[or_int(&r, nf)], &p12, &p60, &b);
        mk_transform xa, xb;
        or_place_pair(&r, &a, &b, -or_uniform(&r, 0.01, 0.8), &xa, &xb);
        mk_signed_distance_result res;
        mk_epa_settings es = tol_settings(1e-8, 0);
        signed_distance(&a, xa, &b, xb, &es, &res);
        scene scv = {"curved cores", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        if (res.status == MK_EPA_MAX_ITER) {
            /* EPA's iteration bound, reported as such: on curved cores the
             * gap closes by about half a support, and a rare pair needs more
             * than 128 (MK_TEST_SCALE=100, pair 20051: two cylinders 0.65
             * deep, the bracket 1.55e-8 wide after 128). Its bracket must
             * still hold the truth and the answer its own bracket. */
            ++at_bound;
            double dmin = sampled_depth(&a, &xa, &b, &xb, res.normal);
            FAIL_IF(!isfinite(res.distance) || !(res.lower_bound <= res.distance && res.distance <= res.upper_bound),
                    "iteration bound: distance %.17g, bracket [%.17g, %.17g]", res.distance, res.lower_bound,
                    res.upper_bound);
            FAIL_IF(res.upper_bound < -dmin - SLACK * scene_scale(sc),
                    "iteration bound: upper bound %.17g below -%.17g, the sampled depth",
                    res.upper_bound, dmin);
            continue;
        }
        if (res.status != MK_PENETRATING) {
            truth t = {0, NAN, INFINITY, 0}; /* placed overlapping or touching along u */
            check_result(sc, &res, &t, 1e-8, &st);
            continue;
        }
        /* every direction's overlap is >= the true depth: signed distance >= -dmin */
        double dmin = sampled_depth(&a, &xa, &b, &xb, res.normal);
        truth t = {0, NAN, INFINITY, -dmin};
        check_result(sc, &res, &t, 1e-8, &st);
        double depth = -res.distance, gap = res.upper_bound - res.lower_bound;
        FAIL_IF(depth > dmin + gap + SLACK, "depth %.17g above the sampled minimum %.17g by more than the gap %.3g",
                depth, dmin, gap);
        if (depth - dmin > worst)
            worst = depth - dmin;
        worse += depth > dmin + SLACK;
    }
    stats_print("curved cores", &st);
    printf("epa curved cores: EPA depth above the sampled minimum (within its gap) in %d pairs, worst by %.3g; "
           "%d at the iteration bound\n",
           worse, worst, at_bound);
    /* rare: none in the default run, 3 of 40,000 at MK_TEST_SCALE=100, 2 of
     * 24,000 over MK_TEST_SEED=1..15 at MK_TEST_SCALE=4 (seeds 9 and 15, one
     * each; the old bound n / 2000 allowed none below 2,000 pairs), so a few
     * are allowed */
    ck_assert_int_le(at_bound, 2 + n / 2000);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* ------------------------------------------------------------ analytic */

START_TEST(analytic_spheres)
{
    or_rng r = or_test_rng(0xe9a0004);
    stats st;
    stats_init(&st, 2000);
    for (int i = 0; i < 2000; ++i) {
        mk_shape a, b;
        double ra = or_uniform(&r, 0.1, 2), rb = or_uniform(&r, 0.1, 2);
        ck_assert_int_eq(mk_shape_sphere(&a, ra), MK_OK);
        ck_assert_int_eq(mk_shape_sphere(&b, rb), MK_OK);
        mk_transform xa = or_pose(&r, or_in_ball(&r, 3));
        mk_vec3 u = or_unit(&r);
        double c = i % 10 == 0 ? 0 : or_uniform(&r, 0, ra + rb);
        mk_transform xb = or_pose(&r, v3_madd(xa.p, c, u));
        mk_signed_distance_result res;
        signed_distance(&a, xa, &b, xb, NULL, &res);
        scene scv = {"spheres", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        truth t = exact(or_sphere_sphere(xa.p, ra, xb.p, rb, NULL, NULL));
        check_result(sc, &res, &t, 1e-8, &st);
        ck_assert_double_eq_tol(res.distance, c - ra - rb, 1e-12);
        if (c > 1e-9) /* the normal is along the centres */
            ck_assert_double_eq_tol(v3_dot(res.normal, u), 1, 1e-9);
    }
    stats_print("analytic spheres", &st);
}
END_TEST

START_TEST(analytic_capsules)
{
    or_rng r = or_test_rng(0xe9a0005);
    stats st;
    stats_init(&st, 3000);
    for (int i = 0; i < 3000; ++i) {
        mk_shape a, b;
        ck_assert_int_eq(mk_shape_capsule(&a, or_uniform(&r, 0.05, 0.6), or_uniform(&r, 0.1, 1)), MK_OK);
        ck_assert_int_eq(mk_shape_capsule(&b, or_uniform(&r, 0.05, 0.6), or_uniform(&r, 0.1, 1)), MK_OK);
        mk_transform xa = or_pose(&r, or_in_ball(&r, 2)), xb;
        int kind = i % 3;
        if (kind == 0) { /* parallel */
            xb = xa;
            xb.p = v3_add(xa.p, v3_add(v3_scale(mk_rotate(&xa.R, v3(1, 0, 0)), or_uniform(&r, 0, 0.5)),
                                       v3_scale(mk_rotate(&xa.R, v3(0, 0, 1)), or_uniform(&r, -1, 1))));
        } else if (kind == 1) { /* crossing axes (distance 0 between the cores at times) */
            mk_transform t = pose_aa(v3(or_uniform(&r, -0.5, 0.5), or_uniform(&r, -0.3, 0.3), or_uniform(&r, -0.5, 0.5)),
                                     or_unit(&r), or_uniform(&r, 0.3, PI - 0.3));
            if (i % 9 == 1)
                t.p = v3(0, 0, 0); /* axes through one point: flat difference */
            xb = compose(&xa, &t);
        } else {
            xb = or_pose(&r, v3_add(xa.p, or_in_ball(&r, 1)));
        }
        double ha = a.u.capsule.half_height, hb = b.u.capsule.half_height;
        double d = or_capsule_capsule(xf_apply(&xa, v3(0, 0, -ha)), xf_apply(&xa, v3(0, 0, ha)), a.radius,
                                      xf_apply(&xb, v3(0, 0, -hb)), xf_apply(&xb, v3(0, 0, hb)), b.radius, NULL, NULL);
        mk_signed_distance_result res;
        signed_distance(&a, xa, &b, xb, NULL, &res);
        scene scv = {"capsules", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        truth t = exact(d);
        check_result(sc, &res, &t, 1e-8, &st);
    }
    stats_print("analytic capsules", &st);
}
END_TEST

/* Axis-aligned boxes: the depth is the smallest per-axis overlap. */
/* Two sharp boxes with half extents uniform in [0.05, 1]. */
static void random_boxes(or_rng *r, mk_shape *a, mk_vec3 *ha, mk_shape *b, mk_vec3 *hb)
{
    *ha = v3(or_uniform(r, 0.05, 1), or_uniform(r, 0.05, 1), or_uniform(r, 0.05, 1));
    *hb = v3(or_uniform(r, 0.05, 1), or_uniform(r, 0.05, 1), or_uniform(r, 0.05, 1));
    ck_assert_int_eq(mk_shape_box(a, *ha, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(b, *hb, 0), MK_OK);
}

START_TEST(analytic_boxes)
{
    or_rng r = or_test_rng(0xe9a0006);
    stats st;
    stats_init(&st, 3000);
    for (int i = 0; i < 3000; ++i) {
        mk_vec3 ha, hb;
        mk_shape a, b;
        random_boxes(&r, &a, &ha, &b, &hb);
        mk_vec3 ca = or_in_ball(&r, 2);
        mk_vec3 cb = v3_add(ca, v3(or_uniform(&r, -1, 1) * (ha.x + hb.x), or_uniform(&r, -1, 1) * (ha.y + hb.y),
                                   or_uniform(&r, -1, 1) * (ha.z + hb.z)));
        if (i % 20 == 0)
            cb = ca;
        mk_transform xa = mk_transform_identity(), xb = mk_transform_identity();
        xa.p = ca;
        xb.p = cb;
        double d = or_aabb_aabb(v3_sub(ca, ha), v3_add(ca, ha), v3_sub(cb, hb), v3_add(cb, hb), NULL, NULL);
        mk_signed_distance_result res;
        signed_distance(&a, xa, &b, xb, NULL, &res);
        scene scv = {"axis-aligned boxes", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        truth t = exact(d);
        check_result(sc, &res, &t, 1e-8, &st);
        if (d < -1e-9) { /* the normal is a coordinate axis */
            double m = fmax(fabs(res.normal.x), fmax(fabs(res.normal.y), fabs(res.normal.z)));
            ck_assert_msg(m > 1 - 1e-9, "pair %d: normal (%g, %g, %g) not an axis", i, res.normal.x, res.normal.y,
                          res.normal.z);
        }
    }
    stats_print("analytic boxes", &st);
}
END_TEST

/* ------------------------------------------------------------ hostile cases */

static void box_scene(const char *name, int index, mk_vec3 ha, mk_transform xa, mk_vec3 hb, mk_transform xb,
                      stats *st)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, ha, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, hb, 0), MK_OK);
    for (int k = 0; k < NTOLS; ++k) {
        mk_epa_settings es = tol_settings(TOLS[k], 0);
        check_exact_scene(name, index, &a, xa, &b, xb, &es, st);
    }
}

/* A scene of the hostile cases found by test_contracts: poses from their
 * rotation matrices (row by row) and positions, the signed distance with
 * EPA's settings es (NULL: defaults), and the witnesses' distances to their
 * shapes (oracle). */
typedef struct hostile_scene {
    mk_transform xa, xb;
    mk_signed_distance_result r;
    mk_status status;
    double off_a, off_b; /* witnesses' signed distances to their shapes */
    double along;        /* |point_b - point_a - distance * normal| */
} hostile_scene;

static void hostile_scene_run(const mk_shape *a, const double ra[9], mk_vec3 pa, const mk_shape *b,
                              const double rb[9], mk_vec3 pb, const mk_epa_settings *es, hostile_scene *h)
{
    for (int k = 0; k < 9; ++k) {
        h->xa.R.m[k / 3][k % 3] = ra[k];
        h->xb.R.m[k / 3][k % 3] = rb[k];
    }
    h->xa.p = pa;
    h->xb.p = pb;
    mk_pair p = {a, h->xa, b, h->xb};
    const size_t bytes = mk_epa_workspace_size(128);
    void *ws = malloc(bytes);
    h->status = mk_signed_distance(&p, NULL, es, NULL, ws, bytes, &h->r);
    free(ws);
    h->off_a = or_point_shape(a, &h->xa, h->r.point_a, NULL);
    h->off_b = or_point_shape(b, &h->xb, h->r.point_b, NULL);
    h->along = v3_len(v3_sub(v3_sub(h->r.point_b, h->r.point_a), v3_scale(h->r.normal, h->r.distance)));
}

/* The witnesses on their shapes and distance * normal apart, to 1e-9 of the
 * scene's size (test_contracts' slack). */
static void witnesses_within(const hostile_scene *h, double size)
{
    ck_assert_msg(fabs(h->off_a) <= 1e-9 * size && fabs(h->off_b) <= 1e-9 * size,
                  "witnesses off their shapes by %g and %g", h->off_a, h->off_b);
    ck_assert_msg(h->along <= 1e-9 * size, "point_b - point_a - distance * normal = %g", h->along);
}

/* A box 2600 across touching a cone 1850 tall (scale 1e3): GJK's last
 * tetrahedron is flat (the origin on D's boundary), EPA cannot seed a
 * polytope from it, and the witnesses come from the tetrahedron's weights,
 * whose rounding grows as it flattens: point_a lay 3.8e-5 off the box (2.9e-8
 * of its size). Its faces' projections compete now (epa.c,
 * gjk_common_point). Found by test_contracts at MK_TEST_SCALE=30 (ours, not
 * a peer's reported bug). */
START_TEST(hostile_flat_simplex_witnesses_at_a_large_scale)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, v3(0x1.4730852b6ab4dp+10, 0x1.81bf1af3897e6p+9, 0x1.0612f8db57ce8p+10), 0),
                     MK_OK);
    ck_assert_int_eq(mk_shape_cone(&b, 0x1.45d95d49ccc3cp+8, 0x1.cfd6517b316e1p+9, 0), MK_OK);
    static const double ra[9] = {-0x1.35117e6e9beap-2,  0x1.9a984d50f6a76p-2, 0x1.bad99b0979ff6p-1,
                                 -0x1.e7b9031ab6eb5p-1, -0x1.713c3be1e6f1p-4, -0x1.2997b2caaaa28p-2,
                                 -0x1.3be025870a7ep-5,  -0x1.d2c30f62c1de6p-1, 0x1.a2fcab09f07dep-2};
    static const double rb[9] = {-0x1.7a78bf9c206p-6,  0x1.59ffb0e068544p-2, -0x1.e1bdf1b81a13fp-1,
                                 -0x1.cbc811c89c8dcp-2, 0x1.acbdb1bdadb4ap-1, 0x1.3f386514c7b32p-2,
                                 0x1.c9557ea8cb991p-1,  0x1.b7fbc67afe9c6p-2, 0x1.0f1847d28def4p-3};
    hostile_scene h;
    hostile_scene_run(&a, ra, v3(0x1.1c51a74a1acbbp+0, 0x1.353cf534fe424p+0, -0x1.338b94c8df18p-7), &b, rb,
                      v3(0x1.4c92a6b10dd3p+2, 0x1.a6f9c41a53c22p+8, -0x1.3a61b9aaca55ap+10), NULL, &h);
    ck_assert(h.status == MK_PENETRATING || h.status == MK_GJK_SEPARATED);
    ck_assert(fabs(h.r.distance) <= 1e-9);
    const double size = 1309;
    ck_assert_msg(h.off_a <= 1e-9 * size && h.off_b <= 1e-9 * size, "witnesses off their shapes by %g and %g",
                  h.off_a, h.off_b);
}
END_TEST

/* A box's corner touching a cone's side (scale 1e3, 5.6e-9 deep): GJK ends
 * on a triangle whose points of B are that corner three times and whose
 * points of A are the apex and two rim points 0.3 apart, too flat for EPA.
 * The weighted sum of the cone's points lies inside the cone by the chord's
 * sag, and the witnesses, put about the half sum of the two weighted points,
 * lay 3.8e-6 off both shapes (3.4e-9 of the size). The corner itself is the
 * contact: a shape whose support points are all one point gives that point
 * (epa.c, gjk_common_point). Found by test_contracts at MK_TEST_SCALE=1000
 * (ours, not a peer's reported bug). */
START_TEST(hostile_corner_on_a_cone_side_witnesses)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cone(&a, 0x1.17bdeb654b0bcp+10, 0x1.01d1eef39becfp+10, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(0x1.46298889fa9dep+9, 0x1.431517a7d5fdfp+9, 0x1.b8856550fe5bcp+9), 0),
                     MK_OK);
    static const double ra[9] = {-0x1.d07a505347058p-2, 0x1.0efa11dd398cap-1,  -0x1.6f1ff5c318f84p-1,
                                 0x1.07d2db7e9adc4p-1,  -0x1.005d46e7cd2e2p-1, -0x1.641d9e3db23a9p-1,
                                 -0x1.744c6a5cecbe4p-1, -0x1.5eb411670d723p-1, -0x1.758298f5078cp-5};
    static const double rb[9] = {-0x1.d00a4f62496dap-1, 0x1.c524d94a42b6cp-5,  -0x1.acfdee8e10dffp-2,
                                 -0x1.e1a7d5baf8074p-8, -0x1.fc92fa62f045ap-1, -0x1.d814ad65cf58bp-4,
                                 -0x1.b0a659f9beacdp-2, -0x1.9f3fb54956bfdp-4, 0x1.cd24b9d7f67p-1};
    hostile_scene h;
    hostile_scene_run(&a, ra, v3(0x1.00d1ed03806d3p+1, 0x1.c2d227f727419p+0, -0x1.17c29379312fp-1), &b, rb,
                      v3(-0x1.4765bbecff262p+9, 0x1.c207bc5ef5864p+1, 0x1.5b4945df801fcp+10), NULL, &h);
    ck_assert(h.status == MK_PENETRATING || h.status == MK_GJK_SEPARATED);
    ck_assert(fabs(h.r.distance) <= 1e-8);
    witnesses_within(&h, 1119); /* the scene's size */
}
END_TEST

/* A cone 2.6e-9 from a hull's vertex: GJK's distance is certified, but
 * touching to rounding, so EPA gives the normal (epa.c, mk_signed_distance),
 * from the same kind of triangle as above (the vertex three times). With the
 * vertex kept as EPA's point (above), EPA's support bound put the pair 1.1e-9
 * deep, and moved apart to GJK's distance about their midpoint the witnesses
 * lay 1.9e-9 off the cone (2.6e-9 of the size): the vertex must stay and the
 * cone's point move (found by test_contracts at MK_TEST_SCALE=1000 while
 * fixing the case above; the half sum the library used before passed here). */
START_TEST(hostile_cone_near_a_hull_vertex_witnesses)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cone(&a, 0x1.0a6b2f03b58c6p-1, 0x1.e61ffde12dce5p-3, 0), MK_OK);
    static const mk_vec3 pts[10] = {
        {-0x1.5f18bce0359d4p-2, 0x1.16431cd7dad7dp-2, -0x1.bed1d3152368fp-2},
        {0x1.a501d29e2ebb7p-5, 0x1.1ea06690fbfd6p-3, 0x1.6f791b981356dp-1},
        {-0x1.651e8f2e21fdcp-3, 0x1.dd3bba4f38b78p-2, 0x1.939aaf4846367p-3},
        {-0x1.8f78fed06933dp-4, 0x1.80fef85d2bb5ep-3, 0x1.5e89e333b12a4p-1},
        {0x1.3118763435be9p-2, -0x1.cf3eb3f66d636p-3, 0x1.ab6af3fb7dea2p-2},
        {-0x1.a3b3212e09a2fp-7, -0x1.dc919c96de16dp-8, -0x1.7fbbe98f65a3ap-1},
        {0x1.fbe876acb7df1p-2, 0x1.2db763a720d59p-3, -0x1.10142197647ddp-2},
        {0x1.7ecd7d121246bp-2, -0x1.91c3996a807f5p-4, 0x1.132127b697e28p-1},
        {-0x1.0f29812d734d8p-3, -0x1.16ee1c6900e5dp-2, 0x1.4610ee7c42e93p-3},
        {-0x1.7b7ef0c1b7e8p-2, -0x1.614752f46a961p-3, 0x1.ffae7c42fb28fp-2}};
    mk_hull *hull = NULL;
    ck_assert_int_eq(mk_hull_create(pts, 10, &hull), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&b, hull, 0), MK_OK);
    static const double ra[9] = {0x1.d0fed6c4f39e8p-1,  -0x1.1d9878f40d6c1p-2, 0x1.3f93237aa344ep-2,
                                 0x1.ac6c01389a93dp-2,  0x1.408c19f33db16p-1,  -0x1.50e87e0e2d048p-1,
                                 -0x1.84b53a6ec6b1p-7,  0x1.74d47d436f73p-1,   0x1.5edcf078260a4p-1};
    static const double rb[9] = {0x1.8ccd576845dap-5,   0x1.759636d448f7ap-1,  -0x1.5d3afbcf2ecb5p-1,
                                 0x1.791c7f7d1bdecp-4,  -0x1.5dd27e68fdbc2p-1, -0x1.72df544929728p-1,
                                 -0x1.fd38ca1b73bd7p-1, -0x1.c60a888c8a5cp-6,  -0x1.9ab873bf0592p-4};
    hostile_scene h;
    hostile_scene_run(&a, ra, v3(-0x1.5703a301ef058p-1, -0x1.233297277b0ap+1, -0x1.50abb91511c2p-2), &b, rb,
                      v3(-0x1.b433a4d8defafp-3, -0x1.781b71c98a414p+0, 0x1.0736b95fb7c8bp-2), NULL, &h);
    mk_hull_destroy(hull);
    ck_assert_int_eq(h.status, MK_GJK_SEPARATED);
    ck_assert(h.r.distance > 0 && h.r.distance < 1e-8);
    witnesses_within(&h, 0.73); /* the scene's size */
}
END_TEST

/* An ellipsoid 2700 across touching a box's edge at the scale 1e3 (1.1e-8
 * deep): GJK's projections stalled with |x| = 8.1e-6 and a gap of 3e-7,
 * which the restart rule took for the floating-point floor (below 65536
 * DBL_EPSILON |w|^2 = 7.6e-5, where the gap's rounding is about 1e-9), and
 * the witnesses from the touching point lay 4.1e-6 off both shapes (2.7e-9
 * of the size). A stall that far above the rounding restarts now (gjk.c,
 * MK_GJK_FLOOR). Found by test_contracts at MK_TEST_SCALE=1000 (ours). */
START_TEST(hostile_touching_stall_restarts)
{
    mk_shape a, b;
    ck_assert_int_eq(
        mk_shape_ellipsoid(&a, v3(0x1.0b4be91713587p+10, 0x1.50b6f12f7dcecp+10, 0x1.15454256bb75ep+9)), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(0x1.272777b08af75p+10, 0x1.d05cdbf3e343fp+9, 0x1.757bf37b9f85ap+10), 0),
                     MK_OK);
    static const double ra[9] = {-0x1.e4bd9f3f39cfp-1, 0x1.d55e0462c102cp-5,  -0x1.4468083919b6cp-2,
                                 0x1.4078905b45a48p-2, 0x1.941767e926bbcp-2,  -0x1.ba51abba7eadbp-1,
                                 0x1.355351b4c0ca7p-4, -0x1.d5885f4e59023p-1, -0x1.90f05d1f3b45cp-2};
    static const double rb[9] = {-0x1.a229ee8ef3dc6p-1, -0x1.1e8d211f0d218p-3, 0x1.1e9ebc9c046d6p-1,
                                 -0x1.b4f1a86c886cap-2, -0x1.036541a589e68p-1, -0x1.7f9296a2687edp-1,
                                 0x1.8dc2455b9ba2cp-2,  -0x1.b393513ea128dp-1, 0x1.6a92f6a765a56p-2};
    hostile_scene h;
    hostile_scene_run(&a, ra, v3(-0x1.402bdf30aa7fep+0, 0x1.59f762f1c716cp+0, -0x1.631efc24928c7p+0), &b, rb,
                      v3(-0x1.d1883416ff499p+10, 0x1.1f0c3186c507dp+8, 0x1.02f8a78442db4p+11), NULL, &h);
    ck_assert(h.status == MK_PENETRATING || h.status == MK_GJK_SEPARATED);
    ck_assert(fabs(h.r.distance) <= 1e-7);
    witnesses_within(&h, 1494); /* the scene's size */
}
END_TEST

/* A cone 10 deep in a box at the scale 1e3: EPA's bracket closed to 1.5e-8,
 * but late updates bent its polytope inward (a face 1.2 from the origin,
 * among 260), and the nearest plane crossing along the normal, the exit of a
 * convex polytope, lay on that face at 9.994: the witnesses, moved to the
 * depth from there, lay 1.5e-3 off the box (1e-6 of the size). The crossing
 * lies nearer than the certified lower bound, so the triangles give the exit
 * then, the farthest crossing (epa.c, ray_exit). Found by test_contracts at
 * MK_TEST_SCALE=1000 (ours, not a peer's reported bug). */
START_TEST(hostile_bent_polytope_exit_keeps_witnesses)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cone(&a, 0x1.2cc150af5386dp+10, 0x1.231f36179a7fep+10, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(0x1.38f36585de524p+10, 0x1.76974620f83dep+10, 0x1.6ca2fa46cf9a4p+8), 0),
                     MK_OK);
    static const double ra[9] = {0x1.2f23f0ed9c16cp-3,  0x1.32091ab6eb202p-3, 0x1.f48bf527ab6a6p-1,
                                 -0x1.ebe2fd924d55p-7,  0x1.fa3cbf35d2e1ep-1, -0x1.30dc34cbbff9cp-3,
                                 -0x1.fa4d4513106ep-1,  0x1.e2397b793a2ap-8,  0x1.30528a29a62e4p-3};
    static const double rb[9] = {-0x1.5fdd3fc9a1698p-1, 0x1.6ed2681ab2d71p-1,  0x1.ebac8ac7ff8c8p-4,
                                 -0x1.e310d2341ede3p-3, -0x1.8165cc646ea28p-2, 0x1.cab90b4271f0ep-1,
                                 0x1.5fc85a3a5ef3ap-1,  0x1.2cc0f9dc75d0ep-1,  0x1.b5e799446a2c6p-2};
    hostile_scene h;
    hostile_scene_run(&a, ra, v3(0x1.21afbb57f9e7ep+1, 0x1.540c47ad93dp-4, 0x1.8208549a0f0cdp+0), &b, rb,
                      v3(-0x1.ad05a2f0094b8p+10, 0x1.1cc0a740419b4p+11, -0x1.85faa7d846214p+9), NULL, &h);
    ck_assert(h.status == MK_PENETRATING || h.status == MK_EPA_MAX_ITER); /* the latter: 128 iterations */
    ck_assert(fabs(h.r.distance + 10) <= 1e-6);
    /* 5e-9 and 1.5e-9 now; test_contracts allows 5.5e-4 at this bracket
     * (its width, 1.5e-8, times the depth, square-rooted) */
    witnesses_within(&h, 1498); /* the scene's size */
}
END_TEST

/* An ellipsoid 10 deep in a cylinder at the scale 1e3 (EPA's absolute
 * tolerance 1e-8 out of reach: its budget of 128 iterations): late in the run
 * a sliver face that took a neighbour's normal had a negative offset, the
 * exit of the ray along the normal was declared not found, and the witnesses
 * fell back to GJK's common point, 0.067 off the cylinder. The triangles
 * themselves give the exit then (epa.c, ray_exit): 5e-9. Found by
 * test_contracts at MK_TEST_SCALE=300 (ours, not a peer's reported bug). */
START_TEST(hostile_sliver_face_at_the_budget_keeps_witnesses)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_ellipsoid(&a, v3(0x1.fa57a12ddb946p+9, 0x1.2e3f09d39146bp+9, 0x1.ff2cee02e1d1p+7)),
                     MK_OK);
    ck_assert_int_eq(mk_shape_cylinder(&b, 0x1.4e228e7357a28p+10, 0x1.4027d8982cf88p+10, 0), MK_OK);
    static const double ra[9] = {-0x1.e8bfb6385e2c8p-2, -0x1.90577d94e1ba6p-1, -0x1.9a9dfd24273fp-2,
                                 0x1.f0d763f82ef08p-3,  0x1.490ddba3e20e4p-2,  -0x1.d4aa2c2d1347ep-1,
                                 0x1.b06e70f637124p-1,  -0x1.117f90893105p-1,  0x1.298305c2995fp-5};
    static const double rb[9] = {0x1.0a3ef29a2d188p-3,  -0x1.ca100cab805dcp-1, -0x1.b5af79fad407ap-2,
                                 -0x1.5338bbed27b84p-1, 0x1.f04b6bc744b18p-3,  -0x1.6ae00e3047665p-1,
                                 0x1.79ae1b9caa871p-1,  0x1.8055b1543a0dep-2,  -0x1.1f5b1f115e152p-1};
    hostile_scene h;
    hostile_scene_run(&a, ra, v3(0x1.9aa2a817e657fp+0, 0x1.5100c01887a76p-1, -0x1.00ef5f9fc0754p+0), &b, rb,
                      v3(-0x1.142a7969243e7p+3, -0x1.20c5fbe5d9b0bp+9, 0x1.02dcec96ea037p+11), NULL, &h);
    ck_assert(h.status == MK_PENETRATING || h.status == MK_EPA_MAX_ITER);
    ck_assert(h.r.lower_bound <= h.r.distance && h.r.distance <= h.r.upper_bound && h.r.distance < -9.99);
    witnesses_within(&h, 1337); /* the scene's size */
}
END_TEST

/* An ellipsoid 2300 across against a cone 2000 across at the scale 1e3, EPA
 * with only a relative tolerance (1e-9): the ray's exit found on the
 * triangles (a face's offset not positive) was clamped into its triangle,
 * and the weights' point missed the ray by 1.6e-6: point_b - point_a was
 * not along the normal. The pair's midpoint is put apart then (epa.c,
 * ray_witnesses). Found by test_contracts at MK_TEST_SCALE=300. */
START_TEST(hostile_clamped_exit_keeps_witnesses_along_the_normal)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_ellipsoid(&a, v3(0x1.fdf7106ea1d2fp+7, 0x1.cb311c79e21a4p+8, 0x1.1d07b7545269ap+10)),
                     MK_OK);
    ck_assert_int_eq(mk_shape_cone(&b, 0x1.f4f73a9133bb2p+9, 0x1.199dfbb6437fap+8, 0), MK_OK);
    static const double ra[9] = {0x1.00106657a7859p-1, 0x1.14653c716db04p-4,  0x1.ba0513cd2d3dcp-1,
                                 0x1.472ee2a590734p-1, -0x1.673355b24b0bep-1, -0x1.42ecd9cb65074p-2,
                                 0x1.2b35a86b9c0fp-1,  0x1.6b371ab1fb7e4p-1,  -0x1.9372566453d7cp-2};
    static const double rb[9] = {0x1.8459c2956b858p-3,  0x1.78dcc877dba9p-1,  0x1.4cb4825a56ef7p-1,
                                 -0x1.f63bacff22e22p-1, 0x1.cf94ae2559dbp-4,  0x1.43adaa029cae6p-3,
                                 0x1.5e80be62565ep-5,   -0x1.55b3e89e9bbbep-1, 0x1.7ca964e08ec72p-1};
    mk_epa_settings rel = mk_epa_default_settings();
    rel.tolerance = 0;
    rel.relative_tolerance = 1e-9;
    hostile_scene h;
    hostile_scene_run(&a, ra, v3(0x1.a1a5e8ec7b59dp+0, 0x1.e4e919488c8cap-1, 0x1.1dcb41ff596p-2), &b, rb,
                      v3(0x1.8e06c9e157a22p+10, -0x1.28fd30e40fb36p+10, -0x1.fdff04b02c725p+8), &rel, &h);
    ck_assert(h.status == MK_PENETRATING || h.status == MK_EPA_MAX_ITER || h.status == MK_GJK_SEPARATED);
    ck_assert_msg(h.along <= 1e-9 * 1140, "point_b - point_a - distance * normal = %g", h.along);
}
END_TEST

/* Boxes touching or nearly touching (face-face, edge-edge, vertex-face,
 * overlaps and gaps of 0 to 1e-6): GJK ends with the origin on the boundary of
 * the difference, a triangle or segment through it, and EPA implementations
 * that assume it strictly inside fail there: the "origin outside polytope"
 * reports against libccd and FCL. */
START_TEST(hostile_touching_boxes)
{
    const double s2 = sqrt(2.0), s3 = sqrt(3.0);
    mk_vec3 h = v3(1, 1, 1);
    mk_transform ia = mk_transform_identity();
    mk_transform face = pose_aa(v3(2, 0, 0), v3(0, 0, 1), 0);
    mk_transform face_off = pose_aa(v3(2, 0.7, -0.4), v3(1, 0, 0), 0.3);
    mk_transform ea = pose_aa(v3(0, 0, 0), v3(0, 0, 1), PI / 4);
    mk_transform eb = pose_aa(v3(2 * s2, 0, 0), v3(0, 1, 0), PI / 4);
    mk_transform va = pose_aa(v3(0, 0, 0), v3(0, 1, -1), acos(1 / s3));
    mk_transform vb = pose_aa(v3(s3 + 1, 0.2, -0.1), v3(0, 0, 1), 0);
    const double nudges[] = {0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6};
    stats st;
    stats_init(&st, 1000);
    for (int k = 0; k < (int)(sizeof nudges / sizeof nudges[0]); ++k) {
        mk_transform f = face, fo = face_off, e2 = eb, v2 = vb;
        f.p.x += nudges[k];
        fo.p.x += nudges[k];
        e2.p.x += nudges[k];
        v2.p.x += nudges[k];
        box_scene("touching face-face", k, h, ia, h, f, &st);
        box_scene("touching face-face offset", k, h, ia, h, fo, &st);
        box_scene("touching edge-edge", k, h, ea, h, e2, &st);
        box_scene("touching vertex-face", k, h, va, h, v2, &st);
        box_scene("touching face-vertex", k, h, v2, h, va, &st);
    }
    stats_print("touching boxes", &st);
}
END_TEST

/* Hand-made GJK results whose simplex is degenerate: a zero-area triangle
 * (three collinear points) through the origin, a segment, a single point at
 * the origin, a flat tetrahedron. EPA codes that build the first polytope from
 * these get zero normals (0/0) or faces with the origin on their plane, and
 * then loop or return NaN. */
START_TEST(hostile_zero_area_triangles)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, v3(1, 0.6, 0.8), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(0.5, 0.9, 0.4), 0), MK_OK);
    mk_transform xa = pose_aa(v3(0.1, 0.2, 0.3), v3(1, 2, 3), 0.7);
    mk_transform xb = pose_aa(v3(0.4, 0.1, 0.2), v3(-1, 0, 2), 0.4);
    mk_pair p = {&a, xa, &b, xb};
    double d;
    ck_assert(or_exact_distance(&a, &xa, &b, &xb, &d, NULL, NULL));
    ck_assert(d < -0.1);
    /* Points of D: a = support of A, b = support of B, in A's frame. */
    mk_transform rel;
    rel.R = m3_tmul_m3(&xa.R, &xb.R);
    rel.p = m3_tmul(&xa.R, v3_sub(xb.p, xa.p));
    mk_vec3 pa[4], pb[4];
    mk_vec3 dirs[4] = {v3(1, 0.2, 0.1), v3(-1, -0.2, -0.1), v3(0.3, 1, -0.2), v3(0.1, -0.4, 1)};
    for (int i = 0; i < 4; ++i) {
        pa[i] = mk_shape_support(&a, dirs[i], NULL);
        pb[i] = xf_apply(&rel, mk_shape_support(&b, m3_tmul(&rel.R, v3_neg(dirs[i])), NULL));
    }
    size_t n;
    void *ws = workspace(&n);
    scene scv = {"degenerate simplex", 0, &a, &b, xa, xb};
    const scene *sc = &scv;
    truth t = exact(d);
    for (int kind = 0; kind < 6; ++kind) {
        mk_gjk_result g;
        memset(&g, 0, sizeof g);
        g.status = MK_GJK_INTERSECTING;
        g.normal = v3(0, 0, 1);
        mk_simplex *s = &g.simplex;
        switch (kind) {
        case 0: /* zero-area triangle: a point repeated, through the origin by weights */
        case 1: /* zero-area triangle with three distinct collinear points */
            s->count = 3;
            s->a[0] = pa[0];
            s->b[0] = pb[0];
            s->a[1] = pa[1];
            s->b[1] = pb[1];
            if (kind == 0) {
                s->a[2] = pa[0];
                s->b[2] = pb[0];
            } else { /* midpoint of the first two: collinear, still a point of D */
                s->a[2] = v3_scale(v3_add(pa[0], pa[1]), 0.5);
                s->b[2] = v3_scale(v3_add(pb[0], pb[1]), 0.5);
            }
            s->bary[0] = 0.4;
            s->bary[1] = 0.3;
            s->bary[2] = 0.3;
            break;
        case 2: /* segment */
            s->count = 2;
            s->a[0] = pa[0];
            s->b[0] = pb[0];
            s->a[1] = pa[1];
            s->b[1] = pb[1];
            s->bary[0] = s->bary[1] = 0.5;
            break;
        case 3: /* one point */
            s->count = 1;
            s->a[0] = pa[2];
            s->b[0] = pb[2];
            s->bary[0] = 1;
            break;
        case 4: /* flat tetrahedron: four points of one plane */
            s->count = 4;
            for (int i = 0; i < 4; ++i) {
                s->a[i] = i < 2 ? pa[i] : v3_lerp(pa[0], pa[1], 0.25 * i);
                s->b[i] = i < 2 ? pb[i] : v3_lerp(pb[0], pb[1], 0.25 * i);
                s->bary[i] = 0.25;
            }
            break;
        default: /* four coincident points */
            s->count = 4;
            for (int i = 0; i < 4; ++i) {
                s->a[i] = pa[3];
                s->b[i] = pb[3];
                s->bary[i] = 0.25;
            }
            break;
        }
        for (int i = 0; i < s->count; ++i)
            s->w[i] = v3_sub(s->a[i], s->b[i]);
        mk_epa_result e;
        mk_status stt = mk_epa(&p, &g, NULL, ws, n, &e);
        scv.index = kind;
        FAIL_IF(stt != MK_PENETRATING, "status %s", mk_status_string(stt));
        mk_signed_distance_result r;
        memset(&r, 0, sizeof r);
        r.status = e.status;
        r.distance = -e.depth;
        r.lower_bound = -e.upper_bound;
        r.upper_bound = -e.lower_bound;
        r.point_a = e.point_a;
        r.point_b = e.point_b;
        r.normal = e.normal;
        r.epa_iterations = e.iterations;
        r.epa_flags = e.flags;
        check_result(sc, &r, &t, 1e-8, NULL);
    }
    /* And in the wild: aligned boxes have many coplanar and collinear points
     * in their difference, so expansion meets zero-area candidate faces. */
    stats st;
    stats_init(&st, 400);
    or_rng r = or_test_rng(0x2e60);
    for (int i = 0; i < 100; ++i) {
        mk_vec3 ha = v3(0.5, 0.5, 0.5), hb = v3(0.5, 0.5, or_uniform(&r, 0.2, 0.5));
        mk_transform xb2 = mk_transform_identity();
        xb2.p = v3(0.25 * or_int(&r, 5) - 0.5, 0.25 * or_int(&r, 5) - 0.5, 0.25 * or_int(&r, 5) - 0.5);
        box_scene("aligned boxes on a lattice", i, ha, mk_transform_identity(), hb, xb2, &st);
    }
    stats_print("zero-area triangles", &st);
}
END_TEST

/* Hulls of many nearly coplanar points (flattened to 1e-5 and snapped to a
 * lattice, so supports tie across whole faces and many candidate triangles
 * have zero area), aligned or not, with a tolerance of 0: the expansion must
 * stop at the floating-point floor instead of re-adding the same support point
 * to faces that cannot be refined until the iteration cap, as EPA codes
 * without a floor test do. */
START_TEST(hostile_flat_lattice_hulls)
{
    or_rng r = or_test_rng(0xf1a7);
    stats st;
    stats_init(&st, 2000);
    for (int i = 0; i < or_scaled(1000); ++i) {
        int np = 20 + or_int(&r, 100);
        mk_vec3 pts[120];
        mk_vec3 squash = v3(1, or_uniform(&r, 0.001, 1), pow(10, or_uniform(&r, -5, 0)));
        for (int j = 0; j < np; ++j) {
            mk_vec3 u = or_unit(&r);
            pts[j] = v3(u.x * squash.x, u.y * squash.y, u.z * squash.z);
            if (or_int(&r, 4) == 0) {
                pts[j].x = round(pts[j].x * 4) / 4;
                pts[j].y = round(pts[j].y * 4) / 4;
            }
        }
        mk_hull *ha = NULL, *hb = NULL;
        if (mk_hull_create(pts, np, &ha) != MK_OK)
            continue;
        for (int j = 0; j < np; ++j) {
            mk_vec3 u = or_unit(&r);
            pts[j] = v3(u.x, u.y * squash.y, u.z);
        }
        ck_assert_int_eq(mk_hull_create(pts, np, &hb), MK_OK);
        mk_shape a, b;
        ck_assert_int_eq(mk_shape_hull(&a, ha, 0), MK_OK);
        ck_assert_int_eq(mk_shape_hull(&b, hb, or_int(&r, 3) == 0 ? 0.01 : 0), MK_OK);
        mk_transform xa, xb;
        place_overlapping(&r, &a, &b, pow(10, or_uniform(&r, -8, -0.5)), &xa, &xb);
        if (or_int(&r, 3) == 0) /* aligned: whole faces coplanar */
            xb.R = xa.R;
        mk_epa_settings es = tol_settings(i % 2 ? 0 : 1e-14, 0);
        es.max_iterations = 1000;
        size_t n = mk_epa_workspace_size(es.max_iterations);
        void *ws = malloc(n);
        mk_pair p = {&a, xa, &b, xb};
        mk_signed_distance_result res;
        mk_signed_distance(&p, NULL, &es, NULL, ws, n, &res);
        free(ws);
        double d;
        ck_assert(or_exact_distance(&a, &xa, &b, &xb, &d, NULL, NULL));
        scene scv = {"flat lattice hulls", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        truth t = exact(d);
        check_result(sc, &res, &t, es.tolerance, &st);
        FAIL_IF(res.upper_bound - res.lower_bound > 1e-11, "gap %.3g at tolerance %g", res.upper_bound - res.lower_bound,
                es.tolerance);
        mk_hull_destroy(ha);
        mk_hull_destroy(hb);
    }
    stats_print("flat lattice hulls", &st);
    ck_assert_int_gt(st.flags[3], 0); /* the floor was reached and said so */
}
END_TEST

/* Coincident centres: identical shapes at the identical pose and concentric
 * different ones. GJK's simplex is symmetric about the origin (often a segment
 * with the origin at its midpoint, on an edge of any polytope built from it),
 * the difference of centres is the zero vector, and codes that normalise it
 * produce NaN. */
START_TEST(hostile_coincident_centres)
{
    or_rng r = or_test_rng(0xcc01);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    stats st;
    stats_init(&st, 200);
    static const or_family fam[] = {OR_SPHERE, OR_BOX, OR_CAPSULE, OR_HULL12, OR_HULL60, OR_ROUNDED_BOX,
                                    OR_ROUNDED_HULL};
    const int nf = (int)(sizeof fam / sizeof fam[0]);
    for (int i = 0; i < nf; ++i)
        for (int j = 0; j < nf; ++j) {
            mk_shape a, b;
            or_random_shape(&r, fam[i], &p12, &p60, &a);
            or_random_shape(&r, fam[j], &p12, &p60, &b);
            mk_transform x = (i + j) % 2 ? mk_transform_identity() : or_pose(&r, or_in_ball(&r, 3));
            mk_transform xb = x;
            if (j % 3 == 1) /* same centre, other orientation */
                xb = or_pose(&r, x.p);
            check_exact_scene("coincident centres", i * nf + j, &a, x, &b, xb, NULL, &st);
            check_exact_scene("coincident identical", i * nf + j, &a, x, &a, x, NULL, &st);
        }
    stats_print("coincident centres", &st);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* Depth exactly zero: boxes resting face on face, a box on a box's edge, a
 * sphere touching a box. The answer must be a distance of 0 (within rounding)
 * with the contact normal. The difference has the origin on its boundary, a
 * polytope around it has zero thickness there and no normal of its own: the
 * other face of the "origin outside polytope" reports. */
START_TEST(hostile_depth_exactly_zero)
{
    mk_shape a, b, s;
    ck_assert_int_eq(mk_shape_box(&a, v3(1, 1, 0.5), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(0.5, 0.5, 0.5), 0), MK_OK);
    ck_assert_int_eq(mk_shape_sphere(&s, 0.3), MK_OK);
    or_rng r = or_test_rng(0xd0);
    stats st;
    stats_init(&st, 400);
    for (int i = 0; i < 100; ++i) {
        mk_transform g = i == 0 ? mk_transform_identity() : or_pose(&r, or_in_ball(&r, 2));
        /* B on top of A, exactly touching, with a slide and a spin about z */
        mk_transform lb = pose_aa(v3(or_uniform(&r, -0.8, 0.8), or_uniform(&r, -0.8, 0.8), 1.0), v3(0, 0, 1),
                                  i % 2 ? or_uniform(&r, 0, PI) : 0);
        mk_transform ia = mk_transform_identity();
        mk_transform xa = compose(&g, &ia), xb = compose(&g, &lb);
        mk_signed_distance_result res;
        signed_distance(&a, xa, &b, xb, NULL, &res);
        scene scv = {"resting face on face", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        truth t = exact(0);
        check_result(sc, &res, &t, 1e-8, &st);
        mk_vec3 up = mk_rotate(&g.R, v3(0, 0, 1));
        FAIL_IF(fabs(res.distance) > 1e-12, "distance %.3g at exact contact", res.distance);
        FAIL_IF(v3_dot(res.normal, up) < 1 - 1e-9, "normal (%g %g %g) is not the contact normal", res.normal.x,
                res.normal.y, res.normal.z);
        /* sphere touching the top face */
        mk_transform ls = pose_aa(v3(or_uniform(&r, -0.9, 0.9), or_uniform(&r, -0.9, 0.9), 0.8), v3(1, 0, 0), 0.3);
        mk_transform xs = compose(&g, &ls);
        signed_distance(&a, xa, &s, xs, NULL, &res);
        scene sc2 = {"sphere touching a face", i, &a, &s, xa, xs};
        check_result(&sc2, &res, &t, 1e-8, &st);
        FAIL_IF(v3_dot(res.normal, up) < 1 - 1e-9, "sphere: normal not the face normal");
        /* a box standing on the edge of a 45-degree turned box */
        mk_transform ea = compose(&g, &(mk_transform){pose_aa(v3(0, 0, 0), v3(1, 0, 0), PI / 4).R, v3(0, 0, 0)});
        mk_transform eb = compose(&g, &(mk_transform){mk_transform_identity().R, v3(0.1, 0.2, 0.5 * sqrt(2.0) + 0.5)});
        mk_shape c;
        ck_assert_int_eq(mk_shape_box(&c, v3(0.5, 0.5, 0.5), 0), MK_OK);
        signed_distance(&c, ea, &b, eb, NULL, &res);
        scene sc3 = {"box on an edge", i, &c, &b, ea, eb};
        check_result(&sc3, &res, &t, 1e-8, &st);
    }
    stats_print("depth exactly zero", &st);
}
END_TEST

/* Thin boxes (1e-3 thick plates) crossing and overlapping: the difference is
 * a thin slab, its seed tetrahedra are slivers, and face normals from cross
 * products of nearly parallel edges carry large errors; EPA codes then give up
 * (Bullet's EPA has "Degenerated" and "FallBack" outcomes for this) or return
 * the sliver's normal. */
START_TEST(hostile_thin_boxes)
{
    or_rng r = or_test_rng(0x7b1);
    stats st;
    stats_init(&st, 4000);
    for (int i = 0; i < or_scaled(800); ++i) {
        mk_vec3 ha = v3(or_uniform(&r, 0.3, 1), or_uniform(&r, 0.3, 1), 5e-4);
        mk_vec3 hb = i % 2 ? v3(or_uniform(&r, 0.3, 1), 5e-4, or_uniform(&r, 0.3, 1))
                           : v3(or_uniform(&r, 0.3, 1), or_uniform(&r, 0.3, 1), 5e-4);
        mk_transform xa = or_pose(&r, or_in_ball(&r, 1));
        mk_transform rel = i % 4 < 2 ? pose_aa(v3(0, 0, 0), or_unit(&r), or_uniform(&r, 0, 1e-3))
                                     : or_pose(&r, v3(0, 0, 0));
        rel.p = v3(or_uniform(&r, -0.2, 0.2), or_uniform(&r, -0.2, 0.2), or_uniform(&r, -9e-4, 9e-4));
        mk_transform xb = compose(&xa, &rel);
        mk_shape a, b;
        ck_assert_int_eq(mk_shape_box(&a, ha, 0), MK_OK);
        ck_assert_int_eq(mk_shape_box(&b, hb, 0), MK_OK);
        check_exact_scene("thin boxes", i, &a, xa, &b, xb, NULL, &st);
    }
    stats_print("thin boxes", &st);
}
END_TEST

/* A box tunnelled deep into another (a small box wholly inside a big one, a
 * long bar through a block): the closest face of the difference is far from
 * GJK's simplex and the polytope must grow a long way; EPA codes with a loose
 * default tolerance or a small fixed face or iteration budget stop early on a
 * face that is not the closest (libccd at its default tolerance is off by up
 * to 1e-1 on the benchmark's overlapping hulls). */
START_TEST(hostile_tunnelled_box)
{
    or_rng r = or_test_rng(0x70e);
    stats st;
    stats_init(&st, 2000);
    for (int i = 0; i < or_scaled(500); ++i) {
        mk_vec3 big = v3(or_uniform(&r, 1, 3), or_uniform(&r, 1, 3), or_uniform(&r, 1, 3));
        mk_vec3 small = i % 2 ? v3(or_uniform(&r, 0.05, 0.3), or_uniform(&r, 0.05, 0.3), or_uniform(&r, 0.05, 0.3))
                              : v3(or_uniform(&r, 2, 5), 0.1, 0.15); /* a bar */
        mk_transform xa = or_pose(&r, or_in_ball(&r, 1));
        mk_transform rel = or_pose(&r, v3(or_uniform(&r, -0.5, 0.5), or_uniform(&r, -0.5, 0.5), or_uniform(&r, -0.5, 0.5)));
        mk_transform xb = compose(&xa, &rel);
        mk_shape a, b;
        ck_assert_int_eq(mk_shape_box(&a, big, 0), MK_OK);
        ck_assert_int_eq(mk_shape_box(&b, small, 0), MK_OK);
        check_exact_scene("tunnelled box", i, &a, xa, &b, xb, NULL, &st);
        check_exact_scene("tunnelled box (swapped)", i, &b, xb, &a, xa, NULL, &st);
    }
    stats_print("tunnelled boxes", &st);
}
END_TEST

/* A 0.3 mm cylinder just inside the face of a box 3e5 across: EPA's exit
 * face was a sliver (two nearly equal rim supports at one corner of the box
 * face, the opposite corner 3.4e5 away), and its barycentric weights, taken
 * about the exit point with vectors of 1.7e5, were off by 2e-5: the witness
 * pair missed the exit point by 0.54 across the normal while the depth was
 * 4.6e-4 (found by a fuzzer). Witnesses must satisfy point_b - point_a =
 * distance * normal to rounding, and lie on their shapes. */
START_TEST(hostile_sliver_exit_face)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, v3(146268.69674564773, 91748.017072607632, 48505.105990183984), 0), MK_OK);
    ck_assert_int_eq(mk_shape_cylinder(&b, 0.00030573905674959457, 5.5719573090770436e-05, 0), MK_OK);
    const mk_mat3 R = {{{0.065260291802552217, 0.88632987997965396, 0.45843258846759372},
                        {-0.24858800900506495, 0.4593683512729132, -0.85275126480568963},
                        {-0.96640834852185731, -0.058310048053982599, 0.250309492834768}}};
    const mk_transform xa = {R, {-2940439.5588416578, -570475.53273984371, -3009969.6472383062}};
    const mk_transform xb = {R, {-2918203.2377317525, -611838.32288197067, -2997828.3588579646}};
    mk_pair p = {&a, xa, &b, xb};
    size_t n = mk_epa_workspace_size(128);
    void *ws = malloc(n);
    mk_signed_distance_result res;
    ck_assert_int_eq(mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &res), MK_PENETRATING);
    free(ws);
    const mk_vec3 e = v3_sub(v3_sub(res.point_b, res.point_a), v3_scale(res.normal, res.distance));
    /* rounding of coordinates of 3e6 */
    ck_assert_msg(v3_len(e) <= 1e-8, "point_b - point_a - distance * normal = %g (distance %g)", v3_len(e),
                  res.distance);
    /* point_b on B: its height over B's face along the normal is within rounding of B's support */
    const mk_vec3 nb = mk_rotate_inv(&xb.R, res.normal);
    const mk_vec3 lb = mk_rotate_inv(&xb.R, v3_sub(res.point_b, xb.p));
    const double hb = v3_dot(mk_shape_support(&b, v3_neg(nb), NULL), nb);
    ck_assert_msg(fabs(v3_dot(lb, nb) - hb) <= 1e-8, "point_b %g off B's lowest point along the normal",
                  v3_dot(lb, nb) - hb);
}
END_TEST

/* An ellipsoid deep (108) in a long cone, tight EPA tolerance: the faces'
 * planes are conservative (a thin face takes a neighbour's normal, and its
 * offset is the lowest of its vertices), so the nearest crossing of those
 * planes along the normal lay on no face's triangle, the weights of the face
 * picked missed the exit point by 58 and the witnesses by 1e-3 across the
 * normal (found by a fuzzer). The ray is now crossed with the triangles
 * themselves when that happens. */
START_TEST(hostile_exit_point_off_the_face_planes)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_ellipsoid(&a, v3(69.159958375153593, 95.3571229892666, 115.10059856654566)), MK_OK);
    ck_assert_int_eq(mk_shape_cone(&b, 88.66179530593854, 515.65497622680357, 0), MK_OK);
    const mk_transform xa = {{{{0.41416866239683003, 0.86146255427016305, -0.29384789718278947},
                               {-0.50911032157232494, 0.48686980339565555, 0.70976367546529173},
                               {0.75450049672412078, -0.14436087465723635, 0.64022569326078516}}},
                             {0, 0, 0}};
    const mk_transform xb = {{{{0.99999999999999856, 2.7263563141751581e-08, -4.7779861217079225e-08},
                               {-2.7263558924681516e-08, 0.99999999999999578, 8.8260406717060812e-08},
                               {4.7779863623372198e-08, -8.8260405414411621e-08, 0.99999999999999512}}},
                             {15.145094444784693, -29.112038284793076, -57.863766355941202}};
    mk_pair p = {&a, xa, &b, xb};
    mk_gjk_settings gs = mk_gjk_default_settings();
    mk_epa_settings es = tol_settings(1.316117826532279e-10, 0);
    es.max_iterations = 600;
    size_t n = mk_epa_workspace_size(es.max_iterations);
    void *ws = malloc(n);
    for (int norm = 0; norm < 2; ++norm) {
        gs.normalize_dir = norm;
        mk_signed_distance_result res;
        const mk_status st = mk_signed_distance(&p, &gs, &es, NULL, ws, n, &res);
        ck_assert(st == MK_PENETRATING || st == MK_EPA_MAX_ITER);
        const mk_vec3 e = v3_sub(v3_sub(res.point_b, res.point_a), v3_scale(res.normal, res.distance));
        ck_assert_msg(v3_len(e) <= 1e-9 * (1 + fabs(res.distance)), "normalize %d: point_b - point_a - distance * "
                      "normal = %g (distance %.17g)", norm, v3_len(e), res.distance);
    }
    free(ws);
}
END_TEST

/* mk_epa at its defaults on a pair mk_gjk_distance (defaults) calls
 * intersecting, as an engine would chain them. */
static mk_status epa_after_gjk(const mk_pair *p, mk_epa_result *er)
{
    mk_gjk_result g;
    ck_assert_int_eq(mk_gjk_distance(p, NULL, NULL, &g), MK_GJK_INTERSECTING);
    const size_t n = mk_epa_workspace_size(128);
    void *ws = malloc(n);
    const mk_status st = mk_epa(p, &g, NULL, ws, n, er);
    free(ws);
    return st;
}

static mk_vec3 user_box(const void *data, mk_vec3 d)
{
    const mk_vec3 *h = data;
    return v3(d.x >= 0 ? h->x : -h->x, d.y >= 0 ? h->y : -h->y, d.z >= 0 ? h->z : -h->z);
}

/* A cone 1.4e5 across rounded by 373, at coordinates of 1.5e6, touching a 2.6
 * mm box: mk_epa finishes GJK on the cores (they are apart within the
 * radius), and its second, tighter run stalled at the precision floor on a
 * worse point than the first (core distance 373.1335 against 373.1300) and
 * replaced it: the witnesses missed depth * normal by 3.5e-3, the bracket
 * [0, 3.2e-5] (found by a fuzzer). The better run is kept now. The pair is
 * touching to rounding (1 ulp of its coordinates is 2.3e-10): a GJK variant
 * may call it apart by less than that, and then EPA has nothing to do; EPA
 * runs after every variant that calls it intersecting, at least one. The
 * core distance is 373 at coordinates of 1.5e6, where GJK's certified bounds
 * stall 1e-8 to 3e-6 apart depending on the path its rounding takes (support
 * values carry errors of ~1e-5 in its duality gap there): the witnesses must
 * agree with the depth to within the bracket, and the bracket stay below 1e-5,
 * which the replaced run broke (3.5e-3 and 3.2e-5). Since the simplex
 * projection's rewrite (session 20) this pair no longer reaches the case the
 * fix handles (the same answers without it): the test keeps the pair. */
START_TEST(hostile_refined_gjk_no_worse)
{
    static const mk_vec3 h = {0.0023861616136998591, 0.0026108960184592447, 0.0019191099290166776};
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cone(&a, 70884.442639630885, 141565.08105721971, 373.12995578291742), MK_OK);
    ck_assert_int_eq(mk_shape_user(&b, user_box, &h, v3_scale(h, -1), h, 0), MK_OK);
    const mk_transform xa = {{{{-0.60870131172929343, -0.54529061088807884, 0.57631663413122436},
                               {-0.14563393047457268, -0.6372558535786399, -0.75676663204338401},
                               {0.77991888770151296, -0.54457609822417374, 0.3084856590659768}}},
                             {-1525473.0414266286, -1091725.9295749061, -571234.31153814064}};
    const mk_transform xb = {{{{0.076523797360680379, 0.79509422734909541, 0.60163882693327464},
                               {0.93225038820404682, 0.15695442206896559, -0.32599773478722405},
                               {-0.3536287914337658, 0.58582461456407087, -0.72921615371572246}}},
                             {-1526837.7717846239, -1013480.5829779777, -569902.2620384238}};
    mk_pair p = {&a, xa, &b, xb};
    int ran = 0;
    for (int v = MK_GJK_VANILLA; v <= MK_GJK_NESTEROV; ++v) {
        mk_gjk_settings gs = mk_gjk_default_settings();
        gs.variant = (mk_gjk_variant)v;
        mk_gjk_result g;
        const mk_status st = mk_gjk_distance(&p, &gs, NULL, &g);
        if (st == MK_GJK_SEPARATED) {
            ck_assert_msg(g.distance <= 1e-9, "variant %d: apart by %g", v, g.distance);
            continue;
        }
        ck_assert_int_eq(st, MK_GJK_INTERSECTING);
        const size_t n = mk_epa_workspace_size(128);
        void *ws = malloc(n);
        mk_epa_result er;
        ck_assert_int_eq(mk_epa(&p, &g, NULL, ws, n, &er), MK_PENETRATING);
        free(ws);
        const mk_vec3 e = v3_sub(v3_sub(er.point_a, er.point_b), v3_scale(er.normal, er.depth));
        ck_assert_msg(v3_len(e) <= 1e-8 + (er.upper_bound - er.lower_bound),
                      "variant %d: point_a - point_b - depth * normal = %g, bracket [%g, %g]", v, v3_len(e),
                      er.lower_bound, er.upper_bound);
        ck_assert_msg(er.upper_bound - er.lower_bound <= 1e-5, "variant %d: bracket [%g, %g]", v, er.lower_bound,
                      er.upper_bound);
        ++ran;
    }
    ck_assert_int_ge(ran, 1);
}
END_TEST

/* A capsule (radius 0.2, length 1 mm) sunk 13 cm into a disk 1e4 across and
 * 1 mm thick: the cores are apart within the radii, so the depth is r minus
 * the core distance, from GJK on the cores, which stalled between D's two
 * parallel faces (test_gjk's hostile_stall_between_parallel_faces): depth
 * 0.13282 in [0.13282, 0.13344], PENETRATING, where the exact depth is
 * 0.133134 (the ODE adapter's capsule-on-cylinder contact came out that much
 * too shallow). */
START_TEST(hostile_capsule_on_a_wide_disk)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_capsule(&a, 0.20282265205012578, 0.0005), MK_OK);
    ck_assert_int_eq(mk_shape_cylinder(&b, 10000, 0.0005, 0), MK_OK);
    mk_transform xa, xb;
    const mk_real truth = a.radius - or_capsule_over_disk(&xa, &xb);
    mk_pair p = {&a, xa, &b, xb};
    const mk_vec3 axis_b = v3(xb.R.m[0][2], xb.R.m[1][2], xb.R.m[2][2]);
    const size_t n = mk_epa_workspace_size(128);
    void *ws = malloc(n);
    mk_signed_distance_result sd;
    ck_assert_int_eq(mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &sd), MK_PENETRATING);
    free(ws);
    ck_assert_msg(fabs(-sd.distance - truth) <= 1e-9, "depth %.15g, exact %.15g", -sd.distance, truth);
    ck_assert_msg(sd.lower_bound <= -truth + 1e-12 && -truth <= sd.upper_bound + 1e-12, "[%.15g, %.15g] misses %.15g",
                  sd.lower_bound, sd.upper_bound, -truth);
    ck_assert_msg(sd.upper_bound - sd.lower_bound <= 1e-8, "bracket [%.15g, %.15g]", sd.lower_bound, sd.upper_bound);
    ck_assert_msg(fabs(fabs(v3_dot(sd.normal, axis_b)) - 1) <= 1e-9, "normal off the disk's axis");
}
END_TEST

/* A sphere (radius 2953) deep in a cone (radius 2869, half height 3328), its
 * centre 836 inside the cone's side. EPA met the cone's apex twice, and the
 * degenerate face of the two set the ray's exit 3.5e-8 inside the faces
 * around it, on none of their planes: the witnesses fell back to GJK's common
 * point moved half the depth each way, and point_b came out 418 outside the
 * sphere (the core's fuzzer). The exit is now found on the triangles. */
START_TEST(hostile_sphere_deep_in_a_cone_witnesses)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cone(&a, 2868.9326126155229, 3327.6001100418207, 0), MK_OK);
    ck_assert_int_eq(mk_shape_sphere(&b, 2952.5706869022642), MK_OK);
    const mk_transform xa = {{{{-2.2204460492503131e-16, 1, 0}, {-1, -2.2204460492503131e-16, 0}, {0, 0, 1}}},
                             {0, 0, 0}};
    const mk_transform xb = {{{{-1.6256068261817685e-05, 0.9999999998587813, 4.2635253108442645e-06},
                               {-0.99999999986559673, -1.6256077352954887e-05, 2.1322792168871924e-06},
                               {2.1323485247833252e-06, -4.2634906477947291e-06, 0.99999999998863787}}},
                             {-338.26193880819295, -502.19384911949817, -189.98567892842414}};
    mk_signed_distance_result sd;
    ck_assert_int_eq(signed_distance(&a, xa, &b, xb, NULL, &sd), MK_PENETRATING);
    const double depth = -sd.distance, r = b.radius;
    /* point_b on the sphere */
    const double from_centre = v3_len(v3_sub(sd.point_b, xb.p));
    ck_assert_msg(fabs(from_centre - r) <= 1e-9 * r, "point_b %.9g from the centre, radius %.9g", from_centre, r);
    /* point_a in the cone (its frame: apex up at z = h, base at z = -h) */
    const mk_vec3 qa = mk_rotate_inv(&xa.R, v3_sub(sd.point_a, xa.p));
    const double h = a.u.cone.half_height, room = a.u.cone.radius * (h - qa.z) / (2 * h);
    ck_assert_msg(fabs(qa.z) <= h * (1 + 1e-9) && sqrt(qa.x * qa.x + qa.y * qa.y) <= room + 1e-9 * h,
                  "point_a (%g, %g, %g) outside the cone", qa.x, qa.y, qa.z);
    /* the witnesses depth apart along the normal, which the overlap along it matches */
    const mk_vec3 rel = v3_sub(v3_sub(sd.point_a, sd.point_b), v3_scale(sd.normal, depth));
    ck_assert_msg(v3_len(rel) <= 1e-9 * r, "|pa - pb - depth n| = %g", v3_len(rel));
    ck_assert_msg(fabs(-separation_along(&a, &xa, &b, &xb, sd.normal) - depth) <= 1e-9 * r,
                  "overlap along the normal %.12g, depth %.12g", -separation_along(&a, &xa, &b, &xb, sd.normal), depth);
}
END_TEST

/* An ellipsoid 2900 across touching a box (depth 5.9e-9 at coordinates of
 * 1e3): no face of EPA's polytope could be trusted as the ray's exit (one
 * within rounding of the origin), and the witnesses came from GJK's pair,
 * |x| = 9.8e-6 apart after GJK stalled, both 4.9e-6 off their shapes, 3.3e-9
 * of the size (test_contracts at MK_TEST_SCALE=1000, scene 1,623,469). Now
 * the face that gave the answer holds a pair within rounding of the ray. */
START_TEST(hostile_touching_ellipsoid_and_box_witnesses)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_ellipsoid(&a, v3(1467.034024933944, 1269.5567231127632, 296.44193658103558)), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(346.69262305923331, 1354.4835735804197, 490.71389946533077), 0), MK_OK);
    const mk_transform xa = {{{{0.58156482331895032, 0.24615107260336222, -0.77536572385823987},
                               {-0.16329086855556085, -0.89840244619420173, -0.40768754815255892},
                               {-0.79694319027416793, 0.36370687940770219, -0.48228503744895779}}},
                             {1.5103825112958653, 0.74174073980627009, 0.37803437362404613}};
    const mk_transform xb = {{{{0.95667082729334296, -0.26884285789110463, -0.11182328007536732},
                               {0.2872665393401066, 0.93414813430091914, 0.21176684952482755},
                               {0.047527503420963395, -0.23471425381313193, 0.97090182586887486}}},
                             {208.76372372367206, 459.21366242746774, 1002.2566901387497}};
    mk_signed_distance_result sd;
    ck_assert_int_eq(signed_distance(&a, xa, &b, xb, NULL, &sd), MK_PENETRATING);
    ck_assert(sd.distance < 0 && sd.distance > -1e-8 && sd.lower_bound <= sd.distance && sd.upper_bound < 0);
    const double size = 1467.034024933944;
    const double oa = or_point_shape(&a, &xa, sd.point_a, NULL), ob = or_point_shape(&b, &xb, sd.point_b, NULL);
    ck_assert_msg(fabs(oa) <= 1e-9 * size && fabs(ob) <= 1e-9 * size, "witnesses off their shapes by %g and %g", oa,
                  ob);
}
END_TEST

/* A cylinder touching a hull of 49 points (depth 8.6e-11 at unit size), asked
 * for a relative tolerance of 1e-9 (of the depth: below rounding): EPA ends at
 * its iteration budget with a polytope whose faces lie within rounding of the
 * origin, so no face is trusted as the ray's exit, the answer's face (an early
 * one) holds no pair near the ray, and the witnesses came from GJK's pair,
 * |x| = 7.5e-9 apart: the hull's witness 3.8e-9 outside it, where the bracket
 * is 3.6e-12 wide (test_contracts with the witnesses checked under the
 * relative tolerance, MK_TEST_SCALE=10, scene 5054). Now every live face is a
 * candidate, and one holds a pair within rounding of the ray. */
START_TEST(hostile_touching_cylinder_and_hull_relative_witnesses)
{
    static const mk_vec3 pts[49] = {
        {0x1.1d9e6142a7b4bp-2, 0x1.e4d9de133f4a5p-2, 0x1.4f635b7f6a771p-1},
        {0x1.175974d48d7d8p-2, -0x1.5ac435d7de9dfp-2, -0x1.de753fcdaaecdp-1},
        {0x1.9b6456a9189ddp-2, 0x1.6d3d5ff089d97p-3, -0x1.97d039b7f724fp-1},
        {-0x1.b49ba1e91506cp-3, -0x1.757cb2e86abb3p-1, -0x1.4eea71b1c44d1p-1},
        {-0x1.198a2a0c2bb11p-3, -0x1.f4a5a888a028ap-3, -0x1.15035ff34e738p+0},
        {-0x1.98f715924eba7p-4, 0x1.f002f5b2648edp-1, -0x1.3aa4f08955cc5p-3},
        {-0x1.98f835f18eb4fp-3, -0x1.4f16824ad328bp-7, -0x1.1484511e72495p+0},
        {0x1.011e860cd40fcp-3, 0x1.fd98ebb1f1cp-2, -0x1.ede503bfb5a52p-1},
        {-0x1.4e752c0065079p-2, 0x1.a14710b453d86p-1, -0x1.d92ddce042fa6p-5},
        {-0x1.b979a9a6c824dp-2, -0x1.3808a709e23dep-1, -0x1.1f00b61515d75p-2},
        {-0x1.0f0eb44cf0bdep-1, 0x1.16972f8445118p-2, -0x1.41b03a5747633p-2},
        {-0x1.024eba9b0e14p-1, 0x1.19540d6436fa5p-2, -0x1.ca758aa9e172fp-2},
        {-0x1.f566c8e76fff1p-2, 0x1.a007179817eafp-2, 0x1.7e39f292ec676p-2},
        {-0x1.8d3716526f789p-2, 0x1.76b68c87d6edp-1, -0x1.16fc0f279de58p-7},
        {-0x1.0833b13e30d24p-1, 0x1.bca634f166ae3p-2, -0x1.dfc3e359476b3p-6},
        {-0x1.215733da64eebp-1, -0x1.b5222bdd044f3p-4, -0x1.476678b5b2039p-3},
        {-0x1.4fd05be60ba4bp-5, 0x1.70ef294cf00eap-2, 0x1.120b9892e3e35p+0},
        {-0x1.66f1fa8a7f833p-2, 0x1.54a6635517d5p-1, 0x1.f1e6da101f424p-2},
        {-0x1.b4b90a3fc5b54p-6, 0x1.7b156cef8aa25p-3, 0x1.21765214dce4fp+0},
        {0x1.3bce722372569p-2, 0x1.b7fb2f8438d23p-2, -0x1.ab0faa9799f1cp-1},
        {0x1.90c4ef8a67545p-2, -0x1.6012dac9188e2p-1, -0x1.15faf2f09e5e1p-2},
        {0x1.851fcf79d7d03p-2, -0x1.497071eb1e351p-1, -0x1.bc504c05e537dp-2},
        {-0x1.047686fa9191ap-2, -0x1.9ce2d75e2e00ep-1, -0x1.bfc0ec7b78c55p-2},
        {-0x1.4fef35e12fec9p-2, -0x1.7e626bb4d6af9p-1, 0x1.83092a5813651p-2},
        {-0x1.9bdbbbbbc987p-5, 0x1.8167a727d1bbap-1, -0x1.7d3551d8d12dfp-1},
        {0x1.242eee528bd37p-3, 0x1.2a062c075d50ap-1, -0x1.c6de63d1eabeep-1},
        {0x1.e12683451ffa6p-2, -0x1.c60735b73e0aap-2, 0x1.aa4f5d853385cp-2},
        {0x1.80854fef3d4c4p-2, -0x1.71ab75ccb915cp-1, 0x1.eb06383edb975p-3},
        {0x1.07693dae4c057p-1, -0x1.91273b4aca5dcp-2, 0x1.de2a26428fa54p-3},
        {0x1.16eaa5722e1c9p-1, -0x1.cf5f0f6a80421p-4, 0x1.5acb8fa08cd1ap-2},
        {0x1.4a2a0b9a1c2fp-3, -0x1.5a4c6e8e6babdp-1, 0x1.8ed64e7f13badp-1},
        {0x1.08b756377b8f4p-2, -0x1.545abbbe981a8p-1, 0x1.5c7a512402429p-1},
        {0x1.0f6f11a908909p-4, -0x1.d54383e096b9fp-1, 0x1.b0de98716d687p-2},
        {-0x1.0d2865e42c08dp-3, -0x1.e8623a2246234p-2, 0x1.f37689cc80048p-1},
        {0x1.6302c25bea152p-2, 0x1.d49932fba215cp-3, 0x1.c216b21d7c7e2p-1},
        {-0x1.46b314b2d702bp-4, 0x1.d2c3def4633cep-5, 0x1.239ac73d60179p+0},
        {-0x1.0a13c6086b976p-2, 0x1.7b96b02b30e5p-6, 0x1.06eae140f6954p+0},
        {-0x1.0280c3745e133p-2, -0x1.546ab3c8e1f74p-1, 0x1.61103ec9a2972p-1},
        {-0x1.0689ef3805c5fp-1, -0x1.c8d12537fc945p-2, 0x1.f67eb1af349adp-7},
        {-0x1.d52b1643c1d04p-3, -0x1.7a84532a3221fp-4, 0x1.0d0d93c107e9cp+0},
        {-0x1.a21c97d8ddacap-2, 0x1.68c41d055952dp-3, 0x1.3fadebceeb2f8p-1},
        {-0x1.40ade3fdc2086p-2, 0x1.0d95dfef053bdp-2, 0x1.d4ff55c5f5299p-1},
        {-0x1.6b3b76c7fa691p-3, 0x1.bc904459f01f6p-6, 0x1.1868a6cfe81f6p+0},
        {-0x1.8adfb438f108p-3, 0x1.768747187fa8ep-2, 0x1.ff6309f6ff04p-1},
        {-0x1.fe75e2e24645ep-7, 0x1.a6e67a8917649p-1, -0x1.46fd987556891p-1},
        {-0x1.96f480877ac0cp-5, 0x1.81ee06c860a1ep-1, -0x1.7c9358cbe2644p-1},
        {-0x1.647aeac134952p-5, 0x1.b9f43504cede8p-1, -0x1.2014a4fc02206p-1},
        {0x1.4c58c4dd61e57p-3, 0x1.854332e8c00bep-1, -0x1.54d0120bec3c9p-1},
        {0x1.8d5606009e32ep-3, 0x1.a47495e8604dbp-1, -0x1.08f5624714c36p-1},
    };
    mk_hull *hull;
    ck_assert_int_eq(mk_hull_create(pts, 49, &hull), MK_OK);
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cylinder(&a, 0.21369266999987974, 1.0614156387641864, 0), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&b, hull, 0), MK_OK);
    const mk_transform xa = {{{{0x1.44fccd0d03ec8p-2, -0x1.493c4d25f5a8cp-3, -0x1.de80be3500b03p-1},
                               {-0x1.88a4b6b608274p-3, -0x1.f3bd1d0bb69a2p-1, 0x1.a50520ccb2dfcp-4},
                               {-0x1.db8112190ad85p-1, 0x1.2c2539a628a49p-3, -0x1.5cc3ee5589ff4p-2}}},
                             {-0x1.672fd6adc8e55p+0, -0x1.18f4148b9e854p+1, -0x1.f80e65079996ap-1}};
    const mk_transform xb = {{{{-0x1.592c4f1a5ade4p-1, 0x1.506f58d383074p-1, 0x1.595150fb23408p-2},
                               {-0x1.774ba15023378p-1, -0x1.4d74ee161bbe2p-1, -0x1.9212bfe77a926p-3},
                               {0x1.73318329e93dcp-4, -0x1.84a6480ab2fb9p-2, 0x1.d76965dd29deep-1}}},
                             {-0x1.1e210adb22691p+1, -0x1.816a592f5239cp+1, -0x1.9e94e49071c98p+0}};
    mk_epa_settings rel = mk_epa_default_settings();
    rel.tolerance = 0;
    rel.relative_tolerance = 1e-9;
    mk_signed_distance_result sd;
    const mk_status st = signed_distance(&a, xa, &b, xb, &rel, &sd);
    ck_assert(st == MK_PENETRATING || st == MK_EPA_MAX_ITER);
    ck_assert(sd.distance < 0 && sd.distance > -1e-9 && sd.lower_bound <= sd.distance && sd.distance <= sd.upper_bound);
    const double size = 1.110581612293819;
    const double oa = or_point_shape(&a, &xa, sd.point_a, NULL), ob = or_point_shape(&b, &xb, sd.point_b, NULL);
    ck_assert_msg(oa <= 1e-9 * size && ob <= 1e-9 * size, "witnesses outside their shapes by %g and %g", oa, ob);
    mk_hull_destroy(hull);
}
END_TEST

/* A sphere of 1.5 cm against the side of a cone 1.1e6 across, at coordinates
 * of 2e5: the second, tighter core GJK run (above) came back saying the core
 * point touched the cone, which the first had proved 0.013 away; kept with
 * the first's lower bound, the bracket came out upside down ([0.0146, 0.0012]
 * on the depth; found by a fuzzer). A run that contradicts a certified bound
 * is not kept. */
START_TEST(hostile_refined_gjk_keeps_the_bracket)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cone(&a, 539271.55156207876, 754905.51347769413, 0), MK_OK);
    ck_assert_int_eq(mk_shape_sphere(&b, 0.014598158525103003), MK_OK);
    const mk_transform xa = {{{{-0.62196173377831343, -0.38805116835184994, 0.68013226100240076},
                               {0.76854343473166686, -0.46891317681940059, 0.43527166406278844},
                               {0.15001530137397873, 0.79343350278766334, 0.58988023022285896}}},
                             {0, 0, 0}};
    mk_transform xb = mk_transform_identity();
    xb.p = v3(162109.06012334803, -136179.24359284044, 151952.82657782748);
    mk_pair p = {&a, xa, &b, xb};
    mk_epa_result er;
    ck_assert_int_lt(epa_after_gjk(&p, &er), MK_INVALID_INPUT);
    ck_assert_msg(er.lower_bound <= er.depth && er.depth <= er.upper_bound, "depth %.17g outside [%.17g, %.17g]",
                  er.depth, er.lower_bound, er.upper_bound);
}
END_TEST

/* Very different sizes (1e-3 against 10): the difference is a big box with
 * corners cut at the scale of 1e-3, and absolute tolerances tuned for unit
 * scenes are either far too loose for the small shape (a depth error of the
 * order of its size) or below rounding for the big one (no termination). */
START_TEST(hostile_very_different_sizes)
{
    or_rng r = or_test_rng(0x51e);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    stats st;
    stats_init(&st, 4000);
    for (int i = 0; i < or_scaled(1000); ++i) {
        mk_shape a, b;
        mk_hull *hs = NULL;
        ck_assert_int_eq(mk_shape_box(&a, v3(10 * or_uniform(&r, 0.5, 1), 10 * or_uniform(&r, 0.5, 1), 10), 0), MK_OK);
        if (i % 3 == 0) {
            ck_assert_int_eq(mk_shape_box(&b, v3(1e-3 * or_uniform(&r, 0.5, 1), 1e-3, 1e-3 * or_uniform(&r, 0.5, 1)), 0),
                             MK_OK);
        } else if (i % 3 == 1) {
            mk_vec3 pts[12];
            for (int j = 0; j < 12; ++j)
                pts[j] = v3_scale(or_in_ball(&r, 1), 1e-3);
            ck_assert_int_eq(mk_hull_create(pts, 12, &hs), MK_OK);
            ck_assert_int_eq(mk_shape_hull(&b, hs, 0), MK_OK);
        } else {
            ck_assert_int_eq(mk_shape_sphere(&b, 1e-3), MK_OK);
        }
        /* the small one near a face, edge or corner of the big one, overlapping by
         * a fraction of its size or fully inside */
        mk_transform xa = or_pose(&r, or_in_ball(&r, 1));
        mk_vec3 h = a.u.box.half_extents;
        mk_vec3 lp = v3(h.x * or_uniform(&r, -1, 1), h.y * or_uniform(&r, -1, 1), h.z - or_uniform(&r, -5e-4, 2e-3));
        if (i % 5 == 0)
            lp.x = h.x - or_uniform(&r, -5e-4, 2e-3); /* at an edge */
        if (i % 10 == 0)
            lp.y = h.y - or_uniform(&r, -5e-4, 2e-3); /* at a corner */
        mk_transform rel = or_pose(&r, lp);
        mk_transform xb = compose(&xa, &rel);
        mk_epa_settings es = tol_settings(1e-10, 0);
        check_exact_scene("very different sizes", i, &a, xa, &b, xb, &es, &st);
        check_exact_scene("very different sizes (swapped)", i, &b, xb, &a, xa, &es, &st);
        mk_hull_destroy(hs);
    }
    stats_print("sizes 1e-3 vs 10", &st);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* A sphere whose centre is 4.5e-4 off the axis of a cylinder, 1.15 deep
 * (test_collide's certificate test at MK_TEST_SCALE=300, sequence 77043):
 * every direction across the axis is nearly the nearest, and EPA would need
 * about 250 supports around the side to close to 1e-8. At its bound of 128
 * it stopped with the bracket 5.1e-4 wide (MK_EPA_MAX_ITER) until the pair
 * took the section of the two bodies of revolution (revolution.c): now it is
 * exact, and the answer is the analytic depth, the centre's distance to the
 * side (or a cap, if nearer) plus the sphere's radius. Other libraries stop
 * at a loose tolerance and return the answer as exact. */
START_TEST(hostile_sphere_on_a_cylinder_axis)
{
    mk_shape a, b;
    const double r = 0.52198916567797427, hh = 1.4485395436417408, rs = 0.6328315396164047;
    ck_assert_int_eq(mk_shape_cylinder(&a, r, hh, 0), MK_OK);
    ck_assert_int_eq(mk_shape_sphere(&b, rs), MK_OK);
    const mk_transform xa = {{{{0.089582594225640272, -0.86258992448733185, 0.4979092095801636},
                               {0.6507602922257959, 0.42914376336892274, 0.62637582362648314},
                               {-0.75398010641793578, 0.26790717148761928, 0.59978308294874572}}},
                             {0.78169066061016146, -3.331415739850748, 1.0469849870397485}};
    const mk_transform xb = {{{{-0.73223253023635249, -0.51024442879095133, -0.45109438541336955},
                               {-0.66516650961751056, 0.39355627725978626, 0.63456045504953829},
                               {-0.14624990990400089, 0.76469868544232145, -0.62757221443899003}}},
                             {0.78181565956348109, -3.3318298301670919, 1.0471039171078704}};
    const mk_vec3 c = mk_rotate_inv(&xa.R, v3_sub(xb.p, xa.p)); /* the centre in the cylinder's frame */
    const double rho = sqrt(c.x * c.x + c.y * c.y);
    const double depth = fmin(r - rho, hh - fabs(c.z)) + rs;
    mk_signed_distance_result res;
    ck_assert_int_eq(signed_distance(&a, xa, &b, xb, NULL, &res), MK_PENETRATING);
    ck_assert(res.epa_flags & MK_EPA_FLAG_CLOSED_FORM);
    ck_assert(res.lower_bound <= res.distance && res.distance <= res.upper_bound);
    ck_assert_msg(res.lower_bound <= -depth + 1e-12 && -depth <= res.upper_bound + 1e-12,
                  "bracket [%.17g, %.17g] misses the depth %.17g", res.lower_bound, res.upper_bound, depth);
    ck_assert(res.upper_bound - res.lower_bound <= 1e-8 * (1 + 1e-9));
    ck_assert_msg(fabs(res.distance + depth) <= 1e-12, "distance %.17g, depth %.17g", res.distance, depth);
    ck_assert(fabs(v3_len(res.normal) - 1) < 1e-12);
}
END_TEST

/* The depth of two coaxial bodies of revolution from the oracle alone: the
 * smallest overlap of the shapes along n(t) = cos t e + sin t u (the
 * meridian plane through B's centre; e across the axis u towards it, any
 * across direction when the centre is on the axis) from or_support_value's
 * formulas, by a scan of 20,000 angles and golden-section search about the
 * best one. */
static double meridian_depth(const mk_shape *a, const mk_transform *xa, const mk_shape *b, const mk_transform *xb,
                             mk_vec3 e, mk_vec3 u)
{
    enum { SCAN = 20000 };
#define MERIDIAN_OVERLAP(t)                                                                                        \
    (or_support_value(a, xa, v3_add(v3_scale(e, cos(t)), v3_scale(u, sin(t)))) +                                  \
     or_support_value(b, xb, v3_neg(v3_add(v3_scale(e, cos(t)), v3_scale(u, sin(t))))))
    const double step = 2 * PI / SCAN;
    static double o[SCAN];
    double best = INFINITY;
    for (int i = 0; i < SCAN; ++i) {
        o[i] = MERIDIAN_OVERLAP(i * step);
        best = fmin(best, o[i]);
    }
    /* Every local minimum of the scan near the best one is refined: the
     * global one can sit in a valley narrower than the step, next to the
     * best sample's (a cylinder against a rounded cone, MK_TEST_SEED=41,
     * MK_TEST_SCALE=20, scene 5,167: refining the best sample alone gave
     * 1.1439192, 5.2e-6 deeper than the overlap 1.1439140 along the
     * library's normal). The function's slope is at most the shapes' reach,
     * so between samples it dips at most reach x step (6e-4 for these sizes)
     * below them: minima within 0.05 of the best are refined. */
    const double g = 0.5 * (sqrt(5.0) - 1);
    double refined = best;
    for (int i = 0; i < SCAN; ++i) {
        const double prev = o[(i + SCAN - 1) % SCAN], next = o[(i + 1) % SCAN];
        if (!(o[i] <= prev && o[i] <= next && o[i] <= best + 0.05))
            continue;
        double lo = (i - 1) * step, hi = (i + 1) * step;
        for (int it = 0; it < 200 && hi - lo > 1e-15; ++it) {
            const double t1 = hi - g * (hi - lo), t2 = lo + g * (hi - lo);
            if (MERIDIAN_OVERLAP(t1) < MERIDIAN_OVERLAP(t2))
                hi = t2;
            else
                lo = t1;
        }
        refined = fmin(refined, MERIDIAN_OVERLAP(0.5 * (lo + hi)));
    }
#undef MERIDIAN_OVERLAP
    return refined;
}

/* A random sphere, capsule, cylinder or cone (kind 0-3), rounded one time in
 * three (not the sphere and capsule, rounded already). */
static void revolution_shape(or_rng *r, int kind, mk_shape *s)
{
    const double rad = or_uniform(r, 0.1, 1), hh = or_uniform(r, 0.1, 1);
    const double round = or_int(r, 3) == 0 ? or_uniform(r, 0.01, 0.2) : 0;
    mk_status st = MK_OK;
    switch (kind) {
    case 0: st = mk_shape_sphere(s, rad); break;
    case 1: st = mk_shape_capsule(s, rad, hh); break;
    case 2: st = mk_shape_cylinder(s, rad, hh, round); break;
    default: st = mk_shape_cone(s, rad, hh, round); break;
    }
    ck_assert_int_eq(st, MK_OK);
}

/* A coaxial pair with overlapping cores: A at a random pose; B turned about
 * A's axis (every other scene also reversed, a half turn about A's x axis),
 * its centre a random height along the axis and `across` off it, both within
 * the area shapes' middles (so the cores overlap). *e: the direction across
 * the axis towards B's centre, *u: the axis. */
static void coaxial_pair(or_rng *r, int index, const mk_shape *a, const mk_shape *b, double across, mk_transform *xa,
                         mk_transform *xb, mk_vec3 *e, mk_vec3 *u)
{
    double rmin = INFINITY, hmin = INFINITY;
    const mk_shape *s[2] = {a, b};
    for (int q = 0; q < 2; ++q) {
        if (s[q]->type == MK_SHAPE_CYLINDER) {
            rmin = fmin(rmin, s[q]->u.cylinder.radius);
            hmin = fmin(hmin, s[q]->u.cylinder.half_height);
        } else if (s[q]->type == MK_SHAPE_CONE) {
            rmin = fmin(rmin, s[q]->u.cone.radius);
            hmin = fmin(hmin, s[q]->u.cone.half_height);
        }
    }
    *xa = or_pose(r, or_in_ball(r, 2));
    mk_transform turn = pose_aa(v3(0, 0, 0), v3(0, 0, 1), or_uniform(r, 0, 2 * PI));
    if (index % 2) {
        const mk_transform half = pose_aa(v3(0, 0, 0), v3(1, 0, 0), PI);
        turn = compose(&turn, &half);
    }
    *xb = compose(xa, &turn);
    *u = v3(xa->R.m[0][2], xa->R.m[1][2], xa->R.m[2][2]);
    const mk_vec3 e0 = v3(xa->R.m[0][0], xa->R.m[1][0], xa->R.m[2][0]);
    const mk_vec3 e1 = v3(xa->R.m[0][1], xa->R.m[1][1], xa->R.m[2][1]);
    const double beta = or_uniform(r, 0, 2 * PI);
    *e = v3_add(v3_scale(e0, cos(beta)), v3_scale(e1, sin(beta)));
    xb->p = v3_add(xa->p, v3_add(v3_scale(*e, fmin(across, 0.25 * rmin)),
                                 v3_scale(*u, or_uniform(r, -0.3, 0.3) * hmin)));
}

/* Coincident and nearly coincident centres of bodies of revolution on one
 * axis (issue 3's coincident centres, for the shapes EPA cannot certify
 * there): D is a body of revolution, and where the origin lies near its axis
 * with its curved side nearest, every direction around the axis is within
 * rounding of the minimum. EPA then needs a polytope following the whole ring
 * to the tolerance: at its default 128 iterations a sphere at the centre of
 * a cylinder stopped with the bracket 6.2e-4 wide, coaxial cylinders 1.0e-3, a
 * cone and a sphere 1.5e-4, a capsule in a cylinder 6.3e-4 (MK_EPA_MAX_ITER).
 * The section of the two bodies answers exactly. Truth: meridian_depth from
 * the oracle's support formulas; that no direction off the meridian plane
 * does better is checked on 500 random directions per scene. Every scene must
 * take the section, converge, and keep check_result's promises, with the
 * witnesses on their surfaces to 1e-12 of the scene. */
START_TEST(hostile_coaxial_bodies_of_revolution)
{
    or_rng r = or_test_rng(0xc0a7);
    static const double across[] = {0, 1e-12, 1e-9, 1e-6, 1e-3, 0.1};
    const int n = or_scaled(300);
    stats st;
    stats_init(&st, n);
    for (int k = 0; k < n; ++k) {
        mk_shape a, b;
        const int ka = or_int(&r, 4), kb = ka < 2 ? 2 + or_int(&r, 2) : or_int(&r, 4);
        if (k % 2) {
            revolution_shape(&r, ka, &a);
            revolution_shape(&r, kb, &b);
        } else {
            revolution_shape(&r, kb, &a);
            revolution_shape(&r, ka, &b);
        }
        mk_transform xa, xb;
        mk_vec3 e, u;
        const double off = across[k % 6] * (k % 6 == 5 ? or_uniform(&r, 0, 1) : 1);
        coaxial_pair(&r, k, &a, &b, off, &xa, &xb, &e, &u);
        const double depth = meridian_depth(&a, &xa, &b, &xb, e, u);
        scene scv = {"coaxial bodies of revolution", k, &a, &b, xa, xb};
        const scene *sc = &scv;
        for (int q = 0; q < 500; ++q) {
            const mk_vec3 d = or_unit(&r);
            const double o = or_support_value(&a, &xa, d) + or_support_value(&b, &xb, v3_neg(d));
            FAIL_IF(o < depth - 1e-12, "overlap %.17g along a random direction below the meridian's %.17g", o, depth);
        }
        mk_signed_distance_result res;
        signed_distance(&a, xa, &b, xb, NULL, &res);
        FAIL_IF(res.status != MK_PENETRATING || !(res.epa_flags & MK_EPA_FLAG_CLOSED_FORM),
                "status %s, flags %d, gap %.3g (not the section's answer)", mk_status_string(res.status),
                res.epa_flags, res.upper_bound - res.lower_bound);
        check_result(sc, &res, &(truth){1, -depth, -depth, -depth}, mk_epa_default_settings().tolerance, &st);
        const double s = 1e-12 * scene_scale(sc);
        FAIL_IF(fabs(res.distance + depth) > s, "distance %.17g, depth %.17g", res.distance, depth);
        const double da = or_point_shape(&a, &xa, res.point_a, NULL), db = or_point_shape(&b, &xb, res.point_b, NULL);
        FAIL_IF(fabs(da) > s || fabs(db) > s, "witnesses off the surfaces: A %.3g, B %.3g", da, db);
    }
    stats_print("coaxial bodies of revolution", &st);
}
END_TEST

/* Nearly coaxial is not coaxial: B tilted by 1e-7 rad (or its rotation
 * scaled by 1 + 1e-7, a pose through single precision) is not a body of
 * revolution about A's axis to rounding, so the pair keeps EPA, whose
 * witnesses lie on the posed shapes. Its bracket must still hold the depth,
 * which the tilt moves from the coaxial one by at most the tilt times B's
 * size (the Hausdorff distance of the two B's). */
START_TEST(nearly_coaxial_keeps_epa)
{
    or_rng r = or_test_rng(0xc0a8);
    const int n = or_scaled(40);
    for (int k = 0; k < n; ++k) {
        mk_shape a, b;
        revolution_shape(&r, 2 + or_int(&r, 2), &a);
        revolution_shape(&r, 1 + or_int(&r, 3), &b);
        mk_transform xa, xb;
        mk_vec3 e, u;
        coaxial_pair(&r, k, &a, &b, k % 2 ? 0 : 1e-6, &xa, &xb, &e, &u);
        const double depth = meridian_depth(&a, &xa, &b, &xb, e, u);
        const double tilt = 1e-7;
        mk_vec3 lo, hi;
        mk_shape_local_aabb(&b, &lo, &hi);
        const double ext = v3_len(v3(fmax(fabs(lo.x), fabs(hi.x)), fmax(fabs(lo.y), fabs(hi.y)),
                                     fmax(fabs(lo.z), fabs(hi.z))));
        if (k % 4 < 2) {
            const mk_transform t = pose_aa(v3(0, 0, 0), v3_cross(u, e), tilt);
            mk_transform moved = compose(&t, &(mk_transform){xb.R, v3(0, 0, 0)});
            xb.R = moved.R;
        } else {
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    xb.R.m[i][j] *= 1 + tilt;
        }
        mk_signed_distance_result res;
        const mk_status s = signed_distance(&a, xa, &b, xb, NULL, &res);
        scene scv = {"nearly coaxial", k, &a, &b, xa, xb};
        const scene *sc = &scv;
        FAIL_IF(res.epa_flags & MK_EPA_FLAG_CLOSED_FORM, "took the section (flags %d)", res.epa_flags);
        FAIL_IF(s != MK_PENETRATING && s != MK_EPA_MAX_ITER, "status %s", mk_status_string(s));
        const double slack = 2 * tilt * ext + 1e-12;
        FAIL_IF(res.lower_bound > -depth + slack || res.upper_bound < -depth - slack,
                "bracket [%.17g, %.17g] misses the coaxial depth %.17g by more than %.3g", res.lower_bound,
                res.upper_bound, depth, slack);
    }
}
END_TEST

/* A sphere whose centre is inside an ellipsoid (deep: the sphere tunnelled
 * in). For an ellipsoid close to a sphere the distance to its surface is
 * nearly the same over a wide cone of directions, and EPA's lower bound
 * needs a polytope following the surface there: of 200 random unit-size
 * pairs with centres within 5 cm, 46 ended EPA's default 128 iterations
 * (MK_EPA_MAX_ITER) with brackets up to 2.1e-3 wide, and up to 2e-2 among
 * pairs with thin shapes (scratch probes, 2026-11-27). The closed
 * form (point_ellipsoid.c) answers exactly. Ellipsoids: random, within 1%
 * of a sphere, spheroids (two equal semi-axes), spheres; centres: the
 * ellipsoid's centre, on the plane of its shortest axis, on the other
 * planes, anywhere inside, just under the surface. Truth: the oracle's
 * point-ellipsoid distance (or_point_shape, its own bisection), and EPA
 * itself at 4,096 iterations where it converges there. */
START_TEST(hostile_sphere_deep_in_an_ellipsoid)
{
    or_rng r = or_test_rng(0xe111);
    const int n = or_scaled(400);
    stats st;
    stats_init(&st, n);
    mk_epa_settings long_run = mk_epa_default_settings();
    long_run.max_iterations = 4096;
    const size_t big = mk_epa_workspace_size(long_run.max_iterations);
    void *ws = malloc(big);
    ck_assert_ptr_nonnull(ws);
    int epa_checked = 0;
    for (int k = 0; k < n; ++k) {
        double e[3];
        const double base = or_uniform(&r, 0.1, 2);
        for (int i = 0; i < 3; ++i) {
            switch (k % 4) {
            case 0: e[i] = or_uniform(&r, 0.1, 2); break;         /* random */
            case 1: e[i] = base * or_uniform(&r, 1, 1.01); break; /* near a sphere */
            case 2: e[i] = i == 2 ? or_uniform(&r, 0.1, 2) : base; break; /* spheroid */
            default: e[i] = base; break;                              /* a sphere */
            }
        }
        mk_shape el, sp;
        ck_assert_int_eq(mk_shape_ellipsoid(&el, v3(e[0], e[1], e[2])), MK_OK);
        ck_assert_int_eq(mk_shape_sphere(&sp, or_uniform(&r, 0.01, 1)), MK_OK);
        /* the centre in the ellipsoid's frame, then posed */
        int m = 0;
        for (int i = 1; i < 3; ++i)
            if (e[i] < e[m])
                m = i;
        mk_vec3 dir = or_unit(&r);
        double f = or_uniform(&r, 0, 0.95);
        switch ((k / 4) % 5) {
        case 0: f = 0; break;                                                     /* the centre */
        case 1: dir = v3(m == 0 ? 0 : dir.x, m == 1 ? 0 : dir.y, m == 2 ? 0 : dir.z); break; /* q_m = 0 */
        case 2: dir = v3(m == 0 ? dir.x : 0, m == 1 ? dir.y : 0, m == 2 ? dir.z : 0); break; /* on axis m */
        case 3: break;
        default: f = 1 - or_uniform(&r, 1e-9, 1e-3); break; /* just under the surface */
        }
        const double len = sqrt((dir.x / e[0]) * (dir.x / e[0]) + (dir.y / e[1]) * (dir.y / e[1]) +
                                (dir.z / e[2]) * (dir.z / e[2]));
        const mk_vec3 ql = len > 0 ? v3_scale(dir, f / len) : v3(0, 0, 0);
        const mk_transform xe = or_pose(&r, or_in_ball(&r, 3));
        mk_transform xs = mk_transform_identity();
        xs.p = xf_apply(&xe, ql);
        const int sphere_first = k % 2;
        const mk_shape *a = sphere_first ? &sp : &el, *b = sphere_first ? &el : &sp;
        const mk_transform xa = sphere_first ? xs : xe, xb = sphere_first ? xe : xs;
        scene scv = {"sphere deep in an ellipsoid", k, a, b, xa, xb};
        const scene *sc = &scv;
        const double truth_d = or_point_shape(&el, &xe, xs.p, NULL) - sp.radius;
        FAIL_IF(!(truth_d < 0), "oracle distance %.17g: not inside", truth_d);
        /* Independently of the Lagrange condition: no point of a 100 x 200
         * grid over the surface is nearer to the centre than the oracle's. */
        double grid = INFINITY;
        for (int i = 0; i <= 100; ++i)
            for (int j = 0; j < 200; ++j) {
                const double th = PI * i / 100, ph = PI * j / 100;
                const mk_vec3 x = v3(e[0] * sin(th) * cos(ph), e[1] * sin(th) * sin(ph), e[2] * cos(th));
                grid = fmin(grid, v3_len(v3_sub(x, ql)));
            }
        FAIL_IF(-truth_d - sp.radius > grid + 1e-12, "oracle depth %.17g, a grid point at %.17g",
                -truth_d - sp.radius, grid);
        mk_signed_distance_result res;
        signed_distance(a, xa, b, xb, NULL, &res);
        FAIL_IF(res.status != MK_PENETRATING || !(res.epa_flags & MK_EPA_FLAG_CLOSED_FORM),
                "status %s, flags %d, gap %.3g (not the closed form)", mk_status_string(res.status), res.epa_flags,
                res.upper_bound - res.lower_bound);
        check_result(sc, &res, &(truth){1, truth_d, truth_d, truth_d}, mk_epa_default_settings().tolerance, &st);
        const double s = 1e-12 * scene_scale(sc);
        FAIL_IF(fabs(res.distance - truth_d) > s, "distance %.17g, oracle %.17g", res.distance, truth_d);
        const double da = or_point_shape(a, &xa, res.point_a, NULL), db = or_point_shape(b, &xb, res.point_b, NULL);
        FAIL_IF(fabs(da) > s || fabs(db) > s, "witnesses off the surfaces: A %.3g, B %.3g", da, db);
        /* EPA, given the iterations, agrees where it converges there (not
         * where every direction is nearly the nearest). The sphere becomes a
         * capsule 2e-12 long, which EPA proper answers, within 1e-12 of the
         * sphere's depth. */
        mk_shape hair;
        ck_assert_int_eq(mk_shape_capsule(&hair, sp.radius, 1e-12), MK_OK);
        mk_pair p = {sphere_first ? &hair : a, xa, sphere_first ? b : &hair, xb};
        mk_signed_distance_result er;
        if (mk_signed_distance(&p, NULL, &long_run, NULL, ws, big, &er) == MK_PENETRATING &&
            !(er.epa_flags & MK_EPA_FLAG_CLOSED_FORM)) {
            ++epa_checked;
            FAIL_IF(fabs(er.distance - res.distance) > er.upper_bound - er.lower_bound + 1e-11,
                    "EPA at 4096 iterations: %.17g (gap %.3g), the closed form %.17g", er.distance,
                    er.upper_bound - er.lower_bound, res.distance);
        }
    }
    free(ws);
    stats_print("sphere deep in an ellipsoid", &st);
    printf("epa sphere deep in an ellipsoid: EPA at 4096 iterations converged and agreed on %d of %d\n", epa_checked,
           n);
    ck_assert_int_gt(epa_checked, n / 2);
}
END_TEST

/* The closed forms far from the world's origin: small shapes (1 cm) 1 km
 * and 100 km out. Their certificate's upper bound is the posed shapes'
 * overlap along the normal; taken from world points it rounded by 1e-11 m
 * at 100 km, more than the bracket's allowance for shapes this small, and
 * half the pairs fell back to EPA (which ends these at its bound, 1e-3 of
 * their size off). Now the offset of B from A is taken first. Truth:
 * coaxial cylinders min(rA + rB - rho, hA + hB - |z|); a sphere in a
 * cylinder min(r - rho, h - |z|) + r_sphere; a sphere at an ellipsoid's
 * centre e_min + r_sphere. */
START_TEST(closed_forms_far_from_the_origin)
{
    or_rng r = or_test_rng(0xfa7);
    const int n = or_scaled(150);
    for (int k = 0; k < n; ++k) {
        const double s = 0.01, far = k % 2 ? 1e3 : 1e5;
        const int kind = k % 3;
        mk_shape a, b;
        double depth;
        mk_transform xa = or_pose(&r, v3_scale(or_unit(&r), far)), xb = xa;
        const mk_transform turn = pose_aa(v3(0, 0, 0), v3(0, 0, 1), or_uniform(&r, 0, 2 * PI));
        xb = compose(&xa, &turn);
        xb.p = xa.p;
        const mk_vec3 e0 = v3(xa.R.m[0][0], xa.R.m[1][0], xa.R.m[2][0]), u = v3(xa.R.m[0][2], xa.R.m[1][2], xa.R.m[2][2]);
        double rho = k % 4 < 2 ? 0 : or_uniform(&r, 0, 1e-3), z = or_uniform(&r, -0.1, 0.1);
        if (kind < 2) {
            const double r1 = s * or_uniform(&r, 0.1, 1), h1 = s * or_uniform(&r, 0.1, 1);
            ck_assert_int_eq(mk_shape_cylinder(&a, r1, h1, 0), MK_OK);
            if (kind == 0) {
                const double r2 = s * or_uniform(&r, 0.1, 1), h2 = s * or_uniform(&r, 0.1, 1);
                ck_assert_int_eq(mk_shape_cylinder(&b, r2, h2, 0), MK_OK);
                rho *= fmin(r1, r2);
                z *= fmin(h1, h2);
                depth = fmin(r1 + r2 - rho, h1 + h2 - fabs(z));
            } else {
                ck_assert_int_eq(mk_shape_sphere(&b, s * or_uniform(&r, 0.05, 0.5)), MK_OK);
                rho *= r1;
                z *= h1;
                depth = fmin(r1 - rho, h1 - fabs(z)) + b.radius;
            }
        } else {
            const double base = s * or_uniform(&r, 0.1, 1);
            const mk_vec3 e = v3(base * or_uniform(&r, 1, 1.01), base * or_uniform(&r, 1, 1.01),
                                 base * or_uniform(&r, 1, 1.01));
            ck_assert_int_eq(mk_shape_ellipsoid(&a, e), MK_OK);
            ck_assert_int_eq(mk_shape_sphere(&b, s * or_uniform(&r, 0.05, 0.5)), MK_OK);
            rho = z = 0;
            depth = fmin(e.x, fmin(e.y, e.z)) + b.radius;
        }
        xb.p = v3_add(xa.p, v3_add(v3_scale(e0, rho), v3_scale(u, z)));
        scene scv = {"closed forms far out", k, &a, &b, xa, xb};
        const scene *sc = &scv;
        mk_signed_distance_result res;
        signed_distance(&a, xa, &b, xb, NULL, &res);
        FAIL_IF(res.status != MK_PENETRATING || !(res.epa_flags & MK_EPA_FLAG_CLOSED_FORM),
                "status %s, flags %d (not the closed form)", mk_status_string(res.status), res.epa_flags);
        /* the poses themselves are rounded at far * DBL_EPSILON */
        const double slack = 8 * far * DBL_EPSILON;
        FAIL_IF(fabs(res.distance + depth) > slack, "distance %.17g, depth %.17g", res.distance, depth);
        FAIL_IF(res.lower_bound > -depth + slack || res.upper_bound < -depth - slack,
                "bracket [%.17g, %.17g] misses the depth %.17g", res.lower_bound, res.upper_bound, depth);
    }
}
END_TEST

/* The ellipsoid's own support, behind a user shape: the pair is then not
 * "an ellipsoid" to the library, and mk_signed_distance runs EPA on it as on
 * any shape. */
static mk_vec3 plain_ellipsoid_support(const void *data, mk_vec3 d)
{
    const mk_shape *s = data;
    return mk_shape_support(s, d, NULL);
}

static void plain_ellipsoid(const mk_shape *s, mk_shape *out)
{
    if (s->type != MK_SHAPE_ELLIPSOID) {
        *out = *s;
        return;
    }
    const mk_vec3 e = s->u.ellipsoid.radii;
    ck_assert_int_eq(mk_shape_user(out, plain_ellipsoid_support, s, v3_neg(e), e, s->radius), MK_OK);
}

/* Ellipsoids overlapping ellipsoids, boxes, capsules and cylinders, deep
 * (centres within 5 cm) and shallow (slid to 1-10 mm deep): mk_signed_distance
 * solves them on the ellipsoids' inner cores (MK_EPA_FLAG_INNER_CORES: the
 * ellipsoid less a ball of its smallest radius of curvature). Against EPA on
 * the ellipsoids themselves (their support behind user shapes) at 4,096
 * iterations, where that converges: the distances agree within both
 * brackets, and check_result's promises hold with that bracket as the truth.
 * At the default 128 iterations, plain EPA left 61 of 200 random deep
 * ellipsoid pairs at the bound (brackets up to 7.8e-3 at unit size), the
 * inner cores 15. */
START_TEST(hostile_deep_ellipsoids_on_inner_cores)
{
    or_rng r = or_test_rng(0xe11c);
    or_hull_pool p12;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 4, 12), MK_OK);
    static const or_family others[4] = {OR_ELLIPSOID, OR_BOX, OR_CAPSULE, OR_CYLINDER};
    const int n = or_scaled(240);
    mk_epa_settings long_run = mk_epa_default_settings();
    long_run.max_iterations = 4096;
    const size_t big = mk_epa_workspace_size(long_run.max_iterations);
    void *ws = malloc(big);
    ck_assert_ptr_nonnull(ws);
    stats st;
    stats_init(&st, n);
    int compared = 0, inner = 0, inner_given = 0;
    for (int k = 0; k < n; ++k) {
        mk_shape a, b;
        or_random_shape(&r, OR_ELLIPSOID, &p12, &p12, &a);
        or_random_shape(&r, others[k % 4], &p12, &p12, &b);
        mk_transform xa, xb;
        if (k % 2) {
            xa = or_pose(&r, or_in_ball(&r, 1));
            xb = or_pose(&r, v3_add(xa.p, or_in_ball(&r, 0.05)));
        } else { /* B slid along the signed distance's normal to 1-10 mm deep */
            or_place_pair(&r, &a, &b, 0.01, &xa, &xb);
            const double pen = or_uniform(&r, 1e-3, 1e-2);
            for (int it = 0; it < 4; ++it) {
                mk_signed_distance_result sd;
                signed_distance(&a, xa, &b, xb, NULL, &sd);
                xb.p = v3_madd(xb.p, -(sd.distance + pen), sd.normal);
            }
        }
        mk_shape pa, pb;
        plain_ellipsoid(&a, &pa);
        plain_ellipsoid(&b, &pb);
        const mk_pair plain = {&pa, xa, &pb, xb};
        mk_signed_distance_result ref, res;
        if (mk_signed_distance(&plain, NULL, &long_run, NULL, ws, big, &ref) != MK_PENETRATING)
            continue;
        signed_distance(&a, xa, &b, xb, NULL, &res);
        scene scv = {"deep ellipsoids", k, &a, &b, xa, xb};
        const scene *sc = &scv;
        inner += (res.epa_flags & MK_EPA_FLAG_INNER_CORES) != 0;
        /* with GJK settings given (as mk_collide gives them) as well: they
         * once left the cores' distance unrefined, and the answer declined */
        const mk_gjk_settings gs = mk_gjk_default_settings();
        const mk_pair given = {&a, xa, &b, xb};
        mk_signed_distance_result res_gs;
        mk_signed_distance(&given, &gs, NULL, NULL, ws, big, &res_gs);
        inner_given += (res_gs.epa_flags & MK_EPA_FLAG_INNER_CORES) != 0;
        ++compared;
        const double gaps = (ref.upper_bound - ref.lower_bound) + (res.upper_bound - res.lower_bound);
        FAIL_IF(fabs(res.distance - ref.distance) > gaps + 1e-12 * scene_scale(sc),
                "distance %.17g (flags %d), EPA on the ellipsoids %.17g; brackets %.3g + %.3g", res.distance,
                res.epa_flags, ref.distance, res.upper_bound - res.lower_bound, ref.upper_bound - ref.lower_bound);
        if (res.status == MK_PENETRATING)
            check_result(sc, &res, &(truth){0, ref.distance, ref.upper_bound, ref.lower_bound},
                         mk_epa_default_settings().tolerance, &st);
    }
    free(ws);
    stats_print("deep ellipsoids on inner cores", &st);
    printf("epa deep ellipsoids: %d compared with EPA on the ellipsoids at 4096 iterations, %d on inner cores (%d "
           "with GJK settings given)\n",
           compared, inner, inner_given);
    ck_assert_int_gt(compared, n * 3 / 4);
    ck_assert_int_gt(inner, compared / 2);
    ck_assert_int_ge(inner_given, inner - compared / 50);
    or_hull_pool_free(&p12);
}
END_TEST

/* One scene of the test above at MK_TEST_SCALE=100 (#46300): a hull 1e-3
 * across at a corner of a box 20 across. The seed's supports along the axes
 * met the same point of D (the box's corner less one hull vertex) three
 * times; the copies made zero-area triangles, whose borrowed normals gave
 * one an offset of -18.6, and the expansion along it stopped on a pinched
 * visible region (MK_EPA_FLAG_DEGENERATE_UPDATE) with the bracket
 * [0, 7.2e-4] on a depth of 7.2e-4. The seed keeps each point once now
 * (epa.c, seed_hull): exact, in two iterations. */
START_TEST(hostile_tiny_hull_at_a_box_corner)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, v3(0x1.0d1248774af23p+3, 0x1.b771597647879p+2, 0x1.4p+3), 0), MK_OK);
    static const mk_vec3 pts[10] = {{-0x1.789ffd2bf16ecp-11, 0x1.59435e286b76p-11, -0x1.4744fe8534fc7p-13},
                                    {-0x1.aa952b125b627p-11, -0x1.25f7e9baed0d5p-14, 0x1.7f4ba5b91b148p-14},
                                    {-0x1.a384ea4d9bbc7p-13, -0x1.a33609320f533p-12, 0x1.10928747430f6p-14},
                                    {-0x1.35ff49540d7ecp-11, 0x1.21ad63218bc7bp-13, -0x1.2eadeef14e91p-11},
                                    {-0x1.393b3fbd6e4acp-12, -0x1.8988de5a6d648p-11, 0x1.f12d03eafd604p-12},
                                    {0x1.3b2f77c2e47dfp-13, 0x1.323ef84952f96p-13, 0x1.79c160917e3c3p-11},
                                    {-0x1.c469f285fde77p-13, 0x1.37089ff14fb4ap-11, 0x1.5e37e0647215ep-11},
                                    {0x1.f40c3d1e93252p-12, 0x1.ab504431752a4p-12, -0x1.35450e5a5674cp-15},
                                    {0x1.275250fdc0873p-15, 0x1.d18172ab8fbe8p-17, 0x1.d856a0164ba29p-11},
                                    {0x1.f62aca7cb486bp-13, -0x1.84e01a393c473p-12, 0x1.28cf0f6358092p-11}};
    mk_hull *hull = NULL;
    ck_assert_int_eq(mk_hull_create(pts, 10, &hull), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&b, hull, 0), MK_OK);
    mk_transform xa = {{{{0x1.ddbe30efe2e2p-3, 0x1.37a007c995b58p-1, 0x1.844a29c1dcbbp-1},
                         {0x1.f54a58aa0e7d8p-5, 0x1.89cf6fee28746p-1, -0x1.45b15f06daf69p-1},
                         {-0x1.f0e3478665528p-1, 0x1.8ef177efdca47p-3, 0x1.232f3578268cp-3}}},
                       {0x1.bde9bd351ee58p-3, -0x1.81244729ab906p-1, 0x1.25b073fb61822p-1}};
    mk_transform xb = {{{{0x1.dad4739accadfp-2, -0x1.b4d1d3efe1b8ep-1, 0x1.e95ac7f2d979ap-3},
                         {0x1.c3a8567bd958ep-1, 0x1.e0f5fa5a7ccb4p-2, -0x1.1d978d8bf667p-5},
                         {-0x1.51dc281d0c3a4p-4, 0x1.d0c9d57b8724dp-3, 0x1.f0d945a046bap-1}}},
                       {0x1.be2282c9ba426p+3, -0x1.514e7dcc4e2c7p+0, -0x1.34eb9638b04e9p+2}};
    mk_epa_settings es = tol_settings(1e-10, 0);
    check_exact_scene("tiny hull at a box corner", 0, &a, xa, &b, xb, &es, NULL);
    check_exact_scene("tiny hull at a box corner (swapped)", 0, &b, xb, &a, xa, &es, NULL);
    mk_hull_destroy(hull);
}
END_TEST

/* The same, as extreme as the core's fuzzer drew it: a cylinder 0.03 across
 * on a face of a box 1.2e6 across, 7e-10 deep. GJK (Polyak with
 * normalised directions, no fallback) ends on a flat tetrahedron of D, whose
 * vertices are 1e6 from the origin: its weights carry a relative rounding of
 * 7e-4, so they put A's support points and B's on two different points, 700
 * apart. EPA's polytope held the origin only to rounding, the witnesses came
 * from GJK's common point, and the half sum of the two lay 458 off the
 * cylinder. The point of the shape whose support points spread less (the
 * cylinder's) is the one the rounding cannot move far. */
START_TEST(hostile_tiny_cylinder_on_a_huge_box_witnesses)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cylinder(&a, 0.011713521386890356, 0.013390077734327604, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(105706.72902629682, 585075.62633530016, 187421.08772887272), 0), MK_OK);
    mk_transform xa = mk_transform_identity();
    mk_transform xb = {{{{-0.60317912143026486, 0.72851696044477987, 0.32471215840327278},
                         {0.77351728135893683, 0.4349969244998142, 0.46092156720507438},
                         {0.19454038889056507, 0.52918873194730986, -0.8259015214117873}}},
                       {-441166.59135020431, -118110.79035326422, -354862.02528199594}};
    mk_pair p = {&a, xa, &b, xb};
    for (int fallback = 0; fallback <= 1; ++fallback) {
        mk_gjk_settings gs = mk_gjk_default_settings();
        gs.variant = MK_GJK_POLYAK;
        gs.normalize_dir = 1;
        gs.fallback_to_vanilla = fallback;
        gs.tolerance = 3.8756768754114061e-08;
        mk_signed_distance_result r;
        static unsigned char ws[1 << 16];
        ck_assert_uint_ge(sizeof ws, mk_epa_workspace_size(mk_epa_default_settings().max_iterations));
        mk_status st = mk_signed_distance(&p, &gs, NULL, NULL, ws, sizeof ws, &r);
        ck_assert_msg(st == MK_PENETRATING || st == MK_GJK_SEPARATED, "status %s", mk_status_string(st));
        ck_assert_msg(r.lower_bound <= r.distance && r.distance <= r.upper_bound && r.distance > -1e-6,
                      "distance %.17g, bracket [%.17g, %.17g]", r.distance, r.lower_bound, r.upper_bound);
        const double da = or_point_shape(&a, &xa, r.point_a, NULL), db = or_point_shape(&b, &xb, r.point_b, NULL);
        /* the box's surface to its own rounding (1e-16 of 1e6) */
        ck_assert_msg(fabs(da) < 1e-6 && fabs(db) < 1e-6, "fallback %d: witnesses off the surfaces: A %.3g, B %.3g",
                      fallback, da, db);
    }
}
END_TEST

/* Stacked cubes: a column of unit cubes, each sunk into the one below by 1e-5
 * to 1e-2 with a small tilt and slide, as an engine's stack sees them. The
 * normal must be the stacking axis and the depth the sink; a sideways normal
 * (MPR's by design: it measures along the line of centres; EPA stopped early on
 * a neighbouring face) makes stacks walk. */
START_TEST(hostile_stacked_cubes)
{
    or_rng r = or_test_rng(0x57ac);
    stats st;
    stats_init(&st, 4000);
    mk_shape cube;
    ck_assert_int_eq(mk_shape_box(&cube, v3(0.5, 0.5, 0.5), 0), MK_OK);
    for (int s = 0; s < or_scaled(100); ++s) {
        mk_transform below = mk_transform_identity();
        mk_transform g = or_pose(&r, or_in_ball(&r, 3));
        for (int k = 0; k < 10; ++k) {
            double sink = pow(10, or_uniform(&r, -5, -2));
            mk_transform step = pose_aa(v3(or_uniform(&r, -0.05, 0.05), or_uniform(&r, -0.05, 0.05), 1 - sink),
                                        v3(0, 0, 1), or_uniform(&r, -0.1, 0.1));
            if (k % 2)
                step.R = mk_transform_identity().R; /* perfectly aligned: coplanar faces */
            mk_transform above = compose(&below, &step);
            mk_transform xa = compose(&g, &below), xb = compose(&g, &above);
            mk_signed_distance_result res;
            signed_distance(&cube, xa, &cube, xb, NULL, &res);
            scene scv = {"stacked cubes", s * 10 + k, &cube, &cube, xa, xb};
            const scene *sc = &scv;
            double d;
            ck_assert(or_exact_distance(&cube, &xa, &cube, &xb, &d, NULL, NULL));
            truth t = exact(d);
            check_result(sc, &res, &t, 1e-8, &st);
            mk_vec3 up = mk_rotate(&xa.R, v3(0, 0, 1));
            FAIL_IF(v3_dot(res.normal, up) < 1 - 1e-6, "normal (%g %g %g) is not the stacking axis (%g %g %g)",
                    res.normal.x, res.normal.y, res.normal.z, up.x, up.y, up.z);
            if (k % 2)
                FAIL_IF(fabs(res.distance + sink) > 1e-9, "depth %.17g, sink %.17g", -res.distance, sink);
            below = above;
        }
    }
    stats_print("stacked cubes", &st);
}
END_TEST

/* Signed distance is continuous across touching: sliding B through contact
 * along a fixed direction, the value changes by at most the slide (Lipschitz
 * 1). A hand-off from GJK (apart) to EPA (overlapping) that jumps in value or
 * switches to an arbitrary normal at depth 0 makes contact forces flicker.
 * Normal changes are counted (they happen only where the normal is not unique,
 * or within the tolerance of touching); face contacts are checked exactly in
 * signed_distance_face_sweep. */
START_TEST(signed_distance_continuous_across_touching)
{
    or_rng r = or_test_rng(0xc047);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    static const or_family fam[] = {OR_BOX, OR_HULL12, OR_HULL60, OR_SPHERE, OR_CAPSULE, OR_ROUNDED_BOX};
    const int nf = (int)(sizeof fam / sizeof fam[0]);
    const double steps[] = {-1e-3, -1e-5, -1e-7, -1e-9, -1e-11, 0, 1e-11, 1e-9, 1e-7, 1e-5, 1e-3};
    const int ns = (int)(sizeof steps / sizeof steps[0]);
    int jumps = 0;
    for (int i = 0; i < or_scaled(300); ++i) {
        mk_shape a, b;
        or_random_shape(&r, fam[or_int(&r, nf)], &p12, &p60, &a);
        or_random_shape(&r, fam[or_int(&r, nf)], &p12, &p60, &b);
        mk_transform xa, xb;
        or_place_pair(&r, &a, &b, 0, &xa, &xb);
        /* move B along the exact contact normal until the oracle says touching */
        double d0;
        ck_assert(or_exact_distance(&a, &xa, &b, &xb, &d0, NULL, NULL));
        mk_signed_distance_result r0;
        signed_distance(&a, xa, &b, xb, NULL, &r0);
        mk_vec3 n = r0.normal;
        xb.p = v3_madd(xb.p, -r0.distance, n);
        mk_signed_distance_result prev;
        int have = 0;
        for (int k = 0; k < ns; ++k) {
            mk_transform xk = xb;
            xk.p = v3_madd(xb.p, steps[k], n);
            mk_signed_distance_result res;
            signed_distance(&a, xa, &b, xk, NULL, &res);
            double d;
            ck_assert(or_exact_distance(&a, &xa, &b, &xk, &d, NULL, NULL));
            scene scv = {"continuity", i * ns + k, &a, &b, xa, xk};
            const scene *sc = &scv;
            truth t = exact(d);
            check_result(sc, &res, &t, 1e-8, NULL);
            if (have) {
                double dt = steps[k] - steps[k - 1];
                /* Lipschitz: |d(t2) - d(t1)| <= |t2 - t1| (plus the error bars) */
                double slack = 2e-8 + (res.upper_bound - res.lower_bound) + (prev.upper_bound - prev.lower_bound);
                FAIL_IF(fabs(res.distance - prev.distance) > fabs(dt) + slack,
                        "value jumps by %.3g over a step of %.3g (%s -> %s)", res.distance - prev.distance, dt,
                        mk_status_string(prev.status), mk_status_string(res.status));
                if (v3_dot(res.normal, prev.normal) < 1 - 1e-3) {
                    ++jumps;
                    if (getenv("MK_EPA_VERBOSE"))
                        printf("  normal change %d: types %d/%d step %g -> %g, %s -> %s, d %.3g -> %.3g, flags %d -> %d, "
                               "sep along old normal %.3g new %.3g\n",
                               i, a.type, b.type, steps[k - 1], steps[k], mk_status_string(prev.status),
                               mk_status_string(res.status), prev.distance, res.distance, prev.epa_flags, res.epa_flags,
                               separation_along(&a, &xa, &b, &xk, prev.normal),
                               separation_along(&a, &xa, &b, &xk, res.normal));
                }
            }
            prev = res;
            have = 1;
        }
    }
    printf("epa continuity: %d normal changes > 2.6 degrees between neighbouring steps\n", jumps);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* Face contacts: sweeping a box through a face contact from 1e-3 apart to 1e-3
 * deep, the value is exactly the offset and the normal stays the face normal
 * (no jump at 0, where one algorithm hands over to the other). */
START_TEST(signed_distance_face_sweep)
{
    mk_shape a, b[2];
    ck_assert_int_eq(mk_shape_box(&a, v3(1, 1, 1), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b[0], v3(0.3, 0.4, 0.5), 0), MK_OK);    /* EPA below 0 */
    ck_assert_int_eq(mk_shape_box(&b[1], v3(0.3, 0.4, 0.5), 0.05), MK_OK); /* GJK with radii */
    or_rng r = or_test_rng(0x5eeb);
    for (int i = 0; i < or_scaled(50); ++i) {
        mk_transform g = or_pose(&r, or_in_ball(&r, 2));
        mk_transform lb = pose_aa(v3(or_uniform(&r, -0.5, 0.5), or_uniform(&r, -0.5, 0.5), 0), v3(0, 0, 1),
                                  or_uniform(&r, 0, 1));
        mk_transform xa = g;
        mk_vec3 up = mk_rotate(&g.R, v3(0, 0, 1));
        for (int k = -200; k <= 200; ++k) {
            double t = k * 5e-6 + (k % 7) * 1e-13;
            for (int j = 0; j < 2; ++j) {
                lb.p.z = 1 + 0.5 + b[j].radius + t;
                mk_transform xb = compose(&g, &lb);
                mk_signed_distance_result res;
                signed_distance(&a, xa, &b[j], xb, NULL, &res);
                ck_assert_msg(fabs(res.distance - t) < 1e-12, "offset %.3g: distance %.17g (%s)", t, res.distance,
                              mk_status_string(res.status));
                ck_assert_msg(v3_dot(res.normal, up) > 1 - 1e-12, "offset %.3g: normal off the face normal", t);
            }
        }
    }
}
END_TEST

/* ------------------------------------------------------------ API contract */

/* NaN or infinite poses, NULL arguments, bad settings and GJK results: the
 * answer is MK_INVALID_INPUT (or the shape's validation status) with finite
 * outputs, never a NaN; codes that validate nothing propagate a NaN pose into
 * every face normal and depth. */
START_TEST(hostile_nan_poses)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, v3(1, 1, 1), 0.1), MK_OK);
    ck_assert_int_eq(mk_shape_capsule(&b, 0.3, 0.5), MK_OK);
    size_t n;
    void *ws = workspace(&n);
    const double bad[] = {NAN, INFINITY, -INFINITY};
    mk_gjk_result g;
    mk_pair ok = {&a, mk_transform_identity(), &b, pose_aa(v3(0.5, 0, 0), v3(1, 1, 0), 0.4)};
    ck_assert_int_eq(mk_gjk_distance(&ok, NULL, NULL, &g), MK_GJK_INTERSECTING);
    for (int which = 0; which < 2; ++which)
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k)
            for (int slot = 0; slot < 12; ++slot) {
                mk_pair p = ok;
                mk_transform *x = which ? &p.xf_b : &p.xf_a;
                if (slot < 3)
                    ((double *)&x->p)[slot] = bad[k];
                else
                    x->R.m[(slot - 3) / 3][(slot - 3) % 3] = bad[k];
                mk_signed_distance_result sd;
                ck_assert_int_eq(mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &sd), MK_INVALID_INPUT);
                ck_assert_int_eq(sd.status, MK_INVALID_INPUT);
                ck_assert(isfinite(sd.distance) && isfinite(sd.lower_bound) && isfinite(sd.upper_bound) &&
                          finite3(sd.point_a) && finite3(sd.point_b) && finite3(sd.normal));
                ck_assert_double_eq_tol(v3_len(sd.normal), 1, 1e-15);
                mk_epa_result e;
                ck_assert_int_eq(mk_epa(&p, &g, NULL, ws, n, &e), MK_INVALID_INPUT);
                ck_assert(isfinite(e.depth) && isfinite(e.lower_bound) && isfinite(e.upper_bound) &&
                          finite3(e.point_a) && finite3(e.point_b) && finite3(e.normal));
            }
    /* NULLs, bad settings, a GJK result that is not INTERSECTING or has NaN */
    mk_epa_result e;
    mk_signed_distance_result sd;
    ck_assert_int_eq(mk_epa(NULL, &g, NULL, ws, n, &e), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_epa(&ok, NULL, NULL, ws, n, &e), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_epa(&ok, &g, NULL, ws, n, NULL), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_signed_distance(NULL, NULL, NULL, NULL, ws, n, &sd), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_signed_distance(&ok, NULL, NULL, NULL, ws, n, NULL), MK_INVALID_INPUT);
    mk_epa_settings es = mk_epa_default_settings();
    es.tolerance = NAN;
    ck_assert_int_eq(mk_epa(&ok, &g, &es, ws, n, &e), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_signed_distance(&ok, NULL, &es, NULL, ws, n, &sd), MK_INVALID_INPUT);
    es = mk_epa_default_settings();
    es.max_iterations = 0;
    ck_assert_int_eq(mk_epa(&ok, &g, &es, ws, n, &e), MK_INVALID_INPUT);
    es.max_iterations = -5;
    ck_assert_int_eq(mk_signed_distance(&ok, NULL, &es, NULL, ws, n, &sd), MK_INVALID_INPUT);
    mk_gjk_result bad_g = g;
    bad_g.status = MK_GJK_SEPARATED;
    ck_assert_int_eq(mk_epa(&ok, &bad_g, NULL, ws, n, &e), MK_INVALID_INPUT);
    bad_g = g;
    bad_g.simplex.a[0].x = NAN;
    ck_assert_int_eq(mk_epa(&ok, &bad_g, NULL, ws, n, &e), MK_INVALID_INPUT);
    bad_g = g;
    bad_g.simplex.count = 7;
    ck_assert_int_eq(mk_epa(&ok, &bad_g, NULL, ws, n, &e), MK_INVALID_INPUT);
    ck_assert(isfinite(e.depth) && finite3(e.normal));
    /* invalid shape sizes pass the shape's own status through */
    mk_shape bad_box = a;
    bad_box.u.box.half_extents.y = -1;
    mk_pair p = ok;
    p.a = &bad_box;
    ck_assert_int_eq(mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &sd), MK_INVALID_SIZE);
    ck_assert(isfinite(sd.distance) && finite3(sd.normal));
}
END_TEST

/* A user support that returns NaN for some directions only (here: far below
 * the equator): GJK may never ask there, EPA's face normals do. The answer is
 * MK_INVALID_INPUT with finite outputs, never a NaN depth or an endless
 * expansion (a NaN offset compares false with everything, so a closest-face
 * search that does not check can pick it forever). */
static mk_vec3 nan_below(const void *data, mk_vec3 d)
{
    (void)data;
    double l = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    if (d.z < -0.3 * l)
        return v3(NAN, 0, 0);
    return v3(d.x >= 0 ? 0.5 : -0.5, d.y >= 0 ? 0.5 : -0.5, d.z >= 0 ? 0.5 : -0.5);
}

START_TEST(hostile_nan_user_support)
{
    mk_shape a, b, healthy;
    ck_assert_int_eq(mk_shape_box(&a, v3(0.5, 0.5, 0.5), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&healthy, v3(0.5, 0.5, 0.5), 0), MK_OK);
    ck_assert_int_eq(mk_shape_user(&b, nan_below, NULL, v3(-0.5, -0.5, -0.5), v3(0.5, 0.5, 0.5), 0), MK_OK);
    or_rng r = or_test_rng(0x7a7);
    size_t n;
    void *ws = workspace(&n);
    int invalid = 0, epa_invalid = 0;
    for (int i = 0; i < 200; ++i) {
        mk_pair p = {&a, or_pose(&r, v3(0, 0, 0)), &b, or_pose(&r, or_in_ball(&r, 0.6))};
        mk_signed_distance_result sd;
        mk_status s = mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &sd);
        ck_assert(isfinite(sd.distance) && isfinite(sd.lower_bound) && isfinite(sd.upper_bound) &&
                  finite3(sd.point_a) && finite3(sd.point_b) && finite3(sd.normal));
        ck_assert(s == MK_INVALID_INPUT || s == MK_PENETRATING || s == MK_GJK_SEPARATED);
        invalid += s == MK_INVALID_INPUT;
        /* GJK on the same geometry with a healthy support, then EPA on the NaN one */
        mk_pair ph = p;
        ph.b = &healthy;
        mk_gjk_result g;
        if (mk_gjk_distance(&ph, NULL, NULL, &g) == MK_GJK_INTERSECTING) {
            mk_epa_result e;
            s = mk_epa(&p, &g, NULL, ws, n, &e);
            ck_assert(s == MK_INVALID_INPUT || s == MK_PENETRATING);
            ck_assert(isfinite(e.depth) && isfinite(e.lower_bound) && isfinite(e.upper_bound) && finite3(e.normal) &&
                      finite3(e.point_a) && finite3(e.point_b));
            epa_invalid += s == MK_INVALID_INPUT;
        }
    }
    printf("epa NaN user support: %d of 200 signed distances and %d EPA runs refused\n", invalid, epa_invalid);
    ck_assert_int_gt(epa_invalid, 0);
}
END_TEST

/* A workspace smaller than mk_epa_workspace_size() asks for is refused before
 * anything is written to it (any byte short, NULL, and the size function
 * refuses out-of-range iteration bounds). */
START_TEST(workspace_too_small)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, v3(1, 1, 1), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(0.5, 0.5, 0.5), 0), MK_OK);
    mk_pair p = {&a, mk_transform_identity(), &b, pose_aa(v3(0.9, 0.2, 0.1), v3(1, 2, 3), 0.5)};
    size_t need = mk_epa_workspace_size(128);
    ck_assert_uint_gt(need, 0);
    ck_assert_uint_eq(mk_epa_workspace_size(0), 0);
    ck_assert_uint_eq(mk_epa_workspace_size(-1), 0);
    ck_assert_uint_eq(mk_epa_workspace_size(MK_EPA_MAX_ITER_CAP + 1), 0);
    ck_assert_uint_gt(mk_epa_workspace_size(1000), need);
    unsigned char *buf = malloc(need + 64);
    ck_assert_ptr_nonnull(buf);
    memset(buf, 0xAB, need + 64);
    mk_gjk_result g;
    ck_assert_int_eq(mk_gjk_distance(&p, NULL, NULL, &g), MK_GJK_INTERSECTING);
    const size_t shorts[] = {0, 1, need / 2, need - 1};
    for (size_t k = 0; k < sizeof shorts / sizeof shorts[0]; ++k) {
        mk_epa_result e;
        mk_signed_distance_result sd;
        ck_assert_int_eq(mk_epa(&p, &g, NULL, buf, shorts[k], &e), MK_WORKSPACE_TOO_SMALL);
        ck_assert_int_eq(e.status, MK_WORKSPACE_TOO_SMALL);
        ck_assert(isfinite(e.depth) && finite3(e.normal));
        ck_assert_int_eq(mk_signed_distance(&p, NULL, NULL, NULL, buf, shorts[k], &sd), MK_WORKSPACE_TOO_SMALL);
        ck_assert(isfinite(sd.distance) && finite3(sd.normal));
    }
    for (size_t i = 0; i < need + 64; ++i)
        ck_assert_int_eq(buf[i], 0xAB);
    mk_epa_result e;
    ck_assert_int_eq(mk_epa(&p, &g, NULL, NULL, need, &e), MK_WORKSPACE_TOO_SMALL);
    /* exactly enough, at an odd address: fine, and nothing past the end is written */
    ck_assert_int_eq(mk_epa(&p, &g, NULL, buf + 1, need, &e), MK_PENETRATING);
    for (size_t i = need + 1; i < need + 64; ++i)
        ck_assert_int_eq(buf[i], 0xAB);
    /* a smaller iteration bound needs less */
    mk_epa_settings es = mk_epa_default_settings();
    es.max_iterations = 8;
    ck_assert_int_eq(mk_epa(&p, &g, &es, buf, mk_epa_workspace_size(8), &e), MK_PENETRATING);
    free(buf);
}
END_TEST

/* Iteration and face budgets: the status names the budget, the bracket still
 * holds the truth, the outputs are finite and the normal achieves the depth. */
START_TEST(budgets_keep_certified_bounds)
{
    or_rng r = or_test_rng(0xb0d6);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    int max_iter = 0, budget = 0;
    for (int i = 0; i < or_scaled(600); ++i) {
        mk_shape a, b;
        or_random_shape(&r, i % 2 ? OR_HULL60 : OR_BOX, &p12, &p60, &a);
        or_random_shape(&r, OR_HULL60, &p12, &p60, &b);
        mk_transform xa, xb;
        or_place_pair(&r, &a, &b, -or_uniform(&r, 0.05, 0.5), &xa, &xb);
        double d;
        ck_assert(or_exact_distance(&a, &xa, &b, &xb, &d, NULL, NULL));
        mk_epa_settings es = tol_settings(1e-12, 0);
        es.max_iterations = 1 + i % 4;
        if (i % 3 == 0)
            es.max_faces = 4 + i % 7;
        size_t n = mk_epa_workspace_size(es.max_iterations);
        void *ws = malloc(n);
        mk_pair p = {&a, xa, &b, xb};
        mk_signed_distance_result res;
        mk_status s = mk_signed_distance(&p, NULL, &es, NULL, ws, n, &res);
        free(ws);
        scene scv = {"budgets", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        FAIL_IF(s != MK_PENETRATING && s != MK_EPA_MAX_ITER && s != MK_EPA_FACE_BUDGET && s != MK_GJK_SEPARATED,
                "status %s", mk_status_string(s));
        max_iter += s == MK_EPA_MAX_ITER;
        budget += s == MK_EPA_FACE_BUDGET;
        FAIL_IF(!isfinite(res.distance) || !finite3(res.normal) || !finite3(res.point_a) || !finite3(res.point_b),
                "non-finite output");
        FAIL_IF(d < res.lower_bound - 1e-9 || d > res.upper_bound + 1e-9, "bracket [%.17g, %.17g] misses %.17g (%s)",
                res.lower_bound, res.upper_bound, d, mk_status_string(s));
        double sep = separation_along(&a, &xa, &b, &xb, res.normal);
        if (s != MK_GJK_SEPARATED)
            FAIL_IF(fabs(sep - res.distance) > 1e-9, "separation along the normal %.17g != distance %.17g", sep,
                    res.distance);
    }
    printf("epa budgets: %d MK_EPA_MAX_ITER, %d MK_EPA_FACE_BUDGET answers\n", max_iter, budget);
    ck_assert_int_gt(max_iter, 0);
    ck_assert_int_gt(budget, 0);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* mk_epa after a GJK on the full rounded shapes: GJK stops as soon as the
 * cores come within the radii, so its simplex need not hold the origin; the
 * answer must match mk_signed_distance either way. */
START_TEST(epa_after_gjk_on_rounded_shapes)
{
    or_rng r = or_test_rng(0xe9a0007);
    or_hull_pool p12, p60;
    make_pools(&r, &p12, &p60);
    size_t n;
    void *ws = workspace(&n);
    int apart = 0, epa_runs = 0;
    for (int i = 0; i < or_scaled(2000); ++i) {
        mk_shape a, b;
        static const or_family fam[] = {OR_ROUNDED_BOX, OR_ROUNDED_HULL, OR_SPHERE, OR_CAPSULE};
        or_random_shape(&r, fam[or_int(&r, 4)], &p12, &p60, &a);
        or_random_shape(&r, fam[or_int(&r, 4)], &p12, &p60, &b);
        mk_transform xa, xb;
        or_place_pair(&r, &a, &b, -or_uniform(&r, 1e-4, i % 2 ? 0.3 : 1.0), &xa, &xb);
        mk_pair p = {&a, xa, &b, xb};
        mk_gjk_result g;
        if (mk_gjk_distance(&p, NULL, NULL, &g) != MK_GJK_INTERSECTING)
            continue;
        mk_epa_result e;
        mk_status s = mk_epa(&p, &g, NULL, ws, n, &e);
        scene scv = {"epa after full GJK", i, &a, &b, xa, xb};
        const scene *sc = &scv;
        FAIL_IF(s != MK_PENETRATING, "status %s", mk_status_string(s));
        apart += (e.flags & MK_EPA_FLAG_CORES_SEPARATED) != 0;
        epa_runs += (e.flags & MK_EPA_FLAG_CORES_SEPARATED) == 0;
        double d;
        ck_assert(or_exact_distance(&a, &xa, &b, &xb, &d, NULL, NULL));
        FAIL_IF(-d < e.lower_bound - 1e-9 || -d > e.upper_bound + 1e-9,
                "depth bracket [%.17g, %.17g] misses %.17g (flags %d)", e.lower_bound, e.upper_bound, -d, e.flags);
        FAIL_IF(fabs(e.depth + d) > fmax(1e-4, e.upper_bound - e.lower_bound) + 1e-9, "depth %.17g, exact %.17g",
                e.depth, -d);
        mk_signed_distance_result sd;
        mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &sd);
        FAIL_IF(fabs(sd.distance + e.depth) > 1e-4, "signed distance %.17g vs EPA depth %.17g", sd.distance, e.depth);
    }
    printf("epa after full-shape GJK: %d pairs with cores apart, %d with cores overlapping\n", apart, epa_runs);
    ck_assert_int_gt(apart, 0);
    ck_assert_int_gt(epa_runs, 0);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* Tighter tolerances give tighter brackets; a relative tolerance scales with
 * the depth (curved shapes, where the gap closes only gradually). */
START_TEST(tolerance_ladder)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_ellipsoid(&a, v3(1, 0.7, 0.5)), MK_OK);
    ck_assert_int_eq(mk_shape_cylinder(&b, 0.6, 0.8, 0), MK_OK);
    mk_transform xa = pose_aa(v3(0, 0, 0), v3(1, 2, 3), 0.3), xb = pose_aa(v3(0.9, 0.4, 0.2), v3(-1, 1, 0), 0.8);
    const double tols[] = {1e-2, 1e-4, 1e-6, 1e-8, 1e-10};
    double prev_gap = INFINITY;
    for (int k = 0; k < 5; ++k) {
        mk_epa_settings es = tol_settings(tols[k], 0);
        es.max_iterations = 1000;
        size_t n = mk_epa_workspace_size(es.max_iterations);
        void *ws = malloc(n);
        mk_pair p = {&a, xa, &b, xb};
        mk_signed_distance_result res;
        ck_assert_int_eq(mk_signed_distance(&p, NULL, &es, NULL, ws, n, &res), MK_PENETRATING);
        double gap = res.upper_bound - res.lower_bound;
        printf("epa ellipsoid-cylinder tolerance %.0e: depth %.12f gap %.3g, %d iterations\n", tols[k], -res.distance,
               gap, res.epa_iterations);
        ck_assert(gap <= tols[k] || (res.epa_flags & MK_EPA_FLAG_PRECISION_FLOOR));
        ck_assert(gap <= prev_gap + 1e-15);
        prev_gap = gap;
        es.tolerance = 0;
        es.relative_tolerance = tols[k];
        ck_assert_int_eq(mk_signed_distance(&p, NULL, &es, NULL, ws, n, &res), MK_PENETRATING);
        ck_assert(res.upper_bound - res.lower_bound <= tols[k] * -res.lower_bound * (1 + 1e-12) ||
                  (res.epa_flags & MK_EPA_FLAG_PRECISION_FLOOR));
        free(ws);
    }
}
END_TEST

/* A relative tolerance alone (absolute 0): while no support had been taken
 * the upper bound was +inf, and inf - lower <= rel * inf read as converged,
 * so EPA stopped on GJK's tetrahedron with an infinite depth and NaN
 * witnesses (found by a fuzzer on a cylinder resting on a box; any pair whose
 * seed is GJK's own tetrahedron did it, e.g. these axis-aligned boxes). */
START_TEST(relative_tolerance_alone)
{
    or_rng r = or_test_rng(0x4e1);
    mk_epa_settings es = tol_settings(0, 1e-9);
    size_t n = mk_epa_workspace_size(es.max_iterations);
    void *ws = malloc(n);
    for (int i = 0; i < 200; ++i) {
        mk_vec3 ha, hb;
        mk_shape a, b;
        random_boxes(&r, &a, &ha, &b, &hb);
        mk_transform xa = mk_transform_identity(), xb = mk_transform_identity();
        xb.p = v3(or_uniform(&r, -0.9, 0.9) * (ha.x + hb.x), or_uniform(&r, -0.9, 0.9) * (ha.y + hb.y),
                  or_uniform(&r, -0.9, 0.9) * (ha.z + hb.z));
        const double d = or_aabb_aabb(v3_scale(ha, -1), ha, v3_sub(xb.p, hb), v3_add(xb.p, hb), NULL, NULL);
        mk_pair p = {&a, xa, &b, xb};
        mk_signed_distance_result res;
        ck_assert_int_eq(mk_signed_distance(&p, NULL, &es, NULL, ws, n, &res), MK_PENETRATING);
        ck_assert_msg(isfinite(res.distance) && isfinite(res.upper_bound) && v3_finite(res.point_a) &&
                          v3_finite(res.point_b),
                      "pair %d: distance %g, upper %g", i, res.distance, res.upper_bound);
        ck_assert_msg(fabs(res.distance - d) <= 1e-9 * fabs(d) + 1e-15, "pair %d: %.17g, exact %.17g", i,
                      res.distance, d);
    }
    free(ws);
}
END_TEST

/* Timing (printed, not asserted): signed distance of 240-vertex hulls
 * overlapping by 1 cm, the issue's headline case. */
START_TEST(timing_240_vertex_hulls)
{
    or_rng r = or_test_rng(0x240);
    enum { NH = 8, NP = 400 };
    mk_hull *h[NH];
    for (int k = 0; k < NH; ++k) {
        mk_vec3 pts[240];
        mk_vec3 ax = v3(or_uniform(&r, 0.5, 1), or_uniform(&r, 0.5, 1), or_uniform(&r, 0.5, 1));
        for (int i = 0; i < 240; ++i) {
            mk_vec3 u = or_unit(&r);
            pts[i] = v3(ax.x * u.x, ax.y * u.y, ax.z * u.z);
        }
        ck_assert_int_eq(mk_hull_create(pts, 240, &h[k]), MK_OK);
    }
    static mk_shape sa[NP], sb[NP];
    static mk_transform xa[NP], xb[NP];
    double mean_depth = 0;
    for (int i = 0; i < NP; ++i) {
        mk_shape_hull(&sa[i], h[or_int(&r, NH)], 0);
        mk_shape_hull(&sb[i], h[or_int(&r, NH)], 0);
        mean_depth -= place_overlapping(&r, &sa[i], &sb[i], 0.01, &xa[i], &xb[i]) / NP;
    }
    size_t n;
    void *ws = workspace(&n);
    const int reps = 10;
    long iters = 0;
    int vertices = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int rep = 0; rep < reps; ++rep)
        for (int i = 0; i < NP; ++i) {
            mk_pair p = {&sa[i], xa[i], &sb[i], xb[i]};
            mk_signed_distance_result res;
            mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &res);
            iters += res.epa_iterations;
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (reps * NP);
    for (int k = 0; k < NH; ++k)
        vertices += h[k]->num_vertices;
    /* accuracy on the same problems */
    double max_err = 0;
    for (int i = 0; i < NP; ++i) {
        mk_pair p = {&sa[i], xa[i], &sb[i], xb[i]};
        mk_signed_distance_result res;
        mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &res);
        double d;
        ck_assert(or_exact_distance(&sa[i], &xa[i], &sb[i], &xb[i], &d, NULL, NULL));
        max_err = fmax(max_err, fabs(res.distance - d));
        /* Large hulls take the start-table expansion points and the paired
         * climbs: the bracket still holds the exact answer, and the normal
         * achieves the reported distance. */
        ck_assert_int_eq(res.status, MK_PENETRATING);
        ck_assert_msg(res.lower_bound <= d + 1e-12 && d <= res.upper_bound + 1e-12,
                      "240-vertex pair %d: bracket [%.17g, %.17g] misses %.17g", i, res.lower_bound,
                      res.upper_bound, d);
        double sep = separation_along(&sa[i], &xa[i], &sb[i], &xb[i], res.normal);
        ck_assert_msg(fabs(sep - res.distance) <= 1e-9,
                      "240-vertex pair %d: separation along the normal %.17g != %.17g", i, sep, res.distance);
    }
    printf("epa timing: 240-point hulls (%.0f vertices on average) overlapping by 1 cm along a random direction "
           "(depth %.4f on average): %.0f ns per signed distance, %.2f EPA iterations on average, max |error| %.3g\n",
           (double)vertices / NH, mean_depth, ns, (double)iters / (reps * NP), max_err);
    ck_assert(max_err < 1e-8);
    for (int k = 0; k < NH; ++k)
        mk_hull_destroy(h[k]);
}
END_TEST

/* ------------------------------------------------------------ suite */

/* A pair cache kept across a change of a shape made in place (same object):
 * the simplex warm start must not reuse points of the old core. A capsule
 * (half height 0.5, radius 0.1) under a cube of half size 0.1 at z = 0.8 (not
 * a sphere: sphere and capsule pairs take the closed form, no GJK), then the
 * same capsule object shortened to half height 0.1: the distance is 0.1,
 * then 0.5 (the old segment's top, z = 0.5, would give 0.1 again). Its core
 * view (epa.c) is a user shape whose bounds carry the segment, part of the
 * cache's key. Likewise a box shrunk in place. */
START_TEST(cache_refuses_changed_shapes)
{
    size_t n;
    void *ws = workspace(&n);
    mk_shape cap, ball, box, lid;
    ck_assert_int_eq(mk_shape_capsule(&cap, 0.1, 0.5), MK_OK);
    ck_assert_int_eq(mk_shape_box(&ball, v3(0.1, 0.1, 0.1), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&box, v3(0.5, 0.5, 0.5), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&lid, v3(0.2, 0.2, 0.1), 0), MK_OK);
    mk_gjk_settings gs = mk_gjk_default_settings();
    gs.init = MK_GJK_INIT_SIMPLEX;
    for (int which = 0; which < 2; ++which) {
        mk_shape *a = which == 0 ? &cap : &box, *b = which == 0 ? &ball : &lid;
        mk_pair p = {a, mk_transform_identity(), b, mk_transform_identity()};
        p.xf_b.p = v3(0, 0, which == 0 ? 0.8 : 0.7);
        mk_gjk_cache cache;
        memset(&cache, 0, sizeof cache);
        mk_signed_distance_result r;
        ck_assert_int_eq(mk_signed_distance(&p, &gs, NULL, &cache, ws, n, &r), MK_GJK_SEPARATED);
        ck_assert_double_eq_tol(r.distance, 0.1, 1e-7);
        ck_assert_int_ge(cache.count, 1);
        if (which == 0)
            cap.u.capsule.half_height = 0.1;
        else
            box.u.box.half_extents.z = 0.1;
        ck_assert_int_eq(mk_signed_distance(&p, &gs, NULL, &cache, ws, n, &r), MK_GJK_SEPARATED);
        ck_assert_msg(fabs(r.distance - 0.5) <= 1e-7, "%s changed in place: distance %.12g, exact 0.5",
                      which == 0 ? "capsule" : "box", r.distance);
        ck_assert(r.lower_bound <= 0.5 + 1e-9 && r.upper_bound >= 0.5 - 1e-9);
    }
}
END_TEST

/* Closest distance of two segments (either may be a point), by another
 * route than epa.c's clamping: the least of the four end points' distances
 * to the other segment and, when the lines' closest points fall inside both
 * segments, their distance. */
static double segment_distance(mk_vec3 a0, mk_vec3 a1, mk_vec3 b0, mk_vec3 b1)
{
    double d = fmin(fmin(v3_len(v3_sub(a0, or_closest_on_segment(a0, b0, b1))),
                         v3_len(v3_sub(a1, or_closest_on_segment(a1, b0, b1)))),
                    fmin(v3_len(v3_sub(b0, or_closest_on_segment(b0, a0, a1))),
                         v3_len(v3_sub(b1, or_closest_on_segment(b1, a0, a1)))));
    const mk_vec3 u = v3_sub(a1, a0), v = v3_sub(b1, b0), w = v3_sub(a0, b0);
    const double a = v3_dot(u, u), b = v3_dot(u, v), c = v3_dot(u, w), e = v3_dot(v, v), f = v3_dot(v, w);
    const double den = a * e - b * b;
    if (den > 1e-9 * a * e) {
        const double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s > 0 && s < 1 && t > 0 && t < 1)
            d = fmin(d, v3_len(v3_sub(v3_madd(a0, s, u), v3_madd(b0, t, v))));
    }
    return d;
}

/* A sphere's or capsule's core in the world (the test's own view). */
static void core_segment(const mk_shape *s, const mk_transform *xf, mk_vec3 *p0, mk_vec3 *p1)
{
    const double h = s->type == MK_SHAPE_CAPSULE ? s->u.capsule.half_height : 0;
    *p0 = xf_apply(xf, v3(0, 0, -h));
    *p1 = xf_apply(xf, v3(0, 0, h));
}

/* Spheres and capsules take a closed form in mk_signed_distance (their cores'
 * closest points) unless the cores touch: 20,000 random pairs of every
 * combination, a third of them set up parallel, collinear or crossing,
 * cores apart by up to 0.5 and radii overlapping or not. The distance is the
 * segment oracle's less the radii (to 1e-12), the bracket holds it, the
 * witnesses are the normal's distance apart and on the surfaces, and the
 * normal is unit. */
START_TEST(rounded_segments_closed_form)
{
    size_t n;
    void *ws = workspace(&n);
    or_rng r = or_test_rng(0x5e9);
    int closed = 0, total = or_scaled(20000);
    double worst = 0;
    for (int i = 0; i < total; ++i) {
        mk_shape a, b;
        const int ka = i % 3 != 0, kb = i % 2 == 0; /* capsule or sphere */
        if (ka)
            ck_assert_int_eq(mk_shape_capsule(&a, or_uniform(&r, 0.01, 0.3), or_uniform(&r, 0.05, 0.5)), MK_OK);
        else
            ck_assert_int_eq(mk_shape_sphere(&a, or_uniform(&r, 0.01, 0.3)), MK_OK);
        if (kb)
            ck_assert_int_eq(mk_shape_capsule(&b, or_uniform(&r, 0.01, 0.3), or_uniform(&r, 0.05, 0.5)), MK_OK);
        else
            ck_assert_int_eq(mk_shape_sphere(&b, or_uniform(&r, 0.01, 0.3)), MK_OK);
        mk_transform xa = or_pose(&r, or_in_ball(&r, 2)), xb = or_pose(&r, v3_add(xa.p, or_in_ball(&r, 1)));
        const int special = i % 9;
        if (special == 1 || special == 2) { /* parallel: same axis, moved across (1) or along and across (2) */
            xb.R = xa.R;
            mk_vec3 across = m3_mul(&xa.R, v3(1, 0, 0)), along = m3_mul(&xa.R, v3(0, 0, 1));
            xb.p = v3_madd(v3_madd(xa.p, or_uniform(&r, 0.05, 0.6), across), special == 2 ? or_uniform(&r, -1, 1) : 0,
                           along);
        } else if (special == 3) { /* collinear, end to end */
            xb.R = xa.R;
            xb.p = v3_madd(xa.p, or_uniform(&r, 0.2, 1.5), m3_mul(&xa.R, v3(0, 0, 1)));
        } else if (special == 4) { /* crossing cores: the general path */
            xb.p = xa.p;
        }
        mk_pair p = {&a, xa, &b, xb};
        mk_signed_distance_result res;
        const mk_status st = mk_signed_distance(&p, NULL, NULL, NULL, ws, n, &res);
        mk_vec3 a0, a1, b0, b1;
        core_segment(&a, &xa, &a0, &a1);
        core_segment(&b, &xb, &b0, &b1);
        const double core = segment_distance(a0, a1, b0, b1), exact = core - a.radius - b.radius;
        if (core > 1e-3) { /* away from touching cores: the closed form answers */
            REQUIRE(res.gjk_iterations == 0 && res.epa_iterations == 0, "pair %d: not the closed form", i);
            REQUIRE(st == (exact > 0 ? MK_GJK_SEPARATED : MK_PENETRATING), "pair %d: status %d for %.17g", i, st,
                    exact);
            ++closed;
        }
        if (!(core > 1e-9))
            continue; /* cores crossing: the general path's depth, tested elsewhere */
        const double err = fabs(res.distance - exact);
        worst = fmax(worst, err);
        REQUIRE(err <= 1e-12, "pair %d: distance %.17g, oracle %.17g", i, res.distance, exact);
        REQUIRE(res.lower_bound <= exact + 1e-15 && res.upper_bound >= exact - 1e-15,
                "pair %d: [%.17g, %.17g] misses %.17g", i, res.lower_bound, res.upper_bound, exact);
        REQUIRE(fabs(v3_len(res.normal) - 1) <= 1e-12, "pair %d: normal not unit", i);
        REQUIRE(v3_len(v3_sub(v3_sub(res.point_b, res.point_a), v3_scale(res.normal, res.distance))) <= 1e-12,
                "pair %d: witnesses not distance apart along the normal", i);
        REQUIRE(fabs(v3_len(v3_sub(res.point_a, or_closest_on_segment(res.point_a, a0, a1))) - a.radius) <= 1e-9 &&
                    fabs(v3_len(v3_sub(res.point_b, or_closest_on_segment(res.point_b, b0, b1))) - b.radius) <= 1e-9,
                "pair %d: witnesses off the surfaces", i);
    }
    printf("closed form for spheres and capsules: %d of %d pairs, worst |error| %.3g\n", closed, total, worst);
    ck_assert_int_gt(closed, total / 2);
}
END_TEST

static Suite *epa_suite(void)
{
    Suite *s = suite_create("epa");
    double timeout = 600 * or_test_scale();
    TCase *random = tcase_create("random");
    tcase_set_timeout(random, timeout);
    tcase_add_test(random, random_polytopes_vs_sat_oracle);
    tcase_add_test(random, epa_from_points_vs_sat_oracle);
    tcase_add_test(random, random_rounded_and_segment_cores);
    tcase_add_test(random, random_curved_cores);
    tcase_add_test(random, analytic_spheres);
    tcase_add_test(random, analytic_capsules);
    tcase_add_test(random, analytic_boxes);
    suite_add_tcase(s, random);
    TCase *hostile = tcase_create("hostile");
    tcase_set_timeout(hostile, timeout);
    tcase_add_test(hostile, hostile_touching_boxes);
    tcase_add_test(hostile, hostile_flat_simplex_witnesses_at_a_large_scale);
    tcase_add_test(hostile, hostile_corner_on_a_cone_side_witnesses);
    tcase_add_test(hostile, hostile_cone_near_a_hull_vertex_witnesses);
    tcase_add_test(hostile, hostile_bent_polytope_exit_keeps_witnesses);
    tcase_add_test(hostile, hostile_touching_stall_restarts);
    tcase_add_test(hostile, hostile_sliver_face_at_the_budget_keeps_witnesses);
    tcase_add_test(hostile, hostile_clamped_exit_keeps_witnesses_along_the_normal);
    tcase_add_test(hostile, hostile_zero_area_triangles);
    tcase_add_test(hostile, hostile_flat_lattice_hulls);
    tcase_add_test(hostile, hostile_coincident_centres);
    tcase_add_test(hostile, hostile_depth_exactly_zero);
    tcase_add_test(hostile, hostile_thin_boxes);
    tcase_add_test(hostile, hostile_tunnelled_box);
    tcase_add_test(hostile, hostile_very_different_sizes);
    tcase_add_test(hostile, hostile_tiny_hull_at_a_box_corner);
    tcase_add_test(hostile, hostile_sphere_on_a_cylinder_axis);
    tcase_add_test(hostile, hostile_coaxial_bodies_of_revolution);
    tcase_add_test(hostile, nearly_coaxial_keeps_epa);
    tcase_add_test(hostile, hostile_sphere_deep_in_an_ellipsoid);
    tcase_add_test(hostile, closed_forms_far_from_the_origin);
    tcase_add_test(hostile, hostile_deep_ellipsoids_on_inner_cores);
    tcase_add_test(hostile, hostile_tiny_cylinder_on_a_huge_box_witnesses);
    tcase_add_test(hostile, hostile_sliver_exit_face);
    tcase_add_test(hostile, hostile_exit_point_off_the_face_planes);
    tcase_add_test(hostile, hostile_refined_gjk_no_worse);
    tcase_add_test(hostile, hostile_refined_gjk_keeps_the_bracket);
    tcase_add_test(hostile, hostile_capsule_on_a_wide_disk);
    tcase_add_test(hostile, hostile_sphere_deep_in_a_cone_witnesses);
    tcase_add_test(hostile, hostile_touching_ellipsoid_and_box_witnesses);
    tcase_add_test(hostile, hostile_touching_cylinder_and_hull_relative_witnesses);
    tcase_add_test(hostile, hostile_stacked_cubes);
    tcase_add_test(hostile, signed_distance_continuous_across_touching);
    tcase_add_test(hostile, signed_distance_face_sweep);
    suite_add_tcase(s, hostile);
    TCase *api = tcase_create("api");
    tcase_set_timeout(api, timeout);
    tcase_add_test(api, hostile_nan_poses);
    tcase_add_test(api, cache_refuses_changed_shapes);
    tcase_add_test(api, rounded_segments_closed_form);
    tcase_add_test(api, hostile_nan_user_support);
    tcase_add_test(api, workspace_too_small);
    tcase_add_test(api, budgets_keep_certified_bounds);
    tcase_add_test(api, epa_after_gjk_on_rounded_shapes);
    tcase_add_test(api, tolerance_ladder);
    tcase_add_test(api, relative_tolerance_alone);
    tcase_add_test(api, timing_240_vertex_hulls);
    suite_add_tcase(s, api);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(epa_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
