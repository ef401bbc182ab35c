/* Check suite "ray": mk_ray_cast against closed forms (spheres, boxes,
 * capsules, cylinders, ellipsoids; the same shapes also wrapped as support
 * callbacks, which take the iterative path) and, for every shape family,
 * against an exact oracle built on the exact point-to-shape signed distance of
 * tests/oracle.c: that distance is convex along a line, so its minimum along
 * the ray (golden section) says hit or miss, and bisection finds the entry. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <minkowski/minkowski.h>
#include "oracle.h"
#include "require.h"
#include "vec.h"

static const mk_transform kIdentity = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {0, 0, 0}};

/* ------------------------------------------------------------ oracle */

typedef struct exact_ray {
    int inside;    /* f(0) <= 0 */
    double f_min;  /* min of the signed distance over the ray's t in [0, t_end] */
    double t_min;  /* where */
    double t_hit;  /* first root of f (when f_min <= 0 and not inside) */
} exact_ray;

typedef struct oracle_ray {
    const mk_shape *s;
    const mk_transform *xf;
    mk_vec3 o, u; /* origin, unit direction */
} oracle_ray;

static double f_at(const oracle_ray *q, double t)
{
    return or_point_shape(q->s, q->xf, v3_madd(q->o, t, q->u), NULL);
}

/* t_end: the ray's length (finite). 90 golden-section steps shrink [0,
 * t_end] by 1e-19; 90 bisection steps resolve the root to the rounding. */
static exact_ray exact_cast(const oracle_ray *q, double t_end)
{
    exact_ray e;
    const double f0 = f_at(q, 0);
    e.inside = f0 <= 0;
    const double g = 0.5 * (sqrt(5.0) - 1);
    double a = 0, b = t_end, c = b - g * (b - a), d = a + g * (b - a);
    double fc = f_at(q, c), fd = f_at(q, d);
    for (int i = 0; i < 90; ++i) {
        if (fc < fd) {
            b = d, d = c, fd = fc;
            c = b - g * (b - a);
            fc = f_at(q, c);
        } else {
            a = c, c = d, fc = fd;
            d = a + g * (b - a);
            fd = f_at(q, d);
        }
    }
    e.t_min = 0.5 * (a + b);
    e.f_min = f_at(q, e.t_min);
    const double fe = f_at(q, t_end);
    if (f0 < e.f_min)
        e.f_min = f0, e.t_min = 0;
    if (fe < e.f_min)
        e.f_min = fe, e.t_min = t_end;
    e.t_hit = NAN;
    if (!e.inside && e.f_min <= 0) {
        double lo = 0, hi = e.t_min;
        for (int i = 0; i < 90; ++i) {
            const double mid = 0.5 * (lo + hi);
            if (f_at(q, mid) > 0)
                lo = mid;
            else
                hi = mid;
        }
        e.t_hit = hi;
    }
    return e;
}

/* Radius of a ball about the pose's origin holding the shape. */
static double shape_reach(const mk_shape *s)
{
    mk_vec3 lo, hi;
    mk_shape_local_aabb(s, &lo, &hi);
    return v3_len(v3(fmax(fabs(lo.x), fabs(hi.x)), fmax(fabs(lo.y), fabs(hi.y)), fmax(fabs(lo.z), fabs(hi.z))));
}

/* The promises of one answer against the oracle. tol: the tolerance the
 * cast was given; slack: the stall's acceptance (ray.c accepts a hit within
 * 4 tolerances) plus rounding. Returns 1 hit, 0 miss, -1 inside. */
