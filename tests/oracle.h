/* Independent truths for the query suites. Nothing here calls gjk.c or simplex.h:
 * distances come from closed forms, exact feature enumeration on polytopes, 1-D
 * root finding (ellipsoid), and alternating projections with an independent
 * separating-plane lower bound (curved pairs). Shapes are read from the public
 * mk_shape struct; support values are recomputed from the formulas, not from
 * shape.c. Everything is deterministic (fixed-seed generator, no global state). */
#ifndef MK_TESTS_ORACLE_H
#define MK_TESTS_ORACLE_H

#include <stdint.h>
#include <minkowski/shape.h>

/* ------------------------------------------------------------ random numbers */

/* splitmix64: tiny, full period, good enough for test inputs. */
typedef struct or_rng { uint64_t s; } or_rng;

or_rng or_rng_make(uint64_t seed);
/* The tests' generators: seed as committed, or with MK_TEST_SEED=k (k != 0)
 * set, another seed for every suite's random cases (soaks over new inputs; a
 * failure seen under k comes back under the same k). The benchmark keeps
 * or_rng_make. */
uint64_t or_test_seed(uint64_t seed);
or_rng or_test_rng(uint64_t seed);
uint64_t or_next(or_rng *r);
double or_uniform(or_rng *r, double lo, double hi); /* [lo, hi) */
int or_int(or_rng *r, int n);                        /* [0, n) */
mk_vec3 or_unit(or_rng *r);                          /* uniform on the unit sphere */
mk_vec3 or_in_ball(or_rng *r, double radius);        /* uniform in the ball */
mk_quat or_quat(or_rng *r);                          /* uniform rotation (Shoemake) */
mk_transform or_pose(or_rng *r, mk_vec3 p);          /* uniform rotation, origin p */

/* Random-case counts: n times MK_TEST_SCALE (default 1, at least 1 case). */
double or_test_scale(void);
int or_scaled(int n);

/* ------------------------------------------------------------ small geometry */

mk_vec3 or_closest_on_segment(mk_vec3 p, mk_vec3 a, mk_vec3 b);
/* Closest point of the (possibly degenerate) triangle abc to p. */
mk_vec3 or_closest_on_triangle(mk_vec3 p, mk_vec3 a, mk_vec3 b, mk_vec3 c);
/* Distance between segments p0p1 and q0q1 with the closest points; exact for
 * parallel and degenerate segments (the minimum over the interior critical point
 * and the four endpoint projections). */
double or_segment_segment(mk_vec3 p0, mk_vec3 p1, mk_vec3 q0, mk_vec3 q1, mk_vec3 *cp, mk_vec3 *cq);
/* Whether segment pq crosses triangle abc (closed), and where. */
int or_segment_triangle(mk_vec3 p, mk_vec3 q, mk_vec3 a, mk_vec3 b, mk_vec3 c, mk_vec3 *hit);

/* ------------------------------------------------------------ analytic pairs */

/* Signed distances: > 0 separated (exact, with the closest points pa on A, pb on
 * B), < 0 overlapping. Witness pointers may be NULL. */
double or_sphere_sphere(mk_vec3 ca, double ra, mk_vec3 cb, double rb, mk_vec3 *pa, mk_vec3 *pb);
/* Boxes given by world corners lo/hi: per-axis gaps; when overlapping the value
 * is minus the penetration depth. */
double or_aabb_aabb(mk_vec3 lo_a, mk_vec3 hi_a, mk_vec3 lo_b, mk_vec3 hi_b, mk_vec3 *pa, mk_vec3 *pb);
/* Sphere against a posed box (clamping in the box frame). */
double or_sphere_box(mk_vec3 c, double r, mk_vec3 half, const mk_transform *xf, mk_vec3 *pa, mk_vec3 *pb);
/* Capsules given by segment end points and radii. */
double or_capsule_capsule(mk_vec3 a0, mk_vec3 a1, double ra, mk_vec3 b0, mk_vec3 b1, double rb, mk_vec3 *pa,
                          mk_vec3 *pb);

/* ------------------------------------------------------------ points vs shapes */

/* Signed distance from world point p to a posed shape (core inflated by radius):
 * exact for every type but MK_SHAPE_USER (which returns NAN). `closest` (may be
 * NULL) is the nearest point of the shape's surface. Hull shapes take their face
 * lists from the mk_hull struct with planes recomputed here from the vertices
 * (or_poly_from_hull); or_hull_pool_make verifies those hulls independently. */
