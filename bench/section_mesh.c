/* mk_bench section "mesh": mk_collide_mesh (mesh.h) for shapes resting on a
 * triangle-mesh floor, beside ODE's own trimesh colliders for the shapes ODE
 * has (dSphere: its sphere-trimesh collider; dBox: its box-trimesh
 * collider; a dConvex of the same hull: libccd's MPR per triangle), same
 * floor, same poses, same run (and its capsule- and cylinder-trimesh
 * colliders).
 *
 * The floor: 32 x 32 cells of 0.25 m (2,048 triangles) at z = 0, inner
 * vertices jittered by up to 0.3 cell, each cell cut along a random
 * diagonal, counter-clockwise from +z: one plane however it is cut. Poses:
 * a uniform random rotation over a random point within 3 m of the centre,
 * the shape's lowest point 0.5 to 5 mm below the floor (the exact depth).
 * Columns: ns per call (median over runs of the mean over poses), contacts
 * per call (mean, up to 16 asked), the deepest contact's depth error
 * against the exact depth (max over poses), the largest angle between a
 * contact's normal and the floor's (rad; inner edges that catch show here),
 * and poses that got no contact.
 *
 * Then the same on a bumpy floor (the same grid, z = 3 cm times a sum of
 * two sines: slopes up to about 0.2, every inner edge convex or concave),
 * the shape's lowest point 0.5 to 5 mm below the surface under it: time,
 * contacts and poses without one only (no exact depth or normal to score
 * against there). */
#include "bench_c.h"

#include <minkowski/mesh.h>

#include <stdlib.h>
#include <string.h>

#define MESH_G 32
#define MESH_CELL 0.25
#define MESH_MAX 16

typedef struct mesh_floor {
    mk_vec3 v[(MESH_G + 1) * (MESH_G + 1)];
    int idx[MESH_G * MESH_G * 6];
} mesh_floor;

/* The bumpy floor's height (the flat one's is 0). */
static double bump(double x, double y) { return 0.03 * (sin(2.1 * x + 0.3) * cos(1.7 * y) + 0.5 * sin(5.3 * x + 3.1 * y)); }

static void make_floor(mesh_floor *f, or_rng *r, int bumpy)
{
    for (int i = 0; i <= MESH_G; ++i)
        for (int j = 0; j <= MESH_G; ++j) {
            double x = (i - 0.5 * MESH_G) * MESH_CELL, y = (j - 0.5 * MESH_G) * MESH_CELL;
            if (i > 0 && i < MESH_G && j > 0 && j < MESH_G)
                x += or_uniform(r, -0.3, 0.3) * MESH_CELL, y += or_uniform(r, -0.3, 0.3) * MESH_CELL;
            f->v[i * (MESH_G + 1) + j] = b3(x, y, bumpy ? bump(x, y) : 0);
        }
    for (int i = 0, t = 0; i < MESH_G; ++i)
        for (int j = 0; j < MESH_G; ++j, t += 2) {
            const int a = i * (MESH_G + 1) + j, b = a + MESH_G + 1, c = b + 1, d = a + 1;
            const int q1[6] = {a, b, c, a, c, d}, q2[6] = {a, b, d, b, c, d};
            memcpy(&f->idx[3 * t], or_int(r, 2) ? q1 : q2, sizeof q1);
        }
}

typedef struct mesh_row {
    double ns, contacts, depth_err, angle;
    int missed;
} mesh_row;

static void print_row(const char *name, const mesh_row *r, int scored)
{
    if (scored)
        printf("%-30s %9.0f %9.2f %11.2e %10.2e %7d\n", name, r->ns, r->contacts, r->depth_err, r->angle, r->missed);
    else
        printf("%-30s %9.0f %9.2f %11s %10s %7d\n", name, r->ns, r->contacts, "-", "-", r->missed);
}