static int check_cast(const oracle_ray *q, double max_t, double tol, const mk_ray_result *r, const char *what,
                      int index, double *worst_t, double *worst_plane)
{
    const double reach = shape_reach(q->s);
    const double scale = reach + v3_len(v3_sub(q->o, q->xf->p));
    const double band = 4 * tol + 1e-12 * scale; /* the grazing band: either answer is right */
    const double t_end = isfinite(max_t) ? max_t : v3_len(v3_sub(q->o, q->xf->p)) + 2 * reach;
    const exact_ray e = exact_cast(q, t_end);
    REQUIRE(isfinite(r->t) && v3_finite(r->point) && v3_finite(r->normal) && fabs(v3_len(r->normal) - 1) < 1e-12,
            "%s #%d: non-finite or non-unit output (%s)", what, index, mk_status_string(r->status));
    if (e.inside && e.f_min < -band && or_point_shape(q->s, q->xf, q->o, NULL) < -band) {
        REQUIRE(r->status == MK_RAY_INSIDE, "%s #%d: origin %.3g inside, got %s", what, index,
                or_point_shape(q->s, q->xf, q->o, NULL), mk_status_string(r->status));
        return -1;
    }
    if (r->status == MK_RAY_INSIDE) {
        REQUIRE(or_point_shape(q->s, q->xf, q->o, NULL) <= band, "%s #%d: INSIDE with the origin %.3g away", what,
                index, or_point_shape(q->s, q->xf, q->o, NULL));
        return -1;
    }
    if (e.f_min > band) {
        REQUIRE(r->status == MK_RAY_MISS, "%s #%d: the ray passes %.3g from the shape, got %s t %.17g", what, index,
                e.f_min, mk_status_string(r->status), r->t);
        return 0;
    }
    if (e.f_min < -band) {
        REQUIRE(r->status == MK_RAY_HIT, "%s #%d: the ray enters %.3g deep at t %.17g, got %s", what, index, -e.f_min,
                e.t_hit, mk_status_string(r->status));
    }
    if (r->status != MK_RAY_HIT) {
        REQUIRE(r->status == MK_RAY_MISS, "%s #%d: grazing ray, got %s", what, index, mk_status_string(r->status));
        return 0;
    }
    /* A hit: never beyond the entry, the point within the band of the
     * surface, its normal a supporting plane's through the point. */
    const double f_hit = or_point_shape(q->s, q->xf, r->point, NULL);
    REQUIRE(f_hit <= band && f_hit >= -1e-12 * scale, "%s #%d: hit point %.3g from the surface (t %.17g, exact %.17g)",
            what, index, f_hit, r->t, e.t_hit);
    REQUIRE(r->t <= max_t, "%s #%d: t %.17g beyond max_t %.17g", what, index, r->t, max_t);
    if (isfinite(e.t_hit)) {
        REQUIRE(r->t <= e.t_hit + 1e-12 * scale, "%s #%d: t %.17g past the entry %.17g", what, index, r->t, e.t_hit);
        *worst_t = fmax(*worst_t, e.t_hit - r->t);
    }
    const double plane = or_support_value(q->s, q->xf, r->normal) - v3_dot(r->normal, r->point);
    REQUIRE(fabs(plane) <= band, "%s #%d: normal's support plane %.3g from the hit point", what, index, plane);
    REQUIRE(v3_dot(r->normal, q->u) <= 1e-12, "%s #%d: the normal faces along the ray", what, index);
    *worst_plane = fmax(*worst_plane, fabs(plane));
    return 1;
}

/* ------------------------------------------------------------ random rays */

START_TEST(random_rays_match_the_exact_oracle)
{
    or_rng r = or_test_rng(0x5a7);
    or_hull_pool p12, p60;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 8, 12), MK_OK);
    ck_assert_int_eq(or_hull_pool_make(&p60, &r, 8, 60), MK_OK);
    const mk_ray_settings st = mk_ray_default_settings();
    for (int f = 0; f < OR_FAMILY_COUNT; ++f) {
        const int hulls = f == OR_HULL12 || f == OR_HULL60 || f == OR_ROUNDED_HULL;
        const int n = or_scaled(hulls ? 150 : 600);
        int hits = 0, misses = 0, insides = 0, it_max = 0;
        long it_sum = 0;
        double worst_t = 0, worst_plane = 0;
        for (int i = 0; i < n; ++i) {
            mk_shape s;
            or_random_shape(&r, (or_family)f, &p12, &p60, &s);
            const double reach = shape_reach(&s);
            const mk_transform xf = or_pose(&r, v3(or_uniform(&r, -3, 3), or_uniform(&r, -3, 3), or_uniform(&r, -3, 3)));
            /* origins outside (most), inside, or near the surface; aimed at a
             * point of the shape's ball (mostly hits) or anywhere */
            const int kind = or_int(&r, 10);
            const double dist = kind == 0 ? 0 : kind == 1 ? reach * 1.02 : reach * or_uniform(&r, 1.5, 6);
            const mk_vec3 o = v3_madd(xf.p, dist, or_unit(&r));
            const mk_vec3 aim = v3_madd(xf.p, reach * or_uniform(&r, 0, 1.2), or_unit(&r));
            mk_vec3 dir = or_int(&r, 4) ? v3_sub(aim, o) : or_unit(&r);
            if (v3_len(dir) < 1e-9)
                dir = v3(1, 0, 0);
            const double max_t = or_int(&r, 4) ? INFINITY : or_uniform(&r, 0, 2 * (dist + reach));
            mk_ray_result res;
            const mk_status rs = mk_ray_cast(&s, &xf, o, dir, max_t, &st, &res);
            REQUIRE(rs == res.status, "%s #%d: returned status differs from the result's", or_family_name(f), i);
            const oracle_ray q = {&s, &xf, o, v3_scale(dir, 1 / v3_len(dir))};
            const int k = check_cast(&q, max_t, st.tolerance, &res, or_family_name(f), i, &worst_t, &worst_plane);
            hits += k == 1, misses += k == 0, insides += k == -1;
            it_sum += res.iterations;
            it_max = res.iterations > it_max ? res.iterations : it_max;
        }
        printf("ray %-16s %5d rays: %5d hits, %5d misses, %5d inside; iterations mean %.1f max %d; "
               "entry - t max %.2g, support-plane gap max %.2g\n",
               or_family_name(f), n, hits, misses, insides, (double)it_sum / n, it_max, worst_t, worst_plane);
        ck_assert_int_gt(hits, n / 4);
        ck_assert_int_gt(misses, n / 20);
    }
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* mk_ray_exit from inside, every family: the exit against the exact one
 * (bisection of the exact signed distance, negative at the origin and
 * convex along the ray), never before it (the back cast never passes a
 * point of the shape), within the band of the surface, its normal a
 * supporting plane's through the point and facing along the ray; a segment
 * ending inside is INSIDE, one away from the shape a MISS. */
