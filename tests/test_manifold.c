/* Check suite "manifold": contact manifolds against analytic answers and
 * independent surface oracles.
 *
 * Most scenes are built in a canonical frame (ground top at z = 0, normal from
 * A to B known in closed form) and then moved as a whole by a rigid "scene"
 * transform, so the library sees arbitrary world poses while the expected
 * answers stay analytic. Outputs are mapped back before comparing. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <minkowski/collide.h>
#include <minkowski/manifold.h>
#include <stdio.h>
#include "manifold_internal.h"
#include "oracle.h"

#define PI 3.14159265358979323846
#define TOL 1e-9

/* ------------------------------------------------------------ helpers */

static mk_vec3 V(double x, double y, double z)
{
    mk_vec3 r = {x, y, z};
    return r;
}
static mk_vec3 add(mk_vec3 a, mk_vec3 b) { return V(a.x + b.x, a.y + b.y, a.z + b.z); }
static mk_vec3 sub(mk_vec3 a, mk_vec3 b) { return V(a.x - b.x, a.y - b.y, a.z - b.z); }
static mk_vec3 scl(mk_vec3 a, double s) { return V(a.x * s, a.y * s, a.z * s); }
static double dot(mk_vec3 a, mk_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double len(mk_vec3 a) { return sqrt(dot(a, a)); }
static mk_vec3 unit(mk_vec3 a) { return scl(a, 1.0 / len(a)); }
static double dist(mk_vec3 a, mk_vec3 b) { return len(sub(a, b)); }

/* Fixed-seed generator (xorshift64*), uniform in [lo, hi). */
typedef struct rng { uint64_t s; } rng;
static double uni(rng *r, double lo, double hi)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t x = r->s * 2685821657736338717ull;
    return lo + (hi - lo) * ((double)(x >> 11) / 9007199254740992.0);
}
static mk_vec3 rand_unit(rng *r)
{
    for (int k = 0; k < 100; ++k) {
        mk_vec3 v = V(uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1));
        double l = len(v);
        if (l > 0.1 && l <= 1)
            return scl(v, 1 / l);
    }
    return V(0, 0, 1);
}

/* Random-case counts scale with MK_TEST_SCALE (soaks). */
static int scaled(int n)
{
    const char *e = getenv("MK_TEST_SCALE");
    double s = e ? atof(e) : 1.0;
    return s > 0 ? (int)(n * s + 0.5) : n;
}

static mk_transform axis_angle(mk_vec3 p, mk_vec3 axis, double angle)
{
    mk_vec3 u = unit(axis);
    double s = sin(0.5 * angle);
    mk_quat q = {u.x * s, u.y * s, u.z * s, cos(0.5 * angle)};
    return mk_transform_from_quat(p, q);
}
static mk_transform at(mk_vec3 p) { return axis_angle(p, V(0, 0, 1), 0); }

/* a * b (apply b, then a). */
static mk_transform compose(mk_transform a, mk_transform b)
{
    mk_transform r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.R.m[i][j] = a.R.m[i][0] * b.R.m[0][j] + a.R.m[i][1] * b.R.m[1][j] + a.R.m[i][2] * b.R.m[2][j];
    r.p = mk_transform_point(&a, b.p);
    return r;
}
static mk_vec3 inv_point(const mk_transform *xf, mk_vec3 p) { return mk_rotate_inv(&xf->R, sub(p, xf->p)); }

/* A whole scene: two posed shapes in a canonical frame, the analytic normal
 * (A to B) and signed distance, moved into the world by `scene`. */
typedef struct scene {
    mk_shape a, b;
    mk_transform xa, xb; /* canonical poses */
    mk_vec3 n;           /* canonical normal, A to B */
    double sd;
    mk_transform g;      /* canonical -> world */
} scene;

static void scene_init(scene *s, mk_vec3 n, double sd)
{
    memset(s, 0, sizeof *s);
    s->xa = mk_transform_identity();
    s->xb = mk_transform_identity();
    s->n = unit(n);
    s->sd = sd;
    s->g = axis_angle(V(0.3, -1.7, 2.9), V(0.4, -0.8, 0.45), 0.77);
}

/* Run the query; results are mapped back to the canonical frame. */
static mk_status run_scene(const scene *s, int swap, double spec, mk_manifold *m)
{
    mk_transform wa = compose(s->g, s->xa), wb = compose(s->g, s->xb);
    mk_vec3 wn = mk_rotate(&s->g.R, s->n);
    mk_pair p = {&s->a, wa, &s->b, wb};
    if (swap) {
        p.a = &s->b;
        p.xf_a = wb;
        p.b = &s->a;
        p.xf_b = wa;
        wn = scl(wn, -1);
    }
    mk_manifold_settings st = mk_manifold_default_settings();
    st.speculative_distance = spec;
    mk_status r = mk_contact_manifold(&p, wn, s->sd, &st, m);
    m->normal = mk_rotate_inv(&s->g.R, m->normal);
    for (int i = 0; i < m->count; ++i) {
        mk_manifold_point *q = &m->points[i];
        q->point_a = inv_point(&s->g, q->point_a);
        q->point_b = inv_point(&s->g, q->point_b);
        q->position = inv_point(&s->g, q->position);
    }
    return r;
}

/* Invariants every manifold must satisfy. */
static void check_common(const mk_manifold *m, mk_vec3 n_in, double spec)
{
    ck_assert_int_ge(m->count, 0);
    ck_assert_int_le(m->count, MK_MANIFOLD_MAX_POINTS);
    ck_assert(mk_vec3_is_finite(m->normal));
    ck_assert_double_eq_tol(len(m->normal), 1.0, 1e-12);
    /* Reference face normals may differ from the input by the face angle (0.05). */
    ck_assert_msg(dot(m->normal, unit(n_in)) > cos(0.05) - 1e-12, "normal not A->B: %g",
                  dot(m->normal, unit(n_in)));
    for (int i = 0; i < m->count; ++i) {
        const mk_manifold_point *q = &m->points[i];
        ck_assert(mk_vec3_is_finite(q->point_a) && mk_vec3_is_finite(q->point_b) && mk_vec3_is_finite(q->position));
        ck_assert(isfinite(q->separation));
        ck_assert_double_eq(q->depth, -q->separation);
        ck_assert_double_eq_tol(q->separation, dot(sub(q->point_b, q->point_a), m->normal), 1e-9);
        ck_assert_double_le_tol(dist(q->position, scl(add(q->point_a, q->point_b), 0.5)), 0, 1e-12);
        ck_assert_double_le(q->separation, spec + 1e-8);
        for (int j = 0; j < i; ++j)
            ck_assert_msg(m->points[j].id != q->id, "duplicate id %08x", q->id);
    }
}

/* ------------------------------------------------------------ surface oracles */

/* Exact signed distance of a canonical-frame point p to the surface of a posed
 * shape (rounding included), written independently of the library. Ellipsoids,
 * cones and user shapes are not covered (return 0); hulls must be centred cubes. */
static double sd_box_core(mk_vec3 h, mk_vec3 q)
{
    mk_vec3 d = V(fabs(q.x) - h.x, fabs(q.y) - h.y, fabs(q.z) - h.z);
    mk_vec3 o = V(fmax(d.x, 0), fmax(d.y, 0), fmax(d.z, 0));
    return len(o) + fmin(fmax(d.x, fmax(d.y, d.z)), 0);
}
static double sd_shape(const mk_shape *s, const mk_transform *xf, mk_vec3 p)
{
    mk_vec3 q = inv_point(xf, p);
    switch (s->type) {
    case MK_SHAPE_SPHERE: return len(q) - s->radius;
    case MK_SHAPE_BOX: return sd_box_core(s->u.box.half_extents, q) - s->radius;
    case MK_SHAPE_CAPSULE: {
        double h = s->u.capsule.half_height, z = fmin(fmax(q.z, -h), h);
        return len(V(q.x, q.y, q.z - z)) - s->radius;
    }
    case MK_SHAPE_CYLINDER: {
        double dr = sqrt(q.x * q.x + q.y * q.y) - s->u.cylinder.radius;
        double dz = fabs(q.z) - s->u.cylinder.half_height;
        double o = sqrt(fmax(dr, 0) * fmax(dr, 0) + fmax(dz, 0) * fmax(dz, 0));
        return o + fmin(fmax(dr, dz), 0) - s->radius;
    }
    case MK_SHAPE_HULL: /* every hull in this suite is a centred cube */
        return sd_box_core(s->u.hull.hull->aabb_max, q) - s->radius;
    default: return 0;
    }
}

/* A contact point pair sits on the shapes: moved back by the radii along the
 * normal, each point is on its core; and it is never outside its shape. (On a
 * rounded shape only the deepest point is exactly on the rounded surface: the
 * others may sit inside it by r (1 - cos angle) for a face tilted to the normal.) */
static int pair_on_shapes(const mk_shape *a, const mk_transform *xa, const mk_shape *b, const mk_transform *xb,
                          const mk_manifold *m, int i, double tol)
{
    const mk_manifold_point *q = &m->points[i];
    mk_vec3 ca = add(q->point_a, scl(m->normal, -a->radius)), cb = add(q->point_b, scl(m->normal, b->radius));
    double da = sd_shape(a, xa, ca) + a->radius, db = sd_shape(b, xb, cb) + b->radius;
    double fa = sd_shape(a, xa, q->point_a), fb = sd_shape(b, xb, q->point_b);
    return fabs(da) <= tol && fabs(db) <= tol && fa <= tol && fb <= tol;
}

static void check_on_surfaces(const scene *s, const mk_manifold *m, double tol)
{
    for (int i = 0; i < m->count; ++i)
        ck_assert_msg(pair_on_shapes(&s->a, &s->xa, &s->b, &s->xb, m, i, tol), "point %d off the shapes", i);
}

/* The two manifolds describe the same points (as a set, A and B exchanged). */
static void check_same_set_swapped(const mk_manifold *m, const mk_manifold *w, double tol)
{
    ck_assert_int_eq(m->count, w->count);
    ck_assert_double_le_tol(dist(m->normal, scl(w->normal, -1)), 0, tol);
    for (int i = 0; i < m->count; ++i) {
        int found = 0;
        for (int j = 0; j < w->count && !found; ++j)
            found = dist(m->points[i].point_a, w->points[j].point_b) <= tol &&
                    dist(m->points[i].point_b, w->points[j].point_a) <= tol &&
                    fabs(m->points[i].separation - w->points[j].separation) <= tol;
        ck_assert_msg(found, "point %d of A,B not in B,A", i);
    }
}

/* Same points (positions and separations), any order. */
static void check_same_set(const mk_manifold *m, const mk_manifold *w, double tol)
{
    ck_assert_int_eq(m->count, w->count);
    for (int i = 0; i < m->count; ++i) {
        int found = 0;
        for (int j = 0; j < w->count && !found; ++j)
            found = dist(m->points[i].point_a, w->points[j].point_a) <= tol &&
                    dist(m->points[i].point_b, w->points[j].point_b) <= tol &&
                    fabs(m->points[i].separation - w->points[j].separation) <= tol;
        ck_assert_msg(found, "point %d not matched", i);
    }
}

static int same_ids(const mk_manifold *m, const mk_manifold *w)
{
    if (m->count != w->count)
        return 0;
    for (int i = 0; i < m->count; ++i) {
        int found = 0;
        for (int j = 0; j < w->count; ++j)
            found |= m->points[i].id == w->points[j].id;
        if (!found)
            return 0;
    }
    return 1;
}

/* Longest distance between two of the manifold's points (on A): the points
 * come in id order, so a diagonal is found, not assumed at [0], [1]. */
static double widest(const mk_manifold *m)
{
    double w = 0;
    for (int i = 0; i < m->count; ++i)
        for (int j = i + 1; j < m->count; ++j)
            w = fmax(w, dist(m->points[i].point_a, m->points[j].point_a));
    return w;
}

/* ------------------------------------------------------------ shapes */

/* Ground: box with top face at z = 0 in the canonical frame, as B. */
static void ground_b(scene *s, double half)
{
    mk_shape_box(&s->b, V(half, half, 1), 0);
    s->xb = at(V(0, 0, -1));
}

/* Cube of half-size h as a hand-built hull (vertex index bits = x, y, z signs),
 * faces counter-clockwise from outside, in an order different from the box's. */
typedef struct cube_hull {
    mk_vec3 v[8];
    int adj_start[9], adj[24];
    int face_start[7], face_vertices[24];
    mk_vec3 normals[6];
    mk_real offsets[6];
    mk_hull hull;
} cube_hull;

static void cube_hull_init(cube_hull *c, double h)
{
    for (int i = 0; i < 8; ++i) {
        c->v[i] = V(i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h);
        c->adj_start[i] = 3 * i;
        c->adj[3 * i] = i ^ 1;
        c->adj[3 * i + 1] = i ^ 2;
        c->adj[3 * i + 2] = i ^ 4;
    }
    c->adj_start[8] = 24;
    static const int fv[6][4] = {{4, 5, 7, 6}, {0, 2, 3, 1}, {1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}};
    static const double fn[6][3] = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    for (int f = 0; f < 6; ++f) {
        c->face_start[f] = 4 * f;
        for (int k = 0; k < 4; ++k)
            c->face_vertices[4 * f + k] = fv[f][k];
        c->normals[f] = V(fn[f][0], fn[f][1], fn[f][2]);
        c->offsets[f] = h;
    }
    c->face_start[6] = 24;
    mk_hull *hu = &c->hull;
    memset(hu, 0, sizeof *hu);
    hu->num_vertices = 8;
    hu->num_faces = 6;
    hu->vertices = c->v;
    hu->adj_start = c->adj_start;
    hu->adj = c->adj;
    hu->face_start = c->face_start;
    hu->face_vertices = c->face_vertices;
    hu->face_normals = c->normals;
    hu->face_offsets = c->offsets;
    hu->aabb_min = V(-h, -h, -h);
    hu->aabb_max = V(h, h, h);
    hu->centroid = V(0, 0, 0);
    hu->inradius = h;
}

/* Rotation that takes local z to canonical x (lying shapes). */
static mk_transform lying_x(mk_vec3 p) { return axis_angle(p, V(0, 1, 0), PI / 2); }

/* ------------------------------------------------------------ box on box */

START_TEST(box_resting_on_box_gives_four)
{
    /* Unit-half box A resting on a large ground B, random yaw and placement,
     * penetration pen: four points at A's bottom corners, each depth pen. */
    rng r = {or_test_seed(0x9E3779B97F4A7C15ull)};
    int n = scaled(200);
    for (int it = 0; it < n; ++it) {
        double pen = uni(&r, 0, 0.05), yaw = uni(&r, -PI, PI);
        mk_vec3 c = V(uni(&r, -2, 2), uni(&r, -2, 2), 0.5 - pen);
        scene s;
        scene_init(&s, V(0, 0, -1), -pen);
        mk_shape_box(&s.a, V(0.5, 0.5, 0.5), 0);
        s.xa = axis_angle(c, V(0, 0, 1), yaw);
        ground_b(&s, 5);
        mk_manifold m;
        ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
        check_common(&m, s.n, 0);
        ck_assert_int_eq(m.count, 4);
        ck_assert_double_le_tol(dist(m.normal, V(0, 0, -1)), 0, 1e-12);
        for (int i = 0; i < 4; ++i) {
            ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-12);
            ck_assert_double_eq_tol(m.points[i].point_b.z, 0, 1e-12);
            /* point_a is one of A's bottom corners */
            mk_vec3 q = inv_point(&s.xa, m.points[i].point_a);
            ck_assert_double_eq_tol(fabs(q.x), 0.5, 1e-9);
            ck_assert_double_eq_tol(fabs(q.y), 0.5, 1e-9);
            ck_assert_double_eq_tol(q.z, -0.5, 1e-9);
        }
        check_on_surfaces(&s, &m, 1e-9);
    }
}
END_TEST

START_TEST(box_on_box_edge_gives_two)
{
    /* (1) A cube turned 45 degrees about x rests its lowest edge on the ground:
     * two points, the ends of that edge, depth pen. */
    const double pen = 0.02, e = 0.5 * sqrt(2.0);
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_box(&s.a, V(0.5, 0.5, 0.5), 0);
    s.xa = axis_angle(V(0.3, -0.2, e - pen), V(1, 0, 0), PI / 4);
    ground_b(&s, 5);
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 2);
    for (int i = 0; i < 2; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
        ck_assert_double_eq_tol(fabs(m.points[i].point_a.x - 0.3), 0.5, 1e-9);
        ck_assert_double_eq_tol(m.points[i].point_a.y, -0.2, 1e-9);
    }
    ck_assert_double_eq_tol(fabs(m.points[0].point_a.x - m.points[1].point_a.x), 1.0, 1e-9);
    check_on_surfaces(&s, &m, 1e-9);

    /* (2) A flat box rests on the ridge of a larger box turned 45 degrees about
     * y (A below, ridge up): two points where the ridge meets A's side planes. */
    scene t;
    const double H = 1.0, ridge = H * sqrt(2.0);
    scene_init(&t, V(0, 0, 1), -pen);
    mk_shape_box(&t.a, V(H, H, H), 0);
    t.xa = axis_angle(V(0, 0, -ridge), V(0, 1, 0), PI / 4);
    mk_shape_box(&t.b, V(0.4, 0.3, 0.2), 0);
    t.xb = at(V(0, 0.1, 0.2 - pen));
    ck_assert_int_eq(run_scene(&t, 0, 0, &m), MK_OK);
    check_common(&m, t.n, 0);
    ck_assert_int_eq(m.count, 2);
    for (int i = 0; i < 2; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
        ck_assert_double_eq_tol(m.points[i].point_a.x, 0, 1e-9);
        ck_assert_double_eq_tol(fabs(m.points[i].point_a.y - 0.1), 0.3, 1e-9);
    }
    check_on_surfaces(&t, &m, 1e-9);
}
END_TEST

/* Lowest corner of a posed box, brute force over its 8 corners. */
static mk_vec3 lowest_corner(mk_vec3 h, const mk_transform *xf, double *second_z)
{
    mk_vec3 best = V(0, 0, 1e300);
    double second = 1e300;
    for (int i = 0; i < 8; ++i) {
        mk_vec3 p = mk_transform_point(xf, V(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z));
        if (p.z < best.z) {
            second = best.z;
            best = p;
        } else if (p.z < second) {
            second = p.z;
        }
    }
    *second_z = second;
    return best;
}

START_TEST(tilted_box_gives_lowest_corner)
{
    /* A box turned about a horizontal axis (not a box axis) has one lowest
     * corner: one point there, depth pen. The corner comes from brute force. */
    rng r = {or_test_seed(12345)};
    int n = scaled(200);
    for (int it = 0; it < n; ++it) {
        mk_vec3 h = V(uni(&r, 0.2, 0.8), uni(&r, 0.2, 0.8), uni(&r, 0.2, 0.8));
        double th = uni(&r, 0, 2 * PI);
        mk_vec3 axis = V(cos(th), sin(th), 0);
        double ang = uni(&r, 0.3, 0.7), pen = uni(&r, 0, 0.03);
        mk_transform xf = axis_angle(V(0, 0, 0), axis, ang);
        double second;
        mk_vec3 low = lowest_corner(h, &xf, &second);
        if (second - low.z < 0.05)
            continue; /* an edge or face nearly level: not this test */
        xf.p = V(uni(&r, -1, 1), uni(&r, -1, 1), -low.z - pen);
        mk_vec3 expect = V(low.x + xf.p.x, low.y + xf.p.y, -pen);
        scene s;
        scene_init(&s, V(0, 0, -1), -pen);
        mk_shape_box(&s.a, h, 0);
        s.xa = xf;
        ground_b(&s, 5);
        mk_manifold m;
        ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
        check_common(&m, s.n, 0);
        ck_assert_int_eq(m.count, 1);
        ck_assert_double_le_tol(dist(m.points[0].point_a, expect), 0, 1e-9);
        ck_assert_double_eq_tol(m.points[0].depth, pen, 1e-9);
        check_on_surfaces(&s, &m, 1e-9);
    }
}
END_TEST

