/* Independent truths for the query suites (see oracle.h). Never calls gjk.c. */
#include "oracle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vec.h"

#define OR_PI 3.14159265358979323846

/* ------------------------------------------------------------ random numbers */

or_rng or_rng_make(uint64_t seed)
{
    or_rng r = {seed};
    return r;
}

uint64_t or_test_seed(uint64_t seed)
{
    const char *e = getenv("MK_TEST_SEED");
    uint64_t k = e ? strtoull(e, NULL, 0) : 0;
    if (k == 0)
        return seed;
    /* the committed seed, moved by a splitmix64 step of k (k = 0: unchanged) */
    or_rng r = {k};
    return seed ^ or_next(&r);
}

or_rng or_test_rng(uint64_t seed) { return or_rng_make(or_test_seed(seed)); }

uint64_t or_next(or_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double or_uniform(or_rng *r, double lo, double hi)
{
    double u = (double)(or_next(r) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

int or_int(or_rng *r, int n) { return (int)(or_next(r) % (uint64_t)n); }

mk_vec3 or_in_ball(or_rng *r, double radius)
{
    for (;;) {
        mk_vec3 v = v3(or_uniform(r, -1, 1), or_uniform(r, -1, 1), or_uniform(r, -1, 1));
        if (v3_len2(v) <= 1)
            return v3_scale(v, radius);
    }
}

mk_vec3 or_unit(or_rng *r)
{
    for (;;) {
        mk_vec3 v = or_in_ball(r, 1);
        double l = v3_len(v);
        if (l > 1e-3)
            return v3_scale(v, 1 / l);
    }
}

mk_quat or_quat(or_rng *r)
{
    /* Shoemake, "Uniform random rotations" (Graphics Gems III). */
    double u1 = or_uniform(r, 0, 1), u2 = or_uniform(r, 0, 1), u3 = or_uniform(r, 0, 1);
    double a = sqrt(1 - u1), b = sqrt(u1);
    mk_quat q = {a * sin(2 * OR_PI * u2), a * cos(2 * OR_PI * u2), b * sin(2 * OR_PI * u3),
                 b * cos(2 * OR_PI * u3)};
    return q;
}

/* Own quaternion -> matrix (not mk_transform_from_quat, so a bug there cannot
 * make the inputs and the expectations agree by accident). */
static mk_transform pose_from_quat(mk_vec3 p, mk_quat q)
{
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    double x = q.x / n, y = q.y / n, z = q.z / n, w = q.w / n;
    mk_transform t;
    t.R.m[0][0] = 1 - 2 * (y * y + z * z);
    t.R.m[0][1] = 2 * (x * y - w * z);
    t.R.m[0][2] = 2 * (x * z + w * y);
    t.R.m[1][0] = 2 * (x * y + w * z);
    t.R.m[1][1] = 1 - 2 * (x * x + z * z);
    t.R.m[1][2] = 2 * (y * z - w * x);
    t.R.m[2][0] = 2 * (x * z - w * y);
    t.R.m[2][1] = 2 * (y * z + w * x);
    t.R.m[2][2] = 1 - 2 * (x * x + y * y);
    t.p = p;
    return t;
}

mk_transform or_pose(or_rng *r, mk_vec3 p) { return pose_from_quat(p, or_quat(r)); }

double or_test_scale(void)
{
    const char *e = getenv("MK_TEST_SCALE");
    double s = e ? atof(e) : 1.0;
    return s > 0 && isfinite(s) ? s : 1.0;
}

int or_scaled(int n)
{
    double v = n * or_test_scale();
    return v < 1 ? 1 : (int)(v + 0.5);
}

/* ------------------------------------------------------------ small geometry */

mk_vec3 or_closest_on_segment(mk_vec3 p, mk_vec3 a, mk_vec3 b)
{
    mk_vec3 ab = v3_sub(b, a);
    double l2 = v3_len2(ab);
    if (!(l2 > 0))
        return a;
    double t = v3_dot(v3_sub(p, a), ab) / l2;
    if (t <= 0)
        return a;
    if (t >= 1)
        return b;
    return v3_madd(a, t, ab);
}

mk_vec3 or_closest_on_triangle(mk_vec3 p, mk_vec3 a, mk_vec3 b, mk_vec3 c)
{
    mk_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
    double nn = v3_len2(n);
    if (nn > 0) {
        /* Projection on the plane; inside when the three sub-triangles turn the
         * same way as the triangle. */
        mk_vec3 q = v3_madd(p, -v3_dot(v3_sub(p, a), n) / nn, n);
        double wa = v3_dot(v3_cross(v3_sub(b, q), v3_sub(c, q)), n);
        double wb = v3_dot(v3_cross(v3_sub(c, q), v3_sub(a, q)), n);
        double wc = v3_dot(v3_cross(v3_sub(a, q), v3_sub(b, q)), n);
        if (wa >= 0 && wb >= 0 && wc >= 0)
            return q;
    }
    /* Otherwise the closest point is on the boundary. */
    mk_vec3 best = or_closest_on_segment(p, a, b);
    double bd = v3_len2(v3_sub(p, best));
    mk_vec3 x = or_closest_on_segment(p, b, c);
    double d = v3_len2(v3_sub(p, x));
    if (d < bd) {
        best = x;
        bd = d;
    }
    x = or_closest_on_segment(p, c, a);
    d = v3_len2(v3_sub(p, x));
    if (d < bd)
        best = x;
    return best;
}

static void offer_pair(mk_vec3 p, mk_vec3 q, double *best, mk_vec3 *cp, mk_vec3 *cq)
{
    double d = v3_len2(v3_sub(p, q));
    if (d < *best) {
        *best = d;
        *cp = p;
        *cq = q;
    }
}

double or_segment_segment(mk_vec3 p0, mk_vec3 p1, mk_vec3 q0, mk_vec3 q1, mk_vec3 *cp, mk_vec3 *cq)
{
    double best = INFINITY;
    mk_vec3 bp = p0, bq = q0;
    mk_vec3 d1 = v3_sub(p1, p0), d2 = v3_sub(q1, q0), r = v3_sub(p0, q0);
    double a = v3_dot(d1, d1), e = v3_dot(d2, d2), b = v3_dot(d1, d2);
    double c = v3_dot(d1, r), f = v3_dot(d2, r);
    double den = a * e - b * b;
    /* Interior critical point of |p(s) - q(t)|^2 when the lines are not parallel. */
    if (a > 0 && e > 0 && den > 1e-14 * a * e) {
        double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1)
            offer_pair(v3_madd(p0, s, d1), v3_madd(q0, t, d2), &best, &bp, &bq);
    }
    /* The four edges of the parameter square. */
    offer_pair(p0, or_closest_on_segment(p0, q0, q1), &best, &bp, &bq);
    offer_pair(p1, or_closest_on_segment(p1, q0, q1), &best, &bp, &bq);
    offer_pair(or_closest_on_segment(q0, p0, p1), q0, &best, &bp, &bq);
    offer_pair(or_closest_on_segment(q1, p0, p1), q1, &best, &bp, &bq);
    if (cp)
        *cp = bp;
    if (cq)
        *cq = bq;
    return sqrt(best);
}

int or_segment_triangle(mk_vec3 p, mk_vec3 q, mk_vec3 a, mk_vec3 b, mk_vec3 c, mk_vec3 *hit)
{
    mk_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
    double sp = v3_dot(n, v3_sub(p, a)), sq = v3_dot(n, v3_sub(q, a));
    if ((sp > 0 && sq > 0) || (sp < 0 && sq < 0))
        return 0;
    mk_vec3 x;
    if (sp == sq) { /* in the plane: touching iff the distance is zero */
        mk_vec3 cp, cq;
        if (v3_len2(v3_sub(or_closest_on_triangle(p, a, b, c), p)) == 0) {
            x = p;
        } else if (or_segment_segment(p, q, a, b, &cp, &cq) == 0 || or_segment_segment(p, q, b, c, &cp, &cq) == 0 ||
                   or_segment_segment(p, q, c, a, &cp, &cq) == 0) {
            x = cp;
        } else {
            return 0;
        }
    } else {
        x = v3_lerp(p, q, sp / (sp - sq));
        double wa = v3_dot(v3_cross(v3_sub(b, x), v3_sub(c, x)), n);
        double wb = v3_dot(v3_cross(v3_sub(c, x), v3_sub(a, x)), n);
        double wc = v3_dot(v3_cross(v3_sub(a, x), v3_sub(b, x)), n);
        if (!(wa >= 0 && wb >= 0 && wc >= 0))
            return 0;
    }
    if (hit)
        *hit = x;
    return 1;
}

/* ------------------------------------------------------------ analytic pairs */

static mk_vec3 dir_or(mk_vec3 v, mk_vec3 fallback)
{
    double l = v3_len(v);
    return l > 0 ? v3_scale(v, 1 / l) : fallback;
}

double or_sphere_sphere(mk_vec3 ca, double ra, mk_vec3 cb, double rb, mk_vec3 *pa, mk_vec3 *pb)
{
    mk_vec3 u = dir_or(v3_sub(cb, ca), v3(1, 0, 0));
    if (pa)
        *pa = v3_madd(ca, ra, u);
    if (pb)
        *pb = v3_madd(cb, -rb, u);
    return v3_len(v3_sub(cb, ca)) - ra - rb;
}

double or_aabb_aabb(mk_vec3 lo_a, mk_vec3 hi_a, mk_vec3 lo_b, mk_vec3 hi_b, mk_vec3 *pa, mk_vec3 *pb)
{
    const double la[3] = {lo_a.x, lo_a.y, lo_a.z}, ha[3] = {hi_a.x, hi_a.y, hi_a.z};
    const double lb[3] = {lo_b.x, lo_b.y, lo_b.z}, hb[3] = {hi_b.x, hi_b.y, hi_b.z};
    double a[3], b[3], sum = 0, worst = -INFINITY;
    for (int i = 0; i < 3; ++i) {
        /* separation along axis i (minus the overlap needed to part them) */
        double g = lb[i] - ha[i] > la[i] - hb[i] ? lb[i] - ha[i] : la[i] - hb[i];
        if (lb[i] > ha[i]) {
            a[i] = ha[i];
            b[i] = lb[i];
        } else if (la[i] > hb[i]) {
            a[i] = la[i];
            b[i] = hb[i];
        } else {
            double lo = la[i] > lb[i] ? la[i] : lb[i], hi = ha[i] < hb[i] ? ha[i] : hb[i];
            a[i] = b[i] = 0.5 * (lo + hi);
        }
        if (g > 0)
            sum += g * g;
        if (g > worst)
            worst = g;
    }
    if (pa)
        *pa = v3(a[0], a[1], a[2]);
    if (pb)
        *pb = v3(b[0], b[1], b[2]);
    return worst > 0 ? sqrt(sum) : worst;
}

/* Signed distance from a local point to the box [-h, h] with the closest
 * boundary point. */
static double point_box(mk_vec3 q, mk_vec3 h, mk_vec3 *closest)
{
    double qq[3] = {q.x, q.y, q.z}, hh[3] = {h.x, h.y, h.z}, k[3];
    int inside = 1;
    for (int i = 0; i < 3; ++i) {
        k[i] = qq[i] < -hh[i] ? -hh[i] : qq[i] > hh[i] ? hh[i] : qq[i];
        if (k[i] != qq[i])
            inside = 0;
    }
    if (!inside) {
        mk_vec3 c = v3(k[0], k[1], k[2]);
        if (closest)
            *closest = c;
        return v3_len(v3_sub(q, c));
    }
    /* Inside: the nearest face. */
    int best = 0;
    double depth = INFINITY;
    for (int i = 0; i < 3; ++i) {
        double di = hh[i] - fabs(qq[i]);
        if (di < depth) {
            depth = di;
            best = i;
        }
    }
    k[best] = qq[best] >= 0 ? hh[best] : -hh[best];
    if (closest)
        *closest = v3(k[0], k[1], k[2]);
    return -depth;
}

double or_sphere_box(mk_vec3 c, double r, mk_vec3 half, const mk_transform *xf, mk_vec3 *pa, mk_vec3 *pb)
{
    mk_vec3 q = m3_tmul(&xf->R, v3_sub(c, xf->p)), k;
    double sd = point_box(q, half, &k);
    mk_vec3 kw = xf_apply(xf, k);
    mk_vec3 u = dir_or(v3_sub(kw, c), v3(1, 0, 0));
    if (sd < 0)
        u = v3_neg(u);
    if (pa)
        *pa = v3_madd(c, r, u);
    if (pb)
        *pb = kw;
    return sd - r;
}

double or_capsule_capsule(mk_vec3 a0, mk_vec3 a1, double ra, mk_vec3 b0, mk_vec3 b1, double rb, mk_vec3 *pa,
                          mk_vec3 *pb)
{
    mk_vec3 ca, cb;
    double d = or_segment_segment(a0, a1, b0, b1, &ca, &cb);
    mk_vec3 u = dir_or(v3_sub(cb, ca), v3(1, 0, 0));
    if (pa)
        *pa = v3_madd(ca, ra, u);
    if (pb)
        *pb = v3_madd(cb, -rb, u);
    return d - ra - rb;
}

/* ------------------------------------------------------------ points vs cores */

/* Signed distance from (rho, z), rho >= 0, to the 2-D profile of a solid of
 * revolution given as a polygon whose edges off the axis are listed. */
static double point_profile(double rho, double z, const double (*seg)[4], int nseg, int inside, double *cr,
                            double *cz)
{
    double best = INFINITY;
    for (int i = 0; i < nseg; ++i) {
        mk_vec3 c = or_closest_on_segment(v3(rho, z, 0), v3(seg[i][0], seg[i][1], 0), v3(seg[i][2], seg[i][3], 0));
        double d = hypot(rho - c.x, z - c.y);
        if (d < best) {
            best = d;
            *cr = c.x;
            *cz = c.y;
        }
    }
    return inside ? -best : best;
}

/* Back from the profile plane: the point at radius cr, height cz, in the
 * azimuth of q (any azimuth on the axis). */
static mk_vec3 from_profile(mk_vec3 q, double cr, double cz)
{
    double rho = hypot(q.x, q.y);
    if (rho > 0)
        return v3(cr * q.x / rho, cr * q.y / rho, cz);
    return v3(cr, 0, cz);
}

static double point_cylinder(mk_vec3 q, double r, double h, mk_vec3 *closest)
{
    double rho = hypot(q.x, q.y);
    /* Profile: top cap, side, bottom cap (the axis is not part of the surface). */
    const double seg[3][4] = {{0, h, r, h}, {r, h, r, -h}, {r, -h, 0, -h}};
    int inside = rho <= r && fabs(q.z) <= h;
    double cr = 0, cz = 0;
    double d = point_profile(rho, q.z, seg, 3, inside, &cr, &cz);
    if (closest)
        *closest = from_profile(q, cr, cz);
    return d;
}

static double point_cone(mk_vec3 q, double r, double h, mk_vec3 *closest)
{
    double rho = hypot(q.x, q.y);
    /* Profile: apex (0, h), rim (r, -h), base centre (0, -h); the axis edge is
     * not part of the surface. */
    const double seg[2][4] = {{0, h, r, -h}, {r, -h, 0, -h}};
    int inside = q.z >= -h && q.z <= h && rho * 2 * h <= r * (h - q.z);
    double cr = 0, cz = 0;
    double d = point_profile(rho, q.z, seg, 2, inside, &cr, &cz);
    if (closest)
        *closest = from_profile(q, cr, cz);
    return d;
}

/* Closest point of the ellipsoid surface sum (x_i / e_i)^2 = 1 to q: x_i =
 * e_i^2 q_i / (t + e_i^2) with t the root of F(t) = sum (e_i q_i / (t + e_i^2))^2
 * - 1 on (-e_min^2, inf), where F decreases (Lagrange condition; the same root
 * serves points inside, t < 0, and outside, t > 0). Bisection to the last bit,
 * on s = t + e_min^2: near the plane of the shortest axis the root lies a hair
 * above -e_min^2, which t itself cannot resolve (a centre 1e-17 off that plane
 * put the point 0.04 from the nearest at unit size). */
static double point_ellipsoid(mk_vec3 q, mk_vec3 e, mk_vec3 *closest)
{
    double p[3] = {fabs(q.x), fabs(q.y), fabs(q.z)}, ee[3] = {e.x, e.y, e.z}, sg[3];
    sg[0] = q.x < 0 ? -1 : 1;
    sg[1] = q.y < 0 ? -1 : 1;
    sg[2] = q.z < 0 ? -1 : 1;
    int m = 0;
    for (int i = 1; i < 3; ++i)
        if (ee[i] < ee[m])
            m = i;
    double pn = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    double emax = ee[0] > ee[1] ? ee[0] : ee[1];
    if (ee[2] > emax)
        emax = ee[2];
    double dd[3];
    for (int i = 0; i < 3; ++i)
        dd[i] = i == m ? 0 : ee[i] * ee[i] - ee[m] * ee[m];
    double lo = ee[m] * p[m], hi = emax * pn + ee[m] * ee[m];
    if (hi < lo)
        hi = lo;
    double x[3];
    for (int it = 0; it < 2000; ++it) {
        double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi))
            break;
        double f = -1;
        for (int i = 0; i < 3; ++i) {
            double den = mid + dd[i];
            double t = p[i] > 0 ? ee[i] * p[i] / den : 0;
            f += t * t;
        }
        if (f > 0)
            lo = mid;
        else
            hi = mid;
    }
    double s = 0.5 * (lo + hi);
    double used = 0;
    for (int i = 0; i < 3; ++i) {
        x[i] = p[i] > 0 ? ee[i] * ee[i] * p[i] / (s + dd[i]) : 0;
        if (i != m)
            used += (x[i] / ee[i]) * (x[i] / ee[i]);
    }
    if (p[m] == 0 && used < 1 - 1e-12) /* on the plane of the shortest axis, deep inside */
        x[m] = ee[m] * sqrt(1 - used);
    mk_vec3 c = v3(sg[0] * x[0], sg[1] * x[1], sg[2] * x[2]);
    if (closest)
        *closest = c;
    double level = (q.x / e.x) * (q.x / e.x) + (q.y / e.y) * (q.y / e.y) + (q.z / e.z) * (q.z / e.z);
    double d = v3_len(v3_sub(q, c));
    return level < 1 ? -d : d;
}

