/* Check suite "shape": constructors, validation, support functions and local
 * bounding boxes of the primitive shapes against brute force over dense surface
 * samples and the closed-form support values of tests/oracle.c. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <minkowski/shape.h>
#include "oracle.h"
#include "vec.h"

#define NSAMPLES 20000
#define NDIRS 300

/* ------------------------------------------------------------ user shapes */

/* Octahedron |x| + |y| + |z| <= a: a vertex along the largest |d_i|. */
static mk_vec3 octa_support(const void *data, mk_vec3 d)
{
    double a = *(const double *)data;
    double ax = fabs(d.x), ay = fabs(d.y), az = fabs(d.z);
    if (ax >= ay && ax >= az)
        return v3(d.x >= 0 ? a : -a, 0, 0);
    if (ay >= az)
        return v3(0, d.y >= 0 ? a : -a, 0);
    return v3(0, 0, d.z >= 0 ? a : -a);
}

/* ------------------------------------------------------------ samples */

/* Dense samples of the core surface (local frame) of s; returns the count. */
static int core_samples(or_rng *r, const mk_shape *s, mk_vec3 *out, int max)
{
    int n = 0;
    switch (s->type) {
    case MK_SHAPE_SPHERE:
        out[n++] = v3(0, 0, 0);
        break;
    case MK_SHAPE_BOX: {
        mk_vec3 h = s->u.box.half_extents;
        for (int i = 0; i < 8; ++i)
            out[n++] = v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
        while (n < max) {
            mk_vec3 p = v3(or_uniform(r, -h.x, h.x), or_uniform(r, -h.y, h.y), or_uniform(r, -h.z, h.z));
            int axis = or_int(r, 3), sign = or_int(r, 2) ? 1 : -1;
            if (axis == 0)
                p.x = sign * h.x;
            else if (axis == 1)
                p.y = sign * h.y;
            else
                p.z = sign * h.z;
            out[n++] = p;
        }
        break;
    }
    case MK_SHAPE_CAPSULE: {
        double h = s->u.capsule.half_height;
        out[n++] = v3(0, 0, -h);
        out[n++] = v3(0, 0, h);
        while (n < max)
            out[n++] = v3(0, 0, or_uniform(r, -h, h));
        break;
    }
    case MK_SHAPE_CYLINDER:
    case MK_SHAPE_CONE: {
        int cyl = s->type == MK_SHAPE_CYLINDER;
        double rr = cyl ? s->u.cylinder.radius : s->u.cone.radius;
        double h = cyl ? s->u.cylinder.half_height : s->u.cone.half_height;
        if (!cyl)
            out[n++] = v3(0, 0, h);
        /* rims first (where the supports are), then caps and sides */
        for (int i = 0; i < max / 2 && n < max; ++i) {
            double a = 2 * 3.14159265358979323846 * i / (max / 4);
            double z = (!cyl || i % 2) ? -h : h;
            out[n++] = v3(rr * cos(a), rr * sin(a), z);
        }
        while (n < max) {
            double a = or_uniform(r, 0, 2 * 3.14159265358979323846), t = or_uniform(r, 0, 1);
            if (cyl)
                out[n++] = or_int(r, 2) ? v3(rr * cos(a), rr * sin(a), or_uniform(r, -h, h))
                                        : v3(rr * sqrt(t) * cos(a), rr * sqrt(t) * sin(a), or_int(r, 2) ? h : -h);
            else
                out[n++] = or_int(r, 2) ? v3(rr * t * cos(a), rr * t * sin(a), h - 2 * h * t)
                                        : v3(rr * sqrt(t) * cos(a), rr * sqrt(t) * sin(a), -h);
        }
        break;
    }
    case MK_SHAPE_ELLIPSOID: {
        mk_vec3 e = s->u.ellipsoid.radii;
        out[n++] = v3(e.x, 0, 0);
        out[n++] = v3(-e.x, 0, 0);
        out[n++] = v3(0, e.y, 0);
        out[n++] = v3(0, -e.y, 0);
        out[n++] = v3(0, 0, e.z);
        out[n++] = v3(0, 0, -e.z);
        while (n < max) {
            mk_vec3 u = or_unit(r);
            out[n++] = v3(e.x * u.x, e.y * u.y, e.z * u.z);
        }
        break;
    }
    case MK_SHAPE_USER: { /* the octahedron */
        double a = *(const double *)s->u.user.data;
        while (n < max) {
            /* a point of a random face: barycentric on the three vertices */
            double w0 = or_uniform(r, 0, 1), w1 = or_uniform(r, 0, 1 - w0), w2 = 1 - w0 - w1;
            double sx = or_int(r, 2) ? a : -a, sy = or_int(r, 2) ? a : -a, sz = or_int(r, 2) ? a : -a;
            out[n++] = v3(w0 * sx, w1 * sy, w2 * sz);
        }
        break;
    }
    default:
        break;
    }
    return n;
}

