/* Penetration depth of bodies of revolution about parallel axes.
 *
 * A sphere's core is a body of revolution about every axis through its
 * centre; a capsule's, a cylinder's and a cone's about their local z axis.
 * When the axes of two of them are parallel, D = A - B is a body of
 * revolution about a parallel axis (a Minkowski sum of bodies of revolution
 * about one axis is one; a translation moves the axis). The point of D's
 * boundary nearest to the origin then lies in the meridian half-plane
 * through the origin: turning a boundary point about the axis into that
 * half-plane keeps its radius and height and brings it nearer. So the depth
 * (E1 of epa.c) is the depth of the origin in D's meridian section, and that
 * section is the Minkowski sum of the sections of A and -B (along the
 * plane's directions the support functions add, and a convex plane set is
 * its support function). The cores' sections are polygons: a point (sphere),
 * a segment (capsule), a rectangle (cylinder), a triangle (cone). The edges
 * of a sum of polygons are theirs, so in the plane, with A's centre at the
 * origin and B's at q,
 *     depth = min over the edge normals m of both sections of
 *             h_SA(m) + h_SB(-m) - <m, q>,
 * exactly (the separating-axis test in the plane).
 *
 * Why not EPA here: where the origin lies near D's axis and the nearest
 * boundary is D's curved side, every direction around the axis is within
 * rounding of the minimum, and EPA's lower bound (E3) needs a polytope that
 * follows the whole ring to the tolerance. A sphere at the centre of a
 * cylinder ended EPA's default 128 iterations with a bracket 6e-4 wide;
 * coaxial cylinders 1e-3, a cone and a sphere 1.5e-4 (test_epa,
 * hostile_coaxial_bodies_of_revolution).
 *
 * The answer is certified as EPA's: the upper bound is the support of the
 * posed shapes along the normal (E2), the lower bound the section's depth
 * less its rounding and less how far the posed cores are from ideal bodies
 * of revolution about one axis (their rotations' distance from exact
 * rotations about it, times their size). That distance must itself be
 * rounding: poses that are only nearly coaxial keep EPA, whose witnesses lie
 * on the posed shapes, where these would lie on the ideal ones. */
#include "closed_depth.h"

#include <float.h>

/* Largest departure of the posed cores from ideal coaxial ones, in units of
 * DBL_EPSILON times the scene's size: rounding only. */
#define MK_REV_DEPARTURE 256
/* Rounding of the section's overlaps (sums of a few products of magnitude up
 * to the scene's size), as box_sat.c's. */
#define MK_REV_ROUND 64

/* A core's meridian section: n vertices (radial x, axial z) about the
 * core's centre, counter-clockwise when n >= 3. */
typedef struct section {
    int n;
    mk_real x[4], z[4];
} section;

/* The section of core s whose axis points along the common axis (dir = 1) or
 * against it (-1; only a cone's differs), and the core's largest distance
 * from its centre. 0 for shapes that are not bodies of revolution. */
static int section_of(const mk_shape *s, mk_real dir, section *sec, mk_real *ext)
{
    switch (s->type) {
    case MK_SHAPE_SPHERE:
        sec->n = 1;
        sec->x[0] = sec->z[0] = 0;
        *ext = 0;
        return 1;
    case MK_SHAPE_CAPSULE: {
        const mk_real h = s->u.capsule.half_height;
        sec->n = 2;
        sec->x[0] = sec->x[1] = 0;
        sec->z[0] = -h;
        sec->z[1] = h;
        *ext = h;
        return 1;
    }
    case MK_SHAPE_CYLINDER: {
        const mk_real r = s->u.cylinder.radius, h = s->u.cylinder.half_height;
        static const mk_real sx[4] = {1, 1, -1, -1}, sz[4] = {-1, 1, 1, -1};
        sec->n = 4;
        for (int i = 0; i < 4; ++i) {
            sec->x[i] = sx[i] * r;
            sec->z[i] = sz[i] * h;
        }
        *ext = sqrt(r * r + h * h);
        return 1;
    }
    case MK_SHAPE_CONE: {
        /* apex, then the base's ends in the order that turns counter-clockwise */
        const mk_real r = s->u.cone.radius, h = dir * s->u.cone.half_height;
        sec->n = 3;
        sec->x[0] = 0;
        sec->z[0] = h;
        sec->x[1] = -dir * r;
        sec->x[2] = dir * r;
        sec->z[1] = sec->z[2] = -h;
        *ext = sqrt(r * r + h * h);
        return 1;
    }
    default:
        return 0;
    }
}

/* Outward unit normals of a section's edges into mx, mz (a segment has two,
 * a point none); returns their count. */