START_TEST(exits_match_the_exact_oracle)
{
    or_rng r = or_test_rng(0xe7a);
    or_hull_pool p12, p60;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 8, 12), MK_OK);
    ck_assert_int_eq(or_hull_pool_make(&p60, &r, 8, 60), MK_OK);
    const double tol = mk_ray_default_settings().tolerance;
    double worst = 0;
    int exits = 0;
    for (int f = 0; f < OR_FAMILY_COUNT; ++f) {
        const int n = or_scaled(f == OR_HULL12 || f == OR_HULL60 || f == OR_ROUNDED_HULL ? 60 : 200);
        for (int i = 0; i < n; ++i) {
            mk_shape s;
            or_random_shape(&r, (or_family)f, &p12, &p60, &s);
            const mk_transform xf = or_pose(&r, v3(or_uniform(&r, -3, 3), or_uniform(&r, -3, 3), or_uniform(&r, -3, 3)));
            const double reach = shape_reach(&s), scale = reach + v3_len(xf.p) + 1;
            /* an inside origin: the shape's support point along a random
             * direction pulled at least halfway to the pose's origin (the
             * few that fall outside, on a hull missing its centre, skipped) */
            const mk_vec3 o = v3_lerp(xf.p, or_support_point(&s, &xf, or_unit(&r)), or_uniform(&r, 0, 0.5));
            const mk_vec3 u = or_unit(&r);
            const double max_t = or_int(&r, 3) ? INFINITY : or_uniform(&r, 0, 2 * reach);
            const oracle_ray q = {&s, &xf, o, u};
            if (!(or_point_shape(&s, &xf, o, NULL) < -1e-6 * reach))
                continue;
            /* the exact exit: f < 0 at 0, f > 0 beyond the reach */
            double lo = 0, hi = 3 * reach;
            for (int it = 0; it < 100; ++it) {
                const double mid = 0.5 * (lo + hi);
                if (f_at(&q, mid) < 0)
                    lo = mid;
                else
                    hi = mid;
            }
            mk_ray_result res;
            const mk_status st = mk_ray_exit(&s, &xf, o, u, max_t, NULL, &res);
            REQUIRE(isfinite(res.t) && v3_finite(res.point) && fabs(v3_len(res.normal) - 1) < 1e-12,
                    "%s #%d: non-finite or non-unit output (%s)", or_family_name(f), i, mk_status_string(st));
            if (hi > max_t + 4 * tol) {
                REQUIRE(st == MK_RAY_INSIDE, "%s #%d: exit %.17g beyond max_t %.17g, got %s", or_family_name(f), i,
                        hi, max_t, mk_status_string(st));
                continue;
            }
            if (hi > max_t - 4 * tol)
                continue; /* the far end on the surface: either */
            REQUIRE(st == MK_RAY_HIT, "%s #%d: exit %.17g, got %s", or_family_name(f), i, hi, mk_status_string(st));
            const double band = 4 * tol + 1e-12 * scale;
            REQUIRE(res.t >= hi - 1e-12 * scale, "%s #%d: exit t %.17g before the exact %.17g", or_family_name(f), i,
                    res.t, hi);
            const double fp = or_point_shape(&s, &xf, res.point, NULL);
            REQUIRE(fp <= band && fp >= -1e-12 * scale, "%s #%d: exit point %.3g from the surface", or_family_name(f),
                    i, fp);
            const double plane = or_support_value(&s, &xf, res.normal) - v3_dot(res.normal, res.point);
            REQUIRE(fabs(plane) <= band && v3_dot(res.normal, u) >= -1e-12, "%s #%d: exit normal: plane %.3g, <n, u> %.3g",
                    or_family_name(f), i, plane, v3_dot(res.normal, u));
            worst = fmax(worst, res.t - hi);
            ++exits;
        }
    }
    /* a segment away from the shape: a miss */
    mk_shape box;
    mk_shape_box(&box, v3(1, 1, 1), 0);
    mk_ray_result res;
    ck_assert_int_eq(mk_ray_exit(&box, &kIdentity, v3(-5, 0, 0), v3(-1, 0, 0), INFINITY, NULL, &res), MK_RAY_MISS);
    ck_assert_int_eq(mk_ray_exit(&box, &kIdentity, v3(-5, 0, 0), v3(1, 0, 0), INFINITY, NULL, &res), MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 6, 1e-12);
    ck_assert_int_eq(mk_ray_exit(&box, &kIdentity, v3(0, 0, 0), v3(0, 0, 0), 1, NULL, &res), MK_INVALID_INPUT);
    printf("ray exits: %d from inside, t past the exact exit by at most %.2g\n", exits, worst);
    ck_assert_int_gt(exits, OR_FAMILY_COUNT * 20);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* ------------------------------------------------------------ closed forms */

/* First t >= 0 of |o + t u|^2 = R^2 (unit u), or NAN; from outside. */
/* A shape's core as a support callback: the same shape on the iterative
 * path (the closed forms take the shape itself). */
static mk_vec3 wrapped_support(const void *data, mk_vec3 d) { return mk_shape_support(data, d, NULL); }