/* A random shape of every primitive type (index 0..6) with a random rounding. */
static void primitive(or_rng *r, int kind, double rounding, mk_shape *s, const double *octa)
{
    mk_status st = MK_INVALID_INPUT;
    mk_vec3 h = v3(or_uniform(r, 0.05, 2), or_uniform(r, 0.05, 2), or_uniform(r, 0.05, 2));
    switch (kind) {
    case 0: st = mk_shape_sphere(s, h.x + rounding); break;
    case 1: st = mk_shape_box(s, h, rounding); break;
    case 2: st = mk_shape_capsule(s, h.x + rounding, h.y); break;
    case 3: st = mk_shape_cylinder(s, h.x, h.y, rounding); break;
    case 4: st = mk_shape_cone(s, h.x, h.y, rounding); break;
    case 5: st = mk_shape_ellipsoid(s, h); break;
    case 6:
        st = mk_shape_user(s, octa_support, octa, v3(-*octa, -*octa, -*octa), v3(*octa, *octa, *octa), rounding);
        break;
    default: break;
    }
    ck_assert_int_eq(st, MK_OK);
}

static const mk_transform *ident(void)
{
    static mk_transform id = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {0, 0, 0}};
    return &id;
}

/* Core support value from the closed forms (oracle value minus the radius). */
static double core_value(const mk_shape *s, mk_vec3 d)
{
    return or_support_value(s, ident(), d) - s->radius * v3_len(d);
}

/* Distance of a local point to the core surface (oracle; user octahedron by its
 * own formula). */
static double core_surface_distance(const mk_shape *s, mk_vec3 p)
{
    if (s->type == MK_SHAPE_USER) {
        double a = *(const double *)s->u.user.data;
        return (fabs(p.x) + fabs(p.y) + fabs(p.z) - a) / sqrt(3.0);
    }
    mk_shape core = *s;
    core.radius = 0;
    return or_point_shape(&core, ident(), p, NULL);
}

/* ------------------------------------------------------------ tests */

START_TEST(support_dominates_dense_samples_and_lies_on_shape)
{
    or_rng r = or_test_rng(0x5eed0001);
    static mk_vec3 pts[NSAMPLES];
    double octa = 0.9;
    int rounds = or_scaled(6);
    for (int kind = 0; kind < 7; ++kind)
        for (int round = 0; round < rounds; ++round) {
            mk_shape s;
            primitive(&r, kind, round % 2 ? 0.1 : 0, &s, &octa);
            int n = core_samples(&r, &s, pts, NSAMPLES);
            mk_vec3 lo, hi;
            mk_shape_local_aabb(&s, &lo, &hi);
            double size = v3_len(v3_sub(hi, lo)), tol = 1e-12 * (1 + size);
            for (int k = 0; k < NDIRS; ++k) {
                /* axis directions (ties) first, then random ones */
                mk_vec3 d = k < 6 ? v3(k == 0 ? 1 : k == 1 ? -1 : 0, k == 2 ? 1 : k == 3 ? -1 : 0,
                                       k == 4 ? 1 : k == 5 ? -1 : 0)
                                  : v3_scale(or_unit(&r), or_uniform(&r, 0.1, 10));
                mk_vec3 sp = mk_shape_support(&s, d, NULL);
                ck_assert_msg(v3_finite(sp), "kind %d: non-finite support", kind);
                double val = v3_dot(d, sp), best = -INFINITY;
                for (int i = 0; i < n; ++i) {
                    double v = v3_dot(d, pts[i]);
                    best = v > best ? v : best;
                }
                ck_assert_msg(val >= best - tol * v3_len(d), "kind %d: support %.17g below sample max %.17g", kind,
                              val, best);
                ck_assert_msg(fabs(val - core_value(&s, d)) <= tol * v3_len(d),
                              "kind %d: support value %.17g, closed form %.17g", kind, val, core_value(&s, d));
                double sd = core_surface_distance(&s, sp);
                ck_assert_msg(fabs(sd) <= tol, "kind %d: support point %.3g off the core surface", kind, sd);
                /* dense enough that the samples nearly reach it (a sanity check on the test) */
                ck_assert_msg(val - best <= 0.02 * size * v3_len(d), "kind %d: samples too sparse", kind);
            }
        }
}
END_TEST

