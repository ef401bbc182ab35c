/* Contact points against a half-space (internal, not installed). */
#ifndef MK_SRC_MANIFOLD_INTERNAL_H
#define MK_SRC_MANIFOLD_INTERNAL_H

#include <minkowski/manifold.h>

/* Up to cap (4 .. MK_MANIFOLD_MAX_PATCH_POINTS) contact points of a shape (A)
 * against the half-space {x : <n, x> <= c} (B): the shape's feature facing
 * the plane (its face most opposed to n, a segment, a ring, a point), each
 * point with its height above the plane minus the rounding radius as its
 * separation, those within spec (>= 0) kept, the shape's lowest point among
 * them (to 1e-6 of the shape's size), reduced (the deepest kept to within the
 * reduction's depth tie, 1e-4 of the size) and ordered as the manifold's, into
 * pts[0 .. *count). The normal is -n. The caller has validated the shape and
 * the pose; n is unit, c and spec finite. MK_INVALID_INPUT (*count = 0, pts
 * partly written) when a point comes out non-finite (a user support). */
mk_status mk_manifold_halfspace(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c, mk_real spec,
                                int cap, mk_manifold_point *pts, int *count);

#endif
