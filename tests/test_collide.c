/* collide suite: the engine-facing composition (signed distance + manifold,
 * half-space contacts, growth-distance contact model) against analytic answers
 * and against the separately tested queries it is made of. */
#include <minkowski/minkowski.h>

#include "oracle.h"
#include "vec.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mk_transform at(mk_vec3 p) { return mk_transform_from_quat(p, (mk_quat){0, 0, 0, 1}); }

static double min_separation(const mk_manifold *m)
{
    double s = INFINITY;
    for (int i = 0; i < m->count; ++i)
        s = fmin(s, m->points[i].separation);
    return s;
}

/* A 0.2 m cube resting 1 cm deep on a 1 m slab: four corners, depth 0.01,
 * normal from A (the slab) up to B. Lifted 5 mm: four speculative points with
 * a speculative distance of 1 cm, none with 0. */
START_TEST(box_on_box_four_points)
{
    mk_shape slab, cube;
    ck_assert_int_eq(mk_shape_box(&slab, v3(1, 1, 0.1), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&cube, v3(0.1, 0.1, 0.1), 0), MK_OK);
    mk_pair p = {&slab, at(v3(0, 0, 0)), &cube, at(v3(0.1, -0.2, 0.19))};
    mk_collide_settings s = mk_collide_default_settings();
    mk_gjk_cache cache = {0};
    mk_manifold m;
    ck_assert_int_eq(mk_collide(&p, &s, &cache, &m), MK_PENETRATING);
    ck_assert_int_eq(m.count, 4);
    ck_assert_double_eq_tol(m.normal.z, 1, 1e-12);
    for (int i = 0; i < 4; ++i)
        ck_assert_double_eq_tol(m.points[i].depth, 0.01, 1e-9);
    p.xf_b.p.z = 0.205;
    s.speculative = 0.01;
    ck_assert_int_eq(mk_collide(&p, &s, &cache, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(m.count, 4);
    ck_assert_double_eq_tol(min_separation(&m), 0.005, 1e-9);
    s.speculative = 0;
    ck_assert_int_eq(mk_collide(&p, &s, &cache, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(m.count, 0);
}
END_TEST

/* On random pairs of every family, with and without a warm cache (which
 * switches the Boolean early exit on and off): points exist exactly when the
 * signed distance is within the speculative distance, and the deepest point
 * reproduces the signed distance. */
START_TEST(agrees_with_signed_distance)
{
    or_rng r = or_rng_make(0xc011);
    or_hull_pool p12, p60;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 16, 12), MK_OK);
    ck_assert_int_eq(or_hull_pool_make(&p60, &r, 16, 60), MK_OK);
    const or_family fams[] = {OR_SPHERE, OR_BOX, OR_CAPSULE, OR_CYLINDER, OR_CONE, OR_ELLIPSOID, OR_HULL12, OR_HULL60};
    static unsigned char ws[96 * 1024];
    int n = or_scaled(4000), with_points = 0;
    double worst = 0;
    for (int i = 0; i < n; ++i) {
        mk_shape a, b;
        or_random_shape(&r, fams[i % 8], &p12, &p60, &a);
        or_random_shape(&r, fams[(i / 8) % 8], &p12, &p60, &b);
        mk_transform xa, xb;
        or_place_pair(&r, &a, &b, or_uniform(&r, -0.1, 0.1), &xa, &xb);
        mk_pair p = {&a, xa, &b, xb};
        mk_signed_distance_result sd;
        mk_status sst = mk_signed_distance(&p, NULL, NULL, NULL, ws, sizeof ws, &sd);
        ck_assert_int_lt(sst, MK_INVALID_INPUT);
        mk_collide_settings s = mk_collide_default_settings();
        s.speculative = 0.02;
        mk_gjk_cache cache = {0};
        for (int pass = 0; pass < 2; ++pass) { /* cold, then warm from the first call */
            mk_manifold m;
            mk_status st = mk_collide(&p, &s, &cache, &m);
            ck_assert_int_lt(st, MK_INVALID_INPUT);
            if (sd.distance > s.speculative + 1e-7) {
                ck_assert_msg(m.count == 0, "pair %d: %d points at distance %g", i, m.count, sd.distance);
            } else if (sd.distance < s.speculative - 1e-7) {
                ck_assert_msg(m.count > 0, "pair %d: no points at distance %g", i, sd.distance);
                /* mk_collide guarantees the deepest point reaches the signed
                 * distance (it adds the witness pair when the manifold's
                 * features fall short); the manifold normal may differ from
                 * EPA's by a hair, hence the micrometre bound. */
                double deficit = min_separation(&m) - sd.distance;
                if (deficit > worst)
                    worst = deficit;
                ck_assert_msg(deficit <= 1e-5, "pair %d (types %d/%d): deepest point %g, signed distance %g", i,
                              a.type, b.type, min_separation(&m), sd.distance);
                ck_assert_msg(v3_dot(m.normal, sd.normal) > 0, "pair %d: normal flipped", i);
                with_points += pass == 0;
            }
        }
    }
    ck_assert_int_gt(with_points, n / 10); /* or_place_pair overlaps along u only: ~15% touch */
    fprintf(stderr, "collide: %d pairs, %d with points; deepest manifold point vs signed distance: worst shortfall %.3g m\n",
            n, with_points, worst);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* Against the ground z <= 0: a box tilted about x touches with one edge (two
 * points at the analytic depth), a standing cylinder with its rim (4 points),
 * a sphere with one point; a box buried far below the plane still gets the
 * right depth and the normal -n; bad planes are refused. */
START_TEST(plane_contacts)
{
    mk_collide_settings s = mk_collide_default_settings();
    mk_manifold m;
    mk_shape box, cyl, sph;
    ck_assert_int_eq(mk_shape_box(&box, v3(0.1, 0.2, 0.3), 0), MK_OK);
    ck_assert_int_eq(mk_shape_cylinder(&cyl, 0.2, 0.3, 0), MK_OK);
    ck_assert_int_eq(mk_shape_sphere(&sph, 0.25), MK_OK);
    double ang = 0.3;
    mk_transform t = mk_transform_from_quat(v3(0, 0, 0), (mk_quat){sin(ang / 2), 0, 0, cos(ang / 2)});
    /* lowest points: corners with y = +-0.2, z = -0.3 rotated about x */
    double low = fmin(-0.2 * sin(ang) - 0.3 * cos(ang), 0.2 * sin(ang) - 0.3 * cos(ang));
    t.p = v3(0.5, -1, -low - 0.02);
    ck_assert_int_eq(mk_collide_plane(&box, &t, v3(0, 0, 1), 0, &s, &m), MK_PENETRATING);
    ck_assert_int_eq(m.count, 2);
    ck_assert_double_eq_tol(m.normal.z, -1, 1e-12);
    for (int i = 0; i < m.count; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, 0.02, 1e-9);
        ck_assert_double_eq_tol(m.points[i].point_b.z, 0, 1e-9);
    }
    mk_transform c = at(v3(2, 3, 0.29));
    ck_assert_int_eq(mk_collide_plane(&cyl, &c, v3(0, 0, 2), 0, &s, &m), MK_PENETRATING);
    ck_assert_int_eq(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        ck_assert_double_eq_tol(m.points[i].depth, 0.01, 1e-9);
        mk_vec3 q = m.points[i].point_a;
        ck_assert_double_eq_tol(hypot(q.x - 2, q.y - 3), 0.2, 1e-9);
    }
    mk_transform ps = at(v3(0, 0, 1.24));
    ck_assert_int_eq(mk_collide_plane(&sph, &ps, v3(0, 0, 1), 1, &s, &m), MK_PENETRATING);
    ck_assert_int_eq(m.count, 1);
    ck_assert_double_eq_tol(m.points[0].depth, 0.01, 1e-12);
    /* buried: box centre 5 m below a tilted plane */
    mk_vec3 n = v3(0.6, 0, 0.8);
    mk_transform deep = at(v3_scale(n, -5));
    ck_assert_int_eq(mk_collide_plane(&box, &deep, n, 0, &s, &m), MK_PENETRATING);
    ck_assert_int_ge(m.count, 1);
    double support = 0.1 * 0.6 + 0.3 * 0.8; /* h(n) of the box */
    ck_assert_double_eq_tol(m.points[0].depth, 5 + support, 1e-9);
    ck_assert_double_eq_tol(v3_dot(m.normal, n), -1, 1e-9);
    /* apart beyond the speculative distance: nothing */
    mk_transform up = at(v3(0, 0, 1));
    ck_assert_int_eq(mk_collide_plane(&box, &up, v3(0, 0, 1), 0, &s, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(m.count, 0);
    /* refused */
    ck_assert_int_eq(mk_collide_plane(&box, &up, v3(0, 0, 0), 0, &s, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_collide_plane(&box, &up, v3(NAN, 0, 1), 0, &s, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_collide_plane(&box, &up, v3(0, 0, 1), INFINITY, &s, &m), MK_INVALID_INPUT);
    up.p.x = NAN;
    ck_assert_int_eq(mk_collide_plane(&box, &up, v3(0, 0, 1), 0, &s, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(m.count, 0);
}
END_TEST

/* Growth contact model: spheres 1 cm apart along a line through both centres
 * give exactly the signed distance (the growth ray is the centre line); two
 * boxes stacked 1 cm deep give the face normal and 4 points; a hull whose
 * frame origin lies outside it is MK_GROWTH_DEGENERATE without its centroid
 * as centre, and fine with it. */
START_TEST(growth_model)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_sphere(&a, 0.3), MK_OK);
    ck_assert_int_eq(mk_shape_sphere(&b, 0.2), MK_OK);
    mk_collide_settings s = mk_collide_default_settings();
    s.speculative = 0.05;
    mk_growth_input in = {0};
    in.pair = (mk_pair){&a, at(v3(0, 0, 0)), &b, at(v3(0.3, 0.4, 0.01 * 0 + 0))};
    in.pair.xf_b.p = v3_scale(v3(0.6, 0.8, 0), 0.51);
    mk_growth_cache gc = {0};
    mk_manifold m;
    ck_assert_int_eq(mk_collide_growth(&in, &s, &gc, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(m.count, 1);
    ck_assert_double_eq_tol(m.points[0].separation, 0.01, 1e-7);
    ck_assert_double_eq_tol(m.normal.x, 0.6, 1e-7);

    mk_shape slab, cube;
    ck_assert_int_eq(mk_shape_box(&slab, v3(1, 1, 0.1), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&cube, v3(0.1, 0.1, 0.1), 0), MK_OK);
    in.pair = (mk_pair){&slab, at(v3(0, 0, 0)), &cube, at(v3(0.05, 0, 0.19))};
    memset(&gc, 0, sizeof gc);
    ck_assert_int_eq(mk_collide_growth(&in, &s, &gc, &m), MK_GJK_INTERSECTING);
    ck_assert_int_eq(m.count, 4);
    ck_assert_double_eq_tol(m.normal.z, 1, 1e-6);
    for (int i = 0; i < 4; ++i)
        ck_assert_double_eq_tol(m.points[i].depth, 0.01, 1e-6);

    mk_vec3 pts[8];
    for (int i = 0; i < 8; ++i)
        pts[i] = v3(i & 1 ? 3.2 : 3, i & 2 ? 0.2 : 0, i & 4 ? 0.2 : 0);
    mk_hull *h = NULL;
    ck_assert_int_eq(mk_hull_create(pts, 8, &h), MK_OK);
    mk_shape hs;
    ck_assert_int_eq(mk_shape_hull(&hs, h, 0), MK_OK);
    in.pair = (mk_pair){&hs, at(v3(-3, 0, 0)), &cube, at(v3(0.1, 0.1, 0.29))};
    memset(&gc, 0, sizeof gc);
    ck_assert_int_eq(mk_collide_growth(&in, &s, &gc, &m), MK_GROWTH_DEGENERATE);
    ck_assert_int_eq(m.count, 0);
    in.centre_a = h->centroid;
    ck_assert_int_eq(mk_collide_growth(&in, &s, &gc, &m), MK_GJK_INTERSECTING);
    ck_assert_int_ge(m.count, 1);
    ck_assert_double_eq_tol(m.normal.z, 1, 1e-6);
    ck_assert_double_eq_tol(min_separation(&m), -0.01, 1e-6);
    mk_hull_destroy(h);
    ck_assert_int_eq(mk_collide_growth(NULL, &s, &gc, &m), MK_INVALID_INPUT);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collide");
    TCase *tc = tcase_create("collide");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, box_on_box_four_points);
    tcase_add_test(tc, agrees_with_signed_distance);
    tcase_add_test(tc, plane_contacts);
    tcase_add_test(tc, growth_model);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