START_TEST(support_ignores_radius_and_scale_of_direction)
{
    or_rng r = or_test_rng(0x5eed0002);
    double octa = 1.3;
    for (int kind = 0; kind < 7; ++kind) {
        mk_shape s, rounded;
        or_rng r2 = r;
        primitive(&r, kind, 0, &s, &octa);
        primitive(&r2, kind, 0.25, &rounded, &octa);
        for (int k = 0; k < 200; ++k) {
            mk_vec3 d = or_unit(&r);
            mk_vec3 a = mk_shape_support(&s, d, NULL), b = mk_shape_support(&s, v3_scale(d, 1e-3), NULL);
            mk_vec3 c = mk_shape_support(&s, v3_scale(d, 1e6), NULL);
            ck_assert_msg(v3_len(v3_sub(a, b)) <= 1e-12 && v3_len(v3_sub(a, c)) <= 1e-12,
                          "kind %d: support depends on |d|", kind);
            if (kind != 0 && kind != 2) { /* same core, different rounding */
                mk_vec3 e = mk_shape_support(&rounded, d, NULL);
                ck_assert_msg(v3_len(v3_sub(a, e)) <= 1e-12, "kind %d: radius leaked into the core support", kind);
            }
        }
    }
}
END_TEST

START_TEST(hull_support_matches_vertex_scan)
{
    or_rng r = or_test_rng(0x5eed0003);
    int sizes[3] = {8, 40, 200};
    for (int t = 0; t < 3; ++t)
        for (int round = 0; round < or_scaled(4); ++round) {
            mk_vec3 pts[200];
            for (int i = 0; i < sizes[t]; ++i)
                pts[i] = v3_add(or_in_ball(&r, 1), v3(0.5, -0.2, 0.1));
            mk_hull *h = NULL;
            ck_assert_int_eq(mk_hull_create(pts, sizes[t], &h), MK_OK);
            mk_shape s;
            ck_assert_int_eq(mk_shape_hull(&s, h, 0.05), MK_OK);
            int hint = 0;
            for (int k = 0; k < 500; ++k) {
                mk_vec3 d = or_unit(&r);
                double best = -INFINITY;
                for (int i = 0; i < sizes[t]; ++i)
                    best = fmax(best, v3_dot(d, pts[i]));
                mk_vec3 a = mk_shape_support(&s, d, NULL), b = mk_shape_support(&s, d, &hint);
                ck_assert_msg(hint >= 0 && hint < h->num_vertices, "hint %d out of range", hint);
                ck_assert_msg(fabs(v3_dot(d, a) - best) <= 1e-12 && fabs(v3_dot(d, b) - best) <= 1e-12,
                              "hull of %d points: support %.17g / %.17g (hinted), brute force %.17g", sizes[t],
                              v3_dot(d, a), v3_dot(d, b), best);
            }
            /* a stale or absurd hint is clamped, not trusted */
            hint = 1 << 30;
            mk_vec3 c = mk_shape_support(&s, v3(1, 0, 0), &hint);
            ck_assert(v3_finite(c) && hint >= 0 && hint < h->num_vertices);
            hint = -5;
            c = mk_shape_support(&s, v3(0, 1, 0), &hint);
            ck_assert(v3_finite(c) && hint >= 0 && hint < h->num_vertices);
            mk_hull_destroy(h);
        }
}
END_TEST

