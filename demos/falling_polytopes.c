/* falling_polytopes: the A/B demo. The same scenes, same seed, run with the
 * engine's stock narrowphase and with minkowski's (each GJK variant), side by
 * side: penetration, energy, contacts, narrowphase time, stack height and tilt.
 * Penetration is measured by one referee for every run: minkowski's exact
 * signed distance on the nominal shapes (no margins), never by the detector
 * under test. Writes a table to stdout, CSV and gnuplot PNG plots to --out. */
#define _POSIX_C_SOURCE 200809L
#include "meshes.h"
#include "world.h"

#include <minkowski/epa.h>
#include <minkowski/minkowski.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef MK_HAVE_ODE
#define MK_ODE_BUILT 1
#else
#define MK_ODE_BUILT 0
#endif

/* ------------------------------------------------------------ options */

typedef struct options {
    int bodies;
    int steps;
    unsigned long long seed;
    int variants[3], num_variants;
    int scene_bin, scene_stack; /* scene_stack: bit k for stack kind k (build_stack) */
    int engine_bullet, engine_ode;
    int growth;
    const char *out;
    int plots;
    int by_pair;
    int floor_mesh; /* --floor mesh: a triangle-mesh ground instead of the plane */
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: falling_polytopes [options]\n"
            "Drops random convex bodies into a bin and builds 10-high stacks, once with\n"
            "the engine's stock narrowphase and once per minkowski GJK variant, same seed.\n"
            "  --engine E     bullet, ode or all (default all engines built)\n"
            "  --bodies N     bodies dropped into the bin (default 200)\n"
            "  --steps N      simulation steps of 1/240 s per scene (default 2400)\n"
            "  --seed N       random seed (default 1)\n"
            "  --variant V    minkowski variant: vanilla, polyak, nesterov or all (default all)\n"
            "  --scene S      bin, stack (the three stacks), box_stack, hull_stack,\n"
            "                 mesh_stack or all (default all)\n"
            "  --out DIR      folder for CSV files and PNG plots (default out)\n"
            "  --no-growth    skip the growth-distance contact model run\n"
            "  --no-plots     write CSV only (no gnuplot)\n"
            "  --floor F      plane (default) or mesh: the ground z = 0 as a triangle mesh\n"
            "                 (8 m x 8 m, 32 x 32 jittered cells cut along random diagonals;\n"
            "                 outputs named <scene>_meshfloor)\n"
            "  --by-pair      also a table of narrowphase calls by pair of shape kinds\n"
            "                 (every call timed on its own: the times include the clock)\n"
            "  --help         this text\n"
            "Progress goes to stderr; the summary table to stdout.\n");
}