double or_point_shape(const mk_shape *s, const mk_transform *xf, mk_vec3 p, mk_vec3 *closest);
/* Support value h(d) = max <d, x> over the whole shape in the world, from the
 * formulas (hulls: every vertex). */
double or_support_value(const mk_shape *s, const mk_transform *xf, mk_vec3 d);
/* A world point of the whole shape farthest along d (ties broken arbitrarily). */
mk_vec3 or_support_point(const mk_shape *s, const mk_transform *xf, mk_vec3 d);

/* ------------------------------------------------------------ polytopes */

#define OR_POLY_MAX_V 512
#define OR_POLY_MAX_F 1024
#define OR_POLY_MAX_FI 3072
#define OR_POLY_MAX_E 1536

/* A convex polytope with explicit topology (or a segment / a point: faces = 0).
 * Faces are convex polygons, counter-clockwise seen from outside; every edge of a
 * solid has exactly two faces. Large: allocate with or_poly_new. */
typedef struct or_poly {
    int nv, nf, ne;
    mk_vec3 v[OR_POLY_MAX_V];
    int face_start[OR_POLY_MAX_F + 1];
    int face_idx[OR_POLY_MAX_FI];
    mk_vec3 fn[OR_POLY_MAX_F];  /* unit outward normals */
    double fd[OR_POLY_MAX_F];   /* <fn, x> <= fd inside */
    int edge[OR_POLY_MAX_E][2];
    int edge_face[OR_POLY_MAX_E][2]; /* -1 when the edge has no faces (segment) */
    /* bounding spheres for pruning */
    mk_vec3 fc[OR_POLY_MAX_F];
    double fr[OR_POLY_MAX_F];
} or_poly;

or_poly *or_poly_new(void);
void or_poly_free(or_poly *p);
/* Hull of points in general position by brute force over every triple (O(n^4);
 * meant for n <= ~100). Returns 0 when the result is not a clean closed
 * triangulated surface (near-coplanar quadruples), 1 on success. Interior
 * points are dropped. */
int or_poly_from_points(or_poly *out, const mk_vec3 *pts, int n);
/* Topology from a hull built by mk_hull_create: vertices and face lists are
 * copied, normals and offsets recomputed from the vertices. With verify != 0,
 * returns 0 unless every face is planar, convex, outward and counter-clockwise,
 * every vertex lies below every face plane, and every edge has two faces; `why`
 * (may be NULL) then names the failed check. */
int or_poly_from_hull(or_poly *out, const mk_hull *h, int verify, const char **why);
/* Explicit topologies. */
void or_poly_box(or_poly *out, mk_vec3 half);
void or_poly_prism(or_poly *out, double r, double h, int n); /* N-gon prism inscribed in a cylinder */
void or_poly_pyramid(or_poly *out, double r, double h, int n); /* inscribed in a cone */
void or_poly_segment(or_poly *out, mk_vec3 a, mk_vec3 b);
void or_poly_point(or_poly *out, mk_vec3 a);
/* Copy with every vertex mapped to the world; recomputes planes and spheres. */
void or_poly_transform(or_poly *out, const or_poly *in, const mk_transform *xf);
/* Signed distance from p (> 0 outside, exact; < 0 inside: minus the depth). */
double or_poly_point_distance(const or_poly *p, mk_vec3 q, mk_vec3 *closest);

typedef enum or_sat_mode { OR_SAT_FULL, OR_SAT_GAUSS } or_sat_mode;
/* Separating-axis test over all face normals of both and the edge x edge cross
 * products (every pair in FULL mode; only the pairs whose Gauss-map arcs cross,
 * i.e. the faces of the Minkowski difference, in GAUSS mode). Returns the largest
 * separation over the axes: > 0 separated, <= 0 overlapping (then exactly minus
 * the penetration depth when both are solids). `axis` (may be NULL) gets it. */
double or_poly_sat(const or_poly *a, const or_poly *b, or_sat_mode mode, mk_vec3 *axis);
/* Exact signed distance between two world polytopes: SAT decides overlap (then
 * the SAT value), otherwise the minimum over vertex-face, face-vertex and
 * edge-edge feature pairs, with witnesses. */
