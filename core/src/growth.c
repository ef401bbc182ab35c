/* Growth distance by ray intersection on the Minkowski difference.
 *
 * "A Ray Intersection Algorithm for Fast Growth Distance Computation Between
 * Convex Sets", Alg. 3: with D' = (A - c_A) - (B - c_B) and p = c_B - c_A, find
 * t* = max { t : t p in D' } (problem (10)); sigma* = 1 / t* (Prop. 1).
 *   - Initialisation, Alg. 1: three points of a ball about the origin inside D'
 *     on a cone around p (eqs. 16-17), normal p / |p|.
 *   - Update, Alg. 2: support point along the current unit normal (eq. 11); outer
 *     bound t_U = min h(n) / <n, p> (eq. 22); inner approximation by one Simplex
 *     pivot on LP (15) from the previous optimal basis (pruned to basis + new
 *     point in 3D, Remark 2): the ratio test (26) on barycentric coordinates
 *     computed by signed areas in the basis plane (Sec. III-F2), ties broken by
 *     Bland's rule (smallest entry index); normal of the new basis plane (eq. 24),
 *     normalised (Alg. 3 line 9).
 *   - Termination on the relative gap (t_U - t_L) / t_L (Sec. III-D); solution
 *     and witnesses from the basis' weights (eqs. 27-28).
 *   - Warm start: the previous optimal basis' support points moved with their
 *     shapes (eq. 31) enter as extra columns after initialisation (Sec. III-F3);
 *     ours: taken whole as the starting basis while the ray still crosses it
 *     (adopt_cached), and on curved pairs a wider basis enters after it.
 *   - Boolean: stop once t_L > 1 or t_U < 1 (Sec. III-F4).
 *   - Ours, not the paper's: on pairs of spheres and ellipsoids the support
 *     direction is a secant step on the support map (see "secant direction")
 *     instead of the basis normal, which converges only linearly there; the
 *     bracket stays certified whatever the direction. Their warm start seeds
 *     the secant with the cached last samples instead of basis columns, and
 *     their fit's Jacobian drives the first steps (chord steps, chord_take).
 * Everything runs in A's local frame; B is carried by its pose relative to A. */
/* GCC's SLP vectorizer packs pairs of the scalar vector arithmetic here into SSE
 * registers (unpcklpd) and reads back halves of packed stores: the same
 * instruction count, but on the hull-240 bench ~10% slower in wall clock than
 * plain scalar code (measured, AMD EPYC). Off for this file. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif
#include <float.h>
#include <stddef.h>
#include <minkowski/growth.h>
#include "support.h"

/* Iteration caps and the accepted tolerance range. */
#define MK_GROWTH_DEFAULT_MAX_ITER 100
#define MK_GROWTH_MAX_ITER_CAP 100000
#define MK_GROWTH_TOL_MIN 1e-14
/* Half-angle of the initial cone around p (eq. 17): the three start points are
 * at angle acos(INIT_COS) from p on the inscribed ball. */
#define MK_GROWTH_INIT_COS 0.5
#define MK_GROWTH_INIT_SIN 0.86602540378443864676
/* Relative thickness (to the probe's extent) below which the support probe of a
 * user shape counts as flat, and the probe's point budget. */
#define MK_GROWTH_FLAT 1e-9
#define MK_GROWTH_PROBE_POINTS 14
/* A hull's cheap inradius bound (about the centroid, shifted) is used when it
 * keeps at least this fraction of the inradius; otherwise the faces are scanned. */
#define MK_GROWTH_HULL_CHEAP_FRACTION 0.5
/* Relative gap at which the generic loop keeps its basis for the next warm
 * start (mk_growth_cache.wide). On a curved piece of D' the basis points spread
 * about sqrt(gap) of the shapes' size around the solution, a few percent here,
 * the size of the motion between two steps of a simulation. Measured on
 * test_growth's warm pairs (moved 1%, turned 0.01 rad), iterations warm against
 * cold 20.4 on cylinders: 15.6 without the wide basis, 13.6, 12.3, 11.4 and 11.9
 * with it kept at gaps of 1e-1, 1e-2, 1e-3 and 1e-4 (entered before the final
 * basis; after it, as now, 11.0 at 1e-3). */
#define MK_GROWTH_WIDE_GAP 1e-3

/* Branch-free max/min of finite values (fmax/fmin are library calls here). */
static inline mk_real rmax(mk_real x, mk_real y) { return x > y ? x : y; }
static inline mk_real rmin(mk_real x, mk_real y) { return x < y ? x : y; }

mk_growth_settings mk_growth_default_settings(void)
{
    mk_growth_settings s;
    s.tolerance = sqrt(DBL_EPSILON);
    s.max_iterations = MK_GROWTH_DEFAULT_MAX_ITER;
    return s;
}

/* ------------------------------------------------------------ inradius about a centre */

/* Point of the whole shape (core + radius) farthest along d. */
static inline mk_vec3 whole_support(const mk_shape *s, mk_vec3 d)
{
    return v3_madd(shape_support(s, d, NULL), s->radius / v3_len(d), d);
}

/* Brute-force facet scan of Q = conv(P[0..n)): a triple spans a facet plane when
 * no point lies beyond it. Returns 1 with *depth = the smallest signed distance
 * from c to a facet plane (inward positive) and *dir, *off = that facet's outward
 * unit normal and offset; 0 when Q has no volume (then *dir is a unit normal of
 * its plane, or any unit vector across its line). */
static int probe_facets(const mk_vec3 *P, int n, mk_vec3 c, mk_real L, mk_real *depth, mk_vec3 *dir, mk_real *off)
{
    const mk_real eps = MK_GROWTH_FLAT * L;
    int facets = 0, planar = 0;
    mk_vec3 plane = v3(0, 0, 0);
    *depth = INFINITY;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            for (int k = j + 1; k < n; ++k) {
                mk_vec3 N = v3_cross(v3_sub(P[j], P[i]), v3_sub(P[k], P[i]));
                mk_real len = v3_len(N);
                if (!(len > eps * L))
                    continue; /* (nearly) collinear triple */
                N = v3_scale(N, 1 / len);
                int above = 0, below = 0;
                for (int m = 0; m < n; ++m) {
                    mk_real d = v3_dot(N, v3_sub(P[m], P[i]));
                    above += d > eps;
                    below += d < -eps;
                }
                if (above && below)
                    continue;
                if (!above && !below) {
                    planar = 1;
                    plane = N;
                    continue;
                }
                if (above)
                    N = v3_neg(N);
                mk_real o = v3_dot(N, P[i]);
                mk_real d = o - v3_dot(N, c);
                if (d < *depth) {
                    *depth = d;
                    *dir = N;
                    *off = o;
                }
                ++facets;
            }
    if (facets > 0)
        return 1;
    if (planar) {
        *dir = plane;
        return 0;
    }
    /* Collinear (or coincident) points: any direction across the line. */
    mk_vec3 e = v3(1, 0, 0);
    for (int m = 1; m < n; ++m)
        if (v3_len(v3_sub(P[m], P[0])) > eps)
            e = v3_sub(P[m], P[0]);
    mk_vec3 a = fabs(e.x) < fabs(e.y) ? v3(1, 0, 0) : v3(0, 1, 0);
    *dir = v3_normalize_or(v3_cross(e, a), v3(0, 0, 1));
    return 0;
}

/* Lower bound of the whole shape's inradius about c from support points only
 * (user shapes, hulls without faces): Q = conv of support points lies in the
 * shape, so c's depth in Q bounds the inradius when positive. Starts from six
 * points along three skewed antipodal directions (boxes and flat bases then give
 * distinct points; a centrally symmetric shape gives a Q symmetric about its
 * centre), then, while c is not strictly inside Q, adds the support point along
 * the normal of the facet c is farthest beyond (both normals of a flat Q). If
 * the shape does not reach past that facet, c is certified outside (or on the
 * boundary): -INFINITY (or 0). -INFINITY too for flat shapes and when the point
 * budget runs out; NAN when a support point is not finite. */
static mk_real probe_depth(const mk_shape *s, mk_vec3 c)
{
    static const mk_real D[3][3] = {{1, 0.13, 0.07}, {-0.11, 1, 0.05}, {0.09, -0.06, 1}};
    mk_vec3 P[MK_GROWTH_PROBE_POINTS];
    int n = 0;
    for (int i = 0; i < 6; ++i) {
        mk_vec3 d = v3(D[i >> 1][0], D[i >> 1][1], D[i >> 1][2]);
        P[n++] = whole_support(s, i & 1 ? v3_neg(d) : d);
    }
    mk_real L = 0;
    for (int i = 0; i < n; ++i) {
        if (!v3_finite(P[i]))
            return NAN;
        mk_real l = v3_len(v3_sub(P[i], P[0]));
        L = l > L ? l : L;
    }
    if (!(L > 0))
        return -INFINITY;
    const mk_real eps = MK_GROWTH_FLAT * L;
    while (n < MK_GROWTH_PROBE_POINTS) {
        mk_real depth = 0, off = 0;
        mk_vec3 dir = v3(1, 0, 0);
        if (probe_facets(P, n, c, L, &depth, &dir, &off)) {
            if (depth > 0)
                return depth;
            /* Does the shape reach past the facet c is beyond (or on)? */
            mk_vec3 q = whole_support(s, dir);
            if (!v3_finite(q))
                return NAN;
            if (!(v3_dot(dir, q) > off + eps))
                return depth == 0 ? 0 : -INFINITY;
            P[n++] = q;
        } else {
            /* Flat so far: look across the plane both ways. */
            if (n + 2 > MK_GROWTH_PROBE_POINTS)
                break;
            mk_vec3 q0 = whole_support(s, dir), q1 = whole_support(s, v3_neg(dir));
            if (!v3_finite(q0) || !v3_finite(q1))
                return NAN;
            mk_real o = v3_dot(dir, P[0]);
            if (!(v3_dot(dir, q0) - o > eps) && !(o - v3_dot(dir, q1) > eps))
                return -INFINITY; /* the shape itself is flat */
            P[n++] = q0;
            P[n++] = q1;
        }
    }
    return -INFINITY;
}

/* Signed depth g of local point c in the core of s, such that radius + g is a
 * lower bound of the whole shape's inradius about c whenever it is >= 0 (then c
 * is certified inside the shape). For the closed forms: g >= 0 is a lower bound
 * of the core's inradius about c, g < 0 is at most minus the distance from c to
 * the core. -INFINITY when nothing can be certified. */
static mk_real core_depth(const mk_shape *s, mk_vec3 c)
{
    switch (s->type) {
    case MK_SHAPE_SPHERE:
        return -v3_len(c);
    case MK_SHAPE_BOX: {
        mk_vec3 h = s->u.box.half_extents;
        mk_vec3 q = v3(fabs(c.x) - h.x, fabs(c.y) - h.y, fabs(c.z) - h.z);
        mk_real m = rmax(q.x, rmax(q.y, q.z));
        if (m <= 0)
            return -m;
        return -v3_len(v3(rmax(q.x, 0), rmax(q.y, 0), rmax(q.z, 0)));
    }
    case MK_SHAPE_CAPSULE: {
        mk_real hh = s->u.capsule.half_height;
        mk_real z = c.z > hh ? hh : c.z < -hh ? -hh : c.z;
        return -v3_len(v3(c.x, c.y, c.z - z));
    }
    case MK_SHAPE_CYLINDER: {
        mk_real qr = hypot(c.x, c.y) - s->u.cylinder.radius, qz = fabs(c.z) - s->u.cylinder.half_height;
        mk_real m = rmax(qr, qz);
        if (m <= 0)
            return -m;
        return -hypot(rmax(qr, 0), rmax(qz, 0));
    }
    case MK_SHAPE_CONE: {
        /* Base plane z = -h and the generatrix line through (r, -h) and (0, h)
         * in the meridian half-plane: the line distance never exceeds the
         * distance to the lateral surface. */
        mk_real r = s->u.cone.radius, h = s->u.cone.half_height;
        mk_real base = c.z + h;
        mk_real lat = (r * h - 2 * h * hypot(c.x, c.y) - r * c.z) / sqrt(4 * h * h + r * r);
        mk_real m = rmin(base, lat);
        return m >= 0 ? m : -INFINITY;
    }
    case MK_SHAPE_ELLIPSOID: {
        /* ball(c, (1 - |c|_E) min r) lies in the ellipsoid (triangle inequality in the E-norm). */
        mk_vec3 r = s->u.ellipsoid.radii;
        mk_real e = v3_len(v3(c.x / r.x, c.y / r.y, c.z / r.z));
        return e <= 1 ? (1 - e) * rmin(r.x, rmin(r.y, r.z)) : -INFINITY;
    }
    case MK_SHAPE_HULL: {
        const mk_hull *hu = s->u.hull.hull;
        mk_real cheap = hu->inradius - v3_len(v3_sub(c, hu->centroid));
        if (cheap >= MK_GROWTH_HULL_CHEAP_FRACTION * hu->inradius)
            return cheap;
        if (hu->num_faces <= 0 || !hu->face_normals || !hu->face_offsets)
            return probe_depth(s, c) - s->radius;
        /* Exact: the distance to the nearest face plane. */
        mk_real m = INFINITY;
        for (int f = 0; f < hu->num_faces; ++f) {
            mk_real d = hu->face_offsets[f] - v3_dot(hu->face_normals[f], c);
            m = d < m ? d : m;
        }
        return m >= 0 ? m : -INFINITY;
    }
    case MK_SHAPE_USER:
        return probe_depth(s, c) - s->radius;
    case MK_SHAPE_TYPE_COUNT:
        break;
    }
    return -INFINITY;
}

