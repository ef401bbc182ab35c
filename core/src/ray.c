/* A ray against one posed convex shape (ray.h): closed forms for spheres,
 * capsules and sharp boxes, cylinders, cones and ellipsoids
 * (closed_interval), else the GJK ray cast.
 *
 * G. van den Bergen, "Ray Casting against General Convex Objects with
 * Application to Continuous Collision Detection" (2004), sec. 3, in the
 * shape's local frame, with the shape C = K + ball(rho) (core K, rounding
 * radius rho). The ray is x(t) = s + t r (unit r). State: t, the ray point
 * x = x(t), and a simplex of support points p_i of K; v = x - (the point of
 * conv{p_i} nearest x), so |v| bounds dist(x, K) from above.
 *
 * Each iteration takes p = s_K(v) (K's point farthest along v) and w = x - p:
 *  - <v^, w> > rho: the plane <v^, z> = <v^, p> + rho holds C on its inner
 *    side and x outside, so the ray meets C no earlier than where it crosses
 *    that plane; if it runs parallel to it or away (<v^, r> >= 0) it never
 *    does (miss); else t advances to the crossing (conservative advancement)
 *    and every simplex point is re-expressed from the new x;
 *  - p joins the simplex, whose point nearest the origin in terms of x - p_i
 *    gives the new v (simplex.h, the GJK projection).
 * It stops when |v| <= rho + tol: x is then within tol of C. Every advance
 * is to a separating plane's crossing, so the shape has no point on the ray
 * before the final t; no advance at all means the origin itself is within
 * tol of C (inside). */
#include <minkowski/ray.h>

#include "simplex.h"
#include "support.h"
#include "valid.h"
#include "vec.h"

#include <float.h>
#include <math.h>

/* Largest iteration bound a caller may ask for. */
#define MK_RAY_MAX_ITER_CAP 100000
/* The tolerance is at least this many units of rounding of the query's
 * coordinates (the ray's start and the shape's size, in the local frame):
 * a point of the ray carries that much error, so no smaller distance can be
 * resolved. */
#define MK_RAY_FLOOR 64
/* Idle iterations (no progress with the ray point fixed) in a row that make
 * a stall; a stall within MK_RAY_STALL_SLACK tolerances of the shape is a
 * hit. */
#define MK_RAY_IDLE 4
#define MK_RAY_STALL_SLACK 4
/* Steps finishing the simplex into a rounded flat core's nearest feature
 * for the normal, at most (nearest_feature). */
#define MK_RAY_REFINE 16
/* Restarts of the simplex after a stall, at most. */
#define MK_RAY_RESTARTS 2

mk_ray_settings mk_ray_default_settings(void)
{
    mk_ray_settings s;
    s.tolerance = 1e-7;
    s.max_iterations = 128;
    return s;
}

/* Finite placeholders: t = 0 at the origin (when finite), the normal against
 * the direction (when it is one), else +z. */
static void placeholder(mk_ray_result *out, mk_status st, mk_vec3 origin, mk_vec3 u)
{
    out->status = st;
    out->t = 0;
    out->point = v3_finite(origin) ? origin : v3(0, 0, 0);
    out->normal = v3_finite(u) && v3_len2(u) > 0 ? v3_neg(u) : v3(0, 0, 1);
    out->iterations = 0;
}

/* Unit vector along a finite nonzero d (scaled first, so that tiny and huge
 * lengths do not under- or overflow), else NaNs. */
static mk_vec3 unit_of(mk_vec3 d)
{
    const mk_real m = v3_max_abs(d);
    if (!(m > 0) || !isfinite(m))
        return v3(NAN, NAN, NAN);
    const mk_vec3 e = v3_scale(d, 1 / m);
    return v3_scale(e, 1 / v3_len(e));
}

/* Radius about the local origin of a ball holding the whole shape. */
static mk_real holding_radius(const mk_shape *s)
{
    mk_vec3 lo, hi;
    shape_local_bounds(s, &lo, &hi);
    const mk_vec3 c = v3(fmax(fabs(lo.x), fabs(hi.x)), fmax(fabs(lo.y), fabs(hi.y)), fmax(fabs(lo.z), fabs(hi.z)));
    return v3_len(c);
}