/* Every size parameter of every constructor at each bad value. */
START_TEST(constructors_reject_bad_sizes)
{
    const double bad[] = {0.0, -0.0, -1.0, -1e-300, NAN, INFINITY, -INFINITY};
    const int nbad = (int)(sizeof bad / sizeof bad[0]);
    double octa = 1;
    mk_shape sentinel, s;
    memset(&sentinel, 0xA5, sizeof sentinel);
    for (int i = 0; i < nbad; ++i) {
        double b = bad[i];
        int rounding_ok = b == 0; /* a zero rounding radius is fine */
        mk_status st[16];
        int k = 0;
#define TRY(call)                                                                                                  \
    do {                                                                                                           \
        s = sentinel;                                                                                              \
        st[k] = (call);                                                                                            \
        ck_assert_msg(st[k] == MK_INVALID_SIZE, "case %d (value %g): %s gives %s", k, b, #call,                  \
                      mk_status_string(st[k]));                                                                    \
        ck_assert_msg(memcmp(&s, &sentinel, sizeof s) == 0, "case %d: shape modified on error", k);                 \
        ++k;                                                                                                       \
    } while (0)
        TRY(mk_shape_sphere(&s, b));
        TRY(mk_shape_box(&s, v3(b, 1, 1), 0));
        TRY(mk_shape_box(&s, v3(1, b, 1), 0));
        TRY(mk_shape_box(&s, v3(1, 1, b), 0));
        TRY(mk_shape_capsule(&s, b, 1));
        TRY(mk_shape_capsule(&s, 1, b));
        TRY(mk_shape_cylinder(&s, b, 1, 0));
        TRY(mk_shape_cylinder(&s, 1, b, 0));
        TRY(mk_shape_cone(&s, b, 1, 0));
        TRY(mk_shape_cone(&s, 1, b, 0));
        TRY(mk_shape_ellipsoid(&s, v3(b, 1, 1)));
        TRY(mk_shape_ellipsoid(&s, v3(1, 1, b)));
        if (!rounding_ok) {
            TRY(mk_shape_box(&s, v3(1, 1, 1), b));
            TRY(mk_shape_cylinder(&s, 1, 1, b));
            TRY(mk_shape_cone(&s, 1, 1, b));
            TRY(mk_shape_user(&s, octa_support, &octa, v3(-1, -1, -1), v3(1, 1, 1), b));
        }
#undef TRY
    }
    /* A zero rounding is valid; an inverted user box is a bad size; NULLs are bad input. */
    ck_assert_int_eq(mk_shape_box(&s, v3(1, 1, 1), 0), MK_OK);
    ck_assert_int_eq(mk_shape_user(&s, octa_support, &octa, v3(1, -1, -1), v3(-1, 1, 1), 0), MK_INVALID_SIZE);
    mk_status nan_box = mk_shape_user(&s, octa_support, &octa, v3(NAN, -1, -1), v3(1, 1, 1), 0);
    ck_assert_msg(nan_box == MK_INVALID_SIZE || nan_box == MK_INVALID_INPUT, "NaN user bounds: %s",
                  mk_status_string(nan_box));
    ck_assert_int_eq(mk_shape_user(&s, NULL, &octa, v3(-1, -1, -1), v3(1, 1, 1), 0), MK_INVALID_INPUT);
    ck_assert_int_ne(mk_shape_hull(&s, NULL, 0), MK_OK);
    ck_assert_int_eq(mk_shape_sphere(NULL, 1), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_shape_box(NULL, v3(1, 1, 1), 0), MK_INVALID_INPUT);
}
END_TEST

