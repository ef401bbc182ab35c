/* minkowski for ODE: one call after dInitODE2 makes every convex pair go through
 * minkowski's narrowphase (signed distance + up to 8 contact points), and adds
 * the shapes ODE lacks (cone, ellipsoid, and a convex hull built from a point
 * cloud) as geom classes.
 *
 *   dInitODE2(0);
 *   mk_ode_install(NULL);                                  (or &options)
 *   dGeomID hull = mk_ode_create_convex(space, points, n);  (a stock dConvex)
 *   dGeomID cone = mk_ode_create_cone(space, 0.1, 0.3);
 *   ... dSpaceCollide / dCollide as usual ...
 *   mk_ode_uninstall();       (stock colliders again; the new classes stay)
 *   ... destroy the geoms ...
 *   mk_ode_shutdown();        (before the dCloseODE that ends ODE)
 *   dCloseODE();
 *
 * Which pairs: every pair among dBox, dSphere, dCapsule, dCylinder and dConvex
 * (both orders) and each of them against a dPlane, as selected by
 * mk_ode_options.pairs; the cone, ellipsoid and hull classes collide with all
 * of those, with each other, and with dRay (mk_ray_cast: one contact as ODE's
 * own rays give, at the first point along the ray within its length, depth =
 * the distance from the ray's start, normal = the geom's outward normal
 * there, g1 = the ray when it comes first; a ray starting inside gets the
 * point where it leaves with the normal pointing inward, unless its backface
 * culling is on), and with dTriMesh (mk_collide_mesh, mesh.h: each
 * triangle one-sided, its front counter-clockwise as ODE's own trimesh
 * colliders see it, a geom driven a little past its middle pushed back
 * out; contacts push the minkowski geom out along the face's
 * normal, or the normal of the convex edge or corner it touches, never
 * catching on the edges inside a flat floor; side of the trimesh = the
 * triangle's index; up to 64). The trimesh's triangles are read once per
 * dTriMeshDataID through dGeomTriMeshGetTriangle and kept; they are read
 * again when the triangle count or the first or last triangle changes, and
 * after mk_ode_forget_trimesh_data (call it when you change vertices in
 * place). The trimesh's callbacks are called as ODE's own trimesh
 * colliders call them: dTriArrayCallback(trimesh, geom, triangles, count)
 * once with the triangles the query tests (those whose boxes meet the
 * geom's, in the trimesh's frame) when there are any, then
 * dTriCallback(trimesh, geom, triangle) before each is tested, a triangle
 * it answers 0 for giving no contact (mk_collide_mesh_filtered). And
 * with dHeightfield: the cells under the geom's box (one more ring around)
 * cut as ODE cuts them, as a mesh for that call (side -1; a geom spanning
 * more than 65,536 cells gets no contact, counted in stats.failures). ODE
 * has no getter for a heightfield's samples, grid or placement: the adapter
 * reads ODE 0.16's own structures and samples through ODE's own
 * dxHeightfieldData::GetHeight, checking the reading at every use (the
 * grid's fields must be what ODE computes from each other, bit for bit);
 * a reading that fails gives no contact, counted in stats.failures.
 * dRay against a registered dConvex goes the
 * same way (MK_ODE_RAY in mk_ode_options.pairs, not with keep_native): ODE
 * 0.16.2's own ray-convex collider misses most rays through convexes with
 * triangular faces, such as Qhull's hulls of point clouds (4 hits of 166
 * rays that meet a 12-point hull, in tests/ode). dRay against
 * dBox, dSphere, dCapsule, dCylinder and dPlane keeps ODE's own colliders.
 * dBox, dCapsule, dCylinder and registered dConvex against dTriMesh go the
 * same way as the new classes (MK_ODE_TRIMESH, in the defaults; with
 * keep_native the dConvex only): on a tessellated flat floor ODE 0.16.2's
 * own colliders tilt contact normals by up to 1.47 rad (box), 0.30
 * (capsule) and 1.34 (cylinder) at the inner edges, and its convex-trimesh
 * collider (libccd) gives no contact to 299 of 300 shapes 0.5-5 mm deep
 * (mk_bench --section mesh; tests/ode counts them on 40 poses each).
 * The cost: on such a flat floor a box takes 1.7 times ODE's time, a
 * capsule or cylinder less than ODE's; on bumpy ground (every inner edge a
 * crease) 3.0 times (box), 1.45 (capsule) and 3.3 (cylinder) (README).
 * Leave MK_ODE_TRIMESH out of mk_ode_options.pairs to keep ODE's own.
 * dSphere against dTriMesh keeps ODE's collider, exact on those floors and
 * 2.7 times as fast.
 *
 * Contacts follow ODE: normal from g2 into g1, depth > 0 penetration (only
 * points with depth >= 0 are returned), g1 = o1, g2 = o2, side1 = side2 = -1
 * (a dTriMesh's side: the triangle's index), at most min(flags & 0xffff, 8)
 * contacts (64 against a dTriMesh or dHeightfield) written with the caller's byte stride
 * `skip`, in feature-id order (the same order every step while the same
 * features touch); when fewer fit than the patch has, the deepest go first.
 * Up to 4 come from mk_collide's manifold; when the caller takes more and the
 * manifold is full, the contact patch (mk_contact_patch) gives up to 8 (all
 * eight corners of a yawed box on a box, as ODE's own box-box does: with four
 * of them a 10-high stack of boxes yawed 0.05 rad per level crept 2.5-3 times
 * as far sideways in 10 s, 4.3 cm against 1.7 cm for dBox, 2.5 against 0.8
 * cm for dConvex cubes; stock ODE's box-box: 1.5 cm). Against a dPlane
 * (mk_collide_plane_patch) as many as the caller takes up to 8 in one pass:
 * a face with up to 8 corners whole, as ODE's own convex-plane gives them
 * (a bevelled box's octagon: 8 points instead of 4 picked, and about half
 * the time), a cap's rim as 8 of its samples. With
 * CONTACTS_UNIMPORTANT the Boolean GJK query (early exit) decides and one
 * contact is computed only for a pair that intersects.
 *
 * dConvex has no getter for its geometry: use mk_ode_create_convex (planes,
 * points and polygons from a point cloud through Qhull) or tell the adapter
 * about a dConvex you made with mk_ode_register_convex. A dConvex it was not
 * told about keeps ODE's stock collider (counted in stats.stock_fallbacks), and
 * gets no contact against the minkowski classes.
 *
 * Sizes: ODE accepts zero sizes, the core wants positive ones. A dCapsule of
 * length 0 collides as the sphere it is; a geom with a zero side of a dBox, a
 * zero radius, or a zero length of a dCylinder gets no contact (counted in
 * stats.failures; ODE's own cylinder-box collider aborts on such a box). The adapter never touches the
 * geom data slot (dGeomSetData / dGeomGetData).
 *
 * What uninstall restores. ODE has no getter for a collider, so the stock ones
 * are put back from ODE's own code (C++ symbols of libode, bound by their
 * mangled names):
 *  - when no other library made a geom class before minkowski's (minkowski's
 *    cone class is dFirstUserClass), ODE's collider table is rebuilt by ODE's
 *    own initialiser: every stock pair routes exactly as after dInitODE2,
 *    same-class pairs included. Anything else set in the table since is lost
 *    too: your own dSetColliderOverride calls, and the colliders of geom classes
 *    another library created after minkowski's;
 *  - otherwise (older classes exist) only the cells install changed are set
 *    back, to the stock functions of mk_ode_stock_collider; other cells keep
 *    what they had. Same-class pairs (box-box, ...) then run the stock function
 *    with the arguments swapped and the contacts flipped back (dSetColliderOverride
 *    cannot express the unswapped order), equivalent but not bit-identical.
 * In both cases the minkowski classes keep colliding through minkowski.
 *
 * ODE's collider table and user classes are process-global, and so is this
 * adapter: not thread-safe, one configuration per process. ODE allows 4 geom
 * classes per process between dInitODE2 and the dCloseODE that ends it;
 * minkowski takes 3 on the first install (ODE aborts when none are left). */
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
    MK_ODE_RAY = 1u << 6,    /* dRay vs a registered dConvex (mk_ray_cast; ODE 0.16.2's own
                                ray-convex collider misses most rays through convexes with
                                triangular faces) */
    MK_ODE_TRIMESH = 1u << 7, /* dBox, dCapsule, dCylinder and registered dConvex vs dTriMesh (mk_collide_mesh;
                                 with the kind's bit; keep_native: the dConvex only); dSphere keeps ODE's */
    MK_ODE_ALL = (1u << 8) - 1
};

