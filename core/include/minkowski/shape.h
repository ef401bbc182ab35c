/* minkowski: convex shapes as a core support function plus a rounding radius.
 *
 * Support convention used everywhere in minkowski: the support point of a set X
 * along d is s_X(d) = argmax_{x in X} <d, x> (the farthest point along d).
 *
 * Every shape is a "core" convex set described by its support function, inflated
 * by `radius` (a Minkowski sum with a ball). Spheres are a point core, capsules a
 * segment core, Bullet margins are the radius. Shapes live in their own local
 * frame; axis-symmetric shapes (capsule, cylinder, cone) use the local Z axis.
 */
#ifndef MINKOWSKI_SHAPE_H
#define MINKOWSKI_SHAPE_H

#include <minkowski/math.h>
#include <minkowski/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mk_shape_type {
    MK_SHAPE_SPHERE = 0, /* core: the origin; radius = sphere radius */
    MK_SHAPE_BOX,        /* core: [-h, h] box */
    MK_SHAPE_CAPSULE,    /* core: segment z in [-half_height, half_height] */
    MK_SHAPE_CYLINDER,   /* core: disc radius r, z in [-h, h] */
    MK_SHAPE_CONE,       /* core: apex (0,0,+h), base disc radius r at z = -h */
    MK_SHAPE_ELLIPSOID,  /* core: axis-aligned ellipsoid with semi-axes radii */
    MK_SHAPE_HULL,       /* core: convex hull of points (see mk_hull) */
    MK_SHAPE_USER,       /* core: a caller support callback */
    MK_SHAPE_TYPE_COUNT
} mk_shape_type;

/* Convex polytope with vertex adjacency (for hill-climbing support) and polygonal
 * faces (for contact manifolds). Built by mk_hull_create from any point cloud;
 * one heap block, read-only after creation, shareable between threads. */
typedef struct mk_hull {
    int num_vertices;
    int num_faces;
    const mk_vec3 *vertices;     /* hull vertices only (interior points dropped) */
    const int *adj_start;        /* num_vertices + 1 offsets into adj */
    const int *adj;              /* neighbours of vertex v: adj[adj_start[v] .. adj_start[v+1]) */
    const int *face_start;       /* num_faces + 1 offsets into face_vertices */
    const int *face_vertices;    /* counter-clockwise seen from outside */
    const mk_vec3 *face_normals; /* unit outward normals */
    const mk_real *face_offsets; /* <n, x> <= offset for all x in the hull */
    /* Faces through each vertex (the inverse of the face lists), for contact
     * manifolds: faces incident to vertex v are
     * vert_faces[vert_face_start[v] .. vert_face_start[v+1]), in increasing
     * face index. mk_hull_create fills them; a hand-built hull may leave both
     * NULL, and the manifold then scans every face's vertex list instead
     * (same result, slower). */
    const int *vert_face_start;  /* num_vertices + 1 offsets into vert_faces */
    const int *vert_faces;
    /* A hull that is a rectangular box (8 vertices, 6 faces in opposite,
     * orthogonal pairs, every vertex a corner to rounding): box = 1, and the
     * box in the hull's frame is half extents box_half_extents about the pose
     * box_pose (right-handed axes). Pairs of such hulls and boxes take the
     * boxes' separating-axis test and face clip. mk_hull_create fills them; a
     * hand-built hull may leave box = 0. */
    int box;
    mk_transform box_pose;
    mk_vec3 box_half_extents;
    mk_vec3 aabb_min, aabb_max;  /* local bounding box */
    mk_vec3 centroid;            /* volume centroid: an interior point (the Boolean query and growth rely on it) */
    mk_real inradius;            /* radius of the largest ball about centroid inside the hull */
    /* Support lookup: a cube map of directions. Each of the 6 faces of the
     * cube [-1, 1]^3 is cut into start_res^2 cells (hull_start_index in
     * support.h gives a direction's cell). An entry e = start_vertex[cell]:
     *   e >= 0: a vertex extreme along the cell's centre direction, where
     *           support starts climbing;
     *   e < 0, x = ~e even: vertex x >> 1 is extreme for every direction of
     *           the cell;
     *   e < 0, x = ~e odd: the cell's candidates, k = ((x >> 1) & 3) + 2
     *           vertices at start_list[x >> 3 ..], are all the vertices
     *           extreme for some direction of the cell; support is the best
     *           of them.
     * start_res is 0 (no table) for hulls small enough for the linear scan,
     * else about 2 sqrt(num_vertices), from 8 to 32. start_list is NULL when
     * no cell has a list. */
    int start_res;
    const int *start_vertex;
    const int *start_list;
    /* The vertices again as three coordinate arrays (x, y, z of vertex v at
     * vertex_x[v], ...), for the linear support scan, which reads them two
     * at a time. mk_hull_create fills them; a hand-built hull may leave them
     * NULL (vertex_x NULL: the scan reads `vertices`, with the same answer). */
    const mk_real *vertex_x;
    const mk_real *vertex_y;
    const mk_real *vertex_z;
    /* Contact faces, for contact manifolds. Faces reached from one another
     * through shared vertices whose normals lie within MK_HULL_FLAT_ANGLE of
     * the lowest-indexed one's (a tessellated or single-precision mesh's
     * flat face: facets microradians apart) form a region, whose polygon is
     * the outline of their vertices seen along that face's normal; a lone
     * face with more than MK_HULL_CONTACT_CORNERS corners (a finely divided
     * cylinder's cap) is a region of its own. Outlines are convex, counter-
     * clockwise seen from outside, at most MK_HULL_CONTACT_CORNERS corners
     * (larger ones lose their flattest corners), first the corner highest
     * along the normal (ties: the lower vertex index). Face f belongs to
     * region face_region[f] (-1: f is its own contact face), whose outline is
     * region_vertices[region_start[r] .. region_start[r + 1]) and whose normal
     * and face code are those of face region_face[r]. mk_hull_create fills
     * them; a hand-built hull may leave face_region NULL (no regions). */
    int num_regions;
    const int *face_region;
    const int *region_start;
    const int *region_vertices;
    const int *region_face;
} mk_hull;