static mk_shape wrapped(const mk_shape *s)
{
    mk_vec3 lo, hi;
    mk_shape_local_aabb(s, &lo, &hi);
    const mk_vec3 r = v3(s->radius, s->radius, s->radius);
    mk_shape w;
    mk_shape_user(&w, wrapped_support, s, v3_add(lo, r), v3_sub(hi, r), s->radius);
    return w;
}

static double sphere_entry(mk_vec3 o, mk_vec3 u, double R)
{
    const double b = v3_dot(o, u), c = v3_len2(o) - R * R, k = b * b - c;
    if (k < 0)
        return NAN;
    const double t = -b - sqrt(k);
    return t >= 0 ? t : NAN;
}

/* Entry through the side of the z-axis cylinder of radius R between
 * |z| <= hh (unit u; *n its normal there), or INFINITY. */
static double side_entry(mk_vec3 o, mk_vec3 u, double R, double hh, mk_vec3 *n)
{
    const double a = u.x * u.x + u.y * u.y, b = o.x * u.x + o.y * u.y;
    const double c = o.x * o.x + o.y * o.y - R * R, k = b * b - a * c;
    if (!(a > 0 && k >= 0))
        return INFINITY;
    const double ts = (-b - sqrt(k)) / a;
    if (!(ts >= 0 && fabs(o.z + ts * u.z) <= hh))
        return INFINITY;
    *n = v3((o.x + ts * u.x) / R, (o.y + ts * u.y) / R, 0);
    return ts;
}