/* The core point p joins the simplex as x - p (sx->b is unused: K is the
 * only shape), unless it is there already; 1 when it joined. The caller
 * keeps the count below 4 (a full simplex holds x). */
static int simplex_push(mk_simplex *sx, mk_vec3 x, mk_vec3 p)
{
    for (int i = 0; i < sx->count; ++i)
        if (sx->a[i].x == p.x && sx->a[i].y == p.y && sx->a[i].z == p.z)
            return 0;
    const int m = sx->count;
    sx->a[m] = p;
    sx->b[m] = v3(0, 0, 0);
    sx->w[m] = v3_sub(x, p);
    sx->count = m + 1;
    return 1;
}

/* GJK from the ray's simplex with x fixed, until the simplex is the core's
 * nearest feature to x: no support along v reaches nearer x than the
 * simplex does, to `floor` (a simplex that ended the cast within the
 * tolerance can lie across a box's edge or on a capsule's end point while
 * the nearest point is elsewhere: its direction was up to 1e-2 rad off).
 * Polytope cores and segments finish in a few steps; at most
 * MK_RAY_REFINE. Returns 1 when finished (*v, *v2 then x's offset from the
 * nearest point), counting the steps in *steps. */
static int nearest_feature(const mk_shape *s, mk_vec3 x, mk_real floor, mk_simplex *sx, mk_vec3 *v, mk_real *v2,
                           int *hint, int *steps)
{
    for (int k = 0; k < MK_RAY_REFINE; ++k) {
        const mk_real vl = sqrt(*v2);
        if (!(vl > 0))
            return 0;
        const mk_vec3 vn = v3_scale(*v, 1 / vl);
        const mk_vec3 p = shape_support(s, vn, hint);
        ++*steps;
        if (vl - v3_dot(vn, v3_sub(x, p)) <= floor)
            return 1;
        if (sx->count == 4 || !simplex_push(sx, x, p))
            return 0; /* no new point: stalled */
        simplex_sub sub;
        int inside;
        const mk_vec3 vnew = simplex_solve(sx, &sub, &inside);
        if (inside)
            return 0;
        simplex_commit(sx, &sub);
        *v = vnew;
        *v2 = v3_len2(vnew);
    }
    return 0;
}

/* The outward normal at x (local, within a few tolerances of the surface)
 * of a rounded cylinder, from its core's nearest point (a clamp): the last
 * separating plane's normal n_adv touches a curved surface up to sqrt(2 d
 * R) from x (d: x's distance, R: the radius of curvature), so it is off by
 * up to sqrt(2 d / R), 4e-4 rad at d = 1e-7 and R = 1 (measured on
 * closed-form shapes taking the iterations: 4.5e-4), where the surface's
 * own normal at x is off by about d / R. Other shapes keep n_adv (user
 * shapes, rounded cones). */
static mk_vec3 feature_normal(const mk_shape *s, mk_vec3 x, mk_vec3 n_adv)
{
    if (s->type == MK_SHAPE_CYLINDER && s->radius > 0) {
        const mk_real R = s->u.cylinder.radius, h = s->u.cylinder.half_height, rxy = hypot(x.x, x.y);
        const mk_real k = rxy > R ? R / rxy : 1;
        const mk_vec3 d = v3_sub(x, v3(x.x * k, x.y * k, fmin(fmax(x.z, -h), h)));
        return v3_len(d) > 0.5 * s->radius ? v3_normalize_or(d, n_adv) : n_adv;
    }
    return n_adv;
}

/* ------------------------------------------------------------ closed forms */

/* Where the line s + t r (unit r) lies within R of the origin, [*t0, *t1],
 * from its closest approach (so |s|^2 never cancels against R^2 far
 * away); 0 when it passes farther. */
