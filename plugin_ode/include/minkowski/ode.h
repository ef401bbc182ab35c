/* minkowski for ODE: one call after dInitODE2 makes every convex pair go through
 * minkowski's narrowphase (signed distance + up to 4 contact points), and adds
 * the shapes ODE lacks (cone, ellipsoid, and a convex hull built from a point
 * cloud) as geom classes.
 *
 *   dInitODE2(0);
 *   mk_ode_options opt = mk_ode_default_options();
 *   mk_ode_install(&opt);
 *   dGeomID hull = mk_ode_create_convex(space, points, n);   (a stock dConvex)
 *   dGeomID cone = mk_ode_create_cone(space, 0.1, 0.3);
 *   ... dSpaceCollide / dCollide as usual ...
 *   mk_ode_uninstall();
 *
 * ODE keeps no getter for colliders: mk_ode_uninstall rebuilds ODE's collider
 * table from ODE's own initialiser (the stock routing for every stock class
 * pair), then re-registers the minkowski geom classes (cone, ellipsoid, hull),
 * which keep colliding through minkowski. Geom classes of other libraries made
 * with dCreateGeomClass lose their colliders at that point: uninstall only in
 * programs whose user classes are minkowski's.
 *
 * dConvex has no getter for its geometry: use mk_ode_create_convex (builds the
 * planes, points and polygons from a point cloud with Qhull) or tell the adapter
 * about a dConvex you made with mk_ode_register_convex. A dConvex it does not
 * know keeps the stock collider. The adapter never touches dGeomGetData.
 *
 * Contacts follow ODE: normal from g2 into g1, depth > 0 penetration (only
 * points with depth >= 0 are returned), g1 = o1, g2 = o2, side1 = side2 = -1, at
 * most (flags & 0xffff) contacts written with the caller's byte stride `skip`.
 * CONTACTS_UNIMPORTANT is answered by the Boolean GJK query with early exit.
 * Not thread-safe (ODE's collider table is process-global, so is this adapter). */
#ifndef MINKOWSKI_ODE_H
#define MINKOWSKI_ODE_H

#include <minkowski/gjk.h>
#include <ode/ode.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shape kinds the adapter can take over (bit flags for mk_ode_options.pairs). */
enum {
    MK_ODE_BOX = 1u << 0,
    MK_ODE_SPHERE = 1u << 1,
    MK_ODE_CAPSULE = 1u << 2,
    MK_ODE_CYLINDER = 1u << 3,
    MK_ODE_CONVEX = 1u << 4, /* stock dConvex (registered ones) */
    MK_ODE_PLANE = 1u << 5,  /* any of the above vs a dPlane */
    MK_ODE_ALL = (1u << 6) - 1
};

typedef enum mk_ode_contact_model {
    MK_ODE_MODEL_SIGNED_DISTANCE = 0, /* GJK, EPA on overlap */
    MK_ODE_MODEL_GROWTH               /* growth distance (growth.h) about the shapes' centres */
} mk_ode_contact_model;

typedef struct mk_ode_options {
    mk_gjk_variant variant;  /* default MK_GJK_NESTEROV */
    int normalize_dir;       /* eq. 33 of GJK++ */
    double tolerance;        /* on the GJK duality gap (m^2), default 1e-8 */
    unsigned pairs;          /* a stock pair is taken over when both kinds are in the mask */
    mk_ode_contact_model contact_model;
} mk_ode_options;

typedef struct mk_ode_stats {
    unsigned long long calls;         /* collider calls answered by minkowski */
    unsigned long long boolean_calls; /* of which CONTACTS_UNIMPORTANT */
    unsigned long long contacts;      /* contacts written */
    unsigned long long failures;      /* error statuses (no contact written) */
    unsigned long long calls_by_class[dGeomNumClasses];
} mk_ode_stats;

MK_API mk_ode_options mk_ode_default_options(void);
/* After dInitODE2. Creates the minkowski geom classes on first use and
 * overrides the selected stock pairs. Returns 0, or -1 (bad options, ODE not
 * initialised, or no user geom class left: ODE allows 4 per process). */
MK_API int mk_ode_install(const mk_ode_options *options);
/* Restores ODE's stock collider table (see above). Registered convex data stays. */
MK_API void mk_ode_uninstall(void);
MK_API mk_ode_stats mk_ode_get_stats(void);
MK_API void mk_ode_reset_stats(void);

/* Geom classes (valid after the first mk_ode_install). */
MK_API int mk_ode_cone_class(void);
MK_API int mk_ode_ellipsoid_class(void);
MK_API int mk_ode_hull_class(void);

/* New geoms (placeable, added to space when not 0; NULL on bad sizes).
 * Cone: base radius, full length, axis local Z, apex at +length/2, base at
 * -length/2 (like dCylinder's length). Hull: points (x,y,z triples) through Qhull. */
MK_API dGeomID mk_ode_create_cone(dSpaceID space, dReal radius, dReal length);
MK_API dGeomID mk_ode_create_ellipsoid(dSpaceID space, dReal a, dReal b, dReal c);
MK_API dGeomID mk_ode_create_hull(dSpaceID space, const dReal *points, int count);

/* A stock dConvex built from a point cloud (planes, points, polygons from
 * Qhull, owned by the adapter until mk_ode_forget_convex), registered for
 * minkowski. NULL on a degenerate cloud. */
MK_API dGeomID mk_ode_create_convex(dSpaceID space, const dReal *points, int count);
/* Tells the adapter the geometry of a dConvex made elsewhere (its points, the
 * ones passed to dCreateConvex). Returns 0 or -1. */
MK_API int mk_ode_register_convex(dGeomID convex, const dReal *points, int count);
/* Forgets a registered dConvex (call before dGeomDestroy). */
MK_API void mk_ode_forget_convex(dGeomID convex);

#ifdef __cplusplus
}
#endif
#endif
