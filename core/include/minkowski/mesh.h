/* minkowski: a convex shape against a triangle mesh (a static floor, a
 * terrain, a level), for engines whose meshes have no convex narrowphase of
 * their own for a shape (ODE's dTriMesh against minkowski's geom classes).
 *
 *   mk_mesh *m;
 *   mk_mesh_create(vertices, nv, indices, nt, &m);   (once; welded, with a tree)
 *   mk_mesh_contact c[16];
 *   int n;
 *   mk_collide_mesh(&shape, &pose, m, &mesh_pose, NULL, 16, c, &n);
 *   ... c[i].position, c[i].normal (out of the mesh), c[i].depth ...
 *   mk_mesh_destroy(m);
 *
 * Each triangle is a face of the mesh's surface, one-sided: its front is
 * where its corners run counter-clockwise, and it meets a shape whose centre
 * (the hull's centroid, a user shape's box centre, the other shapes'
 * origin) is in front of its plane; or, when the centre lies inside the
 * surface (behind every face its nearest surface point belongs to), behind
 * the plane by less than half the way from the centre to the shape's top
 * along the normal: a small fast body driven a little past its middle in
 * one step is pushed back out. A shape further behind goes on through, as
 * in any surface mesh. A shape whose centre is behind the plane but
 * outside the surface (over a ridge, reaching down the steep face beyond
 * it) meets the triangle as its plane, where the shape's points are
 * inside the surface with this triangle nearest; a point inside nearer
 * another face gets its own way out instead, to the surface point nearest
 * to it (a shape lying deep across a sharp crest). Per triangle
 * the shape is collided with a prism (the triangle extruded backwards,
 * mk_collide_patch: signed distance, EPA, the contact patch of the shape's
 * feature clipped to the triangle). Its normal is kept when it is the
 * triangle's face normal, or the normal the surface has at the edge or
 * corner the contact is on: an edge that is convex (or open) and a normal
 * in its cone (between the two faces' normals), a corner from which no edge
 * rises along the normal. Any other normal (one over an edge inside a flat
 * floor or a valley) is what makes shapes catch on internal edges: the
 * triangle then answers as the plane it spans, with the points of the
 * shape's feature below it (mk_collide_plane_patch) whose feet lie over the
 * triangle, so a shape sliding across a tessellated floor meets one plane,
 * and the triangles beside give the rest. Points where the tessellation
 * cut a contact region (on edges between coplanar triangles) are dropped:
 * a box lying on a floor keeps its four corners. An open edge counts as
 * convex, the plane turned down 90 degrees beyond it; so does an edge of
 * more than two triangles.
 *
 * The contacts of all triangles whose boxes meet the shape's are merged
 * (two within 1e-3 of the shape's half size with normals within 0.014 rad
 * count once: the deeper, or of two as deep the one with a face's exact
 * normal; an edge met from both its triangles gives one contact) and, when
 * more than max_contacts remain, reduced: the deepest
 * first, then each time the one farthest from those kept. Deterministic: the
 * same inputs give the same contacts in the same order.
 *
 * Each triangle is met as a prism whose side walls stand square to it;
 * across a sharp convex edge such a wall takes in points nearer the other
 * face, whose depth below the triangle's plane overstates how far the
 * shape is in. A point of the triangle's plane answer that lies nearer the
 * plane across one of its convex edges is held to the shape's penetration
 * depth in the wedge under those two faces, and in the region under the
 * triangles in reach (their hull, extruded; one or two more EPAs, only
 * then); so is a point nearer the plane of any triangle in reach that has
 * this one wholly behind it (a convex corner's other faces): no contact is
 * deeper than the shape's penetration depth there (on a ridge
 * whose faces fall 20 and 55 degrees, tests/test_mesh.c: boxes,
 * a_box_reaching_over_a_ridge, where 174 of 3,300 contacts were too deep
 * before, by up to 0.25 m; every shape family,
 * every_shape_over_a_sharp_ridge). Such a point keeps the triangle's
 * normal, at a depth no more than the shape's true one: the solver pushes
 * less than it could, never more. A shape driven through most of its size
 * into a sharp ridge can get a deepest contact short of its penetration
 * depth (10 of 14,199 boxes in that test's poses at MK_TEST_SCALE=10, up
 * to 6.7 cm short; of 145,358 shapes of all families into it, 174 more
 * than 1% short, by up to 0.47 m, each with its penetration depth at
 * least 0.18 of its half size; none without a contact).
 *
 * On a closed convex mesh (a rock as a trimesh), at a sharp corner a
 * triangle's prism (face_contacts) reaches outside the solid; its contacts
 * there (EPA's way out through the prism's side, the face's own, the
 * plane's) are held to the depth of the region under the triangles in the
 * shape's reach where the shape's point is nearer the plane of a face that
 * has the triangle wholly behind (any face within that distance of the
 * point), or in front of it. On 28 blobs soaked at MK_TEST_SCALE=10
 * (tests/test_mesh.c every_shape_on_a_convex_blob at MK_TEST_SEED=61..76,
 * 91..96, 2, 3, 11, 12, 41, 42; some 85,000 contacts each) two contacts in
 * all are deeper than the shape's penetration depth by more than the patch's
 * tie, the worst by 1.7 mm or 1.02 times the depth (before 2026-11-28: 184,
 * 76 of them by more than 10%, the worst 9.3 cm). A shape that met
 * triangles' prisms but got no contact from any of them, or none as deep as
 * a prism's answer turned down, or none as deep as it lies below every plane
 * met (when that is more than a tenth of its half size), gets the region's
 * patch and normal too when the triangles in reach and the far corners
 * beside them make a convex patch (its deepest feature over none of the
 * small triangles at a corner, EPA's normals in none of their cones): on
 * those blobs every shape now gets a contact (before, 2,480 of some 1.4
 * million got none, up to 20 cm in), and the shapes whose deepest contact is
 * more than 1% short of their depth went from 6,764 to 11, the worst from
 * 19.8 to 1.3 cm short.
 *
 * Under a concave edge, a shape's point whose feet on both faces' planes
 * fall beyond the edge (the valley's gap) is taken by a face it is behind
 * with the face across, over the edge (not past its ends), when that face
 * is among the point's nearest; its depth is its depth below the face's
 * plane, no more than its distance to the valley's line, nor to the wall
 * an open edge next to it turns down (test_mesh an_apex_in_a_valleys_gap,
 * a_sphere_past_an_open_border_over_a_valley). Inside the surface means
 * behind those walls too.
 *
 * A point in a valley's gap is taken only by a face whose prism the shape
 * meets and whose side planes it is not beyond (in
 * an_apex_in_a_valleys_gap the slope takes an apex the flat face is not
 * asked about). boxes_match_their_hulls_on_a_terrain prints how many of
 * its poses get no contact at all: 2 of 300 (6 before the gap was taken;
 * 21 of 3,000 at MK_TEST_SCALE=10), each a box whose centre is below the
 * surface by more than half its top, which goes on through (above).
 * Spheres on the suite's surfaces (hulls, ridges, valleys, random
 * terrains) and every shape on a flat floor are exact (its other checks). */