static int parse(int argc, char **argv, options *o)
{
    o->bodies = 200;
    o->steps = 2400;
    o->seed = 1;
    o->num_variants = 3;
    o->variants[0] = MK_GJK_VANILLA;
    o->variants[1] = MK_GJK_POLYAK;
    o->variants[2] = MK_GJK_NESTEROV;
    o->scene_bin = 1;
    o->scene_stack = 7;
    o->engine_bullet = 1;
    o->growth = 1;
    o->engine_ode = MK_ODE_BUILT;
    o->out = "out";
    o->plots = 1;
    o->by_pair = 0;
    o->floor_mesh = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--no-plots")) {
            o->plots = 0;
        } else if (!strcmp(a, "--no-growth")) {
            o->growth = 0;
        } else if (!strcmp(a, "--by-pair")) {
            o->by_pair = 1;
        } else if (!v) {
            fprintf(stderr, "falling_polytopes: %s needs a value\n", a);
            return 0;
        } else if (!strcmp(a, "--bodies")) {
            o->bodies = atoi(v), ++i;
        } else if (!strcmp(a, "--steps")) {
            o->steps = atoi(v), ++i;
        } else if (!strcmp(a, "--seed")) {
            o->seed = strtoull(v, NULL, 10), ++i;
        } else if (!strcmp(a, "--out")) {
            o->out = v, ++i;
        } else if (!strcmp(a, "--variant")) {
            ++i;
            o->num_variants = 1;
            if (!strcmp(v, "vanilla")) o->variants[0] = MK_GJK_VANILLA;
            else if (!strcmp(v, "polyak")) o->variants[0] = MK_GJK_POLYAK;
            else if (!strcmp(v, "nesterov")) o->variants[0] = MK_GJK_NESTEROV;
            else if (!strcmp(v, "all")) o->num_variants = 3;
            else { fprintf(stderr, "falling_polytopes: unknown variant %s\n", v); return 0; }
        } else if (!strcmp(a, "--engine")) {
            ++i;
            o->engine_bullet = !strcmp(v, "bullet") || !strcmp(v, "all");
            o->engine_ode = MK_ODE_BUILT && (!strcmp(v, "ode") || !strcmp(v, "all"));
            if (!strcmp(v, "ode") && !MK_ODE_BUILT) { fprintf(stderr, "falling_polytopes: built without ODE\n"); return 0; }
            if (!o->engine_bullet && !o->engine_ode) { fprintf(stderr, "falling_polytopes: unknown engine %s\n", v); return 0; }
        } else if (!strcmp(a, "--floor")) {
            if (!strcmp(v, "mesh")) o->floor_mesh = 1;
            else if (!strcmp(v, "plane")) o->floor_mesh = 0;
            else { fprintf(stderr, "falling_polytopes: unknown floor %s\n", v); return 0; }
            ++i;
        } else if (!strcmp(a, "--scene")) {
            ++i;
            o->scene_bin = !strcmp(v, "bin") || !strcmp(v, "all");
            o->scene_stack = !strcmp(v, "stack") || !strcmp(v, "all") ? 7
                             : !strcmp(v, "box_stack")                ? 1
                             : !strcmp(v, "hull_stack")               ? 2
                             : !strcmp(v, "mesh_stack")               ? 4
                                                                      : 0;
            if (!o->scene_bin && !o->scene_stack) { fprintf(stderr, "falling_polytopes: unknown scene %s\n", v); return 0; }
        } else {
            fprintf(stderr, "falling_polytopes: unknown option %s (try --help)\n", a);
            return 0;
        }
    }
    if (o->bodies < 1 || o->bodies > 5000 || o->steps < 1) {
        fprintf(stderr, "falling_polytopes: --bodies must be 1..5000 and --steps >= 1\n");
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ engines */

typedef struct engine {
    const char *name;
    mk_world *(*create)(const mk_world_config *cfg);
} engine;

/* ------------------------------------------------------------ scenes */

#define MAX_HULL_POINTS 96 /* the bin's hulls: 8..40 points; room for mesh_cube(3) */
_Static_assert(MESH_CUBE_MAX(3) <= MAX_HULL_POINTS, "a mesh cube fits a body");
#define DT (1.0 / 240.0)
/* Steps in the last second of a run, over which resting penetration is averaged. */
#define REST_STEPS 240
#define MK_PI 3.14159265358979323846

typedef struct body {
    mk_body_desc desc;
    mk_vec3 points[MAX_HULL_POINTS];
    mk_hull *hull;   /* referee geometry for hulls */
    mk_shape shape;  /* referee geometry (nominal, no margin) */
    double bound;    /* bounding-sphere radius */
} body;

typedef struct scene {
    const char *name;
    body *bodies;
    int count;     /* dynamic and static bodies */
    int stack_top; /* index of the top of the stack, or -1 */
    double stack_top_z0;
} scene;

static unsigned long long rng_state;
static double rnd(void) /* splitmix64 -> [0, 1) */
{
    unsigned long long z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}
static double uniform(double a, double b) { return a + (b - a) * rnd(); }

static mk_quat random_quat(void)
{
    double u1 = rnd(), u2 = 2 * MK_PI * rnd(), u3 = 2 * MK_PI * rnd();
    mk_quat q = {sqrt(1 - u1) * sin(u2), sqrt(1 - u1) * cos(u2), sqrt(u1) * sin(u3), sqrt(u1) * cos(u3)};
    return q;
}

/* Fill the referee shape and bound from the description. */
static int finish_body(body *b)
{
    const double *s = b->desc.size;
    mk_status st = MK_INVALID_INPUT;
    b->hull = NULL;
    switch (b->desc.kind) {
    case MK_BODY_BOX:
        st = mk_shape_box(&b->shape, (mk_vec3){s[0], s[1], s[2]}, 0);
        b->bound = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        break;
    case MK_BODY_SPHERE: st = mk_shape_sphere(&b->shape, s[0]); b->bound = s[0]; break;
    case MK_BODY_CAPSULE: st = mk_shape_capsule(&b->shape, s[0], s[1]); b->bound = s[0] + s[1]; break;
    case MK_BODY_CYLINDER:
        st = mk_shape_cylinder(&b->shape, s[0], s[1], 0);
        b->bound = sqrt(s[0] * s[0] + s[1] * s[1]);
        break;
    case MK_BODY_CONE: st = mk_shape_cone(&b->shape, s[0], s[1], 0); b->bound = sqrt(s[0] * s[0] + s[1] * s[1]); break;
    case MK_BODY_HULL:
        b->desc.points = b->points;
        st = mk_hull_create(b->points, b->desc.num_points, &b->hull);
        if (st == MK_OK)
            st = mk_shape_hull(&b->shape, b->hull, 0);
        b->bound = 0;
        for (int i = 0; i < b->desc.num_points; ++i) {
            mk_vec3 p = b->points[i];
            double r = sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
            if (r > b->bound) b->bound = r;
        }
        break;
    }
    return st == MK_OK;
}

static void add_static_box(scene *sc, mk_vec3 half, mk_vec3 pos)
{
    body *b = &sc->bodies[sc->count++];
    memset(b, 0, sizeof *b);
    b->desc.kind = MK_BODY_BOX;
    b->desc.size[0] = half.x, b->desc.size[1] = half.y, b->desc.size[2] = half.z;
    b->desc.mass = 0;
    b->desc.pose = mk_transform_from_quat(pos, (mk_quat){0, 0, 0, 1});
    finish_body(b);
}

/* N random bodies above a 2 m x 2 m bin, on a jittered grid so none overlap. */
static void build_bin(scene *sc, int n, unsigned long long seed)
{
    rng_state = seed;
    sc->name = "bin";
    sc->bodies = calloc((size_t)n + 4, sizeof(body));
    sc->count = 0;
    sc->stack_top = -1;
    const double half = 1.0, wall = 0.05, height = 1.0;
    add_static_box(sc, (mk_vec3){wall, half + wall, height}, (mk_vec3){half + wall, 0, height});
    add_static_box(sc, (mk_vec3){wall, half + wall, height}, (mk_vec3){-half - wall, 0, height});
    add_static_box(sc, (mk_vec3){half, wall, height}, (mk_vec3){0, half + wall, height});
    add_static_box(sc, (mk_vec3){half, wall, height}, (mk_vec3){0, -half - wall, height});
    const double cell = 0.4;
    const int per_row = 5;
    for (int i = 0; i < n; ++i) {
        body *b = &sc->bodies[sc->count];
        memset(b, 0, sizeof *b);
        int kind = (int)(rnd() * 10);
        double s = uniform(0.06, 0.12);
        if (kind < 5) { /* hull of 8..40 random points on a squashed ball */
            b->desc.kind = MK_BODY_HULL;
            b->desc.num_points = 8 + (int)(rnd() * 33);
            mk_vec3 ax = {uniform(0.6, 1.0), uniform(0.6, 1.0), uniform(0.6, 1.0)};
            mk_vec3 mean = {0, 0, 0};
            for (int k = 0; k < b->desc.num_points; ++k) {
                double z = uniform(-1, 1), t = uniform(0, 2 * MK_PI), r = sqrt(1 - z * z);
                b->points[k] = (mk_vec3){s * ax.x * r * cos(t), s * ax.y * r * sin(t), s * ax.z * z};
                mean = (mk_vec3){mean.x + b->points[k].x, mean.y + b->points[k].y, mean.z + b->points[k].z};
            }
            /* body frame at the points' mean: inside the hull (a few random
             * surface points can leave the sphere's centre outside it, which
             * ODE's dConvex and the bodies' mass frames do not expect) */
            for (int k = 0; k < b->desc.num_points; ++k)
                b->points[k] = (mk_vec3){b->points[k].x - mean.x / b->desc.num_points,
                                         b->points[k].y - mean.y / b->desc.num_points,
                                         b->points[k].z - mean.z / b->desc.num_points};
        } else if (kind < 7) {
            b->desc.kind = MK_BODY_BOX;
            b->desc.size[0] = s * uniform(0.5, 1), b->desc.size[1] = s * uniform(0.5, 1), b->desc.size[2] = s * uniform(0.5, 1);
        } else if (kind < 9) {
            b->desc.kind = MK_BODY_CYLINDER;
            b->desc.size[0] = s * uniform(0.5, 1), b->desc.size[1] = s * uniform(0.5, 1);
        } else {
            b->desc.kind = MK_BODY_CAPSULE;
            b->desc.size[0] = s * uniform(0.4, 0.7), b->desc.size[1] = s * uniform(0.3, 0.8);
        }
        b->desc.mass = 1.0;
        int layer = i / (per_row * per_row), r = i % (per_row * per_row);
        mk_vec3 p = {(r % per_row - (per_row - 1) / 2.0) * cell + uniform(-0.05, 0.05),
                     (r / per_row - (per_row - 1) / 2.0) * cell + uniform(-0.05, 0.05), 0.3 + layer * cell};
        b->desc.pose = mk_transform_from_quat(p, random_quat());
        if (finish_body(b))
            sc->count++;
    }
}

/* A 10-high stack of boxes (kind 0), of box-shaped hulls with bevelled
 * corners (kind 1) or of cubes as they come from a mesh (kind 2: a 4 x 4
 * grid of points on each face, single precision; demos/meshes.h), each level
 * slightly rotated. */
static void build_stack(scene *sc, int kind)
{
    const int levels = 10;
    const double h = 0.1;
    const int hull = kind > 0;
    sc->name = kind == 2 ? "mesh_stack" : hull ? "hull_stack" : "box_stack";
    sc->bodies = calloc(levels, sizeof(body));
    sc->count = 0;
    for (int i = 0; i < levels; ++i) {
        body *b = &sc->bodies[sc->count];
        memset(b, 0, sizeof *b);
        if (kind == 2) {
            b->desc.kind = MK_BODY_HULL;
            b->desc.num_points = mesh_cube(3, 12345, b->points);
        } else if (hull) {
            /* 24 points: each box corner cut by 1 cm along every axis */
            const double c = 0.01;
            int k = 0;
            for (int sx = -1; sx <= 1; sx += 2)
                for (int sy = -1; sy <= 1; sy += 2)
                    for (int sz = -1; sz <= 1; sz += 2) {
                        b->points[k++] = (mk_vec3){sx * (h - c), sy * h, sz * h};
                        b->points[k++] = (mk_vec3){sx * h, sy * (h - c), sz * h};
                        b->points[k++] = (mk_vec3){sx * h, sy * h, sz * (h - c)};
                    }
            b->desc.kind = MK_BODY_HULL;
            b->desc.num_points = k;
        } else {
            b->desc.kind = MK_BODY_BOX;
            b->desc.size[0] = b->desc.size[1] = b->desc.size[2] = h;
        }
        b->desc.mass = 1.0;
        double a = 0.05 * i;
        mk_quat q = {0, 0, sin(a / 2), cos(a / 2)};
        /* 5 mm apart: levels that start in contact would start in penetration
         * wherever an engine adds a margin outside the geometry */
        b->desc.pose = mk_transform_from_quat((mk_vec3){0, 0, h + (2 * h + 0.005) * i}, q);
        if (finish_body(b))
            sc->count++;
    }
    sc->stack_top = sc->count - 1;
    sc->stack_top_z0 = h + 2 * h * (levels - 1);
}

static void free_scene(scene *sc)
{
    for (int i = 0; i < sc->count; ++i)
        mk_hull_destroy(sc->bodies[i].hull);
    free(sc->bodies);
}

/* ------------------------------------------------------------ the referee */

typedef struct penetration {
    double max, sum;
    int count;
} penetration;

static void note(penetration *p, double depth)
{
    if (depth <= 0)
        return;
    if (depth > p->max) p->max = depth;
    p->sum += depth;
    p->count++;
}

/* Penetration of every overlapping pair (bounding spheres first) and of every
 * body into the ground plane, on the nominal geometry. */
static penetration referee(const scene *sc, const mk_transform *poses, void *ws, size_t ws_bytes)
{
    penetration pen = {0, 0, 0};
    for (int i = 0; i < sc->count; ++i) {
        const body *a = &sc->bodies[i];
        /* ground: the lowest point of the shape */
        mk_vec3 down_local = mk_rotate_inv(&poses[i].R, (mk_vec3){0, 0, -1});
        mk_vec3 low = mk_transform_point(&poses[i], mk_shape_support(&a->shape, down_local, NULL));
        note(&pen, a->shape.radius - low.z);
        for (int j = i + 1; j < sc->count; ++j) {
            const body *b = &sc->bodies[j];
            if (a->desc.mass == 0 && b->desc.mass == 0)
                continue;
            mk_vec3 d = {poses[j].p.x - poses[i].p.x, poses[j].p.y - poses[i].p.y, poses[j].p.z - poses[i].p.z};
            double r = a->bound + b->bound;
            if (d.x * d.x + d.y * d.y + d.z * d.z > r * r)
                continue;
            mk_pair pair = {&a->shape, poses[i], &b->shape, poses[j]};
            mk_signed_distance_result sd;
            if (mk_signed_distance(&pair, NULL, NULL, NULL, ws, ws_bytes, &sd) < MK_INVALID_INPUT)
                note(&pen, -sd.distance);
        }
    }
    return pen;
}

/* ------------------------------------------------------------ one run */

typedef struct record {
    double max_pen, mean_pen, ke, narrow_us, height, tilt_deg;
    int contacts;
} record;

typedef struct summary {
    char label[32];
    double rest_time;     /* s; < 0: never at rest */
    double final_max_pen; /* m */
    double rest_pen;      /* m: mean of the steps' mean penetration over the run's last second */
    double max_pen;       /* m, over the run */
    double narrow_us;     /* mean narrowphase time per step */
    double mean_contacts;
    int survived;         /* stack scenes */
    int escaped, nan;
    unsigned long long mk_calls;
    double dissipated;    /* J: total energy (kinetic + potential) lost over the run */
    double ns_per_pair;   /* narrowphase time per pair handed over (0: not counted) */
    int have_pairs;       /* --by-pair: `pairs` holds the run's per-pair times */
    mk_pair_times pairs;
} summary;

/* Kinetic + potential energy of the dynamic bodies (potential of the centre). */
static double total_energy(const scene *sc, mk_world *w, const int *ids, double g)
{
    double e = 0;
    for (int i = 0; i < sc->count; ++i) {
        if (sc->bodies[i].desc.mass == 0)
            continue;
        mk_vec3 v, av;
        mk_world_body_velocity(w, ids[i], &v, &av);
        double m = sc->bodies[i].desc.mass, rg2 = 0.4 * sc->bodies[i].bound * sc->bodies[i].bound;
        e += 0.5 * m * (v.x * v.x + v.y * v.y + v.z * v.z) + 0.5 * m * rg2 * (av.x * av.x + av.y * av.y + av.z * av.z) +
             m * g * mk_world_body_pose(w, ids[i]).p.z;
    }
    return e;
}

/* The mesh ground (--floor mesh): z = 0 over [-4, 4]^2, 32 x 32 cells with
 * the inner vertices jittered by up to 0.3 cell in x and y and each cell cut
 * along a random diagonal, counter-clockwise from +z: the same plane as the
 * default ground, tessellated. Its own generator, fixed: the scenes' bodies
 * do not change with the floor. */
#define MESH_FLOOR_G 32
#define MESH_FLOOR_VERTICES ((MESH_FLOOR_G + 1) * (MESH_FLOOR_G + 1))
#define MESH_FLOOR_TRIANGLES (2 * MESH_FLOOR_G * MESH_FLOOR_G)
typedef struct mesh_floor {
    mk_vec3 v[MESH_FLOOR_VERTICES];
    int idx[3 * MESH_FLOOR_TRIANGLES];
} mesh_floor;

static void make_mesh_floor(mesh_floor *f)
{
    const unsigned long long saved = rng_state;
    rng_state = 0x666c6f6f72ull;
    const int g = MESH_FLOOR_G;
    const double h = 8.0 / g;
    for (int i = 0; i <= g; ++i)
        for (int j = 0; j <= g; ++j) {
            double x = -4 + i * h, y = -4 + j * h;
            if (i > 0 && i < g && j > 0 && j < g)
                x += uniform(-0.3, 0.3) * h, y += uniform(-0.3, 0.3) * h;
            f->v[i * (g + 1) + j] = (mk_vec3){x, y, 0};
        }
    for (int i = 0, t = 0; i < g; ++i)
        for (int j = 0; j < g; ++j, t += 2) {
            const int a = i * (g + 1) + j, b = a + g + 1, c = b + 1, d = a + 1;
            const int q1[6] = {a, b, c, a, c, d}, q2[6] = {a, b, d, b, c, d};
            memcpy(&f->idx[3 * t], rnd() < 0.5 ? q1 : q2, sizeof q1);
        }
    rng_state = saved;
}

static int run_scene(const scene *sc, const options *o, const engine *eng, mk_narrowphase np, int variant,
                     int growth, const char *label, record *rec, summary *sum)
{
    memset(sum, 0, sizeof *sum);
    snprintf(sum->label, sizeof sum->label, "%s", label);
    mk_world_config cfg = {np, (mk_gjk_variant)variant, DT, 9.81, 0.6, growth, o->by_pair};
    mk_world *w = eng->create(&cfg);
    if (!w)
        return 0;
    if (o->floor_mesh) {
        mesh_floor fl;
        make_mesh_floor(&fl);
        if (mk_world_add_ground_mesh(w, fl.v, MESH_FLOOR_VERTICES, fl.idx, MESH_FLOOR_TRIANGLES) != 0) {
            mk_world_destroy(w);
            return 0;
        }
    } else {
        mk_world_add_ground(w);
    }
    int *ids = malloc(sizeof(int) * (size_t)sc->count);
    mk_transform *poses = malloc(sizeof(mk_transform) * (size_t)sc->count);
    for (int i = 0; i < sc->count; ++i)
        ids[i] = mk_world_add_body(w, &sc->bodies[i].desc);
    size_t ws_bytes = mk_epa_workspace_size(mk_epa_default_settings().max_iterations);
    void *ws = malloc(ws_bytes);

    double last_moving = 0;
    const double rest_ke = 1e-3 * sc->count;
    const double e0 = total_energy(sc, w, ids, cfg.gravity);
    double narrow_total = 0;
    long long pairs_total = 0;
    for (int s = 0; s < o->steps; ++s) {
        mk_step_stats st = mk_world_step(w);
        record *r = &rec[s];
        r->ke = 0;
        r->height = 0;
        r->tilt_deg = 0;
        for (int i = 0; i < sc->count; ++i) {
            poses[i] = mk_world_body_pose(w, ids[i]);
            if (sc->bodies[i].desc.mass == 0)
                continue;
            mk_vec3 v, av;
            mk_world_body_velocity(w, ids[i], &v, &av);
            double m = sc->bodies[i].desc.mass, rg2 = 0.4 * sc->bodies[i].bound * sc->bodies[i].bound;
            double e = 0.5 * m * (v.x * v.x + v.y * v.y + v.z * v.z) + 0.5 * m * rg2 * (av.x * av.x + av.y * av.y + av.z * av.z);
            if (!isfinite(e) || !mk_vec3_is_finite(poses[i].p))
                sum->nan = 1;
            else
                r->ke += e;
            if (fabs(poses[i].p.x) > 5 || fabs(poses[i].p.y) > 5 || poses[i].p.z < -1)
                sum->escaped++;
            /* tilt: angle between the body's z axis and the world's */
            double cz = poses[i].R.m[2][2];
            double tilt = acos(fmax(-1, fmin(1, fabs(cz)))) * 180 / MK_PI;
            if (sc->stack_top >= 0 && tilt > r->tilt_deg)
                r->tilt_deg = tilt;
        }
        if (sc->stack_top >= 0)
            r->height = poses[sc->stack_top].p.z;
        penetration pen = referee(sc, poses, ws, ws_bytes);
        r->max_pen = pen.max;
        r->mean_pen = pen.count ? pen.sum / pen.count : 0;
        r->contacts = st.contacts;
        r->narrow_us = st.narrowphase_seconds * 1e6;
        if (r->ke > rest_ke)
            last_moving = (s + 1) * DT;
        if (pen.max > sum->max_pen)
            sum->max_pen = pen.max;
        sum->narrow_us += r->narrow_us / o->steps;
        sum->mean_contacts += (double)r->contacts / o->steps;
        narrow_total += st.narrowphase_seconds;
        pairs_total += st.pairs;
        if (s % 240 == 0)
            fprintf(stderr, "\r  %-6s %-10s %-18s step %5d/%d", eng->name, sc->name, sum->label, s, o->steps);
    }
    fprintf(stderr, "\r%60s\r", "");
    sum->rest_time = last_moving < o->steps * DT - 0.5 ? last_moving : -1;
    sum->final_max_pen = rec[o->steps - 1].max_pen;
    /* Resting penetration (issue 5 compares it with stock's): the referee's
     * mean over the penetrating pairs, averaged over the last second of the
     * run (every step of a shorter run). */
    const int last = o->steps < REST_STEPS ? o->steps : REST_STEPS;
    for (int s = o->steps - last; s < o->steps; ++s)
        sum->rest_pen += rec[s].mean_pen / last;
    sum->survived = sc->stack_top < 0 ||
                    (rec[o->steps - 1].height > sc->stack_top_z0 - 0.05 && rec[o->steps - 1].tilt_deg < 10);
    sum->mk_calls = mk_world_minkowski_calls(w);
    sum->dissipated = e0 - total_energy(sc, w, ids, cfg.gravity);
    sum->ns_per_pair = pairs_total > 0 ? narrow_total * 1e9 / (double)pairs_total : 0;
    const mk_pair_times *pt = mk_world_pair_times(w);
    if (pt) {
        sum->pairs = *pt;
        sum->have_pairs = 1;
    }
    free(ws);
    free(poses);
    free(ids);
    mk_world_destroy(w);
    return 1;
}

/* ------------------------------------------------------------ output */

static void write_csv(const char *dir, const char *scene_name, const char *label, const record *rec, int steps)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s_%s.csv", dir, scene_name, label);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "falling_polytopes: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fprintf(f, "step,time_s,max_penetration_m,mean_penetration_m,kinetic_energy_J,contacts,narrowphase_us,stack_height_m,max_tilt_deg\n");
    for (int s = 0; s < steps; ++s)
        fprintf(f, "%d,%.6f,%.6g,%.6g,%.6g,%d,%.3f,%.6f,%.4f\n", s + 1, (s + 1) * DT, rec[s].max_pen,
                rec[s].mean_pen, rec[s].ke, rec[s].contacts, rec[s].narrow_us, rec[s].height, rec[s].tilt_deg);
    fclose(f);
}