/* Signed distance from a local point to the core of s (hull: poly in the local
 * frame, prepared by the caller). */
static double point_core(const mk_shape *s, const or_poly *hull_poly, mk_vec3 q, mk_vec3 *closest)
{
    mk_vec3 c = v3(0, 0, 0);
    double d = NAN;
    switch (s->type) {
    case MK_SHAPE_SPHERE:
        d = v3_len(q);
        break;
    case MK_SHAPE_BOX:
        d = point_box(q, s->u.box.half_extents, &c);
        break;
    case MK_SHAPE_CAPSULE: {
        double h = s->u.capsule.half_height;
        c = or_closest_on_segment(q, v3(0, 0, -h), v3(0, 0, h));
        d = v3_len(v3_sub(q, c));
        break;
    }
    case MK_SHAPE_CYLINDER:
        d = point_cylinder(q, s->u.cylinder.radius, s->u.cylinder.half_height, &c);
        break;
    case MK_SHAPE_CONE:
        d = point_cone(q, s->u.cone.radius, s->u.cone.half_height, &c);
        break;
    case MK_SHAPE_ELLIPSOID:
        d = point_ellipsoid(q, s->u.ellipsoid.radii, &c);
        break;
    case MK_SHAPE_HULL:
        d = or_poly_point_distance(hull_poly, q, &c);
        break;
    default:
        break;
    }
    if (closest)
        *closest = c;
    return d;
}