/* ------------------------------------------------------------ pair context */

typedef struct ctx {
    const mk_shape *a, *b;
    mk_mat3 R;      /* B's rotation in A's frame */
    mk_vec3 t;      /* B's origin in A's frame */
    mk_vec3 ca, cb; /* centres in A's frame */
    mk_vec3 p;      /* cb - ca: the ray of problem (10) */
    mk_real ra, rb; /* rounding radii */
    mk_real ia, ib; /* inradii of A about ca and B about cb */
    int hint_a, hint_b;
    int rounded; /* ra or rb > 0 */
    int smooth;  /* both shapes strictly convex and smooth (spheres, ellipsoids): D' too */
    int corners; /* corner steps (corner_pair): D' = P + ball with P a parallelogram, box or hull */
    int wide;    /* the paper's loop on curved D': keeps a wide basis for warm starts (wide_pair) */
} ctx;

/* Point of D' farthest along the unit normal n (eq. 11): s = (a - c_A) - (b - c_B)
 * with a = s_A(n) and b = s_B(-n) on the rounded shapes (A's frame). */
static inline __attribute__((always_inline)) mk_vec3 support(ctx *c, mk_vec3 n, mk_vec3 *pa, mk_vec3 *pb)
{
    mk_vec3 a = shape_support(c->a, n, &c->hint_a);
    mk_vec3 bl = shape_support(c->b, m3_tmul(&c->R, v3_neg(n)), &c->hint_b);
    mk_vec3 b = v3_add(m3_mul(&c->R, bl), c->t);
    if (c->rounded) {
        a = v3_madd(a, c->ra, n);
        b = v3_madd(b, -c->rb, n);
    }
    *pa = a;
    *pb = b;
    return v3_add(v3_sub(a, b), c->p);
}

/* ------------------------------------------------------------ the basis */

/* Optimal basis of LP (15): a triangle of points of D' the ray crosses. */
typedef struct basis {
    mk_vec3 w[3];      /* points of D' */
    mk_vec3 a[3], b[3];/* their points of A and B (A's frame): w = a - b + p */
    int id[3];         /* entry order (Bland's rule) */
    mk_real lambda[3]; /* barycentric coordinates of the crossing point t_L p */
    mk_vec3 n;         /* unit normal of the plane, <n, p> > 0 */
    mk_real h;         /* plane offset <n, w_i> > 0 (mean over the vertices) */
    mk_real np;        /* <n, p> */
    mk_real tl;        /* lower bound t_L = h / <n, p> */
    mk_real spread;    /* rounding of the plane: max |<n, w_i> - h| */
    int drop;          /* 2D projection of the plane (proj_for(n)) */
} basis;

/* Projection of the basis plane to 2D: drop the coordinate where the plane
 * normal is largest (the projection that keeps the most area). 0, 1, 2 drop x,
 * y, z and keep (y, z), (z, x), (x, y). */
static inline int proj_for(mk_vec3 n)
{
    mk_real ax = fabs(n.x), ay = fabs(n.y), az = fabs(n.z);
    return ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
}

/* Signed areas of (q, w1, w2), (w0, q, w2), (w0, w1, q) in 2D, differences taken
 * at q; returns their sum. */
static inline mk_real areas2(mk_real qx, mk_real qy, mk_real x0, mk_real y0, mk_real x1, mk_real y1, mk_real x2,
                             mk_real y2, mk_real area[3])
{
    x0 -= qx;
    y0 -= qy;
    x1 -= qx;
    y1 -= qy;
    x2 -= qx;
    y2 -= qy;
    area[0] = x1 * y2 - y1 * x2;
    area[1] = x2 * y0 - y2 * x0;
    area[2] = x0 * y1 - y0 * x1;
    return area[0] + area[1] + area[2];
}

/* Signed areas of the sub-triangles (q, w1, w2), (w0, q, w2), (w0, w1, q) in the
 * projection `drop`: proportional to the barycentric coordinates of q in the
 * triangle (q in its plane), with their sum the triangle's own area (the
 * signed-volume method of Montanari et al., as Sec. III-F2 asks). Differences
 * are taken at q so that a small triangle far from the origin keeps its
 * precision. One branch on the projection, then straight-line arithmetic. */
static inline mk_real signed_areas(int drop, mk_vec3 w0, mk_vec3 w1, mk_vec3 w2, mk_vec3 q, mk_real area[3])
{
    if (drop == 0)
        return areas2(q.y, q.z, w0.y, w0.z, w1.y, w1.z, w2.y, w2.z, area);
    if (drop == 1)
        return areas2(q.z, q.x, w0.z, w0.x, w1.z, w1.x, w2.z, w2.x, area);
    return areas2(q.x, q.y, w0.x, w0.y, w1.x, w1.y, w2.x, w2.y, area);
}

/* Barycentric coordinates of q in the triangle; 0 when it has no area. */
static inline int barycentric(mk_vec3 w0, mk_vec3 w1, mk_vec3 w2, int drop, mk_vec3 q, mk_real out[3])
{
    mk_real area[3];
    mk_real sum = signed_areas(drop, w0, w1, w2, q, area);
    if (!(fabs(sum) > 0) || !isfinite(sum))
        return 0;
    mk_real inv = 1 / sum;
    out[0] = area[0] * inv;
    out[1] = area[1] * inv;
    out[2] = area[2] * inv;
    return 1;
}

/* Plane of the triangle (eqs. 21, 24) with its bound t_L and the weights of
 * the crossing point t_L p. */
typedef struct plane {
    mk_vec3 n;
    mk_real h, np, tl, spread;
    mk_real lambda[3];
    int drop; /* its 2D projection (proj_for) */
} plane;

/* Returns 0 when the triangle has no normal or the ray does not cross its plane
 * forward. */
static inline __attribute__((always_inline)) int triangle_plane(mk_vec3 w0, mk_vec3 w1, mk_vec3 w2, mk_vec3 p,
                                                                plane *pl)
{
    /* Cross the two edges at the vertex opposite the longest edge: the most
     * accurate normal of a skinny triangle. */
    mk_vec3 e01 = v3_sub(w1, w0), e12 = v3_sub(w2, w1), e20 = v3_sub(w0, w2);
    mk_real l01 = v3_len2(e01), l12 = v3_len2(e12), l20 = v3_len2(e20);
    mk_vec3 N;
    if (l12 >= l01 && l12 >= l20)
        N = v3_cross(e01, e20);
    else if (l20 >= l01)
        N = v3_cross(e12, e01);
    else
        N = v3_cross(e20, e12);
    mk_real len = v3_len(N);
    if (!(len > 0) || !isfinite(len))
        return 0;
    /* Orient towards p without a branch (the vertex order, hence the sign of
     * N, is arbitrary after pivots: a branch here is a coin flip). */
    const mk_real npr = v3_dot(N, p);
    const mk_real inv = copysign(1 / len, npr);
    const mk_vec3 n = v3_scale(N, inv);
    const mk_real np = npr * inv;
    mk_real h0 = v3_dot(n, w0), h1 = v3_dot(n, w1), h2 = v3_dot(n, w2);
    mk_real h = (h0 + h1 + h2) * (1.0 / 3);
    if (!(np > 0) || !(h > 0))
        return 0;
    mk_real tl = h / np;
    const int drop = proj_for(n);
    if (!isfinite(tl) || !barycentric(w0, w1, w2, drop, v3_scale(p, tl), pl->lambda))
        return 0;
    pl->drop = drop;
    pl->n = n;
    pl->h = h;
    pl->np = np;
    pl->tl = tl;
    pl->spread = rmax(fabs(h0 - h), rmax(fabs(h1 - h), fabs(h2 - h)));
    return 1;
}

/* The basis takes plane pl (its normal, bound and weights). */
static inline void set_plane(basis *B, const plane *pl)
{
    B->n = pl->n;
    B->h = pl->h;
    B->np = pl->np;
    B->tl = pl->tl;
    B->spread = pl->spread;
    B->drop = pl->drop;
    B->lambda[0] = pl->lambda[0];
    B->lambda[1] = pl->lambda[1];
    B->lambda[2] = pl->lambda[2];
}

/* Whether a new basis plane and its weights can be trusted (pivot()'s careful
 * check): the plane clear of the origin, the weights not clearly negative,
 * and giving back the crossing point. */
static __attribute__((noinline)) int plane_trusted(const plane *pl, const mk_vec3 *w0, const mk_vec3 *w1,
                                                   const mk_vec3 *w2, const mk_vec3 *p)
{
    const mk_vec3 x = v3_madd(v3_madd(v3_scale(*w0, pl->lambda[0]), pl->lambda[1], *w1), pl->lambda[2], *w2);
    const mk_vec3 y = v3_scale(*p, pl->tl);
    const mk_real m = rmax(v3_max_abs(y), rmax(v3_max_abs(*w0), rmax(v3_max_abs(*w1), v3_max_abs(*w2))));
    return pl->h > 1e-12 * m && pl->lambda[0] >= -1e-9 && pl->lambda[1] >= -1e-9 && pl->lambda[2] >= -1e-9 &&
           v3_max_abs(v3_sub(x, y)) <= 1e-11 * m;
}

/* Orthonormal e1, e2 completing the unit u (Duff et al., "Building an
 * orthonormal basis, revisited"). */
static inline void complete_basis(mk_vec3 u, mk_vec3 *e1, mk_vec3 *e2)
{
    mk_real sg = copysign(1.0, u.z);
    mk_real k = -1 / (sg + u.z);
    mk_real m = u.x * u.y * k;
    *e1 = v3(1 + sg * u.x * u.x * k, sg * m, -sg * u.x);
    *e2 = v3(m, sg + u.y * u.y * k, -u.y);
}

/* Three directions 120 degrees apart (cos, sin). */
static const mk_real CS[3][2] = {{1, 0}, {-0.5, 0.86602540378443864676}, {-0.5, -0.86602540378443864676}};

/* Initial basis, Alg. 1: a ball of radius r = ia + ib about the origin lies in
 * D' (ball(c_A, ia) in A, ball(c_B, ib) in B); three points of its sphere on the
 * cone of half-angle acos(INIT_COS) around p. Each point w splits as
 * a = c_A + (ia / r) w in A and b = c_B - (ib / r) w in B, computed by
 * ball_points() for those still in the final basis (usually none). */
static void init_basis(basis *B, const ctx *c, mk_real p_len, mk_vec3 frame[3])
{
    mk_vec3 u = v3_scale(c->p, 1 / p_len);
    mk_vec3 e1, e2;
    complete_basis(u, &e1, &e2);
    const mk_real r = c->ia + c->ib;
    for (int i = 0; i < 3; ++i) {
        mk_vec3 side = v3_add(v3_scale(e1, CS[i][0]), v3_scale(e2, CS[i][1]));
        B->w[i] = v3_scale(v3_add(v3_scale(u, MK_GROWTH_INIT_COS), v3_scale(side, MK_GROWTH_INIT_SIN)), r);
        B->id[i] = i;
        B->lambda[i] = 1.0 / 3;
    }
    B->n = u;
    B->h = r * MK_GROWTH_INIT_COS;
    B->np = p_len;
    B->tl = B->h / p_len;
    B->spread = 0;
    B->drop = proj_for(u);
    frame[0] = u;
    frame[1] = e1;
    frame[2] = e2;
}

/* Inner approximation update, Alg. 2 / Sec. III-C2: bring s into the basis by one
 * Simplex pivot. Its reduced cost is negative iff <n, s> > h (s beyond the basis
 * plane); the outgoing index minimises lambda_j / alpha_j over alpha_j > 0 (26),
 * with alpha the barycentric coordinates of s projected centrally onto the basis
 * plane (scaling p and s leaves the argmin alone, Sec. III-F2); ties go to the
 * smallest entry index (Bland). Returns 0 (basis unchanged) when s does not
 * enter or the new basis would be numerically degenerate. */