double or_poly_distance(const or_poly *a, const or_poly *b, or_sat_mode mode, mk_vec3 *pa, mk_vec3 *pb);

/* ------------------------------------------------------------ shape pairs */

/* The world polytope of a polyhedral shape's core (box, hull) or a segment or
 * point core (capsule, sphere). Returns 0 for curved cores. */
int or_shape_core_poly(const mk_shape *s, const mk_transform *xf, or_poly *out);

/* Exact signed distance between two posed shapes when a closed form or exact
 * enumeration exists for the pair (polytope or segment or point cores, or a
 * sphere against anything): returns 1 and fills *d, pa, pb. Returns 0 when the
 * pair has no exact oracle here. */
int or_exact_distance(const mk_shape *a, const mk_transform *xa, const mk_shape *b, const mk_transform *xb,
                      double *d, mk_vec3 *pa, mk_vec3 *pb);

/* Certified bracket lo <= dist <= hi of the (unsigned, 0 when overlapping)
 * distance without GJK: alternating projections with the point oracles give
 * points a in A and b in B (hi = |a - b|), and the plane with normal b - a gives
 * lo = h_B-side gap from the support formulas. `overlap` is set to 1 when a
 * common point was found (then hi = lo = 0). */
typedef struct or_bracket {
    double lo, hi;
    int overlap;
    double depth; /* when overlapping: a point lies this deep inside both (a lower bound of the penetration) */
    mk_vec3 pa, pb;
} or_bracket;
or_bracket or_bracket_distance(const mk_shape *a, const mk_transform *xa, const mk_shape *b,
                               const mk_transform *xb, int iterations);

/* ------------------------------------------------------------ random shapes */

typedef enum or_family {
    OR_SPHERE,
    OR_BOX,
    OR_CAPSULE,
    OR_CYLINDER,
    OR_CONE,
    OR_ELLIPSOID,
    OR_HULL12,
    OR_HULL60,
    OR_ROUNDED_BOX,
    OR_ROUNDED_CYLINDER,
    OR_ROUNDED_CONE,
    OR_ROUNDED_HULL,
    OR_FAMILY_COUNT
} or_family;

const char *or_family_name(or_family f);

/* A shape and its pose to stderr, exactly (hex floats), so that a failing
 * pair can be replayed. */
void or_dump_shape(const char *name, const mk_shape *s, const mk_transform *x);

/* A pool of random hulls (built once with mk_hull_create) for the hull families;
 * points on or in an ellipsoid-ish blob, in general position. */
typedef struct or_hull_pool {
    int count;
    mk_hull *hulls[64];
    int npoints[64];
    const char *error; /* why the last make failed */
} or_hull_pool;
/* Returns MK_OK, the first mk_hull_create error, or MK_QHULL_ERROR when a hull
 * fails the independent verification (pool->error says which check). */
mk_status or_hull_pool_make(or_hull_pool *pool, or_rng *r, int count, int npoints);
void or_hull_pool_free(or_hull_pool *pool);

/* A random shape of the family with sizes in [0.2, 1.5] (a few skinny ones).
 * pool is needed for the hull families. */
void or_random_shape(or_rng *r, or_family f, const or_hull_pool *pool12, const or_hull_pool *pool60, mk_shape *out);

/* A primitive scaled by k about its frame origin: sizes and rounding radius.
 * Returns 0 (out untouched) for hulls and user shapes. */
int or_scale_primitive(const mk_shape *s, double k, mk_shape *out);

/* Place B: random rotations, A at a random point, B along a random unit u so
 * that the gap between the support planes of A and B along u is `gap` (the true
 * distance is >= gap when gap > 0; negative gaps overlap along u). */
void or_place_pair(or_rng *r, const mk_shape *a, const mk_shape *b, double gap, mk_transform *xa, mk_transform *xb);

/* The capsule over a wide disk (test_gjk, test_epa: a GJK stall found by the
 * ODE adapter's fuzzer): poses of a capsule of half length 0.0005 (A, tilted)
 * and of a cylinder 1e4 across and 1 mm thick (B) 7 cm below it. Returns the
 * exact distance from the capsule's segment to the cylinder: its nearer end
 * above the disk's top face (the rim is 1e4 away). */
double or_capsule_over_disk(mk_transform *xa, mk_transform *xb);

#endif