static int ball_interval(mk_vec3 s, mk_vec3 r, mk_real R, mk_real *t0, mk_real *t1)
{
    const mk_real tc = -v3_dot(s, r);
    const mk_real k = R * R - v3_len2(v3_madd(s, tc, r));
    if (k < 0)
        return 0;
    const mk_real h = sqrt(k);
    *t0 = tc - h, *t1 = tc + h;
    return 1;
}

/* The slab |z| <= h (or |x_i| <= h along one axis: sc, rc the start's and
 * the direction's components), as [*t0, *t1]; 0 when the line misses it. */
static int slab_interval(mk_real sc, mk_real rc, mk_real h, mk_real *t0, mk_real *t1)
{
    if (rc == 0) {
        *t0 = -INFINITY, *t1 = INFINITY;
        return fabs(sc) <= h;
    }
    const mk_real a = (-h - sc) / rc, b = (h - sc) / rc;
    *t0 = a < b ? a : b, *t1 = a < b ? b : a;
    return 1;
}

/* The infinite cylinder x^2 + y^2 <= R^2, as [*t0, *t1]. */
static int tube_interval(mk_vec3 s, mk_vec3 r, mk_real R, mk_real *t0, mk_real *t1)
{
    const mk_real a = r.x * r.x + r.y * r.y;
    if (a == 0) {
        *t0 = -INFINITY, *t1 = INFINITY;
        return s.x * s.x + s.y * s.y <= R * R;
    }
    const mk_real tc = -(s.x * r.x + s.y * r.y) / a;
    const mk_real qx = s.x + tc * r.x, qy = s.y + tc * r.y, k = R * R - (qx * qx + qy * qy);
    if (k < 0)
        return 0;
    const mk_real h = sqrt(k / a);
    *t0 = tc - h, *t1 = tc + h;
    return 1;
}

/* A sharp cone (apex (0, 0, h), base of radius rad at z = -h): the slab
 * |z| <= h met with the double cone x^2 + y^2 <= k^2 (h - z)^2 (k = rad /
 * 2h), whose other nappe lies outside the slab. Along the line, that is
 * f(t) = A t^2 + B t + C >= 0, solved from the point of the line nearest
 * the origin (no cancellation far away): between the roots when A < 0 (a
 * direction outside the cone's aperture), outside them when A > 0 (the
 * slab keeps the one piece in the upper nappe), a half line when A = 0 (a
 * direction along a generator). */
static int cone_interval(mk_real rad, mk_real h, mk_vec3 s, mk_vec3 r, mk_real *t0, mk_real *t1, mk_vec3 *n)
{
    mk_real a0, a1;
    if (!slab_interval(s.z, r.z, h, &a0, &a1))
        return 0;
    const mk_real tc = -v3_dot(s, r);
    const mk_vec3 q = v3_madd(s, tc, r); /* the line's point nearest the origin; t = tc + t' */
    const mk_real k2 = (rad / (2 * h)) * (rad / (2 * h)), w = h - q.z;
    const mk_real A = k2 * r.z * r.z - (r.x * r.x + r.y * r.y);
    const mk_real B = -2 * (k2 * w * r.z + q.x * r.x + q.y * r.y);
    const mk_real C = k2 * w * w - (q.x * q.x + q.y * q.y);
    mk_real lo = -INFINITY, hi = INFINITY; /* one piece of f >= 0 (t') */
    if (A == 0) {
        if (B > 0)
            lo = -C / B;
        else if (B < 0)
            hi = -C / B;
        else if (C < 0)
            return 0;
    } else {
        const mk_real disc = B * B - 4 * A * C;
        if (disc < 0) {
            if (A < 0)
                return 0;
        } else {
            /* the roots without cancellation */
            const mk_real qq = -0.5 * (B + copysign(sqrt(disc), B));
            mk_real x1 = qq / A, x2 = qq != 0 ? C / qq : x1;
            if (x1 > x2) {
                const mk_real tmp = x1;
                x1 = x2, x2 = tmp;
            }
            if (A < 0) {
                lo = x1, hi = x2;
            } else if (r.z < 0) { /* z falls along t: the upper nappe is the far piece */
                lo = x2;
            } else {
                hi = x1;
            }
        }
    }
    lo += tc, hi += tc;
    const mk_real e0 = fmax(a0, lo), e1 = fmin(a1, hi);
    if (!(e0 <= e1))
        return 0;
    *t0 = e0, *t1 = e1;
    const mk_vec3 p = v3_madd(s, e0, r);
    const mk_real rxy = hypot(p.x, p.y), slant = sqrt(4 * h * h + rad * rad);
    if (a0 >= lo) /* through the base (or, at the apex's height, the apex) */
        *n = v3(0, 0, p.z < 0 ? -1 : 1);
    else if (rxy > 0)
        *n = v3(2 * h * p.x / (rxy * slant), 2 * h * p.y / (rxy * slant), rad / slant);
    else
        *n = v3(0, 0, 1); /* the apex: one of its normals */
    return 1;
}

