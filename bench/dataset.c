/* mk_bench datasets: the papers' shape families and signed-distance categories,
 * with certified reference answers.
 *
 * Shapes ("Collision Detection Accelerated", Sec. IV: sizes from a few
 * centimetres to a metre):
 *   ellipsoids  semi-axes uniform in [0.05, 0.5] m, random rotation (the paper
 *               samples positive-definite matrices: the same set of shapes);
 *   boxes       half-extents uniform in [0.05, 0.5] m;
 *   hullN       convex hull (mk_hull_create) of N random points ON the surface
 *               of an ellipsoid with semi-axes uniform in [0.05, 0.5] m, so every
 *               point is a hull vertex (the measured vertex counts are printed).
 *
 * Problems (the paper's protocol): random rotations, B placed well apart from A
 * (support gap 0.3 m along a random axis), the closest points found with a
 * high-precision vanilla GJK run, then B translated along the closest-point
 * normal n so that the gap becomes the target signed distance. Translating along
 * n keeps the closest features, so for a target t > 0 the distance is exactly t.
 *
 * References are not taken on GJK's word:
 *   separated   lower bound = gap between the support planes of A and B with
 *               normal n, from tests/oracle's support formulas (every vertex of a
 *               hull); upper bound = |pb - pa| for witness points pa, pb that are
 *               convex combinations of points checked to lie in A and B (hull
 *               vertices by exact lookup, ellipsoid and box points by their
 *               implicit inequalities). The reference is the middle of that
 *               bracket and its width is printed; polytopes up to 240 vertices
 *               are also cross-checked against tests/oracle's exact distance.
 *   overlapping the support gap along n is t < 0; overlap is certified by a
 *               common point of A and B (barycentric combination of the final
 *               GJK simplex with the same membership checks). When asked for, the
 *               depth is exact (tests/oracle SAT) for boxes and hulls up to 240
 *               vertices; otherwise only -t >= depth is known.
 * Candidates that fail a certificate are drawn again and counted. */
#include "bench_c.h"

#include <stdlib.h>
#include <string.h>

/* Certified bracket widths accepted for a separated reference (metres). */
#define REF_MAX_WIDTH 1e-9
/* Membership slack for points produced by support functions (metres). */
#define MEMBER_TOL 1e-12
/* Construction separation before the translation to the target. */
#define PLACE_GAP 0.3
/* Polytopes the oracle can hold (OR_POLY_MAX_V, _F, _FI with room to spare). */
#define ORACLE_MAX_VERTICES 256

static const char *family_names[FAM_COUNT] = {"ellipsoids", "boxes", "hull-12", "hull-60", "hull-240", "hull-1000"};
static const char *category_names[CAT_COUNT] = {"overlap -0.1..0", "close 0..0.1", "distant 0.1..1",
                                                "1 cm apart", "1 cm overlap"};

const char *bench_family_name(bench_family f) { return f >= 0 && f < FAM_COUNT ? family_names[f] : "?"; }
const char *bench_category_name(bench_category c) { return c >= 0 && c < CAT_COUNT ? category_names[c] : "?"; }

static int hull_points(bench_family f)
{
    switch (f) {
    case FAM_HULL12: return 12;
    case FAM_HULL60: return 60;
    case FAM_HULL240: return 240;
    case FAM_HULL1000: return 1000;
    default: return 0;
    }
}

/* ------------------------------------------------------------ pools */

int bench_pool_size(bench_family f, const bench_opts *o)
{
    if (o->quick)
        return f == FAM_HULL1000 ? 4 : 8;
    return f == FAM_HULL1000 ? 16 : f == FAM_HULL240 ? 32 : 64;
}

int bench_family_selected(bench_family f, const bench_opts *o)
{
    return !o->family || strcmp(o->family, bench_family_name(f)) == 0;
}

static mk_vec3 random_axes(or_rng *rng)
{
    return b3(or_uniform(rng, 0.05, 0.5), or_uniform(rng, 0.05, 0.5), or_uniform(rng, 0.05, 0.5));
}