START_TEST(random_tilts_match_brute_force)
{
    /* Slightly tilted boxes on the ground with a speculative distance: the
     * points are exactly the bottom-face corners with height <= spec (brute
     * force), each with separation = its height. */
    rng r = {or_test_seed(777)};
    const double spec = 0.04;
    int n = scaled(300);
    for (int it = 0; it < n; ++it) {
        mk_vec3 h = V(uni(&r, 0.1, 1), uni(&r, 0.1, 1), uni(&r, 0.1, 1));
        double th = uni(&r, 0, 2 * PI);
        /* Level (A's face is the reference) or tilted by at least 0.01 rad, beyond
         * the A-over-B bias, so B's face is the reference and A's corners exact. */
        double tilt = it % 5 == 0 ? 0 : uni(&r, 0.01, 0.25);
        mk_transform xf = axis_angle(V(0, 0, 0), V(cos(th), sin(th), 0), tilt);
        xf = compose(xf, axis_angle(V(0, 0, 0), V(0, 0, 1), uni(&r, -PI, PI)));
        double second, pen = uni(&r, 0, 0.03);
        mk_vec3 low = lowest_corner(h, &xf, &second);
        xf.p = V(uni(&r, -1, 1), uni(&r, -1, 1), -low.z - pen);
        scene s;
        scene_init(&s, V(0, 0, -1), -pen);
        mk_shape_box(&s.a, h, 0);
        s.xa = xf;
        ground_b(&s, 5);
        mk_manifold m;
        ck_assert_int_eq(run_scene(&s, 0, spec, &m), MK_OK);
        check_common(&m, s.n, spec);
        /* Bottom face: the corners with local z = -h.z (tilt < 45 degrees). */
        int expected = 0;
        for (int i = 0; i < 4; ++i) {
            mk_vec3 p = mk_transform_point(&xf, V(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, -h.z));
            if (p.z > spec)
                continue;
            ++expected;
            int found = 0;
            for (int k = 0; k < m.count && !found; ++k)
                found = dist(m.points[k].point_a, p) < 1e-9 && fabs(m.points[k].separation - p.z) < 1e-9;
            ck_assert_msg(found, "corner %d (height %g) missing", i, p.z);
        }
        ck_assert_int_eq(m.count, expected);
        check_on_surfaces(&s, &m, 1e-9);
    }
}
END_TEST

/* ------------------------------------------------------------ curved shapes */

START_TEST(cylinder_on_cap_gives_rim_points)
{
    /* A cylinder standing on its cap on the ground, random spin about its axis:
     * four points on the rim (distance from the axis = radius), depth pen, and
     * spread out (they span most of the cap). Same on a larger cylinder's cap. */
    rng r = {or_test_seed(4242)};
    int n = scaled(100);
    for (int it = 0; it < n; ++it) {
        double rad = uni(&r, 0.2, 0.8), hh = uni(&r, 0.2, 0.8), pen = uni(&r, 0, 0.03);
        for (int on_cyl = 0; on_cyl < 2; ++on_cyl) {
            scene s;
            scene_init(&s, V(0, 0, -1), -pen);
            mk_shape_cylinder(&s.a, rad, hh, 0);
            mk_vec3 c = V(uni(&r, -0.1, 0.1), uni(&r, -0.1, 0.1), hh - pen);
            s.xa = axis_angle(c, V(0, 0, 1), uni(&r, -PI, PI));
            if (on_cyl) {
                mk_shape_cylinder(&s.b, 1.5, 0.5, 0);
                s.xb = axis_angle(V(0, 0, -0.5), V(0, 0, 1), uni(&r, -PI, PI));
            } else {
                ground_b(&s, 5);
            }
            mk_manifold m;
            ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
            check_common(&m, s.n, 0);
            ck_assert_int_eq(m.count, 4);
            for (int i = 0; i < 4; ++i) {
                mk_vec3 q = sub(m.points[i].point_a, c);
                ck_assert_double_eq_tol(sqrt(q.x * q.x + q.y * q.y), rad, 1e-9);
                ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
            }
            /* The quad spans the cap: its diagonal is (nearly) a diameter. */
            ck_assert_double_ge(widest(&m), 2 * rad * 0.98);
            check_on_surfaces(&s, &m, 1e-9);
        }
    }
}
END_TEST

START_TEST(cylinder_lying_gives_two)
{
    /* A cylinder on its side on the ground: the two ends of its lowest line. */
    const double rad = 0.3, hh = 0.7, pen = 0.01;
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_cylinder(&s.a, rad, hh, 0);
    s.xa = lying_x(V(0.2, 0.1, rad - pen));
    ground_b(&s, 5);
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 2);
    for (int i = 0; i < 2; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
        ck_assert_double_eq_tol(fabs(m.points[i].point_a.x - 0.2), hh, 1e-9);
        ck_assert_double_eq_tol(m.points[i].point_a.y, 0.1, 1e-9);
    }
    check_on_surfaces(&s, &m, 1e-9);

    /* Two parallel cylinders lying one on the other: two points too. */
    scene t;
    scene_init(&t, V(0, 0, 1), -pen);
    mk_shape_cylinder(&t.a, rad, hh, 0);
    t.xa = lying_x(V(0, 0, 0));
    mk_shape_cylinder(&t.b, 0.2, 0.4, 0);
    t.xb = lying_x(V(0.1, 0, rad + 0.2 - pen));
    ck_assert_int_eq(run_scene(&t, 0, 0, &m), MK_OK);
    check_common(&m, t.n, 0);
    ck_assert_int_eq(m.count, 2);
    for (int i = 0; i < 2; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
        ck_assert_double_eq_tol(fabs(m.points[i].point_b.x - 0.1), 0.4, 1e-9);
    }
    check_on_surfaces(&t, &m, 1e-9);
}
END_TEST

START_TEST(capsule_lying_on_box_gives_two)
{
    /* A capsule lying on a box face: two points below its segment ends. Also
     * tilted beyond the speculative distance: one point, the lower end. */
    const double rad = 0.25, hh = 0.6, pen = 0.015;
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_capsule(&s.a, rad, hh);
    s.xa = compose(axis_angle(V(-0.3, 0.4, rad - pen), V(0, 0, 1), 0.6),
                   lying_x(V(0, 0, 0)));
    ground_b(&s, 5);
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 2);
    for (int i = 0; i < 2; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
        ck_assert_double_eq_tol(m.points[i].point_a.z, -pen, 1e-9);
        mk_vec3 q = inv_point(&s.xa, m.points[i].point_a);
        ck_assert_double_eq_tol(fabs(q.z), hh, 1e-9);
    }
    check_on_surfaces(&s, &m, 1e-9);

    /* Tilted 20 degrees: the lower end only. */
    s.xa = axis_angle(V(0, 0, 0), V(0, 1, 0), PI / 2 - 0.35);
    mk_vec3 low_end = mk_transform_point(&s.xa, V(0, 0, -hh));
    s.xa.p = V(0.1, 0.1, rad - pen - low_end.z);
    ck_assert_int_eq(run_scene(&s, 0, 0.01, &m), MK_OK);
    check_common(&m, s.n, 0.01);
    ck_assert_int_eq(m.count, 1);
    ck_assert_double_eq_tol(m.points[0].depth, pen, 1e-9);
    check_on_surfaces(&s, &m, 1e-9);
}
END_TEST

START_TEST(capsules_parallel_two_crossed_one)
{
    const double pen = 0.01;
    scene s;
    scene_init(&s, V(0, 0, 1), -pen);
    mk_shape_capsule(&s.a, 0.2, 0.5);
    s.xa = lying_x(V(0, 0, 0));
    mk_shape_capsule(&s.b, 0.1, 0.4);
    s.xb = lying_x(V(0.3, 0, 0.3 - pen));
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 2);
    /* Overlap of x in [-0.5, 0.5] and [-0.1, 0.7]: ends at -0.1 and 0.5. */
    double x0 = fmin(m.points[0].point_a.x, m.points[1].point_a.x);
    double x1 = fmax(m.points[0].point_a.x, m.points[1].point_a.x);
    ck_assert_double_eq_tol(x0, -0.1, 1e-9);
    ck_assert_double_eq_tol(x1, 0.5, 1e-9);
    for (int i = 0; i < 2; ++i)
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
    check_on_surfaces(&s, &m, 1e-9);

    /* Crossed at 90 degrees: one point at the crossing. */
    s.xb = compose(axis_angle(V(0.1, 0.05, 0.3 - pen), V(0, 0, 1), PI / 2),
                   lying_x(V(0, 0, 0)));
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 1);
    ck_assert_double_eq_tol(m.points[0].depth, pen, 1e-9);
    ck_assert_double_le_tol(dist(m.points[0].point_a, V(0.1, 0, 0.2)), 0, 1e-9);
    check_on_surfaces(&s, &m, 1e-9);
}
END_TEST

START_TEST(sphere_gives_one)
{
    /* On a box face, and against a box edge (normal not a face normal). */
    const double pen = 0.02, rad = 0.3;
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_sphere(&s.a, rad);
    s.xa = at(V(0.7, -0.4, rad - pen));
    ground_b(&s, 5);
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 1);
    ck_assert_double_eq_tol(m.points[0].depth, pen, 1e-12);
    ck_assert_double_le_tol(dist(m.points[0].point_a, V(0.7, -0.4, -pen)), 0, 1e-12);
    check_on_surfaces(&s, &m, 1e-12);

    /* Sphere against the edge x = 1, z = 0 of a unit box, along (1, 0, 1)/sqrt2. */
    scene t;
    mk_vec3 n = unit(V(-1, 0, -1));
    scene_init(&t, n, -pen);
    mk_shape_sphere(&t.a, rad);
    t.xa = at(add(V(1, 0.2, 0), scl(n, -(rad - pen))));
    mk_shape_box(&t.b, V(1, 1, 1), 0);
    t.xb = at(V(0, 0, -1));
    ck_assert_int_eq(run_scene(&t, 0, 0, &m), MK_OK);
    check_common(&m, t.n, 0);
    ck_assert_int_eq(m.count, 1);
    ck_assert_double_eq_tol(m.points[0].depth, pen, 1e-12);
    ck_assert_double_le_tol(dist(m.points[0].point_b, V(1, 0.2, 0)), 0, 1e-12);
    check_on_surfaces(&t, &m, 1e-12);
}
END_TEST

START_TEST(cone_base_and_side)
{
    /* A cone on its base: four rim points. On its side: two points (apex and
     * the base rim point of the lowest generator). */
    const double rad = 0.4, hh = 0.5, pen = 0.01;
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_cone(&s.a, rad, hh, 0);
    s.xa = axis_angle(V(0.2, 0.3, hh - pen), V(0, 0, 1), 0.3);
    ground_b(&s, 5);
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        mk_vec3 q = sub(m.points[i].point_a, V(0.2, 0.3, 0));
        ck_assert_double_eq_tol(sqrt(q.x * q.x + q.y * q.y), rad, 1e-9);
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
    }
    /* On its side: the generator from apex (0,0,h) to (r,0,-h) lies on the
     * ground when the cone is turned by the half-angle plus 90 degrees. */
    double tilt = atan2(2 * hh, rad); /* angle of the generator to the base */
    mk_transform xf = axis_angle(V(0, 0, 0), V(0, 1, 0), PI - tilt);
    mk_vec3 apex = mk_transform_point(&xf, V(0, 0, hh)), rim = mk_transform_point(&xf, V(rad, 0, -hh));
    ck_assert_double_eq_tol(apex.z, rim.z, 1e-12);
    xf.p = V(0, 0, -apex.z - pen);
    s.xa = xf;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 2);
    for (int i = 0; i < 2; ++i)
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-9);
    ck_assert_double_eq_tol(dist(m.points[0].point_a, m.points[1].point_a), dist(apex, rim), 1e-9);
}
END_TEST

static mk_vec3 user_box_support(const void *data, mk_vec3 d)
{
    const mk_vec3 *h = data;
    return V(d.x >= 0 ? h->x : -h->x, d.y >= 0 ? h->y : -h->y, d.z >= 0 ? h->z : -h->z);
}

/* User support of an ellipsoid of radii *data (the built-in's formula). */
static mk_vec3 user_ellipsoid_support(const void *data, mk_vec3 d)
{
    const mk_vec3 *r = data;
    const mk_vec3 q = V(r->x * d.x, r->y * d.y, r->z * d.z);
    const double l = len(q);
    return l > 0 ? V(r->x * q.x / l, r->y * q.y / l, r->z * q.z / l) : V(r->x, 0, 0);
}

START_TEST(ellipsoid_gives_one_user_box_its_face)
{
    /* Ellipsoid on the ground: one point, its support point along -z. */
    const double pen = 0.01;
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_ellipsoid(&s.a, V(0.5, 0.3, 0.2));
    s.xa = at(V(0.1, 0.2, 0.2 - pen));
    ground_b(&s, 5);
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 1);
    ck_assert_double_le_tol(dist(m.points[0].point_a, V(0.1, 0.2, -pen)), 0, 1e-12);
    ck_assert_double_eq_tol(m.points[0].depth, pen, 1e-12);

    /* A user shape (a box behind a callback) shows its bottom face to its
     * tilted supports: its four corners, as a built-in box gets. */
    static const mk_vec3 h = {0.3, 0.3, 0.3};
    mk_shape_user(&s.a, user_box_support, &h, V(-0.3, -0.3, -0.3), V(0.3, 0.3, 0.3), 0);
    s.xa = at(V(0, 0, 0.3 - pen));
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-12);
        ck_assert_double_eq_tol(fabs(m.points[i].point_a.x), 0.3, 1e-12);
        ck_assert_double_eq_tol(fabs(m.points[i].point_a.y), 0.3, 1e-12);
    }
}
END_TEST

/* A user box resting on an ellipsoid's top, touching: both features are
 * single support points, and the one less sensitive to the normal anchors the
 * contact. The sensitivity tilted the normal one way along each of two axes;
 * when the user support's corner for the exact normal was already the corner
 * those two tilts pick, the box's face looked like a stable point and the
 * contact sat at its corner, 23 units off the ellipsoid (found by a fuzzer).
 * With tilts both ways the face is seen to swing: the ellipsoid's top anchors
 * it. The same pair with a built-in box got it right. */
START_TEST(user_box_on_ellipsoid_anchors_on_the_ellipsoid)
{
    static const mk_vec3 h = {203.63149586983329, 110.42957785961296, 82.515024301442793};
    const mk_vec3 radii = V(593.09679133472162, 643.57321308872747, 304.95668006462978);
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_ellipsoid(&a, radii), MK_OK);
    ck_assert_int_eq(mk_shape_user(&b, user_box_support, &h, scl(h, -1), h, 0), MK_OK);
    mk_transform xa = at(V(-1606.3140297577572, -4329.1171193089822, -1592.3859072821122));
    mk_transform xb = at(V(-1606.3140297577572, -4329.1171193335267, -1204.9142029104364));
    mk_pair p = {&a, xa, &b, xb};
    const mk_vec3 n = V(1.7991107678020151e-13, 1.4736727707355969e-22, 1);
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, n, 5.5665339222429518e-09, NULL, &m), MK_OK);
    ck_assert_int_eq(m.count, 1);
    const mk_vec3 top = V(xa.p.x, xa.p.y, xa.p.z + radii.z); /* the ellipsoid's highest point */
    ck_assert_msg(dist(m.points[0].point_a, top) <= 1e-6, "contact %g from the ellipsoid's top",
                  dist(m.points[0].point_a, top));
}
END_TEST

/* A user box (half sizes 586 x 1049 x 237) and a cone (radius 503, half
 * height 2375) at one origin, the cone's side line 858 deep across the box's
 * edge along y: the normal has no y component, so the user support ties along
 * the edge and returns its +y end, which stood for the whole edge: the contact
 * went there, 643 outside the cone (found by the core's fuzzer). Tilted
 * supports now see the edge; the contact is where it crosses the side line
 * (y = 0, as for a built-in box), on or in both shapes. */
START_TEST(user_box_edge_across_a_cone_side)
{
    static const mk_vec3 h = {585.78550527447101, 1049.187887270517, 237.26023295852028};
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_user(&a, user_box_support, &h, scl(h, -1), h, 0), MK_OK);
    ck_assert_int_eq(mk_shape_cone(&b, 503.13041878228836, 2375.346476093217, 0), MK_OK);
    mk_pair p = {&a, at(V(0, 0, 0)), &b, at(V(0, 0, 0))};
    /* mk_signed_distance's answer: the normal of the cone's side line at
     * azimuth -x (A to B), depth 857.681605 */
    const double r = b.u.cone.radius, hh = b.u.cone.half_height, sl = sqrt(4 * hh * hh + r * r);
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, V(2 * hh / sl, 0, -r / sl), -857.681605, NULL, &m), MK_OK);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i) {
        const mk_vec3 q = m.points[i].position;
        const double radial = sqrt(q.x * q.x + q.y * q.y), room = r * (hh - q.z) / (2 * hh);
        ck_assert_msg(radial <= room + 1e-6 * hh && fabs(q.z) <= hh, "point %d (%g, %g, %g): %g outside the cone", i,
                      q.x, q.y, q.z, radial - room);
        ck_assert_msg(fabs(q.x) <= h.x + 1e-6 && fabs(q.y) <= h.y + 1e-6 && fabs(q.z) <= h.z + 1e-6,
                      "point %d (%g, %g, %g) outside the box", i, q.x, q.y, q.z);
        ck_assert_msg(fabs(q.y) <= 1e-6, "point %d off the crossing: y = %g", i, q.y);
    }
}
END_TEST

/* A cylinder (radius 1, half height 0.5) lying deep inside a user box (half
 * sizes 100 x 20 x 60), both at the origin: the contact is the cylinder's side
 * line against the box's -y face, 21 deep. The user support along -n returns
 * one corner of that face, which was taken for a unique point: the contact
 * went to the box's corner, 100 and 60 away from the cylinder (the core's
 * fuzzer: a cylinder in a user box 1.4e6 off). Tilted supports show the face;
 * the line's shape holds the contact. */
START_TEST(cylinder_side_deep_in_a_user_box_face)
{
    static const mk_vec3 h = {100, 20, 60};
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cylinder(&a, 1, 0.5, 0), MK_OK);
    ck_assert_int_eq(mk_shape_user(&b, user_box_support, &h, scl(h, -1), h, 0), MK_OK);
    for (int k = 0; k < 2; ++k) {
        /* k = 1: the same scene turned (the fuzzer's was at an arbitrary pose) */
        const mk_transform x = k ? axis_angle(V(3, -2, 1), unit(V(1, 2, 3)), 0.7) : at(V(0, 0, 0));
        mk_pair p = {&a, x, &b, x};
        mk_manifold m;
        mk_collide_settings cs = mk_collide_default_settings();
        for (int via = 0; via < 2; ++via) {
            if (via == 0)
                ck_assert_int_eq(mk_contact_manifold(&p, mk_rotate(&x.R, V(0, 1, 0)), -21, NULL, &m), MK_OK);
            else
                ck_assert_int_eq(mk_collide(&p, &cs, NULL, &m), MK_PENETRATING);
            ck_assert_int_ge(m.count, 1);
            double deepest = -INFINITY;
            for (int i = 0; i < m.count; ++i) {
                const mk_vec3 qa = mk_rotate_inv(&x.R, sub(m.points[i].point_a, x.p));
                const mk_vec3 qb = mk_rotate_inv(&x.R, sub(m.points[i].point_b, x.p));
                ck_assert_msg(qa.x * qa.x + qa.y * qa.y <= 1 + 1e-7 && fabs(qa.z) <= 0.5 + 1e-7,
                              "pose %d via %d: point_a %d (%g, %g, %g) off the cylinder", k, via, i, qa.x, qa.y, qa.z);
                /* to the signed distance's tolerance (1e-8) through mk_collide */
                ck_assert_msg(fabs(qb.x) <= h.x + 1e-7 && fabs(qb.y) <= h.y + 1e-7 && fabs(qb.z) <= h.z + 1e-7,
                              "pose %d via %d: point_b %d (%.17g, %.17g, %.17g) outside the box", k, via, i, qb.x, qb.y, qb.z);
                deepest = fmax(deepest, m.points[i].depth);
            }
            ck_assert_msg(fabs(deepest - 21) <= 1e-7, "pose %d via %d: deepest %.12g, not 21", k, via, deepest);
        }
    }
}
END_TEST

/* A needle ellipsoid (radii 0.009, 0.0014, 0.31) on the edge of a rounded
 * user box: the ellipsoid's side along the normal curves so gently (radius
 * of curvature 69 along the needle) that its tilted supports spread like a
 * face's corners, and taken for a face it handed the contact to the box's
 * edge, 0.19 off the needle (the core's fuzzer, against the first version of
 * the face test above). An ellipsoid's feature is its support point; a user
 * shape's face needs corners that stay put when the tilt halves. */