#ifndef MINKOWSKI_MESH_H
#define MINKOWSKI_MESH_H

#include <minkowski/collide.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A triangle mesh with its bounding-volume tree; read-only after creation,
 * shareable between threads. */
typedef struct mk_mesh mk_mesh;

/* Builds a mesh from vertices and 3 indices per triangle. Exactly equal
 * vertex positions are welded (meshes read from triangle soups share edges
 * then), triangles without area are dropped (they never touch anything).
 * MK_INVALID_INPUT: NULL pointers, counts < 1, non-finite or out-of-range
 * coordinates, an index out of range; MK_DEGENERATE_HULL: no triangle with
 * area; MK_OUT_OF_MEMORY. */
MK_API mk_status mk_mesh_create(const mk_vec3 *vertices, int num_vertices, const int *indices, int num_triangles,
                                mk_mesh **out);
/* The same for a grid of ni x nj vertices x(i, j) = vertices[i nj + j]
 * (a heightfield), without welding or sorting: cell (i, j) becomes
 * triangles 2 c and 2 c + 1 (c = i (nj - 1) + j), (x(i, j), x(i, j + 1),
 * x(i + 1, j)) and (x(i + 1, j + 1), x(i + 1, j), x(i, j + 1)), cut along
 * the diagonal ODE's heightfields use; their fronts follow the
 * counter-clockwise rule (for x(i, j) = (i w, h, j d): +Y). A grid with a
 * triangle without area goes through mk_mesh_create, which drops it.
 * MK_INVALID_INPUT: NULL pointers, ni or nj < 2 or > 32768, non-finite or
 * out-of-range coordinates. */