/* Spheres, capsules, and sharp boxes, cylinders, cones and ellipsoids: the line's
 * interval in the shape, [*t0, *t1] (local frame, unit r), and the outward
 * normal at its entry. Returns -1 for the other shapes (the GJK ray cast),
 * 0 when the line misses, 1 with the interval. */
static int closed_interval(const mk_shape *sh, mk_vec3 s, mk_vec3 r, mk_real *t0, mk_real *t1, mk_vec3 *n)
{
    const mk_real rho = sh->radius;
    switch (sh->type) {
    case MK_SHAPE_SPHERE:
        if (!ball_interval(s, r, rho, t0, t1))
            return 0;
        *n = v3_normalize_or(v3_madd(s, *t0, r), v3_neg(r));
        return 1;
    case MK_SHAPE_CAPSULE: {
        /* convex: the hull of the side's and the two end balls' intervals */
        const mk_real h = sh->u.capsule.half_height;
        mk_real a0 = INFINITY, a1 = -INFINITY, b0, b1, c0, c1;
        if (tube_interval(s, r, rho, &b0, &b1) && slab_interval(s.z, r.z, h, &c0, &c1) && fmax(b0, c0) <= fmin(b1, c1))
            a0 = fmax(b0, c0), a1 = fmin(b1, c1);
        for (int e = -1; e <= 1; e += 2)
            if (ball_interval(v3(s.x, s.y, s.z - e * h), r, rho, &b0, &b1))
                a0 = fmin(a0, b0), a1 = fmax(a1, b1);
        if (!(a0 <= a1))
            return 0;
        *t0 = a0, *t1 = a1;
        const mk_vec3 p = v3_madd(s, a0, r);
        *n = v3_normalize_or(v3(p.x, p.y, p.z - fmin(fmax(p.z, -h), h)), v3_neg(r));
        return 1;
    }
    case MK_SHAPE_BOX: {
        if (rho > 0)
            return -1;
        const mk_vec3 hh = sh->u.box.half_extents;
        const mk_real sc[3] = {s.x, s.y, s.z}, rc[3] = {r.x, r.y, r.z}, hc[3] = {hh.x, hh.y, hh.z};
        mk_real lo = -INFINITY, hi = INFINITY;
        int axis = 0;
        for (int i = 0; i < 3; ++i) {
            mk_real a, b;
            if (!slab_interval(sc[i], rc[i], hc[i], &a, &b))
                return 0;
            if (a > lo)
                lo = a, axis = i;
            hi = b < hi ? b : hi;
        }
        if (!(lo <= hi))
            return 0;
        *t0 = lo, *t1 = hi;
        const mk_real sg = rc[axis] > 0 ? -1 : 1;
        *n = v3(axis == 0 ? sg : 0, axis == 1 ? sg : 0, axis == 2 ? sg : 0);
        return 1;
    }
    case MK_SHAPE_CYLINDER: {
        if (rho > 0)
            return -1;
        mk_real a0, a1, b0, b1;
        if (!tube_interval(s, r, sh->u.cylinder.radius, &a0, &a1) ||
            !slab_interval(s.z, r.z, sh->u.cylinder.half_height, &b0, &b1) || !(fmax(a0, b0) <= fmin(a1, b1)))
            return 0;
        *t0 = fmax(a0, b0), *t1 = fmin(a1, b1);
        const mk_vec3 p = v3_madd(s, *t0, r);
        *n = a0 >= b0 ? v3_normalize_or(v3(p.x, p.y, 0), v3_neg(r)) : v3(0, 0, r.z > 0 ? -1 : 1);
        return 1;
    }
    case MK_SHAPE_CONE: {
        if (rho > 0)
            return -1;
        return cone_interval(sh->u.cone.radius, sh->u.cone.half_height, s, r, t0, t1, n);
    }
    case MK_SHAPE_ELLIPSOID: {
        /* the unit ball in coordinates scaled by the radii */
        const mk_vec3 e = sh->u.ellipsoid.radii;
        const mk_vec3 qs = v3(s.x / e.x, s.y / e.y, s.z / e.z), es = v3(r.x / e.x, r.y / e.y, r.z / e.z);
        const mk_real a = v3_len2(es), tc = -v3_dot(qs, es) / a;
        const mk_real k = 1 - v3_len2(v3_madd(qs, tc, es));
        if (k < 0)
            return 0;
        const mk_real h = sqrt(k / a);
        *t0 = tc - h, *t1 = tc + h;
        const mk_vec3 p = v3_madd(s, *t0, r);
        *n = v3_normalize_or(v3(p.x / (e.x * e.x), p.y / (e.y * e.y), p.z / (e.z * e.z)), v3_neg(r));
        return 1;
    }
    default:
        return -1;
    }
}