START_TEST(needle_ellipsoid_is_no_face)
{
    static const mk_vec3 h = {0.20382104265745637, 0.10333601822759897, 0.18679435774707612};
    static const mk_vec3 radii = {0.0090468793774706197, 0.0014029444557944848, 0.31035888622054442};
    mk_shape a, b, ua;
    ck_assert_int_eq(mk_shape_ellipsoid(&a, radii), MK_OK);
    ck_assert_int_eq(mk_shape_user(&ua, user_ellipsoid_support, &radii, scl(radii, -1), radii, 0), MK_OK);
    ck_assert_int_eq(mk_shape_user(&b, user_box_support, &h, scl(h, -1), h, 0.013147608290551524), MK_OK);
    const mk_mat3 R = {{{0.2647208095896173, 0.68439569553285329, 0.67935662571753863},
                        {-0.87413813799908147, -0.12716940400445353, 0.46873282195793708},
                        {0.40719210290195529, -0.71793486795199912, 0.56459199136458627}}};
    const mk_transform xa = {R, {1.1865234464434635, -2.0853535121542852, -2.2031620907145002}};
    const mk_transform xb = {R, {1.4084679641802047, -1.9322193905771881, -2.0187109607809566}};
    for (int k = 0; k < 2; ++k) { /* the built-in ellipsoid, then the same as a user shape */
        mk_pair p = {k ? &ua : &a, xa, &b, xb};
        mk_collide_settings cs = mk_collide_default_settings();
        mk_manifold m;
        ck_assert_int_eq(mk_collide(&p, &cs, NULL, &m), MK_PENETRATING);
        ck_assert_int_ge(m.count, 1);
        for (int i = 0; i < m.count; ++i) {
            const mk_vec3 q = inv_point(&xa, m.points[i].point_a);
            const double e = q.x * q.x / (radii.x * radii.x) + q.y * q.y / (radii.y * radii.y) +
                             q.z * q.z / (radii.z * radii.z);
            ck_assert_msg(e <= 1 + 1e-6, "%d: point_a %d (%g, %g, %g) off the ellipsoid (%g)", k, i, q.x, q.y, q.z, e);
        }
    }
}
END_TEST

/* Two boxes (sizes about 1e4, B rounded by 15) touching edge to edge, the
 * normal 1.3 degrees off a face of A: within the face angle, so the face was
 * clipped, but along the face's own normal its points lie 0.0054 apart, beyond
 * a speculative distance of 0, and all were dropped; the last resort, the
 * midpoint of the two supports (corners of the faces), lay 434 outside A and
 * 42 outside B (the core's fuzzer). The lines and points along the caller's
 * normal now come before that last resort: the edges' crossing. */
START_TEST(touching_edges_near_a_face_keep_their_points)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, V(1901.0159479432648, 3533.8034075437618, 1546.5682049997836), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, V(2023.8002096767395, 2627.8135822936233, 2711.1964721271524),
                                  15.176068719251216), MK_OK);
    const mk_transform xa = {{{{0.76810462370467514, -0.63611510572502139, 0.073299790667805842},
                               {-0.50849291511956851, -0.53638328789210576, 0.67359329253137412},
                               {-0.38916608577405959, -0.55466254672413107, -0.73545850796955103}}},
                             {3.0422643462276741e-06, 6.3454346663666581e-06, -4.763381127122214e-06}};
    const mk_transform xb = {{{{0.53600041566954659, 0.48070879785237969, 0.69399035012699795},
                               {0.24745653297742293, 0.69648178495905633, -0.67355652139003186},
                               {-0.80713618348384486, 0.53275902140420572, 0.25435999375602725}}},
                             {-4440.1875132261357, 252.14647544824061, 2710.2732394411055}};
    mk_pair p = {&a, xa, &b, xb};
    /* mk_signed_distance's answer: touching */
    const mk_vec3 n = V(-0.52299315999036267, -0.22879889150849264, 0.82105372652937847);
    const mk_manifold_settings ms = {0};
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, n, -3.5171865420124959e-13, &ms, &m), MK_OK);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i) {
        const mk_vec3 qa = inv_point(&xa, m.points[i].point_a), qb = inv_point(&xb, m.points[i].point_b);
        const mk_vec3 ha = a.u.box.half_extents, hb = b.u.box.half_extents;
        const double oa = fmax(fabs(qa.x) - ha.x, fmax(fabs(qa.y) - ha.y, fabs(qa.z) - ha.z));
        const mk_vec3 ob = V(fmax(fabs(qb.x) - hb.x, 0), fmax(fabs(qb.y) - hb.y, 0), fmax(fabs(qb.z) - hb.z, 0));
        ck_assert_msg(oa <= 1e-8, "point_a %d %g outside A", i, oa);
        ck_assert_msg(len(ob) <= b.radius + 1e-8, "point_b %d %g outside B", i, len(ob) - b.radius);
        ck_assert_msg(fabs(m.points[i].separation) <= 1e-8, "point %d separation %g", i, m.points[i].separation);
    }
}
END_TEST

/* A capsule (radius 0.39, 2.2 long) holding a flake of a box (1e-3 x 2e-6 x
 * 2e-5) along its axis, at coordinates of 6.5e4, the flake turned by 4e-5 rad
 * from the previous call (warm caches): the warm normal, 1e-5 off the cold
 * one, has the capsule's end 1.1e-5 deeper than its part over the flake, the
 * face path turned the flake's face down, and the support points stood for
 * the pair: the capsule's end, 1.1 off the flake (the core's fuzzer). The
 * capsule's segment clipped over the flake's face instead. */
START_TEST(capsule_over_a_flake_stays_on_the_flake)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_capsule(&a, 0.38569441228589557, 1.1087576021157506), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, V(0.00049756274723213099, 9.8190589633083717e-07, 1.047126287702667e-05), 0),
                     MK_OK);
    const mk_transform xa = {{{{-0.331298609108996, -0.05484094395123229, 0.94193083741269568},
                               {-0.94127140513635621, -0.049761958126013583, -0.33396390433113315},
                               {0.065187218648090073, -0.99725433987022716, -0.035134144858292027}}},
                             {8585.4054595966099, 40771.083345800151, -65089.620138550737}};
    const mk_transform xb = {{{{-0.33129869470133722, -0.054841164616428024, 0.94193079446034866},
                               {-0.94127136980211001, -0.04976195618529683, -0.33396400420924394},
                               {0.06518729385431854, -0.99725432783223678, -0.035134347010074098}}},
                             {8585.4054498236546, 40771.083313260497, -65089.620144074419}};
    mk_collide_settings cs = mk_collide_default_settings();
    cs.speculative = 5.0180472716122762e-06;
    mk_collide_cache cache;
    memset(&cache, 0, sizeof cache);
    mk_contact_patch_result m;
    const mk_pair first = {&a, xa, &b, xa}; /* the flake at the capsule's pose, then turned */
    ck_assert_int_eq(mk_collide_patch(&first, &cs, &cache, 8, &m), MK_PENETRATING);
    const mk_pair p = {&a, xa, &b, xb};
    ck_assert_int_eq(mk_collide_patch(&p, &cs, &cache, 8, &m), MK_PENETRATING);
    ck_assert_int_ge(m.count, 1);
    const mk_vec3 hb = b.u.box.half_extents;
    for (int i = 0; i < m.count; ++i) {
        const mk_vec3 qb = inv_point(&xb, m.points[i].point_b);
        const mk_vec3 ob = V(fmax(fabs(qb.x) - hb.x, 0), fmax(fabs(qb.y) - hb.y, 0), fmax(fabs(qb.z) - hb.z, 0));
        ck_assert_msg(len(ob) <= 1e-9, "point_b %d %g off the flake", i, len(ob));
        ck_assert_msg(fabs(m.points[i].depth - 0.3856877) <= 1e-6, "point %d depth %.9g", i, m.points[i].depth);
    }
}
END_TEST

/* A capsule (radius 5.6, 21.6 long) whose side touches a box of 3e-5 lying
 * beside its axis (8e-5 off it, across the normal): the capsule's side line
 * misses the box's face seen along the normal, and the line's support end
 * anchored the contact, 10.8 off the box (the core's fuzzer). The closest
 * pair across the normal instead, one point on each. */
START_TEST(capsule_side_beside_a_tiny_box)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_capsule(&a, 5.5948929599044392, 10.791277120055149), MK_OK);
    const mk_vec3 hb = V(2.6734634819516439e-06, 2.9240979023634228e-05, 1.3719533000391282e-05);
    ck_assert_int_eq(mk_shape_box(&b, hb, 0), MK_OK);
    const mk_mat3 R = {{{-2.2204460492503131e-16, 1, 0}, {-1, -2.2204460492503131e-16, 0}, {0, 0, 1}}};
    const mk_transform xa = {R, {1.3631195314275663e-07, 1.6934239933586542e-07, -1.4527759485708109e-06}};
    const mk_transform xb = {R, {7.7935689337768065e-05, -5.5948954059777201, -1.45091721156392e-06}};
    mk_pair p = {&a, xa, &b, xb};
    mk_collide_settings cs = mk_collide_default_settings();
    cs.speculative = 3.3114107769901264e-07;
    mk_manifold m;
    ck_assert_int_lt(mk_collide(&p, &cs, NULL, &m), MK_INVALID_INPUT);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i) {
        const mk_vec3 qb = inv_point(&xb, m.points[i].point_b), qa = inv_point(&xa, m.points[i].point_a);
        const mk_vec3 ob = V(fmax(fabs(qb.x) - hb.x, 0), fmax(fabs(qb.y) - hb.y, 0), fmax(fabs(qb.z) - hb.z, 0));
        ck_assert_msg(len(ob) <= 1e-9, "point_b %d %g off the box", i, len(ob));
        const double z = fmax(-a.u.capsule.half_height, fmin(a.u.capsule.half_height, qa.z));
        const double ra = sqrt(qa.x * qa.x + qa.y * qa.y + (qa.z - z) * (qa.z - z));
        ck_assert_msg(ra <= a.radius + 1e-9, "point_a %d %g outside the capsule", i, ra - a.radius);
    }
}
END_TEST

/* The contact manifold on the signed distance's normal for a pair at
 * touching (|signed distance| <= sd_tol): at least one point, each within
 * tol_a of A's surface and tol_b of B's (the oracle's distances). */
static void sd_manifold_on_shapes(const mk_pair *p, double sd_tol, double tol_a, double tol_b)
{
    static unsigned char ws[1 << 18];
    mk_signed_distance_result sd;
    ck_assert_int_lt(mk_signed_distance(p, NULL, NULL, NULL, ws, sizeof ws, &sd), MK_INVALID_INPUT);
    ck_assert_msg(fabs(sd.distance) < sd_tol, "signed distance %g", sd.distance);
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(p, sd.normal, sd.distance, NULL, &m), MK_OK);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i) {
        const double da = or_point_shape(p->a, &p->xf_a, m.points[i].point_a, NULL);
        const double db = or_point_shape(p->b, &p->xf_b, m.points[i].point_b, NULL);
        ck_assert_msg(fabs(da) <= tol_a && fabs(db) <= tol_b, "point %d: %g off A, %g off B", i, da, db);
    }
}

/* A cylinder's bottom rim touching a cone's side at unit scale (the core's
 * fuzzer): the normal lies 0.009 rad off the cylinder's side, so both side
 * lines are tried; their closest points came out 2e-7 apart where the signed
 * distance is -4e-11, beyond reach, and the last resort, the midpoint of the
 * two supports (the cone's an end of its generator, a tie), lay 0.15 below
 * the cylinder. The rim's support is a unique point: it anchors the
 * contact. Truth: the oracle's point-to-shape distances. */
START_TEST(cylinder_rim_on_a_cone_side_last_resort)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cylinder(&a, 0.057520547817670298, 0.22356243457568398, 0), MK_OK);
    ck_assert_int_eq(mk_shape_cone(&b, 0.43748488684040049, 0.16453979284695691, 0), MK_OK);
    const mk_transform xa = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
                             {1.8846089399697472, 1.4938368264166368, 2.915457333760493}};
    const mk_transform xb = {{{{-0.98434258815347353, -0.12181936823795503, -0.12739588168157767},
                               {0.17507857896831541, -0.59196071608959322, -0.78672104445802848},
                               {0.02042450326828936, -0.79670731898784608, 0.60402010524273297}}},
                             {1.9488069940718085, 1.6738286176112327, 2.8329572619467371}};
    mk_pair p = {&a, xa, &b, xb};
    sd_manifold_on_shapes(&p, 1e-9, 1e-9, 1e-6);
}
END_TEST

/* A disk (radius 6, 7 mm thick) and a cone's base (radius 13.8), coplanar,
 * 3.4e-5 deep, their circles nearly tangent (the core's fuzzer): the clip of
 * the caps' inscribed 16-gons was empty, and the midpoint of the faces'
 * support points (arbitrary points of the faces) lay 3.6 off the disk. The
 * closest pair of the outlines is on both faces. */
START_TEST(disk_on_a_cone_base_nearly_tangent)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cylinder(&a, 5.9582373724609461, 0.0033781123740891138, 0), MK_OK);
    ck_assert_int_eq(mk_shape_cone(&b, 13.761230109885947, 7.7030079172760573, 0), MK_OK);
    const mk_transform xa = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
                             {13.372843919914311, -2.8603648362249481, -20.906778965176414}};
    const mk_transform xb = {{{{-2.2204460492503131e-16, 1, 0}, {-1, -2.2204460492503131e-16, 0}, {0, 0, 1}}},
                             {-3.9763936377632803, 6.5129738774108041, -13.20042736137566}};
    mk_pair p = {&a, xa, &b, xb};
    sd_manifold_on_shapes(&p, 1e-4, 1e-9, 1e-9);
}
END_TEST

/* A tetrahedron 3e-6 across, 3.07e-3 from the cap of a cylinder of radius
 * 2.5e-2, given GJK's normal (a loose tolerance: 1.3e-5 rad off the axis,
 * beyond the normal check that makes the cap a face): the cap's support was
 * a rim point, the tetrahedron's an edge, and the contact was anchored on the
 * rim point, 2.3e-2 from the tetrahedron (the core's fuzzer). The edge's part
 * over the cap holds the tetrahedron's lowest point: the contact is there.
 * Truth: the oracle's point-to-shape distances. */
START_TEST(tiny_tetrahedron_over_a_cylinder_cap_normal_a_hair_off)
{
    const mk_vec3 pts[4] = {{-1.6140136441125568e-06, -1.0758490038196218e-06, 9.0083149325917008e-07},
                            {-1.7525250226524175e-06, -1.786085045812756e-07, 1.212742160855759e-06},
                            {6.5793215761018078e-07, 1.2754030978324189e-06, 1.5857051162402783e-06},
                            {1.063161292014446e-06, -9.78460814084702e-07, 1.5767977055131674e-06}};
    mk_hull *h = NULL;
    ck_assert_int_eq(mk_hull_create(pts, 4, &h), MK_OK);
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_hull(&a, h, 4.8504018153560305e-08), MK_OK);
    ck_assert_int_eq(mk_shape_cylinder(&b, 0.024820625584623095, 0.0093926651275231653, 0), MK_OK);
    const mk_mat3 R = {{{-0.20022113938068875, 0.69166133037005584, -0.69391361091696624},
                        {-0.66835545799960627, 0.4214496623923859, 0.61292835130338064},
                        {0.71638849593445808, 0.58650216209325967, 0.37789249364428579}}};
    const mk_transform xa = {R, {0, 0, 0}};
    const mk_transform xb = {R, {-0.0086491569371801285, 0.0076397312551120559, 0.0047101705911096114}};
    mk_pair p = {&a, xa, &b, xb};
    mk_manifold_settings ms = mk_manifold_default_settings();
    ms.speculative_distance = 0.014927443085370414;
    const mk_vec3 n = {-0.69391562587148936, 0.61293229006224692, 0.37788240494951414};
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, n, 0.003070200851312059, &ms, &m), MK_OK);
    ck_assert_int_ge(m.count, 1);
    double min_sep = INFINITY;
    for (int i = 0; i < m.count; ++i) {
        const double da = or_point_shape(&a, &xa, m.points[i].point_a, NULL);
        const double db = or_point_shape(&b, &xb, m.points[i].point_b, NULL);
        ck_assert_msg(fabs(da) <= 1e-9 && fabs(db) <= 1e-9, "point %d: %g off A, %g off B", i, da, db);
        min_sep = fmin(min_sep, m.points[i].separation);
    }
    ck_assert_double_eq_tol(min_sep, 0.00307001438, 1e-10); /* the signed distance (default settings) */
    mk_hull_destroy(h);
}
END_TEST

/* A cone and a rounded box, centres and axes coincident, 3.6e-4 deep (the
 * core's fuzzer): the box's edge crosses the cone's side line, and EPA's
 * normal (its bracket 6.6e-9 wide) lies 1.1e-5 rad off, which puts the two
 * lines' closest pair 6.5e-9 shallower than the signed distance, beyond the
 * depth check. Both supports are ties along their lines: their midpoint lay
 * 2.6e-4 off the box. The lines' closest pair is on both shapes. */
START_TEST(box_edge_across_a_cone_side_normal_a_hair_off)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cone(&a, 0.00033968629595518642, 0.00054900176314001854, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, V(0.00016764196572707782, 0.00037292200590393628, 0.00012765215107968304),
                                  4.640922131721455e-06),
                     MK_OK);
    const mk_transform x = {{{{-0.12540111030898116, 0.14076960161933336, -0.98206847052189217},
                              {0.60293482321457548, -0.77529384640025834, -0.18811977750651523},
                              {-0.78787318807564655, -0.61571370862912123, 0.012347814287974268}}},
                            {0, 0, 0}};
    mk_pair p = {&a, x, &b, x};
    sd_manifold_on_shapes(&p, 1, 1e-12, 1e-12);
}
END_TEST

/* A rounded box across the middle of a long cone, centres and axes
 * coincident, 9e-3 deep, on the normal EPA gives at a loose tolerance (3e-6;
 * the core's fuzzer): the box's edge (2.9e-2 long) and the cone's side line
 * (0.14) cross, both supports ties along them. The box's end, the less
 * sensitive of the two by length, anchored the contact 6e-3 off the cone.
 * The lines' closest pair is on both shapes. */
START_TEST(box_edge_across_a_long_cone_both_ties)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, V(0.0035305395611866944, 0.014433621105735305, 0.001892447304642355),
                                  0.0012705963931259625),
                     MK_OK);
    ck_assert_int_eq(mk_shape_cone(&b, 0.0082822780013511697, 0.068855782608509872, 0), MK_OK);
    const mk_transform x = {{{{2.2204460492503131e-16, -1, 0}, {1, 2.2204460492503131e-16, 0}, {0, 0, 1}}}, {0, 0, 0}};
    mk_pair p = {&a, x, &b, x};
    const mk_vec3 n = {-8.565084917843504e-06, 0.99819645643388255, -0.060031943908881134};
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, n, -0.0090422934611326094, NULL, &m), MK_OK);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i) {
        const double da = or_point_shape(&a, &x, m.points[i].point_a, NULL);
        const double db = or_point_shape(&b, &x, m.points[i].point_b, NULL);
        ck_assert_msg(fabs(da) <= 1e-9 && fabs(db) <= 1e-9, "point %d: %g off A, %g off B", i, da, db);
        ck_assert_double_eq_tol(m.points[i].separation, -0.0090422934611326094, 3e-7); /* EPA's bracket: 2.5e-7 */
    }
}
END_TEST

/* A capsule end (radius 0.6) pressed 0.53 into the side of a cylinder 1e4
 * long (radius 0.2), warm-started from a pose 0.25 away: the warm normal,
 * 3e-4 rad off the perpendicular of the side line, put the cylinder's support
 * at the far end of its side, 5e3 away, and the anchored contact came out 3.2
 * deep (the ODE adapter's fuzzer: up to 104 in half of 20,000 warm starts).
 * Against a line the line's nearest point gives the separation. */
START_TEST(capsule_end_on_a_very_long_cylinder_warm)
{
    static const double pa[3] = {-0.35421373287263669, -0.037723029790269758, 0.43096404681325706};
    static const double ra[9] = {0.50565714254962613,  0.40232200482683678,  0.76318271640588253,
                                 -0.75117611658086525, 0.64038936350930131,  0.1601121637560439,
                                 -0.42431744728096821, -0.65424648836372568, 0.62603213687213854};
    static const double pb[3] = {-0.46083637994343851, 0.38313517997975743, 0.49646452499372551};
    static const double rb[9] = {-0.65780581747223099, -0.10719962463615845, 0.74551978308932698,
                                 -0.70986644204617377, 0.41909050960702321,  -0.56608548754939125,
                                 -0.25175611403975195, -0.9015938027932493,  -0.35177759139605702};
    mk_transform xa, xb;
    for (int r = 0; r < 3; ++r)
        for (int q = 0; q < 3; ++q)
            xa.R.m[r][q] = ra[3 * r + q], xb.R.m[r][q] = rb[3 * r + q];
    xa.p = V(pa[0], pa[1], pa[2]);
    xb.p = V(pb[0], pb[1], pb[2]);
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_capsule(&a, 0.60047858085063499, 0.0005), MK_OK);
    ck_assert_int_eq(mk_shape_cylinder(&b, 0.20188651587491668, 5000, 0), MK_OK);
    /* the overlap: the capsule's core segment against the cylinder's axis
     * (a line, for all the segment can reach of it) */
    const mk_vec3 axis = V(xb.R.m[0][2], xb.R.m[1][2], xb.R.m[2][2]), u = V(xa.R.m[0][2], xa.R.m[1][2], xa.R.m[2][2]);
    const mk_vec3 d = sub(xa.p, xb.p), P = sub(d, scl(axis, dot(d, axis))), Q = sub(u, scl(axis, dot(u, axis)));
    const double h = a.u.capsule.half_height, t = fmax(-h, fmin(h, -dot(P, Q) / dot(Q, Q)));
    const double depth = a.radius + b.u.cylinder.radius - len(add(P, scl(Q, t)));
    const mk_collide_settings cs = mk_collide_default_settings();
    const mk_pair p = {&a, xa, &b, xb};
    mk_transform xq = xb;
    xq.p = add(xb.p, V(0, 0.205824, -0.151224));
    const mk_pair q = {&a, xa, &b, xq};
    mk_collide_cache cache;
    memset(&cache, 0, sizeof cache);
    mk_contact_patch_result m;
    ck_assert_int_lt(mk_collide_patch(&q, &cs, &cache, 8, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_collide_patch(&p, &cs, &cache, 8, &m), MK_PENETRATING);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i)
        ck_assert_msg(fabs(m.points[i].depth - depth) <= 1e-4 * depth, "point %d depth %.9g, overlap %.9g", i,
                      m.points[i].depth, depth);
}
END_TEST