static void plot(const char *dir, const char *scene_name, summary *sums, int runs, int stack)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.gp", dir, scene_name);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    static const char *cols[][3] = {{"3", "max penetration (m)", "max_penetration"},
                                    {"5", "kinetic energy (J)", "kinetic_energy"},
                                    {"6", "contact points", "contacts"},
                                    {"7", "narrowphase time per step (us)", "narrowphase"},
                                    {"8", "stack height (m)", "stack_height"},
                                    {"9", "max tilt (deg)", "tilt"}};
    int ncols = stack ? 6 : 4;
    fprintf(f, "set datafile separator ','\nset key outside bottom center horizontal\nset grid\n"
               "set terminal pngcairo size 900,500\nset xlabel 'time (s)'\n");
    for (int c = 0; c < ncols; ++c) {
        fprintf(f, "set output '%s/%s_%s.png'\nset title '%s: %s'\nset ylabel '%s'\nplot ", dir, scene_name,
                cols[c][2], scene_name, cols[c][1], cols[c][1]);
        for (int r = 0; r < runs; ++r)
            fprintf(f, "%s'%s/%s_%s.csv' every ::1 using 2:%s with lines title '%s'", r ? ", " : "", dir,
                    scene_name, sums[r].label, cols[c][0], sums[r].label);
        fprintf(f, "\n");
    }
    fclose(f);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>&1", path);
    if (system(cmd) != 0)
        fprintf(stderr, "falling_polytopes: gnuplot failed; CSV files are in %s\n", dir);
}