START_TEST(constructors_store_what_they_are_given)
{
    mk_shape s;
    ck_assert_int_eq(mk_shape_sphere(&s, 0.5), MK_OK);
    ck_assert(s.type == MK_SHAPE_SPHERE && s.radius == 0.5);
    ck_assert_int_eq(mk_shape_box(&s, v3(1, 2, 3), 0.25), MK_OK);
    ck_assert(s.type == MK_SHAPE_BOX && s.radius == 0.25 && s.u.box.half_extents.z == 3);
    ck_assert_int_eq(mk_shape_capsule(&s, 0.5, 2), MK_OK);
    ck_assert(s.type == MK_SHAPE_CAPSULE && s.radius == 0.5 && s.u.capsule.half_height == 2);
    ck_assert_int_eq(mk_shape_cylinder(&s, 0.5, 2, 0.1), MK_OK);
    ck_assert(s.type == MK_SHAPE_CYLINDER && s.u.cylinder.radius == 0.5 && s.u.cylinder.half_height == 2 &&
              s.radius == 0.1);
    ck_assert_int_eq(mk_shape_cone(&s, 0.5, 2, 0), MK_OK);
    ck_assert(s.type == MK_SHAPE_CONE && s.u.cone.radius == 0.5 && s.u.cone.half_height == 2 && s.radius == 0);
    ck_assert_int_eq(mk_shape_ellipsoid(&s, v3(1, 2, 3)), MK_OK);
    ck_assert(s.type == MK_SHAPE_ELLIPSOID && s.radius == 0 && s.u.ellipsoid.radii.y == 2);
    ck_assert_int_eq(mk_shape_validate(&s), MK_OK);
}
END_TEST

/* Hand-filled shapes bypass the constructors; validation must catch them. */
START_TEST(validate_catches_hand_filled_garbage)
{
    mk_shape s;
    memset(&s, 0, sizeof s);
    s.type = (mk_shape_type)42;
    s.radius = 1;
    ck_assert_int_ne(mk_shape_validate(&s), MK_OK);
    s.type = (mk_shape_type)-1;
    ck_assert_int_ne(mk_shape_validate(&s), MK_OK);
    s.type = MK_SHAPE_TYPE_COUNT;
    ck_assert_int_ne(mk_shape_validate(&s), MK_OK);
    s.type = MK_SHAPE_SPHERE;
    s.radius = NAN;
    ck_assert_int_eq(mk_shape_validate(&s), MK_INVALID_SIZE);
    s.type = MK_SHAPE_BOX;
    s.radius = 0;
    s.u.box.half_extents = v3(1, -1, 1);
    ck_assert_int_eq(mk_shape_validate(&s), MK_INVALID_SIZE);
    s.u.box.half_extents = v3(1, 1, INFINITY);
    ck_assert_int_eq(mk_shape_validate(&s), MK_INVALID_SIZE);
    s.type = MK_SHAPE_HULL;
    s.u.hull.hull = NULL;
    ck_assert_int_ne(mk_shape_validate(&s), MK_OK);
    { /* a hand-built copy of a hull that claims a start table it does not have */
        mk_vec3 pts[64];
        for (int i = 0; i < 64; ++i)
            pts[i] = v3(cos(0.7 * i) * sin(0.3 * i + 0.1), sin(0.7 * i) * sin(0.3 * i + 0.1), cos(0.3 * i + 0.1));
        mk_hull *h = NULL;
        ck_assert_int_eq(mk_hull_create(pts, 64, &h), MK_OK);
        ck_assert_int_gt(h->start_res, 0);
        mk_hull copy = *h;
        s.u.hull.hull = &copy;
        ck_assert_int_eq(mk_shape_validate(&s), MK_OK);
        copy.start_vertex = NULL;
        ck_assert_int_eq(mk_shape_validate(&s), MK_INVALID_INPUT);
        copy.start_res = 0; /* no table: climbing from the hint, valid */
        ck_assert_int_eq(mk_shape_validate(&s), MK_OK);
        copy.start_res = -1;
        ck_assert_int_eq(mk_shape_validate(&s), MK_INVALID_INPUT);
        mk_hull_destroy(h);
    }
    { /* a hull that claims to be a box with a bad box (mk_hull.box) */
        mk_vec3 pts[8];
        for (int i = 0; i < 8; ++i)
            pts[i] = v3(i & 1 ? 0.3 : -0.3, i & 2 ? 0.2 : -0.2, i & 4 ? 0.1 : -0.1);
        mk_hull *h = NULL;
        ck_assert_int_eq(mk_hull_create(pts, 8, &h), MK_OK);
        ck_assert_int_eq(h->box, 1);
        mk_hull copy = *h;
        s.type = MK_SHAPE_HULL;
        s.u.hull.hull = &copy;
        ck_assert_int_eq(mk_shape_validate(&s), MK_OK);
        copy.box_half_extents.y = 0;
        ck_assert_int_eq(mk_shape_validate(&s), MK_INVALID_INPUT);
        copy.box_half_extents = h->box_half_extents;
        copy.box_pose.R.m[0][0] = NAN;
        ck_assert_int_eq(mk_shape_validate(&s), MK_INVALID_INPUT);
        copy.box = 0; /* no box claimed: the pose is not read */
        ck_assert_int_eq(mk_shape_validate(&s), MK_OK);
        mk_hull_destroy(h);
    }
    s.type = MK_SHAPE_USER;
    memset(&s.u, 0, sizeof s.u);
    ck_assert_int_ne(mk_shape_validate(&s), MK_OK);
    ck_assert_int_eq(mk_shape_validate(NULL), MK_INVALID_INPUT);
}
END_TEST

