/* mk_bench section "contact": what an engine's narrowphase pays per call for
 * resting pairs, the calls the ODE and Bullet stacks and bins make every
 * step. Each scenario is a set of pairs at rest, 1.2 mm deep (or touching
 * the plane that deep), called step after step through mk_collide_patch
 * with the pair's mk_collide_cache and room for 8 points (ODE's use), while
 * the upper body shuffles by 0.02 mm and 0.1 mrad a step. Time per call is
 * the median over the runs of one pass over every pair and step; the path
 * columns say how the calls were answered (the cache's counters). Ours only:
 * the demo (demos/falling_polytopes) sets these costs against the engines'
 * stock colliders in whole scenes. */
#include "bench_c.h"

#include <minkowski/collide.h>
#include "meshes.h"
#include "vec.h"
#include <stdlib.h>
#include <string.h>

#define CONTACT_STEPS 40
#define CONTACT_DEPTH 0.0012

typedef enum scenario {
    SC_BOX_BOX,     /* boxes, yawed: the separating-axis path */
    SC_HULL8,       /* the same boxes as 8-point hulls */
    SC_BEVELLED,    /* 24-point bevelled boxes, yawed: faces whose outlines cross */
    SC_HULL12,      /* random hulls of 12 points on random hulls */
    SC_HULL40,      /* of 40 points */
    SC_HULL_BOX,    /* hulls of 12 points on a large box */
    SC_CAPSULES,    /* capsules lying across capsules (the closed form) */
    SC_CYL_SIDE,    /* cylinders lying on their side on a large box */
    SC_CYL_CAP,     /* cylinders standing on their cap on a large box */
    SC_CYL_CROSS,   /* cylinders lying across cylinders (curved on curved) */
    SC_CYL_RANDOM,  /* cylinders on cylinders in random orientations (rims, edges) */
    SC_BOX_PLANE,   /* a box on a plane (mk_collide_plane / _patch, as the plane scenarios below) */
    SC_HULL_PLANE,  /* hulls of 12 points resting on a face */
    SC_BEVEL_PLANE, /* a bevelled box on its octagon */
    SC_CAP_PLANE,   /* a cylinder standing on its cap */
    SC_SIDE_PLANE,  /* a cylinder lying on its side */
    SC_MESH,        /* the demo's mesh cubes (56 points, faces of facets), yawed as the bevelled boxes */
    SC_COUNT
} scenario;

static const char *const SC_NAME[SC_COUNT] = {
    "box on box (yawed)",
    "8-point hull boxes",
    "bevelled boxes (24 pts)",
    "hulls of 12 points",
    "hulls of 40 points",
    "12-point hulls on a box",
    "capsules across capsules",
    "cylinders lying on a box",
    "cylinders standing on a box",
    "cylinders across cylinders",
    "cylinders on cylinders, random",
    "box on a plane",
    "12-point hulls on a plane",
    "bevelled box on a plane",
    "cylinder cap on a plane",
    "cylinder side on a plane",
    "mesh cubes (56 pts)",
};

/* Shape against the ground plane z = 0 rather than a shape pair. */
static int on_plane(scenario sc) { return sc >= SC_BOX_PLANE && sc <= SC_SIDE_PLANE; }

typedef struct rest_pair {
    const mk_shape *a, *b;
    mk_transform xa, xb;
    mk_collide_cache cache;
} rest_pair;

static mk_transform yawed(double yaw, double tilt, mk_vec3 axis, mk_vec3 p)
{
    const double c = cos(0.5 * yaw), s = sin(0.5 * yaw);
    const double l = sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    const double ct = cos(0.5 * tilt), st = sin(0.5 * tilt) / (l > 0 ? l : 1);
    /* q = qt qz: the yaw about z first, then the tilt about axis */
    const mk_quat qt = {st * axis.x, st * axis.y, st * axis.z, ct}, qz = {0, 0, s, c};
    const mk_quat q = {qt.w * qz.x + qt.x * qz.w + qt.y * qz.z - qt.z * qz.y,
                       qt.w * qz.y - qt.x * qz.z + qt.y * qz.w + qt.z * qz.x,
                       qt.w * qz.z + qt.x * qz.y - qt.y * qz.x + qt.z * qz.w,
                       qt.w * qz.w - qt.x * qz.x - qt.y * qz.y - qt.z * qz.z};
    return mk_transform_from_quat(p, q);
}