static void print_table(const char *scene_name, const summary *s, int runs, int stack)
{
    printf("\n%s\n", scene_name);
    printf("%-20s %8s %9s %9s %9s %10s %8s %7s %9s %8s%s\n", "narrowphase", "rest (s)", "max pen", "final",
           "rest pen", "narrow", "ns/pair", "ratio", "contacts", "lost E", stack ? "  stack" : "");
    printf("%-20s %8s %9s %9s %9s %10s %8s %7s %9s %8s\n", "", "", "(mm)", "(mm)", "(mm)", "(us/step)", "", "",
           "(mean)", "(J)");
    for (int r = 0; r < runs; ++r) {
        char rest[32], per_pair[32];
        if (s[r].rest_time < 0) snprintf(rest, sizeof rest, "never");
        else snprintf(rest, sizeof rest, "%.2f", s[r].rest_time);
        if (s[r].ns_per_pair > 0) snprintf(per_pair, sizeof per_pair, "%.0f", s[r].ns_per_pair);
        else snprintf(per_pair, sizeof per_pair, "-");
        printf("%-20s %8s %9.3f %9.3f %9.3f %10.1f %8s %7.2f %9.1f %8.2f%s", s[r].label, rest, s[r].max_pen * 1e3,
               s[r].final_max_pen * 1e3, s[r].rest_pen * 1e3, s[r].narrow_us, per_pair, s[r].narrow_us / s[0].narrow_us,
               s[r].mean_contacts, s[r].dissipated, stack ? (s[r].survived ? "  stands" : "  FELL") : "");
        if (s[r].nan) printf("  NaN!");
        if (s[r].escaped) printf("  %d escaped", s[r].escaped);
        printf("\n");
    }
}