/* A user box (half sizes 0.064 x 0.052 x 0.014) around a smaller built-in
 * box (0.0031 x 0.0197 x 0.0251, rounded by 2.8e-4), both at the origin: the
 * contact is B's z face on A's, 0.0396 deep. The user box had no face, its
 * support corner anchored the contact, 0.064 off the smaller box (the core's
 * fuzzer: user shapes against faces gave most of its manifold points off a
 * shape). Its face, from its tilted supports, clips B's face now. */
START_TEST(user_box_face_clips_a_smaller_box)
{
    static const mk_vec3 h = {0.06399238193746945, 0.052022755918464433, 0.014156386550134721};
    const mk_vec3 hb = V(0.0030697365158653348, 0.019709213398637852, 0.025084012355518288);
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_user(&a, user_box_support, &h, scl(h, -1), h, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, hb, 0.00027785382951506839), MK_OK);
    const mk_transform x = axis_angle(V(0.1, -0.2, 0.3), unit(V(-1, 2, 1)), 2.1);
    mk_pair p = {&a, x, &b, x};
    mk_collide_settings cs = mk_collide_default_settings();
    mk_manifold m;
    ck_assert_int_eq(mk_collide(&p, &cs, NULL, &m), MK_PENETRATING);
    ck_assert_int_ge(m.count, 4);
    const double depth = h.z + hb.z + b.radius;
    for (int i = 0; i < m.count; ++i) {
        const mk_vec3 qa = inv_point(&x, m.points[i].point_a), qb = inv_point(&x, m.points[i].point_b);
        ck_assert_msg(fabs(qa.x) <= h.x + 1e-12 && fabs(qa.y) <= h.y + 1e-12 && fabs(qa.z) <= h.z + 1e-12,
                      "point_a %d (%g, %g, %g) outside the user box", i, qa.x, qa.y, qa.z);
        const mk_vec3 ob = V(fmax(fabs(qb.x) - hb.x, 0), fmax(fabs(qb.y) - hb.y, 0), fmax(fabs(qb.z) - hb.z, 0));
        ck_assert_msg(len(ob) <= b.radius + 1e-12, "point_b %d (%g, %g, %g) outside the box", i, qb.x, qb.y, qb.z);
        ck_assert_msg(fabs(m.points[i].depth - depth) <= 1e-9, "point %d depth %.12g, not %.12g", i,
                      m.points[i].depth, depth);
    }
}
END_TEST

/* User support over a hull's vertices (the hull itself unknown to the core). */
static mk_vec3 user_hull_support(const void *data, mk_vec3 d)
{
    const mk_hull *h = data;
    int best = 0;
    for (int i = 1; i < h->num_vertices; ++i)
        if (dot(d, h->vertices[i]) > dot(d, h->vertices[best]))
            best = i;
    return h->vertices[best];
}

/* A user shape over a thin hull (a disk of points 3e-3 across, 2.5e-6
 * thick) 2.6e-4 from a small tetrahedron: near the hull's broad side the
 * tilted supports find corners of neighbouring faces a hair apart in angle,
 * which the first version of the user face took for one face; points clipped
 * to their average plane missed the surface, and a pair of witnesses came
 * out 1.2e-9 closer than the certified distance (the core's fuzzer). Only
 * corners in one plane (to rounding) make a face. */
START_TEST(thin_user_hull_keeps_witnesses_apart)
{
    static const mk_vec3 tet[4] = {{-1.6140136441125568e-06, -1.0758490038196218e-06, 9.0083149325917008e-07},
                                   {-1.7525250226524175e-06, -1.786085045812756e-07, 1.212742160855759e-06},
                                   {6.5793215761018078e-07, 1.2754030978324189e-06, 1.5857051162402783e-06},
                                   {1.063161292014446e-06, -9.78460814084702e-07, 1.5767977055131674e-06}};
    static const mk_vec3 disk[31] = {
        {-0.0013825717671711384, -0.00055257387824160129, 9.7911010711423701e-07},
        {-0.00083281703546302002, 0.0011563318722464758, -2.499958274005164e-07},
        {-0.00097861021607395017, -0.00071792235910369802, -4.5946524156121774e-07},
        {-0.00049757558657674127, -0.0013587056527186124, -9.690039511772122e-07},
        {0.00030998161874714139, 0.0010664887904522711, 6.250031757446948e-08},
        {-0.00020390131229774494, 0.0012325542217129135, -7.2171184876951355e-07},
        {-0.00094082682831523083, -0.00026172165575562214, -1.1492146124414221e-06},
        {-0.001403345798130236, -0.00037094596556230933, 1.2767612710927448e-08},
        {-0.00024486270133689447, 0.00049600964316581602, -1.1583278017362469e-06},
        {0.0013457572341449015, 0.00028035188704353712, -1.3948695884117126e-07},
        {0.00011004250954930488, -0.0014833978489513444, 7.8152333705386347e-07},
        {0.00028773001960456432, 0.00063327211411611688, -1.1850495626995563e-06},
        {0.00017666791968656874, -0.00014672968534563935, 1.1783798724997474e-06},
        {-0.0011636403357251153, -0.0003017834765489589, 3.3572923334351625e-07},
        {0.0012183743083914122, 0.00055481780533438163, 8.7240510470816263e-07},
        {-0.0012121235040714455, -0.00087390536482636618, 2.331862814583566e-07},
        {-0.00048951020603295553, -0.00071744603289243091, -8.5762878208607989e-07},
        {0.00021376349168141404, 0.0013323606201725135, -8.5567523756959776e-07},
        {0.0011491340384174793, 0.00055420669230416572, 1.1301944929785875e-06},
        {-0.00031679986890403085, -0.00017130719337796692, -2.0630643320582882e-07},
        {0.00068526940867639282, 0.0011898258818401211, 7.3693663086952663e-08},
        {-0.00034550610860192453, -0.00094684906926486027, 4.694230088986562e-07},
        {-0.00039493355536257833, 9.4852014244812123e-05, 9.1309019484269296e-07},
        {0.00076107101582291762, 0.00052821382394338751, -1.0445708839730027e-08},
        {0.0010628365774940853, -0.00024982162135571775, 9.1953698024184351e-07},
        {0.00081533725133026331, 0.00082825152214687143, 2.3986109875026128e-07},
        {0.00037697253609048304, 0.0014409104687883446, -6.9180604734931597e-07},
        {-0.000744930975362086, -0.00052997844507271009, -4.9869376653220682e-07},
        {0.00042215587252150954, -0.0011217595975347603, -1.0053560354422494e-07},
        {0.00075202272901981866, -0.00059630568429831635, 1.0553245848225782e-06},
        {0.0011679674232071067, 0.0009115625874174454, -8.2456934051137504e-07}};
    mk_hull *ha = NULL, *hb = NULL;
    ck_assert_int_eq(mk_hull_create(tet, 4, &ha), MK_OK);
    ck_assert_int_eq(mk_hull_create(disk, 31, &hb), MK_OK);
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_hull(&a, ha, 2.8484872767504853e-09), MK_OK);
    ck_assert_int_eq(mk_shape_user(&b, user_hull_support, hb, hb->aabb_min, hb->aabb_max, 0), MK_OK);
    const mk_transform xa = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
                             {-0.000148960150292491, -0.0020226555904393254, 0.00080320664076846768}};
    const mk_transform xb = {{{{0.21867558051946157, -0.18099962055796245, -0.95886397775823762},
                               {0.57298986575183208, -0.77157601491411021, 0.27632058728035036},
                               {-0.78985036825348998, -0.60984390672296951, -0.065013884691596191}}},
                             {-0.00052469999590005513, -0.0023730330686804299, 0.00084899151606737536}};
    mk_pair p = {&a, xa, &b, xb};
    mk_gjk_settings gs = mk_gjk_default_settings();
    gs.tolerance = 0; /* the tightest certified lower bound */
    mk_gjk_result g;
    ck_assert_int_eq(mk_gjk_distance(&p, &gs, NULL, &g), MK_GJK_SEPARATED);
    mk_collide_settings cs = mk_collide_default_settings();
    cs.gjk.variant = MK_GJK_VANILLA;
    cs.gjk.tolerance = 0; /* to the floor */
    cs.speculative = 0.0030925091915240993;
    mk_manifold m;
    ck_assert_int_eq(mk_collide(&p, &cs, NULL, &m), MK_GJK_SEPARATED);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i) {
        const double d = dist(m.points[i].point_a, m.points[i].point_b);
        ck_assert_msg(d >= g.lower_bound - 1e-12, "point %d: witnesses %.17g apart, certified distance >= %.17g", i, d,
                      g.lower_bound);
    }
    mk_hull_destroy(ha);
    mk_hull_destroy(hb);
}
END_TEST

/* A needle 1.4 long and 3e-5 thick (a user shape over a hull's vertices)
 * whose bottom end touches the end of an edge 170 long of a user box-like
 * hull, 2.3e-11 apart, the normal across both (the core's fuzzer). The
 * needle's support is a corner of its side face, the edge's a tie along it:
 * the edge's support, its far end, anchored the contact 171 off the needle.
 * The edge's point nearest the needle's corner is the contact. Truth: the
 * hulls' exact distances to the points. */
START_TEST(needle_end_on_a_user_edge_end)
{
    static const mk_vec3 needle[] = {
        {-7.2118460683077245e-06, 1.4732169867375827e-05, -0.22990276814068084},
        {-1.1901483568369461e-05, 5.2588383833819309e-06, 0.4515257532967194},
        {1.6245293322070335e-05, -3.6400181498005748e-06, 0.14368363177190327},
        {-2.668436955147333e-06, 3.9148031526759329e-06, -0.44232503329584222},
        {-1.5877096607913622e-05, -1.8984389130200486e-06, 0.49575216561918828},
        {-9.6338473310349747e-06, -1.1797223720132589e-05, 0.59220875360446179},
        {-6.9758646504553648e-06, 1.4174865925757119e-05, -0.043171096669186469},
        {9.9211840014207728e-06, 7.5136868441365949e-06, -0.6392557722543778},
        {-7.0285671171026976e-06, -1.2637163444274223e-05, -0.11679123007335722},
        {-4.2653547243127486e-06, -1.0474612899144084e-05, -0.25877447402783521},
        {-1.183124537148848e-05, 1.1314178420344089e-05, 0.77975246575059742},
        {-7.2934146296770063e-06, 1.3207974844821931e-05, 0.28522486267113584},
        {-1.3924132982117957e-05, 8.9683607704356216e-06, 0.67190981383971182},
        {-6.3867629678914713e-06, 1.448354059763619e-05, 0.092298048077604153},
        {-5.63852925920657e-06, 1.1934294684651926e-05, -0.043529514787703213},
        {6.0334382093434224e-06, -9.0501548020628188e-06, 0.065639326088751615},
        {-1.2897865572873402e-05, -2.7896509320597171e-06, 0.15925774707148233},
        {9.1520765686906746e-06, -1.3871869614795602e-05, 0.098246750465384808},
        {-6.3551237322014385e-06, 9.9685595731003467e-06, 0.1322841131304949},
        {4.5991044185291943e-06, -1.438327871360315e-05, 0.33067111475546818},
        {1.1741031663318089e-05, 2.6416008317528255e-07, -0.51192481297892589}};
    static const mk_vec3 block[] = {
        {39.042414252892009, -73.699867778482471, -30.490977271004247},
        {40.177925844866195, -79.153912149280401, 2.4643016190303069},
        {-9.4595005069243996, 88.273120937382927, -2.0135258465653028},
        {-8.3239889149502133, 82.819076566584997, 30.941753043469255},
        {8.3239889149502133, -82.819076566584997, -30.941753043469255},
        {9.4595005069243996, -88.273120937382927, 2.0135258465653028},
        {-40.177925844866195, 79.153912149280401, -2.4643016190303069},
        {-39.042414252892009, 73.699867778482471, 30.490977271004247}};
    mk_hull *ha = NULL, *hb = NULL;
    ck_assert_int_eq(mk_hull_create(needle, 21, &ha), MK_OK);
    ck_assert_int_eq(mk_hull_create(block, 8, &hb), MK_OK);
    mk_shape ua, ub, a, b;
    ck_assert_int_eq(mk_shape_user(&ua, user_hull_support, ha, ha->aabb_min, ha->aabb_max, 0), MK_OK);
    ck_assert_int_eq(mk_shape_user(&ub, user_hull_support, hb, hb->aabb_min, hb->aabb_max, 0), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&a, ha, 0), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&b, hb, 0), MK_OK);
    const mk_mat3 R = {{{-2.2204460492503131e-16, 1, 0}, {-1, -2.2204460492503131e-16, 0}, {0, 0, 1}}};
    const mk_transform xa = {R, {0, 0, 0}};
    const mk_transform xb = {R, {-73.699860264547169, -39.042424174025655, -31.13023304194212}};
    mk_pair p = {&ua, xa, &ub, xb};
    const mk_vec3 n = V(0.28686019107911492, -0.95797245824748101, -3.6513280524988166e-06);
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, n, 2.304647490184348e-11, NULL, &m), MK_OK);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i) {
        const double da = or_point_shape(&a, &xa, m.points[i].point_a, NULL);
        const double db = or_point_shape(&b, &xb, m.points[i].point_b, NULL);
        ck_assert_msg(da <= 1e-9 && db <= 1e-9, "point %d: %.3g off the needle, %.3g off the block", i, da, db);
    }
    mk_hull_destroy(ha);
    mk_hull_destroy(hb);
}
END_TEST

/* mk_collide's points on the pair p (default settings, status want): at
 * least one, each at most tol_a outside oa and tol_b outside ob (the pair's
 * shapes, or built-in twins of its user shapes; the oracle's distances). */
static void collide_points_within(const mk_pair *p, mk_status want, const mk_shape *oa, const mk_shape *ob,
                                  double tol_a, double tol_b)
{
    mk_collide_settings cs = mk_collide_default_settings();
    mk_manifold m;
    ck_assert_int_eq(mk_collide(p, &cs, NULL, &m), want);
    ck_assert_int_ge(m.count, 1);
    for (int i = 0; i < m.count; ++i) {
        const double da = or_point_shape(oa, &p->xf_a, m.points[i].point_a, NULL);
        const double db = or_point_shape(ob, &p->xf_b, m.points[i].point_b, NULL);
        ck_assert_msg(da <= tol_a && db <= tol_b, "point %d: %.3g outside A, %.3g outside B", i, da, db);
    }
}

/* A rod (a cylinder 4.8 in radius, 1,000 long) through the middle of a
 * rounded user box (half extents 397 x 750 x 462, radius 245), the box's face
 * 1e-3 rad off the normal after a small move (the core's fuzzer, a warm
 * step). The rod's support is its side line, the box's a corner 800 beside
 * the rod: anchored on the corner, the contact's point on the rod's support
 * plane lay 742 off the rod. The point beside the rod's reach gives way to
 * the rod's point nearest it. Truth: the exact distances to the rod and to
 * the same box built in. */
START_TEST(rod_through_a_user_box_anchors_on_the_rod)
{
    static const mk_vec3 h = {396.99673683398959, 749.53232678758491, 462.01520711908086};
    const double r = 245.21071272490883;
    mk_shape a, b, bb;
    ck_assert_int_eq(mk_shape_cylinder(&a, 4.7855388922661026, 500.94635753658781, 0), MK_OK);
    ck_assert_int_eq(mk_shape_user(&b, user_box_support, &h, scl(h, -1), h, r), MK_OK);
    ck_assert_int_eq(mk_shape_box(&bb, h, r), MK_OK);
    const mk_transform xa = {{{{0.69123322267869547, 0.15499909978779336, -0.70581294330027622},
                               {-0.61304246214037705, 0.64289785407071842, -0.45919635107884926},
                               {0.38259060558002417, 0.75010507816987815, 0.53941338528597116}}},
                             {0, 0, 0}};
    const mk_transform xb = {{{{0.6912932448040825, 0.15560290199407978, -0.70562127701711497},
                               {-0.6129622694271063, 0.6433711680930897, -0.45864015995691598},
                               {0.38261064536551381, 0.74957406369054314, 0.54013685034019931}}},
                             {-1.8941583400105269, 0.059473867014634751, -2.5703476200596937}};
    mk_pair p = {&a, xa, &b, xb};
    collide_points_within(&p, MK_PENETRATING, &a, &bb, 1e-3, 1e-3);
}
END_TEST

/* A rounded box 2.4e-5 x 4.6e-5 x 9.6e-5 face down in the middle of a user
 * hull 9e-3 wide and 3e-8 thick (the core's fuzzer, both centred at one
 * point). The box's face is its feature (flat), the plate's support a corner
 * of its top 4e-3 away: anchored there, the point on the box's plane lay
 * 4e-3 off the box. The foot beside the box's face gives way to the face's
 * rim point toward it (paired with its foot on the plate's support plane).
 * Truth: the exact distances to the box and to the plate built as a hull. */
START_TEST(small_box_face_on_a_user_plate)
{
    static const mk_vec3 plate[] = {
        {-0.0036202087630468898, -0.00071410837217373939, 5.606350776239543e-09},
        {0.0020080545361197918, 0.0037128841359465657, -7.0587885139147894e-09},
        {0.0026450422143620943, -0.0022574481410076014, -1.1498649152397541e-08},
        {0.0045005462031793677, 0.0015928513777862315, -1.3326969035784112e-08},
        {-0.00016179745840669196, 0.001968131970503099, 2.5682498100247806e-09},
        {0.00095312178823268564, 0.00098714126679971814, 1.4711234173520632e-08},
        {0.0029674544895095696, -0.0015062189382712191, -1.2049487303311392e-08},
        {-0.0023131419662298855, -0.0041943183348183213, -1.0561710357444783e-08},
        {-0.0043134485503479539, 0.0010594257989019746, -7.2245623399730089e-09},
        {-0.0037987922551052161, 0.0012321462034606972, -5.444030519144817e-09},
        {-0.0039363450447254507, -0.00030369596205686948, 1.3456272240887793e-08},
        {0.0029141215179755383, -0.0032896534096351006, -9.1033828895805122e-09},
        {-0.0023397966314085287, 0.0027198720636140003, -1.4839242966036693e-08},
        {0.0034479596492605212, -0.00050186912296834151, 8.229265383749844e-09},
        {-0.00076964538129852542, -0.0025880402540522937, -6.6255319326792021e-10},
        {0.0043342753275380404, 0.00079797382871548935, 1.5794730742312358e-08},
        {0.0015967231051981787, 0.0040525976758912846, -2.9213308219384297e-09},
        {-0.0016621348550659612, -0.0044241573555965606, -9.9870701559104309e-09},
        {-0.00076929178106749255, 0.0028906612827442144, -1.3062674788885677e-08},
        {-0.0030036480540451098, 0.0032412554905440101, 1.2401372664750818e-09},
        {-0.0028900775616456371, -0.0027823525844230612, 1.5480746866832392e-08},
        {-0.0034274968767700181, 0.0030683446299062185, -7.669969636074017e-09},
        {-0.0028510290185806554, -0.0029982682503540276, -1.1406684105107456e-08}};
    mk_hull *hb = NULL;
    ck_assert_int_eq(mk_hull_create(plate, 23, &hb), MK_OK);
    mk_shape a, ub, b;
    const mk_vec3 h = V(1.2071533955353985e-05, 2.2762303192637554e-05, 4.8137249105935366e-05);
    ck_assert_int_eq(mk_shape_box(&a, h, 2.4423777600673691e-06), MK_OK);
    ck_assert_int_eq(mk_shape_user(&ub, user_hull_support, hb, hb->aabb_min, hb->aabb_max, 0), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&b, hb, 0), MK_OK);
    const mk_transform x = {{{{2.2204460492503131e-16, -1, 0}, {1, 2.2204460492503131e-16, 0}, {0, 0, 1}}},
                            {-0.058845613079604717, -0.13862629148469824, -0.10775612107051198}};
    mk_pair p = {&a, x, &ub, x};
    /* B's point is its foot on the plate's support plane: the plate's top is
     * uneven by up to its thickness, 3e-8 */
    collide_points_within(&p, MK_PENETRATING, &a, &b, 1e-9, 3e-8);
    mk_hull_destroy(hb);
}
END_TEST