typedef enum mk_ode_contact_model {
    MK_ODE_MODEL_SIGNED_DISTANCE = 0, /* GJK, EPA on overlap */
    MK_ODE_MODEL_GROWTH               /* growth distance (growth.h) about the shapes' centres */
} mk_ode_contact_model;

typedef struct mk_ode_options {
    /* default MK_GJK_VANILLA: each pair's query starts from its last simplex
     * (MK_GJK_INIT_SIMPLEX), which a resting pair's first support call
     * usually certifies; momentum has nothing to accelerate there. Measured
     * on the falling-polytopes bin, seed 1: five runs at fe6a8a2, collision
     * time 0.91x stock with vanilla, 0.95x Nesterov, 0.94x Polyak; over seeds
     * 1-5 (one run each) medians 0.99x, 1.09x, 1.05x. Ten runs at ebbd8e9,
     * on a noisier machine: 1.07x, 0.93x, 0.94x; ten at ea1ce4e: 1.00x,
     * 1.08x, 0.97x; ten at c689359: 0.86x, 0.93x, 0.92x; the README's ten at
     * e1daa61: 1.01x, 1.02x, 1.07x (ranges overlapping widely: the variants are
     * close in this scene). The momentum variants pay off on cold queries
     * (mk_bench). */
    mk_gjk_variant variant;
    int normalize_dir;       /* eq. 33 of GJK++ */
    double tolerance;        /* on the GJK duality gap (m^2), default 1e-8 (gjk.h: and 1e-4 |x|^2 near contact) */
    unsigned pairs;          /* a stock pair is taken over when both kinds are in the mask */
    mk_ode_contact_model contact_model;
    /* 0 (default): take over every selected pair. 1: only the pairs ODE answers
     * with libccd's MPR, one contact (dConvex vs box, sphere, capsule, cylinder
     * and dConvex; cylinder-cylinder; capsule-cylinder), leaving ODE's own
     * analytic colliders (box-box, box-plane, sphere-*, capsule-box/-capsule,
     * cylinder-box/-sphere, every kind vs plane), which already give several
     * contacts and cost tens to hundreds of ns, where minkowski costs 0.3-1.5 us;
     * dRay vs dConvex stays ODE's too. */
    int keep_native;
} mk_ode_options;