/* --by-pair: calls, ns per call and contact points per call by pair of shape
 * kinds, one column group per run, and each run's time per call over stock's. */
static void print_pairs(const char *scene_name, const summary *s, int runs)
{
    static const char *const kind[MK_PAIR_KINDS] = {"box", "sphere", "capsule", "cylinder", "cone", "hull", "plane"};
    if (!s[0].have_pairs)
        return;
    printf("\n%s by pair of shape kinds (every call timed on its own, clock included)\n", scene_name);
    printf("%-18s", "pair");
    for (int r = 0; r < runs; ++r)
        printf(" | %-28.28s", s[r].label);
    printf("\n%-18s", "");
    for (int r = 0; r < runs; ++r)
        printf(" | %8s %7s %5s %5s", "calls", "ns/call", "pts", r ? "ratio" : "");
    printf("\n");
    for (int a = 0; a < MK_PAIR_KINDS; ++a)
        for (int b = a; b < MK_PAIR_KINDS; ++b) {
            int any = 0;
            for (int r = 0; r < runs; ++r)
                any |= s[r].have_pairs && s[r].pairs.calls[a][b] > 0;
            if (!any)
                continue;
            char name[32];
            snprintf(name, sizeof name, "%s-%s", kind[a], kind[b]);
            printf("%-18s", name);
            const double base = s[0].pairs.calls[a][b] ? s[0].pairs.seconds[a][b] / s[0].pairs.calls[a][b] : 0;
            for (int r = 0; r < runs; ++r) {
                const unsigned long long n = s[r].have_pairs ? s[r].pairs.calls[a][b] : 0;
                const double per = n ? s[r].pairs.seconds[a][b] / n : 0;
                char ratio[16] = "";
                if (r && n && base > 0)
                    snprintf(ratio, sizeof ratio, "%.2f", per / base);
                printf(" | %8llu %7.0f %5.2f %5s", n, per * 1e9, n ? (double)s[r].pairs.contacts[a][b] / n : 0.0,
                       ratio);
            }
            printf("\n");
        }
}

