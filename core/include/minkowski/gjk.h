/* minkowski: distance and Boolean collision queries with the GJK family.
 *
 * GJK is fully-corrective Frank-Wolfe on f(x) = ||x||^2 over the Minkowski
 * difference D = A - B, computed in A's local frame ("Collision Detection
 * Accelerated", Alg. 4). Polyak and Nesterov momentum follow GJK++ Alg. 6
 * (eqs. 28a-28e), with the fixed-point switch to vanilla (eq. 32) and optional
 * direction normalisation (eq. 33).
 *
 * Every answer is certified: for any direction d with support point s = s_D(-d)
 * in D (the point of D least along d), <d, s> / ||d|| is a lower bound of the core
 * distance, and ||x|| for any x in conv(simplex) is an upper bound. The query
 * stops when the Frank-Wolfe duality gap g = 2 <x, x - s> is below the tolerance.
 */
#ifndef MINKOWSKI_GJK_H
#define MINKOWSKI_GJK_H

#include <minkowski/shape.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Two posed shapes. Neither is modified; poses are validated. */
typedef struct mk_pair {
    const mk_shape *a;
    mk_transform xf_a;
    const mk_shape *b;
    mk_transform xf_b;
} mk_pair;

typedef enum mk_gjk_variant {
    MK_GJK_VANILLA = 0, /* fully-corrective Frank-Wolfe: classic GJK */
    MK_GJK_POLYAK,      /* heavy-ball momentum, y_k = x_k (eq. 28a), weight delta_k = 1 / (k + 1) */
    MK_GJK_NESTEROV     /* y_k = delta_k x_k + (1 - delta_k) s_{k-1} (eq. 28a), delta_k = (k + 1) / (k + 3) */
} mk_gjk_variant;

typedef enum mk_gjk_init {
    MK_GJK_INIT_BOUNDS = 0, /* difference of bounding-box centres ("OBB WS") */
    MK_GJK_INIT_USER,       /* settings.init_guess (A's frame, a point of D's span) */
    MK_GJK_INIT_CACHE,      /* the pair cache's direction ("WS prev"); a zeroed cache falls back to BOUNDS */
    MK_GJK_INIT_SIMPLEX     /* the pair cache's last simplex, its points moved with their shapes, as the
                             * starting active set (then x_0 is its point closest to the origin); without
                             * one (zeroed cache, other shapes), as MK_GJK_INIT_CACHE */
} mk_gjk_init;

typedef struct mk_gjk_settings {
    mk_gjk_variant variant;
    int normalize_dir;      /* eq. 33 for the momentum update (both momentum variants) */
    int fallback_to_vanilla;/* eq. 32 switch when momentum stalls, and Polyak vanilla from
                               iteration 4 (its faded momentum, gjk.c); default 1 */
    int relative_tolerance; /* 0: stop on g <= min(tol, 1e-4 ||x||^2); 1: stop on g <= tol * ||x||^2 */
    mk_real tolerance;      /* on the duality gap g (units of length^2 when absolute) */
    int max_iterations;     /* > 0; reaching it returns MK_GJK_MAX_ITER */
    mk_gjk_init init;
    mk_vec3 init_guess;     /* used with MK_GJK_INIT_USER, in A's local frame */
} mk_gjk_settings;

/* Nesterov with normalisation off, fallback on, absolute tolerance 1e-8 on the
 * gap (1e-4 on distances in metres), 128 iterations, bounding-box initial guess.
 * The gap bounds |x - x*|^2 <= g / 2 (x: the answer's point of the cores'
 * difference, x* the closest one), so the normal's angle is known to about
 * sqrt(g / 2) / |x|. The absolute tolerance is tightened to 1e-4 |x|^2 where
 * that is smaller (cores closer than 1e-2 with the default): the normal is
 * then known to 7e-3 rad at any distance (without it, 0.07 rad for cores 3e-5
 * apart), and the distance to 5e-5 of itself. Near the rounding floor the
 * query stops where floating point stalls it. For a tighter normal set
 * relative_tolerance (g <= tol |x|^2 bounds the angle by sqrt(tol / 2)). */
MK_API mk_gjk_settings mk_gjk_default_settings(void);

