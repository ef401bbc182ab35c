/* minkowski: penetration depth (EPA) and signed distance.
 *
 * Penetration depth of two overlapping shapes is the length of the shortest
 * translation of B that separates them. With D = A - B (in A's frame) it is the
 * distance from the origin to the boundary of D:
 *     depth = min over unit n of h_D(n),   h_D(n) = max_{w in D} <n, w>,
 * and the minimizing n is the normal: moving B by depth * n leaves A and B
 * touching. Rounded shapes add their radii: depth = core depth + r_A + r_B.
 *
 * mk_epa runs the Expanding Polytope Algorithm (van den Bergen, "Proximity
 * Queries and Penetration Depth Computation on 3D Game Objects", GDC 2001;
 * "Collision Detection in Interactive 3D Environments", 2003, Sec. 4.3.9) on
 * the cores, seeded from GJK's final simplex. Every answer is certified:
 *   - lower bound: a polytope P with vertices in D that contains the origin
 *     gives depth >= dist(origin, boundary of P), the smallest face offset;
 *   - upper bound: depth <= h_D(n) for every unit n that was queried.
 * The query stops when upper - lower <= max(tolerance, relative_tolerance *
 * upper); the reported depth is the upper bound and the normal the direction
 * that achieved it, so moving B by depth * normal always separates the shapes
 * (up to rounding). Two kinds of pair take a closed form instead, certified
 * the same way (MK_EPA_FLAG_CLOSED_FORM). No heap: all scratch
 * lives in a caller buffer of mk_epa_workspace_size(max_iterations) bytes.
 * No recursion, bounded loops.
 */
#ifndef MINKOWSKI_EPA_H
#define MINKOWSKI_EPA_H

#include <stddef.h>
#include <minkowski/gjk.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest max_iterations accepted (keeps the workspace size finite). */
#define MK_EPA_MAX_ITER_CAP 100000
/* Points a seed polytope may be built from (GJK's simplex plus supports). */
#define MK_EPA_SEED_VERTICES 24

typedef struct mk_epa_settings {
    mk_real tolerance;          /* absolute gap upper - lower on the depth; default 1e-8 (>= 0) */
    mk_real relative_tolerance; /* gap relative to the depth; default 0 (off) (>= 0) */
    int max_iterations;         /* support points added by the expansion, 1 .. MK_EPA_MAX_ITER_CAP; default 128 */
    /* Live triangles allowed; <= 0 (the default) means as many as the workspace
     * holds, 2 (max_iterations + MK_EPA_SEED_VERTICES + 4) - 4, which a closed
     * triangulated polytope never exceeds. Smaller values are a budget:
     * reaching it returns MK_EPA_FACE_BUDGET. */
    int max_faces;
} mk_epa_settings;

MK_API mk_epa_settings mk_epa_default_settings(void);

/* Bytes of scratch mk_epa needs for this iteration bound (0 when it is out of
 * range). mk_signed_distance needs the same amount. */
MK_API size_t mk_epa_workspace_size(int max_iterations);

/* What happened on the way (mk_epa_result.flags); the status says how it ended. */
enum {
    /* GJK's simplex was not a usable tetrahedron around the origin (touching
     * cores, a point, segment or triangle through the origin, a flat or near-
     * degenerate tetrahedron): the seed was grown with extra support points. */
    MK_EPA_FLAG_SEED_GROWN = 1,
    /* The cores only touch (core depth <= tolerance), or their difference is
     * flat (sphere or capsule cores): answered from a support direction without
     * a full polytope. */
    MK_EPA_FLAG_TOUCHING = 2,
    /* The cores are apart but closer than r_A + r_B (rounded shapes): the depth
     * is r_A + r_B - core distance, from a converged GJK on the cores. */
    MK_EPA_FLAG_CORES_SEPARATED = 4,
    /* Stopped at the floating-point floor: the next support point was not above
     * the closest face by more than rounding (about 1e-12 x the size of D), so
     * upper - lower may exceed a tolerance finer than that floor. */
    MK_EPA_FLAG_PRECISION_FLOOR = 8,
    /* The next polytope update was topologically inconsistent in floating point
     * (the faces seeing the new point did not form a disc), so the expansion
     * stopped there: like the precision floor, the bounds so far are returned
     * (still certified) and the gap may exceed the tolerance. Seen once in
     * the test suites (a seed holding one point three times, since fixed:
     * MK_TEST_SCALE=100); kept so that it could never loop or corrupt the
     * polytope. */
    MK_EPA_FLAG_DEGENERATE_UPDATE = 16,
    /* The depth came from a closed form, exact to rounding, not from a
     * polytope (0 iterations), for pairs where the nearest boundary can be
     * nearly flat in direction, which EPA certifies only slowly:
     *   - spheres, capsules, cylinders and cones with parallel axes (at least
     *     one a cylinder or a cone; coaxial and rotations to rounding): D is
     *     a body of revolution, and the depth is that of its meridian
     *     section, a polygon;
     *   - a sphere whose centre lies inside an ellipsoid: the centre's
     *     distance to the ellipsoid's surface. */
    MK_EPA_FLAG_CLOSED_FORM = 32,
    /* mk_signed_distance with an ellipsoid (not against a sphere): the pair
     * was solved on the ellipsoids' inner cores, each the ellipsoid less a
     * ball of its smallest radius of curvature r = e_min^2 / e_max (the
     * ellipsoid is that core grown by r), r added back at the end: EPA on a
     * difference whose boundary curves r less each way, or the cores' GJK
     * distance when only those balls overlap; the depth reported is then the
     * shapes' overlap along the normal, as EPA's is. Taken only when that
     * answer proves the overlap and meets the tolerance (else EPA on the
     * ellipsoids themselves). */
    MK_EPA_FLAG_INNER_CORES = 64
};

