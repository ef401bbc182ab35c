/* minkowski: growth distance by ray intersection on the Minkowski difference.
 *
 * The growth distance of two convex shapes A and B about centre points c_A, c_B
 * is the smallest factor sigma* such that c_A + sigma (A - c_A) and
 * c_B + sigma (B - c_B) intersect: sigma* < 1 when the shapes overlap, > 1 when
 * they are apart, 1 when they touch. Unlike a penetration depth it solves a
 * convex problem, so it is continuous and cheap in deep overlap as well.
 *
 * Algorithm: "A Ray Intersection Algorithm for Fast Growth Distance Computation
 * Between Convex Sets" (Alg. 3). With D' = (A - c_A) - (B - c_B) and
 * p = c_B - c_A, sigma* = 1 / t* where t* = max { t : t p in D' } (Prop. 1,
 * problem (10)). The solver keeps an inner polyhedral approximation of D' (vertex
 * form: a basis triangle of support points the ray crosses, LP (15)) and an outer
 * one (halfspace form: the best support plane, (13)), so that
 *     lower_bound = 1 / t_U <= sigma* <= 1 / t_L = upper_bound
 * at every iteration, and stops on the relative gap (t_U - t_L) / t_L <= tol.
 *
 * Everything runs in A's local frame. Rounding radii are part of the sets here
 * (scaling a shape scales its radius too), so they enter the support points.
 *
 * Centres: each centre must lie in its shape and at least one must be interior;
 * the solver needs a ball about the origin inside D' to start (Sec. III-B2) and
 * takes it from each shape's inradius about its centre: exact or a certified
 * lower bound per primitive, from the faces for hulls, and for user shapes from
 * the hull of at most 14 support points (three skewed antipodal pairs, refined
 * along the facet the centre is least inside), which fails for flat shapes and
 * may fail for centres near the boundary: pass inradius_a/b then (rounded flat
 * shapes included). A centre it cannot certify inside its shape,
 * or two centres without an interior ball between them (flat shapes, both
 * centres on their boundaries), gives MK_GROWTH_DEGENERATE.
 */
#ifndef MINKOWSKI_GROWTH_H
#define MINKOWSKI_GROWTH_H

#include <minkowski/gjk.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The pair, and where each shape is scaled about. */
typedef struct mk_growth_input {
    mk_pair pair;
    mk_vec3 centre_a;   /* in A's local frame; zero (the default) = A's frame origin */
    mk_vec3 centre_b;   /* in B's local frame; zero = B's frame origin */
    /* Optional: a caller-certified radius of a ball about the centre inside the
     * whole shape (core + radius). 0 (the default): estimated by the library. A
     * positive value is trusted, which also vouches that the centre is inside. */
    mk_real inradius_a;
    mk_real inradius_b;
} mk_growth_input;

typedef struct mk_growth_settings {
    mk_real tolerance;  /* on the relative gap (t_U - t_L) / t_L; in [1e-14, 1). Below about
                         * 1e-11 the floating-point floor of the pivots may stop the gap
                         * above it (the bounds stay certified, the status is the
                         * bracket's); measured: 1.00001e-12 for 1e-12 in one case of
                         * ~40,000 smooth pairs, and 6.6e-12 for 1e-12 and 1e-13 (a
                         * rounded ellipsoid 2 m from a sphere, 13 iterations). */
    int max_iterations; /* support evaluations, in [1, 100000]; reaching it returns MK_GROWTH_MAX_ITER */
} mk_growth_settings;

/* tolerance sqrt(DBL_EPSILON) (about 1.5e-8, the paper's choice), 100 iterations. */
MK_API mk_growth_settings mk_growth_default_settings(void);

/* Warm start (Sec. III-F3): the support points of the previous optimal inner
 * approximation, each kept on its own shape (local frames), so they stay points
 * of D' after any motion and re-enter as the first columns of the Simplex update
 * (as the starting basis itself while the ray still crosses their triangle:
 * at rest one support then confirms the answer).
 * Zero it (= {0}) for a cold start; every successful query rewrites it. The
 * Boolean query reads and writes the same cache. For pairs of spheres and
 * ellipsoids (secant steps, see growth.c) it holds instead the last `samples`
 * support calls, each as its direction and its points, which seed the secant
 * fit at the new pose (a Newton step with the previous Jacobian). For a
 * sphere against a box or hull (growth.c's corner steps) it also holds the
 * last `corners` vertices of the cores' difference met, which aim the first
 * support at the new pose (also for capsule pairs and a sphere against a
 * capsule in the Boolean query; their distance query does not read the
 * cache: their cores' difference is known whole). For the other pairs
 * it also keeps a `wide` basis: the support points of the basis met when the
 * relative gap first fell below 1e-3 that the final basis lacks (ours, not
 * the paper's). On curved shapes the final basis is a
 * cluster of points about the old solution that a small motion leaves beside
 * the ray; the earlier one still spans it. Its points enter after the final
 * ones (at rest they do not enter). */
typedef struct mk_growth_cache {
    mk_vec3 a[3];   /* points of A, A's local frame */
    mk_vec3 b[3];   /* points of B, B's local frame */
    mk_vec3 n[3];   /* with samples > 0: the support directions, A's local frame */
    int samples;    /* 0: a, b are the basis; 1-3: a, b, n are support samples, newest first */
    int hint_a;     /* last support vertex of hull A (hill-climbing start) */
    int hint_b;
    int valid;
    int corners;         /* 0-3 */
    mk_vec3 corner_a[3]; /* core points of A (A's local frame) and of B (B's), newest first */
    mk_vec3 corner_b[3];
    int wide;          /* 0-3 */
    mk_vec3 wide_a[3]; /* points of A (A's local frame) and of B (B's) */
    mk_vec3 wide_b[3];
} mk_growth_cache;