/* What identifies a shape's core for the cache's simplex: its type, sizes
 * (box half extents; capsule, cylinder, cone: half height, radius; ellipsoid
 * radii), hull, or support callback, data and bounds. The rounding radius is
 * not part of it (the simplex holds core points). */
typedef struct mk_gjk_core_key {
    int type;
    mk_vec3 size;
    const void *ref;
    mk_support_fn fn;
} mk_gjk_core_key;

/* Per-pair warm start kept by the caller between calls. Zero it (= {0}) for a
 * cold start; it is written by every successful query. The simplex is reused
 * (MK_GJK_INIT_SIMPLEX) only on shapes whose core keys match the ones it was
 * taken on; a user shape whose support changes behind the same callback and
 * data must get a zeroed cache. */
typedef struct mk_gjk_cache {
    mk_vec3 dir;   /* last x (or separating direction), in A's local frame */
    int hint_a;    /* last support vertex of hull A */
    int hint_b;
    int valid;
    int count;     /* points of the last simplex (0 .. 4) */
    mk_vec3 a[4];  /* its points on A's core, in A's local frame */
    mk_vec3 b[4];  /* its points on B's core, in B's local frame */
    mk_gjk_core_key key_a, key_b;
} mk_gjk_cache;

/* The final simplex, in A's local frame: w[i] = a[i] - b[i] with a[i] on A's core
 * and b[i] on B's core (both in A's frame), and x = sum bary[i] w[i]. */
typedef struct mk_simplex {
    int count;
    mk_vec3 w[4], a[4], b[4];
    mk_real bary[4];
} mk_simplex;

typedef struct mk_gjk_result {
    mk_status status;
    mk_real distance;      /* between the full shapes (cores + radii); 0 if they overlap */
    mk_real lower_bound;   /* certified: lower_bound <= true distance <= upper_bound */
    mk_real upper_bound;
    mk_real core_distance; /* between the cores (what the iterations see) */
    mk_vec3 point_a;       /* world witness on A's surface */
    mk_vec3 point_b;       /* world witness on B's surface */
    mk_vec3 normal;        /* unit, world, from A to B (any unit vector if cores overlap) */
    mk_real gap;           /* final Frank-Wolfe duality gap */
    int iterations;        /* simplex projections (0: a seeded simplex certified by its first support call) */
    int used_fallback;     /* 1 when momentum was switched off (eq. 32) */
    mk_simplex simplex;
} mk_gjk_result;

/* Distance, witnesses, normal and certified bounds. Returns (and stores in
 * out->status) MK_GJK_SEPARATED, MK_GJK_INTERSECTING, MK_GJK_MAX_ITER or an input
 * error. settings and cache may be NULL. */
MK_API mk_status mk_gjk_distance(const mk_pair *pair, const mk_gjk_settings *settings,
                                 mk_gjk_cache *cache, mk_gjk_result *out);

typedef struct mk_gjk_intersect_result {
    mk_status status;      /* MK_GJK_SEPARATED, MK_GJK_INTERSECTING, MK_GJK_MAX_ITER, error */
    /* When separated: a world plane certificate. Every point a of A satisfies
     * <plane_normal, a> <= plane_offset - margin/2 and every point b of B satisfies
     * <plane_normal, b> >= plane_offset + margin/2, with margin > 0.
     * plane_normal points from A to B. */
    mk_vec3 plane_normal;
    mk_real plane_offset;
    mk_real margin;
    int iterations;
} mk_gjk_intersect_result;

/* Boolean query with early exit: stops as soon as a separating plane is found or
 * the cores are shown to overlap by more than the radii allow, or to come
 * within 1e-9 |p| of that (p: the distance between the shapes' frames; the
 * shapes then touch, answered MK_GJK_INTERSECTING as touching within the
 * tolerance is). Overlap is shown
 * by support points enclosing the origin, with a point inside both cores as
 * a fourth vertex when that closes it sooner (the frame origins of the
 * primitives, a hull's centroid, which mk_hull_create computes and a hand-built
 * hull must set to an interior point; never for user shapes). */
MK_API mk_status mk_gjk_intersect(const mk_pair *pair, const mk_gjk_settings *settings,
                                  mk_gjk_cache *cache, mk_gjk_intersect_result *out);

#ifdef __cplusplus
}
#endif
#endif
