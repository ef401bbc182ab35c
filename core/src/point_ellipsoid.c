/* Depth of a sphere's centre inside an ellipsoid.
 *
 * A sphere's core is its centre, so with D = A - B the depth (E1 of epa.c)
 * is the centre's distance to the ellipsoid's surface, plus the radii. In
 * the ellipsoid's frame, with semi-axes e and the centre at q, the nearest
 * point x of the surface sum (x_i / e_i)^2 = 1 satisfies the Lagrange
 * condition x_i = e_i^2 q_i / (e_i^2 + t) for a multiplier t. With e_m the
 * shortest semi-axis and q inside, the nearest point is the one whose t lies
 * in (-e_m^2, 0], where
 *     F(t) = sum (e_i q_i / (e_i^2 + t))^2 - 1
 * falls from +inf (when q_m != 0) to F(0) = sum (q_i / e_i)^2 - 1 < 0, one
 * root (D. Eberly, "Distance from a Point to an Ellipse, an Ellipsoid, or a
 * Hyperellipsoid", Geometric Tools, 2013; the other roots are farther
 * critical points). In s = t + e_m^2 the denominators are s + (e_i^2 - e_m^2),
 * with no cancellation on the shortest axis; bisection on s in (0, e_m^2]
 * takes the root to the last bit. When q_m = 0 exactly, F has no pole there:
 * if F is still <= 0 at s = 0, the nearest points leave the plane q_m = 0,
 * x_i = e_i^2 q_i / (e_i^2 - e_m^2) for i != m and x_m = +-e_m sqrt(1 -
 * sum_{i != m} (x_i / e_i)^2) (the + one is taken; at the centre, the end
 * of the shortest axis).
 *
 * Why not EPA here: for an ellipsoid close to a sphere the distance to the
 * surface is nearly the same over a wide cone of directions, and EPA's lower
 * bound (E3) needs a polytope following the surface there to the
 * tolerance: of random unit-size spheres deep in ellipsoids, about a
 * quarter ended EPA's default 128 iterations, with brackets up to 2e-2 wide
 * (test_epa, hostile_sphere_deep_in_an_ellipsoid).
 *
 * Certified as EPA's answers are: the upper bound is the support of the
 * posed shapes along the normal (E2); the lower bound the distance to x less
 * its rounding. Poses whose rotation is not orthonormal to rounding (the
 * posed ellipsoid's axes are then not R's columns) keep EPA. */
#include "closed_depth.h"

#include <float.h>

/* Bisection steps: enough to reach the last bit of s from e_m^2 down to the
 * smallest double. */
#define MK_PE_MAX_STEPS 2200
/* Rounding allowances, in DBL_EPSILON times the scene's size. */
#define MK_PE_ROUND 64
#define MK_PE_ORTHONORMAL 64

/* F of the header comment at s (with d_i = e_i^2 - e_m^2), skipping the
 * terms of q_i = 0. */
static mk_real level(const mk_real e[3], const mk_real q[3], const mk_real d[3], mk_real s)
{
    mk_real f = -1;
    for (int i = 0; i < 3; ++i)
        if (q[i] != 0) {
            const mk_real t = e[i] * q[i] / (s + d[i]);
            f += t * t;
        }
    return f;
}

/* Nearest surface point x of the ellipsoid (semi-axes e) to the interior
 * point q, both in its frame. */