MK_API mk_status mk_mesh_create_grid(const mk_vec3 *vertices, int ni, int nj, mk_mesh **out);
MK_API void mk_mesh_destroy(mk_mesh *mesh);
/* Triangles kept (with area), and welded vertices. */
MK_API int mk_mesh_triangle_count(const mk_mesh *mesh);
MK_API int mk_mesh_vertex_count(const mk_mesh *mesh);

typedef struct mk_mesh_contact {
    mk_vec3 position; /* world, midway between the shape's surface and the triangle's */
    mk_vec3 normal;   /* world, unit, out of the triangle towards the shape (push the shape along it) */
    mk_real depth;    /* > 0 penetration; < 0 separation (within settings->speculative) */
    int triangle;     /* the triangle's index in mk_mesh_create's input */
} mk_mesh_contact;

/* Contacts of a posed shape against a posed mesh: at most max_contacts
 * (>= 1) into out, their number into *count. settings may be NULL
 * (mk_collide_default_settings; speculative keeps points up to that far
 * apart). Returns MK_OK, or the budget status (MK_GJK_MAX_ITER,
 * MK_EPA_MAX_ITER, MK_EPA_FACE_BUDGET) of a triangle whose query hit its
 * bound (its best estimate used, as mk_collide does), or a bad-input status
 * with *count = 0. */
MK_API mk_status mk_collide_mesh(const mk_shape *shape, const mk_transform *xf, const mk_mesh *mesh,
                                 const mk_transform *mesh_xf, const mk_collide_settings *settings, int max_contacts,
                                 mk_mesh_contact *out, int *count);

/* Which triangles a query may use (an engine's per-triangle callback, such
 * as ODE's dTriCallback): called with the input index of each triangle the
 * query would test, before it tests it; 0 leaves the triangle out. */
typedef int mk_mesh_filter(void *user, int triangle);

/* mk_collide_mesh with the triangles `filter` (NULL: all) accepts. A left-out
 * triangle gives no contact; its neighbours keep the edges the whole mesh
 * gives them (an edge inside a flat floor stays flat beside a left-out
 * triangle: no contact is made on the hole's rim). Each triangle whose box
 * meets the shape's box (in the mesh's frame, grown by the shape's radius
 * and the speculative distance) is offered once, in the mesh's tree order:
 * the triangles mk_mesh_overlaps lists, in its order. */
MK_API mk_status mk_collide_mesh_filtered(const mk_shape *shape, const mk_transform *xf, const mk_mesh *mesh,
                                          const mk_transform *mesh_xf, const mk_collide_settings *settings,
                                          mk_mesh_filter *filter, void *user, int max_contacts, mk_mesh_contact *out,
                                          int *count);

/* The input indices of the triangles a query of this shape would test
 * (those whose boxes meet the shape's, as above), at most max_triangles of
 * them into `triangles` (which may be NULL when max_triangles is 0), in the
 * order the query tests them. Returns how many there are (more than
 * max_triangles when they did not all fit), or -1 on bad input. */
MK_API int mk_mesh_overlaps(const mk_shape *shape, const mk_transform *xf, const mk_mesh *mesh,
                            const mk_transform *mesh_xf, const mk_collide_settings *settings, int *triangles,
                            int max_triangles);

#ifdef __cplusplus
}
#endif
#endif