/* The floor's height under (x, y): the triangle whose shadow holds it. */
static double floor_height(const mesh_floor *f, double x, double y)
{
    for (int t = 0; t < 2 * MESH_G * MESH_G; ++t) {
        const mk_vec3 a = f->v[f->idx[3 * t]], b = f->v[f->idx[3 * t + 1]], c = f->v[f->idx[3 * t + 2]];
        const double det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
        const double u = ((x - a.x) * (c.y - a.y) - (c.x - a.x) * (y - a.y)) / det;
        const double v = ((b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y)) / det;
        if (u >= 0 && v >= 0 && u + v <= 1)
            return a.z + u * (b.z - a.z) + v * (c.z - a.z);
    }
    return 0;
}

/* Accuracy of one call's contacts (world normals, exact depth `delta`). */
static void score(mesh_row *row, const double *depth, const mk_vec3 *normal, int n, double delta)
{
    row->contacts += n;
    if (n == 0) {
        ++row->missed;
        return;
    }
    double deepest = -INFINITY;
    for (int k = 0; k < n; ++k) {
        deepest = fmax(deepest, depth[k]);
        row->angle = fmax(row->angle, acos(fmin(1.0, normal[k].z / b3_len(normal[k]))));
    }
    row->depth_err = fmax(row->depth_err, fabs(deepest - delta));
}

typedef struct mesh_case {
    mk_transform xf;
    double delta;
} mesh_case;