/* Two cylinders whose sides cross, each nearly across the normal: A's side
 * line tilted 0.047 rad from the contact plane (within MK_MF_LINE_ANGLE, so a
 * line), B's exactly in it. The lines' closest points were 0.1244 deep where
 * the overlap along the normal is 0.1321: A's deepest point is the end of its
 * tilted side (found by the ODE adapter's fuzzer with the growth contact
 * model: the normal is the growth solution's, and mk_collide_growth's
 * manifold is not completed by a witness point as mk_collide's is). Now the
 * crossing falls back to the support points: the depth along the normal. */
START_TEST(crossing_tilted_side_lines_keep_the_depth)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cylinder(&a, 0.53197397121996515, 0.5 * 0.46695777562314011, 0), MK_OK);
    ck_assert_int_eq(mk_shape_cylinder(&b, 0.28342328053466104, 0.5 * 0.5193759828655411, 0), MK_OK);
    const mk_transform xa = {{{{0.80777048239210536, 0.034684236702320487, -0.58847587163825399},
                               {-0.12820970010356669, 0.98470823051136591, -0.11794902951075187},
                               {0.57538606220117894, 0.17072405948650626, 0.79986509796156813}}},
                             {-0.073404610919450164, 0.47074010336369543, -0.52246637990670319}};
    const mk_transform xb = {{{{0.17884163182037405, 0.79037042653372902, -0.58594390481403336},
                               {-0.94491056019511754, -0.027968475723475605, -0.32613156485911371},
                               {-0.27415270190092006, 0.61199048458827887, 0.74182743465972523}}},
                             {0.30816901050553902, 0.46430098725837421, 0.1079274765765772}};
    mk_pair p = {&a, xa, &b, xb};
    for (int k = 0; k < 2; ++k) {
        /* the growth solution's normal, then the signed distance's */
        const mk_vec3 n = k ? V(0.773863, 0.046408, 0.631650) : V(0.771270, 0.056417, 0.634003);
        const mk_vec3 un = scl(n, 1 / sqrt(n.x * n.x + n.y * n.y + n.z * n.z));
        /* overlap along n from the supports (the exact depth along it) */
        const double depth = or_support_value(&a, &xa, un) + or_support_value(&b, &xb, scl(un, -1));
        mk_manifold m;
        ck_assert_int_eq(mk_contact_manifold(&p, un, -depth, NULL, &m), MK_OK);
        ck_assert_int_ge(m.count, 1);
        double deepest = -INFINITY;
        for (int i = 0; i < m.count; ++i)
            deepest = fmax(deepest, m.points[i].depth);
        ck_assert_msg(fabs(deepest - depth) <= 1e-9, "normal %d: deepest point %.9g, overlap along it %.9g", k,
                      deepest, depth);
    }
}
END_TEST

/* A small box tunnelled deep into a box ten thousand times larger, turned by
 * 1e-3 rad: the small box's face, the preferred reference, is off the normal
 * by the turn, and at a depth of 2258 its clip misses the depth by 0.013 (far
 * above the check's tolerance, relative to the small box); the pair fell to
 * the point path, whose "midpoint of the supports" took a corner of the big
 * face: one point 4443 away from the small box (found by a fuzzer). The big
 * box's face, exactly along the normal, holds the contact: four points on the
 * small box at the depth. */
START_TEST(tunnelled_box_takes_the_other_reference_face)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, V(0.2, 0.0876, 0.575), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, V(2270, 4510, 7650), 0), MK_OK);
    mk_transform xa = at(V(0, 0, 0)), xb = axis_angle(V(12.3, 13.1, 0.1), V(0, 0, 1), 1e-3);
    mk_pair p = {&a, xa, &b, xb};
    /* mk_signed_distance's answer: B's x axis, and the depth to B's -x face */
    const mk_vec3 n = V(cos(1e-3), sin(1e-3), 0);
    const double distance = -2257.8869936521683;
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, n, distance, NULL, &m), MK_OK);
    ck_assert_int_eq(m.count, 4);
    double deepest = INFINITY;
    for (int i = 0; i < m.count; ++i) {
        const mk_vec3 q = m.points[i].point_a; /* A sits at the origin unturned */
        ck_assert_msg(fabs(q.x) <= 0.2 + 1e-9 && fabs(q.y) <= 0.0876 + 1e-9 && fabs(q.z) <= 0.575 + 1e-9,
                      "point %d (%g, %g, %g) off the small box", i, q.x, q.y, q.z);
        deepest = fmin(deepest, m.points[i].separation);
    }
    ck_assert_msg(fabs(deepest - distance) <= 1e-6, "deepest %.17g, signed distance %.17g", deepest, distance);
}
END_TEST

/* ------------------------------------------------------------ rounding */

START_TEST(rounded_box_shifts_by_radius)
{
    /* A rounded box (core h, radius rr) equals the sharp core box moved along
     * the normal: point_a moves by rr along the normal, point_b stays, and the
     * separation drops by rr. */
    const double rr = 0.1, pen = 0.02;
    const mk_vec3 h = V(0.4, 0.3, 0.5);
    mk_transform xf = axis_angle(V(0.1, -0.2, h.z + rr - pen), V(0, 0, 1), 0.4);
    scene s, t;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_box(&s.a, h, rr);
    s.xa = xf;
    ground_b(&s, 5);
    scene_init(&t, V(0, 0, -1), -pen + rr);
    mk_shape_box(&t.a, h, 0);
    t.xa = xf;
    ground_b(&t, 5);
    mk_manifold m, w;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    ck_assert_int_eq(run_scene(&t, 0, rr, &w), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 4);
    ck_assert_int_eq(w.count, 4);
    for (int i = 0; i < 4; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-12);
        ck_assert_double_eq_tol(w.points[i].separation - rr, m.points[i].separation, 1e-12);
        ck_assert_double_le_tol(dist(add(w.points[i].point_a, scl(m.normal, rr)), m.points[i].point_a), 0, 1e-12);
        ck_assert_double_le_tol(dist(w.points[i].point_b, m.points[i].point_b), 0, 1e-12);
        ck_assert_uint_eq(w.points[i].id, m.points[i].id);
    }
    check_on_surfaces(&s, &m, 1e-9);

    /* Rounded on both sides: a rounded box on a rounded ground. */
    mk_shape_box(&s.b, V(5, 5, 1), 0.05);
    s.xb = at(V(0, 0, -1.05));
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    ck_assert_int_eq(m.count, 4);
    for (int i = 0; i < 4; ++i)
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-12);
    check_on_surfaces(&s, &m, 1e-9);
}
END_TEST

/* ------------------------------------------------------------ hulls */

START_TEST(hull_cube_agrees_with_box)
{
    /* The same cube as a box and as a hull (either side of the pair) gives the
     * same points: flat, on an edge, tilted on a corner, random yaw/tilt. */
    rng r = {or_test_seed(31337)};
    cube_hull ch, big;
    cube_hull_init(&ch, 0.5);
    cube_hull_init(&big, 2.0);
    int n = scaled(200);
    for (int it = 0; it < n; ++it) {
        double pen = uni(&r, 0, 0.03), th = uni(&r, 0, 2 * PI);
        int kind = it % 3;
        double ang = kind == 0 ? uni(&r, 0, 0.1) : (kind == 1 ? PI / 4 : uni(&r, 0.3, 0.6));
        mk_vec3 axis = kind == 1 ? V(1, 0, 0) : V(cos(th), sin(th), 0);
        mk_transform xf = axis_angle(V(0, 0, 0), axis, ang);
        double second;
        mk_vec3 low = lowest_corner(V(0.5, 0.5, 0.5), &xf, &second);
        xf.p = V(uni(&r, -1, 1), uni(&r, -1, 1), -low.z - pen);
        for (int hull_side = 0; hull_side < 2; ++hull_side) {
            scene s, t;
            scene_init(&s, V(0, 0, -1), -pen);
            mk_shape_box(&s.a, V(0.5, 0.5, 0.5), 0);
            s.xa = xf;
            ground_b(&s, 5);
            t = s;
            if (hull_side == 0) {
                mk_shape_hull(&t.a, &ch.hull, 0);
            } else {
                /* hull cube as the ground */
                mk_shape_hull(&t.b, &big.hull, 0);
                mk_shape_box(&s.b, V(2, 2, 2), 0);
                s.xb = t.xb = at(V(0, 0, -2));
            }
            mk_manifold m, w;
            ck_assert_int_eq(run_scene(&s, 0, 0.01, &m), MK_OK);
            ck_assert_int_eq(run_scene(&t, 0, 0.01, &w), MK_OK);
            check_common(&m, s.n, 0.01);
            check_common(&w, t.n, 0.01);
            ck_assert_int_ge(w.count, 1);
            check_same_set(&m, &w, 1e-9);
            check_on_surfaces(&t, &w, 1e-9);
        }
    }
}
END_TEST

START_TEST(hull_against_curved)
{
    /* A hull cube as the ground for a cylinder cap and a capsule. */
    cube_hull ch;
    cube_hull_init(&ch, 1.0);
    const double pen = 0.01;
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_cylinder(&s.a, 0.3, 0.4, 0);
    s.xa = at(V(0.1, 0, 0.4 - pen));
    mk_shape_hull(&s.b, &ch.hull, 0);
    s.xb = at(V(0, 0, -1));
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 4);
    check_on_surfaces(&s, &m, 1e-9);
    mk_shape_capsule(&s.a, 0.2, 0.5);
    s.xa = lying_x(V(0, 0.3, 0.2 - pen));
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 2);
    check_on_surfaces(&s, &m, 1e-9);
}
END_TEST


/* Hexagonal prism (circumradius R, half-height h) as a hand-built hull:
 * bottom vertices 0-5, top 6-11, faces CCW from outside. */
typedef struct prism_hull {
    mk_vec3 v[12];
    int adj_start[13], adj[36];
    int face_start[9], face_vertices[36];
    mk_vec3 normals[8];
    mk_real offsets[8];
    mk_hull hull;
} prism_hull;

static void prism_hull_init(prism_hull *c, double R, double h)
{
    for (int k = 0; k < 6; ++k) {
        double a = k * PI / 3;
        c->v[k] = V(R * cos(a), R * sin(a), -h);
        c->v[k + 6] = V(R * cos(a), R * sin(a), h);
        for (int top = 0; top < 2; ++top) {
            int i = k + 6 * top;
            c->adj_start[i] = 3 * i;
            c->adj[3 * i] = (k + 1) % 6 + 6 * top;
            c->adj[3 * i + 1] = (k + 5) % 6 + 6 * top;
            c->adj[3 * i + 2] = top ? k : k + 6;
        }
    }
    c->adj_start[12] = 36;
    int m = 0, f = 0;
    c->face_start[f] = m; /* top */
    for (int k = 0; k < 6; ++k)
        c->face_vertices[m++] = 6 + k;
    c->normals[f] = V(0, 0, 1);
    c->offsets[f++] = h;
    c->face_start[f] = m; /* bottom */
    for (int k = 0; k < 6; ++k)
        c->face_vertices[m++] = (6 - k) % 6;
    c->normals[f] = V(0, 0, -1);
    c->offsets[f++] = h;
    for (int k = 0; k < 6; ++k) {
        c->face_start[f] = m;
        c->face_vertices[m++] = k;
        c->face_vertices[m++] = (k + 1) % 6;
        c->face_vertices[m++] = (k + 1) % 6 + 6;
        c->face_vertices[m++] = k + 6;
        double a = k * PI / 3 + PI / 6;
        c->normals[f] = V(cos(a), sin(a), 0);
        c->offsets[f++] = R * cos(PI / 6);
    }
    c->face_start[f] = m;
    mk_hull *hu = &c->hull;
    memset(hu, 0, sizeof *hu);
    hu->num_vertices = 12;
    hu->num_faces = 8;
    hu->vertices = c->v;
    hu->adj_start = c->adj_start;
    hu->adj = c->adj;
    hu->face_start = c->face_start;
    hu->face_vertices = c->face_vertices;
    hu->face_normals = c->normals;
    hu->face_offsets = c->offsets;
    hu->aabb_min = V(-R, -R * cos(PI / 6), -h);
    hu->aabb_max = V(R, R * cos(PI / 6), h);
    hu->inradius = fmin(R * cos(PI / 6), h);
}

/* Largest face-plane distance: 0 on the surface of a (sharp) hull. */
static double hull_plane_distance(const mk_hull *h, const mk_transform *xf, mk_vec3 p)
{
    mk_vec3 q = inv_point(xf, p);
    double m = -1e300;
    for (int f = 0; f < h->num_faces; ++f)
        m = fmax(m, dot(h->face_normals[f], q) - h->face_offsets[f]);
    return m;
}

START_TEST(hull_prism_faces)
{
    /* A hexagonal prism standing on the ground: 6 bottom vertices reduced to
     * 4, all at depth pen, the first two a diameter apart. Then a prism on a
     * prism turned 30 degrees: a 12-point overlap reduced to 4, all at depth
     * pen and on both hulls. */
    prism_hull pr;
    prism_hull_init(&pr, 0.4, 0.25);
    const double pen = 0.01;
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_hull(&s.a, &pr.hull, 0);
    s.xa = axis_angle(V(0.3, -0.1, 0.25 - pen), V(0, 0, 1), 0.2);
    ground_b(&s, 5);
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    check_common(&m, s.n, 0);
    ck_assert_int_eq(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-12);
        mk_vec3 q = inv_point(&s.xa, m.points[i].point_a);
        ck_assert_double_eq_tol(sqrt(q.x * q.x + q.y * q.y), 0.4, 1e-9);
        ck_assert_double_eq_tol(q.z, -0.25, 1e-9);
    }
    ck_assert_double_eq_tol(widest(&m), 0.8, 1e-9);

    scene t;
    scene_init(&t, V(0, 0, -1), -pen);
    mk_shape_hull(&t.a, &pr.hull, 0);
    t.xa = axis_angle(V(0, 0, 0.25 - pen), V(0, 0, 1), PI / 6);
    mk_shape_hull(&t.b, &pr.hull, 0);
    t.xb = at(V(0, 0, -0.25));
    for (int swap = 0; swap < 2; ++swap) {
        ck_assert_int_eq(run_scene(&t, swap, 0, &m), MK_OK);
        ck_assert_int_eq(m.count, 4);
        for (int i = 0; i < 4; ++i) {
            ck_assert_double_eq_tol(m.points[i].depth, pen, 1e-12);
            const mk_transform *xa = swap ? &t.xb : &t.xa, *xb = swap ? &t.xa : &t.xb;
            ck_assert_double_le_tol(fabs(hull_plane_distance(&pr.hull, xa, m.points[i].point_a)), 0, 1e-9);
            ck_assert_double_le_tol(fabs(hull_plane_distance(&pr.hull, xb, m.points[i].point_b)), 0, 1e-9);
        }
    }
}
END_TEST

/* ------------------------------------------------------------ ids, order, symmetry */

/* The canonical scenes used by the id and symmetry tests: every pair type. */
enum { SC_BOX_FLAT, SC_BOX_EDGE, SC_BOX_CORNER, SC_BOX_OVERHANG, SC_CYL_CAP, SC_CYL_SIDE, SC_CAPSULE_BOX,
       SC_SPHERE_BOX, SC_CAPSULES, SC_CAPSULES_CROSSED, SC_CONE_BASE, SC_ELLIPSOID, SC_SPHERES,
       SC_HULL_BOX, SC_CYL_ON_CYL, SC_BOX_EDGE_EDGE, SC_COUNT };

static cube_hull g_cube; /* read-only after init (per forked test) */

static void make_scene(int which, scene *s)
{
    const double pen = 0.01;
    scene_init(s, V(0, 0, -1), -pen);
    ground_b(s, 5);
    switch (which) {
    case SC_BOX_FLAT:
        mk_shape_box(&s->a, V(0.5, 0.4, 0.3), 0);
        s->xa = axis_angle(V(0.2, 0.1, 0.3 - pen), V(0, 0, 1), 0.4);
        break;
    case SC_BOX_EDGE:
        mk_shape_box(&s->a, V(0.5, 0.5, 0.5), 0);
        s->xa = axis_angle(V(0, 0, 0.5 * sqrt(2.0) - pen), V(1, 0, 0), PI / 4);
        break;
    case SC_BOX_CORNER: {
        mk_transform xf = axis_angle(V(0, 0, 0), V(1, 2, 0), 0.5);
        double second;
        mk_vec3 low = lowest_corner(V(0.5, 0.4, 0.3), &xf, &second);
        xf.p = V(0.1, 0, -low.z - pen);
        mk_shape_box(&s->a, V(0.5, 0.4, 0.3), 0);
        s->xa = xf;
        break;
    }
    case SC_BOX_OVERHANG: /* hangs over the ground's edge: 4 clipped points */
        mk_shape_box(&s->a, V(0.5, 0.5, 0.5), 0);
        s->xa = at(V(5.1, 1.0, 0.5 - pen));
        break;
    case SC_CYL_CAP:
        mk_shape_cylinder(&s->a, 0.4, 0.6, 0);
        s->xa = axis_angle(V(0.3, 0.2, 0.6 - pen), V(0, 0, 1), 1.1);
        break;
    case SC_CYL_SIDE:
        mk_shape_cylinder(&s->a, 0.3, 0.7, 0);
        s->xa = compose(axis_angle(V(0, 0.5, 0.3 - pen), V(0, 0, 1), 0.7),
                        lying_x(V(0, 0, 0)));
        break;
    case SC_CAPSULE_BOX:
        mk_shape_capsule(&s->a, 0.2, 0.6);
        s->xa = lying_x(V(0.4, -0.3, 0.2 - pen));
        break;
    case SC_SPHERE_BOX:
        mk_shape_sphere(&s->a, 0.5);
        s->xa = at(V(1, 1, 0.5 - pen));
        break;
    case SC_CAPSULES:
        mk_shape_capsule(&s->a, 0.2, 0.6);
        s->xa = lying_x(V(0, 0, 0.2 - pen));
        mk_shape_capsule(&s->b, 0.3, 0.5);
        s->xb = lying_x(V(0.4, 0, -0.3));
        break;
    case SC_CAPSULES_CROSSED:
        mk_shape_capsule(&s->a, 0.2, 0.6);
        s->xa = lying_x(V(0.1, 0.1, 0.2 - pen));
        mk_shape_capsule(&s->b, 0.3, 0.5);
        s->xb = compose(axis_angle(V(0, 0, -0.3), V(0, 0, 1), 1.2),
                        lying_x(V(0, 0, 0)));
        break;
    case SC_CONE_BASE:
        mk_shape_cone(&s->a, 0.4, 0.5, 0);
        s->xa = axis_angle(V(0, 0, 0.5 - pen), V(0, 0, 1), 0.2);
        break;
    case SC_ELLIPSOID:
        mk_shape_ellipsoid(&s->a, V(0.5, 0.3, 0.2));
        s->xa = at(V(0.1, 0.2, 0.2 - pen));
        break;
    case SC_SPHERES:
        mk_shape_sphere(&s->a, 0.5);
        s->xa = at(V(0, 0, 0.5 - pen));
        mk_shape_sphere(&s->b, 0.7);
        s->xb = at(V(0, 0, -0.7));
        break;
    case SC_HULL_BOX:
        mk_shape_hull(&s->a, &g_cube.hull, 0);
        s->xa = axis_angle(V(-0.2, 0.3, 0.5 - pen), V(0, 0, 1), 0.25);
        break;
    case SC_CYL_ON_CYL:
        mk_shape_cylinder(&s->a, 0.3, 0.4, 0);
        s->xa = axis_angle(V(0.1, 0, 0.4 - pen), V(0, 0, 1), 0.5);
        mk_shape_cylinder(&s->b, 1.0, 0.5, 0);
        s->xb = at(V(0, 0, -0.5));
        break;
    case SC_BOX_EDGE_EDGE: {
        /* A's lowest edge (along y) crosses B's top ridge (along x): the normal
         * is vertical but neither box has a horizontal face. */
        mk_shape_box(&s->a, V(0.5, 0.5, 0.5), 0);
        s->xa = axis_angle(V(0.05, -0.1, 0.5 * sqrt(2.0) - pen), V(0, 1, 0), PI / 4);
        mk_shape_box(&s->b, V(0.5, 0.5, 0.5), 0);
        s->xb = axis_angle(V(0, 0, -0.5 * sqrt(2.0)), V(1, 0, 0), PI / 4);
        break;
    }
    }
}