int bench_pool_make(bench_pool *pool, bench_family f, int count, or_rng *rng)
{
    memset(pool, 0, sizeof *pool);
    pool->fam = f;
    pool->shapes = calloc((size_t)count, sizeof *pool->shapes);
    int np = hull_points(f);
    if (np)
        pool->hulls = calloc((size_t)count, sizeof *pool->hulls);
    if (!pool->shapes || (np && !pool->hulls))
        return 0;
    mk_vec3 *pts = np ? malloc(sizeof *pts * (size_t)np) : NULL;
    long vsum = 0;
    pool->min_vertices = 1 << 30;
    for (int i = 0; i < count; ++i) {
        mk_vec3 ax = random_axes(rng);
        mk_status st = MK_OK;
        if (f == FAM_ELLIPSOID) {
            st = mk_shape_ellipsoid(&pool->shapes[i], ax);
        } else if (f == FAM_BOX) {
            st = mk_shape_box(&pool->shapes[i], ax, 0);
        } else {
            for (int k = 0; k < np; ++k) {
                mk_vec3 u = or_unit(rng);
                pts[k] = b3(ax.x * u.x, ax.y * u.y, ax.z * u.z);
            }
            st = mk_hull_create(pts, np, &pool->hulls[i]);
            if (st == MK_OK)
                st = mk_shape_hull(&pool->shapes[i], pool->hulls[i], 0);
            if (st == MK_OK) {
                int nv = pool->hulls[i]->num_vertices;
                vsum += nv;
                if (nv < pool->min_vertices)
                    pool->min_vertices = nv;
                if (nv > pool->max_vertices)
                    pool->max_vertices = nv;
            }
        }
        if (st != MK_OK) {
            fprintf(stderr, "mk_bench: building a %s shape failed: %s\n", bench_family_name(f), mk_status_string(st));
            free(pts);
            pool->count = i;
            return 0;
        }
        pool->count = i + 1;
    }
    free(pts);
    pool->mean_vertices = np ? (double)vsum / count : 0;
    return 1;
}

void bench_pool_free(bench_pool *pool)
{
    if (pool->hulls)
        for (int i = 0; i < pool->count; ++i)
            mk_hull_destroy(pool->hulls[i]);
    free(pool->hulls);
    free(pool->shapes);
    memset(pool, 0, sizeof *pool);
}

/* ------------------------------------------------------------ certificates */

static mk_vec3 to_local(const mk_transform *xf, mk_vec3 w)
{
    mk_vec3 d = b3_sub(w, xf->p);
    const mk_mat3 *R = &xf->R;
    return b3(R->m[0][0] * d.x + R->m[1][0] * d.y + R->m[2][0] * d.z,
              R->m[0][1] * d.x + R->m[1][1] * d.y + R->m[2][1] * d.z,
              R->m[0][2] * d.x + R->m[1][2] * d.y + R->m[2][2] * d.z);
}

static mk_vec3 to_world(const mk_transform *xf, mk_vec3 l)
{
    const mk_mat3 *R = &xf->R;
    return b3(R->m[0][0] * l.x + R->m[0][1] * l.y + R->m[0][2] * l.z + xf->p.x,
              R->m[1][0] * l.x + R->m[1][1] * l.y + R->m[1][2] * l.z + xf->p.y,
              R->m[2][0] * l.x + R->m[2][1] * l.y + R->m[2][2] * l.z + xf->p.z);
}

/* How far a local point is outside the shape, by the shape's definition (hulls:
 * distance to the nearest vertex, as support points are vertices). */