START_TEST(closed_forms)
{
    or_rng r = or_test_rng(0xc10);
    const int n = or_scaled(2000);
    double worst[5] = {0, 0, 0, 0, 0}, worst_n[5] = {0, 0, 0, 0, 0};
    double worst_w[5] = {0, 0, 0, 0, 0}, worst_wn[5] = {0, 0, 0, 0, 0};
    long iters[5] = {0, 0, 0, 0, 0};
    int cases[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < n; ++i) {
        const int kind = i % 5;
        mk_shape s;
        const mk_transform xf = or_pose(&r, v3(or_uniform(&r, -2, 2), or_uniform(&r, -2, 2), or_uniform(&r, -2, 2)));
        const mk_vec3 ol = v3_scale(or_unit(&r), or_uniform(&r, 3, 8));              /* origin, local */
        const mk_vec3 target = v3_scale(or_unit(&r), or_uniform(&r, 0, 0.6));       /* aimed inside */
        const mk_vec3 ul = v3_normalize_or(v3_sub(target, ol), v3(1, 0, 0));
        double t = NAN;
        mk_vec3 nl = v3(0, 0, 0);
        if (kind == 0) { /* sphere */
            const double R = or_uniform(&r, 0.7, 1.5);
            mk_shape_sphere(&s, R);
            t = sphere_entry(ol, ul, R);
            nl = v3_scale(v3_madd(ol, t, ul), 1 / R);
        } else if (kind == 1) { /* box: slabs */
            const mk_vec3 h = v3(or_uniform(&r, 0.7, 1.5), or_uniform(&r, 0.7, 1.5), or_uniform(&r, 0.7, 1.5));
            mk_shape_box(&s, h, 0);
            const double hh[3] = {h.x, h.y, h.z}, oo[3] = {ol.x, ol.y, ol.z}, uu[3] = {ul.x, ul.y, ul.z};
            double lo = -INFINITY;
            int axis = 0;
            for (int a = 0; a < 3; ++a) {
                const double t1 = (-hh[a] - oo[a]) / uu[a], t2 = (hh[a] - oo[a]) / uu[a];
                const double tn = fmin(t1, t2);
                if (tn > lo)
                    lo = tn, axis = a;
            }
            t = lo;
            const double sg = uu[axis] > 0 ? -1 : 1;
            nl = v3(axis == 0 ? sg : 0, axis == 1 ? sg : 0, axis == 2 ? sg : 0);
        } else if (kind == 2) { /* capsule: the cylinder part or a cap's sphere */
            const double R = or_uniform(&r, 0.7, 1.2), hh = or_uniform(&r, 0.2, 1);
            mk_shape_capsule(&s, R, hh);
            double best = side_entry(ol, ul, R, hh, &nl);
            for (int e = -1; e <= 1; e += 2) {
                const mk_vec3 c0 = v3(0, 0, e * hh);
                const double tc = sphere_entry(v3_sub(ol, c0), ul, R);
                if (tc < best && (e * (ol.z + tc * ul.z) >= hh))
                    best = tc, nl = v3_scale(v3_sub(v3_madd(ol, tc, ul), c0), 1 / R);
            }
            t = isfinite(best) ? best : NAN;
        } else if (kind == 3) { /* ellipsoid: the unit sphere in scaled coordinates */
            const mk_vec3 e = v3(or_uniform(&r, 0.7, 1.5), or_uniform(&r, 0.7, 1.5), or_uniform(&r, 0.7, 1.5));
            mk_shape_ellipsoid(&s, e);
            const mk_vec3 os = v3(ol.x / e.x, ol.y / e.y, ol.z / e.z), us = v3(ul.x / e.x, ul.y / e.y, ul.z / e.z);
            const double a = v3_len2(us), b = v3_dot(os, us), c = v3_len2(os) - 1, k = b * b - a * c;
            t = k >= 0 ? (-b - sqrt(k)) / a : NAN;
            const mk_vec3 p = v3_madd(ol, t, ul);
            nl = v3_normalize_or(v3(p.x / (e.x * e.x), p.y / (e.y * e.y), p.z / (e.z * e.z)), v3(1, 0, 0));
        } else { /* cylinder: the side or a cap */
            const double R = or_uniform(&r, 0.7, 1.5), hh = or_uniform(&r, 0.7, 1.5);
            mk_shape_cylinder(&s, R, hh, 0);
            double best = side_entry(ol, ul, R, hh, &nl);
            for (int e = -1; e <= 1; e += 2) {
                if (ul.z == 0)
                    break;
                const double tc = (e * hh - ol.z) / ul.z;
                const mk_vec3 p = v3_madd(ol, tc, ul);
                if (tc >= 0 && tc < best && p.x * p.x + p.y * p.y <= R * R)
                    best = tc, nl = v3(0, 0, e);
            }
            t = isfinite(best) ? best : NAN;
        }
        if (!isfinite(t))
            continue; /* the aim misses the shape (capsule, cylinder): the random suite covers misses */
        const mk_vec3 o = xf_apply(&xf, ol), u = m3_mul(&xf.R, ul);
        mk_ray_result res;
        ck_assert_int_eq(mk_ray_cast(&s, &xf, o, u, INFINITY, NULL, &res), MK_RAY_HIT);
        /* t is a lower bound; short of the entry by at most the hit's
         * distance from the surface over the incidence */
        const mk_vec3 n = m3_mul(&xf.R, nl);
        const double cosi = -v3_dot(n, u);
        const double err = t - res.t, bound = 4 * 1e-7 / fmax(cosi, 1e-3) + 1e-12;
        REQUIRE(err >= -1e-12 && err <= bound, "shape %d #%d: t %.17g, exact %.17g (cos %.3g)", kind, i, res.t, t, cosi);
        worst[kind] = fmax(worst[kind], fabs(err));
        const double ang = v3_len(v3_sub(res.normal, n));
        worst_n[kind] = fmax(worst_n[kind], ang);
        /* exact on a box's faces; on curved surfaces the normal at a point
         * within 4 tol of the hit (t short by up to 4 tol / cos), whose
         * normal turns by that over the radius of curvature (>= 0.33 here) */
        const double nb = kind == 1 ? 1e-12 : 4e-7 / fmax(cosi, 1e-3) / 0.33 + 1e-12;
        REQUIRE(ang <= nb, "shape %d #%d: normal off by %.3g", kind, i, ang);
        /* the iterative path on the same shape: t within 4 tol / cos of the
         * entry and never past it; the last plane's normal within
         * sqrt(8 tol / R_min) (ray.h) */
        const mk_shape w = wrapped(&s);
        ck_assert_int_eq(mk_ray_cast(&w, &xf, o, u, INFINITY, NULL, &res), MK_RAY_HIT);
        const double werr = t - res.t;
        REQUIRE(werr >= -1e-12 && werr <= bound, "wrapped shape %d #%d: t %.17g, exact %.17g (cos %.3g)", kind, i,
                res.t, t, cosi);
        const double wang = v3_len(v3_sub(res.normal, n));
        /* at an edge (a box's: MK_TEST_SEED=41, MK_TEST_SCALE=100 put a hit
         * 1e-8 from one) the normal is not unique: any plane supporting the
         * box through the hit point is right, 0.61 rad from the face's here */
        const double wplane = or_support_value(&s, &xf, res.normal) - v3_dot(res.normal, res.point);
        REQUIRE(wang <= sqrt(8e-7 / 0.33) + 4e-7 / fmax(cosi, 1e-3) / 0.33 || fabs(wplane) <= 4e-7 + 1e-12,
                "wrapped shape %d #%d: normal off by %.3g, its support plane %.3g from the hit", kind, i, wang, wplane);
        worst_w[kind] = fmax(worst_w[kind], fabs(werr));
        worst_wn[kind] = fmax(worst_wn[kind], wang);
        iters[kind] += res.iterations;
        ++cases[kind];
    }
    printf("ray closed forms: |t error| max sphere %.2g box %.2g capsule %.2g ellipsoid %.2g cylinder %.2g; "
           "normal error max %.2g %.2g %.2g %.2g %.2g\n",
           worst[0], worst[1], worst[2], worst[3], worst[4], worst_n[0], worst_n[1], worst_n[2], worst_n[3],
           worst_n[4]);
    for (int k = 0; k < 5; ++k)
        printf("ray closed forms, shape %d as a support callback (iterations): |t error| max %.2g, normal error max "
               "%.2g, iterations mean %.1f\n",
               k, worst_w[k], worst_wn[k], cases[k] ? (double)iters[k] / cases[k] : 0.0);
}
END_TEST

/* ------------------------------------------------------------ edges of the domain */