/* B moved along the signed-distance normal until the pair overlaps by
 * CONTACT_DEPTH (three corrections; our own answer places it). */
static int settle(rest_pair *r, void *ws, size_t bytes)
{
    for (int it = 0; it < 3; ++it) {
        mk_pair p = {r->a, r->xa, r->b, r->xb};
        mk_signed_distance_result sd;
        if (mk_signed_distance(&p, NULL, NULL, NULL, ws, bytes, &sd) >= MK_INVALID_INPUT)
            return 0;
        const double m = sd.distance + CONTACT_DEPTH;
        r->xb.p = (mk_vec3){r->xb.p.x - m * sd.normal.x, r->xb.p.y - m * sd.normal.y, r->xb.p.z - m * sd.normal.z};
    }
    return 1;
}

static mk_hull *make_hull(const mk_vec3 *p, int n)
{
    mk_hull *h = NULL;
    return mk_hull_create(p, n, &h) == MK_OK ? h : NULL;
}

typedef struct scene_data {
    mk_shape box, hull8, bevelled, plane_box, ground, cylinder, capsule, mesh;
    mk_shape small[16], large[16];
    mk_hull *hulls[35];
    int nhulls;
} scene_data;

static int make_shapes(scene_data *d, or_rng *rng)
{
    memset(d, 0, sizeof *d);
    const double h = 0.1, c = 0.01;
    mk_vec3 p[48];
    int k = 0;
    if (mk_shape_box(&d->box, (mk_vec3){h, h, h}, 0) != MK_OK)
        return 0;
    d->plane_box = d->box;
    if (mk_shape_box(&d->ground, (mk_vec3){1, 1, 0.1}, 0) != MK_OK ||
        mk_shape_cylinder(&d->cylinder, 0.1, 0.15, 0) != MK_OK || mk_shape_capsule(&d->capsule, 0.05, 0.15) != MK_OK)
        return 0;
    for (int i = 0; i < 8; ++i)
        p[i] = (mk_vec3){i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h};
    if (!(d->hulls[d->nhulls++] = make_hull(p, 8)))
        return 0;
    mk_shape_hull(&d->hull8, d->hulls[0], 0);
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2)
            for (int sz = -1; sz <= 1; sz += 2) {
                p[k++] = (mk_vec3){sx * (h - c), sy * h, sz * h};
                p[k++] = (mk_vec3){sx * h, sy * (h - c), sz * h};
                p[k++] = (mk_vec3){sx * h, sy * h, sz * (h - c)};
            }
    if (!(d->hulls[d->nhulls++] = make_hull(p, k)))
        return 0;
    mk_shape_hull(&d->bevelled, d->hulls[1], 0);
    for (int q = 0; q < 32; ++q) {
        const int n = q < 16 ? 12 : 40;
        for (int i = 0; i < n; ++i) {
            const mk_vec3 u = or_unit(rng);
            p[i] = (mk_vec3){0.15 * u.x, 0.1 * u.y, 0.08 * u.z};
        }
        mk_hull *hh = make_hull(p, n);
        if (!hh)
            return 0;
        d->hulls[d->nhulls++] = hh;
        mk_shape_hull(q < 16 ? &d->small[q] : &d->large[q - 16], hh, 0);
    }
    /* the demo's mesh_stack cube (no draw from rng: the other scenarios'
     * pairs stay as they were) */
    mk_vec3 m[MESH_CUBE_MAX(3)];
    if (!(d->hulls[d->nhulls++] = make_hull(m, mesh_cube(3, 12345, m))))
        return 0;
    mk_shape_hull(&d->mesh, d->hulls[d->nhulls - 1], 0);
    return 1;
}