/* Contact faces (mk_hull.face_region): the flat angle (radians) and the
 * outline's corner budget. */
#define MK_HULL_FLAT_ANGLE 1e-4
#define MK_HULL_CONTACT_CORNERS 64

/* Hulls with at most this many vertices use a linear scan for support;
 * larger ones have a start table (most directions answered by one lookup, see
 * start_vertex) and hill-climb from the caller's hint or the table elsewhere.
 * Measured (mk_bench --section support, with the tables' candidate lists): in
 * whole GJK queries on hot caches (default Nesterov distance, 1 cm apart,
 * built-in hull shape) a table would already win from 16 vertices (756 vs 1047
 * ns; 48: 1062 vs 1383), but in a scene it costs cache misses the scan does
 * not: with tables from 13 vertices the Bullet bin demo (200 bodies, distinct
 * hulls of 8..40 points) spent more narrowphase time, not less (seed 1: 0.74
 * of stock's instead of 0.46, seed 5: 0.82 instead of 0.43; the table loads
 * were the hottest instructions of mk_gjk_distance). Below 48 vertices the
 * scan reads only the vertices, which the rest of the step keeps in cache. */
#define MK_HULL_LINEAR_SCAN_MAX 48

/* Build the convex hull of `count` points with Qhull. Rejects NULL pointers, a
 * negative count and non-finite coordinates with MK_INVALID_INPUT, fewer than
 * 4 points and point sets without volume (coplanar, collinear, coincident)
 * with MK_DEGENERATE_HULL. Duplicated points are fine. */
MK_API mk_status mk_hull_create(const mk_vec3 *points, int count, mk_hull **out);
MK_API void mk_hull_destroy(mk_hull *hull);
/* Brute-force support over every vertex (reference for tests). */
MK_API int mk_hull_support_linear(const mk_hull *hull, mk_vec3 dir);
/* Hill-climbing support from vertex `start` or the start table's vertex for
 * dir, whichever is higher along dir; a negative or out-of-range start (a cold
 * query) uses the table alone. */
MK_API int mk_hull_support_climb(const mk_hull *hull, mk_vec3 dir, int start);

/* Support callback of a user shape: the local-frame core point farthest along
 * dir. It must be finite for any finite dir (dir is not normalised). */
typedef mk_vec3 (*mk_support_fn)(const void *user_data, mk_vec3 dir);

typedef struct mk_shape {
    mk_shape_type type;
    mk_real radius; /* rounding radius around the core, >= 0 */
    union {
        struct { mk_vec3 half_extents; } box;
        struct { mk_real half_height; } capsule;
        struct { mk_real radius, half_height; } cylinder;
        struct { mk_real radius, half_height; } cone;
        struct { mk_vec3 radii; } ellipsoid;
        struct { const mk_hull *hull; } hull;
        struct {
            mk_support_fn support;
            const void *data;
            mk_vec3 aabb_min, aabb_max; /* local core bounds (used for the initial guess) */
        } user;
    } u;
} mk_shape;

/* Constructors validate their arguments: sizes must be finite and > 0 (radius of a
 * rounded shape >= 0); on error the shape is left untouched. */
MK_API mk_status mk_shape_sphere(mk_shape *s, mk_real radius);
MK_API mk_status mk_shape_box(mk_shape *s, mk_vec3 half_extents, mk_real rounding);
MK_API mk_status mk_shape_capsule(mk_shape *s, mk_real radius, mk_real half_height);
MK_API mk_status mk_shape_cylinder(mk_shape *s, mk_real radius, mk_real half_height, mk_real rounding);
MK_API mk_status mk_shape_cone(mk_shape *s, mk_real radius, mk_real half_height, mk_real rounding);
MK_API mk_status mk_shape_ellipsoid(mk_shape *s, mk_vec3 radii);
MK_API mk_status mk_shape_hull(mk_shape *s, const mk_hull *hull, mk_real rounding);
MK_API mk_status mk_shape_user(mk_shape *s, mk_support_fn fn, const void *data,
                               mk_vec3 aabb_min, mk_vec3 aabb_max, mk_real rounding);

/* MK_OK when a (possibly hand-filled) shape is usable, else why not. */
MK_API mk_status mk_shape_validate(const mk_shape *s);

/* Local-frame core support along dir (radius not included). `hint` is an in/out
 * vertex index for hulls (warm start for hill-climbing; -1 = cold: start
 * from the hull's table of extreme vertices); may be NULL. */
MK_API mk_vec3 mk_shape_support(const mk_shape *s, mk_vec3 dir, int *hint);

/* Local-frame bounding box of the whole shape (core + radius). */
MK_API void mk_shape_local_aabb(const mk_shape *s, mk_vec3 *lo, mk_vec3 *hi);

#ifdef __cplusplus
}
#endif
#endif