START_TEST(local_aabb_contains_samples_and_is_tight)
{
    or_rng r = or_test_rng(0x5eed0004);
    static mk_vec3 pts[NSAMPLES / 4];
    double octa = 0.7;
    for (int kind = 0; kind < 7; ++kind)
        for (int round = 0; round < or_scaled(10); ++round) {
            mk_shape s;
            double rounding = round % 2 ? or_uniform(&r, 0.01, 0.5) : 0;
            primitive(&r, kind, rounding, &s, &octa);
            mk_vec3 lo, hi;
            mk_shape_local_aabb(&s, &lo, &hi);
            ck_assert(v3_finite(lo) && v3_finite(hi));
            double tol = 1e-12 * (1 + v3_len(v3_sub(hi, lo)));
            /* whole-shape samples: core samples pushed out by the radius */
            int n = core_samples(&r, &s, pts, NSAMPLES / 4);
            for (int i = 0; i < n; ++i) {
                mk_vec3 p = v3_madd(pts[i], s.radius, or_unit(&r));
                ck_assert_msg(p.x >= lo.x - tol && p.y >= lo.y - tol && p.z >= lo.z - tol && p.x <= hi.x + tol &&
                                  p.y <= hi.y + tol && p.z <= hi.z + tol,
                              "kind %d: sample outside the local box", kind);
            }
            /* tight: each face of the box is the support plane along that axis */
            ck_assert(fabs(hi.x - or_support_value(&s, ident(), v3(1, 0, 0))) <= tol);
            ck_assert(fabs(hi.y - or_support_value(&s, ident(), v3(0, 1, 0))) <= tol);
            ck_assert(fabs(hi.z - or_support_value(&s, ident(), v3(0, 0, 1))) <= tol);
            ck_assert(fabs(lo.x + or_support_value(&s, ident(), v3(-1, 0, 0))) <= tol);
            ck_assert(fabs(lo.y + or_support_value(&s, ident(), v3(0, -1, 0))) <= tol);
            ck_assert(fabs(lo.z + or_support_value(&s, ident(), v3(0, 0, -1))) <= tol);
        }
    /* hulls: the box of the vertices plus the radius */
    mk_vec3 hp[30];
    for (int i = 0; i < 30; ++i)
        hp[i] = v3_add(or_in_ball(&r, 2), v3(3, -1, 0.5));
    mk_hull *h = NULL;
    ck_assert_int_eq(mk_hull_create(hp, 30, &h), MK_OK);
    mk_shape s;
    ck_assert_int_eq(mk_shape_hull(&s, h, 0.3), MK_OK);
    mk_vec3 lo, hi;
    mk_shape_local_aabb(&s, &lo, &hi);
    for (int i = 0; i < 30; ++i)
        ck_assert(hp[i].x >= lo.x + 0.3 - 1e-12 && hp[i].x <= hi.x - 0.3 + 1e-12 && hp[i].y >= lo.y + 0.3 - 1e-12 &&
                  hp[i].y <= hi.y - 0.3 + 1e-12 && hp[i].z >= lo.z + 0.3 - 1e-12 && hp[i].z <= hi.z - 0.3 + 1e-12);
    ck_assert(fabs(hi.x - or_support_value(&s, ident(), v3(1, 0, 0))) <= 1e-12);
    ck_assert(fabs(lo.z + or_support_value(&s, ident(), v3(0, 0, -1))) <= 1e-12);
    mk_hull_destroy(h);
}
END_TEST