/* The pairs of one scenario, at rest. */
static int make_pairs(scenario sc, const scene_data *d, or_rng *rng, rest_pair *r, int n, void *ws, size_t bytes)
{
    for (int i = 0; i < n; ++i) {
        memset(&r[i], 0, sizeof r[i]);
        const double yaw = or_uniform(rng, -0.3, 0.3), tilt = or_uniform(rng, 0, 1e-4);
        const mk_vec3 axis = or_unit(rng), side = {or_uniform(rng, -0.01, 0.01), or_uniform(rng, -0.01, 0.01), 0};
        switch (sc) {
        case SC_BOX_BOX:
        case SC_HULL8:
        case SC_BEVELLED:
        case SC_MESH:
            r[i].a = r[i].b = sc == SC_BOX_BOX ? &d->box
                              : sc == SC_HULL8 ? &d->hull8
                              : sc == SC_MESH  ? &d->mesh
                                               : &d->bevelled;
            r[i].xa = yawed(0, 0, axis, (mk_vec3){0, 0, 0});
            r[i].xb = yawed(sc == SC_BEVELLED || sc == SC_MESH ? (yaw < 0 ? -0.05 : 0.05) + yaw / 6 : yaw, tilt,
                            axis, (mk_vec3){side.x, side.y, 0.2});
            break;
        case SC_CYL_RANDOM:
            r[i].a = r[i].b = &d->cylinder;
            r[i].xa = yawed(or_uniform(rng, -3, 3), or_uniform(rng, 0, 3), or_unit(rng), (mk_vec3){0, 0, 0});
            r[i].xb = yawed(or_uniform(rng, -3, 3), or_uniform(rng, 0, 3), or_unit(rng),
                            (mk_vec3){side.x, side.y, 0.35});
            break;
        case SC_HULL12:
        case SC_HULL40: {
            const mk_shape *pool = sc == SC_HULL12 ? d->small : d->large;
            r[i].a = &pool[or_int(rng, 16)];
            r[i].b = &pool[or_int(rng, 16)];
            r[i].xa = yawed(or_uniform(rng, -3, 3), or_uniform(rng, 0, 0.3), or_unit(rng), (mk_vec3){0, 0, 0});
            r[i].xb = yawed(or_uniform(rng, -3, 3), or_uniform(rng, 0, 0.3), or_unit(rng),
                            (mk_vec3){side.x, side.y, 0.25});
            break;
        }
        case SC_HULL_BOX:
            r[i].a = &d->ground;
            r[i].b = &d->small[or_int(rng, 16)];
            r[i].xa = yawed(0, 0, axis, (mk_vec3){0, 0, 0});
            r[i].xb = yawed(or_uniform(rng, -3, 3), or_uniform(rng, 0, 0.3), or_unit(rng),
                            (mk_vec3){or_uniform(rng, -0.5, 0.5), or_uniform(rng, -0.5, 0.5), 0.25});
            break;
        case SC_CYL_CROSS:
        case SC_CAPSULES: {
            /* axes horizontal, along (cos a, sin a, 0): the z axis turned a
             * quarter about (-sin a, cos a, 0); the upper one across the
             * lower by 0.3-1.5 rad */
            r[i].a = r[i].b = sc == SC_CAPSULES ? &d->capsule : &d->cylinder;
            const double a0 = yaw, a1 = yaw + or_uniform(rng, 0.3, 1.5);
            r[i].xa = yawed(0, 1.5707963267948966, (mk_vec3){-sin(a0), cos(a0), 0}, (mk_vec3){0, 0, 0});
            r[i].xb = yawed(0, 1.5707963267948966 + tilt, (mk_vec3){-sin(a1), cos(a1), 0}, (mk_vec3){side.x, side.y, 0.1});
            break;
        }
        case SC_BOX_PLANE:
        case SC_BEVEL_PLANE:
            r[i].a = sc == SC_BOX_PLANE ? &d->plane_box : &d->bevelled;
            r[i].xa = yawed(yaw, tilt, axis, (mk_vec3){side.x, side.y, 0});
            break;
        case SC_HULL_PLANE: {
            /* a random face turned to face straight down (-z) */
            r[i].a = &d->small[or_int(rng, 16)];
            const mk_hull *h = r[i].a->u.hull.hull;
            const mk_vec3 f = h->face_normals[or_int(rng, h->num_faces)];
            const mk_vec3 down = {0, 0, -1};
            const mk_vec3 ax = v3_cross(f, down);
            const double sa = v3_len(ax), ca = -f.z;
            const mk_transform face_down = yawed(0, atan2(sa, ca), sa > 1e-12 ? ax : (mk_vec3){1, 0, 0}, side);
            const mk_transform spin = yawed(or_uniform(rng, -3, 3), tilt, axis, (mk_vec3){0, 0, 0});
            r[i].xa.R = m3_mul_m3(&spin.R, &face_down.R);
            r[i].xa.p = side;
            break;
        }
        case SC_CYL_SIDE:
        case SC_CYL_CAP:
            r[i].a = &d->ground;
            r[i].b = &d->cylinder;
            r[i].xa = yawed(0, 0, axis, (mk_vec3){0, 0, 0});
            r[i].xb = yawed(yaw, sc == SC_CYL_SIDE ? 1.5707963267948966 + tilt : tilt,
                            sc == SC_CYL_SIDE ? (mk_vec3){1, 0, 0} : axis,
                            (mk_vec3){side.x, side.y, sc == SC_CYL_SIDE ? 0.2 : 0.25});
            break;
        case SC_CAP_PLANE:
        case SC_SIDE_PLANE:
            r[i].a = &d->cylinder;
            r[i].xa = yawed(yaw, sc == SC_SIDE_PLANE ? 1.5707963267948966 + tilt : tilt,
                            sc == SC_SIDE_PLANE ? (mk_vec3){1, 0, 0} : axis, side);
            break;
        case SC_COUNT:
            return 0;
        }
        if (on_plane(sc)) {
            /* the lowest point CONTACT_DEPTH below the plane z = 0 */
            const mk_vec3 down = m3_tmul(&r[i].xa.R, v3(0, 0, -1));
            const mk_vec3 low = xf_apply(&r[i].xa, mk_shape_support(r[i].a, down, NULL));
            r[i].xa.p.z -= low.z + CONTACT_DEPTH;
        } else if (!settle(&r[i], ws, bytes)) {
            return 0;
        }
    }
    return 1;
}