/* What both entry points start with (ray.h): the unit direction *u and the
 * settings *st (the defaults for NULL), then the checks: MK_OK, or the
 * status of the bad input with its placeholders in *out. */
static mk_status ray_inputs(const mk_shape *shape, const mk_transform *xf, mk_vec3 origin, mk_vec3 dir, mk_real max_t,
                            const mk_ray_settings *settings, mk_ray_result *out, mk_vec3 *u_out,
                            mk_ray_settings *st_out)
{
    if (!out)
        return MK_INVALID_INPUT;
    const mk_vec3 u = *u_out = unit_of(dir);
    const mk_ray_settings *st = st_out;
    *st_out = settings ? *settings : mk_ray_default_settings();
    placeholder(out, MK_INVALID_INPUT, origin, u);
    if (!shape || !xf)
        return MK_INVALID_INPUT;
    const mk_status ss = shape_status(shape);
    if (ss != MK_OK) {
        out->status = ss;
        return ss;
    }
    if (!transform_ok(xf) || !v3_finite(origin) || v3_max_abs(origin) > MK_MAX_COORDINATE || !v3_finite(u) ||
        !(max_t >= 0) || !isfinite(st->tolerance) || !(st->tolerance >= 0) || st->max_iterations < 1 ||
        st->max_iterations > MK_RAY_MAX_ITER_CAP)
        return MK_INVALID_INPUT;
    return MK_OK;
}