/* GJK asks for s(0) when its iterate reaches the origin; the answer must be a
 * finite core point, never 0/0. Tiny, huge and signed-zero directions too. */
START_TEST(degenerate_directions_give_finite_core_points)
{
    or_rng r = or_test_rng(0x5eed0005);
    double octa = 0.8;
    const mk_vec3 dirs[] = {v3(0, 0, 0),       v3(-0.0, -0.0, -0.0), v3(1e-310, 0, 0), v3(0, -1e-320, 1e-320),
                            v3(1e-300, 1e-300, 1e-300), v3(1e300, -1e300, 1e300), v3(0, 0, -1e-200),
                            v3(DBL_MIN, -DBL_MIN, 0)};
    mk_vec3 pts[40];
    for (int i = 0; i < 40; ++i)
        pts[i] = or_in_ball(&r, 1);
    mk_hull *h = NULL;
    ck_assert_int_eq(mk_hull_create(pts, 40, &h), MK_OK);
    for (int kind = 0; kind < 8; ++kind) {
        mk_shape s;
        if (kind < 7)
            primitive(&r, kind, 0, &s, &octa);
        else
            ck_assert_int_eq(mk_shape_hull(&s, h, 0), MK_OK);
        for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; ++k) {
            int hint = 0;
            mk_vec3 p = mk_shape_support(&s, dirs[k], &hint);
            ck_assert_msg(v3_finite(p), "kind %d dir %zu: non-finite support", kind, k);
            if (kind < 7)
                ck_assert_msg(core_surface_distance(&s, p) <= 1e-9, "kind %d dir %zu: support outside the core",
                              kind, k);
        }
    }
    mk_hull_destroy(h);
}
END_TEST

/* mk_is_valid_transform against its definition (R R^T = I to 1e-5, det R = +1,
 * finite, translation within MK_MAX_COORDINATE), checked here directly in long
 * double: random rotations with noise of random size, swapped and negated rows
 * (det -1), unit rows with r2 = r0 x r1 but r0, r1 not orthogonal, and NaN/inf
 * in every slot. Noise between 1e-6 and 1e-4, where the
 * tolerance sits, is not judged. */