/* One floor's table (flat: scored against the exact depth and normal). */
static void mesh_table(const bench_opts *o, int bumpy)
{
    or_rng r = or_rng_make(o->seed ^ 0x6d657368ull);
    static mesh_floor fl;
    make_floor(&fl, &r, bumpy);
    mk_mesh *mesh = NULL;
    if (mk_mesh_create(fl.v, (MESH_G + 1) * (MESH_G + 1), fl.idx, 2 * MESH_G * MESH_G, &mesh) != MK_OK) {
        printf("mk_mesh_create failed\n");
        return;
    }
    /* shapes: sphere, box, hull of 40 points, cone, ellipsoid */
    mk_vec3 pts[40];
    for (int k = 0; k < 40; ++k)
        pts[k] = b3_scale(or_unit(&r), or_uniform(&r, 0.15, 0.2));
    mk_hull *hull = NULL;
    mk_hull_create(pts, 40, &hull);
    enum { NS = 7, NODE = 5 }; /* the first NODE shapes are ODE's too */
    mk_shape shapes[NS];
    mk_shape_sphere(&shapes[0], 0.15);
    mk_shape_box(&shapes[1], b3(0.2, 0.15, 0.1), 0);
    mk_shape_capsule(&shapes[2], 0.1, 0.15);
    mk_shape_cylinder(&shapes[3], 0.15, 0.1, 0);
    mk_shape_hull(&shapes[4], hull, 0);
    mk_shape_cone(&shapes[5], 0.15, 0.15, 0);
    mk_shape_ellipsoid(&shapes[6], b3(0.2, 0.15, 0.1));
    const char *names[NS] = {"sphere r 0.15",     "box 0.4 x 0.3 x 0.2", "capsule r 0.1, 0.3", "cylinder r 0.15, 0.2",
                             "hull of 40 points", "cone r 0.15, 0.3",    "ellipsoid 0.2 0.15 0.1"};
    const char *ode_names[NODE] = {"ODE dSphere vs dTriMesh", "ODE dBox vs dTriMesh", "ODE dCapsule vs dTriMesh",
                                   "ODE dCylinder vs dTriMesh", "ODE dConvex vs dTriMesh (ccd)"};
    const int n = o->quick ? 40 : o->pairs < 300 ? o->pairs : 300;
    mesh_case *cases = malloc(sizeof *cases * (size_t)n);
    if (!cases || !hull) {
        free(cases);
        mk_hull_destroy(hull);
        mk_mesh_destroy(mesh);
        return;
    }
    printf("%-30s %9s %9s %11s %10s %7s\n", "", "ns/call", "contacts", "depth err", "angle", "missed");
#ifdef MK_BENCH_HAVE_ODE
    void *od = peer_ode_mesh_make(fl.v, (MESH_G + 1) * (MESH_G + 1), fl.idx, 2 * MESH_G * MESH_G);
#endif
    for (int s = 0; s < NS; ++s) {
        for (int i = 0; i < n; ++i) {
            mk_transform xf = or_pose(&r, b3(or_uniform(&r, -3, 3), or_uniform(&r, -3, 3), 0));
            const mk_vec3 lowest = or_support_point(&shapes[s], &xf, b3(0, 0, -1));
            cases[i].delta = or_uniform(&r, 5e-4, 5e-3);
            xf.p.z -= lowest.z - floor_height(&fl, lowest.x, lowest.y) + cases[i].delta;
            cases[i].xf = xf;
        }
        const mk_transform id = mk_transform_identity();
        mesh_row row = {0};
        double *per_run = malloc(sizeof(double) * (size_t)o->runs);
        for (int run = 0; run < o->runs && per_run; ++run) {
            const double t0 = bench_now_ns();
            for (int i = 0; i < n; ++i) {
                mk_mesh_contact c[MESH_MAX];
                int nc = 0;
                mk_collide_mesh(&shapes[s], &cases[i].xf, mesh, &id, NULL, MESH_MAX, c, &nc);
                bench_sink += nc;
            }
            per_run[run] = (bench_now_ns() - t0 - bench_clock_overhead_ns()) / n;
        }
        for (int i = 0; i < n; ++i) {
            mk_mesh_contact c[MESH_MAX];
            int nc = 0;
            mk_collide_mesh(&shapes[s], &cases[i].xf, mesh, &id, NULL, MESH_MAX, c, &nc);
            double d[MESH_MAX];
            mk_vec3 nn[MESH_MAX];
            for (int k = 0; k < nc; ++k)
                d[k] = c[k].depth, nn[k] = c[k].normal;
            score(&row, d, nn, nc, cases[i].delta);
        }
        row.ns = per_run ? bench_median(per_run, o->runs) : NAN;
        row.contacts /= n;
        char label[64];
        snprintf(label, sizeof label, "ours: %s", names[s]);
        print_row(label, &row, !bumpy);
#ifdef MK_BENCH_HAVE_ODE
        if (od && s < NODE && peer_ode_mesh_shape(od, &shapes[s])) {
            mesh_row orow = {0};
            for (int run = 0; run < o->runs && per_run; ++run) {
                const double t0 = bench_now_ns();
                for (int i = 0; i < n; ++i) {
                    double d[MESH_MAX];
                    mk_vec3 nn[MESH_MAX];
                    bench_sink += peer_ode_mesh_collide(od, &cases[i].xf, MESH_MAX, d, nn);
                }
                per_run[run] = (bench_now_ns() - t0 - bench_clock_overhead_ns()) / n;
            }
            for (int i = 0; i < n; ++i) {
                double d[MESH_MAX];
                mk_vec3 nn[MESH_MAX];
                const int nc = peer_ode_mesh_collide(od, &cases[i].xf, MESH_MAX, d, nn);
                score(&orow, d, nn, nc, cases[i].delta);
            }
            orow.ns = per_run ? bench_median(per_run, o->runs) : NAN;
            orow.contacts /= n;
            print_row(ode_names[s], &orow, !bumpy);
        }
#endif
        free(per_run);
    }
#ifdef MK_BENCH_HAVE_ODE
    peer_ode_mesh_release(od);
#endif
    free(cases);
    mk_hull_destroy(hull);
    mk_mesh_destroy(mesh);
}

void section_mesh(const bench_opts *o)
{
    printf("\n== Section mesh: mk_collide_mesh on a tessellated floor; ODE's own trimesh colliders ==\n");
    printf("floor: %d x %d cells of %.2f m (%d triangles), jittered, randomly cut, flat; shapes 0.5-5 mm deep,\n"
           "randomly rotated. ns/call: median over %d runs of the mean over poses; depth err: the deepest contact\n"
           "against the exact depth, max; angle: a contact normal's largest angle from the floor's (rad).\n",
           MESH_G, MESH_G, MESH_CELL, 2 * MESH_G * MESH_G, o->runs);
    mesh_table(o, 0);
    printf("\nThe same grid bumpy: z = 0.03 (sin(2.1 x + 0.3) cos(1.7 y) + 0.5 sin(5.3 x + 3.1 y)), the shape's\n"
           "lowest point 0.5-5 mm below the surface under it (no exact depth or normal to score against).\n");
    mesh_table(o, 1);
}