typedef struct mk_ode_stats {
    unsigned long long calls;         /* collider calls answered by minkowski */
    unsigned long long boolean_calls; /* of which CONTACTS_UNIMPORTANT */
    unsigned long long contacts;      /* contacts written */
    unsigned long long failures;      /* error statuses (no contact written) */
    unsigned long long stock_fallbacks; /* pairs with an unregistered dConvex, handed to ODE's collider */
    unsigned long long calls_by_class[dGeomNumClasses];
    unsigned long long patches;       /* calls answered with more than four points (mk_contact_patch) */
} mk_ode_stats;

MK_API mk_ode_options mk_ode_default_options(void);
/* After dInitODE2 (NULL options = defaults). Creates the minkowski geom classes
 * on first use and overrides the selected stock pairs; a second install
 * replaces the first. Returns 0, or -1 on bad options (nothing changed). */
MK_API int mk_ode_install(const mk_ode_options *options);
/* Restores ODE's stock colliders (see above) and drops the warm-start caches.
 * Registered dConvex data and the geom classes stay. No-op when not installed. */
MK_API void mk_ode_uninstall(void);
/* Uninstalls, frees every registered dConvex (destroy them first: the arrays
 * of those made by mk_ode_create_convex go too) and forgets the geom classes,
 * which ODE itself forgets in the dCloseODE that ends it. Call it right before
 * that dCloseODE; a later dInitODE2 + mk_ode_install starts afresh. */
MK_API void mk_ode_shutdown(void);
MK_API mk_ode_stats mk_ode_get_stats(void);
MK_API void mk_ode_reset_stats(void);

/* The collider ODE 0.16.2 (Debian build) routes a pair of the six stock kinds
 * to: call fn(g1, g2, ...) with g1 of class1 when *reverse is 0, else
 * fn(g2, g1, ...) and flip the contacts as dCollide does. NULL for pairs it has
 * none for (plane-plane) or outside those kinds. reverse may be NULL. */
MK_API dColliderFn *mk_ode_stock_collider(int class1, int class2, int *reverse);

/* Geom classes (valid after the first mk_ode_install; -1 before). */
MK_API int mk_ode_cone_class(void);
MK_API int mk_ode_ellipsoid_class(void);
MK_API int mk_ode_hull_class(void);

/* New geoms (placeable, added to space when not 0; NULL on bad sizes or
 * before the first mk_ode_install). Their AABBs are exact (support function
 * along each world axis).
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
/* Forgets a registered dConvex and frees what the adapter owns for it. Call it
 * before dGeomDestroy: the table is keyed by address, and a later geom at the
 * same address would otherwise inherit the entry. */
MK_API void mk_ode_forget_convex(dGeomID convex);
/* Drops what the adapter read of a dTriMesh's triangles (read again at the
 * next contact): after changing its vertices in place, or before
 * dGeomTriMeshDataDestroy. mk_ode_shutdown drops them all. */
MK_API void mk_ode_forget_trimesh_data(dTriMeshDataID data);

#ifdef __cplusplus
}
#endif
#endif
