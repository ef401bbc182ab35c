/* minkowski: one call for an engine's narrowphase. Signed distance (GJK, then
 * EPA when the shapes overlap) followed by the contact manifold, with the pair's
 * warm-start cache. What the Bullet and ODE adapters call for every pair.
 *
 *   mk_collide_settings s = mk_collide_default_settings();
 *   s.speculative = 0.02;                 (keep points up to 2 cm apart)
 *   mk_manifold m;
 *   mk_status st = mk_collide(&pair, &s, &cache, &m);
 *   if (st < MK_INVALID_INPUT) for each m.points[i] ...
 *
 * No heap (EPA runs in a stack workspace of MK_COLLIDE_WORKSPACE_BYTES; its
 * iteration budget is capped to fit), reentrant, bounded. */
#ifndef MINKOWSKI_COLLIDE_H
#define MINKOWSKI_COLLIDE_H

#include <minkowski/epa.h>
#include <minkowski/growth.h>
#include <minkowski/manifold.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MK_COLLIDE_WORKSPACE_BYTES (96 * 1024)

typedef struct mk_collide_settings {
    mk_gjk_settings gjk;
    mk_epa_settings epa;
    mk_growth_settings growth; /* for mk_collide_growth */
    /* Contact points separated by at most this are returned (units of length);
     * pairs farther apart return no points. 0 = touching/penetrating only. */
    mk_real speculative;
} mk_collide_settings;

/* GJK and EPA defaults, GJK warm-started from the cache's simplex (MK_GJK_INIT_SIMPLEX), speculative = 0. */
MK_API mk_collide_settings mk_collide_default_settings(void);

/* Signed distance + manifold of a pair. cache may be NULL. Returns the signed
 * distance status (MK_GJK_SEPARATED, MK_GJK_INTERSECTING, MK_PENETRATING, or a
 * budget status whose best estimate was still used) or a bad-input status with
 * out->count = 0. out->normal points from A to B. */
MK_API mk_status mk_collide(const mk_pair *pair, const mk_collide_settings *settings, mk_gjk_cache *cache,
                            mk_manifold *out);

/* Per-pair state of mk_collide_cached, kept by the caller between calls (one
 * per pair, zeroed for a cold start). `gjk` is mk_collide's warm-start cache;
 * the rest is a separation certificate, written by the last call that found
 * the pair apart beyond the speculative distance: a world direction n (A to
 * B) and the slack (margin) by which the planes normal to n through A's
 * farthest point (A grown by the speculative distance) and B's nearest point
 * stood apart. Read-only for the caller; zero the whole cache when either
 * shape of the pair changes (type, size, hull, radius). */
typedef struct mk_collide_cache {
    mk_gjk_cache gjk;
    int cert_valid;
    mk_vec3 cert_normal;      /* world, unit, A to B */
    mk_real cert_margin;      /* > 0, units of length */
    mk_real cert_speculative; /* the speculative distance the margin is beyond */
    mk_vec3 cert_centre_a;    /* world centres of balls holding the cores, then */
    mk_vec3 cert_centre_b;
    mk_vec3 cert_dir_a;       /* n in A's / B's local frame, then */
    mk_vec3 cert_dir_b;
    mk_vec3 ball_a;           /* local centres and radii of those balls */
    mk_vec3 ball_b;
    mk_real ball_radius_a;
    mk_real ball_radius_b;
    const mk_shape *shape_a;  /* the shapes the certificate was made for */
    const mk_shape *shape_b;
    unsigned long long skipped; /* calls answered by the certificate */
    /* Contact memory, written by every full call: `near` when it returned
     * points (the next call skips the Boolean pre-test and goes straight to
     * the signed distance), and when the cores overlapped, the contact normal
     * in A's local frame (a hint for the resting-contact shortcut, which
     * certifies its own answer: a stale hint only costs a few supports). */
    int near;
    int hint_valid;
    mk_vec3 hint_normal;
    unsigned long long shortcuts; /* calls whose depth came from the shortcut */
    /* Shortcut attempts that failed in a row, and calls left before the next
     * attempt: after four misses it is tried every fourth call only (a pair
     * whose contact it cannot certify, such as two faces crossing edge on
     * edge, then stops paying for it), and after a success every call. */
    int shortcut_misses;
    int shortcut_wait;
    /* The last call's depth came from two hulls' face edges (the shortcut's
     * face-pair path, tried first next time), and face_outline: from the
     * edges of their faces' flat-region outlines rather than of the faces
     * (mk_hull.face_region; the outlines are tried first next time). */
    int face_pair;
    int face_outline;
    /* ... from EPA seeded around the hint on a curved contact (a cylinder,
     * cone, ellipsoid or user shape; tried first next time). */
    int curved;
} mk_collide_cache;