static int edge_normals(const section *s, mk_real *mx, mk_real *mz)
{
    if (s->n < 2)
        return 0;
    const int edges = s->n == 2 ? 2 : s->n;
    for (int i = 0; i < edges; ++i) {
        const int j = (i + 1) % s->n;
        const mk_real dx = s->x[j] - s->x[i], dz = s->z[j] - s->z[i];
        const mk_real l = sqrt(dx * dx + dz * dz);
        mx[i] = dz / l;
        mz[i] = -dx / l;
    }
    return edges;
}

/* Largest and smallest <m, v> over a section's vertices moved by (ox, oz). */
static void extent_along(const section *s, mk_real ox, mk_real oz, mk_real mx, mk_real mz, mk_real *lo, mk_real *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < s->n; ++i) {
        const mk_real d = mx * (s->x[i] + ox) + mz * (s->z[i] + oz);
        *lo = d < *lo ? d : *lo;
        *hi = d > *hi ? d : *hi;
    }
}

/* Span along (tx, tz) of the vertices whose <m, v> is within tie of `level`
 * (a section's feature on its support line), moved by (ox, oz). */
static void feature_span(const section *s, mk_real ox, mk_real oz, mk_real mx, mk_real mz, mk_real level,
                         mk_real tie, mk_real tx, mk_real tz, mk_real *lo, mk_real *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < s->n; ++i) {
        const mk_real px = s->x[i] + ox, pz = s->z[i] + oz;
        if (fabs(mx * px + mz * pz - level) > tie)
            continue;
        const mk_real t = tx * px + tz * pz;
        *lo = t < *lo ? t : *lo;
        *hi = t > *hi ? t : *hi;
    }
}

static inline mk_vec3 column(const mk_mat3 *R, int c) { return v3(R->m[0][c], R->m[1][c], R->m[2][c]); }

/* Frobenius distance from R to the rotation whose z column is the unit z and
 * whose x column is R's made orthogonal to z: bounds how far the posed core,
 * per unit of its size, lies from its ideal about z (large when R's z column
 * is not along z). */
static mk_real departure(const mk_mat3 *R, mk_vec3 z)
{
    const mk_vec3 c0 = column(R, 0), c1 = column(R, 1), c2 = column(R, 2);
    const mk_vec3 q0 = v3_normalize_or(v3_madd(c0, -v3_dot(c0, z), z), v3(0, 0, 0));
    const mk_vec3 q1 = v3_cross(z, q0);
    return sqrt(v3_len2(v3_sub(c0, q0)) + v3_len2(v3_sub(c1, q1)) + v3_len2(v3_sub(c2, z)));
}

static inline int revolves(const mk_shape *s)
{
    return s->type == MK_SHAPE_SPHERE || s->type == MK_SHAPE_CAPSULE || s->type == MK_SHAPE_CYLINDER ||
           s->type == MK_SHAPE_CONE;
}

static inline int has_area(const mk_shape *s) { return s->type == MK_SHAPE_CYLINDER || s->type == MK_SHAPE_CONE; }

