/* minkowski: a ray against one posed convex shape.
 *
 * Where does the ray origin + t dir (t >= 0) first meet the shape, and with
 * what outward normal? Any shape of shape.h, rounded ones included: the
 * query needs only the core's support function and the radius. Engines cast
 * rays for sensors, picking and line of sight (ODE's dRay; see ode.h).
 *
 * Spheres, capsules, and boxes, cylinders, cones and ellipsoids without
 * rounding take closed forms (the line's interval in the shape: quadratics
 * and slabs), exact to rounding, no iterations. The other shapes (rounded
 * boxes, cylinders and cones, hulls, user shapes) take the iterations
 * below.
 *
 * Algorithm: the GJK ray cast of G. van den Bergen ("Ray Casting against
 * General Convex Objects with Application to Continuous Collision
 * Detection", 2004; conservative advancement along the ray, with GJK's
 * simplex kept across the steps), in the shape's local frame. A support
 * point p along the current closest-point direction v gives the plane
 * <v, z> = h(v) + radius, which holds the whole shape on its inner side;
 * when the ray's current point x lies outside it, the ray cannot meet the
 * shape before crossing it, so t advances to the crossing (or the query
 * ends with a miss when the ray runs away from the plane). Otherwise p
 * joins the simplex and v = x - (its closest point to x) shrinks, as in
 * GJK. The loop ends when x is within the tolerance of the shape.
 *
 * Every advance is certified: no point of the shape lies on the ray before
 * the returned t (up to rounding), and the returned point lies within 4
 * tolerances of the shape (below). A ray grazing the shape closer than that
 * may be reported as a hit at its closest approach. */
#ifndef MINKOWSKI_RAY_H
#define MINKOWSKI_RAY_H

#include <minkowski/shape.h>
#include <minkowski/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mk_ray_settings {
    mk_real tolerance;  /* absolute, >= 0: how far from the shape the hit point may lie (length);
                           below the rounding of the query's coordinates the rounding is used */
    int max_iterations; /* 1 .. 100000; reaching it returns MK_RAY_MAX_ITER */
} mk_ray_settings;

/* Tolerance 1e-7, 128 iterations (the iterative path; the closed forms
 * need neither). On the curved surfaces that path meets (rounded cylinders
 * and cones, curved user shapes) the closest-point direction's rounding
 * limits any GJK ray cast to roughly sqrt(machine epsilon) times the
 * shape's size: much tighter tolerances can end in MK_RAY_MAX_ITER there,
 * with a certified t (a scratch fuzz: every such end at 2e-11 of the size
 * or below).
 *
 * On the iterative path the hit point lies within 4 tolerances of the
 * surface (a stall of the iterations that close is accepted), so t falls
 * short of the exact entry by up to 4 tol / cos(incidence). The normal is
 * the surface's at that point: exact on flat faces; from their own
 * geometry on rounded boxes, hulls and cylinders;
 * on user shapes and rounded cones (and at edges, where any normal of the
 * edge is right) that of the last separating plane the ray crossed, which
 * is off by up to sqrt(8 tol / R) on a surface of radius of curvature R
 * (test_ray: 4.5e-4 rad on closed-form shapes wrapped as user shapes). */
MK_API mk_ray_settings mk_ray_default_settings(void);

typedef struct mk_ray_result {
    mk_status status;  /* MK_RAY_HIT, MK_RAY_MISS, MK_RAY_INSIDE, MK_RAY_MAX_ITER or an input error */
    mk_real t;         /* distance along the unit direction: the hit (HIT), 0 (INSIDE), the last
                          certified advance (MAX_ITER: the shape is not met before it), else 0 */
    mk_vec3 point;     /* world: origin + t * unit direction */
    mk_vec3 normal;    /* world unit outward normal of the shape at the hit (HIT); the
                          direction reversed otherwise (never zero, never NaN) */
    int iterations;
} mk_ray_result;

/* Casts the ray origin + t * dir / |dir|, 0 <= t <= max_t, against `shape`
 * posed by *xf. dir: finite and nonzero (any length; t is measured in units
 * of length along its unit vector). max_t: >= 0, may be INFINITY. settings:
 * NULL for the defaults.
 *   MK_RAY_HIT: the first point of the shape on the ray, t <= max_t.
 *   MK_RAY_MISS: the ray does not meet the shape for t <= max_t.
 *   MK_RAY_INSIDE: the origin is in the shape (or within the tolerance of
 *     it); t = 0. To find where the ray leaves the shape, cast from
 *     origin + max_t * dir back along -dir (what the ODE adapter does).
 *   MK_RAY_MAX_ITER: the iteration bound came first; t is how far the ray
 *     is certified clear of the shape (iterative path only).
 * Bad input (NULL pointers, a NaN or infinite origin, direction or pose, a
 * zero direction, a negative or NaN max_t, a shape that fails
 * mk_shape_validate, bad settings) returns its status with finite
 * placeholders in *out. No heap, no recursion. */
MK_API mk_status mk_ray_cast(const mk_shape *shape, const mk_transform *xf, mk_vec3 origin, mk_vec3 dir,
                             mk_real max_t, const mk_ray_settings *settings, mk_ray_result *out);

/* The last point of the shape on the same ray segment: where a ray that
 * starts inside leaves it (what engines report for such rays; ODE's dRay
 * does). It is the entry of the ray cast back from the segment's far end,
 * origin + max_t * dir / |dir|, the far end taken no farther than the
 * shape's holding ball reaches (so max_t may be INFINITY).
 *   MK_RAY_HIT: t is the distance from the origin to the last point (the
 *     exit when the origin is inside), normal the shape's outward normal
 *     there, with mk_ray_cast's precision.
 *   MK_RAY_INSIDE: the segment's far end is inside the shape (t = 0).
 *   MK_RAY_MISS: the segment does not meet the shape.
 *   MK_RAY_MAX_ITER: the shape has no point on the segment beyond t.
 * Bad input gets mk_ray_cast's statuses and placeholders. */
MK_API mk_status mk_ray_exit(const mk_shape *shape, const mk_transform *xf, mk_vec3 origin, mk_vec3 dir,
                             mk_real max_t, const mk_ray_settings *settings, mk_ray_result *out);

#ifdef __cplusplus
}
#endif
#endif