/* mk_collide with a separation certificate (exact shortcut). When the last
 * call proved the pair apart beyond the speculative distance, this one first
 * bounds how far the poses' change since then can have closed that gap: along
 * the certificate's direction n, A's farthest point moves by at most
 * <n, dC_A> + rho_A |R_A'^T n - R_A^T n| (C_A the world centre and rho_A the
 * radius of a ball holding A's core about its local bounding-box centre; the
 * support function is rho-Lipschitz in the direction), and likewise B's
 * nearest point. When the sum (plus any growth of the speculative distance)
 * stays below the margin, the pair is still apart beyond the speculative
 * distance and the answer is mk_collide's for such a pair: MK_GJK_SEPARATED,
 * no points, no query run. Otherwise (and for user-support shapes, whose
 * boxes are advisory) the full mk_collide runs and renews the certificate.
 * Inputs are validated as mk_collide validates them. cache may be NULL
 * (plain mk_collide). */
MK_API mk_status mk_collide_cached(const mk_pair *pair, const mk_collide_settings *settings,
                                   mk_collide_cache *cache, mk_manifold *out);

/* mk_collide_cached with room for up to max_points contact points (4 ..
 * MK_MANIFOLD_MAX_PATCH_POINTS), for engines that take more than four per
 * pair (ODE): the patch is built in the same pass (mk_contact_patch's points
 * on the signed-distance normal and depth, plus the exact witness pair when
 * none of them reaches the depth). max_points = 4 gives mk_collide_cached's
 * points. cache may be NULL. Overlapping pairs whose last call overlapped
 * first try the resting-contact shortcut: from the hinted normal, supports
 * tilted around it (of A's face, else B's, else of D itself for an edge
 * across an edge) span a triangle on a face of the Minkowski difference D = A - B, and with
 * the support opposite it a tetrahedron inside D holding the origin; its
 * nearest face is a certified lower bound on the depth (EPA's lower bound,
 * van den Bergen 2001 sec. 4.3.3) and the support along the triangle's
 * normal an upper bound (EPA's upper bound).
 * Only when they meet within the EPA tolerance is the answer taken, with
 * the status MK_PENETRATING. Two hulls touching face on face whose outlines
 * cross (neither face holds the other's deepest vertex) take one more path:
 * EPA started from the parallelogram of the two crossing face edges under
 * the origin, where D's face is, and D's support opposite it. A pair with a
 * curved core (cylinder, cone, ellipsoid, user shape) whose contact is no
 * face of D: EPA started from D's supports along the hinted normal, along two
 * rings of directions tilted 1e-3 and 0.05 rad around it, and opposite it
 * (a resting pair's contact normal turns by less: the seed's faces over the
 * contact are then already small). Otherwise GJK + EPA run as usual. */
MK_API mk_status mk_collide_patch(const mk_pair *pair, const mk_collide_settings *settings, mk_collide_cache *cache,
                                  int max_points, mk_contact_patch_result *out);

/* A shape against the half-space {x : <n, x> <= c} (a static ground plane; n
 * is normalised here). A is the shape, B the half-space: the manifold normal is
 * -n when they touch, point_b lies on the plane. */
MK_API mk_status mk_collide_plane(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c,
                                  const mk_collide_settings *settings, mk_manifold *out);

/* mk_collide_plane with room for up to max_points contact points (4 ..
 * MK_MANIFOLD_MAX_PATCH_POINTS), for engines that take more than four (ODE):
 * a face with more corners than four is kept whole up to max_points (the
 * reduction picks that many otherwise, a cap's rim of MK_MANIFOLD_RING_SAMPLES
 * too). max_points = 4 gives mk_collide_plane's points. */
MK_API mk_status mk_collide_plane_patch(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c,
                                        const mk_collide_settings *settings, int max_points,
                                        mk_contact_patch_result *out);

/* The growth-distance contact model (growth.h): the normal is the growth
 * solution's (its support plane, A to B) and the pair's separation along it is
 * <point_b - point_a, normal> of the growth witnesses, 0 exactly at touching
 * (where model and signed distance agree), negative in overlap, continuous and
 * cheap in deep overlap where penetration depth is not. The manifold is built on
 * that normal and separation. cache: NULL or the pair's mk_growth_cache.
 * Returns the growth status, or a bad-input / MK_GROWTH_DEGENERATE status with
 * out->count = 0. */
MK_API mk_status mk_collide_growth(const mk_growth_input *in, const mk_collide_settings *settings,
                                   mk_growth_cache *cache, mk_manifold *out);

/* mk_collide_growth with room for up to max_points contact points (4 ..
 * MK_MANIFOLD_MAX_PATCH_POINTS; outside: MK_INVALID_INPUT, no points), for
 * engines that take more than four (ODE): mk_contact_patch's points on the
 * growth normal and separation, in one pass. max_points = 4 gives
 * mk_collide_growth's points. */
MK_API mk_status mk_collide_growth_patch(const mk_growth_input *in, const mk_collide_settings *settings,
                                         mk_growth_cache *cache, int max_points, mk_contact_patch_result *out);

#ifdef __cplusplus
}
#endif
#endif
