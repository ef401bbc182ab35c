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
 * the pose; n is unit, c and spec finite; low_local is the core's support
 * point along -n in the shape's frame (the lowest point, which the caller
 * computed for the distance), and for a hull low_vertex is its vertex index
 * (-1: not known, or another shape). MK_INVALID_INPUT (*count = 0, pts
 * partly written) when a point comes out non-finite (a user support). */
mk_status mk_manifold_halfspace(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c, mk_real spec,
                                mk_vec3 low_local, int low_vertex, int cap, mk_manifold_point *pts, int *count);

/* Two boxes (both MK_SHAPE_BOX, validated, with valid poses): the points
 * mk_contact_patch gives for this normal (world, A to B) and signed distance
 * when its face clip holds the contact, computed in the reference box's own
 * coordinates: same reference and incident faces, clip order, ids and
 * reduction, equal points up to rounding. Returns 1 with up to cap points in
 * pts[0 .. *count) and the manifold normal in *n_world; 0 (nothing written)
 * when the general path must decide (no face within MK_MF_FACE_ANGLE, an
 * incomplete clip: edge contacts, a non-finite input). */
int mk_manifold_box_box(const mk_pair *pair, mk_vec3 normal, mk_real signed_distance, mk_real spec, int cap,
                        mk_vec3 *n_world, mk_manifold_point *pts, int *count);

/* The face of hull h the manifold takes along the local unit direction d
 * from its support vertex v (the best aligned face through v, ties to the
 * lower index), with its alignment cosine in *align; -1 when the hull has no
 * usable faces or v is out of range. */
int mk_manifold_hull_face(const mk_hull *h, mk_vec3 d, int v, mk_real *align);

/* The contact face of hull face f (mk_hull.face_region): the outline of its
 * flat region when it belongs to one, else f itself. Returns the corners'
 * vertex indices (counter-clockwise seen from outside), their count in
 * *size and the face whose normal and code the outline takes in *code
 * (code may be NULL). */
static inline const int *mk_manifold_contact_face(const mk_hull *h, int f, int *size, int *code)
{
    const int r = h->face_region ? h->face_region[f] : -1;
    if (r >= 0) {
        *size = h->region_start[r + 1] - h->region_start[r];
        if (code)
            *code = h->region_face[r];
        return h->region_vertices + h->region_start[r];
    }
    *size = h->face_start[f + 1] - h->face_start[f];
    if (code)
        *code = f;
    return h->face_vertices + h->face_start[f];
}

#endif
