/* ODE adapter suite: the overrides answer every pair kind with ODE's contact
 * conventions, flags and stride are honoured, uninstall gives the stock
 * colliders back, and scenes rest, stack and survive. */
#include <minkowski/minkowski.h>
#include <minkowski/ode.h>

#include "world.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static void setup(void)
{
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
}

static const dReal kCube[24] = {-0.1, -0.1, -0.1, 0.1, -0.1, -0.1, -0.1, 0.1, -0.1, 0.1, 0.1, -0.1,
                                -0.1, -0.1, 0.1,  0.1, -0.1, 0.1,  -0.1, 0.1, 0.1,  0.1, 0.1, 0.1};

/* One geom of each kind the adapter handles (index 8 is the plane z = 0). */
static dGeomID make_kind(int k)
{
    switch (k) {
    case 0: return dCreateBox(0, 0.2, 0.16, 0.12);
    case 1: return dCreateSphere(0, 0.1);
    case 2: return dCreateCapsule(0, 0.05, 0.1);
    case 3: return dCreateCylinder(0, 0.08, 0.2);
    case 4: return mk_ode_create_convex(0, kCube, 8);
    case 5: return mk_ode_create_cone(0, 0.1, 0.2);
    case 6: return mk_ode_create_ellipsoid(0, 0.1, 0.07, 0.05);
    case 7: return mk_ode_create_hull(0, kCube, 8);
    default: return dCreatePlane(0, 0, 0, 1, 0);
    }
}

static void destroy_kind(dGeomID g)
{
    if (dGeomGetClass(g) == dConvexClass)
        mk_ode_forget_convex(g);
    dGeomDestroy(g);
}

static void tilt(dGeomID g)
{
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0.3, 0.5, 0.2, 0.4);
    dGeomSetRotation(g, R);
}

/* Every kind against every kind, both orders: answered by minkowski (the call
 * counter moves by one), contacts with depth >= 0, unit normals pointing from
 * g2 into g1, g1/g2 the arguments, sides -1. */
START_TEST(every_pair_kind)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    int pairs = 0;
    for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 9; ++j) {
            if (i == 8 && j == 8)
                continue;
            dGeomID a = make_kind(i), b = make_kind(j);
            ck_assert_ptr_nonnull(a);
            ck_assert_ptr_nonnull(b);
            if (i != 8) {
                tilt(a);
                dGeomSetPosition(a, 0, 0, j == 8 ? 0.04 : 0);
            }
            if (j != 8) {
                dGeomSetPosition(b, 0.06, 0.01, i == 8 ? 0.04 : 0.03);
            }
            mk_ode_stats before = mk_ode_get_stats();
            dContact c[8];
            int n = dCollide(a, b, 8, &c[0].geom, (int)sizeof(dContact));
            mk_ode_stats after = mk_ode_get_stats();
            ck_assert_msg(after.calls == before.calls + 1, "pair %d/%d not answered by minkowski", i, j);
            ck_assert_msg(n > 0, "pair %d/%d: no contact", i, j);
            for (int k = 0; k < n; ++k) {
                const dContactGeom *g = &c[k].geom;
                ck_assert(g->depth >= 0);
                ck_assert_ptr_eq(g->g1, a);
                ck_assert_ptr_eq(g->g2, b);
                ck_assert_int_eq(g->side1, -1);
                ck_assert_int_eq(g->side2, -1);
                double len = sqrt(g->normal[0] * g->normal[0] + g->normal[1] * g->normal[1] + g->normal[2] * g->normal[2]);
                ck_assert_double_eq_tol(len, 1, 1e-9);
                /* from g2 into g1: against the offset of b from a */
                double dir[3] = {0.06, 0.01, 0.03};
                if (i == 8)
                    dir[0] = 0, dir[1] = 0, dir[2] = 1; /* a = plane below b */
                if (j == 8)
                    dir[0] = 0, dir[1] = 0, dir[2] = -1; /* b = plane below a */
                double dot = g->normal[0] * dir[0] + g->normal[1] * dir[1] + g->normal[2] * dir[2];
                ck_assert_msg(dot < 0, "pair %d/%d: normal %g %g %g points from g1 to g2", i, j, g->normal[0],
                              g->normal[1], g->normal[2]);
            }
            destroy_kind(a);
            destroy_kind(b);
            ++pairs;
        }
    mk_ode_stats st = mk_ode_get_stats();
    ck_assert_int_eq((int)st.calls, pairs);
    ck_assert_int_eq((int)st.failures, 0);
    mk_ode_uninstall();
    dCloseODE();
}
END_TEST