int mk_revolution_depth(const mk_pair *pair, const mk_epa_settings *settings, mk_epa_result *out)
{
    const mk_shape *sa = pair->a, *sb = pair->b;
    if (!revolves(sa) || !revolves(sb) || !(has_area(sa) || has_area(sb)))
        return 0;
    const mk_transform *xa = &pair->xf_a, *xb = &pair->xf_b;

    /* The common axis u: A's, or B's when A is a sphere; each core's
     * direction along it, and its departure from the ideal about it. */
    const mk_transform *owner = sa->type == MK_SHAPE_SPHERE ? xb : xa;
    const mk_vec3 u = v3_normalize_or(column(&owner->R, 2), v3(0, 0, 0));
    if (!(v3_len2(u) > 0))
        return 0;
    mk_real dir_a = 1, dir_b = 1, dev_a = 0, dev_b = 0;
    if (sa->type != MK_SHAPE_SPHERE) {
        dir_a = v3_dot(column(&xa->R, 2), u) < 0 ? -1 : 1;
        dev_a = departure(&xa->R, v3_scale(u, dir_a));
    }
    if (sb->type != MK_SHAPE_SPHERE) {
        dir_b = v3_dot(column(&xb->R, 2), u) < 0 ? -1 : 1;
        dev_b = departure(&xb->R, v3_scale(u, dir_b));
    }
    section A, B;
    mk_real ext_a, ext_b;
    section_of(sa, dir_a, &A, &ext_a);
    section_of(sb, dir_b, &B, &ext_b);

    /* The plane: A's centre at its origin, axial coordinate along u, radial
     * along e, the direction from A's axis to B's centre (any direction
     * across u when B's centre is on A's axis: every one is a minimizer). */
    const mk_vec3 v = v3_sub(xb->p, xa->p);
    const mk_real qz = v3_dot(v, u);
    const mk_vec3 w = v3_madd(v, -qz, u);
    const mk_real size = ext_a + ext_b + v3_max_abs(v);
    /* Across the axis once more: w's direction is rounding when B's centre is
     * on the axis to rounding, then any direction across it does (the depth
     * differs by at most twice the distance off the axis, which the upper
     * bound measures). */
    mk_vec3 e = v3_len(w) > 8 * DBL_EPSILON * size ? v3_normalize_or(v3_madd(w, -v3_dot(w, u), u), v3(0, 0, 0))
                                                    : v3(0, 0, 0);
    if (!(v3_len2(e) > 0)) {
        const mk_vec3 c0 = column(&owner->R, 0);
        mk_vec3 t1, t2;
        v3_across(u, &t1, &t2);
        e = v3_normalize_or(v3_madd(c0, -v3_dot(c0, u), u), t1);
    }
    const mk_real qx = v3_dot(v, e);
    const mk_real round = MK_REV_ROUND * DBL_EPSILON * size;
    const mk_real departed = dev_a * ext_a + dev_b * ext_b;
    if (!(departed <= MK_REV_DEPARTURE * DBL_EPSILON * size))
        return 0; /* not coaxial to rounding (or not finite): EPA */

    /* The smallest overlap over the candidate normals: A's edges', then the
     * reverse of B's (the edges of -SB), the first on ties. */
    mk_real mx[8], mz[8];
    const int na = edge_normals(&A, mx, mz);
    const int nb = edge_normals(&B, mx + na, mz + na);
    for (int k = na; k < na + nb; ++k) {
        mx[k] = -mx[k];
        mz[k] = -mz[k];
    }
    mk_real best = INFINITY, ahi = 0, blo = 0;
    int bk = -1;
    for (int k = 0; k < na + nb; ++k) {
        mk_real alo_k, ahi_k, blo_k, bhi_k;
        extent_along(&A, 0, 0, mx[k], mz[k], &alo_k, &ahi_k);
        extent_along(&B, qx, qz, mx[k], mz[k], &blo_k, &bhi_k);
        const mk_real o = ahi_k - blo_k;
        if (o < best) {
            best = o;
            bk = k;
            ahi = ahi_k;
            blo = blo_k;
        }
    }
    if (bk < 0 || !(best > round))
        return 0; /* cores touching or apart to rounding: EPA decides */

    /* The normal, and the contact in the plane: the middle of the part of
     * the two support features' spans (along the edge direction t) they
     * share, on A's support line. */
    const mk_real m_x = mx[bk], m_z = mz[bk], t_x = -m_z, t_z = m_x;
    mk_real fa_lo, fa_hi, fb_lo, fb_hi;
    feature_span(&A, 0, 0, m_x, m_z, ahi, round, t_x, t_z, &fa_lo, &fa_hi);
    feature_span(&B, qx, qz, m_x, m_z, blo, round, t_x, t_z, &fb_lo, &fb_hi);
    mk_real tau = 0.5 * (fmax(fa_lo, fb_lo) + fmin(fa_hi, fb_hi));
    tau = fmin(fmax(tau, fa_lo), fa_hi); /* on A's feature */
    const mk_vec3 n = v3_normalize_or(v3_add(v3_scale(e, m_x), v3_scale(u, m_z)), v3(0, 0, 0));
    if (!(v3_len2(n) > 0) || !isfinite(tau))
        return 0;
    const mk_real px = ahi * m_x + tau * t_x, pz = ahi * m_z + tau * t_z;
    const mk_vec3 pa = v3_add(xa->p, v3_add(v3_scale(e, px), v3_scale(u, pz)));

    /* Bracket on the core depth: the posed shapes' overlap along n (E2)
     * above, the section's below less rounding and the poses' departure. */
    const mk_real upper = closed_overlap_along(pair, n);
    mk_real lower = best - round - departed;
    lower = lower > 0 ? lower : 0;
    const mk_real ra = sa->radius, rb = sb->radius, r = ra + rb;
    if (!isfinite(upper) || !(upper >= lower) || !closed_within(settings, lower, upper, upper + r) || !v3_finite(pa))
        return 0;
    closed_answer(out, lower, upper, r, n, v3_madd(pa, ra, n), v3_madd(pa, -(upper + rb), n));
    return 1;
}
