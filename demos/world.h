/* A small engine-neutral rigid-body world for the demos and scenario tests:
 * the same scene runs in Bullet (plugin_bullet/demo_world.cpp) or ODE
 * (plugin_ode/demo_world.c), with the stock narrowphase or minkowski's. */
#ifndef MK_DEMO_WORLD_H
#define MK_DEMO_WORLD_H

#include <minkowski/gjk.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mk_body_kind {
    MK_BODY_BOX = 0,   /* size = half extents */
    MK_BODY_SPHERE,    /* size[0] = radius */
    MK_BODY_CAPSULE,   /* size[0] = radius, size[1] = half height of the segment; axis z */
    MK_BODY_CYLINDER,  /* size[0] = radius, size[1] = half height; axis z */
    MK_BODY_CONE,      /* size[0] = radius, size[1] = half height; apex +z */
    MK_BODY_HULL       /* points (local, centred near the origin) */
} mk_body_kind;

typedef struct mk_body_desc {
    mk_body_kind kind;
    double size[3];
    const mk_vec3 *points;
    int num_points;
    double mass; /* 0 = static */
    mk_transform pose;
} mk_body_desc;

typedef enum mk_narrowphase { MK_NARROWPHASE_STOCK = 0, MK_NARROWPHASE_MINKOWSKI } mk_narrowphase;

/* Pair kinds of the per-pair narrowphase times: the body kinds, and the
 * ground plane. */
#define MK_PAIR_PLANE (MK_BODY_HULL + 1)
#define MK_PAIR_KINDS (MK_PAIR_PLANE + 1)

/* Narrowphase calls by the kinds of their two shapes, [a][b] with a <= b
 * (mk_world_config.by_pair): how many, their wall time (every call timed on
 * its own, the clock reads included), the contact points they gave. */
typedef struct mk_pair_times {
    unsigned long long calls[MK_PAIR_KINDS][MK_PAIR_KINDS];
    unsigned long long contacts[MK_PAIR_KINDS][MK_PAIR_KINDS];
    double seconds[MK_PAIR_KINDS][MK_PAIR_KINDS];
} mk_pair_times;

/* Adds one call of pair kinds (a, b) to t (either order; out-of-range kinds
 * are not counted). */
static inline void mk_pair_times_add(mk_pair_times *t, int a, int b, double seconds, int contacts)
{
    if (a > b) {
        const int k = a;
        a = b;
        b = k;
    }
    if (a < 0 || b >= MK_PAIR_KINDS)
        return;
    t->calls[a][b] += 1;
    t->contacts[a][b] += (unsigned long long)(contacts > 0 ? contacts : 0);
    t->seconds[a][b] += seconds;
}

typedef struct mk_world_config {
    mk_narrowphase narrowphase;
    mk_gjk_variant variant;
    double dt;       /* seconds per step */
    double gravity;  /* along -z, m/s^2 */
    double friction;
    int growth;      /* minkowski only: 1 = growth-distance contact model, 0 = signed distance */
    int by_pair;     /* 1: time every narrowphase call on its own, by pair kinds (mk_world_pair_times) */
} mk_world_config;

typedef struct mk_step_stats {
    double narrowphase_seconds; /* wall time in the engine's narrowphase this step */
    int contacts;               /* contact points the engine used this step */
    int pairs;                  /* pairs handed to the narrowphase this step (0: not counted) */
} mk_step_stats;

typedef struct mk_world mk_world;

/* What every engine implements. */
typedef struct mk_world_ops {
    void (*add_ground)(mk_world *w); /* the static plane z = 0 */
    /* A static triangle mesh ground instead (counter-clockwise seen from +z;
     * copied: the arrays may go after the call). Returns 0, or -1. */
    int (*add_ground_mesh)(mk_world *w, const mk_vec3 *vertices, int num_vertices, const int *indices,
                           int num_triangles);
    int (*add_body)(mk_world *w, const mk_body_desc *desc); /* index >= 0, or -1 */
    mk_step_stats (*step)(mk_world *w);
    mk_transform (*body_pose)(const mk_world *w, int body);
    void (*body_velocity)(const mk_world *w, int body, mk_vec3 *lin, mk_vec3 *ang);
    unsigned long long (*minkowski_calls)(const mk_world *w); /* 0 for stock */
    void (*destroy)(mk_world *w);
    const mk_pair_times *(*pair_times)(const mk_world *w); /* NULL unless config.by_pair */
} mk_world_ops;

struct mk_world {
    const mk_world_ops *ops;
};

/* Bullet (float build, stock or + minkowski); NULL on failure. */
mk_world *mk_bullet_world_create(const mk_world_config *cfg);
/* ODE (stock colliders or + minkowski's); NULL on failure. Defined by
 * plugin_ode/demo_world.c (target mk_demo_world_ode) when the ODE adapter is
 * built; the demo knows from MK_HAVE_ODE. */
mk_world *mk_ode_world_create(const mk_world_config *cfg);

static inline void mk_world_add_ground(mk_world *w) { w->ops->add_ground(w); }
static inline int mk_world_add_ground_mesh(mk_world *w, const mk_vec3 *v, int nv, const int *idx, int nt)
{
    return w->ops->add_ground_mesh(w, v, nv, idx, nt);
}
static inline int mk_world_add_body(mk_world *w, const mk_body_desc *d) { return w->ops->add_body(w, d); }
static inline mk_step_stats mk_world_step(mk_world *w) { return w->ops->step(w); }
static inline mk_transform mk_world_body_pose(const mk_world *w, int i) { return w->ops->body_pose(w, i); }
static inline void mk_world_body_velocity(const mk_world *w, int i, mk_vec3 *lin, mk_vec3 *ang)
{
    w->ops->body_velocity(w, i, lin, ang);
}
static inline unsigned long long mk_world_minkowski_calls(const mk_world *w) { return w->ops->minkowski_calls(w); }
static inline void mk_world_destroy(mk_world *w) { w->ops->destroy(w); }
static inline const mk_pair_times *mk_world_pair_times(const mk_world *w) { return w->ops->pair_times(w); }

#ifdef __cplusplus
}
#endif
#endif