/* Whole shape: core distance minus radius; the surface point is the core point
 * pushed out by the radius along the outward direction. */
static double point_shape_local(const mk_shape *s, const or_poly *hull_poly, mk_vec3 q, mk_vec3 *closest)
{
    mk_vec3 c;
    double d = point_core(s, hull_poly, q, &c);
    if (closest) {
        mk_vec3 out = d >= 0 ? v3_sub(q, c) : v3_sub(c, q);
        *closest = v3_madd(c, s->radius, dir_or(out, v3(0, 0, 1)));
    }
    return d - s->radius;
}

double or_point_shape(const mk_shape *s, const mk_transform *xf, mk_vec3 p, mk_vec3 *closest)
{
    if (s->type == MK_SHAPE_USER || s->type < 0 || s->type >= MK_SHAPE_USER)
        return NAN;
    or_poly *hp = NULL;
    if (s->type == MK_SHAPE_HULL) {
        hp = or_poly_new();
        or_poly_from_hull(hp, s->u.hull.hull, 0, NULL);
    }
    mk_vec3 q = m3_tmul(&xf->R, v3_sub(p, xf->p)), c;
    double d = point_shape_local(s, hp, q, &c);
    if (closest)
        *closest = xf_apply(xf, c);
    or_poly_free(hp);
    return d;
}

/* ------------------------------------------------------------ support */

static double core_support_value(const mk_shape *s, mk_vec3 d, mk_vec3 *pt)
{
    mk_vec3 p = v3(0, 0, 0);
    double rho = hypot(d.x, d.y);
    switch (s->type) {
    case MK_SHAPE_SPHERE:
        break;
    case MK_SHAPE_BOX: {
        mk_vec3 h = s->u.box.half_extents;
        p = v3(d.x >= 0 ? h.x : -h.x, d.y >= 0 ? h.y : -h.y, d.z >= 0 ? h.z : -h.z);
        break;
    }
    case MK_SHAPE_CAPSULE:
        p = v3(0, 0, d.z >= 0 ? s->u.capsule.half_height : -s->u.capsule.half_height);
        break;
    case MK_SHAPE_CYLINDER: {
        double r = s->u.cylinder.radius, h = s->u.cylinder.half_height;
        p = rho > 0 ? v3(r * d.x / rho, r * d.y / rho, 0) : v3(0, 0, 0);
        p.z = d.z >= 0 ? h : -h;
        break;
    }
    case MK_SHAPE_CONE: {
        double r = s->u.cone.radius, h = s->u.cone.half_height;
        mk_vec3 rim = rho > 0 ? v3(r * d.x / rho, r * d.y / rho, -h) : v3(0, 0, -h);
        p = h * d.z >= v3_dot(rim, d) ? v3(0, 0, h) : rim;
        break;
    }
    case MK_SHAPE_ELLIPSOID: {
        mk_vec3 e = s->u.ellipsoid.radii;
        mk_vec3 ed = v3(e.x * d.x, e.y * d.y, e.z * d.z);
        double l = v3_len(ed);
        p = l > 0 ? v3(e.x * ed.x / l, e.y * ed.y / l, e.z * ed.z / l) : v3(e.x, 0, 0);
        break;
    }
    case MK_SHAPE_HULL: {
        const mk_hull *h = s->u.hull.hull;
        double best = -INFINITY;
        for (int i = 0; i < h->num_vertices; ++i) {
            double v = v3_dot(h->vertices[i], d);
            if (v > best) {
                best = v;
                p = h->vertices[i];
            }
        }
        break;
    }
    case MK_SHAPE_USER:
        p = s->u.user.support(s->u.user.data, d);
        break;
    default:
        p = v3(NAN, NAN, NAN);
        break;
    }
    if (pt)
        *pt = p;
    return v3_dot(p, d);
}

double or_support_value(const mk_shape *s, const mk_transform *xf, mk_vec3 d)
{
    mk_vec3 dl = m3_tmul(&xf->R, d);
    return core_support_value(s, dl, NULL) + s->radius * v3_len(d) + v3_dot(d, xf->p);
}

mk_vec3 or_support_point(const mk_shape *s, const mk_transform *xf, mk_vec3 d)
{
    mk_vec3 dl = m3_tmul(&xf->R, d), p;
    core_support_value(s, dl, &p);
    p = v3_madd(p, s->radius, dir_or(dl, v3(0, 0, 0)));
    return xf_apply(xf, p);
}

/* ------------------------------------------------------------ polytopes */

/* A few freed polytopes are kept for the next: each is ~70 KB, and freeing
 * two at the heap's top made malloc return the memory (brk) and take it back
 * at the next oracle call, ~40 us a brk in Check's forked test processes
 * (test_collide spent 3 of its 4.4 s there). Single-threaded, as the suites. */