static double outside_by(const mk_shape *s, mk_vec3 q)
{
    switch (s->type) {
    case MK_SHAPE_ELLIPSOID: {
        mk_vec3 r = s->u.ellipsoid.radii;
        double k = sqrt((q.x / r.x) * (q.x / r.x) + (q.y / r.y) * (q.y / r.y) + (q.z / r.z) * (q.z / r.z));
        double rmax = fmax(r.x, fmax(r.y, r.z));
        return (k - 1) * rmax; /* over-estimates the distance outside, fine as a check */
    }
    case MK_SHAPE_BOX: {
        mk_vec3 h = s->u.box.half_extents;
        return fmax(fabs(q.x) - h.x, fmax(fabs(q.y) - h.y, fabs(q.z) - h.z));
    }
    case MK_SHAPE_HULL: {
        const mk_hull *h = s->u.hull.hull;
        double best = INFINITY;
        for (int i = 0; i < h->num_vertices; ++i) {
            double d = b3_len(b3_sub(q, h->vertices[i]));
            if (d < best)
                best = d;
        }
        return best;
    }
    default:
        return INFINITY;
    }
}

/* Witness points of the final simplex, checked to be points of A and B (world).
 * Returns 0 when a support point fails its membership check. */
static int certified_witnesses(const bench_problem *pr, const mk_simplex *sx, mk_vec3 *pa, mk_vec3 *pb)
{
    const mk_transform *xa = &pr->pair.xf_a, *xb = &pr->pair.xf_b;
    mk_vec3 qa = b3(0, 0, 0), qb = b3(0, 0, 0);
    double wsum = 0;
    for (int i = 0; i < sx->count; ++i) {
        double l = sx->bary[i];
        if (!(l >= -1e-14))
            return 0;
        wsum += l;
        /* simplex points live in A's frame */
        mk_vec3 a_w = to_world(xa, sx->a[i]), b_w = to_world(xa, sx->b[i]);
        if (outside_by(pr->pair.a, sx->a[i]) > MEMBER_TOL || outside_by(pr->pair.b, to_local(xb, b_w)) > MEMBER_TOL)
            return 0;
        qa = b3_madd(qa, l, a_w);
        qb = b3_madd(qb, l, b_w);
    }
    if (!(fabs(wsum - 1) <= 1e-12))
        return 0;
    *pa = qa;
    *pb = qb;
    return 1;
}

static mk_gjk_settings precise_settings(void)
{
    mk_gjk_settings s = mk_gjk_default_settings();
    s.variant = MK_GJK_VANILLA;
    s.tolerance = 1e-15;
    s.max_iterations = 20000;
    return s;
}

/* Support-plane gap along unit n (from A to B): a lower bound of the distance. */
static double plane_gap(const bench_problem *pr, mk_vec3 n)
{
    return -or_support_value(pr->pair.b, &pr->pair.xf_b, b3_neg(n)) - or_support_value(pr->pair.a, &pr->pair.xf_a, n);
}

static int oracle_fits(const mk_shape *s)
{
    return s->type == MK_SHAPE_BOX || (s->type == MK_SHAPE_HULL && s->u.hull.hull->num_vertices <= ORACLE_MAX_VERTICES);
}

/* Exact signed distance from the polytope oracle (SAT when overlapping). */
static int oracle_signed_distance(const bench_problem *pr, double *d)
{
    if (!oracle_fits(pr->pair.a) || !oracle_fits(pr->pair.b))
        return 0;
    return or_exact_distance(pr->pair.a, &pr->pair.xf_a, pr->pair.b, &pr->pair.xf_b, d, NULL, NULL);
}

/* ------------------------------------------------------------ problems */

static double draw_target(bench_category c, or_rng *rng)
{
    double t;
    switch (c) {
    case CAT_OVERLAP:
        do
            t = -or_uniform(rng, 0, 0.1);
        while (t == 0);
        return t;
    case CAT_CLOSE:
        do
            t = or_uniform(rng, 0, 0.1);
        while (t == 0);
        return t;
    case CAT_DISTANT: return 1.0 - or_uniform(rng, 0, 0.9);
    case CAT_SEP_1CM: return 0.01;
    case CAT_OVL_1CM: return -0.01;
    default: return 0;
    }
}