/* Box resting 1 cm deep on a box: 4 contacts of depth 0.01 with normal +z
 * (from the lower box g2 into the upper g1); flags limit 2 gives 2; a stride of
 * two dContacts puts contact k at byte k * skip; CONTACTS_UNIMPORTANT gives one
 * contact through the Boolean query, none when apart. */
START_TEST(flags_stride_and_boolean)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    dGeomID top = dCreateBox(0, 0.2, 0.2, 0.2), floor = dCreateBox(0, 1, 1, 0.2);
    dGeomSetPosition(top, 0.1, 0, 0.19);
    dContact c[16];
    memset(c, 0, sizeof c);
    int n = dCollide(top, floor, 8, &c[0].geom, (int)sizeof(dContact));
    ck_assert_int_eq(n, 4);
    for (int k = 0; k < 4; ++k) {
        ck_assert_double_eq_tol(c[k].geom.depth, 0.01, 1e-9);
        ck_assert_double_eq_tol(c[k].geom.normal[2], 1, 1e-12);
    }
    ck_assert_int_eq(dCollide(top, floor, 2, &c[0].geom, (int)sizeof(dContact)), 2);
    memset(c, 0, sizeof c);
    n = dCollide(top, floor, 8, &c[0].geom, 2 * (int)sizeof(dContact));
    ck_assert_int_eq(n, 4);
    for (int k = 0; k < 8; ++k)
        ck_assert_ptr_eq(c[k].geom.g1, k % 2 == 0 && k / 2 < n ? top : NULL);
    mk_ode_stats before = mk_ode_get_stats();
    ck_assert_int_eq(dCollide(top, floor, 8 | CONTACTS_UNIMPORTANT, &c[0].geom, (int)sizeof(dContact)), 1);
    dGeomSetPosition(top, 0.1, 0, 0.5);
    ck_assert_int_eq(dCollide(top, floor, 8 | CONTACTS_UNIMPORTANT, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)(mk_ode_get_stats().boolean_calls - before.boolean_calls), 2);
    dGeomDestroy(top);
    dGeomDestroy(floor);
    mk_ode_uninstall();
    dCloseODE();
}
END_TEST

/* After uninstall the stock colliders answer: box-box through ODE's own SAT
 * (no minkowski call), dConvex pairs through libccd MPR (one contact), while
 * minkowski's own classes keep colliding through minkowski. */