/* One pass: every pair, step after step; returns contacts written. Plane
 * scenarios take up to cap points (4: mk_collide_plane, as Bullet's adapter;
 * more: mk_collide_plane_patch, as ODE's). */
static long pass(scenario sc, rest_pair *r, int n, const mk_collide_settings *s, int cap, int step0)
{
    long contacts = 0;
    for (int k = step0; k < step0 + CONTACT_STEPS; ++k)
        for (int i = 0; i < n; ++i) {
            const double w = 2e-5 * sin(0.7 * k + i), turn = 1e-4 * sin(0.3 * k + 2 * i);
            if (on_plane(sc)) {
                mk_transform x = r[i].xa;
                x.p.z += w;
                if (cap > MK_MANIFOLD_MAX_POINTS) {
                    mk_contact_patch_result m;
                    mk_collide_plane_patch(r[i].a, &x, (mk_vec3){0, 0, 1}, 0, s, cap, &m);
                    contacts += m.count;
                } else {
                    mk_manifold m;
                    mk_collide_plane(r[i].a, &x, (mk_vec3){0, 0, 1}, 0, s, &m);
                    contacts += m.count;
                }
                continue;
            }
            mk_transform xb = yawed(turn, 0, (mk_vec3){1, 0, 0}, (mk_vec3){0, 0, 0});
            mk_pair p = {r[i].a, r[i].xa, r[i].b, r[i].xb};
            /* the shuffle: a small turn about x and a lift, on top of the rest pose */
            p.xf_b.R = m3_mul_m3(&r[i].xb.R, &xb.R);
            p.xf_b.p.z += w;
            mk_contact_patch_result out;
            mk_collide_patch(&p, s, &r[i].cache, MK_MANIFOLD_MAX_PATCH_POINTS, &out);
            contacts += out.count;
        }
    return contacts;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void section_contact(const bench_opts *o)
{
    printf("\n== Section contact: resting pairs called step after step (mk_collide_patch, 8 points, pair cache) ==\n");
    printf("%d pairs per scenario, %d steps a pass, 1.2 mm deep, shuffled by 0.02 mm and 0.1 mrad a step;\n",
           o->quick ? 40 : 200, CONTACT_STEPS);
    printf("ns/call: median over %d passes (after one untimed); shortcut: calls whose depth came from the resting\n"
           "shortcut (no GJK or EPA); certificate: calls answered as apart by the cached certificate.\n",
           o->runs);
    printf("  %-30s %9s %9s %9s %9s %11s\n", "scenario", "ns/call", "min", "points", "shortcut", "certificate");
    or_rng rng = or_rng_make(o->seed ^ 0xc0a7ac7ull);
    scene_data d;
    memset(&d, 0, sizeof d);
    const size_t bytes = mk_epa_workspace_size(mk_epa_default_settings().max_iterations);
    void *ws = malloc(bytes);
    const int n = o->quick ? 40 : 200;
    rest_pair *r = calloc((size_t)n, sizeof *r);
    double *t = calloc((size_t)o->runs, sizeof *t);
    if (!ws || !r || !t || !make_shapes(&d, &rng)) {
        printf("  (could not build the scenes)\n");
        goto done;
    }
    const mk_collide_settings s = mk_collide_default_settings();
    for (int sc = 0; sc < SC_COUNT; ++sc) {
        if (!make_pairs((scenario)sc, &d, &rng, r, n, ws, bytes)) {
            printf("  %-30s (could not place the pairs)\n", SC_NAME[sc]);
            continue;
        }
        /* plane scenarios twice: 4 points (Bullet's use), 8 (ODE's); pairs 8 */
        const int caps[2] = {MK_MANIFOLD_MAX_POINTS, MK_MANIFOLD_MAX_PATCH_POINTS};
        for (int ci = on_plane(sc) ? 0 : 1; ci < 2; ++ci) {
            const int cap = caps[ci];
            volatile long sink = pass((scenario)sc, r, n, &s, cap, 0);
            for (int i = 0; i < n; ++i)
                r[i].cache.skipped = r[i].cache.shortcuts = 0;
            long contacts = 0;
            for (int k = 0; k < o->runs; ++k) {
                const double t0 = bench_now_ns();
                contacts += pass((scenario)sc, r, n, &s, cap, CONTACT_STEPS * (k + 1));
                t[k] = (bench_now_ns() - t0) / ((double)n * CONTACT_STEPS);
            }
            sink += contacts;
            (void)sink;
            unsigned long long shortcuts = 0, skipped = 0;
            for (int i = 0; i < n; ++i)
                shortcuts += r[i].cache.shortcuts, skipped += r[i].cache.skipped;
            qsort(t, (size_t)o->runs, sizeof *t, cmp_double);
            const double calls = (double)n * CONTACT_STEPS * o->runs;
            if (on_plane(sc)) {
                char name[64];
                snprintf(name, sizeof name, "%s, %d", SC_NAME[sc], cap);
                printf("  %-30s %9.0f %9.0f %9.2f %9s %11s\n", name, t[o->runs / 2], t[0], contacts / calls, "-",
                       "-");
            } else {
                printf("  %-30s %9.0f %9.0f %9.2f %8.0f%% %10.0f%%\n", SC_NAME[sc], t[o->runs / 2], t[0],
                       contacts / calls, 100 * shortcuts / calls, 100 * skipped / calls);
            }
        }
    }
done:
    for (int i = 0; i < d.nhulls; ++i)
        mk_hull_destroy(d.hulls[i]);
    free(t);
    free(r);
    free(ws);
}