START_TEST(inside_length_and_away)
{
    mk_shape box;
    mk_shape_box(&box, v3(1, 2, 3), 0);
    mk_ray_result res;
    /* inside: t = 0, whatever the length */
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(0.5, 0.5, 0.5), v3(1, 0, 0), 10, NULL, &res), MK_RAY_INSIDE);
    ck_assert(res.t == 0);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(0.5, 0.5, 0.5), v3(1, 0, 0), 0, NULL, &res), MK_RAY_INSIDE);
    /* the exit, as the ODE adapter finds it: back from the far end */
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(10.5, 0.5, 0.5), v3(-1, 0, 0), 10, NULL, &res), MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 9.5, 1e-12);
    ck_assert_double_eq_tol(res.normal.x, 1, 1e-12);
    /* short: the face is 4 away */
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(-5, 0, 0), v3(1, 0, 0), 3.999, NULL, &res), MK_RAY_MISS);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(-5, 0, 0), v3(1, 0, 0), 4.001, NULL, &res), MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 4, 1e-12);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(-5, 0, 0), v3(1, 0, 0), 0, NULL, &res), MK_RAY_MISS);
    /* pointing away, and passing by: answered without iterating */
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(-5, 0, 0), v3(-1, 0, 0), INFINITY, NULL, &res), MK_RAY_MISS);
    ck_assert_int_eq(res.iterations, 0);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(-5, 10, 0), v3(1, 0, 0), INFINITY, NULL, &res), MK_RAY_MISS);
    ck_assert_int_eq(res.iterations, 0);
    /* along a face's plane, 1e-3 outside it and exactly in it: a miss, and
     * a hit at the edge (either is right in the plane itself) */
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(-5, 2.001, 0), v3(1, 0, 0), INFINITY, NULL, &res), MK_RAY_MISS);
    const mk_status on = mk_ray_cast(&box, &kIdentity, v3(-5, 2, 0), v3(1, 0, 0), INFINITY, NULL, &res);
    ck_assert(on == MK_RAY_HIT || on == MK_RAY_MISS);
    if (on == MK_RAY_HIT)
        ck_assert_double_eq_tol(res.t, 4, 1e-9);
    /* a sphere's tangent 1e-6 outside: a miss; 1e-6 inside: a hit */
    mk_shape sph;
    mk_shape_sphere(&sph, 1);
    ck_assert_int_eq(mk_ray_cast(&sph, &kIdentity, v3(-5, 1 + 1e-6, 0), v3(1, 0, 0), INFINITY, NULL, &res),
                     MK_RAY_MISS);
    /* (at the tolerance 1e-12: t is short of the entry by up to 4 tol over
     * the incidence's cosine, 1.4e-3 here) */
    mk_ray_settings fine = mk_ray_default_settings();
    fine.tolerance = 1e-12;
    ck_assert_int_eq(mk_ray_cast(&sph, &kIdentity, v3(-5, 1 - 1e-6, 0), v3(1, 0, 0), INFINITY, &fine, &res),
                     MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 5 - sqrt(1 - (1 - 1e-6) * (1 - 1e-6)), 3e-9);
    /* a direction a hair off a slab's plane, far outside the slab: the slab
     * is met at t = inf, which is no hit (box, cylinder, cone) */
    mk_shape cyl, cone;
    mk_shape_cylinder(&cyl, 1, 1, 0);
    mk_shape_cone(&cone, 1, 1, 0);
    const mk_shape *slabbed[3] = {&box, &cyl, &cone};
    for (int k = 0; k < 3; ++k) {
        ck_assert_int_eq(mk_ray_cast(slabbed[k], &kIdentity, v3(-5, 0, -1e10), v3(1, 0, 1e-300), INFINITY, NULL, &res),
                         MK_RAY_MISS);
        ck_assert(isfinite(res.t) && v3_finite(res.point) && v3_finite(res.normal));
    }
    /* a direction of any length: t is a distance */
    ck_assert_int_eq(mk_ray_cast(&sph, &kIdentity, v3(-5, 0, 0), v3(1e-300, 0, 0), INFINITY, NULL, &res), MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 4, 1e-12);
    ck_assert_int_eq(mk_ray_cast(&sph, &kIdentity, v3(-5, 0, 0), v3(1e300, 0, 0), INFINITY, NULL, &res), MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 4, 1e-12);
}
END_TEST

/* Far from the world's origin and across sizes the tolerance is the
 * caller's: the answers are those of the same ray near the origin. */