static const int expected_count[SC_COUNT] = {4, 2, 1, 4, 4, 2, 2, 1, 2, 1, 4, 1, 1, 4, 4, 1};

START_TEST(every_pair_type_counts_and_normals)
{
    cube_hull_init(&g_cube, 0.5);
    for (int k = 0; k < SC_COUNT; ++k) {
        scene s;
        make_scene(k, &s);
        mk_manifold m;
        ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
        check_common(&m, s.n, 0);
        ck_assert_msg(m.count == expected_count[k], "scene %d: %d points, expected %d", k, m.count,
                      expected_count[k]);
        for (int i = 0; i < m.count; ++i)
            ck_assert_msg(fabs(m.points[i].depth - 0.01) < 1e-9, "scene %d point %d depth %g", k, i,
                          m.points[i].depth);
        check_on_surfaces(&s, &m, 1e-9);
    }
}
END_TEST

START_TEST(swapping_flips_normal_same_points)
{
    cube_hull_init(&g_cube, 0.5);
    for (int k = 0; k < SC_COUNT; ++k) {
        scene s;
        make_scene(k, &s);
        mk_manifold m, w;
        ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
        ck_assert_int_eq(run_scene(&s, 1, 0, &w), MK_OK);
        check_common(&w, scl(s.n, -1), 0);
        check_same_set_swapped(&m, &w, 1e-9);
    }
}
END_TEST

/* Move A by a tiny rigid motion (1e-6 translation, 1e-6 rad rotation). */
static void nudge(scene *s, mk_vec3 dir, mk_vec3 axis)
{
    mk_transform d = axis_angle(V(0, 0, 0), axis, 1e-6);
    mk_vec3 c = s->xa.p;
    s->xa.p = V(0, 0, 0);
    s->xa = compose(d, s->xa);
    s->xa.p = add(c, scl(unit(dir), 1e-6));
}

START_TEST(feature_ids_stable_under_tiny_motion)
{
    cube_hull_init(&g_cube, 0.5);
    rng r = {or_test_seed(2024)};
    for (int k = 0; k < SC_COUNT; ++k) {
        scene s;
        make_scene(k, &s);
        mk_manifold m0;
        ck_assert_int_eq(run_scene(&s, 0, 0, &m0), MK_OK);
        for (int rep = 0; rep < 8; ++rep) {
            scene t = s;
            nudge(&t, rand_unit(&r), rand_unit(&r));
            mk_manifold m1;
            ck_assert_int_eq(run_scene(&t, 0, 0, &m1), MK_OK);
            ck_assert_msg(same_ids(&m0, &m1), "scene %d: ids changed under a tiny motion", k);
        }
    }
}
END_TEST

START_TEST(deterministic_same_output)
{
    cube_hull_init(&g_cube, 0.5);
    for (int k = 0; k < SC_COUNT; ++k) {
        scene s;
        make_scene(k, &s);
        mk_manifold m, w;
        memset(&m, 0xAB, sizeof m);
        memset(&w, 0xCD, sizeof w);
        run_scene(&s, 0, 0.02, &m);
        run_scene(&s, 0, 0.02, &w);
        ck_assert_int_eq(m.count, w.count);
        ck_assert_mem_eq(&m.normal, &w.normal, sizeof m.normal);
        for (int i = 0; i < m.count; ++i) {
            const mk_manifold_point *a = &m.points[i], *b = &w.points[i];
            ck_assert_mem_eq(&a->point_a, &b->point_a, sizeof a->point_a);
            ck_assert_mem_eq(&a->point_b, &b->point_b, sizeof a->point_b);
            ck_assert_mem_eq(&a->position, &b->position, sizeof a->position);
            ck_assert_mem_eq(&a->separation, &b->separation, sizeof a->separation);
            ck_assert_uint_eq(a->id, b->id);
        }
    }
}
END_TEST


/* A cylinder (radius rad, half height hh) at pose xf, pen deep in a ground
 * box's top face: the scene and its manifold (speculative 2 cm), at least two
 * points. */
static void cylinder_on_ground(mk_transform xf, double rad, double hh, double pen, scene *s, mk_manifold *m)
{
    scene_init(s, V(0, 0, -1), -pen);
    mk_shape_cylinder(&s->a, rad, hh, 0);
    s->xa = xf;
    ground_b(s, 5);
    ck_assert_int_eq(run_scene(s, 0, 0.02, m), MK_OK);
    ck_assert_int_ge(m->count, 2);
}

START_TEST(tilted_cap_keeps_exact_deepest_point)
{
    /* A cylinder standing on its cap, tilted 0.05 rad (still a ring): the
     * exact lowest rim point is a candidate, not only the nearest of the 16
     * ring samples (up to 3.8e-4 too shallow here). The reduction may prefer a
     * point within its depth tie (1e-4 x the smaller shape's size, 4e-5 here)
     * for id stability, so that is the tolerance. */
    rng r = {or_test_seed(99)};
    int n = scaled(100);
    for (int it = 0; it < n; ++it) {
        const double rad = 0.4, hh = 0.3, pen = 0.01;
        double az = uni(&r, 0, 2 * PI);
        mk_transform xf = axis_angle(V(0, 0, 0), V(cos(az), sin(az), 0), 0.05);
        /* Lowest rim point: the bottom cap circle's point farthest down. */
        mk_vec3 down = mk_rotate_inv(&xf.R, V(0, 0, -1));
        double l = sqrt(down.x * down.x + down.y * down.y);
        mk_vec3 low = mk_transform_point(&xf, V(rad * down.x / l, rad * down.y / l, -hh));
        xf.p = V(uni(&r, -1, 1), uni(&r, -1, 1), -low.z - pen);
        scene s;
        mk_manifold m;
        cylinder_on_ground(xf, rad, hh, pen, &s, &m);
        check_common(&m, s.n, 0.02);
        double deepest = -1;
        for (int i = 0; i < m.count; ++i)
            deepest = fmax(deepest, m.points[i].depth);
        ck_assert_double_eq_tol(deepest, pen, 1e-4 * 0.4 + 1e-12);
        /* A point as deep as the lowest one to 1e-12 is that point, or a
         * ring sample on the arc about it that deep: the rim rises by
         * sin(tilt) s^2 / (2 rad) at arc length s, so within s = sqrt(2 rad
         * 1e-12 / sin(tilt)) = 4.0e-6 (MK_TEST_SEED=32, MK_TEST_SCALE=100
         * put a sample 1.3e-6 from it, 1e-13 shallower; the nearest sample
         * alone is up to 3.8e-4 too shallow and centimetres away). */
        if (m.points[0].depth > pen - 1e-12)
            ck_assert_double_le_tol(dist(m.points[0].point_a, add(low, xf.p)), 0,
                                    sqrt(2 * rad * 1e-12 / sin(0.05)) + 1e-9);
        check_on_surfaces(&s, &m, 1e-9);
    }
}
END_TEST

START_TEST(ring_samples_sit_on_the_rim)
{
    /* A cap's ring samples come from a table (manifold.c); each must be the
     * rim point at its angle k 2 pi / 16. A cylinder tilted 0.05 rad so that
     * its lowest rim point is sample k exactly: the deepest manifold point is
     * that sample (its neighbours stand 1.5 mm higher, far beyond the
     * reduction's tie), at r (cos, sin) of the angle computed here. */
    const double rad = 0.4, hh = 0.3, pen = 0.01;
    for (int k = 0; k < MK_MANIFOLD_RING_SAMPLES; ++k) {
        const double theta = k * (2 * PI / MK_MANIFOLD_RING_SAMPLES);
        /* tilt about the horizontal axis a quarter turn from theta */
        mk_transform xf = axis_angle(V(0, 0, 0), V(cos(theta + PI / 2), sin(theta + PI / 2), 0), 0.05);
        mk_vec3 down = mk_rotate_inv(&xf.R, V(0, 0, -1));
        double phi = atan2(down.y, down.x), diff = remainder(phi - theta, 2 * PI);
        if (fabs(diff) > 1e-9) {
            xf = axis_angle(V(0, 0, 0), V(cos(theta - PI / 2), sin(theta - PI / 2), 0), 0.05);
            down = mk_rotate_inv(&xf.R, V(0, 0, -1));
            phi = atan2(down.y, down.x);
            diff = remainder(phi - theta, 2 * PI);
        }
        ck_assert_msg(fabs(diff) <= 1e-9, "sample %d: tilt toward %.17g, not %.17g", k, phi, theta);
        const mk_vec3 sample = V(rad * cos(theta), rad * sin(theta), -hh);
        const mk_vec3 low = mk_transform_point(&xf, sample);
        xf.p = V(0.3, -0.2, -low.z - pen);
        scene s;
        mk_manifold m;
        cylinder_on_ground(xf, rad, hh, pen, &s, &m);
        int deepest = 0;
        for (int i = 1; i < m.count; ++i)
            if (m.points[i].depth > m.points[deepest].depth)
                deepest = i;
        const mk_vec3 want = mk_transform_point(&xf, sample);
        ck_assert_msg(dist(m.points[deepest].point_a, want) <= 2e-15, "sample %d: deepest point %.3g off the rim",
                      k, dist(m.points[deepest].point_a, want));
        ck_assert_double_eq_tol(m.points[deepest].depth, pen, 1e-12);
    }
}
END_TEST

START_TEST(reference_face_prefers_a_on_ties)
{
    /* Equally aligned faces: A's face is the reference in both argument orders
     * (id bit 31 clear). B's face clearly better aligned (A tilted 0.05 rad):
     * B's face is the reference (bit 31 set), in both orders too. */
    for (int tilted = 0; tilted < 2; ++tilted) {
        for (int swap = 0; swap < 2; ++swap) {
            scene s;
            make_scene(SC_BOX_FLAT, &s);
            if (tilted) {
                mk_transform xf = axis_angle(V(0, 0, 0), V(1, 0, 0), 0.05);
                double second;
                mk_vec3 low = lowest_corner(V(0.5, 0.4, 0.3), &xf, &second);
                xf.p = V(0, 0, -low.z - 0.01);
                s.xa = xf;
            }
            mk_manifold m;
            ck_assert_int_eq(run_scene(&s, swap, 0.1, &m), MK_OK);
            ck_assert_int_ge(m.count, 1);
            /* the ground's face is the reference when tilted: it is B unswapped */
            int expect_flip = tilted ? !swap : 0;
            for (int i = 0; i < m.count; ++i)
                ck_assert_msg((int)(m.points[i].id >> 31) == expect_flip, "tilted %d swap %d id %08x", tilted, swap,
                              m.points[i].id);
        }
    }
}
END_TEST


/* ------------------------------------------------------------ faces through a vertex */

/* Rotation taking unit u to unit w (about u x w; a half turn about any
 * perpendicular when they are opposite). */
static mk_transform rotate_onto(mk_vec3 u, mk_vec3 w)
{
    mk_vec3 ax = V(u.y * w.z - u.z * w.y, u.z * w.x - u.x * w.z, u.x * w.y - u.y * w.x);
    double c = dot(u, w), sn = len(ax);
    if (sn < 1e-12) {
        if (c > 0)
            return at(V(0, 0, 0));
        ax = fabs(u.x) < 0.6 ? V(0, -u.z, u.y) : V(-u.z, 0, u.x);
    }
    return axis_angle(V(0, 0, 0), ax, atan2(sn, c));
}

/* A local direction of hull h that makes faces tie (kind 1..4) or not (0):
 * 0 random; 1 a face normal; 2 the bisector of two faces sharing a vertex
 * (equal alignments); 3 that bisector tilted by 3e-5 rad (within the face
 * tie, not an exact tie); 4 the mean normal of every face through a vertex. */
static mk_vec3 tie_direction(const mk_hull *h, int kind, rng *r)
{
    int f = (int)uni(r, 0, h->num_faces);
    int fs = h->face_start[f], fe = h->face_start[f + 1];
    int v = h->face_vertices[fs + (int)uni(r, 0, fe - fs)];
    /* faces through v, by brute force over the face lists */
    int through[64], nt = 0;
    for (int g = 0; g < h->num_faces && nt < 64; ++g)
        for (int j = h->face_start[g]; j < h->face_start[g + 1]; ++j)
            if (h->face_vertices[j] == v)
                through[nt++] = g;
    int g = through[(int)uni(r, 0, nt)];
    if (g == f)
        g = through[(int)uni(r, 0, nt)];
    switch (kind) {
    case 1:
        return h->face_normals[f];
    case 2:
        return unit(add(h->face_normals[f], h->face_normals[g]));
    case 3:
        return unit(add(unit(add(h->face_normals[f], h->face_normals[g])), scl(rand_unit(r), 3e-5)));
    case 4: {
        mk_vec3 m = V(0, 0, 0);
        for (int k = 0; k < nt; ++k)
            m = add(m, h->face_normals[through[k]]);
        return len(m) > 1e-9 ? unit(m) : h->face_normals[f];
    }
    default:
        return rand_unit(r);
    }
}

/* The faces through each vertex (mk_hull_create's map) only speed up the
 * search for the reference and incident faces: a copy of the same hull
 * without the map (the full scan of every face list) gives bit-identical
 * manifolds (points, ids: reference and incident face indices, normals),
 * for hull pairs whose normal ties faces of A and of B: face normals,
 * bisectors of neighbouring faces, those tilted within the tie, vertex mean
 * normals, and random directions; on hulls scanned linearly and climbed, and
 * prisms (many exact ties). Removing the index order of the map (the tie
 * rule "lower face index") makes this fail. */
START_TEST(vertex_face_map_matches_full_scan)
{
    rng r = {or_test_seed(0x5eedface)};
    mk_vec3 pts[400];
    const int sizes[] = {12, 40, 100, 400};
    long cases = 0, faces = 0;
    for (int hi = 0; hi < 6; ++hi) {
        int n;
        if (hi < 4) {
            n = sizes[hi];
            for (int i = 0; i < n; ++i)
                pts[i] = scl(rand_unit(&r), 0.5);
        } else {
            /* prisms with 24 and 40 sides: 48 (scanned) and 80 (climbed) vertices */
            int sides = hi == 4 ? 24 : 40;
            n = 2 * sides;
            for (int i = 0; i < sides; ++i)
                for (int z = 0; z < 2; ++z)
                    pts[2 * i + z] = V(0.5 * cos(2 * PI * i / sides), 0.5 * sin(2 * PI * i / sides), z ? 0.3 : -0.3);
        }
        mk_hull *h = NULL;
        ck_assert_int_eq(mk_hull_create(pts, n, &h), MK_OK);
        ck_assert_ptr_nonnull(h->vert_face_start);
        mk_hull bare = *h;
        bare.vert_face_start = NULL;
        bare.vert_faces = NULL;
        mk_shape with_map, without_map;
        ck_assert_int_eq(mk_shape_hull(&with_map, h, 0.01), MK_OK);
        ck_assert_int_eq(mk_shape_hull(&without_map, &bare, 0.01), MK_OK);
        const int reps = scaled(400);
        for (int k = 0; k < reps; ++k) {
            /* A at the identity: the normal n ties A's faces; B turned so
             * that -n ties B's faces, then spun about n */
            mk_vec3 n = tie_direction(h, k % 5, &r);
            mk_vec3 db = tie_direction(h, (k / 5) % 5, &r);
            mk_transform xb = compose(axis_angle(V(0, 0, 0), n, k % 7 == 0 ? 0 : uni(&r, 0, 2 * PI)),
                                      rotate_onto(db, scl(n, -1)));
            /* B placed so the supports meet, overlapping by 0..2 mm */
            double sa = -INFINITY, sb = INFINITY;
            for (int v = 0; v < h->num_vertices; ++v) {
                sa = fmax(sa, dot(n, h->vertices[v]));
                sb = fmin(sb, dot(n, mk_transform_point(&xb, h->vertices[v])));
            }
            double sd = -uni(&r, 0, 0.002);
            xb.p = scl(n, sa - sb + sd + 0.02); /* + the two radii */
            mk_transform xa = at(V(0, 0, 0));
            mk_pair p1 = {&with_map, xa, &with_map, xb}, p2 = {&without_map, xa, &without_map, xb};
            mk_manifold_settings st = mk_manifold_default_settings();
            st.speculative_distance = 0.005;
            mk_contact_patch_result m1, m2;
            mk_status s1 = mk_contact_patch(&p1, n, sd, &st, MK_MANIFOLD_MAX_PATCH_POINTS, &m1);
            mk_status s2 = mk_contact_patch(&p2, n, sd, &st, MK_MANIFOLD_MAX_PATCH_POINTS, &m2);
            ck_assert_int_eq(s1, MK_OK);
            ck_assert_int_eq(s2, MK_OK);
            ck_assert_int_eq(m1.count, m2.count);
            ck_assert_msg(m1.normal.x == m2.normal.x && m1.normal.y == m2.normal.y && m1.normal.z == m2.normal.z,
                          "hull %d case %d: normals differ", hi, k);
            for (int i = 0; i < m1.count; ++i) {
                const mk_manifold_point *a = &m1.points[i], *b = &m2.points[i];
                ck_assert_msg(a->id == b->id, "hull %d case %d point %d: id %08x vs %08x", hi, k, i, a->id, b->id);
                ck_assert(a->point_a.x == b->point_a.x && a->point_a.y == b->point_a.y && a->point_a.z == b->point_a.z);
                ck_assert(a->point_b.x == b->point_b.x && a->point_b.y == b->point_b.y && a->point_b.z == b->point_b.z);
                ck_assert(a->separation == b->separation);
            }
            /* face contacts (a clipped point's low id byte is a clip plane or
             * a vertex tag, not a line / point code) */
            faces += m1.count > 0 && (m1.points[0].id & 0xFF) < 0xF0;
            ++cases;
        }
        mk_hull_destroy(h);
    }
    ck_assert_int_eq(cases, 6L * scaled(400));
    ck_assert_msg(faces > cases / 10, "only %ld of %ld cases were face contacts", faces, cases);
}
END_TEST

/* ------------------------------------------------------------ independent oracles */

/* Tolerance on the deepest point: the reduction may keep a point within its
 * depth tie (1e-4 x the smaller shape's size) for id stability, and a face
 * contact may differ from the caller's depth by 1e-5 x size. */
static double depth_tol(const mk_shape *a, const mk_shape *b)
{
    mk_vec3 lo, hi;
    mk_shape_local_aabb(a, &lo, &hi);
    double ea = 0.5 * fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
    mk_shape_local_aabb(b, &lo, &hi);
    double eb = 0.5 * fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
    return 1.1e-4 * fmin(ea, eb) + 1e-9;
}