#define OR_POLY_SPARES 4
static or_poly *poly_spare[OR_POLY_SPARES];
static int poly_spares;

or_poly *or_poly_new(void)
{
    or_poly *p = poly_spares > 0 ? poly_spare[--poly_spares] : malloc(sizeof *p);
    if (!p)
        abort();
    p->nv = p->nf = p->ne = 0;
    p->face_start[0] = 0;
    return p;
}

void or_poly_free(or_poly *p)
{
    if (p && poly_spares < OR_POLY_SPARES)
        poly_spare[poly_spares++] = p;
    else
        free(p);
}

static mk_vec3 poly_centroid(const or_poly *p)
{
    mk_vec3 c = v3(0, 0, 0);
    for (int i = 0; i < p->nv; ++i)
        c = v3_add(c, p->v[i]);
    return p->nv ? v3_scale(c, 1.0 / p->nv) : c;
}

/* Newell normal of face f (unnormalised; points out for counter-clockwise). */
static mk_vec3 newell(const or_poly *p, int f)
{
    mk_vec3 n = v3(0, 0, 0);
    int s = p->face_start[f], e = p->face_start[f + 1];
    for (int i = s; i < e; ++i) {
        mk_vec3 a = p->v[p->face_idx[i]], b = p->v[p->face_idx[i + 1 < e ? i + 1 : s]];
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    return n;
}

/* Planes and bounding spheres from the vertices. */
static void poly_planes(or_poly *p)
{
    for (int f = 0; f < p->nf; ++f) {
        int s = p->face_start[f], e = p->face_start[f + 1];
        mk_vec3 n = dir_or(newell(p, f), v3(0, 0, 1)), c = v3(0, 0, 0);
        double off = -INFINITY;
        for (int i = s; i < e; ++i) {
            mk_vec3 v = p->v[p->face_idx[i]];
            c = v3_add(c, v);
            double o = v3_dot(n, v);
            if (o > off)
                off = o;
        }
        c = v3_scale(c, 1.0 / (e - s));
        double r = 0;
        for (int i = s; i < e; ++i) {
            double l = v3_len(v3_sub(p->v[p->face_idx[i]], c));
            if (l > r)
                r = l;
        }
        p->fn[f] = n;
        p->fd[f] = off;
        p->fc[f] = c;
        p->fr[f] = r * (1 + 1e-12);
    }
}

/* Orient faces outward (reverse those whose Newell normal points to the
 * centroid), then build edges with their two faces. Returns 0 unless every edge
 * has exactly two faces. */
static int poly_finish(or_poly *p)
{
    mk_vec3 c = poly_centroid(p);
    for (int f = 0; f < p->nf; ++f) {
        int s = p->face_start[f], e = p->face_start[f + 1];
        mk_vec3 fc = p->v[p->face_idx[s]];
        if (v3_dot(newell(p, f), v3_sub(fc, c)) < 0)
            for (int i = s, j = e - 1; i < j; ++i, --j) {
                int t = p->face_idx[i];
                p->face_idx[i] = p->face_idx[j];
                p->face_idx[j] = t;
            }
    }
    poly_planes(p);
    /* Pair each directed face edge u->w with its twin w->u through per-vertex
     * lists of the edges created so far (keyed by their first vertex). */
    int head[OR_POLY_MAX_V], next[OR_POLY_MAX_E];
    for (int i = 0; i < p->nv; ++i)
        head[i] = -1;
    p->ne = 0;
    int ok = 1;
    for (int f = 0; f < p->nf; ++f) {
        int s = p->face_start[f], e = p->face_start[f + 1];
        for (int i = s; i < e; ++i) {
            int u = p->face_idx[i], w = p->face_idx[i + 1 < e ? i + 1 : s];
            int found = -1;
            for (int k = head[w]; k >= 0; k = next[k])
                if (p->edge[k][1] == u) {
                    found = k;
                    break;
                }
            if (found >= 0) {
                if (p->edge_face[found][1] != -1)
                    ok = 0;
                p->edge_face[found][1] = f;
            } else if (p->ne < OR_POLY_MAX_E) {
                int k = p->ne++;
                p->edge[k][0] = u;
                p->edge[k][1] = w;
                p->edge_face[k][0] = f;
                p->edge_face[k][1] = -1;
                next[k] = head[u];
                head[u] = k;
            } else {
                ok = 0;
            }
        }
    }
    for (int k = 0; k < p->ne; ++k)
        if (p->edge_face[k][1] < 0)
            ok = 0;
    return ok;
}

static int add_face(or_poly *p, const int *idx, int n)
{
    if (p->nf >= OR_POLY_MAX_F || p->face_start[p->nf] + n > OR_POLY_MAX_FI)
        return 0;
    int s = p->face_start[p->nf];
    for (int i = 0; i < n; ++i)
        p->face_idx[s + i] = idx[i];
    p->face_start[++p->nf] = s + n;
    return 1;
}

int or_poly_from_points(or_poly *out, const mk_vec3 *pts, int n)
{
    /* Drop exact duplicates first. */
    mk_vec3 *u = malloc(sizeof *u * (size_t)(n > 0 ? n : 1));
    int nu = 0;
    for (int i = 0; i < n; ++i) {
        int dup = 0;
        for (int j = 0; j < nu && !dup; ++j)
            dup = u[j].x == pts[i].x && u[j].y == pts[i].y && u[j].z == pts[i].z;
        if (!dup)
            u[nu++] = pts[i];
    }
    out->nv = out->nf = out->ne = 0;
    out->face_start[0] = 0;
    if (nu < 4 || nu > OR_POLY_MAX_V) {
        free(u);
        return 0;
    }
    mk_vec3 c = v3(0, 0, 0);
    for (int i = 0; i < nu; ++i)
        c = v3_add(c, u[i]);
    c = v3_scale(c, 1.0 / nu);
    double scale = 0;
    for (int i = 0; i < nu; ++i)
        if (v3_len(v3_sub(u[i], c)) > scale)
            scale = v3_len(v3_sub(u[i], c));
    const double eps = 1e-10 * scale;
    int ok = 1;
    int *used = calloc((size_t)nu, sizeof *used);
    int *faces = malloc(sizeof *faces * 3 * OR_POLY_MAX_F);
    int nf = 0;
    /* A triple is a facet when every other point is strictly on one side. */
    for (int i = 0; i < nu && ok; ++i)
        for (int j = i + 1; j < nu && ok; ++j)
            for (int k = j + 1; k < nu && ok; ++k) {
                mk_vec3 nrm = v3_cross(v3_sub(u[j], u[i]), v3_sub(u[k], u[i]));
                double ln = v3_len(nrm);
                if (!(ln > 1e-14 * scale * scale))
                    continue;
                nrm = v3_scale(nrm, 1 / ln);
                int pos = 0, neg = 0, flat = 0;
                for (int m = 0; m < nu; ++m) {
                    if (m == i || m == j || m == k)
                        continue;
                    double s = v3_dot(nrm, v3_sub(u[m], u[i]));
                    if (s > eps)
                        pos = 1;
                    else if (s < -eps)
                        neg = 1;
                    else
                        flat = 1;
                    if (pos && neg)
                        break;
                }
                if (pos && neg)
                    continue;
                if (flat || nf >= OR_POLY_MAX_F) { /* not in general position */
                    ok = 0;
                    break;
                }
                faces[3 * nf] = i;
                faces[3 * nf + 1] = pos ? k : j;
                faces[3 * nf + 2] = pos ? j : k;
                used[i] = used[j] = used[k] = 1;
                ++nf;
            }
    if (ok) {
        int *map = malloc(sizeof *map * (size_t)nu);
        for (int i = 0; i < nu; ++i) {
            map[i] = used[i] ? out->nv : -1;
            if (used[i])
                out->v[out->nv++] = u[i];
        }
        for (int f = 0; f < nf && ok; ++f) {
            int idx[3] = {map[faces[3 * f]], map[faces[3 * f + 1]], map[faces[3 * f + 2]]};
            ok = add_face(out, idx, 3);
        }
        free(map);
        ok = ok && poly_finish(out) && out->nv - out->ne + out->nf == 2;
    }
    free(faces);
    free(used);
    free(u);
    return ok;
}

#define FAIL_WHY(msg)                                                                                              \
    do {                                                                                                           \
        if (why)                                                                                                   \
            *why = (msg);                                                                                          \
        return 0;                                                                                                  \
    } while (0)

int or_poly_from_hull(or_poly *out, const mk_hull *h, int verify, const char **why)
{
    out->nv = out->nf = out->ne = 0;
    out->face_start[0] = 0;
    if (!h || h->num_vertices > OR_POLY_MAX_V || h->num_faces > OR_POLY_MAX_F)
        FAIL_WHY("missing or too large for the oracle");
    out->nv = h->num_vertices;
    for (int i = 0; i < h->num_vertices; ++i)
        out->v[i] = h->vertices[i];
    int ok = 1;
    for (int f = 0; f < h->num_faces && ok; ++f) {
        int s = h->face_start[f], e = h->face_start[f + 1];
        ok = e - s >= 3 && add_face(out, h->face_vertices + s, e - s);
        for (int i = s; i < e && ok; ++i)
            ok = h->face_vertices[i] >= 0 && h->face_vertices[i] < h->num_vertices;
    }
    if (!ok)
        FAIL_WHY("face with fewer than 3 vertices or a bad vertex index");
    if (!verify) {
        poly_planes(out);
        /* Edges are only needed by the pair oracles; build them quietly. */
        poly_finish(out);
        return 1;
    }
    /* Verification: the given orientation must already be outward. */
    mk_vec3 c = poly_centroid(out);
    for (int f = 0; f < out->nf; ++f)
        if (v3_dot(newell(out, f), v3_sub(out->v[out->face_idx[out->face_start[f]]], c)) <= 0)
            FAIL_WHY("face not counter-clockwise seen from outside");
    if (!poly_finish(out))
        FAIL_WHY("an edge without exactly two faces");
    if (out->nv - out->ne + out->nf != 2)
        FAIL_WHY("Euler characteristic not 2 (unused vertices?)");
    double scale = 0;
    for (int i = 0; i < out->nv; ++i)
        if (v3_len(v3_sub(out->v[i], c)) > scale)
            scale = v3_len(v3_sub(out->v[i], c));
    const double eps = 1e-9 * scale;
    for (int f = 0; f < out->nf; ++f) {
        int s = out->face_start[f], e = out->face_start[f + 1];
        /* planar and convex: every vertex on the plane, every corner turning left */
        for (int i = s; i < e; ++i) {
            mk_vec3 a = out->v[out->face_idx[i]];
            mk_vec3 b = out->v[out->face_idx[i + 1 < e ? i + 1 : s]];
            mk_vec3 d = out->v[out->face_idx[i + 2 < e ? i + 2 : s + (i + 2 - e)]];
            if (fabs(v3_dot(out->fn[f], a) - out->fd[f]) > eps)
                FAIL_WHY("non-planar face");
            if (v3_dot(v3_cross(v3_sub(b, a), v3_sub(d, b)), out->fn[f]) < -eps * scale)
                FAIL_WHY("non-convex face");
        }
        for (int i = 0; i < out->nv; ++i)
            if (v3_dot(out->fn[f], out->v[i]) > out->fd[f] + eps)
                FAIL_WHY("a vertex above a face plane");
    }
    return 1;
}

#undef FAIL_WHY

static void poly_reset(or_poly *p)
{
    p->nv = p->nf = p->ne = 0;
    p->face_start[0] = 0;
}

void or_poly_box(or_poly *out, mk_vec3 h)
{
    poly_reset(out);
    for (int i = 0; i < 8; ++i)
        out->v[i] = v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    out->nv = 8;
    /* The six faces by their fixed bit; orientation is fixed by poly_finish. */
    static const int faces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                    {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
    for (int f = 0; f < 6; ++f)
        add_face(out, faces[f], 4);
    poly_finish(out);
}

void or_poly_prism(or_poly *out, double r, double h, int n)
{
    poly_reset(out);
    if (n > OR_POLY_MAX_V / 2)
        n = OR_POLY_MAX_V / 2;
    if (n < 3)
        n = 3;
    int ring[OR_POLY_MAX_V / 2] = {0};
    for (int i = 0; i < n; ++i) {
        double a = 2 * OR_PI * i / n;
        out->v[i] = v3(r * cos(a), r * sin(a), -h);
        out->v[n + i] = v3(r * cos(a), r * sin(a), h);
    }
    out->nv = 2 * n;
    for (int i = 0; i < n; ++i)
        ring[i] = i;
    add_face(out, ring, n);
    for (int i = 0; i < n; ++i)
        ring[i] = n + i;
    add_face(out, ring, n);
    for (int i = 0; i < n; ++i) {
        int q[4] = {i, (i + 1) % n, n + (i + 1) % n, n + i};
        add_face(out, q, 4);
    }
    poly_finish(out);
}

void or_poly_pyramid(or_poly *out, double r, double h, int n)
{
    poly_reset(out);
    if (n > OR_POLY_MAX_V - 1)
        n = OR_POLY_MAX_V - 1;
    if (n < 3)
        n = 3;
    int ring[OR_POLY_MAX_V] = {0};
    for (int i = 0; i < n; ++i) {
        double a = 2 * OR_PI * i / n;
        out->v[i] = v3(r * cos(a), r * sin(a), -h);
        ring[i] = i;
    }
    out->v[n] = v3(0, 0, h);
    out->nv = n + 1;
    add_face(out, ring, n);
    for (int i = 0; i < n; ++i) {
        int t[3] = {i, (i + 1) % n, n};
        add_face(out, t, 3);
    }
    poly_finish(out);
}

void or_poly_segment(or_poly *out, mk_vec3 a, mk_vec3 b)
{
    poly_reset(out);
    out->v[0] = a;
    out->v[1] = b;
    out->nv = 2;
    out->edge[0][0] = 0;
    out->edge[0][1] = 1;
    out->edge_face[0][0] = out->edge_face[0][1] = -1;
    out->ne = 1;
}

void or_poly_point(or_poly *out, mk_vec3 a)
{
    poly_reset(out);
    out->v[0] = a;
    out->nv = 1;
}

void or_poly_transform(or_poly *out, const or_poly *in, const mk_transform *xf)
{
    out->nv = in->nv;
    out->nf = in->nf;
    out->ne = in->ne;
    for (int i = 0; i < in->nv; ++i)
        out->v[i] = xf_apply(xf, in->v[i]);
    memcpy(out->face_start, in->face_start, sizeof(int) * (size_t)(in->nf + 1));
    memcpy(out->face_idx, in->face_idx, sizeof(int) * (size_t)in->face_start[in->nf]);
    memcpy(out->edge, in->edge, sizeof(int[2]) * (size_t)in->ne);
    memcpy(out->edge_face, in->edge_face, sizeof(int[2]) * (size_t)in->ne);
    poly_planes(out);
}

/* Closest point of face f (a convex polygon, fanned into triangles) to q. */
static mk_vec3 closest_on_face(const or_poly *p, int f, mk_vec3 q)
{
    int s = p->face_start[f], e = p->face_start[f + 1];
    mk_vec3 a = p->v[p->face_idx[s]], best = a;
    double bd = INFINITY;
    for (int i = s + 1; i + 1 < e; ++i) {
        mk_vec3 c = or_closest_on_triangle(q, a, p->v[p->face_idx[i]], p->v[p->face_idx[i + 1]]);
        double d = v3_len2(v3_sub(c, q));
        if (d < bd) {
            bd = d;
            best = c;
        }
    }
    return best;
}

double or_poly_point_distance(const or_poly *p, mk_vec3 q, mk_vec3 *closest)
{
    mk_vec3 best = p->v[0];
    if (p->nf == 0) { /* a point or a segment */
        if (p->nv == 2)
            best = or_closest_on_segment(q, p->v[0], p->v[1]);
        if (closest)
            *closest = best;
        return v3_len(v3_sub(q, best));
    }
    double worst = -INFINITY;
    int wf = 0;
    for (int f = 0; f < p->nf; ++f) {
        double s = v3_dot(p->fn[f], q) - p->fd[f];
        if (s > worst) {
            worst = s;
            wf = f;
        }
    }
    if (worst <= 0) { /* inside: the nearest face plane */
        if (closest)
            *closest = v3_madd(q, -worst, p->fn[wf]);
        return worst;
    }
    double bd = INFINITY;
    for (int f = 0; f < p->nf; ++f) {
        double lb = v3_len(v3_sub(q, p->fc[f])) - p->fr[f];
        if (lb > 0 && lb * lb >= bd)
            continue;
        mk_vec3 c = closest_on_face(p, f, q);
        double d = v3_len2(v3_sub(c, q));
        if (d < bd) {
            bd = d;
            best = c;
        }
    }
    if (closest)
        *closest = best;
    return sqrt(bd);
}

/* Separation of a and b along L (either orientation): > 0 means a gap. */
static double separation(const or_poly *a, const or_poly *b, mk_vec3 L, int *flip)
{
    double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
    for (int i = 0; i < a->nv; ++i) {
        double v = v3_dot(L, a->v[i]);
        amin = v < amin ? v : amin;
        amax = v > amax ? v : amax;
    }
    for (int i = 0; i < b->nv; ++i) {
        double v = v3_dot(L, b->v[i]);
        bmin = v < bmin ? v : bmin;
        bmax = v > bmax ? v : bmax;
    }
    double s1 = bmin - amax, s2 = amin - bmax;
    *flip = s2 > s1;
    return s1 > s2 ? s1 : s2;
}

/* Whether the Gauss-map arcs (a, b) and (c, d) cross: each pair separates the
 * other's great circle, and both crossing points are the same (not antipodal). */
static int arcs_cross(mk_vec3 a, mk_vec3 b, mk_vec3 c, mk_vec3 d)
{
    mk_vec3 u = v3_cross(a, b), v = v3_cross(c, d);
    double cu = v3_dot(c, u), du = v3_dot(d, u), av = v3_dot(a, v), bv = v3_dot(b, v);
    if (!(cu * du < 0) || !(av * bv < 0))
        return 0;
    /* x on arc cd in the plane of ab; y on arc ab in the plane of cd. */
    mk_vec3 x = cu > 0 ? v3_sub(v3_scale(d, cu), v3_scale(c, du)) : v3_sub(v3_scale(c, du), v3_scale(d, cu));
    mk_vec3 y = av > 0 ? v3_sub(v3_scale(b, av), v3_scale(a, bv)) : v3_sub(v3_scale(a, bv), v3_scale(b, av));
    return v3_dot(x, y) > 0;
}

/* With stop_positive, return as soon as some axis separates. */
static double sat_impl(const or_poly *a, const or_poly *b, or_sat_mode mode, mk_vec3 *axis, int stop_positive)
{
    double best = -INFINITY;
    mk_vec3 bax = v3(1, 0, 0);
    int flip;
    /* Face normals of both. */
    for (int k = 0; k < 2; ++k) {
        const or_poly *p = k ? b : a;
        for (int f = 0; f < p->nf; ++f) {
            double s = separation(a, b, p->fn[f], &flip);
            if (s > best) {
                best = s;
                bax = flip ? v3_neg(p->fn[f]) : p->fn[f];
            }
            if (stop_positive && best > 0)
                goto done;
        }
    }
    /* Edge x edge. */
    for (int i = 0; i < a->ne; ++i) {
        mk_vec3 ea = v3_sub(a->v[a->edge[i][1]], a->v[a->edge[i][0]]);
        int ga = a->edge_face[i][0] >= 0 && a->edge_face[i][1] >= 0;
        for (int j = 0; j < b->ne; ++j) {
            if (mode == OR_SAT_GAUSS && ga && b->edge_face[j][0] >= 0 && b->edge_face[j][1] >= 0 &&
                !arcs_cross(a->fn[a->edge_face[i][0]], a->fn[a->edge_face[i][1]], v3_neg(b->fn[b->edge_face[j][0]]),
                            v3_neg(b->fn[b->edge_face[j][1]])))
                continue;
            mk_vec3 eb = v3_sub(b->v[b->edge[j][1]], b->v[b->edge[j][0]]);
            mk_vec3 L = v3_cross(ea, eb);
            double l = v3_len(L);
            if (!(l > 1e-12 * v3_len(ea) * v3_len(eb)))
                continue; /* parallel edges span no face of the difference */
            L = v3_scale(L, 1 / l);
            double s = separation(a, b, L, &flip);
            if (s > best) {
                best = s;
                bax = flip ? v3_neg(L) : L;
            }
            if (stop_positive && best > 0)
                goto done;
        }
    }
done:
    if (axis)
        *axis = bax;
    return best;
}

double or_poly_sat(const or_poly *a, const or_poly *b, or_sat_mode mode, mk_vec3 *axis)
{
    return sat_impl(a, b, mode, axis, 0);
}

typedef struct feat_best {
    double d2;
    mk_vec3 pa, pb;
} feat_best;

static void feat_offer(feat_best *fb, mk_vec3 pa, mk_vec3 pb)
{
    double d = v3_len2(v3_sub(pa, pb));
    if (d < fb->d2) {
        fb->d2 = d;
        fb->pa = pa;
        fb->pb = pb;
    }
}

/* Vertices of p against faces (or edges, for a face-less q) of q. */
static void vertices_vs(const or_poly *p, const or_poly *q, int p_is_a, feat_best *fb)
{
    for (int i = 0; i < p->nv; ++i) {
        mk_vec3 v = p->v[i];
        if (q->nf > 0) {
            for (int f = 0; f < q->nf; ++f) {
                double lb = v3_len(v3_sub(v, q->fc[f])) - q->fr[f];
                if (lb > 0 && lb * lb >= fb->d2)
                    continue;
                mk_vec3 c = closest_on_face(q, f, v);
                if (p_is_a)
                    feat_offer(fb, v, c);
                else
                    feat_offer(fb, c, v);
            }
        } else if (p->ne == 0 || q->ne == 0) {
            /* point against segment or point (segment-segment is edge-edge) */
            mk_vec3 c = q->ne ? or_closest_on_segment(v, q->v[0], q->v[1]) : q->v[0];
            if (p_is_a)
                feat_offer(fb, v, c);
            else
                feat_offer(fb, c, v);
        }
    }
}

double or_poly_distance(const or_poly *a, const or_poly *b, or_sat_mode mode, mk_vec3 *pa, mk_vec3 *pb)
{
    int solid = a->nf > 0 || b->nf > 0;
    if (solid) {
        double sep = sat_impl(a, b, mode, NULL, 1);
        if (sep <= 0) {
            if (pa)
                *pa = poly_centroid(a);
            if (pb)
                *pb = poly_centroid(b);
            return sep;
        }
    }
    feat_best fb = {INFINITY, a->v[0], b->v[0]};
    for (int i = 0; i < a->nv; ++i)
        for (int j = 0; j < b->nv; ++j)
            feat_offer(&fb, a->v[i], b->v[j]);
    vertices_vs(a, b, 1, &fb);
    vertices_vs(b, a, 0, &fb);
    for (int i = 0; i < a->ne; ++i) {
        mk_vec3 a0 = a->v[a->edge[i][0]], a1 = a->v[a->edge[i][1]];
        mk_vec3 ma = v3_scale(v3_add(a0, a1), 0.5);
        double ra = 0.5 * v3_len(v3_sub(a1, a0)) * (1 + 1e-12);
        for (int j = 0; j < b->ne; ++j) {
            mk_vec3 b0 = b->v[b->edge[j][0]], b1 = b->v[b->edge[j][1]];
            mk_vec3 mb = v3_scale(v3_add(b0, b1), 0.5);
            double lb = v3_len(v3_sub(ma, mb)) - ra - 0.5 * v3_len(v3_sub(b1, b0)) * (1 + 1e-12);
            if (lb > 0 && lb * lb >= fb.d2)
                continue;
            mk_vec3 cp, cq;
            or_segment_segment(a0, a1, b0, b1, &cp, &cq);
            feat_offer(&fb, cp, cq);
        }
    }
    if (pa)
        *pa = fb.pa;
    if (pb)
        *pb = fb.pb;
    return sqrt(fb.d2);
}

/* ------------------------------------------------------------ shape pairs */

int or_shape_core_poly(const mk_shape *s, const mk_transform *xf, or_poly *out)
{
    switch (s->type) {
    case MK_SHAPE_SPHERE:
        or_poly_point(out, xf->p);
        return 1;
    case MK_SHAPE_CAPSULE: {
        double h = s->u.capsule.half_height;
        or_poly_segment(out, xf_apply(xf, v3(0, 0, -h)), xf_apply(xf, v3(0, 0, h)));
        return 1;
    }
    case MK_SHAPE_BOX: {
        or_poly_box(out, s->u.box.half_extents);
        for (int i = 0; i < out->nv; ++i)
            out->v[i] = xf_apply(xf, out->v[i]);
        poly_planes(out);
        return 1;
    }
    case MK_SHAPE_HULL:
        or_poly_from_hull(out, s->u.hull.hull, 0, NULL);
        for (int i = 0; i < out->nv; ++i)
            out->v[i] = xf_apply(xf, out->v[i]);
        poly_planes(out);
        return 1;
    default:
        return 0;
    }
}

/* Sphere A against anything B (exact point oracle). */
static double sphere_vs(const mk_shape *sph, const mk_transform *xs, const mk_shape *o, const mk_transform *xo,
                        mk_vec3 *ps, mk_vec3 *po)
{
    mk_vec3 c = xs->p, cl;
    double d = or_point_shape(o, xo, c, &cl);
    mk_vec3 u = dir_or(v3_sub(cl, c), v3(1, 0, 0));
    if (d + sph->radius < 0)
        u = v3_neg(u);
    *ps = v3_madd(c, sph->radius, u);
    *po = cl;
    return d - sph->radius;
}

int or_exact_distance(const mk_shape *a, const mk_transform *xa, const mk_shape *b, const mk_transform *xb,
                      double *d, mk_vec3 *pa, mk_vec3 *pb)
{
    mk_vec3 wa, wb;
    if (a->type == MK_SHAPE_SPHERE && b->type != MK_SHAPE_USER) {
        *d = sphere_vs(a, xa, b, xb, &wa, &wb);
    } else if (b->type == MK_SHAPE_SPHERE && a->type != MK_SHAPE_USER) {
        *d = sphere_vs(b, xb, a, xa, &wb, &wa);
    } else {
        or_poly *ca = or_poly_new(), *cb = or_poly_new();
        int ok = or_shape_core_poly(a, xa, ca) && or_shape_core_poly(b, xb, cb);
        if (ok) {
            mk_vec3 qa, qb;
            double dc = or_poly_distance(ca, cb, OR_SAT_GAUSS, &qa, &qb);
            mk_vec3 u = dir_or(v3_sub(qb, qa), v3(1, 0, 0));
            wa = v3_madd(qa, a->radius, u);
            wb = v3_madd(qb, -b->radius, u);
            *d = dc - a->radius - b->radius;
        }
        or_poly_free(ca);
        or_poly_free(cb);
        if (!ok)
            return 0;
    }
    if (pa)
        *pa = wa;
    if (pb)
        *pb = wb;
    return 1;
}

/* Projection of a world point on a posed shape (the point itself inside). */
static mk_vec3 project(const mk_shape *s, const mk_transform *xf, const or_poly *hp, mk_vec3 p, double *sd)
{
    mk_vec3 q = m3_tmul(&xf->R, v3_sub(p, xf->p)), c;
    *sd = point_shape_local(s, hp, q, &c);
    return *sd <= 0 ? p : xf_apply(xf, c);
}

or_bracket or_bracket_distance(const mk_shape *a, const mk_transform *xa, const mk_shape *b,
                               const mk_transform *xb, int iterations)
{
    or_poly *ha = NULL, *hb = NULL;
    if (a->type == MK_SHAPE_HULL) {
        ha = or_poly_new();
        or_poly_from_hull(ha, a->u.hull.hull, 0, NULL);
    }
    if (b->type == MK_SHAPE_HULL) {
        hb = or_poly_new();
        or_poly_from_hull(hb, b->u.hull.hull, 0, NULL);
    }
    or_bracket r = {0, INFINITY, 0, 0, xa->p, xb->p};
    /* Alternating projections from a point inside B's core: its origin, or
     * a hull's centroid (a hull's frame origin may lie outside it: a
     * 7-vertex hull 0.059 from a cone, its origin inside the cone, was
     * called overlapping, test_collide at MK_TEST_SCALE=1000). */
    mk_vec3 pb = b->type == MK_SHAPE_HULL ? xf_apply(xb, b->u.hull.hull->centroid) : xb->p, pa = xa->p;
    double sd;
    for (int it = 0; it < iterations; ++it) {
        pa = project(a, xa, ha, pb, &sd);
        if (sd <= 0) { /* pb is in A as well */
            r.overlap = 1;
            pa = pb;
            break;
        }
        pb = project(b, xb, hb, pa, &sd);
        if (sd <= 0) {
            r.overlap = 1;
            pb = pa;
            break;
        }
        double hi = v3_len(v3_sub(pb, pa));
        if (hi < r.hi) {
            r.hi = hi;
            r.pa = pa;
            r.pb = pb;
        }
        /* Plane through the pair: the gap between the supports is a lower bound. */
        mk_vec3 n = v3_scale(v3_sub(pb, pa), 1 / hi);
        double lo = -or_support_value(b, xb, v3_neg(n)) - or_support_value(a, xa, n);
        if (lo > r.lo)
            r.lo = lo;
        if (r.hi - r.lo <= 1e-13 * (1 + r.hi))
            break;
    }
    if (r.overlap) {
        r.lo = r.hi = 0;
        r.pa = pa;
        r.pb = pb;
        /* How deep is the overlap at least: the deepest of a few common points. */
        mk_vec3 cand[4] = {pa, xa->p, xb->p, v3_scale(v3_add(xa->p, xb->p), 0.5)};
        r.depth = 0;
        for (int i = 0; i < 4; ++i) {
            double sa, sb;
            project(a, xa, ha, cand[i], &sa);
            project(b, xb, hb, cand[i], &sb);
            double d = -(sa > sb ? sa : sb);
            if (d > r.depth)
                r.depth = d;
        }
    }
    if (r.lo > r.hi)
        r.lo = r.hi;
    or_poly_free(ha);
    or_poly_free(hb);
    return r;
}

/* ------------------------------------------------------------ random shapes */

const char *or_family_name(or_family f)
{
    static const char *names[OR_FAMILY_COUNT] = {"sphere",         "box",          "capsule",
                                                 "cylinder",       "cone",         "ellipsoid",
                                                 "hull12",         "hull60",       "rounded box",
                                                 "rounded cylinder", "rounded cone", "rounded hull"};
    return f >= 0 && f < OR_FAMILY_COUNT ? names[f] : "?";
}

/* Points of a random blob: some on a random ellipsoid surface, some inside. */
static void blob_points(or_rng *r, int n, mk_vec3 *pts)
{
    mk_vec3 ax = v3(or_uniform(r, 0.3, 1.2), or_uniform(r, 0.3, 1.2), or_uniform(r, 0.3, 1.2));
    for (int i = 0; i < n; ++i) {
        mk_vec3 u = or_unit(r);
        double s = or_uniform(r, 0, 1) < 0.7 ? 1 : or_uniform(r, 0.2, 1);
        pts[i] = v3(ax.x * u.x * s, ax.y * u.y * s, ax.z * u.z * s);
    }
}

mk_status or_hull_pool_make(or_hull_pool *pool, or_rng *r, int count, int npoints)
{
    memset(pool, 0, sizeof *pool);
    pool->error = "";
    if (count > 64)
        count = 64;
    mk_vec3 pts[OR_POLY_MAX_V];
    or_poly *ref = or_poly_new(), *got = or_poly_new();
    mk_status st = MK_OK;
    while (pool->count < count && st == MK_OK) {
        blob_points(r, npoints, pts);
        if (!or_poly_from_points(ref, pts, npoints))
            continue; /* not in general position: draw again */
        mk_hull *h = NULL;
        st = mk_hull_create(pts, npoints, &h);
        if (st != MK_OK)
            break;
        /* The hull must have the brute-force vertex set and a verified topology. */
        int ok = h->num_vertices == ref->nv;
        if (!ok)
            pool->error = "vertex count differs from the brute-force hull";
        ok = ok && or_poly_from_hull(got, h, 1, &pool->error);
        for (int i = 0; i < ref->nv && ok; ++i) {
            int found = 0;
            for (int j = 0; j < h->num_vertices && !found; ++j)
                found = v3_len(v3_sub(ref->v[i], h->vertices[j])) <= 1e-12;
            ok = found;
            if (!ok)
                pool->error = "a brute-force hull vertex is missing";
        }
        if (!ok) {
            mk_hull_destroy(h);
            st = MK_QHULL_ERROR;
            break;
        }
        pool->npoints[pool->count] = npoints;
        pool->hulls[pool->count++] = h;
    }
    or_poly_free(ref);
    or_poly_free(got);
    return st;
}

void or_hull_pool_free(or_hull_pool *pool)
{
    for (int i = 0; i < pool->count; ++i)
        mk_hull_destroy(pool->hulls[i]);
    pool->count = 0;
}

static double rsize(or_rng *r) { return or_uniform(r, 0.2, 1.5); }

void or_random_shape(or_rng *r, or_family f, const or_hull_pool *pool12, const or_hull_pool *pool60, mk_shape *out)
{
    mk_status st = MK_OK;
    /* One shape in twenty is skinny along one axis. */
    int skinny = or_int(r, 20) == 0;
    double k = skinny ? 0.05 : 1;
    mk_vec3 h = v3(rsize(r) * k, rsize(r), rsize(r));
    double rounding = or_uniform(r, 0.01, 0.3);
    switch (f) {
    case OR_SPHERE: st = mk_shape_sphere(out, rsize(r)); break;
    case OR_BOX: st = mk_shape_box(out, h, 0); break;
    case OR_ROUNDED_BOX: st = mk_shape_box(out, h, rounding); break;
    case OR_CAPSULE: st = mk_shape_capsule(out, 0.5 * rsize(r), h.y); break;
    case OR_CYLINDER: st = mk_shape_cylinder(out, h.y, h.x, 0); break;
    case OR_ROUNDED_CYLINDER: st = mk_shape_cylinder(out, h.y, h.x, rounding); break;
    case OR_CONE: st = mk_shape_cone(out, h.y, h.x, 0); break;
    case OR_ROUNDED_CONE: st = mk_shape_cone(out, h.y, h.x, rounding); break;
    case OR_ELLIPSOID: st = mk_shape_ellipsoid(out, h); break;
    case OR_HULL12: st = mk_shape_hull(out, pool12->hulls[or_int(r, pool12->count)], 0); break;
    case OR_HULL60: st = mk_shape_hull(out, pool60->hulls[or_int(r, pool60->count)], 0); break;
    case OR_ROUNDED_HULL: {
        const or_hull_pool *p = or_int(r, 2) ? pool12 : pool60;
        st = mk_shape_hull(out, p->hulls[or_int(r, p->count)], rounding);
        break;
    }
    default: st = MK_INVALID_INPUT; break;
    }
    if (st != MK_OK)
        abort(); /* a generator bug, not a library verdict */
}

void or_place_pair(or_rng *r, const mk_shape *a, const mk_shape *b, double gap, mk_transform *xa, mk_transform *xb)
{
    *xa = or_pose(r, or_in_ball(r, 3));
    mk_transform b0 = or_pose(r, v3(0, 0, 0));
    mk_vec3 u = or_unit(r);
    /* min over B of <u, x> = <u, p_b> - h_B0(-u); we want it = h_A(u) + gap. */
    double t = gap + or_support_value(a, xa, u) + or_support_value(b, &b0, v3_neg(u));
    /* a sideways slide proportional to the shapes' widths along u */
    double width = or_support_value(a, xa, u) + or_support_value(a, xa, v3_neg(u)) +
                   or_support_value(b, &b0, u) + or_support_value(b, &b0, v3_neg(u));
    mk_vec3 side = v3_cross(u, or_unit(r));
    *xb = b0;
    /* along u from A's origin (t counts from the world origin), then the slide */
    xb->p = v3_add(v3_madd(xa->p, t - v3_dot(u, xa->p), u), v3_scale(side, width * or_uniform(r, -0.15, 0.15)));
}

int or_scale_primitive(const mk_shape *s, double k, mk_shape *out)
{
    if (s->type == MK_SHAPE_HULL || s->type == MK_SHAPE_USER)
        return 0;
    *out = *s;
    out->radius *= k;
    switch (s->type) {
    case MK_SHAPE_BOX: out->u.box.half_extents = v3_scale(s->u.box.half_extents, k); break;
    case MK_SHAPE_CAPSULE: out->u.capsule.half_height *= k; break;
    case MK_SHAPE_CYLINDER:
        out->u.cylinder.radius *= k;
        out->u.cylinder.half_height *= k;
        break;
    case MK_SHAPE_CONE:
        out->u.cone.radius *= k;
        out->u.cone.half_height *= k;
        break;
    case MK_SHAPE_ELLIPSOID: out->u.ellipsoid.radii = v3_scale(s->u.ellipsoid.radii, k); break;
    default: break;
    }
    return 1;
}

double or_capsule_over_disk(mk_transform *xa, mk_transform *xb)
{
    const mk_transform a = {{{{0.81569949753923054, 0.13918253154147942, -0.56148245976873756},
                              {-0.42833392258389524, 0.79768518055813042, -0.42453315946087944},
                              {0.38879863744378079, 0.5867934693157788, 0.710288000666076}}},
                            {-0.35232249632160462, 0.22495373907658067, 0.55657104640738309}};
    const mk_transform b = {{{{0.43927453203497968, -0.7678393249172436, -0.46632677021170577},
                              {0.86847773794762173, 0.23021597444265396, 0.43902963886371188},
                              {-0.22974834971079039, -0.59784895769922586, 0.76797937445163045}}},
                            {-0.46071772478277662, 0.42639117555797423, 0.28379888773190931}};
    *xa = a;
    *xb = b;
    const mk_vec3 axis_a = {a.R.m[0][2], a.R.m[1][2], a.R.m[2][2]}, axis_b = {b.R.m[0][2], b.R.m[1][2], b.R.m[2][2]};
    const mk_vec3 d = {a.p.x - b.p.x, a.p.y - b.p.y, a.p.z - b.p.z};
    const double height = d.x * axis_b.x + d.y * axis_b.y + d.z * axis_b.z - 0.0005; /* over the top face */
    const double c = axis_a.x * axis_b.x + axis_a.y * axis_b.y + axis_a.z * axis_b.z;
    return height - 0.0005 * fabs(c);
}

void or_dump_shape(const char *name, const mk_shape *s, const mk_transform *x)
{
    fprintf(stderr, "  %s: type %d radius %a", name, s->type, s->radius);
    switch (s->type) {
    case MK_SHAPE_BOX:
        fprintf(stderr, " half %a %a %a", s->u.box.half_extents.x, s->u.box.half_extents.y, s->u.box.half_extents.z);
        break;
    case MK_SHAPE_CAPSULE: fprintf(stderr, " half_height %a", s->u.capsule.half_height); break;
    case MK_SHAPE_CYLINDER:
        fprintf(stderr, " r %a half_height %a", s->u.cylinder.radius, s->u.cylinder.half_height);
        break;
    case MK_SHAPE_CONE: fprintf(stderr, " r %a half_height %a", s->u.cone.radius, s->u.cone.half_height); break;
    case MK_SHAPE_ELLIPSOID:
        fprintf(stderr, " radii %a %a %a", s->u.ellipsoid.radii.x, s->u.ellipsoid.radii.y, s->u.ellipsoid.radii.z);
        break;
    case MK_SHAPE_HULL:
        fprintf(stderr, " hull of %d vertices:", s->u.hull.hull->num_vertices);
        for (int i = 0; i < s->u.hull.hull->num_vertices; ++i)
            fprintf(stderr, " {%a,%a,%a}", s->u.hull.hull->vertices[i].x, s->u.hull.hull->vertices[i].y,
                    s->u.hull.hull->vertices[i].z);
        break;
    default: break;
    }
    fprintf(stderr, "\n    R {%a,%a,%a; %a,%a,%a; %a,%a,%a} p {%a,%a,%a}\n", x->R.m[0][0], x->R.m[0][1], x->R.m[0][2],
            x->R.m[1][0], x->R.m[1][1], x->R.m[1][2], x->R.m[2][0], x->R.m[2][1], x->R.m[2][2], x->p.x, x->p.y,
            x->p.z);
}