/* One candidate problem; returns 0 when a certificate fails (draw again). */
static int make_problem(bench_problem *pr, const bench_pool *pool, double target, int exact_depth, or_rng *rng)
{
    memset(pr, 0, sizeof *pr);
    pr->ia = or_int(rng, pool->count);
    pr->ib = or_int(rng, pool->count);
    pr->pair.a = &pool->shapes[pr->ia];
    pr->pair.b = &pool->shapes[pr->ib];
    pr->target = target;
    or_place_pair(rng, pr->pair.a, pr->pair.b, PLACE_GAP, &pr->pair.xf_a, &pr->pair.xf_b);

    /* Closest points, then slide B along the normal to the target gap. */
    mk_gjk_settings st = precise_settings();
    mk_gjk_result res;
    if (mk_gjk_distance(&pr->pair, &st, NULL, &res) != MK_GJK_SEPARATED)
        return 0;
    mk_vec3 n = res.normal, pa, pb;
    if (!certified_witnesses(pr, &res.simplex, &pa, &pb))
        return 0;
    double d0 = b3_len(b3_sub(pb, pa));
    double lo0 = plane_gap(pr, n);
    if (!(d0 - lo0 <= REF_MAX_WIDTH))
        return 0; /* the normal is not yet a closest-point normal to full precision */
    double shift = target - d0;
    pr->axis = n;
    pr->pair.xf_b.p = b3_madd(pr->pair.xf_b.p, shift, n);
    pb = b3_madd(pb, shift, n);

    if (target > 0) {
        double lo = plane_gap(pr, n), hi = b3_len(b3_sub(pb, pa));
        if (!(hi - lo <= REF_MAX_WIDTH) || !(lo > 0))
            return 0;
        pr->ref = 0.5 * (lo + hi);
        pr->ref_width = hi - lo;
        pr->overlap = 0;
        return 1;
    }

    /* Overlapping: a common point certifies it. */
    if (mk_gjk_distance(&pr->pair, &st, NULL, &res) != MK_GJK_INTERSECTING || res.simplex.count != 4)
        return 0;
    if (!certified_witnesses(pr, &res.simplex, &pa, &pb) || !(b3_len(b3_sub(pb, pa)) <= 1e-12))
        return 0;
    pr->overlap = 1;
    double sd;
    if (exact_depth && oracle_signed_distance(pr, &sd)) {
        /* the gap along n is the target, so the signed distance is at least that */
        if (!(sd <= 0 && sd >= target - 1e-9))
            return 0;
        pr->ref = sd;
        pr->depth_exact = 1;
    } else {
        pr->ref = target;
        pr->depth_exact = 0;
    }
    return 1;
}

int bench_set_make(bench_set *set, const bench_pool *pool, bench_category cat, int count, or_rng *rng,
                   int oracle_checks, int exact_depth)
{
    memset(set, 0, sizeof *set);
    set->pool = pool;
    set->cat = cat;
    set->p = calloc((size_t)count, sizeof *set->p);
    if (!set->p)
        return 0;
    for (int i = 0; i < count; ++i) {
        double target = draw_target(cat, rng);
        int tries = 0;
        while (!make_problem(&set->p[i], pool, target, exact_depth, rng)) {
            ++set->resampled;
            if (++tries > 1000) {
                fprintf(stderr, "mk_bench: cannot certify a %s problem at %g m\n", bench_family_name(pool->fam),
                        target);
                return 0;
            }
        }
        bench_problem *pr = &set->p[i];
        if (!pr->overlap && pr->ref_width > set->max_width)
            set->max_width = pr->ref_width;
        double sd;
        if (!pr->overlap && set->oracle_checked < oracle_checks && oracle_signed_distance(pr, &sd)) {
            double diff = fabs(sd - pr->ref);
            if (diff > set->oracle_max_diff)
                set->oracle_max_diff = diff;
            ++set->oracle_checked;
        }
        set->count = i + 1;
    }
    return 1;
}

void bench_set_free(bench_set *set)
{
    free(set->p);
    memset(set, 0, sizeof *set);
}