mk_status mk_ray_cast(const mk_shape *shape, const mk_transform *xf, mk_vec3 origin, mk_vec3 dir, mk_real max_t,
                      const mk_ray_settings *settings, mk_ray_result *out)
{
    mk_vec3 u;
    mk_ray_settings st;
    const mk_status in = ray_inputs(shape, xf, origin, dir, max_t, settings, out, &u, &st);
    if (in != MK_OK)
        return in;

    /* The ray in the shape's frame. */
    const mk_vec3 s = m3_tmul(&xf->R, v3_sub(origin, xf->p));
    const mk_vec3 r = m3_tmul(&xf->R, u);
    const mk_real rho = shape->radius;
    const mk_real hold = holding_radius(shape);
    const mk_real floor = MK_RAY_FLOOR * DBL_EPSILON * (v3_max_abs(s) + hold);
    const mk_real tol = st.tolerance > floor ? st.tolerance : floor;

    /* Closed forms: exact to rounding, no iterations. The origin inside the
     * interval (or on its boundary) is inside the shape. */
    {
        mk_real t0, t1;
        mk_vec3 n;
        const int cf = closed_interval(shape, s, r, &t0, &t1, &n);
        if (cf >= 0) {
            out->status = MK_RAY_MISS;
            if (cf == 1 && t1 >= 0 && t0 <= 0)
                out->status = MK_RAY_INSIDE;
            else if (cf == 1 && t0 > 0 && t0 <= max_t && isfinite(t0)) { /* (a slab met at infinity: none) */
                out->status = MK_RAY_HIT;
                out->t = t0;
                out->point = v3_madd(origin, t0, u);
                out->normal = v3_normalize_or(m3_mul(&xf->R, n), v3_neg(u));
            }
            return out->status;
        }
    }

    /* The ray meets the shape only where it is within `hold` of the local
     * origin: t <= <-s, r> + hold, and not at all when its closest approach
     * passes farther. */
    const mk_real sr = v3_dot(s, r);
    const mk_real t_near = sr < 0 ? -sr : 0;
    const mk_vec3 closest = v3_madd(s, t_near, r);
    mk_real limit = -sr + hold + tol;
    if (max_t < limit)
        limit = max_t;
    if (v3_len(closest) > hold + tol || limit < 0) {
        out->status = MK_RAY_MISS;
        return MK_RAY_MISS;
    }

    mk_simplex sx;
    int hint = -1;
    mk_real t = 0;
    mk_vec3 x = s;
    mk_vec3 n_adv = v3_neg(r); /* normal of the last separating plane crossed */
    int advanced = 0;
    /* The simplex starts with one point of K (the farthest along s), and v
     * is x's offset from it. */
    sx.a[0] = shape_support(shape, x, &hint);
    sx.b[0] = v3(0, 0, 0);
    sx.w[0] = v3_sub(x, sx.a[0]);
    sx.bary[0] = 1;
    sx.count = 1;
    mk_vec3 v = sx.w[0];
    mk_real v2 = v3_len2(v);
    mk_status status = MK_RAY_MAX_ITER;
    int restarts = 0, idle = 0;
    int k;
    for (k = 0; k < st.max_iterations; ++k) {
        const mk_real vl = sqrt(v2);
        if (!isfinite(vl)) { /* a user support returned a non-finite point */
            status = MK_INVALID_INPUT;
            break;
        }
        if (vl <= rho + tol) {
            status = advanced ? MK_RAY_HIT : MK_RAY_INSIDE;
            break;
        }
        const mk_vec3 vn = v3_scale(v, 1 / vl);
        const mk_vec3 p = shape_support(shape, vn, &hint);
        const mk_vec3 w = v3_sub(x, p);
        const mk_real vw = v3_dot(vn, w);
        if (!isfinite(vw)) {
            status = MK_INVALID_INPUT;
            break;
        }
        int moved = 0;
        if (vw > rho) {
            /* Separating plane: cross it, or miss when the ray does not. */
            const mk_real vr = v3_dot(vn, r);
            if (!(vr < 0)) {
                status = MK_RAY_MISS;
                break;
            }
            const mk_real t_next = t + (vw - rho) / -vr;
            if (!(t_next <= limit)) {
                status = MK_RAY_MISS;
                break;
            }
            t = t_next;
            x = v3_madd(s, t, r);
            n_adv = vn;
            advanced = moved = 1;
            for (int i = 0; i < sx.count; ++i)
                sx.w[i] = v3_sub(x, sx.a[i]);
        }
        /* p joins the simplex (unless it is there already), then the
         * projection. */
        simplex_push(&sx, x, p);
        simplex_sub sub;
        int inside;
        const mk_vec3 vnew = simplex_solve(&sx, &sub, &inside);
        const mk_real vnew2 = inside ? 0 : v3_len2(vnew);
        /* Progress: |v| shrinks, or the ray moved. A curved core's supports
         * can go on improving v's direction while |v| stays put to rounding
         * (a cone's side: rim points converging along the generator), so
         * only MK_RAY_IDLE idle iterations in a row count as a stall. */
        idle = moved || vnew2 < v2 ? 0 : idle + 1;
        if (idle >= MK_RAY_IDLE) {
            /* x is within |v| - rho of C (|v| bounds dist(x, K) from above). */
            if (vl - rho <= MK_RAY_STALL_SLACK * tol) {
                status = advanced ? MK_RAY_HIT : MK_RAY_INSIDE;
                ++k;
                break;
            }
            if (restarts == MK_RAY_RESTARTS) {
                ++k;
                break; /* MK_RAY_MAX_ITER: the ray is clear of the shape up to t */
            }
            /* A sliver simplex (a cone's apex and rim points along one
             * generator) can keep projecting the origin no closer: start
             * again from p alone. */
            ++restarts;
            idle = 0;
            sx.a[0] = p;
            sx.w[0] = w;
            sx.bary[0] = 1;
            sx.count = 1;
            v = w;
            v2 = v3_len2(w);
            continue;
        }
        simplex_commit(&sx, &sub);
        v = inside ? v3(0, 0, 0) : vnew;
        v2 = vnew2;
    }

    out->iterations = k;
    if (status == MK_INVALID_INPUT)
        return MK_INVALID_INPUT; /* the placeholders stay */
    out->status = status;
    if (status == MK_RAY_MISS || status == MK_RAY_INSIDE)
        return status;
    /* HIT or MAX_ITER: the point where the ray stands. */
    out->t = t;
    out->point = v3_madd(origin, t, u);
    if (status == MK_RAY_HIT) {
        /* A rounded shape whose core has no curved part (a rounded box or
         * hull; spheres and capsules take the closed forms) has x's
         * direction from the core's nearest point as its normal (|v| is
         * about rho there, far above rounding): the simplex is finished
         * into the core's nearest feature, x fixed (nearest_feature). A
         * rounded cylinder takes its surface's normal at x
         * (feature_normal). Otherwise it is the last plane the ray crossed:
         * v shrinks to rounding on a face. */
        const int flat_core = shape->type == MK_SHAPE_SPHERE || shape->type == MK_SHAPE_CAPSULE ||
                              shape->type == MK_SHAPE_BOX || shape->type == MK_SHAPE_HULL;
        mk_vec3 n_local = n_adv;
        if (rho > 0 && flat_core) {
            int extra = 0;
            if (nearest_feature(shape, x, floor, &sx, &v, &v2, &hint, &extra) && v2 > 0.25 * rho * rho)
                n_local = v3_scale(v, 1 / sqrt(v2));
            out->iterations += extra;
        } else {
            n_local = feature_normal(shape, x, n_adv);
        }
        out->normal = v3_normalize_or(m3_mul(&xf->R, n_local), v3_neg(u));
    }
    return status;
}

