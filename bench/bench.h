/* mk_bench: shared declarations of the benchmark program (C and C++ peers).
 *
 * The program builds the papers' datasets once (bench_pool: random shapes of one
 * family; bench_set: problems of one family at signed distances of one category,
 * each with a reference answer), then times every library configuration
 * (bench_query) on the same problems and prints tables. Nothing here is a test:
 * speed is never asserted. */
#ifndef MK_BENCH_H
#define MK_BENCH_H

#include <stdint.h>
#include <minkowski/gjk.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ options */

typedef struct bench_opts {
    int quick;           /* CI smoke run: few problems, whole run well under 30 s */
    int pairs;           /* problems per (family, category) set */
    uint64_t seed;
    const char *section; /* NULL: every section */
    const char *family;  /* NULL: every shape family (else a bench_family_name) */
    int runs;            /* repeated timing runs (medians over them), >= 5 */
} bench_opts;

/* ------------------------------------------------------------ datasets */

typedef enum bench_family {
    FAM_ELLIPSOID = 0,
    FAM_BOX,
    FAM_HULL12,
    FAM_HULL60,
    FAM_HULL240,
    FAM_HULL1000,
    FAM_COUNT
} bench_family;

typedef enum bench_category {
    CAT_OVERLAP = 0, /* signed distance uniform in [-0.1, 0) */
    CAT_CLOSE,       /* (0, 0.1] */
    CAT_DISTANT,     /* (0.1, 1.0] */
    CAT_SEP_1CM,     /* exactly +0.01 */
    CAT_OVL_1CM,     /* exactly -0.01 along the construction axis */
    CAT_COUNT
} bench_category;

const char *bench_family_name(bench_family f);
const char *bench_category_name(bench_category c);

/* Random shapes of one family, built once (hulls with mk_hull_create). */
typedef struct bench_pool {
    bench_family fam;
    int count;
    mk_shape *shapes;
    mk_hull **hulls;      /* hull families only, else NULL */
    double mean_vertices; /* hull families: mean hull vertex count */
    int min_vertices, max_vertices;
} bench_pool;

typedef struct bench_problem {
    int ia, ib;      /* indices into the pool */
    mk_pair pair;    /* shapes (pointers into the pool) and world poses */
    double target;   /* the signed distance asked for */
    /* Reference. Separated: the distance, certified to within ref_width by the
     * support-plane gap (lower) and a pair of points of A and B (upper). Overlapping:
     * minus the penetration depth when depth_exact (polytope SAT oracle), else the
     * construction gap `target`, which is only a lower bound of the signed distance. */
    double ref;
    double ref_width;
    int overlap;     /* reference Boolean answer */
    int depth_exact;
    mk_vec3 axis;    /* construction normal (world, from A to B): the gap along it is `target` */
} bench_problem;

typedef struct bench_set {
    const bench_pool *pool;
    bench_category cat;
    int count;
    bench_problem *p;
    int resampled;          /* candidates rejected while building (see dataset.c) */
    double max_width;       /* largest certified bracket width of a separated reference */
    int oracle_checked;     /* references cross-checked against tests/oracle's polytope distance */
    double oracle_max_diff; /* largest |reference - oracle| among them */
} bench_set;

/* ------------------------------------------------------------ one library configuration */

/* Everything a query says, filled outside the timed loop for the accuracy columns. */
typedef struct bench_answer {
    int ok;           /* 0: error status, iteration limit, exception, NaN */
    int overlap;      /* the library's Boolean verdict */
    double distance;  /* distance queries: >= 0 when separated (0 or unused when overlap) */
    double depth;     /* penetration queries: >= 0 */
    int iterations;   /* ours only, else -1 */
    double lower, upper; /* ours only: certified bounds (NAN elsewhere) */
} bench_answer;

typedef enum bench_kind { BENCH_DISTANCE = 0, BENCH_BOOLEAN, BENCH_PENETRATION } bench_kind;

typedef struct bench_query {
    const char *name;
    bench_kind kind;
    /* Native objects for every problem of the set (untimed); NULL when unsupported. */
    void *(*make)(const bench_set *set, const void *param);
    void (*release)(void *ctx);
    /* The timed call: one query on problem i; the return value goes to a sink. */
    double (*run)(void *ctx, int i);
    /* The same query, untimed, with everything it answers. */
    void (*answer)(void *ctx, int i, bench_answer *out);
    const void *param;
} bench_query;

/* Peers (compiled only when their packages are found; see CMakeLists.txt). */
#ifdef MK_BENCH_HAVE_CCD
extern const bench_query peer_ccd_gjk;     /* ccdGJKIntersect */
extern const bench_query peer_ccd_mpr;     /* ccdMPRIntersect */
extern const bench_query peer_ccd_gjk_pen; /* ccdGJKPenetration */
extern const bench_query peer_ccd_mpr_pen; /* ccdMPRPenetration */
extern long peer_ccd_support_calls;          /* support callbacks libccd made (both shapes), since start */
#endif
#ifdef MK_BENCH_HAVE_FCL
extern const bench_query peer_fcl_distance; /* fcl::detail::GJKSolver_libccd<double>::shapeDistance */
#endif
#ifdef MK_BENCH_HAVE_BULLET
extern const bench_query peer_bullet_distance;    /* btGjkEpaSolver2::Distance (float64) */
extern const bench_query peer_bullet_penetration; /* btGjkEpaSolver2::Penetration (float64) */
/* Bullet's ray test against a convex shape (float64): btSubsimplexConvexCast of
 * a point from o to o + len u, as btCollisionWorld::rayTestSingle runs it.
 * Shapes from the pool (NULL when one has no Bullet twin); returns 1 with the
 * distance along u in *t on a hit. */
void *peer_bullet_ray_make(const bench_pool *pool);
void peer_bullet_ray_release(void *ctx);
int peer_bullet_ray(void *ctx, int shape, const mk_transform *xf, mk_vec3 o, mk_vec3 u, double len, double *t);
#endif

#ifdef MK_BENCH_HAVE_ODE
/* ODE's rays (dCollide of a dRay): per ray i a dBox or a dConvex of pool shape
 * shape[i] at pose xf[i] (NULL for a pool ODE has no geom for: ellipsoids);
 * returns 1 with the distance along u in *t on a hit. */
void *peer_ode_ray_make(const bench_pool *pool, int n, const int *shape, const mk_transform *xf);
void peer_ode_ray_release(void *ctx);
int peer_ode_ray(void *ctx, int i, mk_vec3 o, mk_vec3 u, double len, double *t);
/* ODE's trimesh colliders (the mesh section): a dTriMesh of the floor, and
 * one geom at a time (a dSphere, dBox, dCapsule, dCylinder, or a dConvex of
 * a hull about its centroid; 0 for other shapes); collide writes up to max contacts' depths
 * and world normals (pushing the geom out) and returns their number. */
void *peer_ode_mesh_make(const mk_vec3 *v, int nv, const int *idx, int nt);
int peer_ode_mesh_shape(void *ctx, const mk_shape *s);
int peer_ode_mesh_collide(void *ctx, const mk_transform *xf, int max, double *depth, mk_vec3 *normal);
void peer_ode_mesh_release(void *ctx);
#endif

#ifdef __cplusplus
}
#endif
#endif