START_TEST(far_tiny_and_huge)
{
    or_rng r = or_test_rng(0xfa7);
    const int n = or_scaled(300);
    for (int i = 0; i < n; ++i) {
        const double size = i % 3 == 0 ? 1e-3 : i % 3 == 1 ? 1 : 1e3;
        mk_shape s;
        const int kind = or_int(&r, 3);
        if (kind == 0)
            mk_shape_box(&s, v3(size, 0.7 * size, 0.5 * size), 0);
        else if (kind == 1)
            mk_shape_cylinder(&s, size, 0.8 * size, 0.1 * size);
        else
            mk_shape_ellipsoid(&s, v3(size, 0.6 * size, 0.9 * size));
        mk_transform xf = or_pose(&r, v3(0, 0, 0));
        const mk_vec3 o = v3_scale(or_unit(&r), 4 * size), aim = v3_scale(or_unit(&r), 0.3 * size);
        const mk_vec3 u = v3_sub(aim, o);
        mk_ray_settings st = mk_ray_default_settings();
        st.tolerance = 1e-7 * size;
        mk_ray_result near, far;
        const mk_status ns = mk_ray_cast(&s, &xf, o, u, INFINITY, &st, &near);
        const mk_vec3 off = v3_scale(or_unit(&r), 1e5);
        xf.p = off;
        const mk_status fs = mk_ray_cast(&s, &xf, v3_add(o, off), u, INFINITY, &st, &far);
        ck_assert_int_eq(ns, MK_RAY_HIT);
        ck_assert_int_eq(fs, MK_RAY_HIT);
        /* both within 4 tolerances of the surface along the normal, so their
         * t within that over the incidence, plus 100 km's rounding */
        const double cosi = -v3_dot(near.normal, v3_normalize_or(u, v3(1, 0, 0)));
        const double bound = 8 * st.tolerance / fmax(cosi, 1e-2) + 1e5 * 64 * DBL_EPSILON;
        REQUIRE(fabs(near.t - far.t) <= bound, "#%d size %g kind %d: t %.17g near, %.17g at 100 km", i, size, kind,
                near.t, far.t);
    }
}
END_TEST

/* A cone's closed form on the lines that degenerate its quadratic: along
 * the axis (through the apex, or into the base), along a generator (the
 * quadratic turns linear), parallel to one just outside and just inside,
 * from the mirror nappe above the apex, and level with the apex. */
START_TEST(cone_degenerate_lines)
{
    const double rad = 0.5, h = 1; /* apex (0, 0, 1), base z = -1 */
    mk_shape cone;
    mk_shape_cone(&cone, rad, h, 0);
    mk_ray_result res;
    /* the axis: from below into the base, from above onto the apex; away */
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3(0, 0, -5), v3(0, 0, 1), INFINITY, NULL, &res), MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 4, 1e-14);
    ck_assert_double_eq_tol(res.normal.z, -1, 1e-14);
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3(0, 0, 5), v3(0, 0, -1), INFINITY, NULL, &res), MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 4, 1e-14);
    ck_assert(or_support_value(&cone, &kIdentity, res.normal) - v3_dot(res.normal, res.point) < 1e-14);
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3(0, 0, 5), v3(0, 0, 1), INFINITY, NULL, &res), MK_RAY_MISS);
    /* along the generator through (rad, 0, -h): from beyond the apex, the
     * apex is the entry */
    const mk_vec3 g = v3_normalize_or(v3(rad, 0, -2 * h), v3(1, 0, 0));
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3_madd(v3(0, 0, h), -3, g), g, INFINITY, NULL, &res),
                     MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 3, 1e-12);
    /* parallel to it, 1e-3 outside (miss) and 1e-3 inside (meets the base) */
    const mk_vec3 out_n = v3_normalize_or(v3(2 * h, 0, rad), v3(1, 0, 0));
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3_madd(v3_madd(v3(0, 0, h), -3, g), 1e-3, out_n), g, INFINITY,
                                 NULL, &res),
                     MK_RAY_MISS);
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3_madd(v3_madd(v3(0, 0, h), -3, g), -1e-3, out_n), g, INFINITY,
                                 NULL, &res),
                     MK_RAY_HIT);
    ck_assert(fabs(or_point_shape(&cone, &kIdentity, res.point, NULL)) < 1e-12);
    /* level with the apex: through it (the apex alone) and beside it (miss) */
    const mk_status level = mk_ray_cast(&cone, &kIdentity, v3(-3, 0, h), v3(1, 0, 0), INFINITY, NULL, &res);
    ck_assert(level == MK_RAY_HIT || level == MK_RAY_MISS);
    if (level == MK_RAY_HIT)
        ck_assert_double_eq_tol(res.t, 3, 1e-12);
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3(-3, 0.01, h), v3(1, 0, 0), INFINITY, NULL, &res), MK_RAY_MISS);
    /* from inside, level with the base and above it */
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3(0, 0, 0), v3(1, 0, 0), INFINITY, NULL, &res), MK_RAY_INSIDE);
}
END_TEST

/* A support callback shape: the octahedron |x| + |y| + |z| <= a. */
static mk_vec3 octa_support(const void *data, mk_vec3 d)
{
    const double a = *(const double *)data;
    const double ax = fabs(d.x), ay = fabs(d.y), az = fabs(d.z);
    if (ax >= ay && ax >= az)
        return v3(d.x >= 0 ? a : -a, 0, 0);
    if (ay >= az)
        return v3(0, d.y >= 0 ? a : -a, 0);
    return v3(0, 0, d.z >= 0 ? a : -a);
}

static mk_vec3 nan_support(const void *data, mk_vec3 d)
{
    (void)data, (void)d;
    return v3(NAN, 0, 0);
}