typedef struct mk_epa_result {
    /* MK_PENETRATING (upper - lower within the tolerance, or stopped at the
     * floating-point floor: MK_EPA_FLAG_PRECISION_FLOOR / _DEGENERATE_UPDATE),
     * MK_EPA_MAX_ITER, MK_EPA_FACE_BUDGET (both with the best bounds so far),
     * MK_INVALID_INPUT (or a shape's validation status), MK_WORKSPACE_TOO_SMALL. */
    mk_status status;
    /* Full shapes (radii included), >= 0. From the polytope it is the upper
     * bound, the overlap along the normal; with MK_EPA_FLAG_CORES_SEPARATED it
     * is r_A + r_B - GJK's core distance (within the bracket, to the tolerance). */
    mk_real depth;
    mk_real lower_bound; /* certified: lower_bound <= true depth <= upper_bound */
    mk_real upper_bound;
    mk_vec3 point_a;     /* world, on A's surface (deepest point of A inside B) */
    mk_vec3 point_b;     /* world, on B's surface; point_a - point_b = depth * normal */
    mk_vec3 normal;      /* world, unit, A to B: moving B by depth * normal separates */
    int iterations;      /* support points added by the expansion */
    int flags;           /* MK_EPA_FLAG_* */
    int num_faces;       /* live triangles of the final polytope (0 when none was built) */
} mk_epa_result;

/* Penetration depth of a pair that GJK found intersecting.
 *   pair       the same pair given to mk_gjk_distance (radii are added here).
 *   gjk        its result; must be MK_GJK_INTERSECTING. Its simplex (A's frame)
 *              seeds the polytope. If the cores are apart (a rounded pair that
 *              GJK stopped early), the core distance is refined and the depth is
 *              r_A + r_B minus it.
 *   settings   NULL for mk_epa_default_settings().
 *   workspace  at least mk_epa_workspace_size(settings->max_iterations) bytes,
 *              any alignment.
 * Returns out->status. Bad input (NULL, NaN poses, invalid shapes or settings, a
 * non-intersecting or non-finite gjk result) gives MK_INVALID_INPUT (or the
 * shape's validation status) and finite placeholders; a short workspace gives
 * MK_WORKSPACE_TOO_SMALL. */
MK_API mk_status mk_epa(const mk_pair *pair, const mk_gjk_result *gjk, const mk_epa_settings *settings,
                        void *workspace, size_t workspace_bytes, mk_epa_result *out);

typedef struct mk_signed_distance_result {
    /* MK_GJK_SEPARATED (distance >= 0), MK_PENETRATING (distance < 0: the cores
     * overlap, or only the rounding radii do), MK_GJK_MAX_ITER, MK_EPA_MAX_ITER,
     * MK_EPA_FACE_BUDGET (best bounds so far), or an input / workspace error. */
    mk_status status;
    mk_real distance;    /* > 0 apart, < 0 overlapping (= -depth), full shapes */
    mk_real lower_bound; /* certified: lower_bound <= true signed distance <= upper_bound */
    mk_real upper_bound;
    mk_vec3 point_a;     /* world, on A's surface */
    mk_vec3 point_b;     /* world, on B's surface: point_b - point_a = distance * normal */
    mk_vec3 normal;      /* world, unit, A to B, never zero or NaN */
    int gjk_iterations;
    int epa_iterations;
    int epa_flags;       /* MK_EPA_FLAG_* when EPA ran (or the cores were apart), else 0 */
} mk_signed_distance_result;

/* Signed distance between two shapes: GJK on the cores, then (only when the
 * cores overlap) EPA. Continuous across touching: the value goes through 0 and
 * the normal stays that of the contact. Rounded shapes subtract r_A + r_B from
 * the core signed distance, so cores apart by less than the radii give a
 * negative distance from GJK alone. Two spheres or capsules whose cores (a
 * point, a segment) are apart take a closed form instead: the cores' closest
 * points (0 GJK iterations; the cache then holds GJK's iterate, no simplex).
 * Overlapping cores of spheres, capsules, cylinders and cones on one axis,
 * and a sphere's centre inside an ellipsoid, take a closed form instead of
 * EPA (epa_flags MK_EPA_FLAG_CLOSED_FORM; mk_epa does the same); other
 * overlapping pairs with an ellipsoid are solved on its inner core
 * (MK_EPA_FLAG_INNER_CORES; mk_epa runs EPA on the ellipsoid itself).
 *   gjk_settings, epa_settings: NULL for defaults. cache: NULL or the pair's
 *   warm-start cache (see mk_gjk_distance). workspace: at least
 *   mk_epa_workspace_size(epa max_iterations) bytes (checked up front, so a
 *   short buffer fails even for separated pairs). */
MK_API mk_status mk_signed_distance(const mk_pair *pair, const mk_gjk_settings *gjk_settings,
                                    const mk_epa_settings *epa_settings, mk_gjk_cache *cache, void *workspace,
                                    size_t workspace_bytes, mk_signed_distance_result *out);

#ifdef __cplusplus
}
#endif
#endif