static int run_all(const scene *sc, const options *o, const engine *eng)
{
    static const char *names[] = {"minkowski_vanilla", "minkowski_polyak", "minkowski_nesterov"};
    int runs = 1 + o->num_variants + o->growth;
    summary sums[5];
    record *rec = malloc(sizeof(record) * (size_t)o->steps);
    char title[64];
    snprintf(title, sizeof title, "%s_%s%s", eng->name, sc->name, o->floor_mesh ? "_meshfloor" : "");
    int ok = 1, done = 0;
    for (int r = 0; r < runs; ++r) {
        mk_narrowphase np = r == 0 ? MK_NARROWPHASE_STOCK : MK_NARROWPHASE_MINKOWSKI;
        int growth = o->growth && r == runs - 1;
        int variant = r == 0 || growth ? MK_GJK_NESTEROV : o->variants[r - 1];
        char label[32];
        snprintf(label, sizeof label, "%s", r == 0 ? "stock" : growth ? "minkowski_growth" : names[variant]);
        if (!run_scene(sc, o, eng, np, variant, growth, label, rec, &sums[done])) {
            fprintf(stderr, "falling_polytopes: could not create the %s %s world\n", eng->name, label);
            ok = 0;
            continue;
        }
        write_csv(o->out, title, sums[done].label, rec, o->steps);
        ++done;
    }
    free(rec);
    if (done) {
        print_table(title, sums, done, sc->stack_top >= 0);
        print_pairs(title, sums, done);
        if (o->plots)
            plot(o->out, title, sums, done, sc->stack_top >= 0);
    }
    return ok;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    if (mkdir(o.out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "falling_polytopes: cannot create %s: %s\n", o.out, strerror(errno));
        return 1;
    }
    printf("falling_polytopes: seed %llu, %d steps of 1/240 s, output in %s/\n", o.seed, o.steps, o.out);
    engine engines[2];
    int num_engines = 0;
    if (o.engine_bullet)
        engines[num_engines++] = (engine){"bullet", mk_bullet_world_create};
#ifdef MK_HAVE_ODE
    if (o.engine_ode)
        engines[num_engines++] = (engine){"ode", mk_ode_world_create};
#endif
    int ok = 1;
    for (int e = 0; e < num_engines; ++e) {
        if (o.scene_bin) {
            scene sc;
            build_bin(&sc, o.bodies, o.seed);
            printf("bin: %d bodies (hulls of 8..40 points, boxes, cylinders, capsules)\n", sc.count - 4);
            ok &= run_all(&sc, &o, &engines[e]);
            free_scene(&sc);
        }
        for (int kind = 0; kind <= 2; ++kind) {
            if (o.scene_stack & (1 << kind)) {
                scene sc;
                build_stack(&sc, kind);
                ok &= run_all(&sc, &o, &engines[e]);
                free_scene(&sc);
            }
        }
    }
    return ok ? 0 : 1;
}