static mk_vec3 column(const mk_transform *x, int i) { return V(x->R.m[0][i], x->R.m[1][i], x->R.m[2][i]); }
static mk_vec3 cross(mk_vec3 a, mk_vec3 b) { return V(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }

/* Penetration depth and normal (A to B) of two boxes by the separating axis
 * theorem: the smallest overlap over the 15 face and edge-edge axes. */
static double sat_boxes(const mk_transform *a, mk_vec3 ha, const mk_transform *b, mk_vec3 hb, mk_vec3 *n_out)
{
    mk_vec3 ax[15];
    int k = 0;
    for (int i = 0; i < 3; ++i)
        ax[k++] = column(a, i);
    for (int i = 0; i < 3; ++i)
        ax[k++] = column(b, i);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            ax[k++] = cross(column(a, i), column(b, j));
    double hav[3] = {ha.x, ha.y, ha.z}, hbv[3] = {hb.x, hb.y, hb.z}, best = 1e300;
    mk_vec3 d = sub(b->p, a->p);
    for (int i = 0; i < 15; ++i) {
        double l = len(ax[i]);
        if (l < 1e-6)
            continue;
        mk_vec3 n = scl(ax[i], 1 / l);
        double c = dot(d, n);
        if (c < 0) {
            n = scl(n, -1);
            c = -c;
        }
        double ra = 0, rb = 0;
        for (int j = 0; j < 3; ++j) {
            ra += fabs(dot(column(a, j), n)) * hav[j];
            rb += fabs(dot(column(b, j), n)) * hbv[j];
        }
        if (ra + rb - c < best) {
            best = ra + rb - c;
            *n_out = n;
        }
    }
    return best;
}

START_TEST(overlapping_boxes_match_sat_oracle)
{
    /* Random overlapping boxes (any orientation, and nearly aligned ones as in
     * stacks), normal and depth from SAT: the deepest point matches the SAT
     * depth, no point is deeper, every pair lies on the two surfaces. */
    rng r = {or_test_seed(0x5A7)};
    int n = scaled(4000), done = 0;
    for (int it = 0; it < 20 * n && done < n; ++it) {
        mk_vec3 ha = V(uni(&r, 0.1, 0.6), uni(&r, 0.1, 0.6), uni(&r, 0.1, 0.6));
        mk_vec3 hb = V(uni(&r, 0.1, 0.6), uni(&r, 0.1, 0.6), uni(&r, 0.1, 0.6));
        mk_transform xa = axis_angle(V(0, 0, 0), rand_unit(&r), uni(&r, 0, 2 * PI));
        mk_transform xb = it % 2 ? axis_angle(V(0, 0, 0), rand_unit(&r), uni(&r, 0, 2 * PI))
                                 : compose(xa, axis_angle(V(0, 0, 0), rand_unit(&r), uni(&r, 0, 0.02)));
        xb.p = V(uni(&r, -1, 1), uni(&r, -1, 1), uni(&r, -1, 1));
        mk_vec3 nrm;
        double depth = sat_boxes(&xa, ha, &xb, hb, &nrm);
        if (depth <= 1e-4 || depth > 0.2)
            continue;
        ++done;
        mk_shape a, b;
        mk_shape_box(&a, ha, 0);
        mk_shape_box(&b, hb, 0);
        mk_pair p = {&a, xa, &b, xb};
        mk_manifold_settings st = {0.02};
        mk_manifold m;
        ck_assert_int_eq(mk_contact_manifold(&p, nrm, -depth, &st, &m), MK_OK);
        check_common(&m, nrm, 0.02);
        ck_assert_int_ge(m.count, 1);
        double tol = depth_tol(&a, &b), deepest = -1e300;
        for (int i = 0; i < m.count; ++i) {
            deepest = fmax(deepest, m.points[i].depth);
            ck_assert_double_le(m.points[i].depth, depth + tol);
            ck_assert(pair_on_shapes(&a, &xa, &b, &xb, &m, i, 1e-9));
        }
        ck_assert_double_eq_tol(deepest, depth, tol);
    }
    ck_assert_int_eq(done, n);
}
END_TEST

/* Two boxes: the dedicated path (mk_manifold_box_box, which the collide
 * pipeline uses for every box pair) gives mk_contact_patch's points, ids and
 * order, up to rounding, whenever it answers; and it answers every face
 * contact: stacked boxes (exactly aligned, yawed, rocking), boxes dropped at
 * random onto a face, and random overlaps with the SAT normal; rounded boxes,
 * capacities 4 to 8, speculative distances 0 to 2 cm. A random normal
 * (not a contact normal) must not change the agreement either. */
START_TEST(box_fast_path_matches_general)
{
    rng r = {or_test_seed(0xB0B0)};
    int n = scaled(12000), answered = 0, face_cases = 0, face_answered = 0, compared_points = 0, ties = 0;
    for (int it = 0; it < n; ++it) {
        const int kind = it % 4; /* 0 aligned stack, 1 rocking / yawed stack, 2 random overlap, 3 random normal */
        mk_vec3 ha = V(uni(&r, 0.05, 0.5), uni(&r, 0.05, 0.5), uni(&r, 0.05, 0.5));
        mk_vec3 hb = it % 8 == 0 ? ha : V(uni(&r, 0.05, 0.5), uni(&r, 0.05, 0.5), uni(&r, 0.05, 0.5));
        const double ra = it % 3 == 0 ? uni(&r, 0, 0.02) : 0, rb = it % 5 == 0 ? uni(&r, 0, 0.02) : 0;
        mk_transform xa = axis_angle(V(uni(&r, -2, 2), uni(&r, -2, 2), uni(&r, -2, 2)), rand_unit(&r),
                                     uni(&r, 0, 2 * PI));
        mk_transform xb;
        mk_vec3 nrm;
        double sd;
        if (kind <= 1) {
            /* B on A's top face (A's local +z), sinking by up to 5 mm or up to
             * 3 mm above; yaw and (kind 1) a rocking tilt. */
            const double gap = uni(&r, -0.005, 0.003);
            mk_transform local = at(V(kind ? uni(&r, -0.5, 0.5) * ha.x : 0, kind ? uni(&r, -0.5, 0.5) * ha.y : 0,
                                      ha.z + hb.z + ra + rb + gap));
            if (kind == 1) {
                mk_transform yaw = axis_angle(V(0, 0, 0), V(0, 0, 1), uni(&r, -0.8, 0.8));
                mk_transform tilt = axis_angle(V(0, 0, 0), V(uni(&r, -1, 1), uni(&r, -1, 1), 0), uni(&r, 0, 0.02));
                mk_vec3 pos = local.p;
                local = compose(tilt, yaw);
                local.p = pos;
            }
            xb = compose(xa, local);
            nrm = mk_rotate(&xa.R, V(0, 0, 1));
            sd = gap;
        } else {
            xb = axis_angle(add(xa.p, scl(rand_unit(&r), uni(&r, 0.1, 0.9))), rand_unit(&r), uni(&r, 0, 2 * PI));
            double depth = sat_boxes(&xa, ha, &xb, hb, &nrm);
            if (depth <= 0)
                continue;
            sd = -depth - ra - rb;
            if (kind == 3)
                nrm = rand_unit(&r);
        }
        mk_shape a, b;
        mk_shape_box(&a, ha, ra);
        mk_shape_box(&b, hb, rb);
        mk_pair p = {&a, xa, &b, xb};
        const double spec = (it / 4) % 2 ? 0.02 : 0;
        const int cap = 4 + it % 5;
        mk_manifold_settings ms = {spec};
        mk_contact_patch_result g;
        ck_assert_int_eq(mk_contact_patch(&p, nrm, sd, &ms, cap, &g), MK_OK);
        mk_manifold_point pts[MK_MANIFOLD_MAX_PATCH_POINTS];
        mk_vec3 fn;
        int count = -1;
        const int got = mk_manifold_box_box(&p, nrm, sd, spec, cap, &fn, pts, &count);
        /* Face clips carry box faces (0..5) as their reference and incident
         * features in the id, and a low byte that is not a line / anchor /
         * midpoint / safety code (an edge clipped over a face after the face
         * path turned the pair down has an edge, 8..19, as its incident). */
        const unsigned low = g.count > 0 ? g.points[0].id & 0xFF : 0;
        const int face_clip = g.count > 0 && ((g.points[0].id >> 24) & 0x7F) < 6 &&
                              ((g.points[0].id >> 16) & 0xFF) < 6 && !(low >= 0xF9 && low <= 0xFD);
        face_cases += kind <= 1 && face_clip;
        face_answered += kind <= 1 && face_clip && got;
        if (!got) {
            ck_assert_int_eq(count, 0);
            continue;
        }
        ++answered;
        char what[96];
        snprintf(what, sizeof what, "case %d (kind %d, cap %d)", it, kind, cap);
        ck_assert_msg(dist(fn, g.normal) <= 1e-12, "%s: normal", what);
        const double tol = 1e-9 * (1 + len(xa.p) + len(xb.p));
        /* Equal boxes exactly stacked put incident corners and edges exactly
         * on the reference's side planes: there rounding decides whether a
         * corner is kept as itself or as its clip crossing (same place,
         * another id), where along an edge lying in a side plane its crossing
         * falls, and so how many points there are and which the reduction
         * keeps. Only there the deepest separation is compared instead of
         * the points. */
        if (kind == 0 && it % 8 == 0 && count > 0) {
            double fmin_sep = 1e300, gmin_sep = 1e300;
            for (int i = 0; i < count; ++i) {
                fmin_sep = fmin(fmin_sep, pts[i].separation);
                gmin_sep = fmin(gmin_sep, g.points[i].separation);
            }
            ck_assert_msg(fabs(fmin_sep - gmin_sep) <= tol, "%s: deepest %.17g, general %.17g", what, fmin_sep,
                          gmin_sep);
            ck_assert_msg(g.count >= 1, "%s: %d points, general none", what, count);
            ++ties;
            continue;
        }
        ck_assert_msg(count == g.count, "%s: %d points, general %d", what, count, g.count);
        for (int i = 0; i < count; ++i) {
            const int j = i;
            ck_assert_msg(pts[i].id == g.points[i].id, "%s: point %d id %08x, general %08x", what, i, pts[i].id,
                          g.points[i].id);
            ck_assert_msg(dist(pts[i].point_a, g.points[j].point_a) <= tol &&
                              dist(pts[i].point_b, g.points[j].point_b) <= tol &&
                              dist(pts[i].position, g.points[j].position) <= tol,
                          "%s: point %d moved by %g", what, i, dist(pts[i].position, g.points[j].position));
            ck_assert_msg(fabs(pts[i].separation - g.points[j].separation) <= tol &&
                              pts[i].depth == -pts[i].separation,
                          "%s: point %d separation %.17g, general %.17g", what, i, pts[i].separation,
                          g.points[j].separation);
            ++compared_points;
        }
    }
    printf("box fast path: answered %d of %d cases (%d points compared; %d exactly stacked equal boxes compared "
           "by depth); stacked face contacts %d of %d\n",
           answered, n, compared_points, ties, face_answered, face_cases);
    fflush(stdout);
    /* Every stacked face contact the general path clips, the fast path answers. */
    ck_assert_int_eq(face_answered, face_cases);
    ck_assert_int_ge(face_cases, n / 5);
    ck_assert_int_ge(answered, n / 3);
}
END_TEST

/* The box path tries the other box's face when the preferred one misses the
 * contact, as the general path does: B (larger, rocked by a few mrad) 0.78 mm
 * above A's top face, A's face exactly along the normal and preferred; B's
 * lowest corner lies beyond A's face, so A's face misses the depth by more
 * than the check and B's face holds the contact. The box path gave up there
 * and the general path answered (found by box_fast_path_matches_general at
 * MK_TEST_SCALE=100, its case 478229, whose poses these are). */
START_TEST(box_fast_path_takes_the_other_face)
{
    const mk_vec3 ha = V(0.31990410114253287, 0.081016708949333452, 0.11479375342886466);
    const mk_vec3 hb = V(0.39333319132566863, 0.4114299493308976, 0.37461274053712529);
    const mk_transform xa = {{{{0.63101593038599546, -0.76420599016128177, -0.13344699397405504},
                               {0.77384862934224652, 0.60797142244645086, 0.1775642091007236},
                               {-0.054563673485414153, -0.21531361798561208, 0.97501941080458654}}},
                             {1.182979558912415, -0.86005202241581014, -1.8562518670906831}};
    const mk_transform xb = {{{{0.010430141338908374, -0.99100154282355934, -0.13344344971925404},
                               {0.98401431067353284, -0.013554493006302761, 0.17757283606743959},
                               {-0.1777837128123442, -0.13316237396752423, 0.97501832476009975}}},
                             {1.0369127387839487, -0.81386363552554108, -1.3819089840637031}};
    const mk_vec3 nrm = column(&xa, 2); /* A's top face */
    const double sd = 0.00078060681562676631, spec = 0.02;
    mk_shape a, b;
    mk_shape_box(&a, ha, 0);
    mk_shape_box(&b, hb, 0);
    const mk_pair p = {&a, xa, &b, xb};
    mk_manifold_settings ms = {spec};
    mk_contact_patch_result g;
    ck_assert_int_eq(mk_contact_patch(&p, nrm, sd, &ms, 8, &g), MK_OK);
    ck_assert_int_eq(g.count, 4);
    ck_assert_uint_eq(g.points[0].id >> 31, 1); /* the general path took B's face */
    mk_manifold_point pts[MK_MANIFOLD_MAX_PATCH_POINTS];
    mk_vec3 fn;
    int count = -1;
    ck_assert_int_eq(mk_manifold_box_box(&p, nrm, sd, spec, 8, &fn, pts, &count), 1);
    ck_assert_int_eq(count, g.count);
    ck_assert(dist(fn, g.normal) <= 1e-12);
    for (int i = 0; i < count; ++i) {
        ck_assert_uint_eq(pts[i].id, g.points[i].id);
        ck_assert(dist(pts[i].position, g.points[i].position) <= 1e-12);
        ck_assert_double_eq_tol(pts[i].separation, g.points[i].separation, 1e-12);
    }
}
END_TEST

START_TEST(separated_pairs_match_gjk)
{
    /* Every shape type against every other, separated, with GJK's normal and
     * distance: the smallest separation is the distance, none is smaller, and
     * the pairs lie on the shapes (where an exact oracle exists). */
    rng r = {or_test_seed(0xD15)};
    cube_hull ch;
    cube_hull_init(&ch, 0.35);
    mk_shape sh[9];
    mk_shape_sphere(&sh[0], 0.3);
    mk_shape_box(&sh[1], V(0.3, 0.5, 0.2), 0);
    mk_shape_box(&sh[2], V(0.3, 0.3, 0.3), 0.05);
    mk_shape_capsule(&sh[3], 0.2, 0.4);
    mk_shape_cylinder(&sh[4], 0.3, 0.4, 0);
    mk_shape_cone(&sh[5], 0.3, 0.4, 0);
    mk_shape_ellipsoid(&sh[6], V(0.4, 0.2, 0.3));
    mk_shape_cylinder(&sh[7], 0.5, 0.1, 0);
    mk_shape_hull(&sh[8], &ch.hull, 0.02);
    mk_gjk_settings gs = mk_gjk_default_settings();
    gs.tolerance = 1e-14;
    gs.max_iterations = 1000;
    int n = scaled(8000), done = 0;
    for (int it = 0; it < 20 * n && done < n; ++it) {
        const mk_shape *a = &sh[it % 9], *b = &sh[(it / 9) % 9];
        mk_pair p = {a, axis_angle(V(0, 0, 0), rand_unit(&r), uni(&r, 0, 2 * PI)), b,
                     axis_angle(V(uni(&r, -1, 1), uni(&r, -1, 1), uni(&r, -1, 1)), rand_unit(&r), uni(&r, 0, 2 * PI))};
        mk_gjk_result g;
        if (mk_gjk_distance(&p, &gs, NULL, &g) != MK_GJK_SEPARATED || g.distance < 1e-3 || g.distance > 0.3)
            continue;
        ++done;
        mk_manifold_settings st = {g.distance + 0.05};
        mk_manifold m;
        ck_assert_int_eq(mk_contact_manifold(&p, g.normal, g.distance, &st, &m), MK_OK);
        check_common(&m, g.normal, st.speculative_distance);
        ck_assert_int_ge(m.count, 1);
        /* GJK's normal is good to ~1e-5 rad at this tolerance: single-point
         * positions follow it (times r / sin(angle) for a rim point seen nearly
         * along its axis), separations far less. */
        double tol = depth_tol(a, b) + 1e-7, smallest = 1e300;
        for (int i = 0; i < m.count; ++i) {
            smallest = fmin(smallest, m.points[i].separation);
            ck_assert_double_ge(m.points[i].separation, g.distance - tol);
            ck_assert_msg(pair_on_shapes(a, &p.xf_a, b, &p.xf_b, &m, i, 1e-4), "types %d %d: off the shapes", a->type,
                          b->type);
        }
        ck_assert_msg(fabs(smallest - g.distance) <= tol, "types %d %d: smallest %.9g distance %.9g", a->type, b->type,
                      smallest, g.distance);
    }
    ck_assert_int_eq(done, n);
}
END_TEST

/* ------------------------------------------------------------ speculative distance, bad input */

START_TEST(speculative_distance)
{
    /* 0.03 apart: nothing by default, four speculative points with 0.05. */
    scene s;
    scene_init(&s, V(0, 0, -1), 0.03);
    mk_shape_box(&s.a, V(0.5, 0.5, 0.5), 0);
    s.xa = at(V(0, 0, 0.53));
    ground_b(&s, 5);
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    ck_assert_int_eq(m.count, 0);
    ck_assert_int_eq(run_scene(&s, 0, 0.05, &m), MK_OK);
    check_common(&m, s.n, 0.05);
    ck_assert_int_eq(m.count, 4);
    for (int i = 0; i < 4; ++i)
        ck_assert_double_eq_tol(m.points[i].separation, 0.03, 1e-12);
    /* Exactly touching: kept with the default. */
    s.xa = at(V(0, 0, 0.5));
    s.sd = 0;
    ck_assert_int_eq(run_scene(&s, 0, 0, &m), MK_OK);
    ck_assert_int_eq(m.count, 4);
}
END_TEST

START_TEST(reduction_keeps_deepest_and_area)
{
    /* A box turned 45 degrees over a smaller box face: the overlap is an
     * octagon (8 clipped points), reduced to 4 that include the deepest point
     * and span a large part of the overlap. A slight tilt makes one side deeper. */
    mk_transform xf = axis_angle(V(0, 0, 0), V(0, 0, 1), PI / 4);
    xf = compose(axis_angle(V(0, 0, 0), V(1, 0, 0), 0.01), xf);
    /* Height of A's bottom plane over (x, y), A placed with its centre at z = 0. */
    mk_vec3 nrm = mk_rotate(&xf.R, V(0, 0, -1)), pt = mk_transform_point(&xf, V(0, 0, -0.3));
    /* The deepest overlap point is an octagon vertex, on the boundary of B's
     * square inside A's footprint: brute force along that boundary. */
    double lowest = 1e300;
    for (int e = 0; e < 4; ++e)
        for (int i = 0; i <= 200000; ++i) {
            double t = -0.45 + 0.9 * i / 200000;
            double x = e == 0 ? t : (e == 1 ? t : (e == 2 ? -0.45 : 0.45));
            double y = e == 0 ? -0.45 : (e == 1 ? 0.45 : t);
            double z = pt.z - (nrm.x * (x - pt.x) + nrm.y * (y - pt.y)) / nrm.z;
            mk_vec3 q = mk_rotate_inv(&xf.R, V(x, y, z));
            if (fabs(q.x) <= 0.5 && fabs(q.y) <= 0.5)
                lowest = fmin(lowest, z);
        }
    const double pen = 0.02;
    xf.p = V(0, 0, -lowest - pen);
    scene s;
    scene_init(&s, V(0, 0, -1), -pen);
    mk_shape_box(&s.a, V(0.5, 0.5, 0.3), 0);
    s.xa = xf;
    mk_shape_box(&s.b, V(0.45, 0.45, 1), 0);
    s.xb = at(V(0, 0, -1));
    mk_manifold m;
    ck_assert_int_eq(run_scene(&s, 0, 0.05, &m), MK_OK);
    check_common(&m, s.n, 0.05);
    ck_assert_int_eq(m.count, 4);
    double deepest = 0;
    for (int i = 0; i < 4; ++i)
        deepest = fmax(deepest, m.points[i].depth);
    ck_assert_double_eq_tol(deepest, pen, 1e-6);
    /* Quad area against the octagon's (exact for the untilted case: square
     * 0.9^2 minus 4 corners cut by the 45-degree square). The best quad on the
     * octagon's vertices covers 73% of it. The points come in id order: the
     * quad's area is the largest over its three vertex orders. */
    double area = 0;
    static const int order[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 1, 3, 2}};
    for (int o = 0; o < 3; ++o) {
        double a = 0;
        for (int i = 0; i < 4; ++i) {
            mk_vec3 p = m.points[order[o][i]].position, q = m.points[order[o][(i + 1) % 4]].position;
            a += 0.5 * (p.x * q.y - q.x * p.y);
        }
        area = fmax(area, fabs(a));
    }
    double cut = 0.45 + 0.45 - 0.5 * sqrt(2.0);
    double octagon = 0.81 - 4 * 0.5 * cut * cut;
    ck_assert_double_ge(fabs(area), 0.7 * octagon);
    check_on_surfaces(&s, &m, 1e-9);
}
END_TEST