typedef struct mk_growth_result {
    /* MK_GJK_SEPARATED when the bounds prove sigma* > 1, MK_GJK_INTERSECTING
     * otherwise (overlap, or touching within the tolerance), MK_GROWTH_MAX_ITER,
     * MK_GROWTH_DEGENERATE, MK_INVALID_INPUT or MK_INVALID_SIZE. Outputs are finite
     * in every case (placeholders on errors). */
    mk_status status;
    mk_real sigma;       /* growth distance: the primal value 1 / t_L (= upper_bound) */
    mk_real lower_bound; /* 1 / t_U: at this scale a plane still separates the scaled shapes */
    mk_real upper_bound; /* 1 / t_L: at this scale point_a, point_b scale to one common point */
    /* World witnesses on the unscaled shapes' surfaces, from the optimal basis'
     * barycentric weights (eq. 28): scaling A by sigma about centre_a and B about
     * centre_b brings both to `contact` (A's image). When a weight rounds
     * below 0 (a final basis of three points nearly on one line: hulls from
     * meshes, faces of facets microradians apart), the weights are those of
     * the basis triangle's point nearest the ray's crossing, which keeps the
     * meeting to rounding (test_growth witnesses_meet_on_mesh_slivers). */
    mk_vec3 point_a;
    mk_vec3 point_b;
    mk_vec3 contact;     /* world point common to both scaled shapes */
    mk_vec3 normal;      /* unit, world, from A to B: the support plane achieving lower_bound */
    mk_vec3 centre_a;    /* world centres used */
    mk_vec3 centre_b;
    int iterations;      /* support evaluations */
} mk_growth_result;

/* Growth distance, bounds, witnesses and normal (Alg. 3). settings and cache may
 * be NULL. Coincident centres give sigma = 0 (status MK_GJK_INTERSECTING). */
MK_API mk_status mk_growth_distance(const mk_growth_input *in, const mk_growth_settings *settings,
                                    mk_growth_cache *cache, mk_growth_result *out);

typedef struct mk_growth_intersect_result {
    mk_status status;    /* MK_GJK_SEPARATED, MK_GJK_INTERSECTING, MK_GROWTH_MAX_ITER, or an error */
    /* When separated: a world plane certificate, as in mk_gjk_intersect_result:
     * every point a of A has <plane_normal, a> <= plane_offset - margin/2, every
     * point b of B has <plane_normal, b> >= plane_offset + margin/2, margin > 0. */
    mk_vec3 plane_normal;
    mk_real plane_offset;
    mk_real margin;
    /* When intersecting: a world point of both shapes (certified when the lower
     * bound on t exceeded 1; a touching point within the tolerance otherwise). */
    mk_vec3 common_point;
    mk_real lower_bound; /* bounds on sigma* when the query stopped */
    mk_real upper_bound;
    int iterations;
} mk_growth_intersect_result;

/* Boolean mode (Sec. III-F4): stops as soon as t_L > 1 (overlap) or t_U < 1
 * (separated). */
MK_API mk_status mk_growth_intersect(const mk_growth_input *in, const mk_growth_settings *settings,
                                     mk_growth_cache *cache, mk_growth_intersect_result *out);

/* ------------------------------------------------------------ 2D */

/* Points in the plane. (Moves to math.h when a second 2D module needs it; the
 * guard lets that header define it first.) */
#ifndef MK_HAVE_VEC2
#define MK_HAVE_VEC2
typedef struct mk_vec2 {
    mk_real x, y;
} mk_vec2;
#endif

/* Largest vertex count of a 2D shape. */
#define MK_GROWTH_2D_MAX_VERTICES 1024

/* A convex 2D shape: the convex polygon of `count` vertices in counter-clockwise
 * order (consecutive collinear vertices allowed, no area-less polygons),
 * inflated by `radius` >= 0. count = 1 is a disc (radius > 0) about the vertex,
 * count = 2 a 2D capsule. Local frame; the caller owns the vertices. */
typedef struct mk_shape2d {
    const mk_vec2 *vertices;
    int count;
    mk_real radius;
} mk_shape2d;

/* Rigid 2D pose: world = rot(angle) * local + (x, y), angle in radians. */
typedef struct mk_pose2d {
    mk_real x, y, angle;
} mk_pose2d;

typedef struct mk_growth_input2d {
    const mk_shape2d *a;
    mk_pose2d pose_a;
    const mk_shape2d *b;
    mk_pose2d pose_b;
    mk_vec2 centre_a; /* local; zero = the frame origin */
    mk_vec2 centre_b;
} mk_growth_input2d;

typedef struct mk_growth_result2d {
    mk_status status;    /* as mk_growth_result (invalid polygons: MK_INVALID_INPUT) */
    mk_real sigma;       /* 1 / t_L = upper_bound */
    mk_real lower_bound; /* 1 / t_U */
    mk_real upper_bound;
    mk_vec2 point_a;     /* world witnesses on the unscaled shapes */
    mk_vec2 point_b;
    mk_vec2 contact;     /* world point common to both scaled shapes */
    mk_vec2 normal;      /* unit, world, from A to B */
    int iterations;
} mk_growth_result2d;

/* The same algorithm in the plane: the basis is a segment the ray crosses, its
 * normal the next support direction; the inradius about each centre is exact
 * (distance to the polygon's edges). Polygons are validated and supports found
 * by scanning every vertex, on every query (no hill-climbing in 2D).
 * settings may be NULL. */
MK_API mk_status mk_growth_distance_2d(const mk_growth_input2d *in, const mk_growth_settings *settings,
                                       mk_growth_result2d *out);

#ifdef __cplusplus
}
#endif
#endif