static inline __attribute__((always_inline)) int pivot_impl(basis *B, const mk_vec3 *pp, const mk_vec3 *sp, mk_real hs,
                                                            const mk_vec3 *a, const mk_vec3 *b, int id,
                                                            const int careful)
{
    const mk_vec3 p = *pp, s = *sp;
    /* Beyond the plane by more than its own rounding (the scatter of <n, w_i>
     * about h): otherwise the support point is, in floating point, already in the
     * basis and no pivot can make progress. hs = <n, s>. */
    if (!(hs - B->h > 4 * B->spread + 4 * DBL_EPSILON * fabs(hs)))
        return 0;
    /* Signed areas of s projected centrally onto the basis plane: alpha_j =
     * area_j / sum (Sec. III-F2). Only their signs and the ratios
     * lambda_j / alpha_j matter, so compare cross-multiplied, without dividing. */
    mk_real area[3];
    mk_real sum = signed_areas(B->drop, B->w[0], B->w[1], B->w[2], v3_scale(s, B->h / hs), area);
    if (!(fabs(sum) > 0) || !isfinite(sum))
        return 0;
    int out = -1;
    mk_real num = 0, den = 1; /* best ratio lambda_out / alpha_out = num / den, den > 0 */
    for (int j = 0; j < 3; ++j) {
        mk_real aj = sum > 0 ? area[j] : -area[j]; /* alpha_j * |sum| */
        if (!(aj > 0))
            continue;
        mk_real lj = rmax(B->lambda[j], 0);
        mk_real lhs = lj * den, rhs = num * aj;
        if (out < 0 || lhs < rhs || (lhs == rhs && B->id[j] < B->id[out])) {
            num = lj;
            den = aj;
            out = j;
        }
    }
    if (out < 0)
        return 0;
    plane pl;
    if (!triangle_plane(out == 0 ? s : B->w[0], out == 1 ? s : B->w[1], out == 2 ? s : B->w[2], p, &pl))
        return 0;
    /* Careful pivots (the corner steps' columns, which can lie in one plane
     * with the ray: an edge of P raised along n and a point along it): the
     * ratio test keeps the crossing in the new triangle, and its weights give
     * back the crossing point; weights clearly negative, or a point they do
     * not give back, mean a triangle too thin (or too near the ray) for its
     * plane and weights to be trusted, and the basis stays. */
    if (careful && !plane_trusted(&pl, out == 0 ? &s : &B->w[0], out == 1 ? &s : &B->w[1],
                                  out == 2 ? &s : &B->w[2], pp))
        return 0;
    B->w[out] = s;
    B->a[out] = *a;
    B->b[out] = *b;
    B->id[out] = id;
    set_plane(B, &pl);
    return 1;
}

static int pivot(basis *B, const mk_vec3 *pp, const mk_vec3 *sp, mk_real hs, const mk_vec3 *a, const mk_vec3 *b, int id)
{
    return pivot_impl(B, pp, sp, hs, a, b, id, 0);
}

static __attribute__((noinline)) int pivot_careful(basis *B, const mk_vec3 *pp, const mk_vec3 *sp, mk_real hs,
                                                   const mk_vec3 *a, const mk_vec3 *b, int id)
{
    return pivot_impl(B, pp, sp, hs, a, b, id, 1);
}

/* ------------------------------------------------------------ secant direction */

/* Any unit normal n with <n, p> > 0 gives a valid outer bound (22) and any
 * support point a valid column of LP (15), so the direction of the next support
 * call is free; the certified bracket does not depend on it. On curved D' the
 * basis normal converges only linearly (the pruned basis keeps old, distant
 * points). Near the solution the support map n -> s(n) is smooth, and the answer
 * is the n whose support point lies on the ray t p. This is a root of the 2D map
 * f(theta) = (<s, e1>, <s, e2>) of the gnomonic coordinates theta = (<n, e1>,
 * <n, e2>) / <n, u> (u = p / |p|, e1, e2 its orthonormal complement); the secant
 * method through the last three samples (an affine fit) approximates that root
 * superlinearly (ours, not the paper's). On polytopes the support map is
 * piecewise constant, and on capsules and cylinders constant along their
 * rulings: only pairs of smooth strictly convex shapes take secant steps (see
 * is_smooth); the others use the basis normal, as in the paper. */
typedef struct secant {
    mk_vec3 u, e1, e2;
    mk_real th[3][2]; /* samples, newest first */
    mk_real f[3][2];
    mk_vec3 n[3], a[3], b[3]; /* their directions and points (A's frame), for the cache */
    int count;
    int fresh;        /* samples taken by this query (the others came from the cache) */
    /* Warm start: the cached samples' fit (chord_take), kept until this query
     * has three samples of its own. */
    int chord;
    mk_real chord_g[2][2], chord_dth[2][2];
} secant;

/* Largest extrapolation of the fit, in units of the sampled differences, and the
 * smallest |sin| of the angle between the two sampled differences of f. */
#define MK_GROWTH_SECANT_REACH 4.0
#define MK_GROWTH_SECANT_SIN 1e-3
/* Largest chord step (warm start), in gnomonic units (|d theta_1| + |d theta_2|,
 * about 27 degrees). Measured on 3,000 ellipsoid pairs moved by 1% and turned
 * by 0.01 rad, supports warm (cold 8.63): 4.10 with 0.05, 3.70 with 0.2, 3.68
 * with 0.5 and 2.0 (with 2.0 one pair took more supports than cold). */
#define MK_GROWTH_CHORD_REACH 0.5

/* Takes the sample (s = the support point along n, from a and b) unless n
 * faces away from the ray; returns whether it did. */
static inline int secant_push(secant *sc, mk_vec3 n, mk_vec3 s, mk_vec3 a, mk_vec3 b)
{
    mk_real nu = v3_dot(n, sc->u);
    if (!(nu > 0))
        return 0;
    for (int i = 2; i > 0; --i) {
        sc->th[i][0] = sc->th[i - 1][0];
        sc->th[i][1] = sc->th[i - 1][1];
        sc->f[i][0] = sc->f[i - 1][0];
        sc->f[i][1] = sc->f[i - 1][1];
        sc->n[i] = sc->n[i - 1];
        sc->a[i] = sc->a[i - 1];
        sc->b[i] = sc->b[i - 1];
    }
    sc->n[0] = n;
    sc->a[0] = a;
    sc->b[0] = b;
    sc->th[0][0] = v3_dot(n, sc->e1) / nu;
    sc->th[0][1] = v3_dot(n, sc->e2) / nu;
    sc->f[0][0] = v3_dot(s, sc->e1);
    sc->f[0][1] = v3_dot(s, sc->e2);
    sc->count += sc->count < 3;
    return 1;
}

/* The differences of the fit through the three samples, g[k] = f[k+1] - f[0]
 * and dth[k] = th[k+1] - th[0]; 0 when the fit is singular. */
static inline int fit_of(const secant *sc, mk_real g[2][2], mk_real dth[2][2])
{
    for (int k = 0; k < 2; ++k)
        for (int c = 0; c < 2; ++c) {
            g[k][c] = sc->f[k + 1][c] - sc->f[0][c];
            dth[k][c] = sc->th[k + 1][c] - sc->th[0][c];
        }
    const mk_real det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
    const mk_real l1 = g[0][0] * g[0][0] + g[0][1] * g[0][1], l2 = g[1][0] * g[1][0] + g[1][1] * g[1][1];
    return det * det > MK_GROWTH_SECANT_SIN * MK_GROWTH_SECANT_SIN * l1 * l2;
}

/* The unit direction of the root of the affine map x -> f[0] + g x, th[0] +
 * dth x (the newest sample and a fit's differences, g not singular), or 0 when
 * it reaches farther than `reach` in units of the differences or `th_reach`
 * in gnomonic units. */
static inline int fit_step(const secant *sc, const mk_real g[2][2], const mk_real dth[2][2], mk_real reach,
                           mk_real th_reach, mk_vec3 *n)
{
    const mk_real det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
    /* x1 g1 + x2 g2 = -f0 (Cramer). */
    const mk_real x1 = (-sc->f[0][0] * g[1][1] + sc->f[0][1] * g[1][0]) / det;
    const mk_real x2 = (-sc->f[0][1] * g[0][0] + sc->f[0][0] * g[0][1]) / det;
    if (!(fabs(x1) + fabs(x2) <= reach))
        return 0;
    const mk_real tx = sc->th[0][0] + x1 * dth[0][0] + x2 * dth[1][0];
    const mk_real ty = sc->th[0][1] + x1 * dth[0][1] + x2 * dth[1][1];
    if (!(fabs(tx - sc->th[0][0]) + fabs(ty - sc->th[0][1]) <= th_reach))
        return 0;
    mk_vec3 d = v3_madd(v3_madd(sc->u, tx, sc->e1), ty, sc->e2);
    mk_real l = v3_len(d);
    if (!(l > 0) || !isfinite(l))
        return 0;
    *n = v3_scale(d, 1 / l);
    return 1;
}

/* Warm start: the fit through the cached samples (moved with their shapes)
 * estimates the support map's Jacobian at the old solution, which a small
 * motion barely changes. The samples themselves lie about the old solution,
 * closer together than the motion moved it: a secant step from them reaches
 * many times their spread (beyond MK_GROWTH_SECANT_REACH), and fits mixing
 * them with this query's samples are wrong. So the first steps are chord
 * steps (Newton's method with that fixed Jacobian) from this query's newest
 * sample, until it has three samples of its own. */
static inline void chord_take(secant *sc)
{
    sc->chord = sc->count == 3 && fit_of(sc, sc->chord_g, sc->chord_dth);
}

/* The secant step's unit direction, or 0 when the fit is singular or reaches
 * too far. */
static inline int secant_direction(const secant *sc, mk_vec3 *n)
{
    if (sc->chord && sc->fresh < 3)
        return fit_step(sc, sc->chord_g, sc->chord_dth, INFINITY, MK_GROWTH_CHORD_REACH, n);
    mk_real g[2][2], dth[2][2];
    if (sc->count < 3 || !fit_of(sc, g, dth))
        return 0;
    return fit_step(sc, g, dth, MK_GROWTH_SECANT_REACH, INFINITY, n);
}

/* ------------------------------------------------------------ rounded polytopes */

/* A core that is a point or a segment. */
static inline int thin_core(const mk_shape *s) { return s->type == MK_SHAPE_SPHERE || s->type == MK_SHAPE_CAPSULE; }

/* Pairs that take the corner steps: both cores points or segments (P at most
 * a parallelogram), or a point against a box or hull (P that polytope, the
 * rounding mostly the sphere's). Measured on 1000 random pairs each (cold,
 * supports and ns before -> after): capsule-capsule 21.3 -> 4.4, 1874 -> 800;
 * sphere-box 18.5 -> 4.9, 1705 -> 1105; sphere against a 20-point hull 21.8
 * -> 5.0, 4029 -> 2062; sphere against a rounded box 19.4 -> 4.8, 1794 ->
 * 1133. Left out, where fewer supports did not pay for dearer steps:
 * capsule-box 15.2 -> 6.2 supports but 1421 -> 1402 ns, capsule-hull 17.1 ->
 * 7.4 and 3234 -> 3227 ns, rounded box pairs 13.3 -> 8.3 and 1074 -> 1832 ns,
 * rounded hull pairs 15.4 -> 9.4 and 3195 -> 3693 ns. */
static inline int corner_pair(const mk_shape *a, const mk_shape *b)
{
    const int pa = a->type == MK_SHAPE_BOX || a->type == MK_SHAPE_HULL;
    const int pb = b->type == MK_SHAPE_BOX || b->type == MK_SHAPE_HULL;
    return (thin_core(a) && thin_core(b)) || (a->type == MK_SHAPE_SPHERE && pb) || (b->type == MK_SHAPE_SPHERE && pa);
}

/* When both cores are polytopes (points, segments, boxes, hulls) and the radii
 * r = r_A + r_B > 0, D' = P + r B (P the polytope of core differences, B the
 * unit ball): its boundary is flat over P's faces, cylindrical over its edges
 * and spherical over its vertices, and on the curved pieces the basis normal
 * converges only linearly (capsule pairs: ~21 supports). Every support point s along n is a vertex q = s - r n
 * of P plus r n, and q + r u is a point of D' for any unit u. The last three
 * vertices met span conv(q1, q2, q3) + r B, a subset of D' whose boundary is
 * known in closed form (a triangle's top, cylinders about its edges, balls
 * about its corners); where the ray leaves it predicts where it leaves D',
 * whenever that exit is over the same face, edge or vertex of P. The support
 * along the normal there then returns a vertex of that piece and gives the
 * outer bound at the predicted t, and the piece's vertices raised along that
 * normal enter the basis as columns, whose plane meets the ray at the same t:
 * the bracket closes in one support. Otherwise the support still tightens the
 * bracket as any does and adds a vertex (ours, not the paper's; the bracket
 * stays certified, as for the secant steps). When both cores are points or
 * segments (spheres, capsules) P has at most four vertices, known from the
 * cores' ends: all are held from the start (whole_p), the pieces are those of
 * D' itself and the first step predicts its exit: with the step's columns
 * taken as the basis (corner_columns), one support decides (capsule pairs,
 * test_growth: 3.56 supports cold and 1.31 warm with the vertices met, 1.00
 * either way). The columns of these steps can lie in one plane with the ray
 * (an edge of P raised along n and a point along it), so their pivots check
 * the new plane (pivot_careful). A step
 * costs about two of the paper's iterations (the pieces' exits, up to three
 * pivots): it pays where P is small or the rounding is a sphere's, not where
 * P's large flat faces, which the basis normal finds in a few supports, meet
 * a rounding (corner_pair; a Bullet bin in the growth model, where margins
 * round every shape, ran 20% slower with the steps on every pair). */