static void nearest_inside(const mk_real e[3], const mk_real q[3], mk_real x[3])
{
    int m = 0;
    for (int i = 1; i < 3; ++i)
        if (e[i] < e[m])
            m = i;
    mk_real d[3];
    for (int i = 0; i < 3; ++i)
        d[i] = i == m ? 0 : e[i] * e[i] - e[m] * e[m];
    if (q[m] == 0 && level(e, q, d, 0) <= 0) {
        /* off the plane q_m = 0 (a term with d_i = 0 makes F(0) infinite) */
        mk_real used = 0;
        for (int i = 0; i < 3; ++i) {
            x[i] = i == m || q[i] == 0 ? 0 : e[i] * e[i] * q[i] / d[i];
            used += i == m ? 0 : (x[i] / e[i]) * (x[i] / e[i]);
        }
        x[m] = e[m] * sqrt(used < 1 ? 1 - used : 0);
        return;
    }
    mk_real lo = 0, hi = e[m] * e[m]; /* F(lo+) > 0 >= F(hi) */
    for (int step = 0; step < MK_PE_MAX_STEPS; ++step) {
        const mk_real mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi))
            break;
        if (level(e, q, d, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    const mk_real s = hi > 0 ? hi : lo;
    for (int i = 0; i < 3; ++i)
        x[i] = q[i] == 0 ? 0 : e[i] * e[i] * q[i] / (s + d[i]);
}

/* Frobenius norm of R^T R - I. */
static mk_real orthonormal_error(const mk_mat3 *R)
{
    const mk_mat3 G = m3_tmul_m3(R, R);
    mk_real s = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const mk_real g = G.m[i][j] - (i == j);
            s += g * g;
        }
    return sqrt(s);
}

int mk_point_ellipsoid_depth(const mk_pair *pair, const mk_epa_settings *settings, mk_epa_result *out)
{
    const mk_shape *sa = pair->a, *sb = pair->b;
    const int sphere_a = sa->type == MK_SHAPE_SPHERE && sb->type == MK_SHAPE_ELLIPSOID;
    if (!sphere_a && !(sa->type == MK_SHAPE_ELLIPSOID && sb->type == MK_SHAPE_SPHERE))
        return 0;
    const mk_shape *el = sphere_a ? sb : sa;
    const mk_transform *xe = sphere_a ? &pair->xf_b : &pair->xf_a, *xs = sphere_a ? &pair->xf_a : &pair->xf_b;
    if (!(orthonormal_error(&xe->R) <= MK_PE_ORTHONORMAL * DBL_EPSILON))
        return 0;

    const mk_vec3 ql = m3_tmul(&xe->R, v3_sub(xs->p, xe->p));
    const mk_vec3 r = el->u.ellipsoid.radii;
    const mk_real e[3] = {r.x, r.y, r.z}, q[3] = {ql.x, ql.y, ql.z};
    if (!((q[0] / e[0]) * (q[0] / e[0]) + (q[1] / e[1]) * (q[1] / e[1]) + (q[2] / e[2]) * (q[2] / e[2]) < 1))
        return 0; /* the centre is not inside: GJK's and EPA's pair */
    mk_real x[3];
    nearest_inside(e, q, x);
    const mk_vec3 xl = v3(x[0], x[1], x[2]);
    /* The outward normal at x, in the world; A to B. */
    const mk_vec3 grad = v3(x[0] / (e[0] * e[0]), x[1] / (e[1] * e[1]), x[2] / (e[2] * e[2]));
    const mk_vec3 out_n = v3_normalize_or(m3_mul(&xe->R, grad), v3(0, 0, 0));
    if (!(v3_len2(out_n) > 0))
        return 0;
    const mk_vec3 n = sphere_a ? v3_neg(out_n) : out_n;
    const mk_vec3 xw = xf_apply(xe, xl);

    /* Bracket on the core depth: the posed shapes' overlap along n (E2)
     * above, the distance to x less its rounding below. */
    const mk_real size = v3_max_abs(r) + v3_max_abs(ql);
    const mk_real dist = v3_len(v3_sub(xl, ql));
    const mk_real upper = closed_overlap_along(pair, n);
    mk_real lower = dist - MK_PE_ROUND * DBL_EPSILON * size;
    lower = lower > 0 ? lower : 0;
    const mk_real rad = sa->radius + sb->radius;
    if (!isfinite(upper) || !(upper >= lower) || !closed_within(settings, lower, upper, upper + rad) ||
        !v3_finite(xw) || !(dist > 0))
        return 0;

    /* Witnesses: the sphere's on its surface about its centre, the
     * ellipsoid's at x. */
    const mk_vec3 core_a = sphere_a ? xs->p : xw, core_b = sphere_a ? xw : xs->p;
    closed_answer(out, lower, upper, rad, n, v3_madd(core_a, sa->radius, n), v3_madd(core_b, -sb->radius, n));
    return 1;
}