mk_status mk_ray_exit(const mk_shape *shape, const mk_transform *xf, mk_vec3 origin, mk_vec3 dir, mk_real max_t,
                      const mk_ray_settings *settings, mk_ray_result *out)
{
    mk_vec3 u;
    mk_ray_settings st;
    const mk_status in = ray_inputs(shape, xf, origin, dir, max_t, settings, out, &u, &st);
    if (in != MK_OK)
        return in;
    /* Every point of the shape on the ray lies within t <= |origin - centre|
     * + hold: a far end beyond that (by a hair) is outside the shape. */
    const mk_real reach = v3_len(v3_sub(origin, xf->p)) + holding_radius(shape);
    const mk_real back = max_t < reach * (1 + 1e-9) ? max_t : reach * (1 + 1e-9);
    const mk_vec3 far = v3_madd(origin, back, u);
    const mk_status cast = mk_ray_cast(shape, xf, far, v3_neg(u), back, &st, out);
    if (cast == MK_RAY_HIT || cast == MK_RAY_MAX_ITER) {
        out->t = back - out->t;
        out->point = v3_madd(origin, out->t, u);
    } else if (cast == MK_RAY_INSIDE || cast == MK_RAY_MISS) {
        const int iterations = out->iterations;
        placeholder(out, cast, origin, u);
        out->iterations = iterations;
    }
    return cast;
}