typedef struct corner {
    mk_vec3 q, a, b; /* vertex of P, and the core points of A and B it came from (A's frame) */
} corner;

typedef struct corners {
    corner c[4]; /* the last three distinct vertices met, newest first; or all of P's (whole) */
    int count;
    int whole;   /* c holds every vertex of P (points and segments: up to 4), fixed */
    int shot;    /* a corner step was taken (whole: it predicted D's exit; the next
                  * would repeat it) */
} corners;

static inline int same_point(mk_vec3 u, mk_vec3 v) { return u.x == v.x && u.y == v.y && u.z == v.z; }

/* Vertices of P closer than this (relative to |q| + r) are one: q = s - r n
 * carries the rounding of s and of r n, so a vertex met along two normals
 * rarely comes out bit for bit the same, and its copies crowded the other
 * vertices out of the three held (capsule pairs whose P is one flat
 * parallelogram kept three copies of one corner: no step predicted beyond
 * the bound, and the basis normal crept on linearly, 9 supports warm
 * against 4 cold). */
#define MK_GROWTH_SAME_VERTEX 1e-9

/* Whether vertices u and q of P are one (rr = r_A + r_B). */
static inline int same_vertex(mk_vec3 u, mk_vec3 q, mk_real rr)
{
    return v3_len2(v3_sub(u, q)) <= MK_GROWTH_SAME_VERTEX * MK_GROWTH_SAME_VERTEX * (v3_len2(q) + rr * rr);
}

/* q to the front (moved there when already held); rr = r_A + r_B. */
static inline void corners_push(corners *k, mk_vec3 q, mk_vec3 a, mk_vec3 b, mk_real rr)
{
    if (k->whole)
        return;
    int j = 0;
    while (j < k->count && !same_vertex(k->c[j].q, q, rr))
        ++j;
    if (j == k->count)
        j = k->count < 3 ? k->count++ : 2;
    for (; j > 0; --j)
        k->c[j] = k->c[j - 1];
    k->c[0].q = q;
    k->c[0].a = a;
    k->c[0].b = b;
}

/* Largest root of a t^2 - 2 b t + c = 0 (a > 0), or -INFINITY. */
static inline mk_real exit_root(mk_real a, mk_real b, mk_real c)
{
    const mk_real disc = b * b - a * c;
    return disc >= 0 && a > 0 ? (b + sqrt(disc)) / a : -INFINITY;
}

/* The ray's exit from conv(held vertices) + r B (a subset of D'): over the
 * top of their triangle, a cylinder about one of their edges or a ball about
 * one of them, whichever the ray leaves last. Writes the unit normal there
 * (<n, p> > 0) and the vertices of that piece (1 to 3, in feat); 0 when the
 * ray misses or leaves no farther than tl. */
