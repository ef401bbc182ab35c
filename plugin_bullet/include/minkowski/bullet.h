/* minkowski for Bullet: one call after creating the dispatcher makes every convex
 * pair go through minkowski's narrowphase.
 *
 *   btCollisionDispatcher *dispatcher = new btCollisionDispatcher(config);
 *   mk_bullet_options opt = mk_bullet_default_options();
 *   mk_bullet_context *mk = mk_bullet_install(dispatcher, &opt);
 *   ... create the world and bodies, step ...
 *   mk_bullet_uninstall(mk);   (restores the stock create functions)
 *
 * Install before any pair exists: Bullet caches each pair's algorithm. Link the
 * library matching your Bullet precision: minkowski_bullet (float, pkg-config
 * bullet) or minkowski_bullet64 (double, pkg-config bullet-float64);
 * mk_bullet_scalar_size() tells which one you have. Usable from C and C++. */
#ifndef MINKOWSKI_BULLET_H
#define MINKOWSKI_BULLET_H

#include <minkowski/gjk.h>

#ifdef __cplusplus
class btCollisionDispatcher;
extern "C" {
#else
typedef struct btCollisionDispatcher btCollisionDispatcher;
#endif

/* Shape kinds the adapter can take over (bit flags for mk_bullet_options.pairs). */
enum {
    MK_BULLET_BOX = 1u << 0,
    MK_BULLET_SPHERE = 1u << 1,
    MK_BULLET_CAPSULE = 1u << 2,
    MK_BULLET_CYLINDER = 1u << 3,
    MK_BULLET_CONE = 1u << 4,
    MK_BULLET_CONVEX_HULL = 1u << 5,
    MK_BULLET_POINT_CLOUD = 1u << 6,
    MK_BULLET_MULTI_SPHERE = 1u << 7,
    MK_BULLET_STATIC_PLANE = 1u << 8, /* convex vs static plane */
    MK_BULLET_ALL = (1u << 9) - 1
};

typedef enum mk_bullet_margin_mode {
    /* Core shape + Bullet's collision margin as the rounding radius: the geometry
     * Bullet's own GJK sees (boxes and cylinders shrunk by the margin, hulls and
     * cones fattened by it). Default. */
    MK_BULLET_MARGIN_COMPATIBLE = 0,
    /* The exact nominal geometry: box/cylinder half extents with margin, hull
     * and cone points as given, no rounding. */
    MK_BULLET_MARGIN_EXACT
} mk_bullet_margin_mode;
/* Shapes Bullet takes that have no rounded core, in either mode: a capsule of
 * height 0 is a sphere; hull and point-cloud points Qhull makes no solid hull
 * of (flat, collinear, fewer than 4) are their convex hull through a support
 * function, rounded as hulls are; a box with a zero side, or whose margin was
 * set above a half extent, is the sharp box of its half extents with margin.
 * What is still refused (no contact, counted in stats.failures): zero radii,
 * a cylinder with a zero or margin-exceeded size, non-finite sizes. */

typedef enum mk_bullet_contact_mode {
    MK_BULLET_CONTACTS_MANIFOLD = 0, /* full manifold (up to 4 points) every step */
    MK_BULLET_CONTACTS_ONE_POINT     /* one point per step, accumulated like stock */
} mk_bullet_contact_mode;

typedef enum mk_bullet_contact_model {
    /* Signed distance: GJK, EPA on overlap (penetration depth). Default. */
    MK_BULLET_MODEL_SIGNED_DISTANCE = 0,
    /* Growth distance (growth.h): normal and separation from the growth
     * solution about each shape's centre (hulls: their centroid). Convex vs
     * static plane keeps the exact half-space distance (a half-space has no
     * centre to grow about). */
    MK_BULLET_MODEL_GROWTH
} mk_bullet_contact_model;

typedef struct mk_bullet_options {
    /* default MK_GJK_VANILLA: each pair's query starts from its last simplex
     * (MK_GJK_INIT_SIMPLEX), which a resting pair's first support call
     * usually certifies; momentum has nothing to accelerate there. Measured
     * on the falling-polytopes bin (seed 1, five runs at fe6a8a2): narrowphase
     * 0.38x stock with vanilla, 0.58x Nesterov, 0.59x Polyak; over seeds 1-5
     * (one run each) medians 0.57x, 0.62x, 0.61x. The momentum variants pay
     * off on cold queries (mk_bench). */
    mk_gjk_variant variant;
    int normalize_dir;             /* eq. 33 of GJK++ */
    double tolerance;              /* on the GJK duality gap (m^2), default 1e-8 (gjk.h: and 1e-4 |x|^2 near contact) */
    unsigned pairs;                /* a pair is taken over when both kinds are in this mask */
    mk_bullet_margin_mode margin_mode;
    mk_bullet_contact_mode contact_mode;
    mk_bullet_contact_model contact_model;
} mk_bullet_options;

typedef struct mk_bullet_stats {
    unsigned long long calls;           /* processCollision calls answered by minkowski */
    unsigned long long calls_by_type[9];/* per shape kind of either body (bit index above) */
    unsigned long long contacts;        /* contact points handed to Bullet */
    unsigned long long failures;        /* queries that returned an error status */
    unsigned long long shapes_translated;
    unsigned long long growth_fallbacks;  /* growth model pairs answered by the signed distance instead */
    unsigned long long certified_apart;   /* calls answered by the pair's separation certificate
                                             (mk_collide_cached) without a query */
} mk_bullet_stats;

typedef struct mk_bullet_context mk_bullet_context;

MK_API mk_bullet_options mk_bullet_default_options(void);
/* Registers minkowski's collision and closest-points create functions for every
 * selected pair, both orders. Returns NULL on NULL arguments or bad options. */
MK_API mk_bullet_context *mk_bullet_install(btCollisionDispatcher *dispatcher, const mk_bullet_options *options);
/* Restores the stock create functions (from the dispatcher's collision
 * configuration) and frees the context. Call it after the world's pairs are gone
 * (or the algorithms still alive would point at freed memory). */
MK_API void mk_bullet_uninstall(mk_bullet_context *ctx);
MK_API mk_bullet_stats mk_bullet_get_stats(const mk_bullet_context *ctx);
/* sizeof(btScalar) this adapter was compiled with: 4 or 8. */
MK_API int mk_bullet_scalar_size(void);

#ifdef __cplusplus
}
#endif
#endif