START_TEST(yawed_box_on_box_keeps_ids_under_rocking)
{
    /* Regression: a box yawed 0.05 rad on an equal box (the demo's 10-high
     * stack) overlaps it in an octagon, two points near each corner. The
     * reduction used to start from the deepest of the eight; in a resting
     * stack the boxes rock by a few 1e-4 rad, the deepest hopped from corner
     * to corner and the four kept points with it (311 changes in 2400 ODE
     * steps for one pair), and the stack never came to rest. Here the upper
     * box rocks by up to 3e-4 rad and moves by 2e-5 m; normal and depth come
     * from the separating-axis oracle. The ids must not change, and the
     * deepest kept point must stay within the depth tie of the oracle. */
    const mk_vec3 h = V(0.1, 0.1, 0.1);
    const mk_transform xa = at(V(0, 0, 0.1));
    const mk_transform yawed = axis_angle(V(0.001, 0.002, 0.3 - 0.0012), V(0, 0, 1), 0.05);
    mk_shape a, b;
    mk_shape_box(&a, h, 0);
    mk_shape_box(&b, h, 0);
    rng r = {or_test_seed(77)};
    mk_manifold m0 = {0};
    int changes_of_deepest = 0, last_deepest = -1;
    for (int rep = 0; rep <= 300; ++rep) {
        mk_transform xb = yawed;
        if (rep > 0) {
            double t = uni(&r, 0, 2 * PI);
            mk_transform tilt = axis_angle(V(0, 0, 0), V(cos(t), sin(t), 0), uni(&r, 0, 3e-4));
            xb = compose(tilt, yawed);
            xb.p = add(yawed.p, V(uni(&r, -2e-5, 2e-5), uni(&r, -2e-5, 2e-5), uni(&r, -2e-5, 2e-5)));
        }
        mk_vec3 n;
        double depth = sat_boxes(&xa, h, &xb, h, &n);
        mk_pair p = {&a, xa, &b, xb};
        mk_manifold m;
        ck_assert_int_eq(mk_contact_manifold(&p, n, -depth, NULL, &m), MK_OK);
        ck_assert_int_eq(m.count, 4);
        double deepest = 0;
        int at_deepest = 0;
        for (int i = 0; i < 4; ++i)
            if (m.points[i].depth > deepest) {
                deepest = m.points[i].depth;
                at_deepest = (int)m.points[i].id;
            }
        ck_assert_double_eq_tol(deepest, depth, depth_tol(&a, &b));
        changes_of_deepest += rep > 1 && at_deepest != last_deepest;
        last_deepest = at_deepest;
        if (rep == 0)
            m0 = m;
        else
            ck_assert_msg(same_ids(&m0, &m), "rep %d: the kept points changed", rep);
        /* the same points in the same order */
        for (int i = 0; i < 4; ++i)
            ck_assert_uint_eq(m.points[i].id, m0.points[i].id);
    }
    /* The rocking is large enough to move the deepest point around the patch. */
    ck_assert_int_ge(changes_of_deepest, 50);
}
END_TEST

/* 2D crossing of segments p0-p1 and q0-q1 (x, y only); 1 when they cross. */
static int cross2d(mk_vec3 p0, mk_vec3 p1, mk_vec3 q0, mk_vec3 q1, mk_vec3 *x)
{
    double rx = p1.x - p0.x, ry = p1.y - p0.y, sx = q1.x - q0.x, sy = q1.y - q0.y;
    double den = rx * sy - ry * sx;
    if (fabs(den) < 1e-15)
        return 0;
    double t = ((q0.x - p0.x) * sy - (q0.y - p0.y) * sx) / den, u = ((q0.x - p0.x) * ry - (q0.y - p0.y) * rx) / den;
    if (t < 0 || t > 1 || u < 0 || u > 1)
        return 0;
    *x = V(p0.x + t * rx, p0.y + t * ry, 0);
    return 1;
}

START_TEST(patch_gives_the_whole_octagon)
{
    /* The yawed box on a box of the stack: mk_contact_patch with room for 8
     * returns the 8 vertices of the overlap octagon, each the crossing of an
     * edge of the lower box's top square with an edge of the upper box's
     * bottom square (computed here in 2D), all 1.2 mm deep; its points
     * include mk_contact_manifold's four (same ids, same positions), and with
     * room for 4 it is mk_contact_manifold. */
    const mk_vec3 h = V(0.1, 0.1, 0.1);
    const mk_transform xa = at(V(0, 0, 0.1));
    const mk_transform xb = axis_angle(V(0.001, 0.002, 0.3 - 0.0012), V(0, 0, 1), 0.05);
    mk_shape a, b;
    mk_shape_box(&a, h, 0);
    mk_shape_box(&b, h, 0);
    mk_vec3 sa[4], sb[4];
    for (int k = 0; k < 4; ++k) {
        mk_vec3 c = V(k == 0 || k == 3 ? -0.1 : 0.1, k < 2 ? -0.1 : 0.1, 0);
        sa[k] = c;
        sb[k] = mk_transform_point(&xb, V(c.x, c.y, -0.1));
    }
    mk_vec3 oct[16];
    int no = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            no += no < 16 && cross2d(sa[i], sa[(i + 1) % 4], sb[j], sb[(j + 1) % 4], &oct[no]);
    ck_assert_int_eq(no, 8);
    mk_pair p = {&a, xa, &b, xb};
    mk_contact_patch_result r;
    ck_assert_int_eq(mk_contact_patch(&p, V(0, 0, 1), -0.0012, NULL, 8, &r), MK_OK);
    ck_assert_int_eq(r.count, 8);
    ck_assert_double_eq_tol(r.normal.z, 1, 1e-12);
    for (int i = 0; i < 8; ++i) {
        const mk_manifold_point *q = &r.points[i];
        ck_assert_double_eq_tol(q->depth, 0.0012, 1e-9);
        ck_assert_double_eq_tol(q->point_a.z, 0.2, 1e-12);
        int found = 0;
        for (int k = 0; k < 8; ++k)
            found += hypot(q->point_a.x - oct[k].x, q->point_a.y - oct[k].y) < 1e-9;
        ck_assert_int_eq(found, 1);
        for (int j = 0; j < i; ++j)
            ck_assert_uint_lt(r.points[j].id, q->id); /* distinct, in id order */
    }
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, V(0, 0, 1), -0.0012, NULL, &m), MK_OK);
    ck_assert_int_eq(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        int found = 0;
        for (int k = 0; k < 8; ++k)
            found += r.points[k].id == m.points[i].id && dist(r.points[k].position, m.points[i].position) < 1e-15;
        ck_assert_int_eq(found, 1);
    }
    ck_assert_int_eq(mk_contact_patch(&p, V(0, 0, 1), -0.0012, NULL, 4, &r), MK_OK);
    ck_assert_int_eq(r.count, 4);
    for (int i = 0; i < 4; ++i) {
        ck_assert_uint_eq(r.points[i].id, m.points[i].id);
        ck_assert(dist(r.points[i].position, m.points[i].position) == 0);
    }
    /* capacity outside 4 .. 8, or no output */
    ck_assert_int_eq(mk_contact_patch(&p, V(0, 0, 1), -0.0012, NULL, 3, &r), MK_INVALID_INPUT);
    ck_assert_int_eq(r.count, 0);
    ck_assert_int_eq(mk_contact_patch(&p, V(0, 0, 1), -0.0012, NULL, 9, &r), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_contact_patch(&p, V(0, 0, 1), -0.0012, NULL, 8, NULL), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_contact_patch(&p, V(0, 0, 0), -0.0012, NULL, 8, &r), MK_INVALID_INPUT);
    ck_assert_int_eq(r.count, 0);
}
END_TEST

START_TEST(patch_spreads_a_ring)
{
    /* A cylinder (r 0.4) standing 1 cm deep on the ground: 16 rim samples.
     * With room for 8 the patch keeps mk_contact_manifold's four (a square
     * on the rim) and adds, by farthest-point insertion, the four samples
     * halfway between them: 8 rim points 45 degrees apart. */
    scene s;
    make_scene(SC_CYL_CAP, &s);
    mk_pair p = {&s.a, s.xa, &s.b, s.xb};
    mk_contact_patch_result r;
    mk_manifold m;
    ck_assert_int_eq(mk_contact_patch(&p, s.n, s.sd, NULL, 8, &r), MK_OK);
    ck_assert_int_eq(mk_contact_manifold(&p, s.n, s.sd, NULL, &m), MK_OK);
    ck_assert_int_eq(r.count, 8);
    ck_assert_int_eq(m.count, 4);
    const double rad = 0.4, gap = 2 * rad * sin(PI / 8);
    for (int i = 0; i < 8; ++i) {
        mk_vec3 q = inv_point(&s.xa, r.points[i].point_a);
        ck_assert_double_eq_tol(hypot(q.x, q.y), rad, 1e-9);
        ck_assert_double_eq_tol(r.points[i].depth, -s.sd, 1e-9);
        for (int j = 0; j < i; ++j)
            ck_assert_double_ge(dist(r.points[i].point_a, r.points[j].point_a), gap - 1e-9);
    }
    for (int i = 0; i < 4; ++i) {
        int found = 0;
        for (int k = 0; k < 8; ++k)
            found += r.points[k].id == m.points[i].id;
        ck_assert_int_eq(found, 1);
    }
}
END_TEST

START_TEST(invalid_input)
{
    scene s;
    make_scene(SC_BOX_FLAT, &s);
    mk_pair p = {&s.a, s.xa, &s.b, s.xb};
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(NULL, V(0, 0, -1), -0.01, NULL, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(m.count, 0);
    ck_assert_int_eq(mk_contact_manifold(&p, V(0, 0, -1), -0.01, NULL, NULL), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_contact_manifold(&p, V(0, 0, 0), -0.01, NULL, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(m.count, 0);
    ck_assert(mk_vec3_is_finite(m.normal));
    ck_assert_int_eq(mk_contact_manifold(&p, V(NAN, 0, 1), -0.01, NULL, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_contact_manifold(&p, V(0, 0, -1), NAN, NULL, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_contact_manifold(&p, V(0, 0, -1), INFINITY, NULL, &m), MK_INVALID_INPUT);
    mk_manifold_settings st = {NAN};
    ck_assert_int_eq(mk_contact_manifold(&p, V(0, 0, -1), -0.01, &st, &m), MK_INVALID_INPUT);
    mk_pair q = p;
    q.xf_a.R.m[0][0] = 2;
    ck_assert_int_eq(mk_contact_manifold(&q, V(0, 0, -1), -0.01, NULL, &m), MK_INVALID_INPUT);
    mk_shape bad = s.a;
    bad.u.box.half_extents.x = -1;
    q = p;
    q.a = &bad;
    ck_assert_int_eq(mk_contact_manifold(&q, V(0, 0, -1), -0.01, NULL, &m), MK_INVALID_SIZE);
    ck_assert_int_eq(m.count, 0);
    /* A non-unit normal is normalised. */
    ck_assert_int_eq(mk_contact_manifold(&p, V(0, 0, -7), -0.01, NULL, &m), MK_OK);
    ck_assert_int_eq(m.count, 4);
}
END_TEST

static mk_vec3 nan_support(const void *data, mk_vec3 d)
{
    (void)data;
    (void)d;
    return V(NAN, 0, 0);
}

START_TEST(random_pairs_finite_and_bounded)
{
    /* Every shape type against every other, random poses, random (even wrong)
     * normals and distances: MK_OK, count <= 4, every output finite, the common
     * invariants hold. A user shape returning NaN is rejected. */
    rng r = {or_test_seed(0xC0FFEE)};
    cube_hull ch;
    cube_hull_init(&ch, 0.4);
    static const mk_vec3 uh = {0.3, 0.2, 0.25};
    mk_shape shapes[10];
    mk_shape_sphere(&shapes[0], 0.3);
    mk_shape_box(&shapes[1], V(0.3, 0.5, 0.2), 0);
    mk_shape_box(&shapes[2], V(0.3, 0.3, 0.3), 0.05);
    mk_shape_capsule(&shapes[3], 0.2, 0.4);
    mk_shape_cylinder(&shapes[4], 0.3, 0.4, 0);
    mk_shape_cone(&shapes[5], 0.3, 0.4, 0.02);
    mk_shape_ellipsoid(&shapes[6], V(0.4, 0.2, 0.3));
    mk_shape_hull(&shapes[7], &ch.hull, 0);
    mk_shape_user(&shapes[8], user_box_support, &uh, scl(uh, -1), uh, 0.01);
    mk_shape_cylinder(&shapes[9], 0.5, 0.1, 0.03);
    int n = scaled(3000);
    for (int it = 0; it < n; ++it) {
        const mk_shape *a = &shapes[it % 10], *b = &shapes[(it / 10) % 10];
        mk_pair p = {a, axis_angle(V(uni(&r, -1, 1), uni(&r, -1, 1), uni(&r, -1, 1)), rand_unit(&r), uni(&r, 0, 7)),
                     b, axis_angle(V(uni(&r, -1, 1), uni(&r, -1, 1), uni(&r, -1, 1)), rand_unit(&r), uni(&r, 0, 7))};
        /* Half the time a sensible normal (centre to centre), otherwise random;
         * sometimes exactly a world axis, to hit face-aligned paths. */
        mk_vec3 nrm = it % 2 ? rand_unit(&r) : unit(sub(add(p.xf_b.p, V(1e-3, 0, 0)), p.xf_a.p));
        if (it % 7 == 0)
            nrm = V(0, 0, it % 14 ? 1 : -1);
        mk_manifold_settings st = {uni(&r, 0, 0.1)};
        mk_manifold m;
        double sd = uni(&r, -0.5, 0.1);
        ck_assert_int_eq(mk_contact_manifold(&p, nrm, sd, &st, &m), MK_OK);
        /* The separation bound is not checked: a made-up signed distance can be
         * below the speculative distance while the supports say otherwise, and
         * the one guaranteed point then keeps its true separation. */
        check_common(&m, nrm, 1e300);
        if (sd <= st.speculative_distance)
            ck_assert_int_ge(m.count, 1);
        else
            ck_assert_int_eq(m.count, 0);
    }
    mk_shape un;
    mk_shape_user(&un, nan_support, NULL, V(-1, -1, -1), V(1, 1, 1), 0);
    mk_pair p = {&un, mk_transform_identity(), &shapes[1], at(V(0, 0, 1))};
    mk_manifold m;
    ck_assert_int_eq(mk_contact_manifold(&p, V(0, 0, 1), -0.1, NULL, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(m.count, 0);
}
END_TEST

/* A box's long edge (0.49) across a ridge's crest at 0.036 rad, 7 mm deep
 * (tests/test_mesh.c's ridge as a convex hull: faces falling 20 and 55
 * degrees from the crest). The two edges are within the parallel angle, and
 * the patch gave the overlap's two ends at the crossing's separation: one
 * end's corner lay 5.6 mm outside the ridge's far face, reported 7 mm deep
 * (a_box_reaching_over_a_ridge at MK_TEST_SEED=379, MK_TEST_SCALE=30, box
 * #27150). Lines that drift apart along the overlap by more than the
 * contact reaches give their crossing. Every point's shape point is inside
 * the ridge, at the exact depth. */
START_TEST(skew_edges_give_their_crossing)
{
    const double deg = 3.14159265358979323846 / 180, tl = tan(20 * deg), tr = tan(55 * deg);
    const mk_vec3 v[8] = {{0, -3, 0}, {0, 3, 0}, {-3, -3, -3 * tl}, {-3, 3, -3 * tl}, {3, -3, -3 * tr}, {3, 3, -3 * tr},
                          {-3, -3, -12}, {3, 3, -12}};
    const mk_vec3 nl = {-tl / hypot(tl, 1), 0, 1 / hypot(tl, 1)}, nr = {tr / hypot(tr, 1), 0, 1 / hypot(tr, 1)};
    mk_hull *h = NULL;
    ck_assert_int_eq(mk_hull_create(v, 8, &h), MK_OK);
    mk_shape box, ridge;
    ck_assert_int_eq(mk_shape_box(&box, (mk_vec3){0.061196223996105428, 0.093735410559658713, 0.24441321445216224}, 0),
                     MK_OK);
    ck_assert_int_eq(mk_shape_hull(&ridge, h, 0), MK_OK);
    const mk_transform xf = {{{{-0.55151444012656192, 0.83338281161438232, -0.036123560699258428},
                               {0.021227359273980118, -0.029269556759053073, -0.99934613236124681},
                               {-0.83389521017340029, -0.55192063048307605, -0.0015479331461769608}}},
                             {-0.041799966149611123, 0.1277209382617841, 0.095908419917136264}};
    const mk_transform id = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {0, 0, 0}};
    const mk_pair p = {&box, xf, &ridge, id};
    double d;
    mk_vec3 wa, wb;
    ck_assert(or_exact_distance(&box, &xf, &ridge, &id, &d, &wa, &wb));
    ck_assert_double_eq_tol(d, -0.006960932046394, 1e-12);
    const mk_collide_settings cs = mk_collide_default_settings();
    for (int cap = 4; cap <= 8; cap += 4) {
        mk_contact_patch_result m;
        ck_assert_int_eq(mk_collide_patch(&p, &cs, NULL, cap, &m), MK_PENETRATING);
        ck_assert_int_ge(m.count, 1);
        for (int k = 0; k < m.count; ++k) {
            const mk_vec3 a = m.points[k].point_a;
            ck_assert_msg(dot(nl, a) < 1e-9 && dot(nr, a) < 1e-9,
                          "cap %d point %d: the box's point %g %g %g is outside the ridge (%g, %g over its faces)", cap, k,
                          a.x, a.y, a.z, dot(nl, a), dot(nr, a));
            ck_assert_double_eq_tol(m.points[k].separation, d, 1e-9);
        }
    }
    mk_hull_destroy(h);
}
END_TEST

/* ------------------------------------------------------------ suite */

static Suite *manifold_suite(void)
{
    Suite *s = suite_create("manifold");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 60 * or_test_scale()); /* a soak (MK_TEST_SCALE) runs that much longer */
    tcase_add_test(t, box_resting_on_box_gives_four);
    tcase_add_test(t, box_on_box_edge_gives_two);
    tcase_add_test(t, tilted_box_gives_lowest_corner);
    tcase_add_test(t, random_tilts_match_brute_force);
    tcase_add_test(t, cylinder_on_cap_gives_rim_points);
    tcase_add_test(t, ring_samples_sit_on_the_rim);
    tcase_add_test(t, cylinder_lying_gives_two);
    tcase_add_test(t, capsule_lying_on_box_gives_two);
    tcase_add_test(t, capsules_parallel_two_crossed_one);
    tcase_add_test(t, sphere_gives_one);
    tcase_add_test(t, cone_base_and_side);
    tcase_add_test(t, ellipsoid_gives_one_user_box_its_face);
    tcase_add_test(t, user_box_on_ellipsoid_anchors_on_the_ellipsoid);
    tcase_add_test(t, user_box_edge_across_a_cone_side);
    tcase_add_test(t, crossing_tilted_side_lines_keep_the_depth);
    tcase_add_test(t, cylinder_side_deep_in_a_user_box_face);
    tcase_add_test(t, needle_ellipsoid_is_no_face);
    tcase_add_test(t, touching_edges_near_a_face_keep_their_points);
    tcase_add_test(t, capsule_over_a_flake_stays_on_the_flake);
    tcase_add_test(t, capsule_side_beside_a_tiny_box);
    tcase_add_test(t, capsule_end_on_a_very_long_cylinder_warm);
    tcase_add_test(t, cylinder_rim_on_a_cone_side_last_resort);
    tcase_add_test(t, disk_on_a_cone_base_nearly_tangent);
    tcase_add_test(t, tiny_tetrahedron_over_a_cylinder_cap_normal_a_hair_off);
    tcase_add_test(t, box_edge_across_a_cone_side_normal_a_hair_off);
    tcase_add_test(t, box_edge_across_a_long_cone_both_ties);
    tcase_add_test(t, needle_end_on_a_user_edge_end);
    tcase_add_test(t, rod_through_a_user_box_anchors_on_the_rod);
    tcase_add_test(t, small_box_face_on_a_user_plate);
    tcase_add_test(t, user_box_face_clips_a_smaller_box);
    tcase_add_test(t, thin_user_hull_keeps_witnesses_apart);
    tcase_add_test(t, tunnelled_box_takes_the_other_reference_face);
    tcase_add_test(t, rounded_box_shifts_by_radius);
    tcase_add_test(t, hull_cube_agrees_with_box);
    tcase_add_test(t, hull_against_curved);
    tcase_add_test(t, hull_prism_faces);
    tcase_add_test(t, every_pair_type_counts_and_normals);
    tcase_add_test(t, swapping_flips_normal_same_points);
    tcase_add_test(t, feature_ids_stable_under_tiny_motion);
    tcase_add_test(t, deterministic_same_output);
    tcase_add_test(t, tilted_cap_keeps_exact_deepest_point);
    tcase_add_test(t, reference_face_prefers_a_on_ties);
    tcase_add_test(t, vertex_face_map_matches_full_scan);
    tcase_add_test(t, speculative_distance);
    tcase_add_test(t, reduction_keeps_deepest_and_area);
    tcase_add_test(t, yawed_box_on_box_keeps_ids_under_rocking);
    tcase_add_test(t, patch_gives_the_whole_octagon);
    tcase_add_test(t, patch_spreads_a_ring);
    tcase_add_test(t, invalid_input);
    tcase_add_test(t, random_pairs_finite_and_bounded);
    tcase_add_test(t, overlapping_boxes_match_sat_oracle);
    tcase_add_test(t, separated_pairs_match_gjk);
    tcase_add_test(t, box_fast_path_matches_general);
    tcase_add_test(t, box_fast_path_takes_the_other_face);
    tcase_add_test(t, skew_edges_give_their_crossing);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(manifold_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