START_TEST(valid_transform_matches_definition)
{
    or_rng r = or_test_rng(0x5eed0006);
    int n = or_scaled(20000), judged = 0;
    for (int i = 0; i < n; ++i) {
        mk_transform x = or_pose(&r, or_in_ball(&r, 10));
        int kind = or_int(&r, 5);
        double noise = pow(10, or_uniform(&r, -9, -2));
        if (kind == 1) { /* swap two rows */
            int a = or_int(&r, 3), b = (a + 1 + or_int(&r, 2)) % 3;
            for (int j = 0; j < 3; ++j) {
                double t = x.R.m[a][j];
                x.R.m[a][j] = x.R.m[b][j];
                x.R.m[b][j] = t;
            }
        } else if (kind == 2) { /* negate one row */
            int a = or_int(&r, 3);
            for (int j = 0; j < 3; ++j)
                x.R.m[a][j] = -x.R.m[a][j];
        }
        if (kind == 4) { /* unit rows, r2 = r0 x r1, but r1 tilted towards r0 */
            mk_vec3 r0 = v3(x.R.m[0][0], x.R.m[0][1], x.R.m[0][2]), r1 = v3(x.R.m[1][0], x.R.m[1][1], x.R.m[1][2]);
            r1 = v3_madd(r1, 100 * noise, r0);
            r1 = v3_scale(r1, 1 / v3_len(r1));
            mk_vec3 r2 = v3_cross(r0, r1);
            r2 = v3_scale(r2, 1 / v3_len(r2));
            for (int j = 0; j < 3; ++j) {
                x.R.m[1][j] = ((double *)&r1)[j];
                x.R.m[2][j] = ((double *)&r2)[j];
            }
        } else if (kind != 3) /* kind 3: exact (to rounding) rotation */
            for (int k = 0; k < 9; ++k)
                x.R.m[k / 3][k % 3] += or_uniform(&r, -noise, noise);
        long double err = 0, det = 0;
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) {
                long double g = 0;
                for (int j = 0; j < 3; ++j)
                    g += (long double)x.R.m[a][j] * x.R.m[b][j];
                g -= a == b;
                if (fabsl(g) > err)
                    err = fabsl(g);
            }
        for (int j = 0; j < 3; ++j)
            det += (long double)x.R.m[0][j] *
                   ((long double)x.R.m[1][(j + 1) % 3] * x.R.m[2][(j + 2) % 3] -
                    (long double)x.R.m[1][(j + 2) % 3] * x.R.m[2][(j + 1) % 3]);
        int got = mk_is_valid_transform(&x);
        if (det > 0 && err <= 1e-6L) {
            ck_assert_msg(got, "case %d (kind %d, noise %g): rotation refused", i, kind, noise);
            ++judged;
        } else if (det < 0 || err >= 1e-4L) {
            ck_assert_msg(!got, "case %d (kind %d, noise %g, err %Lg): non-rotation accepted", i, kind, noise, err);
            ++judged;
        }
        /* every slot non-finite, and translations past the bound */
        if (i < 64) {
            const double bad[] = {NAN, INFINITY, -INFINITY};
            for (int slot = 0; slot < 12; ++slot) {
                mk_transform y = or_pose(&r, v3(1, 2, 3));
                double *e = slot < 3 ? &((double *)&y.p)[slot] : &y.R.m[(slot - 3) / 3][(slot - 3) % 3];
                *e = bad[(i + slot) % 3];
                ck_assert_msg(!mk_is_valid_transform(&y), "slot %d = %g accepted", slot, *e);
            }
            mk_transform y = or_pose(&r, v3(0, 0, 0));
            ((double *)&y.p)[i % 3] = (i & 4 ? -1 : 1) * MK_MAX_COORDINATE;
            ck_assert(mk_is_valid_transform(&y));
            ((double *)&y.p)[i % 3] *= 1.5;
            ck_assert(!mk_is_valid_transform(&y));
        }
    }
    ck_assert_int_ge(judged, n / 2);
    ck_assert(!mk_is_valid_transform(NULL));
}
END_TEST

static Suite *shape_suite(void)
{
    Suite *s = suite_create("shape");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120 * or_test_scale());
    tcase_add_test(t, support_dominates_dense_samples_and_lies_on_shape);
    tcase_add_test(t, support_ignores_radius_and_scale_of_direction);
    tcase_add_test(t, hull_support_matches_vertex_scan);
    tcase_add_test(t, constructors_reject_bad_sizes);
    tcase_add_test(t, constructors_store_what_they_are_given);
    tcase_add_test(t, validate_catches_hand_filled_garbage);
    tcase_add_test(t, local_aabb_contains_samples_and_is_tight);
    tcase_add_test(t, degenerate_directions_give_finite_core_points);
    tcase_add_test(t, valid_transform_matches_definition);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(shape_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