static int corner_direction(const corners *k, mk_vec3 p, mk_real r, mk_real tl, mk_vec3 *n, corner feat[3], int *nfeat)
{
    const mk_real pp = v3_dot(p, p);
    mk_real t = -INFINITY;
    mk_vec3 foot = v3(0, 0, 0);
    int mask = 0;
    for (int i = 0; i < k->count; ++i) {
        const mk_vec3 q = k->c[i].q;
        const mk_real ti = exit_root(pp, v3_dot(p, q), v3_dot(q, q) - r * r);
        if (ti > t)
            t = ti, foot = q, mask = 1 << i;
    }
    /* The edges and triangles of the held vertices: all of them when up to
     * three are held; of a parallelogram held whole (whole_p's order), its
     * four sides and two halves. */
    static const int EDGE[4][2] = {{0, 1}, {0, 2}, {1, 2}, {1, 3}};
    static const int SIDE[4][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
    static const int TRI[2][3] = {{0, 1, 2}, {1, 3, 2}};
    const int (*edges)[2] = k->count == 4 ? SIDE : EDGE;
    const int nedges = k->count == 4 ? 4 : k->count == 3 ? 3 : k->count - 1;
    const int ntris = k->count == 4 ? 2 : k->count == 3 ? 1 : 0;
    for (int e = 0; e < nedges; ++e) {
        const int i = edges[e][0], j = edges[e][1];
        const mk_vec3 q1 = k->c[i].q, u = v3_sub(k->c[j].q, q1);
        const mk_real uu = v3_dot(u, u);
        if (!(uu > 0))
            continue;
        /* |(t p - q1) - ((t p - q1) . u / uu) u| = r */
        const mk_vec3 pc = v3_madd(p, -v3_dot(p, u) / uu, u), qc = v3_madd(q1, -v3_dot(q1, u) / uu, u);
        const mk_real tc = exit_root(v3_dot(pc, pc), v3_dot(pc, qc), v3_dot(qc, qc) - r * r);
        const mk_real sc = v3_dot(v3_sub(v3_scale(p, tc), q1), u) / uu;
        if (tc > t && sc > 0 && sc < 1)
            t = tc, foot = v3_madd(q1, sc, u), mask = 1 << i | 1 << j;
    }
    /* The triangles' tops. */
    mk_vec3 nf = v3(0, 0, 0);
    int top = 0;
    for (int f = 0; f < ntris; ++f) {
        const int i = TRI[f][0], j = TRI[f][1], l = TRI[f][2];
        const mk_vec3 q1 = k->c[i].q, q2 = k->c[j].q, q3 = k->c[l].q;
        const mk_vec3 e1 = v3_sub(q2, q1), e2 = v3_sub(q3, q1);
        const mk_vec3 N = v3_cross(e1, e2);
        const mk_real ln = v3_len(N);
        if (!(ln > 1e-9 * (v3_dot(e1, e1) + v3_dot(e2, e2)) && isfinite(ln)))
            continue;
        const mk_vec3 nt = v3_scale(N, copysign(1 / ln, v3_dot(N, p)));
        const mk_real tf = (v3_dot(nt, q1) + r) / v3_dot(nt, p);
        /* the foot t p - r nt in the triangle (signed areas against nt) */
        const mk_vec3 fo = v3_madd(v3_scale(p, tf), -r, nt);
        const mk_real s1 = v3_dot(v3_cross(v3_sub(q2, q1), v3_sub(fo, q1)), nt);
        const mk_real s2 = v3_dot(v3_cross(v3_sub(q3, q2), v3_sub(fo, q2)), nt);
        const mk_real s3 = v3_dot(v3_cross(v3_sub(q1, q3), v3_sub(fo, q3)), nt);
        const int inside = (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
        if (inside && tf > t && isfinite(tf))
            t = tf, nf = nt, top = 1, mask = 1 << i | 1 << j | 1 << l;
    }
    if (!(t > tl) || !isfinite(t))
        return 0;
    if (top) {
        *n = nf;
    } else {
        const mk_vec3 d = v3_sub(v3_scale(p, t), foot);
        const mk_real l = v3_len(d);
        if (!(l > 0) || !isfinite(l))
            return 0;
        *n = v3_scale(d, 1 / l);
    }
    *nfeat = 0;
    for (int i = 0; i < k->count; ++i)
        if (mask >> i & 1)
            feat[(*nfeat)++] = k->c[i];
    return v3_dot(*n, p) > 0;
}

/* The triangle of the points w (of D'; a, b their points of A and B, ids
 * id0 + i) as the basis, when the ray crosses it (weights >= -slack: 0, or a
 * rounding allowance where the crossing lies on an edge by construction)
 * above the current bound: a feasible basis of LP (15) at once, whatever
 * pivots from the current one would keep. Returns whether it was taken. */
static int adopt_triangle(basis *B, const ctx *c, const mk_vec3 w[3], const mk_vec3 a[3], const mk_vec3 b[3], int id0,
                          mk_real slack)
{
    plane pl;
    if (!triangle_plane(w[0], w[1], w[2], c->p, &pl) ||
        !(pl.lambda[0] >= -slack && pl.lambda[1] >= -slack && pl.lambda[2] >= -slack) || !(pl.tl > B->tl))
        return 0;
    if (c->corners && !plane_trusted(&pl, &w[0], &w[1], &w[2], &c->p))
        return 0;
    for (int i = 0; i < 3; ++i) {
        B->w[i] = w[i];
        B->a[i] = a[i];
        B->b[i] = b[i];
        B->id[i] = id0 + i;
    }
    set_plane(B, &pl);
    return 1;
}

/* corner_columns' tilts (tangents) about n: over an edge's cylinder the third
 * column's; over a vertex's ball the three's, MK_GROWTH_TILT times
 * sqrt(tolerance) (their chords sink rr (1 - cos) ~ 0.045 tolerance rr below
 * D') but at least MK_GROWTH_TILT_MIN (a thinner triangle's plane fails
 * plane_trusted). Weights down to minus MK_GROWTH_EDGE_SLACK are rounding
 * where the ray crosses the columns' triangle on an edge by construction. */
#define MK_GROWTH_EDGE_TILT 0.25
#define MK_GROWTH_TILT 0.3
#define MK_GROWTH_TILT_MIN 1e-5
#define MK_GROWTH_EDGE_SLACK 1e-12

/* After a support call along n in corner mode: its vertex of P is held, and
 * after a shot (feat: the piece's vertices) points of D' about the predicted
 * exit enter the basis as columns, taken whole as the basis when the ray
 * crosses them (pivoted one by one, the ratio test could keep an old point
 * instead of a new one: 3 supports instead of 1 on 5% of capsule pairs),
 * else pivoted in:
 *   - over a triangle's top its vertices raised along n (the face of D'
 *     there; the support point is one of them when the prediction holds);
 *   - over an edge's cylinder, when the support point is one of the edge's
 *     ends raised (the prediction holds), both ends raised along n (the
 *     line through the exit on D') and the first also along n tilted about
 *     the edge (any third point: the ray crosses the triangle on that line);
 *     otherwise both ends raised along n, pivoted (the triangle's crossing
 *     on its edge is a degenerate basis, which, where the prediction missed,
 *     pivoted in place: a sphere against a hull took 100 supports);
 *   - over a vertex's ball the vertex raised along three normals tilted
 *     around n: the ray crosses their triangle just below the exit, and the
 *     support point, the exit itself when the prediction holds, then pivots
 *     in as a vertex there. */
static __attribute__((noinline)) void corner_columns(const ctx *c, basis *B, corners *kc, mk_vec3 n, const mk_vec3 *s,
                                                     const mk_vec3 *pa, const mk_vec3 *pb, const corner *feat,
                                                     int nfeat, mk_real tol, int id)
{
    const mk_real rr = c->ra + c->rb;
    const mk_vec3 q = v3_madd(*s, -rr, n);
    corners_push(kc, q, v3_madd(*pa, -c->ra, n), v3_madd(*pb, c->rb, n), rr);
    if (!feat || nfeat < 1 || nfeat > 3)
        return;
    kc->shot = 1;
    const corner *o[3] = {&feat[0], &feat[0], &feat[0]};
    mk_vec3 up[3] = {n, n, n};
    mk_real slack = 0;
    if (nfeat == 3) {
        o[1] = &feat[1];
        o[2] = &feat[2];
    } else if (nfeat == 2) {
        o[1] = &feat[1];
        if (same_vertex(feat[0].q, q, rr) || same_vertex(feat[1].q, q, rr)) {
            const mk_vec3 side = v3_normalize_or(v3_cross(v3_sub(feat[1].q, feat[0].q), n), v3(0, 0, 0));
            up[2] = v3_normalize_or(v3_madd(n, MK_GROWTH_EDGE_TILT, side), n);
            slack = MK_GROWTH_EDGE_SLACK;
        } else {
            for (int i = 0; i < 2; ++i) {
                mk_vec3 w = v3_madd(o[i]->q, rr, n), wa = v3_madd(o[i]->a, c->ra, n);
                mk_vec3 wb = v3_madd(o[i]->b, -c->rb, n);
                pivot_careful(B, &c->p, &w, v3_dot(B->n, w), &wa, &wb, id + i);
            }
            return;
        }
    } else {
        const mk_real tilt = rmax(MK_GROWTH_TILT * sqrt(tol), MK_GROWTH_TILT_MIN);
        mk_vec3 e1, e2;
        complete_basis(n, &e1, &e2);
        for (int i = 0; i < 3; ++i)
            up[i] = v3_normalize_or(v3_madd(n, tilt, v3_add(v3_scale(e1, CS[i][0]), v3_scale(e2, CS[i][1]))), n);
    }
    mk_vec3 w[3], wa[3], wb[3];
    for (int i = 0; i < 3; ++i) {
        w[i] = v3_madd(o[i]->q, rr, up[i]);
        wa[i] = v3_madd(o[i]->a, c->ra, up[i]);
        wb[i] = v3_madd(o[i]->b, -c->rb, up[i]);
    }
    if (!adopt_triangle(B, c, w, wa, wb, id, slack))
        for (int i = 0; i < 3; ++i)
            pivot_careful(B, &c->p, &w[i], v3_dot(B->n, w[i]), &wa[i], &wb[i], id + i);
}

/* ------------------------------------------------------------ the loop */

typedef enum outcome { RUN_CONVERGED, RUN_SEPARATED, RUN_OVERLAP, RUN_MAX_ITER, RUN_BAD } outcome;

typedef struct run {
    basis B;
    mk_real tu;         /* best upper bound on t* (eq. 22) */
    mk_vec3 nu;         /* its unit normal */
    mk_real hu_a, hu_b; /* <nu, a> = h_A(nu) and <nu, b> = -h_B(-nu) (A's frame) */
    corners kc;         /* rounded polytopes: the last vertices of P met */
    int wide_taken;     /* the generic loop's basis at MK_GROWTH_WIDE_GAP, when met: */
    int wide;           /* its support points (ids >= 3; ball points have no A, B split yet) */
    mk_vec3 wide_a[3], wide_b[3];
    int iterations;
    outcome out;
} run;

static __attribute__((noinline)) void take_wide(run *r)
{
    r->wide_taken = 1;
    r->wide = 0;
    for (int i = 0; i < 3; ++i)
        if (r->B.id[i] >= 3) {
            r->wide_a[r->wide] = r->B.a[i];
            r->wide_b[r->wide++] = r->B.b[i];
        }
}

static void whole_p(const ctx *c, corners *k);

/* Supports after which the Boolean query on two thin cores (points or
 * segments: thin_core) holds P whole (whole_p), as the distance query does
 * from the start. The basis normal's supports decide most such pairs in one
 * or two, cheaper than the whole step (solve), but capsule pairs whose
 * growth distance is a few percent from 1 took up to 10 (test
 * boolean_exits_early at MK_TEST_SCALE=300: 6 to 10 on four capsule pairs of
 * 900,000, sigma 0.987 to 1.059; 4 to 5 with this), where the whole step
 * predicts the exit from D' itself. Instructions per Boolean call on the
 * bench's capsule pairs (mk_growth_bench --only capsules --method bool):
 * 2,204 without, 2,228 with 3 here, 2,300 with 2. */
#define MK_GROWTH_BOOLEAN_WHOLE_AFTER 3

/* Alg. 3's loop from the initial (or warm) basis in r->B; returns the number of
 * support calls. `smooth` and `corner_mode` (constants at each call site)
 * enable secant steps and the corner steps of rounded polytopes. */
static inline __attribute__((always_inline)) int iterate(ctx *c, const mk_growth_settings *st, int boolean, run *r,
                                                         secant *sc, const int smooth, const int corner_mode)
{
    basis *B = &r->B;
    const mk_real tol = st->tolerance;
    const mk_real rr = c->ra + c->rb;
    corners *kc = &r->kc;
    const int whole_at = corner_mode && boolean && !kc->whole && thin_core(c->a) && thin_core(c->b)
                             ? MK_GROWTH_BOOLEAN_WHOLE_AFTER
                             : -1;
    int k, fallback = 0;
    for (k = 0; k < st->max_iterations; ++k) {
        if (k == whole_at) {
            whole_p(c, kc);
            kc->shot = 0;
        }
        /* Support direction: the secant step when the fit allows it (and the
         * last secant step made progress), the corner step on rounded
         * polytopes, else the basis normal (Alg. 2). */
        mk_vec3 n = B->n;
        corner feat[3];
        int nfeat = 0;
        const int sec = smooth        ? !fallback && secant_direction(sc, &n)
                        : corner_mode ? !fallback && !(kc->whole && kc->shot) &&
                                            corner_direction(kc, c->p, rr, B->tl, &n, feat, &nfeat)
                                      : 0;
        if (!sec)
            n = B->n;
        mk_vec3 pa, pb;
        mk_vec3 s = support(c, n, &pa, &pb);
        /* Outer approximation update (22). A support point that is not finite
         * (a user callback's) makes t not finite: n is a unit vector, so some
         * component multiplies an infinity or NaN by a nonzero number or an
         * infinity by zero. */
        const mk_real hn = v3_dot(n, s);
        mk_real t = hn / (sec ? v3_dot(n, c->p) : B->np);
        if (!isfinite(t)) {
            r->out = RUN_BAD;
            break;
        }
        if (t < r->tu) {
            r->tu = t;
            r->nu = n;
            r->hu_a = v3_dot(n, pa);
            r->hu_b = v3_dot(n, pb);
        }
        /* ... by a plane whose margin comes out positive (mk_growth_intersect's
         * certificate): at touching the two can disagree in rounding. */
        if (boolean && r->tu < 1 && r->hu_b - r->hu_a > 0) {
            r->out = RUN_SEPARATED;
            ++k;
            break;
        }
        if (r->tu - B->tl <= tol * B->tl) {
            r->out = RUN_CONVERGED;
            ++k;
            break;
        }
        if (smooth)
            sc->fresh += secant_push(sc, n, s, pa, pb);
        if (corner_mode)
            corner_columns(c, B, kc, n, &s, &pa, &pb, sec ? feat : NULL, nfeat, tol, 9 + st->max_iterations + 3 * k);
        /* Inner approximation update. No pivot along the basis normal means no
         * progress is possible in floating point: the bracket is as tight as it
         * gets. After a secant or corner step, fall back to the basis normal
         * (the corner step's columns may have closed the bracket already: the
         * checks below still run). */
        const mk_real hs = sec ? v3_dot(B->n, s) : hn;
        const int moved = corner_mode ? pivot_careful(B, &c->p, &s, hs, &pa, &pb, 9 + k)
                                      : pivot(B, &c->p, &s, hs, &pa, &pb, 9 + k);
        if (!moved && !sec) {
            r->out = RUN_CONVERGED;
            ++k;
            break;
        }
        fallback = !moved;
        if (!smooth && !corner_mode && c->wide && !r->wide_taken && r->tu - B->tl <= MK_GROWTH_WIDE_GAP * B->tl)
            take_wide(r);
        if (boolean && B->tl > 1) {
            r->out = RUN_OVERLAP;
            ++k;
            break;
        }
        /* The new inner bound may meet an outer bound found earlier. */
        if (r->tu - B->tl <= tol * B->tl) {
            r->out = RUN_CONVERGED;
            ++k;
            break;
        }
    }
    return k;
}

static __attribute__((noinline)) int iterate_smooth(ctx *c, const mk_growth_settings *st, int boolean, run *r,
                                                    secant *sc)
{
    return iterate(c, st, boolean, r, sc, 1, 0);
}

static __attribute__((noinline)) int iterate_corners(ctx *c, const mk_growth_settings *st, int boolean, run *r,
                                                     secant *sc)
{
    return iterate(c, st, boolean, r, sc, 0, 1);
}

/* Warm start: the cached final basis, moved with the shapes, taken whole as
 * the starting basis when the ray still crosses it (weights >= 0) above the
 * initial bound: a feasible basis of LP (15), the Simplex method's warm start
 * proper. Pivoting its points into the initial basis one by one need not
 * rebuild it (each pivot keeps what the ratio test keeps), and at rest a
 * pair could then take several supports to get back to where it was. */
static __attribute__((noinline)) int adopt_cached(basis *B, const ctx *c, const mk_growth_cache *warm)
{
    mk_vec3 w[3], a[3], b[3];
    for (int i = 0; i < 3; ++i) {
        a[i] = warm->a[i];
        b[i] = v3_add(m3_mul(&c->R, warm->b[i]), c->t);
        w[i] = v3_add(v3_sub(a[i], b[i]), c->p);
        if (!v3_finite(w[i]))
            return 0;
    }
    return adopt_triangle(B, c, w, a, b, 3, 0);
}

/* The ends of a point's or segment's core (a sphere's centre, a capsule's
 * axis), in its own frame; returns how many. */
static int core_ends(const mk_shape *s, mk_vec3 e[2])
{
    e[0] = e[1] = v3(0, 0, 0);
    if (s->type != MK_SHAPE_CAPSULE)
        return 1;
    e[0].z = s->u.capsule.half_height;
    e[1].z = -s->u.capsule.half_height;
    return 2;
}

/* Every vertex of P = core(A) - core(B) + p for two thin cores, with the
 * core points it comes from (A's frame). */
static void whole_p(const ctx *c, corners *k)
{
    mk_vec3 ea[2], eb[2];
    const int na = core_ends(c->a, ea), nb = core_ends(c->b, eb);
    k->count = 0;
    for (int i = 0; i < na; ++i)
        for (int j = 0; j < nb; ++j) {
            corner *o = &k->c[k->count++];
            o->a = ea[i];
            o->b = v3_add(m3_mul(&c->R, eb[j]), c->t);
            o->q = v3_add(v3_sub(o->a, o->b), c->p);
        }
    k->whole = 1;
}

/* Alg. 3 (with the Boolean exits of Sec. III-F4 when `boolean`). */
static void solve(ctx *c, const mk_growth_settings *st, const mk_growth_cache *warm, int boolean, mk_real p_len,
                  run *r, secant *sc)
{
    basis *B = &r->B;
    mk_vec3 frame[3];
    init_basis(B, c, p_len, frame);
    sc->u = frame[0];
    sc->e1 = frame[1];
    sc->e2 = frame[2];
    sc->count = sc->fresh = sc->chord = 0;
    r->tu = INFINITY;
    r->nu = B->n;
    r->hu_a = r->hu_b = 0;
    r->out = RUN_MAX_ITER;
    r->iterations = 0;
    r->kc.count = r->kc.whole = r->kc.shot = 0;
    r->wide_taken = r->wide = 0;

    const int thin = c->corners && thin_core(c->a) && thin_core(c->b);
    if (thin && !boolean) {
        /* Points and segments: P is a point, a segment or a parallelogram,
         * held whole, and the first corner step predicts the exit from D'
         * itself (no warm start needed: the cache is not read). Not for the
         * Boolean query, which the basis normal's first support or two
         * mostly decide: the step costs more than they do (capsule pairs,
         * mk_growth_bench: 110 -> 283 ns with the step first, 138 with it
         * second). */
        whole_p(c, &r->kc);
    } else if (warm && c->corners && warm->corners > 0) {
        /* The cached vertices of P, moved with their shapes, give the first
         * direction (a corner step, which at a small displacement usually
         * lands on the same piece of D' and closes the bracket). */
        for (int i = (warm->corners < 3 ? warm->corners : 3) - 1; i >= 0; --i) {
            mk_vec3 a = warm->corner_a[i];
            mk_vec3 b = v3_add(m3_mul(&c->R, warm->corner_b[i]), c->t);
            mk_vec3 q = v3_add(v3_sub(a, b), c->p);
            if (v3_finite(q))
                corners_push(&r->kc, q, a, b, c->ra + c->rb);
        }
    }
    /* Points and segments: P is at most a parallelogram, and the cached basis
     * would only cost pivots (capsule pairs: 2.3 supports either way, 400
     * against 560 ns, with the vertices met). Against a box or hull it stays,
     * for P's faces. */
    if (thin)
        warm = NULL;
    /* Smooth pairs: the cached samples, moved with their shapes, seed the secant
     * fit (their directions are A's, unchanged) and give the chord steps their
     * Jacobian (chord_take): at a small displacement the first step is a
     * Newton step with the previous Jacobian. */
    if (warm && c->smooth && warm->samples > 0) {
        for (int i = (warm->samples < 3 ? warm->samples : 3) - 1; i >= 0; --i) {
            mk_vec3 a = warm->a[i];
            mk_vec3 b = v3_add(m3_mul(&c->R, warm->b[i]), c->t);
            mk_vec3 s = v3_add(v3_sub(a, b), c->p);
            if (v3_finite(s) && v3_finite(warm->n[i]))
                secant_push(sc, warm->n[i], s, a, b);
        }
        chord_take(sc);
        warm = NULL;
    }
    /* Warm start (eq. 31): the cached points, still on their shapes, as columns:
     * the final basis (ids 3-5), then what the wide one adds (6-8). At rest the
     * final basis is optimal still and the others do not enter. */
    if (warm) {
        const int whole = adopt_cached(B, c, warm);
        const int nw = warm->wide < 3 ? warm->wide : 3;
        for (int i = whole ? 3 : 0; i < 3 + nw; ++i) {
            const int wide = i >= 3, j = wide ? i - 3 : i;
            mk_vec3 a = wide ? warm->wide_a[j] : warm->a[j];
            mk_vec3 b = v3_add(m3_mul(&c->R, wide ? warm->wide_b[j] : warm->b[j]), c->t);
            mk_vec3 s = v3_add(v3_sub(a, b), c->p);
            if (v3_finite(s))
                (c->corners ? pivot_careful : pivot)(B, &c->p, &s, v3_dot(B->n, s), &a, &b, 3 + i);
        }
    }
    /* The loop, compiled three times: the paper's Alg. 3 as is, with secant
     * steps for smooth pairs and with corner steps for rounded polytopes (the
     * last two out of line, so that the common loop keeps its registers). */
    if (boolean && B->tl > 1)
        r->out = RUN_OVERLAP;
    else
        r->iterations = c->smooth    ? iterate_smooth(c, st, boolean, r, sc)
                        : c->corners ? iterate_corners(c, st, boolean, r, sc)
                                     : iterate(c, st, boolean, r, sc, 0, 0);
    /* Stopped before its gap met MK_GROWTH_WIDE_GAP after a pivot (closed at a
     * support, or a Boolean exit): the final basis is the widest known. */
    if (c->wide && !r->wide_taken)
        take_wide(r);
}

/* ------------------------------------------------------------ entry points */

static mk_status validate(const mk_growth_input *in, const mk_growth_settings *st)
{
    if (!in || !in->pair.a || !in->pair.b)
        return MK_INVALID_INPUT;
    mk_status sa = mk_shape_validate(in->pair.a);
    if (sa != MK_OK)
        return sa;
    mk_status sb = mk_shape_validate(in->pair.b);
    if (sb != MK_OK)
        return sb;
    if (!mk_is_valid_transform(&in->pair.xf_a) || !mk_is_valid_transform(&in->pair.xf_b))
        return MK_INVALID_INPUT;
    if (!v3_finite(in->centre_a) || !v3_finite(in->centre_b) || !isfinite(in->inradius_a) ||
        !isfinite(in->inradius_b) || in->inradius_a < 0 || in->inradius_b < 0)
        return MK_INVALID_INPUT;
    if (!(st->tolerance >= MK_GROWTH_TOL_MIN && st->tolerance < 1) || st->max_iterations < 1 ||
        st->max_iterations > MK_GROWTH_MAX_ITER_CAP)
        return MK_INVALID_INPUT;
    return MK_OK;
}

/* Strictly convex with a smooth boundary, so that the support map is smooth and
 * one-to-one: spheres and ellipsoids (rounded or not). Flat or straight pieces
 * (faces, capsule and cylinder sides) make it constant along some directions, and
 * secant steps there leave needle-shaped bases whose planes are ill-conditioned. */
static inline int is_smooth(const mk_shape *s) { return s->type == MK_SHAPE_SPHERE || s->type == MK_SHAPE_ELLIPSOID; }

/* Pairs whose D' has curved pieces (not both sharp boxes or hulls): there the
 * paper's loop keeps a wide basis for the next warm start. Sharp polytope pairs
 * end on a face of D' whose vertices the final basis holds already; with the
 * wide basis too, hull-240 pairs took 2.0 supports warm instead of 2.5 but
 * 280-291 ns instead of 260 (three more pivots). */
static inline int wide_pair(const mk_shape *a, const mk_shape *b)
{
    const int pa = a->type == MK_SHAPE_BOX || a->type == MK_SHAPE_HULL;
    const int pb = b->type == MK_SHAPE_BOX || b->type == MK_SHAPE_HULL;
    return !(pa && pb && a->radius == 0 && b->radius == 0);
}

/* Inradius of the whole shape about local centre c: the caller's, or radius +
 * core depth. NAN when a user support is not finite. */
static mk_real inradius(const mk_shape *s, mk_vec3 c, mk_real given)
{
    if (given > 0)
        return given;
    mk_real d = core_depth(s, c);
    return isnan(d) ? NAN : s->radius + d;
}

/* Validate, build the pair context, estimate the inradii. On MK_OK, *p_len is
 * |p| (0 for coincident centres). */
static mk_status prepare(const mk_growth_input *in, const mk_growth_settings *st, const mk_growth_cache *cache,
                         ctx *c, mk_real *p_len)
{
    mk_status v = validate(in, st);
    if (v != MK_OK)
        return v;
    const mk_pair *pr = &in->pair;
    c->a = pr->a;
    c->b = pr->b;
    c->R = m3_tmul_m3(&pr->xf_a.R, &pr->xf_b.R);
    c->t = m3_tmul(&pr->xf_a.R, v3_sub(pr->xf_b.p, pr->xf_a.p));
    c->ca = in->centre_a;
    c->cb = v3_add(m3_mul(&c->R, in->centre_b), c->t);
    c->p = v3_sub(c->cb, c->ca);
    c->ra = pr->a->radius;
    c->rb = pr->b->radius;
    c->hint_a = cache && cache->valid ? cache->hint_a : -1;
    c->hint_b = cache && cache->valid ? cache->hint_b : -1;
    c->rounded = c->ra > 0 || c->rb > 0;
    c->smooth = is_smooth(pr->a) && is_smooth(pr->b);
    c->corners = !c->smooth && c->rounded && corner_pair(pr->a, pr->b);
    c->wide = !c->smooth && !c->corners && wide_pair(pr->a, pr->b);
    c->ia = inradius(pr->a, in->centre_a, in->inradius_a);
    c->ib = inradius(pr->b, in->centre_b, in->inradius_b);
    if (isnan(c->ia) || isnan(c->ib))
        return MK_INVALID_INPUT;
    /* Both centres in their shapes, at least one interior. */
    if (!(c->ia >= 0) || !(c->ib >= 0) || !(c->ia + c->ib > 0) || !isfinite(c->ia + c->ib))
        return MK_GROWTH_DEGENERATE;
    *p_len = v3_len(c->p);
    if (!isfinite(*p_len))
        return MK_INVALID_INPUT;
    /* Centres so close that t* overflows: treat as coincident (sigma* = 0). */
    if (!isfinite((c->ia + c->ib) / *p_len))
        *p_len = 0;
    return MK_OK;
}

/* The points of A and B of the ball points left in the basis (ids 0-2). */
static void ball_points(basis *B, const ctx *c)
{
    const mk_real r = c->ia + c->ib, fa = c->ia / r, fb = c->ib / r;
    for (int i = 0; i < 3; ++i)
        if (B->id[i] < 3) {
            B->a[i] = v3_madd(c->ca, fa, B->w[i]);
            B->b[i] = v3_madd(c->cb, -fb, B->w[i]);
        }
}

static void store_cache(mk_growth_cache *cache, const ctx *c, const run *r, const secant *sc)
{
    const basis *B = &r->B;
    const corners *kc = &r->kc;
    cache->samples = c->smooth ? sc->count : 0;
    for (int i = 0; i < 3; ++i) {
        const int sample = i < cache->samples;
        cache->a[i] = sample ? sc->a[i] : B->a[i];
        cache->b[i] = m3_tmul(&c->R, v3_sub(sample ? sc->b[i] : B->b[i], c->t));
        cache->n[i] = sample ? sc->n[i] : v3(0, 0, 0);
    }
    cache->corners = c->corners && !kc->whole ? kc->count : 0;
    for (int i = 0; i < cache->corners; ++i) {
        cache->corner_a[i] = kc->c[i].a;
        cache->corner_b[i] = m3_tmul(&c->R, v3_sub(kc->c[i].b, c->t));
    }
    /* Only the wide basis' points that the final one lacks (at rest the two
     * are one): a warm start does not transform and test them again. */
    cache->wide = 0;
    for (int i = 0; i < r->wide; ++i) {
        int held = 0;
        for (int j = 0; j < 3; ++j)
            held |= same_point(r->wide_a[i], B->a[j]) && same_point(r->wide_b[i], B->b[j]);
        if (!held) {
            cache->wide_a[cache->wide] = r->wide_a[i];
            cache->wide_b[cache->wide++] = m3_tmul(&c->R, v3_sub(r->wide_b[i], c->t));
        }
    }
    cache->hint_a = c->hint_a;
    cache->hint_b = c->hint_b;
    int ok = 1;
    for (int i = 0; i < 3; ++i)
        ok = ok && v3_finite(cache->a[i]) && v3_finite(cache->b[i]);
    for (int i = 0; i < cache->corners; ++i)
        ok = ok && v3_finite(cache->corner_a[i]) && v3_finite(cache->corner_b[i]);
    for (int i = 0; i < cache->wide; ++i)
        ok = ok && v3_finite(cache->wide_a[i]) && v3_finite(cache->wide_b[i]);
    cache->valid = ok;
}

/* Weights of the point of the border of triangle (w0, w1, w2) nearest to q:
 * the nearest of q's feet on the three edges (each clamped to its edge).
 * Nonnegative, summing to 1. For a q outside the triangle, or on its border
 * (which is where a weight below 0 puts it), that is the triangle's nearest
 * point, without the ill-conditioned area ratios of a sliver, or of three
 * points on one line. */
static void border_weights(const mk_vec3 w[3], mk_vec3 q, mk_real lam[3])
{
    mk_real best = INFINITY;
    lam[0] = 1, lam[1] = lam[2] = 0;
    for (int i = 0; i < 3; ++i) {
        const int j = i == 2 ? 0 : i + 1;
        const mk_vec3 e = v3_sub(w[j], w[i]);
        const mk_real ee = v3_dot(e, e);
        mk_real t = ee > 0 ? v3_dot(v3_sub(q, w[i]), e) / ee : 0;
        t = t > 0 ? (t < 1 ? t : 1) : 0; /* NaN to 0 */
        const mk_real d = v3_len2(v3_sub(v3_madd(w[i], t, e), q));
        if (d < best) {
            best = d;
            lam[0] = lam[1] = lam[2] = 0;
            lam[i] = 1 - t;
            lam[j] = t;
        }
    }
}

/* Witnesses on A and B (A's frame) from the basis weights (eq. 28): convex
 * combinations of the basis' points of A and of B, which scaled by 1 / t_L
 * about their centres meet where the ray crosses the basis triangle. A
 * weight that rounds below 0 puts that crossing just outside the triangle
 * (hulls from meshes, whose faces are facets microradians apart: a final
 * basis of three points nearly on one line, -1.3e-6 seen). Clamping the
 * weight moved the combination along that line, by the weight times the far
 * point's distance (B's image missed the contact by up to 5.6e-7 of the
 * scene's size); the border's point nearest the crossing moves it by its
 * distance from the triangle only. */
static void witnesses(const basis *B, mk_vec3 p, mk_vec3 *pa, mk_vec3 *pb)
{
    mk_real lam[3] = {B->lambda[0], B->lambda[1], B->lambda[2]};
    if (!(lam[0] >= 0 && lam[1] >= 0 && lam[2] >= 0) || !(lam[0] + lam[1] + lam[2] > 0))
        border_weights(B->w, v3_scale(p, B->tl), lam);
    mk_real inv = 1 / (lam[0] + lam[1] + lam[2]);
    lam[0] *= inv;
    lam[1] *= inv;
    lam[2] *= inv;
    *pa = v3_madd(v3_madd(v3_scale(B->a[0], lam[0]), lam[1], B->a[1]), lam[2], B->a[2]);
    *pb = v3_madd(v3_madd(v3_scale(B->b[0], lam[0]), lam[1], B->b[1]), lam[2], B->b[2]);
}

static void zero_result(mk_growth_result *out, mk_status st)
{
    mk_growth_result z = {0};
    z.status = st;
    z.normal = v3(1, 0, 0);
    *out = z;
}

mk_status mk_growth_distance(const mk_growth_input *in, const mk_growth_settings *settings, mk_growth_cache *cache,
                             mk_growth_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    mk_growth_settings st = settings ? *settings : mk_growth_default_settings();
    ctx c;
    mk_real p_len = 0;
    mk_status v = prepare(in, &st, cache, &c, &p_len);
    if (v != MK_OK) {
        zero_result(out, v);
        return v;
    }
    const mk_transform *xa = &in->pair.xf_a;
    const mk_vec3 centre_a = xf_apply(xa, c.ca), centre_b = xf_apply(xa, c.cb);
    if (p_len == 0) {
        /* Coincident centres: the scaled shapes share the centre at any scale. */
        zero_result(out, MK_GJK_INTERSECTING);
        out->centre_a = out->point_a = out->contact = centre_a;
        out->centre_b = out->point_b = centre_b;
        return out->status;
    }

    run r;
    secant sc;
    solve(&c, &st, cache && cache->valid ? cache : NULL, 0, p_len, &r, &sc);
    if (r.out == RUN_BAD) {
        zero_result(out, MK_INVALID_INPUT);
        return MK_INVALID_INPUT;
    }
    ball_points(&r.B, &c);
    /* Every field is written below. */
    out->centre_a = centre_a;
    out->centre_b = centre_b;
    const basis *B = &r.B;
    mk_real tl = B->tl, tu = r.tu;
    mk_vec3 nu = r.nu;
    if (!(tu >= tl)) {
        /* Rounding (or no support evaluated): keep the bracket ordered. */
        if (!isfinite(tu))
            nu = B->n;
        tu = tl;
    }
    mk_vec3 pa, pb;
    witnesses(B, c.p, &pa, &pb);
    const mk_real sigma = 1 / tl;
    out->sigma = sigma;
    out->upper_bound = sigma;
    out->lower_bound = 1 / tu;
    out->point_a = xf_apply(xa, pa);
    out->point_b = xf_apply(xa, pb);
    out->contact = xf_apply(xa, v3_madd(c.ca, sigma, v3_sub(pa, c.ca)));
    out->normal = m3_mul(&xa->R, nu);
    out->iterations = r.iterations;
    if (r.out == RUN_MAX_ITER)
        out->status = MK_GROWTH_MAX_ITER;
    else
        out->status = tu < 1 ? MK_GJK_SEPARATED : MK_GJK_INTERSECTING;
    if (cache)
        store_cache(cache, &c, &r, &sc);
    return out->status;
}

mk_status mk_growth_intersect(const mk_growth_input *in, const mk_growth_settings *settings, mk_growth_cache *cache,
                              mk_growth_intersect_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    mk_growth_intersect_result z = {0};
    z.plane_normal = v3(1, 0, 0);
    *out = z;
    mk_growth_settings st = settings ? *settings : mk_growth_default_settings();
    ctx c;
    mk_real p_len = 0;
    mk_status v = prepare(in, &st, cache, &c, &p_len);
    if (v != MK_OK) {
        out->status = v;
        return v;
    }
    const mk_transform *xa = &in->pair.xf_a;
    if (p_len == 0) {
        out->status = MK_GJK_INTERSECTING;
        out->common_point = xf_apply(xa, c.ca);
        return out->status;
    }

    run r;
    secant sc;
    solve(&c, &st, cache && cache->valid ? cache : NULL, 1, p_len, &r, &sc);
    out->iterations = r.iterations;
    if (r.out == RUN_BAD) {
        out->status = MK_INVALID_INPUT;
        return out->status;
    }
    ball_points(&r.B, &c);
    const basis *B = &r.B;
    out->upper_bound = 1 / B->tl;
    out->lower_bound = r.tu > B->tl ? 1 / r.tu : 1 / B->tl;
    /* The loop stops on separation only with a positive margin: at touching
     * the bound t_U < 1 and the supports' difference hu_b - hu_a can disagree
     * in rounding (a fuzzer found t_U = 1 - 2e-16 with a margin of -1.5e-11 at
     * coordinates of 4e5); the loop then goes on to the tolerance. */
    if (r.out == RUN_SEPARATED) {
        /* D' lies below the plane <nu, .> = h(nu) < <nu, p>: every point a of A
         * has <nu, a> <= hu_a < hu_b <= <nu, b> for every point b of B. */
        mk_vec3 nw = m3_mul(&xa->R, r.nu);
        out->plane_normal = nw;
        out->plane_offset = 0.5 * (r.hu_a + r.hu_b) + v3_dot(nw, xa->p);
        out->margin = r.hu_b - r.hu_a;
        out->status = MK_GJK_SEPARATED;
    } else if (r.out == RUN_MAX_ITER) {
        out->status = MK_GROWTH_MAX_ITER;
    } else {
        /* t_L > 1: c_A + (x_A - c_A) / t_L is a convex combination of c_A and a
         * point of A, and equals the same combination on B's side (eq. 28 with
         * sigma = 1). Converged without a decision: touching within the
         * tolerance. */
        mk_vec3 pa, pb;
        witnesses(B, c.p, &pa, &pb);
        mk_real f = B->tl > 1 ? 1 / B->tl : 1;
        out->common_point = xf_apply(xa, v3_madd(c.ca, f, v3_sub(pa, c.ca)));
        out->status = MK_GJK_INTERSECTING;
        if (out->lower_bound > 1)
            out->lower_bound = 1; /* the refused plane's bound: looser, still certified */
    }
    if (cache)
        store_cache(cache, &c, &r, &sc);
    return out->status;
}

/* ------------------------------------------------------------ 2D */

/* The same algorithm in the plane (the paper's 2D case): LP (15) has a basis of
 * two points, a segment the ray crosses; one pivot per support point solves the
 * pruned LP; the normal of the segment is the next support direction. */

static inline mk_vec2 w2(mk_real x, mk_real y)
{
    mk_vec2 r = {x, y};
    return r;
}
static inline mk_vec2 w2_add(mk_vec2 a, mk_vec2 b) { return w2(a.x + b.x, a.y + b.y); }
static inline mk_vec2 w2_sub(mk_vec2 a, mk_vec2 b) { return w2(a.x - b.x, a.y - b.y); }
static inline mk_vec2 w2_scale(mk_vec2 a, mk_real s) { return w2(a.x * s, a.y * s); }
static inline mk_vec2 w2_madd(mk_vec2 a, mk_real s, mk_vec2 b) { return w2(a.x + s * b.x, a.y + s * b.y); }
static inline mk_real w2_dot(mk_vec2 a, mk_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline mk_real w2_cross(mk_vec2 a, mk_vec2 b) { return a.x * b.y - a.y * b.x; }
static inline mk_real w2_len(mk_vec2 a) { return sqrt(w2_dot(a, a)); }
static inline int w2_finite(mk_vec2 a) { return isfinite(a.x) && isfinite(a.y); }
/* Rotation by (c, s) = (cos, sin) of an angle, and its inverse. */
static inline mk_vec2 w2_rot(mk_real c, mk_real s, mk_vec2 v) { return w2(c * v.x - s * v.y, s * v.x + c * v.y); }
static inline mk_vec2 w2_rot_inv(mk_real c, mk_real s, mk_vec2 v) { return w2(c * v.x + s * v.y, -s * v.x + c * v.y); }

static mk_status validate_shape2d(const mk_shape2d *s)
{
    if (!s || !s->vertices || s->count < 1 || s->count > MK_GROWTH_2D_MAX_VERTICES)
        return MK_INVALID_INPUT;
    if (!isfinite(s->radius) || s->radius < 0)
        return MK_INVALID_SIZE;
    for (int i = 0; i < s->count; ++i)
        if (!w2_finite(s->vertices[i]))
            return MK_INVALID_INPUT;
    if (s->count == 1)
        return s->radius > 0 ? MK_OK : MK_INVALID_SIZE;
    if (s->count == 2)
        return w2_len(w2_sub(s->vertices[1], s->vertices[0])) > 0 || s->radius > 0 ? MK_OK : MK_INVALID_SIZE;
    /* Counter-clockwise and convex: every turn is to the left (or straight, not
     * back), and the edge direction goes round exactly once (it crosses the +x
     * direction once: a left turn of less than pi from below the x axis to on
     * or above it passes through +x). */
    mk_real area = 0, scale = 0;
    int winding = 0;
    const int n = s->count;
    for (int i = 0, j = 1, k = 2; i < n; ++i, j = j + 1 < n ? j + 1 : 0, k = k + 1 < n ? k + 1 : 0) {
        mk_vec2 a = s->vertices[i], b = s->vertices[j], c = s->vertices[k];
        mk_vec2 e0 = w2_sub(b, a), e1 = w2_sub(c, b);
        /* |cr| <= 1e-12 |e0| |e1| counts as straight (compared squared). */
        mk_real cr = w2_cross(e0, e1), straight2 = 1e-24 * w2_dot(e0, e0) * w2_dot(e1, e1);
        int straight = cr * cr <= straight2;
        if ((cr < 0 && !straight) || (straight && w2_dot(e0, e1) < 0))
            return MK_INVALID_INPUT;
        winding += e0.y < 0 && e1.y >= 0;
        scale = rmax(scale, w2_dot(e0, e0));
        area += w2_cross(a, b);
    }
    return winding == 1 && area > 1e-12 * scale ? MK_OK : MK_INVALID_INPUT;
}

/* Distance from c to segment [a, b]. */
static mk_real seg_dist2d(mk_vec2 c, mk_vec2 a, mk_vec2 b)
{
    mk_vec2 e = w2_sub(b, a);
    mk_real ee = w2_dot(e, e);
    mk_real t = ee > 0 ? w2_dot(w2_sub(c, a), e) / ee : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return w2_len(w2_sub(c, w2_madd(a, t, e)));
}

/* Inradius of the whole shape about local c: exact (radius plus the distance to
 * the nearest edge inside the polygon, radius minus the distance to the
 * polygon outside); negative when c is outside the shape. */
static mk_real inradius2d(const mk_shape2d *s, mk_vec2 c)
{
    const mk_vec2 *v = s->vertices;
    if (s->count == 1)
        return s->radius - w2_len(w2_sub(c, v[0]));
    if (s->count == 2)
        return s->radius - seg_dist2d(c, v[0], v[1]);
    mk_real inside = INFINITY;
    for (int i = 0; i < s->count; ++i) {
        mk_vec2 a = v[i], e = w2_sub(v[i + 1 < s->count ? i + 1 : 0], a);
        mk_real l = w2_len(e);
        if (l > 0) /* > 0 on the inner (left) side */
            inside = rmin(inside, w2_cross(e, w2_sub(c, a)) / l);
    }
    if (inside >= 0)
        return s->radius + inside;
    mk_real outside = INFINITY;
    for (int i = 0; i < s->count; ++i)
        outside = rmin(outside, seg_dist2d(c, v[i], v[i + 1 < s->count ? i + 1 : 0]));
    return s->radius - outside;
}

/* Local support point of the whole shape along d (any length). */
static inline mk_vec2 support2d(const mk_shape2d *s, mk_vec2 d)
{
    int best = 0;
    mk_real bv = w2_dot(s->vertices[0], d);
    for (int i = 1; i < s->count; ++i) {
        mk_real v = w2_dot(s->vertices[i], d);
        if (v > bv) {
            bv = v;
            best = i;
        }
    }
    mk_real l = w2_len(d);
    return l > 0 ? w2_madd(s->vertices[best], s->radius / l, d) : s->vertices[best];
}

typedef struct basis2d {
    mk_vec2 w[2], a[2], b[2];
    int id[2];
    mk_real lambda[2];
    mk_vec2 n;
    mk_real h, np, tl, spread;
} basis2d;

/* Normal, bound and weights of the segment (w0, w1). */
static int segment_plane(basis2d *B, mk_vec2 w0, mk_vec2 w1, mk_vec2 p)
{
    mk_vec2 e = w2_sub(w1, w0);
    mk_real l = w2_len(e);
    if (!(l > 0) || !isfinite(l))
        return 0;
    mk_vec2 n = w2(e.y / l, -e.x / l);
    mk_real np = w2_dot(n, p);
    if (np < 0) {
        n = w2_scale(n, -1);
        np = -np;
    }
    mk_real h0 = w2_dot(n, w0), h1 = w2_dot(n, w1), h = 0.5 * (h0 + h1);
    if (!(np > 0) || !(h > 0))
        return 0;
    mk_real tl = h / np;
    mk_vec2 q = w2_scale(p, tl);
    /* Barycentric coordinates along the segment (signed lengths at q). */
    mk_real l0 = w2_dot(w2_sub(w1, q), e), l1 = w2_dot(w2_sub(q, w0), e), sum = l0 + l1;
    if (!isfinite(tl) || !(sum > 0))
        return 0;
    B->n = n;
    B->h = h;
    B->np = np;
    B->tl = tl;
    B->spread = rmax(fabs(h0 - h), fabs(h1 - h));
    B->lambda[0] = l0 / sum;
    B->lambda[1] = l1 / sum;
    return 1;
}

/* One Simplex pivot (26) with Bland's tie-break, as pivot() in 3D; careful,
 * as pivot_careful(): the new segment must give back its crossing point. */
static int pivot2d(basis2d *B, mk_vec2 p, mk_vec2 s, mk_vec2 a, mk_vec2 b, int id, int careful)
{
    mk_real hs = w2_dot(B->n, s);
    if (!(hs - B->h > 4 * B->spread + 4 * DBL_EPSILON * fabs(hs)))
        return 0;
    mk_vec2 q = w2_scale(s, B->h / hs), e = w2_sub(B->w[1], B->w[0]);
    mk_real alpha[2] = {w2_dot(w2_sub(B->w[1], q), e), w2_dot(w2_sub(q, B->w[0]), e)}; /* times |e|^2 > 0 */
    int out = -1;
    mk_real num = 0, den = 1;
    for (int j = 0; j < 2; ++j) {
        if (!(alpha[j] > 0))
            continue;
        mk_real lj = rmax(B->lambda[j], 0);
        mk_real lhs = lj * den, rhs = num * alpha[j];
        if (out < 0 || lhs < rhs || (lhs == rhs && B->id[j] < B->id[out])) {
            num = lj;
            den = alpha[j];
            out = j;
        }
    }
    if (out < 0)
        return 0;
    basis2d nb = *B;
    nb.w[out] = s;
    nb.a[out] = a;
    nb.b[out] = b;
    nb.id[out] = id;
    if (!segment_plane(&nb, nb.w[0], nb.w[1], p))
        return 0;
    if (careful) {
        const mk_vec2 x = w2_add(w2_scale(nb.w[0], nb.lambda[0]), w2_scale(nb.w[1], nb.lambda[1]));
        const mk_vec2 y = w2_scale(p, nb.tl);
        const mk_real m = rmax(rmax(fabs(y.x), fabs(y.y)),
                               rmax(rmax(fabs(nb.w[0].x), fabs(nb.w[0].y)), rmax(fabs(nb.w[1].x), fabs(nb.w[1].y))));
        if (!(nb.h > 1e-12 * m) || !(nb.lambda[0] >= -1e-9 && nb.lambda[1] >= -1e-9) ||
            !(rmax(fabs(x.x - y.x), fabs(x.y - y.y)) <= 1e-11 * m))
            return 0;
    }
    *B = nb;
    return 1;
}

/* A vertex of the 2D cores' difference P, with its points of A and B. */
typedef struct corner2d {
    mk_vec2 q, a, b;
} corner2d;

/* corner_direction in the plane: the exit of the ray from the 2D capsule of
 * the last two vertices (one: a disc), its unit normal (<n, p> > 0); *edge
 * when the exit is over the straight side. 0 when it misses or leaves no
 * farther than tl (*n may then have been written: the caller restores it). */
static int corner_direction2d(const corner2d *k, int nk, mk_vec2 p, mk_real r, mk_real tl, mk_vec2 *n, int *edge)
{
    const mk_real pp = w2_dot(p, p);
    mk_real t = -INFINITY;
    mk_vec2 foot = w2(0, 0);
    *edge = 0;
    for (int i = 0; i < nk; ++i) {
        const mk_real ti = exit_root(pp, w2_dot(p, k[i].q), w2_dot(k[i].q, k[i].q) - r * r);
        if (ti > t)
            t = ti, foot = k[i].q;
    }
    if (nk == 2) {
        const mk_vec2 e = w2_sub(k[1].q, k[0].q);
        const mk_real ee = w2_dot(e, e);
        mk_vec2 m = w2(e.y, -e.x);
        if (w2_dot(m, p) < 0)
            m = w2_scale(m, -1);
        const mk_real ml = w2_len(m), mp = w2_dot(m, p);
        if (ee > 0 && ml > 0 && mp > 0) {
            m = w2_scale(m, 1 / ml);
            const mk_real te = (w2_dot(m, k[0].q) + r) / w2_dot(m, p);
            const mk_real se = w2_dot(w2_sub(w2_madd(w2_scale(p, te), -r, m), k[0].q), e) / ee;
            if (te > t && se > 0 && se < 1 && isfinite(te)) {
                if (!(te > tl))
                    return 0;
                *n = m;
                *edge = 1;
                return 1;
            }
        }
    }
    if (!(t > tl) || !isfinite(t))
        return 0;
    const mk_vec2 d = w2_sub(w2_scale(p, t), foot);
    const mk_real l = w2_len(d);
    if (!(l > 0) || !isfinite(l))
        return 0;
    *n = w2_scale(d, 1 / l);
    return w2_dot(*n, p) > 0;
}

static void zero_result2d(mk_growth_result2d *out, mk_status st)
{
    mk_growth_result2d z = {0};
    z.status = st;
    z.normal = w2(1, 0);
    *out = z;
}

/* The pair in A's frame: B rotated by (cr, sr) and moved by t; p the ray. */
typedef struct ctx2d {
    const mk_shape2d *a, *b;
    mk_real cr, sr;
    mk_vec2 t, p;
} ctx2d;

/* Alg. 3 in the plane from the basis in *B; returns the number of support
 * calls. With `corners` (a constant at each call site; rounded polygons) the
 * corner steps of 3D (see corner_direction), in the plane: the last two
 * vertices q of the cores' difference P met (support points less r n) span a
 * 2D capsule inside D'; the support along its normal where the ray leaves it,
 * with the edge's other end raised along that normal, closes the bracket when
 * D' is left over that edge or vertex (random rounded 8-gons: 8.4 -> 5.0
 * supports; 2D capsules 8.3 -> 4.0). */
static inline __attribute__((always_inline)) int iterate2d(const ctx2d *c, const mk_growth_settings *st, basis2d *B,
                                                           mk_real *tu, mk_vec2 *nu, int *maxed, const int corners)
{
    const mk_shape2d *A = c->a, *Bs = c->b;
    const mk_vec2 p = c->p;
    const mk_real rr = A->radius + Bs->radius;
    corner2d kc[2] = {{{0, 0}, {0, 0}, {0, 0}}, {{0, 0}, {0, 0}, {0, 0}}};
    int nk = 0, fallback = 0, k;
    for (k = 0; k < st->max_iterations; ++k) {
        /* Support of D' along n (eq. 11) and the outer bound (22). */
        mk_vec2 n = B->n;
        int edge = 0;
        const int shot = corners && !fallback && corner_direction2d(kc, nk, p, rr, B->tl, &n, &edge);
        if (!shot)
            n = B->n; /* any direction the step wrote */
        mk_vec2 a = support2d(A, n);
        mk_vec2 b = w2_add(w2_rot(c->cr, c->sr, support2d(Bs, w2_rot_inv(c->cr, c->sr, w2_scale(n, -1)))), c->t);
        mk_vec2 s = w2_add(w2_sub(a, b), p);
        if (!w2_finite(s))
            return -1;
        mk_real tk = w2_dot(n, s) / (shot ? w2_dot(n, p) : B->np);
        if (tk < *tu) {
            *tu = tk;
            *nu = n;
        }
        if (*tu - B->tl <= st->tolerance * B->tl) {
            *maxed = 0;
            return k + 1;
        }
        if (corners) {
            const corner2d q = {w2_madd(s, -rr, n), w2_madd(a, -A->radius, n), w2_madd(b, Bs->radius, n)};
            const mk_vec2 dq = w2_sub(kc[0].q, q.q);
            const int same = w2_dot(dq, dq) <= MK_GROWTH_SAME_VERTEX * MK_GROWTH_SAME_VERTEX *
                                                    (w2_dot(q.q, q.q) + rr * rr); /* as corners_push */
            const corner2d other = same ? kc[1] : kc[0];
            if (nk == 0 || !same) {
                kc[1] = kc[0];
                kc[0] = q;
                nk += nk < 2;
            }
            if (shot && edge) /* the edge's other end, raised along n */
                pivot2d(B, p, w2_madd(other.q, rr, n), w2_madd(other.a, A->radius, n),
                        w2_madd(other.b, -Bs->radius, n), 2 + st->max_iterations + k, 1);
        }
        /* A shot whose point does not pivot falls back to the basis normal;
         * its raised column may have closed the bracket already. */
        const int moved = pivot2d(B, p, s, a, b, 2 + k, corners);
        if (!moved && !shot) {
            *maxed = 0;
            return k + 1;
        }
        fallback = !moved;
        if (corners && *tu - B->tl <= st->tolerance * B->tl) {
            *maxed = 0;
            return k + 1;
        }
    }
    return k;
}

static __attribute__((noinline)) int iterate2d_corners(const ctx2d *c, const mk_growth_settings *st, basis2d *B,
                                                       mk_real *tu, mk_vec2 *nu, int *maxed)
{
    return iterate2d(c, st, B, tu, nu, maxed, 1);
}

mk_status mk_growth_distance_2d(const mk_growth_input2d *in, const mk_growth_settings *settings,
                                mk_growth_result2d *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    mk_growth_settings st = settings ? *settings : mk_growth_default_settings();
    mk_status v = MK_OK;
    if (!in || !in->a || !in->b)
        v = MK_INVALID_INPUT;
    if (v == MK_OK)
        v = validate_shape2d(in->a);
    if (v == MK_OK)
        v = validate_shape2d(in->b);
    if (v == MK_OK && (!isfinite(in->pose_a.x + in->pose_a.y + in->pose_a.angle + in->pose_b.x + in->pose_b.y +
                                 in->pose_b.angle) ||
                       !w2_finite(in->centre_a) || !w2_finite(in->centre_b)))
        v = MK_INVALID_INPUT;
    if (v == MK_OK && (!(st.tolerance >= MK_GROWTH_TOL_MIN && st.tolerance < 1) || st.max_iterations < 1 ||
                       st.max_iterations > MK_GROWTH_MAX_ITER_CAP))
        v = MK_INVALID_INPUT;
    if (v != MK_OK) {
        zero_result2d(out, v);
        return v;
    }

    /* A's frame: B rotated by (cr, sr) and moved by t. */
    const mk_shape2d *A = in->a, *Bs = in->b;
    mk_real ca_ = cos(in->pose_a.angle), sa_ = sin(in->pose_a.angle);
    mk_real cr = cos(in->pose_b.angle - in->pose_a.angle), sr = sin(in->pose_b.angle - in->pose_a.angle);
    mk_vec2 t = w2_rot_inv(ca_, sa_, w2(in->pose_b.x - in->pose_a.x, in->pose_b.y - in->pose_a.y));
    mk_vec2 cA = in->centre_a, cB = w2_add(w2_rot(cr, sr, in->centre_b), t);
    mk_vec2 p = w2_sub(cB, cA);
    mk_real ia = inradius2d(A, in->centre_a), ib = inradius2d(Bs, in->centre_b);
    if (!(ia >= 0) || !(ib >= 0) || !(ia + ib > 0)) {
        zero_result2d(out, MK_GROWTH_DEGENERATE);
        return MK_GROWTH_DEGENERATE;
    }
    mk_vec2 pos_a = w2(in->pose_a.x, in->pose_a.y);
    zero_result2d(out, MK_GJK_INTERSECTING);
    mk_real p_len = w2_len(p);
    if (!(p_len > 0) || !isfinite((ia + ib) / p_len)) {
        /* Coincident centres: sigma* = 0. */
        out->point_a = out->point_b = out->contact = w2_add(w2_rot(ca_, sa_, cA), pos_a);
        return out->status;
    }

    /* Initialisation (Alg. 1 in the plane): two points of the inscribed disc on
     * either side of p. */
    basis2d B;
    mk_vec2 u = w2_scale(p, 1 / p_len), side = w2(-u.y, u.x);
    const mk_real r = ia + ib, fa = ia / r, fb = ib / r;
    for (int i = 0; i < 2; ++i) {
        mk_vec2 w = w2_scale(w2_madd(w2_scale(u, MK_GROWTH_INIT_COS), i ? -MK_GROWTH_INIT_SIN : MK_GROWTH_INIT_SIN, side), r);
        B.w[i] = w;
        B.a[i] = w2_madd(cA, fa, w);
        B.b[i] = w2_madd(cB, -fb, w);
        B.id[i] = i;
        B.lambda[i] = 0.5;
    }
    B.n = u;
    B.h = r * MK_GROWTH_INIT_COS;
    B.np = p_len;
    B.tl = B.h / p_len;
    B.spread = 0;

    mk_real tu = INFINITY;
    mk_vec2 nu = u;
    int maxed = 1;
    const ctx2d c2 = {A, Bs, cr, sr, t, p};
    const int k = A->radius + Bs->radius > 0 ? iterate2d_corners(&c2, &st, &B, &tu, &nu, &maxed)
                                             : iterate2d(&c2, &st, &B, &tu, &nu, &maxed, 0);
    if (k < 0) {
        zero_result2d(out, MK_INVALID_INPUT);
        return MK_INVALID_INPUT;
    }
    mk_real tl = B.tl;
    if (!(tu >= tl))
        tu = tl;
    mk_real l0 = rmax(B.lambda[0], 0), l1 = rmax(B.lambda[1], 0), ls = l0 + l1;
    l0 = ls > 0 ? l0 / ls : 0.5;
    l1 = 1 - l0;
    mk_vec2 pa = w2_add(w2_scale(B.a[0], l0), w2_scale(B.a[1], l1));
    mk_vec2 pb = w2_add(w2_scale(B.b[0], l0), w2_scale(B.b[1], l1));
    out->sigma = out->upper_bound = 1 / tl;
    out->lower_bound = 1 / tu;
    out->point_a = w2_add(w2_rot(ca_, sa_, pa), pos_a);
    out->point_b = w2_add(w2_rot(ca_, sa_, pb), pos_a);
    out->contact = w2_add(w2_rot(ca_, sa_, w2_madd(cA, 1 / tl, w2_sub(pa, cA))), pos_a);
    out->normal = w2_rot(ca_, sa_, nu);
    out->iterations = k;
    out->status = maxed ? MK_GROWTH_MAX_ITER : tu < 1 ? MK_GJK_SEPARATED : MK_GJK_INTERSECTING;
    return out->status;
}