START_TEST(uninstall_restores_stock)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    mk_ode_uninstall();
    mk_ode_reset_stats();
    dGeomID top = dCreateBox(0, 0.2, 0.2, 0.2), floor = dCreateBox(0, 1, 1, 0.2);
    dGeomSetPosition(top, 0.1, 0, 0.19);
    dContact c[8];
    int n = dCollide(top, floor, 8, &c[0].geom, (int)sizeof(dContact));
    ck_assert_int_gt(n, 0);
    dGeomID h1 = mk_ode_create_convex(0, kCube, 8), h2 = mk_ode_create_convex(0, kCube, 8);
    tilt(h1);
    dGeomSetPosition(h2, 0.05, 0.02, 0.15);
    n = dCollide(h1, h2, 8, &c[0].geom, (int)sizeof(dContact));
    ck_assert_int_eq(n, 1); /* stock MPR: one contact */
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 0);
    dGeomID cone = mk_ode_create_cone(0, 0.1, 0.2);
    dGeomSetPosition(cone, 0.1, 0, 0.15);
    ck_assert_int_gt(dCollide(cone, floor, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 1);
    /* and installing again takes the dConvex pair over: a full manifold */
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    dGeomSetPosition(h2, 0, 0, 0.19);
    dGeomSetRotation(h1, (dReal[12]){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
    ck_assert_int_eq(dCollide(h1, h2, 8, &c[0].geom, (int)sizeof(dContact)), 4);
    mk_ode_forget_convex(h1);
    mk_ode_forget_convex(h2);
    dGeomDestroy(h1), dGeomDestroy(h2), dGeomDestroy(cone), dGeomDestroy(top), dGeomDestroy(floor);
    mk_ode_uninstall();
    dCloseODE();
}
END_TEST

static mk_world *make_world(mk_narrowphase np, int growth)
{
    mk_world_config cfg = {np, MK_GJK_NESTEROV, 1.0 / 240, 9.81, 0.6, growth};
    mk_world *w = mk_ode_world_create(&cfg);
    ck_assert_ptr_nonnull(w);
    mk_world_add_ground(w);
    return w;
}

static double tilt_deg(const mk_transform *t) { return acos(fmin(1.0, fabs(t->R.m[2][2]))) * 180 / PI; }

/* A dConvex cube and a minkowski cone dropped on the ground settle flat (tilt
 * below 0.5 degree: one contact would let them rock) at their half heights:
 * 0.1 and 0.15. ODE's contact joints keep a surface layer of 1 mm plus the
 * soft-CFM give, so 3 mm is the height bound. */
START_TEST(convex_and_cone_rest_flat)
{
    mk_world *w = make_world(MK_NARROWPHASE_MINKOWSKI, _i);
    mk_vec3 cube[8];
    for (int k = 0; k < 8; ++k)
        cube[k] = (mk_vec3){kCube[3 * k], kCube[3 * k + 1], kCube[3 * k + 2]};
    mk_body_desc d = {0};
    d.kind = MK_BODY_HULL;
    d.points = cube;
    d.num_points = 8;
    d.mass = 1;
    d.pose = mk_transform_from_quat((mk_vec3){0, 0, 0.3}, (mk_quat){0, 0, 0.1, 0.995});
    int box = mk_world_add_body(w, &d);
    mk_body_desc cd = {0};
    cd.kind = MK_BODY_CONE;
    cd.size[0] = 0.1, cd.size[1] = 0.15;
    cd.mass = 1;
    cd.pose = mk_transform_from_quat((mk_vec3){1, 0, 0.4}, (mk_quat){0, 0, 0, 1});
    int cone = mk_world_add_body(w, &cd);
    for (int s = 0; s < 480; ++s)
        mk_world_step(w);
    mk_transform tb = mk_world_body_pose(w, box), tc = mk_world_body_pose(w, cone);
    ck_assert_msg(fabs(tb.p.z - 0.1) < 3e-3, "box rests at %g", tb.p.z);
    ck_assert_msg(fabs(tc.p.z - 0.15) < 3e-3, "cone rests at %g", tc.p.z);
    ck_assert_msg(tilt_deg(&tb) < 0.5 && tilt_deg(&tc) < 0.5, "tilt %g %g", tilt_deg(&tb), tilt_deg(&tc));
    ck_assert(mk_world_minkowski_calls(w) > 0);
    mk_world_destroy(w);
}
END_TEST

/* Ten dConvex cubes, 5 mm apart, each yawed 0.05 rad more: with minkowski they
 * stand for 10 s. Stock ODE (libccd MPR, one contact per pair) runs the same
 * scene and its outcome is printed, not asserted. */
START_TEST(convex_stack_stands_10s)
{
    mk_vec3 cube[8];
    for (int k = 0; k < 8; ++k)
        cube[k] = (mk_vec3){kCube[3 * k], kCube[3 * k + 1], kCube[3 * k + 2]};
    for (int np = 0; np < 2; ++np) {
        mk_world *w = make_world(np ? MK_NARROWPHASE_MINKOWSKI : MK_NARROWPHASE_STOCK, 0);
        int ids[10];
        for (int i = 0; i < 10; ++i) {
            mk_body_desc d = {0};
            d.kind = MK_BODY_HULL;
            d.points = cube;
            d.num_points = 8;
            d.mass = 1;
            double a = 0.05 * i;
            d.pose = mk_transform_from_quat((mk_vec3){0, 0, 0.1 + 0.205 * i}, (mk_quat){0, 0, sin(a / 2), cos(a / 2)});
            ids[i] = mk_world_add_body(w, &d);
        }
        for (int s = 0; s < 2400; ++s)
            mk_world_step(w);
        int standing = 1;
        for (int i = 0; i < 10; ++i) {
            mk_transform t = mk_world_body_pose(w, ids[i]);
            if (!(fabs(t.p.z - (0.1 + 0.2 * i)) < 0.02 && hypot(t.p.x, t.p.y) < 0.02 && tilt_deg(&t) < 2))
                standing = 0;
        }
        mk_transform top = mk_world_body_pose(w, ids[9]);
        fprintf(stderr, "ode convex stack, %s: %s (top at z %.3f, x %.3f)\n", np ? "minkowski" : "stock",
                standing ? "stands" : "fell", top.p.z, top.p.x);
        if (np)
            ck_assert_msg(standing, "the stack fell with minkowski");
        mk_world_destroy(w);
    }
}
END_TEST

/* 200 mixed bodies (dConvex hulls of 8..40 points, boxes, spheres, capsules,
 * cylinders, cones) into a 2 m bin for 2000 steps: finite, nobody escapes. */
START_TEST(mixed_bodies_in_a_bin)
{
    mk_world *w = make_world(MK_NARROWPHASE_MINKOWSKI, 0);
    const double half = 1.0, wall = 0.05;
    for (int k = 0; k < 4; ++k) {
        mk_body_desc d = {0};
        d.kind = MK_BODY_BOX;
        int x = k < 2;
        d.size[0] = x ? wall : half;
        d.size[1] = x ? half + wall : wall;
        d.size[2] = 1;
        double s = k % 2 ? -1 : 1;
        d.pose = mk_transform_from_quat(x ? (mk_vec3){s * (half + wall), 0, 1} : (mk_vec3){0, s * (half + wall), 1},
                                        (mk_quat){0, 0, 0, 1});
        ck_assert_int_ge(mk_world_add_body(w, &d), 0);
    }
    unsigned long long z = 77;
#define RND() (z = z * 6364136223846793005ull + 1442695040888963407ull, (double)(z >> 11) / 9007199254740992.0)
    const int n = getenv("MK_SOAK") ? 400 : 200, steps = getenv("MK_SOAK") ? 6000 : 2000;
    static mk_vec3 clouds[400][40];
    int *ids = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) {
        mk_body_desc d = {0};
        d.kind = (mk_body_kind)(i % 6);
        double s = 0.06 + 0.05 * RND();
        d.size[0] = s * (0.5 + 0.5 * RND());
        d.size[1] = s * (0.5 + 0.5 * RND());
        d.size[2] = s * (0.5 + 0.5 * RND());
        if (d.kind == MK_BODY_HULL) {
            int m = 8 + (int)(RND() * 33);
            for (int k = 0; k < m; ++k)
                clouds[i][k] = (mk_vec3){s * (2 * RND() - 1), s * (2 * RND() - 1), s * (2 * RND() - 1)};
            d.points = clouds[i];
            d.num_points = m;
        }
        d.mass = 1;
        int layer = i / 25, r = i % 25;
        mk_vec3 p = {(r % 5 - 2) * 0.38 + 0.04 * (RND() - 0.5), (r / 5 - 2) * 0.38 + 0.04 * (RND() - 0.5),
                     0.3 + 0.38 * layer};
        d.pose = mk_transform_from_quat(p, (mk_quat){RND() - 0.5, RND() - 0.5, RND() - 0.5, RND() - 0.5});
        ids[i] = mk_world_add_body(w, &d);
        ck_assert_int_ge(ids[i], 0);
    }
    for (int s = 0; s < steps; ++s)
        mk_world_step(w);
    for (int i = 0; i < n; ++i) {
        mk_transform t = mk_world_body_pose(w, ids[i]);
        ck_assert_msg(mk_is_valid_transform(&t), "body %d: non-finite pose", i);
        ck_assert_msg(fabs(t.p.x) < half + 0.05 && fabs(t.p.y) < half + 0.05 && t.p.z > -0.05,
                      "body %d escaped to %g %g %g", i, t.p.x, t.p.y, t.p.z);
    }
    ck_assert_int_eq((int)mk_ode_get_stats().failures, 0);
    free(ids);
    mk_world_destroy(w);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ode");
    TCase *api = tcase_create("adapter");
    tcase_add_test(api, every_pair_kind);
    tcase_add_test(api, flags_stride_and_boolean);
    tcase_add_test(api, uninstall_restores_stock);
    suite_add_tcase(s, api);
    TCase *scenes = tcase_create("scenes");
    tcase_set_timeout(scenes, 600);
    tcase_add_loop_test(scenes, convex_and_cone_rest_flat, 0, 2); /* signed distance, growth distance */
    tcase_add_test(scenes, convex_stack_stands_10s);
    tcase_add_test(scenes, mixed_bodies_in_a_bin);
    suite_add_tcase(s, scenes);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