START_TEST(user_shapes_and_iteration_bound)
{
    const double a = 1;
    mk_shape oct;
    ck_assert_int_eq(mk_shape_user(&oct, octa_support, &a, v3(-1, -1, -1), v3(1, 1, 1), 0), MK_OK);
    mk_ray_result res;
    /* onto the face x + y + z = 1 from (2, 2, 2) along -(1, 1, 1): t = (6 - 1) / sqrt(3) */
    ck_assert_int_eq(mk_ray_cast(&oct, &kIdentity, v3(2, 2, 2), v3(-1, -1, -1), INFINITY, NULL, &res), MK_RAY_HIT);
    ck_assert_double_eq_tol(res.t, 5 / sqrt(3.0), 1e-12);
    ck_assert_double_eq_tol(res.normal.x, 1 / sqrt(3.0), 1e-12);
    /* a support returning NaN: an input error, finite placeholders */
    mk_shape bad;
    ck_assert_int_eq(mk_shape_user(&bad, nan_support, NULL, v3(-1, -1, -1), v3(1, 1, 1), 0), MK_OK);
    ck_assert_int_eq(mk_ray_cast(&bad, &kIdentity, v3(2, 2, 2), v3(-1, -1, -1), INFINITY, NULL, &res),
                     MK_INVALID_INPUT);
    ck_assert(isfinite(res.t) && v3_finite(res.point) && v3_finite(res.normal));
    /* one iteration: reported as the bound, with a t the shape is not met
     * before (a rounded cone: the iterative path) */
    mk_shape cone;
    mk_shape_cone(&cone, 1, 2, 0.1);
    mk_ray_settings st = mk_ray_default_settings();
    st.max_iterations = 1;
    ck_assert_int_eq(mk_ray_cast(&cone, &kIdentity, v3(-9, 0.3, 0.2), v3(1, 0.01, 0), INFINITY, &st, &res),
                     MK_RAY_MAX_ITER);
    ck_assert_int_eq(res.iterations, 1);
    ck_assert(or_point_shape(&cone, &kIdentity, res.point, NULL) >= 0);
    ck_assert(res.t > 0);
}
END_TEST

START_TEST(bad_input_gets_a_status)
{
    mk_shape box;
    mk_shape_box(&box, v3(1, 1, 1), 0);
    mk_ray_result res;
    const mk_vec3 o = v3(-5, 0, 0), u = v3(1, 0, 0);
    ck_assert_int_eq(mk_ray_cast(NULL, &kIdentity, o, u, 1, NULL, &res), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_ray_cast(&box, NULL, o, u, 1, NULL, &res), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, u, 1, NULL, NULL), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(NAN, 0, 0), u, 1, NULL, &res), MK_INVALID_INPUT);
    ck_assert(v3_finite(res.point) && v3_finite(res.normal) && res.t == 0);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, v3(INFINITY, 0, 0), u, 1, NULL, &res), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, v3(0, 0, 0), 1, NULL, &res), MK_INVALID_INPUT);
    ck_assert(v3_finite(res.normal) && fabs(v3_len(res.normal) - 1) < 1e-15);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, v3(NAN, 1, 0), 1, NULL, &res), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, v3(INFINITY, 0, 0), 1, NULL, &res), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, u, -1, NULL, &res), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, u, NAN, NULL, &res), MK_INVALID_INPUT);
    mk_transform sk = kIdentity;
    sk.R.m[0][0] = 2; /* not a rotation */
    ck_assert_int_eq(mk_ray_cast(&box, &sk, o, u, 1, NULL, &res), MK_INVALID_INPUT);
    mk_transform mirror = kIdentity;
    mirror.R.m[2][2] = -1;
    ck_assert_int_eq(mk_ray_cast(&box, &mirror, o, u, 1, NULL, &res), MK_INVALID_INPUT);
    mk_shape flat = box;
    flat.u.box.half_extents.y = 0;
    ck_assert_int_eq(mk_ray_cast(&flat, &kIdentity, o, u, 1, NULL, &res), MK_INVALID_SIZE);
    mk_ray_settings st = mk_ray_default_settings();
    st.tolerance = -1;
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, u, 1, &st, &res), MK_INVALID_INPUT);
    st = mk_ray_default_settings();
    st.max_iterations = 0;
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, u, 1, &st, &res), MK_INVALID_INPUT);
    st.max_iterations = 100001;
    ck_assert_int_eq(mk_ray_cast(&box, &kIdentity, o, u, 1, &st, &res), MK_INVALID_INPUT);
    ck_assert_str_eq(mk_status_string(MK_RAY_HIT), "ray hit");
    ck_assert_str_eq(mk_status_string(MK_RAY_MAX_ITER), "ray-cast iteration limit reached");
}
END_TEST

/* ------------------------------------------------------------ suite */

static Suite *ray_suite(void)
{
    Suite *s = suite_create("ray");
    const double timeout = 600 * or_test_scale();
    TCase *random = tcase_create("random");
    tcase_set_timeout(random, timeout);
    tcase_add_test(random, random_rays_match_the_exact_oracle);
    tcase_add_test(random, exits_match_the_exact_oracle);
    tcase_add_test(random, closed_forms);
    tcase_add_test(random, far_tiny_and_huge);
    suite_add_tcase(s, random);
    TCase *hostile = tcase_create("hostile");
    tcase_set_timeout(hostile, timeout);
    tcase_add_test(hostile, inside_length_and_away);
    tcase_add_test(hostile, cone_degenerate_lines);
    tcase_add_test(hostile, user_shapes_and_iteration_bound);
    tcase_add_test(hostile, bad_input_gets_a_status);
    suite_add_tcase(s, hostile);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ray_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
