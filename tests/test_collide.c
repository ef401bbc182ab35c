/* collide suite: the engine-facing composition (signed distance + manifold,
 * half-space contacts, growth-distance contact model) against analytic answers
 * and against the separately tested queries it is made of. */
#include <minkowski/minkowski.h>

#include "box_sat.h"
#include "meshes.h"
#include "oracle.h"
#include "require.h"
#include "vec.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mk_transform at(mk_vec3 p) { return mk_transform_from_quat(p, (mk_quat){0, 0, 0, 1}); }

static double min_separation_of(const mk_manifold_point *pts, int count)
{
    double s = INFINITY;
    for (int i = 0; i < count; ++i)
        s = fmin(s, pts[i].separation);
    return s;
}
static double min_separation(const mk_manifold *m) { return min_separation_of(m->points, m->count); }
static double min_separation_patch(const mk_contact_patch_result *m) { return min_separation_of(m->points, m->count); }

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
    or_rng r = or_test_rng(0xc011);
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
                REQUIRE(m.count == 0, "pair %d: %d points at distance %g", i, m.count, sd.distance);
            } else if (sd.distance < s.speculative - 1e-7) {
                REQUIRE(m.count > 0, "pair %d: no points at distance %g", i, sd.distance);
                /* mk_collide guarantees the deepest point reaches the signed
                 * distance (it adds the witness pair when the manifold's
                 * features fall short); the manifold normal may differ from
                 * EPA's by a hair, hence the micrometre bound. */
                double deficit = min_separation(&m) - sd.distance;
                if (deficit > worst)
                    worst = deficit;
                /* A full manifold keeps its chosen points unless the
                 * witness is deeper by more than the reduction's depth tie. */
                mk_vec3 lo, hi;
                mk_shape_local_aabb(&a, &lo, &hi);
                double ea = 0.5 * v3_max_abs(v3_sub(hi, lo));
                mk_shape_local_aabb(&b, &lo, &hi);
                double eb = 0.5 * v3_max_abs(v3_sub(hi, lo));
                double allowed = m.count < MK_MANIFOLD_MAX_POINTS ? 1e-5 : fmax(1e-5, 1.1e-4 * fmin(ea, eb));
                REQUIRE(deficit <= allowed, "pair %d (types %d/%d): deepest point %g, signed distance %g", i,
                        a.type, b.type, min_separation(&m), sd.distance);
                REQUIRE(v3_dot(m.normal, sd.normal) > 0, "pair %d: normal flipped", i);
                for (int k = 0; k < m.count; ++k) { /* manifold.h: separation = <point_b - point_a, normal> */
                    const double proj = v3_dot(v3_sub(m.points[k].point_b, m.points[k].point_a), m.normal);
                    REQUIRE(fabs(proj - m.points[k].separation) <= 1e-12, "pair %d point %d: separation %.17g, "
                            "projection %.17g", i, k, m.points[k].separation, proj);
                }
                for (int k = 1; k < m.count; ++k) /* manifold.h: increasing feature ids, the witness too */
                    REQUIRE(m.points[k - 1].id < m.points[k].id, "pair %d: ids %08x, %08x out of order", i,
                            m.points[k - 1].id, m.points[k].id);
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

/* The exact witness pair joins a manifold whose features fall short of the
 * depth with its own id (0x7FFFFFF0); it was appended after the sorted
 * points, so ids came out as 800200ff, 800201ff, 7ffffff0 against manifold.h's
 * "increasing feature id" (found by a fuzzer: a 2 mm cylinder deep inside a
 * rounded box 400 m across, under a relative EPA tolerance of 1e-3). */
START_TEST(witness_point_keeps_id_order)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_cylinder(&a, 0.0023636246463963123, 0.0031895099082826757, 4.5896978082564344e-05),
                     MK_OK);
    ck_assert_int_eq(mk_shape_box(&b, v3(171.07540027797006, 402.57373277541262, 207.81125336493349),
                                  7.7738806222712045),
                     MK_OK);
    const mk_transform xa = {{{{-0.33685149296486117, 0.4635022929108934, -0.81957104399416625},
                               {-0.8276001295472335, 0.26934238057956883, 0.49247609850340202},
                               {0.44900901690360906, 0.84416841121311492, 0.29286617464155795}}},
                             {0, 0, 0}};
    const mk_transform xb = {{{{-0.33685149319791763, 0.46350229313190383, -0.81957104377338708},
                               {-0.82760012948267914, 0.26934238030484192, 0.49247609876213705},
                               {0.44900901684775224, 0.8441684111794211, 0.29286617482431526}}},
                             {-0.00017530104333312823, 6.7003743896360942e-05, 6.656494920142839e-05}};
    mk_pair p = {&a, xa, &b, xb};
    mk_collide_settings s = mk_collide_default_settings();
    s.epa.tolerance = 1.091730038116428e-07;
    s.epa.relative_tolerance = 0.0009732303792956427;
    s.speculative = 0.00045396626497675087;
    mk_manifold m;
    ck_assert_int_eq(mk_collide(&p, &s, NULL, &m), MK_PENETRATING);
    ck_assert_int_ge(m.count, 2);
    for (int k = 1; k < m.count; ++k)
        REQUIRE(m.points[k - 1].id < m.points[k].id, "mk_collide: ids %08x, %08x out of order", m.points[k - 1].id,
                m.points[k].id);
    mk_collide_cache cc;
    memset(&cc, 0, sizeof cc);
    mk_contact_patch_result pr;
    ck_assert_int_eq(mk_collide_patch(&p, &s, &cc, 8, &pr), MK_PENETRATING);
    for (int k = 1; k < pr.count; ++k)
        REQUIRE(pr.points[k - 1].id < pr.points[k].id, "mk_collide_patch: ids %08x, %08x out of order",
                pr.points[k - 1].id, pr.points[k].id);
}
END_TEST

/* The witness pair lies along the signed-distance normal; the manifold's
 * normal is its reference face's, which may differ by up to the face angle.
 * The witness took the signed distance as its separation, 1.3e-3 off
 * <point_b - point_a, normal> (manifold.h's definition) at a depth of 250: a
 * box rounded by 202 against an ellipsoid at the same place, GJK settings
 * from a fuzzer. */
START_TEST(witness_point_separation_along_the_manifold_normal)
{
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_box(&a, v3(14.779925168472873, 0.053018688347022558, 0.13883985894645517),
                                  202.28602786400879),
                     MK_OK);
    ck_assert_int_eq(mk_shape_ellipsoid(&b, v3(33.011323982054833, 183.82826363534912, 49.682097513649424)), MK_OK);
    const mk_transform x = {{{{-0.49998784152514797, -0.84452560652372077, -0.19180369718221119},
                              {-0.50251662408416897, 0.10253724573310441, 0.8584655821618703},
                              {-0.70532914362450216, 0.52560689984361009, -0.47565553291296414}}},
                            {0, 0, 0}};
    mk_pair p = {&a, x, &b, x};
    mk_collide_settings s = mk_collide_default_settings();
    s.gjk.variant = MK_GJK_NESTEROV;
    s.gjk.normalize_dir = 1;
    s.gjk.fallback_to_vanilla = 0;
    s.gjk.tolerance = 5.1758755258611417;
    s.gjk.max_iterations = 1000;
    s.gjk.init = MK_GJK_INIT_USER;
    s.gjk.init_guess = v3(-239.91274462610684, 70.96273183182565, 212.18001612000532);
    s.epa.tolerance = 0;
    s.epa.relative_tolerance = 9.5151824642197827e-05;
    s.speculative = 1.3794127772208271;
    mk_manifold m;
    ck_assert_int_eq(mk_collide(&p, &s, NULL, &m), MK_PENETRATING);
    ck_assert_int_ge(m.count, 1);
    for (int k = 0; k < m.count; ++k) {
        const double proj = v3_dot(v3_sub(m.points[k].point_b, m.points[k].point_a), m.normal);
        REQUIRE(fabs(proj - m.points[k].separation) <= 1e-9 * fabs(proj), "point %d (id %08x): separation %.17g, "
                "projection %.17g", k, m.points[k].id, m.points[k].separation, proj);
    }
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

/* The half-space as the box it used to be stood in for (the plane's top face,
 * centred under the shape, large enough that leaving through its top is the
 * shortest way out): the same contact features through the general face
 * clipping of mk_contact_manifold, an independent path to the same points. */
static mk_status plane_as_box(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, double c, double sd,
                              double spec, mk_manifold *m)
{
    mk_vec3 lo, hi;
    mk_shape_local_aabb(shape, &lo, &hi);
    double R = fmax(v3_max_abs(lo), v3_max_abs(hi)) * 1.7320508075688772 + shape->radius;
    double h = v3_dot(n, xf->p) - c, half = 2 * R + 2 * fabs(h) + 1e-9 * (1 + R);
    mk_shape box;
    mk_shape_box(&box, v3(half, half, half), 0);
    mk_vec3 t = fabs(n.x) < 0.6 ? v3(1, 0, 0) : v3(0, 1, 0);
    mk_vec3 u = v3_normalize_or(v3_sub(t, v3_scale(n, v3_dot(t, n))), v3(0, 0, 1)), w = v3_cross(n, u);
    mk_transform bx;
    bx.R = (mk_mat3){{{u.x, w.x, n.x}, {u.y, w.y, n.y}, {u.z, w.z, n.z}}};
    bx.p = v3_sub(xf->p, v3_scale(n, h + half));
    mk_pair pair = {shape, *xf, &box, bx};
    mk_manifold_settings ms = mk_manifold_default_settings();
    ms.speculative_distance = spec;
    return mk_contact_manifold(&pair, v3_neg(n), sd, &ms, m);
}

/* Whether the half-space path and the stand-in took two faces through one
 * edge of the shape: at least two of m's points at its deepest separation
 * are points of box (within tol). When the shape's lowest feature is an edge
 * parallel to the plane, or two faces through an edge are aligned with the
 * plane within the manifold's face tie, either face faces the plane and
 * the two paths may take different ones (seen at MK_TEST_SCALE=3 and 10). */
static int same_deepest_edge(const mk_manifold *m, const mk_manifold *box, double tol)
{
    const double deepest = min_separation(m);
    int shared = 0;
    for (int k = 0; k < m->count; ++k) {
        if (m->points[k].separation > deepest + tol)
            continue;
        for (int j = 0; j < box->count; ++j)
            if (v3_len(v3_sub(m->points[k].position, box->points[j].position)) <= tol) {
                ++shared;
                break;
            }
    }
    return shared >= 2;
}

/* mk_collide_plane on every shape family, against the half-space as a box
 * (plane_as_box) and the oracle's support values: random tilts and, half the
 * time, a face, cap or axis of the shape nearly (1e-3 rad) or exactly parallel
 * to the plane; 2 cm apart to 5 cm deep, speculative 0 or 1 cm. The deepest
 * point is the oracle's depth; every point lies on the plane (point_b) and
 * at its separation above it (point_a); the count and the points are the
 * stand-in's. */
START_TEST(plane_matches_box_standin)
{
    or_rng r = or_test_rng(0x91a7e);
    or_hull_pool p12, p60;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 16, 12), MK_OK);
    ck_assert_int_eq(or_hull_pool_make(&p60, &r, 16, 60), MK_OK);
    int n = or_scaled(12000), with_points = 0, same_points = 0, compared = 0, edge_ties = 0;
    double worst_depth = 0, worst_point = 0;
    for (int i = 0; i < n; ++i) {
        mk_shape s;
        or_random_shape(&r, (or_family)(i % OR_FAMILY_COUNT), &p12, &p60, &s);
        mk_transform xf = or_pose(&r, or_in_ball(&r, 3));
        mk_vec3 nrm = or_unit(&r);
        if (or_int(&r, 2)) {
            /* a local axis (box, cylinder and cone faces) or a hull face normal, outward along -n */
            mk_vec3 dl = v3(0, 0, 0);
            if ((s.type == MK_SHAPE_HULL) && s.u.hull.hull->num_faces > 0)
                dl = s.u.hull.hull->face_normals[or_int(&r, s.u.hull.hull->num_faces)];
            else if (or_int(&r, 3) == 0)
                dl.x = or_int(&r, 2) ? 1 : -1;
            else
                dl.z = or_int(&r, 2) ? 1 : -1;
            nrm = v3_neg(m3_mul(&xf.R, dl));
            if (or_int(&r, 2))
                nrm = v3_normalize_or(v3_add(nrm, or_in_ball(&r, 1e-3)), nrm);
        }
        double spec = or_int(&r, 2) ? 0.01 : 0;
        double gap = or_uniform(&r, -0.05, 0.02);
        /* or_support_value: max <d, x> over the posed shape; its lowest point along n is -h(-n) */
        double c = -or_support_value(&s, &xf, v3_neg(nrm)) - gap;
        mk_collide_settings st = mk_collide_default_settings();
        st.speculative = spec;
        mk_manifold m, box;
        const double scale_n = or_uniform(&r, 0.5, 2); /* n need not be unit */
        mk_status rs = mk_collide_plane(&s, &xf, v3_scale(nrm, scale_n), scale_n * c, &st, &m);
        double sd = -or_support_value(&s, &xf, v3_neg(nrm)) - c; /* the oracle's */
        REQUIRE(rs == (sd > 0 ? MK_GJK_SEPARATED : sd < 0 ? MK_PENETRATING : MK_GJK_INTERSECTING) ||
                    fabs(sd) < 1e-12,
                "case %d (%s): status %d, oracle distance %g, n %g %g %g c %g", i,
                or_family_name((or_family)(i % OR_FAMILY_COUNT)), rs, sd, nrm.x, nrm.y, nrm.z, c);
        if (sd > spec + 1e-9) {
            ck_assert_int_eq(m.count, 0);
            continue;
        }
        if (sd < spec - 1e-9)
            ck_assert_int_gt(m.count, 0);
        if (m.count == 0)
            continue;
        ++with_points;
        mk_vec3 lo, hi;
        mk_shape_local_aabb(&s, &lo, &hi);
        const double size = 0.5 * v3_max_abs(v3_sub(hi, lo)), eps = 1e-12 * (1 + v3_max_abs(xf.p) + size);
        ck_assert_double_eq_tol(v3_dot(m.normal, nrm), -1, 1e-12);
        /* a full manifold keeps the deepest point to within the reduction's
         * depth tie; a cylinder's or cone's cap ring skips its extra deepest
         * rim point within MK_MF_RING_SNAP (1e-3) of the sample spacing from
         * a sample (manifold.c), a sample higher by at most r sin(0.1) (1 -
         * cos(3.9e-4 rad)) < 1e-8 r on a cap tilted by up to the cap angle
         * (MK_TEST_SCALE=300, case 2705787: 5.1e-9 on a cylinder) */
        const int capped = s.type == MK_SHAPE_CYLINDER || s.type == MK_SHAPE_CONE;
        const double allowed = m.count < MK_MANIFOLD_MAX_POINTS ? 1e-9 * (1 + size) + (capped ? 1e-8 * size : 0)
                                                                : 1.1e-4 * size;
        REQUIRE(min_separation(&m) >= sd - 1e-9 * (1 + size) && min_separation(&m) - sd <= allowed,
                "case %d: deepest %.12g, oracle %.12g", i, min_separation(&m), sd);
        worst_depth = fmax(worst_depth, fabs(min_separation(&m) - sd));
        for (int k = 0; k < m.count; ++k) {
            const mk_manifold_point *q = &m.points[k];
            REQUIRE(q->separation <= spec + 1e-9, "q->separation <= spec + 1e-9");
            ck_assert_double_eq_tol(v3_dot(nrm, q->point_b), c, 1e3 * eps);
            ck_assert_double_eq_tol(v3_dot(nrm, q->point_a) - c, q->separation, 1e3 * eps);
            /* on the shape: no farther out along -n than its support plane */
            ck_assert(v3_dot(v3_neg(nrm), q->point_a) <= or_support_value(&s, &xf, v3_neg(nrm)) + 1e3 * eps);
        }
        ck_assert_int_eq(plane_as_box(&s, &xf, nrm, c, sd, spec, &box), MK_OK);
        ++compared;
        /* Never fewer points, except where the two took different faces
         * through the deepest edge (same_deepest_edge). Cylinder and cone caps
         * may differ: their rim rings are reduced with ties decided by
         * feature ids, which differ (and the stand-in falls back to one point
         * on some tilted caps whose reduced ring misses the exact depth by
         * less than the tie). */
        const int ring = s.type == MK_SHAPE_CYLINDER || s.type == MK_SHAPE_CONE;
        /* the point tolerance: see below */
        double tol = 1e-9 * (1 + size);
        for (int k = 0; k < m.count; ++k)
            tol = fmax(tol, 1e-9 * (1 + size) + 5e-3 * (fabs(m.points[k].separation) + s.radius));
        if (box.count != m.count) {
            const int tie = !ring && same_deepest_edge(&m, &box, tol);
            REQUIRE(m.count > box.count || tie, "case %d: %d points, stand-in %d", i, m.count, box.count);
            REQUIRE(ring || tie, "case %d (type %d): %d points, stand-in %d", i, s.type, m.count, box.count);
            edge_ties += tie;
            continue;
        }
        /* Each point at one of the stand-in's. When the shape's face is the
         * stand-in's reference (parallel to the plane within the manifold's
         * reference bias, 1e-5 in cosine: 4.5e-3 rad), it pairs each vertex
         * with its projection along the face normal, not n, and rounds along
         * that normal: the midpoints then differ by up to (|separation| +
         * radius) x that angle. */
        double far = 0;
        for (int k = 0; k < m.count; ++k) {
            double best = INFINITY;
            for (int j = 0; j < box.count; ++j)
                best = fmin(best, v3_len(v3_sub(m.points[k].position, box.points[j].position)));
            far = fmax(far, best);
        }
        if (far > tol && !ring) {
            REQUIRE(same_deepest_edge(&m, &box, tol), "case %d (type %d): a point %g from the stand-in's", i,
                    s.type, far);
            ++edge_ties;
            continue;
        }
        if (!ring)
            worst_point = fmax(worst_point, far);
        same_points += far <= tol;
    }
    fprintf(stderr, "collide plane: %d cases, %d with points, %d with the stand-in's points (%d others through the "
                    "same deepest edge); worst depth error %.3g m, worst point distance (boxes, hulls) %.3g m\n",
            n, with_points, same_points, edge_ties, worst_depth, worst_point);
    ck_assert_int_gt(with_points, n / 2);
    ck_assert_int_ge(same_points, compared - compared / 100);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* Bevelled box hull (the demo's stack body): a cube of half side h with every
 * corner cut by c along each axis, 24 points. */
static mk_hull *bevelled_box(double h, double c)
{
    mk_vec3 pts[24];
    int k = 0;
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2)
            for (int sz = -1; sz <= 1; sz += 2) {
                pts[k++] = v3(sx * (h - c), sy * h, sz * h);
                pts[k++] = v3(sx * h, sy * (h - c), sz * h);
                pts[k++] = v3(sx * h, sy * h, sz * (h - c));
            }
    mk_hull *hull = NULL;
    return mk_hull_create(pts, k, &hull) == MK_OK ? hull : NULL;
}

static int v3_same(mk_vec3 a, mk_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/* Every field equal (not memcmp: the struct has padding). */
static int same_point(const mk_manifold_point *p, const mk_manifold_point *q)
{
    return v3_same(p->point_a, q->point_a) && v3_same(p->point_b, q->point_b) && v3_same(p->position, q->position) &&
           p->separation == q->separation && p->depth == q->depth && p->id == q->id;
}

/* mk_collide_plane_patch: with max_points 4 it is mk_collide_plane, point for
 * point, on every shape family; with more, the four points are among its
 * points (the reduction picks the same first four, then adds), every point
 * lies on the plane and on the shape, and the deepest stays within the tie
 * of the oracle's depth. Analytic: a bevelled box (each corner of a 0.2 m cube
 * cut by 1 cm) flat on its octagon 1.2 mm deep gives the 8 octagon corners
 * at that depth (4 with mk_collide_plane); a standing cylinder 8 rim points.
 * Counts outside 4 .. 8, no output and a NaN pose are refused. */
START_TEST(plane_patch_points)
{
    mk_collide_settings st = mk_collide_default_settings();
    const double h = 0.1, cut = 0.01, deep = 0.0012;
    mk_hull *bev = bevelled_box(h, cut);
    ck_assert_ptr_nonnull(bev);
    mk_shape bevelled;
    ck_assert_int_eq(mk_shape_hull(&bevelled, bev, 0), MK_OK);
    const double yaw = 0.4;
    mk_transform xf = mk_transform_from_quat(v3(0.3, -0.2, h - deep), (mk_quat){0, 0, sin(yaw / 2), cos(yaw / 2)});
    mk_contact_patch_result pr;
    mk_manifold m;
    ck_assert_int_eq(mk_collide_plane_patch(&bevelled, &xf, v3(0, 0, 1), 0, &st, 8, &pr), MK_PENETRATING);
    ck_assert_int_eq(pr.count, 8);
    ck_assert_double_eq_tol(pr.normal.z, -1, 1e-15);
    for (int i = 0; i < pr.count; ++i) {
        const mk_vec3 q = m3_tmul(&xf.R, v3_sub(pr.points[i].point_a, xf.p)); /* in the box's frame */
        const double ax = fabs(q.x), ay = fabs(q.y);
        REQUIRE(fabs(q.z + h) <= 1e-12 && ((fabs(ax - (h - cut)) <= 1e-12 && fabs(ay - h) <= 1e-12) ||
                                           (fabs(ax - h) <= 1e-12 && fabs(ay - (h - cut)) <= 1e-12)),
                "point %d at %g %g %g: not an octagon corner", i, q.x, q.y, q.z);
        ck_assert_double_eq_tol(pr.points[i].depth, deep, 1e-12);
        ck_assert_double_eq_tol(pr.points[i].point_b.z, 0, 1e-12);
        for (int j = 0; j < i; ++j)
            ck_assert_uint_ne(pr.points[i].id, pr.points[j].id);
    }
    ck_assert_int_eq(mk_collide_plane(&bevelled, &xf, v3(0, 0, 1), 0, &st, &m), MK_PENETRATING);
    ck_assert_int_eq(m.count, 4);
    mk_shape cyl;
    ck_assert_int_eq(mk_shape_cylinder(&cyl, 0.2, 0.3, 0), MK_OK);
    mk_transform c = at(v3(2, 3, 0.29));
    ck_assert_int_eq(mk_collide_plane_patch(&cyl, &c, v3(0, 0, 1), 0, &st, 8, &pr), MK_PENETRATING);
    ck_assert_int_eq(pr.count, 8);
    for (int i = 0; i < pr.count; ++i) {
        ck_assert_double_eq_tol(pr.points[i].depth, 0.01, 1e-9);
        ck_assert_double_eq_tol(hypot(pr.points[i].point_a.x - 2, pr.points[i].point_a.y - 3), 0.2, 1e-9);
    }
    /* refused */
    ck_assert_int_eq(mk_collide_plane_patch(&cyl, &c, v3(0, 0, 1), 0, &st, 3, &pr), MK_INVALID_INPUT);
    ck_assert_int_eq(pr.count, 0);
    ck_assert_int_eq(mk_collide_plane_patch(&cyl, &c, v3(0, 0, 1), 0, &st, MK_MANIFOLD_MAX_PATCH_POINTS + 1, &pr),
                     MK_INVALID_INPUT);
    ck_assert_int_eq(mk_collide_plane_patch(&cyl, &c, v3(0, 0, 1), 0, &st, 8, NULL), MK_INVALID_INPUT);
    c.p.y = NAN;
    ck_assert_int_eq(mk_collide_plane_patch(&cyl, &c, v3(0, 0, 1), 0, &st, 8, &pr), MK_INVALID_INPUT);
    ck_assert_int_eq(pr.count, 0);

    /* random shapes, tilts and planes, as plane_matches_box_standin */
    or_rng r = or_test_rng(0x9a7c4);
    or_hull_pool p12, p60;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 16, 12), MK_OK);
    ck_assert_int_eq(or_hull_pool_make(&p60, &r, 16, 60), MK_OK);
    const int n = or_scaled(6000);
    int more = 0;
    for (int i = 0; i < n; ++i) {
        mk_shape s;
        or_random_shape(&r, (or_family)(i % OR_FAMILY_COUNT), &p12, &p60, &s);
        mk_transform x = or_pose(&r, or_in_ball(&r, 3));
        mk_vec3 nrm = or_unit(&r);
        if (or_int(&r, 2)) { /* a face, cap or axis facing the plane */
            mk_vec3 dl = v3(0, 0, or_int(&r, 2) ? 1 : -1);
            if (s.type == MK_SHAPE_HULL && s.u.hull.hull->num_faces > 0)
                dl = s.u.hull.hull->face_normals[or_int(&r, s.u.hull.hull->num_faces)];
            nrm = v3_neg(m3_mul(&x.R, dl));
        }
        st.speculative = or_int(&r, 2) ? 0.01 : 0;
        const double pc = -or_support_value(&s, &x, v3_neg(nrm)) - or_uniform(&r, -0.05, 0.02);
        const double sd = -or_support_value(&s, &x, v3_neg(nrm)) - pc; /* the oracle's */
        const mk_status s4 = mk_collide_plane(&s, &x, nrm, pc, &st, &m);
        ck_assert_int_eq(mk_collide_plane_patch(&s, &x, nrm, pc, &st, 4, &pr), s4);
        ck_assert_int_eq(pr.count, m.count);
        for (int a = 0; a < m.count; ++a)
            REQUIRE(same_point(&pr.points[a], &m.points[a]), "case %d: point %d differs from mk_collide_plane's", i, a);
        const int cap = 5 + or_int(&r, MK_MANIFOLD_MAX_PATCH_POINTS - 4);
        ck_assert_int_eq(mk_collide_plane_patch(&s, &x, nrm, pc, &st, cap, &pr), s4);
        ck_assert_int_le(pr.count, cap);
        ck_assert_int_ge(pr.count, m.count);
        if (m.count == 0)
            continue;
        more += pr.count > m.count;
        ck_assert_double_eq_tol(v3_dot(pr.normal, nrm), -1, 1e-12);
        for (int a = 0; a < m.count; ++a) { /* the four among the patch's points */
            int found = 0;
            for (int b = 0; b < pr.count && !found; ++b)
                found = same_point(&pr.points[b], &m.points[a]);
            REQUIRE(found, "case %d (%s): point %d of mk_collide_plane is not among the patch's %d", i,
                    or_family_name((or_family)(i % OR_FAMILY_COUNT)), a, pr.count);
        }
        mk_vec3 lo, hi;
        mk_shape_local_aabb(&s, &lo, &hi);
        const double size = 0.5 * v3_max_abs(v3_sub(hi, lo)), eps = 1e-9 * (1 + v3_max_abs(x.p) + size);
        const double deepest = min_separation_patch(&pr);
        REQUIRE(deepest >= sd - eps && deepest - sd <= (pr.count < cap ? eps : 1.1e-4 * size),
                "case %d: deepest %.12g, oracle %.12g", i, deepest, sd);
        for (int b = 0; b < pr.count; ++b) {
            const mk_manifold_point *q = &pr.points[b];
            REQUIRE(q->separation <= st.speculative + eps, "case %d: point %d beyond reach", i, b);
            ck_assert_double_eq_tol(v3_dot(nrm, q->point_b), pc, eps);
            ck_assert_double_eq_tol(v3_dot(nrm, q->point_a) - pc, q->separation, eps);
            ck_assert(v3_dot(v3_neg(nrm), q->point_a) <= or_support_value(&s, &x, v3_neg(nrm)) + eps);
        }
    }
    fprintf(stderr, "collide plane patch: %d cases, %d with more points than mk_collide_plane's\n", n, more);
    ck_assert_int_gt(more, n / 20);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
    mk_hull_destroy(bev);
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
    /* the patch's room out of range: no points */
    mk_contact_patch_result pr;
    in.pair = (mk_pair){&slab, at(v3(0, 0, 0)), &cube, at(v3(0.05, 0, 0.19))};
    in.centre_a = v3(0, 0, 0);
    ck_assert_int_eq(mk_collide_growth_patch(&in, &s, NULL, 3, &pr), MK_INVALID_INPUT);
    ck_assert_int_eq(pr.count, 0);
    ck_assert_int_eq(mk_collide_growth_patch(&in, &s, NULL, MK_MANIFOLD_MAX_PATCH_POINTS + 1, &pr), MK_INVALID_INPUT);
    ck_assert_int_eq(pr.count, 0);
    ck_assert_int_eq(mk_collide_growth_patch(&in, &s, NULL, 8, &pr), MK_GJK_INTERSECTING);
    ck_assert_int_eq(pr.count, 4);
}
END_TEST

/* Points and ids equal to a reference's, points to 1e-12. */
static void same_points(const mk_manifold_point *p, const mk_manifold_point *q, int count, int i, const char *what)
{
    for (int k = 0; k < count; ++k) {
        REQUIRE(p[k].id == q[k].id, "#%d %s point %d: id %08x, reference %08x", i, what, k, (unsigned)p[k].id,
                (unsigned)q[k].id);
        REQUIRE(v3_len(v3_sub(p[k].point_a, q[k].point_a)) <= 1e-12 &&
                    v3_len(v3_sub(p[k].point_b, q[k].point_b)) <= 1e-12 &&
                    fabs(p[k].separation - q[k].separation) <= 1e-12,
                "#%d %s point %d differs", i, what, k);
    }
}

/* Growth contact model on box pairs: mk_collide_growth's dedicated face clip
 * gives what the general manifold gives on the growth solution's normal and
 * separation (mk_growth_distance, then mk_contact_manifold): count, ids and
 * order exactly, points and separations up to rounding; and so does
 * mk_collide_growth_patch against mk_contact_patch with room for 8 (a yawed
 * box on a box: the octagon whole), and with room for 4 against
 * mk_collide_growth. Boxes stacked with a yaw and a small tilt (face contacts,
 * the clip's case), sharp and rounded, and in random orientations (edges and
 * corners, where the clip hands over). */
START_TEST(growth_model_boxes_match_general_manifold)
{
    or_rng r = or_test_rng(0x6b0c5);
    mk_collide_settings s = mk_collide_default_settings();
    s.speculative = 0.02;
    mk_manifold_settings ms = mk_manifold_default_settings();
    ms.speculative_distance = s.speculative;
    int clipped = 0, octagons = 0;
    for (int i = 0; i < or_scaled(2000); ++i) {
        mk_shape a, b;
        const double rad = i % 3 == 2 ? or_uniform(&r, 0.001, 0.02) : 0;
        ck_assert_int_eq(mk_shape_box(&a, v3(or_uniform(&r, 0.05, 0.5), or_uniform(&r, 0.05, 0.5),
                                              or_uniform(&r, 0.05, 0.3)), rad), MK_OK);
        ck_assert_int_eq(mk_shape_box(&b, v3(or_uniform(&r, 0.05, 0.3), or_uniform(&r, 0.05, 0.3),
                                              or_uniform(&r, 0.05, 0.3)), rad), MK_OK);
        mk_transform xb;
        if (i % 4 == 3) {
            xb = or_pose(&r, v3_scale(or_unit(&r), or_uniform(&r, 0.1, 0.6)));
        } else {
            const double yaw = or_uniform(&r, -1, 1), tilt = or_uniform(&r, -0.02, 0.02);
            mk_quat q = {sin(0.5 * tilt), 0, sin(0.5 * yaw), 1};
            const double l = sqrt(q.x * q.x + q.z * q.z + q.w * q.w);
            q.x /= l, q.z /= l, q.w /= l;
            const double gap = or_uniform(&r, -0.02, 0.01);
            xb = mk_transform_from_quat(v3(or_uniform(&r, -0.1, 0.1), or_uniform(&r, -0.1, 0.1),
                                           a.u.box.half_extents.z + b.u.box.half_extents.z + 2 * rad + gap),
                                        q);
        }
        mk_growth_input in = {0};
        in.pair = (mk_pair){&a, at(v3(0, 0, 0)), &b, xb};
        mk_manifold m, ref;
        const mk_status st = mk_collide_growth(&in, &s, NULL, &m);
        mk_growth_result g;
        REQUIRE(mk_growth_distance(&in, &s.growth, NULL, &g) == st, "#%d: status %s", i, mk_status_string(st));
        if (st != MK_GJK_SEPARATED && st != MK_GJK_INTERSECTING)
            continue;
        const double sep = v3_dot(v3_sub(g.point_b, g.point_a), g.normal);
        if (sep > s.speculative) {
            REQUIRE(m.count == 0, "#%d: %d points at separation %g", i, m.count, sep);
            continue;
        }
        ck_assert_int_eq(mk_contact_manifold(&in.pair, g.normal, sep, &ms, &ref), MK_OK);
        REQUIRE(m.count == ref.count, "#%d: %d points, general path %d", i, m.count, ref.count);
        clipped += m.count >= 3;
        REQUIRE(v3_len(v3_sub(m.normal, ref.normal)) <= 1e-12, "#%d: normals differ", i);
        same_points(m.points, ref.points, m.count, i, "manifold");
        /* the patch: room for 8 against the general patch, for 4 against the manifold */
        mk_contact_patch_result p8, r8, p4;
        REQUIRE(mk_collide_growth_patch(&in, &s, NULL, 8, &p8) == st, "#%d: patch status", i);
        ck_assert_int_eq(mk_contact_patch(&in.pair, g.normal, sep, &ms, 8, &r8), MK_OK);
        REQUIRE(p8.count == r8.count, "#%d: %d patch points, general path %d", i, p8.count, r8.count);
        octagons += p8.count > 4;
        same_points(p8.points, r8.points, p8.count, i, "patch");
        REQUIRE(mk_collide_growth_patch(&in, &s, NULL, 4, &p4) == st && p4.count == m.count, "#%d: patch of 4", i);
        same_points(p4.points, m.points, m.count, i, "patch of 4");
    }
    ck_assert_int_ge(octagons, or_scaled(2000) / 10);
    /* most stacked pairs are face contacts */
    ck_assert_int_ge(clipped, or_scaled(2000) / 2);
}
END_TEST

/* ------------------------------------------------------------ certificates */

static mk_mat3 mat_mul(const mk_mat3 *a, const mk_mat3 *b)
{
    mk_mat3 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
    return r;
}

/* Turn the pose by angle about the world axis through pivot. */
static void turn(mk_transform *xf, mk_vec3 axis, double angle, mk_vec3 pivot)
{
    mk_vec3 u = v3_normalize_or(axis, v3(0, 0, 1));
    double s = sin(0.5 * angle);
    mk_transform rot = mk_transform_from_quat(v3(0, 0, 0), (mk_quat){u.x * s, u.y * s, u.z * s, cos(0.5 * angle)});
    xf->R = mat_mul(&rot.R, &xf->R);
    mk_vec3 d = v3_sub(xf->p, pivot);
    xf->p = v3_add(pivot, v3(rot.R.m[0][0] * d.x + rot.R.m[0][1] * d.y + rot.R.m[0][2] * d.z,
                             rot.R.m[1][0] * d.x + rot.R.m[1][1] * d.y + rot.R.m[1][2] * d.z,
                             rot.R.m[2][0] * d.x + rot.R.m[2][1] * d.y + rot.R.m[2][2] * d.z));
}

/* Independent distance (full shapes, >= 0): the exact oracle where one exists,
 * else the upper end of the certified bracket (alternating projections, no GJK).
 * Either way a value <= spec proves that a pair with no points is wrong. */
static double oracle_distance_upper(const mk_pair *p)
{
    double d;
    mk_vec3 pa, pb;
    if (or_exact_distance(p->a, &p->xf_a, p->b, &p->xf_b, &d, &pa, &pb))
        return d;
    return or_bracket_distance(p->a, &p->xf_a, p->b, &p->xf_b, 200).hi;
}

/* The test oracle's bracketing distance (tests/oracle.c) on a hull whose
 * frame origin lies outside it, inside the other shape: a sphere of radius
 * 1 and a box-shaped hull 0.5 from it, the hull's origin 0.5 inside the
 * sphere. It started its projections from that origin and called the pair
 * overlapping (test_collide at MK_TEST_SCALE=1000, sequence 201890 of the
 * next test: a cone and a 7-vertex hull, which made the certificate look
 * like a missed contact). The analytic distance is 0.5. */
START_TEST(oracle_brackets_a_hull_away_from_its_origin)
{
    mk_vec3 pts[8];
    for (int i = 0; i < 8; ++i)
        pts[i] = v3(i & 1 ? 2.4 : 2.0, i & 2 ? 0.2 : -0.2, i & 4 ? 0.2 : -0.2);
    mk_hull *h = NULL;
    ck_assert_int_eq(mk_hull_create(pts, 8, &h), MK_OK);
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_sphere(&a, 1), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&b, h, 0), MK_OK);
    const mk_transform xa = at(v3(0, 0, 0)), xb = at(v3(-0.5, 0, 0)); /* the hull spans x in [1.5, 1.9] */
    for (int swap = 0; swap < 2; ++swap) {
        const or_bracket br =
            swap ? or_bracket_distance(&b, &xb, &a, &xa, 200) : or_bracket_distance(&a, &xa, &b, &xb, 200);
        ck_assert_msg(!br.overlap && br.lo <= 0.5 + 1e-12 && br.hi >= 0.5 - 1e-12 && br.hi - br.lo <= 1e-9,
                      "swap %d: bracket [%.17g, %.17g], overlap %d", swap, br.lo, br.hi, br.overlap);
    }
    mk_hull_destroy(h);
}
END_TEST

/* Random motion sequences of every family (rounded ones too): two bodies drift
 * towards each other, touch, and drift apart, turning by up to 0.25 rad a step
 * about their origins or about points far outside them, with random
 * speculative distances (changing now and then). At every step
 * mk_collide_cached is compared with the full pipeline (mk_collide with its own
 * cache): when the certificate answers, the full pipeline must find no points
 * and the independent oracle distance must exceed the speculative distance;
 * when it does not, the pipeline ran and both agree on whether there are
 * points (away from the threshold) and on the deepest separation. The
 * shortcut must also actually fire on a good share of the separated steps. */
START_TEST(certificate_matches_full_pipeline)
{
    or_rng r = or_test_rng(0xce27);
    or_hull_pool p12, p60;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 16, 12), MK_OK);
    ck_assert_int_eq(or_hull_pool_make(&p60, &r, 16, 60), MK_OK);
    static unsigned char ws[96 * 1024];
    int sequences = or_scaled(400), steps = 60;
    long skipped = 0, separated_steps = 0, contact_steps = 0, compared = 0;
    for (int q = 0; q < sequences; ++q) {
        mk_shape a, b;
        or_random_shape(&r, (or_family)or_int(&r, OR_FAMILY_COUNT), &p12, &p60, &a);
        or_random_shape(&r, (or_family)or_int(&r, OR_FAMILY_COUNT), &p12, &p60, &b);
        mk_transform xa, xb;
        or_place_pair(&r, &a, &b, or_uniform(&r, 0.05, 0.6), &xa, &xb);
        /* closing velocity: about the initial gap over half the steps, so
         * most sequences touch and pass through */
        mk_vec3 gap_dir = v3_normalize_or(v3_sub(xb.p, xa.p), v3(1, 0, 0));
        double speed = or_uniform(&r, 0.005, 0.03);
        mk_vec3 va = v3_scale(gap_dir, speed * or_uniform(&r, 0, 1)), vb = v3_scale(gap_dir, -speed);
        mk_vec3 wa = or_in_ball(&r, 0.25), wb = or_in_ball(&r, 0.25);
        int far_pivot = or_int(&r, 3) == 0;
        mk_vec3 pivot_a = v3_add(xa.p, or_in_ball(&r, far_pivot ? 4 : 0));
        mk_vec3 pivot_b = v3_add(xb.p, or_in_ball(&r, far_pivot ? 4 : 0));
        mk_collide_settings s = mk_collide_default_settings();
        s.gjk.variant = (mk_gjk_variant)or_int(&r, 3);
        s.speculative = or_uniform(&r, 0, 0.05);
        mk_collide_cache cc;
        memset(&cc, 0, sizeof cc);
        mk_gjk_cache ref_cache = {0};
        for (int k = 0; k < steps; ++k) {
            if (or_int(&r, 20) == 0)
                s.speculative = or_uniform(&r, 0, 0.05);
            if (k == steps / 2) { /* turn round: drift apart again */
                va = v3_neg(va);
                vb = v3_neg(vb);
            }
            mk_pair p = {&a, xa, &b, xb};
            unsigned long long before = cc.skipped;
            mk_manifold m, ref;
            mk_status st = mk_collide_cached(&p, &s, &cc, &m);
            mk_status rst = mk_collide(&p, &s, &ref_cache, &ref);
            ck_assert_int_lt(st, MK_INVALID_INPUT);
            ck_assert_int_lt(rst, MK_INVALID_INPUT);
            if (cc.skipped != before) {
                ++skipped;
                ck_assert_int_eq(st, MK_GJK_SEPARATED);
                ck_assert_int_eq(m.count, 0);
                REQUIRE(ref.count == 0, "seq %d step %d: certificate skipped a pair the pipeline gives %d points", q,
                        k, ref.count);
                double d = oracle_distance_upper(&p);
                REQUIRE(d > s.speculative - 1e-9, "seq %d step %d (types %d/%d): skipped at distance %.9g <= %.9g", q,
                        k, a.type, b.type, d, s.speculative);
            } else {
                mk_signed_distance_result sd;
                ck_assert_int_lt(mk_signed_distance(&p, NULL, NULL, NULL, ws, sizeof ws, &sd), MK_INVALID_INPUT);
                /* Both ran the pipeline, from different warm starts (the
                 * reference's cache also moved on the skipped steps): they
                 * agree to GJK's distance tolerance, 1e-4 at the default gap
                 * tolerance 1e-8 (gjk.h); with MK_TEST_SCALE=10 one of
                 * 63,000 compared steps differed by 1.6e-5. */
                if (fabs(sd.distance - s.speculative) > 1e-4) {
                    REQUIRE((m.count > 0) == (ref.count > 0), "seq %d step %d: %d vs %d points", q, k, m.count,
                            ref.count);
                    if (m.count > 0) {
                        /* ... or to the signed distance's certified bracket
                         * when EPA stopped at its iteration bound short of
                         * its tolerance: a sphere's centre 4.5e-4 off a
                         * cylinder's axis, 1.15 deep (a ring of nearly
                         * nearest directions), 128 EPA iterations left the
                         * bracket 5.1e-4 wide, and the two differed by 1.9e-4
                         * inside it (MK_TEST_SCALE=300, sequence 77043). */
                        const double tol = fmax(1e-4, sd.upper_bound - sd.lower_bound);
                        ck_assert_double_eq_tol(min_separation(&m), min_separation(&ref), tol);
                        ++compared;
                    }
                }
            }
            if (ref.count > 0)
                ++contact_steps;
            else
                ++separated_steps;
            xa.p = v3_add(xa.p, va);
            xb.p = v3_add(xb.p, vb);
            pivot_a = v3_add(pivot_a, va);
            pivot_b = v3_add(pivot_b, vb);
            turn(&xa, wa, v3_len(wa) * or_uniform(&r, 0, 1), pivot_a);
            turn(&xb, wb, v3_len(wb) * or_uniform(&r, 0, 1), pivot_b);
        }
    }
    fprintf(stderr, "collide certificate: %d sequences x %d steps: %ld separated (%ld answered by the certificate), %ld with "
                    "points (%ld compared)\n",
            sequences, steps, separated_steps, skipped, contact_steps, compared);
    ck_assert_int_gt(contact_steps, sequences * 3);
    ck_assert_int_gt(compared, sequences);
    ck_assert_int_gt(skipped, separated_steps / 4);
    or_hull_pool_free(&p12);
    or_hull_pool_free(&p60);
}
END_TEST

/* The certificate on hand-built cases: two unit cubes 0.5 apart along x.
 * Sliding sideways, or turning about their own centres while the gap exceeds
 * the cubes' turning reach, keeps the proof; closing in does not; a larger
 * speculative distance is charged against the margin; another shape, a bad
 * pose or bad settings never get the shortcut's answer. */
START_TEST(certificate_cases)
{
    mk_shape cube, other;
    ck_assert_int_eq(mk_shape_box(&cube, v3(0.5, 0.5, 0.5), 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&other, v3(0.5, 0.5, 0.5), 0), MK_OK);
    mk_collide_settings s = mk_collide_default_settings();
    s.speculative = 0.1;
    mk_collide_cache c;
    memset(&c, 0, sizeof c);
    mk_manifold m;
    mk_pair p = {&cube, at(v3(0, 0, 0)), &cube, at(v3(1.5, 0, 0))};
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(c.skipped, 0);
    ck_assert_int_eq(c.cert_valid, 1);
    ck_assert_double_eq_tol(c.cert_margin, 0.4, 1e-6); /* 0.5 gap - 0.1 speculative */
    /* slide B sideways by 0.3: the gap along x is unchanged */
    p.xf_b.p = v3(1.5, 0.3, 0);
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(c.skipped, 1);
    ck_assert_int_eq(m.count, 0);
    /* B 0.35 closer: 0.05 of the margin left */
    p.xf_b.p = v3(1.15, 0.3, 0);
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(c.skipped, 2);
    /* speculative 0.1 -> 0.2 eats the rest: the pipeline runs (distance 0.15
     * < 0.2: points) */
    s.speculative = 0.2;
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(c.skipped, 2);
    ck_assert_int_eq(m.count, 4);
    ck_assert_double_eq_tol(min_separation(&m), 0.15, 1e-9);
    ck_assert_int_eq(c.cert_valid, 0);
    /* back to 0.5 apart; a small turn of B about its centre: the cube's corner
     * ball (radius sqrt(3)/2) times the direction change stays under the margin */
    s.speculative = 0.1;
    p.xf_b = at(v3(1.5, 0, 0));
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(c.cert_valid, 1);
    turn(&p.xf_b, v3(0, 0, 1), 0.2, p.xf_b.p); /* 0.866 * 2 sin(0.1) = 0.173 < 0.4 */
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(c.skipped, 3);
    turn(&p.xf_b, v3(0, 0, 1), 0.4, p.xf_b.p); /* 0.6 rad from the proof: 0.51 > 0.4 */
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(c.skipped, 3);
    ck_assert_int_eq(c.cert_valid, 1); /* renewed by the pipeline at this pose */
    /* another shape object, bad poses and bad settings are never answered by
     * the certificate */
    mk_pair q = p;
    q.b = &other;
    ck_assert_int_eq(mk_collide_cached(&q, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(c.skipped, 3);
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED); /* renew for p */
    mk_pair bad = p;
    bad.xf_a.R.m[0][0] = 1.5; /* not a rotation */
    ck_assert_int_eq(mk_collide_cached(&bad, &s, &c, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(m.count, 0);
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    bad = p;
    bad.xf_b.p.y = NAN;
    ck_assert_int_eq(mk_collide_cached(&bad, &s, &c, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    mk_collide_settings bs = s;
    bs.gjk.max_iterations = 0;
    ck_assert_int_eq(mk_collide_cached(&p, &bs, &c, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    bs = s;
    bs.speculative = NAN;
    ck_assert_int_eq(mk_collide_cached(&p, &bs, &c, &m), MK_INVALID_INPUT);
    mk_shape broken = cube;
    broken.radius = -1;
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, &m), MK_GJK_SEPARATED);
    q = p;
    q.a = &broken;
    ck_assert_int_ne(mk_collide_cached(&q, &s, &c, &m), MK_GJK_SEPARATED);
    ck_assert_int_eq(mk_collide_cached(&p, NULL, &c, &m), MK_GJK_SEPARATED); /* defaults: speculative 0 */
    ck_assert_int_eq(mk_collide_cached(NULL, &s, &c, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_collide_cached(&p, &s, &c, NULL), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_collide_cached(&p, &s, NULL, &m), MK_GJK_SEPARATED); /* plain mk_collide */
}
END_TEST

/* Overlap of the pair along the world unit n (A to B), from the oracle's
 * support formulas: >= the penetration depth, equal to it on the right normal. */
static double overlap_along(const mk_pair *p, mk_vec3 n)
{
    return or_support_value(p->a, &p->xf_a, n) + or_support_value(p->b, &p->xf_b, v3_neg(n));
}

/* The resting-contact shortcut of mk_collide_patch / mk_collide_cached on
 * bodies resting on one another (boxes and bevelled box hulls face on face,
 * random hulls on a box corner first), 0.05-3 mm deep, jittering by up to
 * 1 mm and 0.01 rad a step, now and then lifted clear or pushed 2 cm deep.
 * Every step is checked against the exact polytope oracle: the deepest point
 * is within the depth tie of the exact depth and the overlap along the
 * signed-distance normal is the exact depth (to 1e-7: the normal is a minimiser, so
 * the depth is certified, not just an upper bound), and against the plain
 * pipeline: points or not alike, same deepest separation (1e-6). The
 * shortcut must answer a fair share of the bevelled hulls' face-on-face
 * steps; box pairs never reach it (the separating-axis path answers them,
 * and their depth along the normal must be exact every step). */
START_TEST(resting_shortcut_matches_oracle)
{
    or_rng r = or_test_rng(0x5e57);
    or_hull_pool p12;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 16, 12), MK_OK);
    mk_hull *bev = bevelled_box(0.1, 0.01);
    ck_assert_ptr_nonnull(bev);
    int sequences = or_scaled(300), steps = 40;
    long face_steps = 0, face_shortcuts = 0, checked = 0;
    unsigned long long total_shortcuts = 0;
    for (int q = 0; q < sequences; ++q) {
        const int kind = q % 3; /* 0 boxes, 1 bevelled hulls, 2 random hull on a box */
        mk_shape a, b;
        double ha = or_uniform(&r, 0.05, 0.3), hb = or_uniform(&r, 0.05, 0.3);
        if (kind == 1) {
            mk_shape_hull(&a, bev, 0);
            mk_shape_hull(&b, bev, 0);
            ha = hb = 0.1;
        } else {
            mk_shape_box(&a, v3(ha * or_uniform(&r, 1, 3), ha * or_uniform(&r, 1, 3), ha), 0);
            if (kind == 0)
                mk_shape_box(&b, v3(hb * or_uniform(&r, 0.5, 2), hb * or_uniform(&r, 0.5, 2), hb), 0);
            else
                or_random_shape(&r, OR_HULL12, &p12, &p12, &b);
        }
        mk_transform xa = or_pose(&r, or_in_ball(&r, 2)), xb;
        /* B on A's top face (A's local +z), yawed and slightly tilted */
        mk_vec3 ez = v3(xa.R.m[0][2], xa.R.m[1][2], xa.R.m[2][2]);
        xb.R = xa.R;
        xb.p = v3(0, 0, 0);
        turn(&xb, ez, or_uniform(&r, -3, 3), v3(0, 0, 0));
        if (kind == 2)
            xb = or_pose(&r, v3(0, 0, 0));
        else
            turn(&xb, or_unit(&r), or_uniform(&r, 0, 0.003), v3(0, 0, 0));
        mk_vec3 ex = v3(xa.R.m[0][0], xa.R.m[1][0], xa.R.m[2][0]), ey = v3(xa.R.m[0][1], xa.R.m[1][1], xa.R.m[2][1]);
        xb.p = v3_add(xa.p, v3_add(v3_scale(ex, or_uniform(&r, -0.5, 0.5) * ha), v3_scale(ey, or_uniform(&r, -0.5, 0.5) * ha)));
        mk_collide_settings s = mk_collide_default_settings();
        s.gjk.variant = (mk_gjk_variant)or_int(&r, 3);
        mk_collide_cache cc;
        memset(&cc, 0, sizeof cc);
        double pen = or_uniform(&r, 5e-5, 3e-3);
        for (int k = 0; k < steps; ++k) {
            /* height: B's lowest point pen below A's top face */
            double top = or_support_value(&a, &xa, ez), low = -or_support_value(&b, &xb, v3_neg(ez));
            double want = or_int(&r, 15) == 0 ? -0.002 : (or_int(&r, 15) == 0 ? 0.02 : pen);
            xb.p = v3_madd(xb.p, top - want - low, ez);
            mk_pair p = {&a, xa, &b, xb};
            unsigned long long before = cc.shortcuts;
            mk_contact_patch_result pr;
            mk_manifold ref;
            mk_status st = mk_collide_patch(&p, &s, &cc, 8, &pr);
            mk_status rst = mk_collide(&p, &s, NULL, &ref);
            ck_assert_int_lt(st, MK_INVALID_INPUT);
            ck_assert_int_lt(rst, MK_INVALID_INPUT);
            int shortcut = cc.shortcuts != before;
            if (shortcut)
                ck_assert_int_eq(st, MK_PENETRATING);
            if (kind == 1 && want == pen && k > 0) {
                ++face_steps;
                face_shortcuts += shortcut;
            }
            double d;
            mk_vec3 wa, wb;
            ck_assert(or_exact_distance(&a, &xa, &b, &xb, &d, &wa, &wb));
            REQUIRE((pr.count > 0) == (ref.count > 0) || fabs(d) < 1e-7, "seq %d step %d: %d vs %d points", q, k,
                    pr.count, ref.count);
            if (pr.count == 0)
                continue;
            double sep = INFINITY;
            for (int i = 0; i < pr.count; ++i)
                sep = fmin(sep, pr.points[i].separation);
            mk_vec3 lo, hi;
            mk_shape_local_aabb(&a, &lo, &hi);
            double ea = 0.5 * v3_max_abs(v3_sub(hi, lo));
            mk_shape_local_aabb(&b, &lo, &hi);
            double tie = 1.1e-4 * fmin(ea, 0.5 * v3_max_abs(v3_sub(hi, lo))) + 1e-9;
            REQUIRE(fabs(sep - d) <= tie, "seq %d step %d (shortcut %d): deepest %.12g, exact %.12g", q,
                    k, shortcut, sep, d);
            /* the patch holds the manifold's points or more: as deep, or
             * deeper by at most the tie the manifold's reduction allows;
             * when the cached call and the plain one took different normals
             * (the cache's contact memory, or a reference face's normal
             * within the face angle, along which the overlap is a little
             * larger), each is within the tie of the exact depth instead
             * (MK_TEST_SCALE=1000: a hull on a box, the plain manifold along
             * a face 0.023 rad off the patch's normal, 4.6e-6 deeper than
             * the exact depth the patch had; four steps of 228,000 sequences) */
            const double plain = min_separation(&ref);
            if (v3_len(v3_sub(pr.normal, ref.normal)) <= 1e-9)
                REQUIRE(sep <= plain + 1e-7 && sep >= plain - tie, "seq %d step %d: %.12g vs plain %.12g", q, k, sep,
                        plain);
            else
                REQUIRE(fabs(plain - d) <= tie, "seq %d step %d: plain %.12g (another normal), exact %.12g", q, k,
                        plain, d);
            if (d < -1e-7) {
                /* the signed-distance normal the call used (the manifold's
                 * may be a reference face's instead), kept by the cache */
                REQUIRE(cc.hint_valid, "cc.hint_valid");
                double ov = overlap_along(&p, m3_mul(&xa.R, cc.hint_normal));
                REQUIRE(fabs(ov + d) <= 1e-7 || !(shortcut || kind == 0),
                        "seq %d step %d: overlap %.12g along the normal, depth %.12g",
                        q, k, ov, -d);
                ++checked;
            }
            /* jitter */
            xb.p = v3_add(xb.p, or_in_ball(&r, 1e-3));
            turn(&xb, or_unit(&r), or_uniform(&r, 0, 0.01), xb.p);
            if (or_int(&r, 4) == 0)
                turn(&xa, or_unit(&r), or_uniform(&r, 0, 0.003), xa.p);
            ez = v3(xa.R.m[0][2], xa.R.m[1][2], xa.R.m[2][2]);
        }
        total_shortcuts += cc.shortcuts;
    }
    fprintf(stderr, "collide resting shortcut: %d sequences x %d steps: %ld face-on-face resting steps, %ld by the "
                    "shortcut; %llu shortcuts in all; %ld depths checked\n",
            sequences, steps, face_steps, face_shortcuts, total_shortcuts, checked);
    ck_assert_int_gt(checked, sequences * steps / 2);
    /* measured: 771 of 3382 (the jitter tips bodies onto edges; 847 before
     * the shortcut's backoff, which skips some attempts after four misses in a
     * row); box pairs take the separating-axis path instead (box_sat.c),
     * checked above */
    ck_assert_int_gt(face_shortcuts, face_steps / 5);
    mk_hull_destroy(bev);
    or_hull_pool_free(&p12);
}
END_TEST

/* Curved resting contacts (a cylinder on a cylinder, cone, ellipsoid,
 * 12-point hull, box, capsule, rounded cylinder or rounded cone; random
 * poses settled 0.05-3 mm deep, then jittering by up to 0.05 mm and 1 mrad a
 * step, now and then by 2 mm and 0.05 rad): after the first call the depth
 * comes from EPA seeded around the cached normal (collide.c's curved path)
 * wherever the cores overlap. Every step against GJK + EPA from scratch (our
 * signed distance, no cache): the deepest point within the manifold's depth
 * tie of its depth (the patch's points may lie on a reference face whose
 * normal is not the signed distance's), and where the cores overlap the
 * overlap along the normal the call used (the oracle's support formulas,
 * independent of both) equal to that depth: the normal minimises the
 * overlap, so the depth is certified, not just an upper bound. The curved
 * path must answer two thirds of the steps whose cores overlap. */
START_TEST(curved_resting_matches_signed_distance)
{
    or_rng r = or_test_rng(0xc0e7ed);
    or_hull_pool p12;
    ck_assert_int_eq(or_hull_pool_make(&p12, &r, 16, 12), MK_OK);
    const or_family others[8] = {OR_CYLINDER, OR_CONE,  OR_ELLIPSOID,        OR_HULL12,
                                 OR_BOX,      OR_CAPSULE, OR_ROUNDED_CYLINDER, OR_ROUNDED_CONE};
    const int sequences = or_scaled(240), steps = 30;
    const size_t bytes = mk_epa_workspace_size(mk_epa_default_settings().max_iterations);
    void *ws = malloc(bytes);
    ck_assert_ptr_nonnull(ws);
    long checked = 0, answered = 0, resting = 0, cores_overlap = 0;
    for (int q = 0; q < sequences; ++q) {
        mk_shape a, b;
        or_random_shape(&r, OR_CYLINDER, &p12, &p12, &a);
        or_random_shape(&r, others[q % 8], &p12, &p12, &b);
        mk_transform xa, xb;
        or_place_pair(&r, &a, &b, 0.01, &xa, &xb);
        /* settled: B slid along the signed-distance normal to the depth */
        const double pen = or_uniform(&r, 5e-5, 3e-3);
        for (int it = 0; it < 4; ++it) {
            mk_pair p = {&a, xa, &b, xb};
            mk_signed_distance_result sd;
            ck_assert_int_lt(mk_signed_distance(&p, NULL, NULL, NULL, ws, bytes, &sd), MK_INVALID_INPUT);
            xb.p = v3_madd(xb.p, -(sd.distance + pen), sd.normal);
        }
        mk_collide_settings s = mk_collide_default_settings();
        mk_collide_cache cc;
        memset(&cc, 0, sizeof cc);
        for (int k = 0; k < steps; ++k) {
            mk_pair p = {&a, xa, &b, xb};
            mk_signed_distance_result ref;
            ck_assert_int_lt(mk_signed_distance(&p, NULL, NULL, NULL, ws, bytes, &ref), MK_INVALID_INPUT);
            const unsigned long long before = cc.shortcuts;
            mk_contact_patch_result pr;
            const mk_status st = mk_collide_patch(&p, &s, &cc, 8, &pr);
            ck_assert_int_lt(st, MK_INVALID_INPUT);
            const int shortcut = cc.shortcuts != before;
            if (ref.distance < -1e-6) {
                ++resting;
                answered += shortcut && cc.curved;
                REQUIRE(pr.count > 0, "seq %d step %d: no points at depth %g", q, k, -ref.distance);
                /* the cores overlap: the normal is kept (rounded shapes whose
                 * radii alone overlap take GJK's distance, no normal kept) */
                if (ref.distance + a.radius + b.radius < -1e-9) {
                    ++cores_overlap;
                    REQUIRE(cc.hint_valid, "seq %d step %d: no normal kept", q, k);
                    const double ov = overlap_along(&p, m3_mul(&xa.R, cc.hint_normal));
                    REQUIRE(fabs(ov + ref.distance) <= 2e-8 + 1e-12 * fabs(ref.distance),
                            "seq %d step %d (curved %d): overlap %.15g along the normal, depth %.15g", q, k,
                            shortcut && cc.curved, ov, -ref.distance);
                }
                mk_vec3 lo, hi;
                mk_shape_local_aabb(&a, &lo, &hi);
                const double ea = 0.5 * v3_max_abs(v3_sub(hi, lo));
                mk_shape_local_aabb(&b, &lo, &hi);
                const double tie = 1.1e-4 * fmin(ea, 0.5 * v3_max_abs(v3_sub(hi, lo))) + 2e-8;
                const double sep = min_separation_patch(&pr);
                REQUIRE(fabs(sep - ref.distance) <= tie,
                        "seq %d step %d: deepest %.15g, signed distance %.15g", q, k, sep, ref.distance);
                ++checked;
            }
            /* jitter, now and then a jolt */
            const int jolt = or_int(&r, 10) == 0;
            xb.p = v3_add(xb.p, or_in_ball(&r, jolt ? 2e-3 : 5e-5));
            turn(&xb, or_unit(&r), or_uniform(&r, 0, jolt ? 0.05 : 1e-3), xb.p);
        }
    }
    fprintf(stderr, "collide curved resting: %d sequences x %d steps, %ld overlapping, %ld with the cores "
                    "overlapping (%ld by the curved path), %ld checked\n", sequences, steps, resting, cores_overlap,
            answered, checked);
    ck_assert_int_gt(checked, sequences * steps / 3);
    ck_assert_int_gt(answered * 3, cores_overlap * 2);
    free(ws);
    or_hull_pool_free(&p12);
}
END_TEST

/* The shortcut's backoff (mk_collide_cache): a bevelled box hull on a box of
 * its size, with a 0.05 rad yaw and a 1e-4 rad tilt, cross edge on edge, where
 * the shortcut cannot certify a depth (two hulls would take its face-pair
 * path, tested below): after four misses in a row it is tried on every fourth
 * call only, and every call's depth is still the exact one. A
 * small bevelled box centred on a larger hull box, face on face, is answered
 * by the shortcut on every call after the first (no backoff). */
START_TEST(resting_shortcut_backoff)
{
    mk_hull *bev = bevelled_box(0.1, 0.01), *big = bevelled_box(0.4, 0.01);
    ck_assert_ptr_nonnull(bev);
    ck_assert_ptr_nonnull(big);
    mk_shape a, b, g;
    ck_assert_int_eq(mk_shape_box(&a, v3(0.1, 0.1, 0.1), 0), MK_OK);
    mk_shape_hull(&b, bev, 0);
    mk_shape_hull(&g, big, 0);
    const mk_collide_settings s = mk_collide_default_settings();
    for (int scene = 0; scene < 2; ++scene) {
        const mk_shape *lower = scene == 0 ? &a : &g;
        const double top = scene == 0 ? 0.1 : 0.4;
        mk_transform xa = at(v3(0, 0, 0)), xb = at(v3(0, 0, 0));
        if (scene == 0) {
            turn(&xb, v3(0, 0, 1), 0.05, v3(0, 0, 0));
            turn(&xb, v3(1, 0, 0), 1e-4, v3(0, 0, 0));
        }
        mk_collide_cache cc;
        memset(&cc, 0, sizeof cc);
        int attempts = 0, misses_before = 0, calls = 24;
        for (int k = 0; k < calls; ++k) {
            /* 0.1 mm deep, a 1e-7 m shuffle each call (a resting pair's noise) */
            xb.p = v3(1e-7 * (k % 3), -1e-7 * (k % 2), 0);
            const double low = -or_support_value(&b, &xb, v3(0, 0, -1));
            xb.p.z = top - 1e-4 - low;
            mk_pair p = {lower, xa, &b, xb};
            const int hinted = cc.hint_valid && cc.shortcut_wait == 0;
            const unsigned long long before = cc.shortcuts;
            mk_contact_patch_result pr;
            ck_assert_int_eq(mk_collide_patch(&p, &s, &cc, 8, &pr), MK_PENETRATING);
            attempts += hinted;
            double d;
            mk_vec3 wa, wb;
            ck_assert(or_exact_distance(lower, &xa, &b, &xb, &d, &wa, &wb));
            REQUIRE(fabs(min_separation_patch(&pr) - d) <= 1e-7, "scene %d call %d: deepest %.12g, exact %.12g",
                    scene, k, min_separation_patch(&pr), d);
            if (scene == 0) {
                ck_assert_uint_eq(cc.shortcuts, 0);
                if (hinted)
                    ck_assert_int_eq(cc.shortcut_misses, misses_before < 4 ? misses_before + 1 : 4);
                misses_before = cc.shortcut_misses;
            } else if (k > 0) {
                ck_assert_uint_eq(cc.shortcuts, before + 1);
                ck_assert_int_eq(cc.shortcut_wait, 0);
            }
        }
        if (scene == 0) /* calls 1-4, then every fourth: 8, 12, 16, 20 */
            ck_assert_int_eq(attempts, 8);
        else
            ck_assert_uint_eq(cc.shortcuts, (unsigned long long)(calls - 1));
    }
    mk_hull_destroy(bev);
    mk_hull_destroy(big);
}
END_TEST

/* A resting body's noise between steps: a sideways slide of up to `step`, a
 * yaw of up to `yaw` and a tilt of up to `tilt` about a random axis, both
 * about its own origin. */
static void jitter(or_rng *r, mk_vec3 *slide, mk_transform *xb, double step, double yaw, double tilt)
{
    const double sx = or_uniform(r, -step, step), sy = or_uniform(r, -step, step);
    *slide = v3_add(*slide, v3(sx, sy, 0));
    turn(xb, v3(0, 0, 1), or_uniform(r, -yaw, yaw), xb->p);
    const mk_vec3 axis = or_unit(r);
    turn(xb, axis, or_uniform(r, 0, tilt), xb->p);
}

/* The face-pair path: two equal hulls stacked face on face, the upper one
 * yawed by 0.02-0.3 rad (so each face's outline crosses the other's), tilted
 * by up to 1e-3 rad, offset sideways, 0.05-2 mm deep, jittering a little each
 * step: bevelled boxes (octagon faces), hexagonal prisms, box-shaped hulls
 * (which are boxes, mk_hull.box: they take the boxes' path instead), and
 * cubes as they come from a mesh (demos/meshes.h: each face many facets
 * microradians apart, one flat region), and 40-sided prisms whose caps are
 * such regions (an outline beyond the face-pair budget of 32 corners).
 * Every step: the overlap along the pair's normal = the exact oracle's depth
 * (to EPA's tolerance), the manifold's deepest point within its depth check
 * of it. The face-pair path must answer most steps after the first of the
 * pairs that are not boxes, 9 in 10 of the mesh cubes' (from the facets
 * where they cross, else from the flat regions' outlines, each some of them:
 * from the facets alone it answered ~55% of the demo's ODE mesh stack, the
 * rest going to GJK + EPA from scratch), and some of the prisms' (from the
 * cap's facets: the outline is over budget). */
START_TEST(resting_face_pair_matches_oracle)
{
    or_rng r = or_test_rng(0xfa1e);
    mk_hull *kinds[5] = {bevelled_box(0.1, 0.01), NULL, NULL, NULL, NULL};
    mk_vec3 pts[MESH_CUBE_MAX(3) > 124 ? MESH_CUBE_MAX(3) : 124];
    for (int i = 0; i < 8; ++i)
        pts[i] = v3(i & 1 ? 0.15 : -0.15, i & 2 ? 0.1 : -0.1, i & 4 ? 0.05 : -0.05);
    ck_assert_int_eq(mk_hull_create(pts, 8, &kinds[1]), MK_OK);
    for (int i = 0; i < 6; ++i) {
        const double a = i * 1.0471975511965976;
        pts[i] = v3(0.1 * cos(a), 0.1 * sin(a), -0.04);
        pts[i + 6] = v3(0.1 * cos(a), 0.1 * sin(a), 0.04);
    }
    ck_assert_int_eq(mk_hull_create(pts, 12, &kinds[2]), MK_OK);
    ck_assert_int_eq(mk_hull_create(pts, mesh_cube(3, 0x5eed, pts), &kinds[3]), MK_OK);
    /* the prism: rim, a half-radius ring on every second spoke and the
     * caps' centres, each coordinate moved by up to 1e-9 */
    or_rng noise = or_rng_make(0x9e0);
    int np = 0;
    for (int i = 0; i < 40; ++i)
        for (int ring = 0; ring < (i % 2 ? 1 : 2); ++ring)
            for (int z = -1; z <= 1; z += 2) {
                const double a = i * (2 * 3.141592653589793 / 40), rad = ring ? 0.05 : 0.1;
                pts[np++] = v3_add(v3(rad * cos(a), rad * sin(a), 0.05 * z), v3_scale(or_unit(&noise), 1e-9));
            }
    pts[np++] = v3_add(v3(0, 0, 0.05), v3_scale(or_unit(&noise), 1e-9));
    pts[np++] = v3_add(v3(0, 0, -0.05), v3_scale(or_unit(&noise), 1e-9));
    ck_assert_int_eq(mk_hull_create(pts, np, &kinds[4]), MK_OK);
    int big_outline = 0;
    for (int g = 0; g < kinds[4]->num_regions; ++g)
        big_outline |= kinds[4]->region_start[g + 1] - kinds[4]->region_start[g] > 32;
    ck_assert_ptr_nonnull(kinds[0]);
    ck_assert(!kinds[0]->box && kinds[1]->box && !kinds[2]->box && !kinds[3]->box && kinds[3]->num_regions > 0);
    ck_assert(!kinds[4]->box && big_outline);
    const int sequences = or_scaled(250), steps = 20;
    long after_first = 0, answered = 0, mesh_after_first = 0, mesh_answered = 0, prism_answered = 0;
    long mesh_outlines = 0;
    for (int q = 0; q < sequences; ++q) {
        const int kind = q % 5;
        mk_shape a, b;
        mk_shape_hull(&a, kinds[kind], 0);
        mk_shape_hull(&b, kinds[kind], 0);
        mk_transform xa = at(v3(0, 0, 0)), xb = at(v3(0, 0, 0));
        turn(&xb, v3(0, 0, 1), (or_int(&r, 2) ? 1 : -1) * or_uniform(&r, 0.02, 0.3), v3(0, 0, 0));
        turn(&xb, or_unit(&r), or_uniform(&r, 0, 1e-3), v3(0, 0, 0));
        const double pen = or_uniform(&r, 5e-5, 2e-3);
        mk_vec3 slide = v3(or_uniform(&r, -0.01, 0.01), or_uniform(&r, -0.01, 0.01), 0);
        mk_collide_cache cc;
        memset(&cc, 0, sizeof cc);
        const mk_collide_settings s = mk_collide_default_settings();
        for (int k = 0; k < steps; ++k) {
            const mk_vec3 up = v3(0, 0, 1);
            const double top = or_support_value(&a, &xa, up), low = -or_support_value(&b, &xb, v3_neg(up));
            xb.p = v3_add(slide, v3(0, 0, xb.p.z + top - pen - low));
            mk_pair p = {&a, xa, &b, xb};
            mk_contact_patch_result pr;
            const mk_status st = mk_collide_patch(&p, &s, &cc, 8, &pr);
            REQUIRE(st < MK_INVALID_INPUT, "seq %d step %d: %s", q, k, mk_status_string(st));
            if (k > 0 && !kinds[kind]->box) {
                ++after_first;
                answered += cc.face_pair;
            }
            if (k > 0 && kind == 3) {
                ++mesh_after_first;
                mesh_answered += cc.face_pair;
                mesh_outlines += cc.face_pair && cc.face_outline;
            }
            if (k > 0 && kind == 4)
                prism_answered += cc.face_pair;
            double d;
            mk_vec3 wa, wb;
            REQUIRE(or_exact_distance(&a, &xa, &b, &xb, &d, &wa, &wb), "seq %d step %d: oracle", q, k);
            REQUIRE(d < 0 && pr.count > 0, "seq %d step %d: exact %g, %d points", q, k, d, pr.count);
            /* the manifold's points stand on the reference face's normal and
             * its reduction to 8 keeps the deepest within its tie (1e-4 x
             * the smaller shape's extent, 0.1-0.15 m here) */
            REQUIRE(fabs(min_separation_patch(&pr) - d) <= 1e-4 * 0.15 + 1e-6,
                    "seq %d step %d (face pair %d): deepest %.12g, exact %.12g", q, k, cc.face_pair,
                    min_separation_patch(&pr), d);
            /* the signed distance's normal: the overlap along it is the depth
             * (EPA's tolerance, 1e-8) */
            REQUIRE(cc.hint_valid, "seq %d step %d: no contact memory", q, k);
            const double ov = overlap_along(&p, m3_mul(&xa.R, cc.hint_normal));
            REQUIRE(ov + d >= -1e-12 && ov + d <= 2e-8, "seq %d step %d (face pair %d): overlap %.12g along the "
                    "normal, depth %.12g", q, k, cc.face_pair, ov, -d);
            jitter(&r, &slide, &xb, 1e-4, 2e-3, 1e-4);
        }
    }
    fprintf(stderr, "collide face-pair path: %d sequences x %d steps: %ld of %ld steps after the first of pairs that "
                    "are not boxes by it, %ld of %ld of the mesh cubes' (%ld from the outlines), %ld of the prisms'\n",
            sequences, steps, answered, after_first, mesh_answered, mesh_after_first, mesh_outlines, prism_answered);
    ck_assert_int_gt(answered, after_first / 2);
    ck_assert_int_gt(mesh_answered, 9 * mesh_after_first / 10);
    ck_assert(mesh_outlines > 0 && mesh_outlines < mesh_answered); /* facets and outlines both answer */
    ck_assert_int_gt(prism_answered, 0);
    for (int i = 0; i < 5; ++i)
        mk_hull_destroy(kinds[i]);
}
END_TEST

/* The shortcut on an edge resting across an edge: two box-shaped hulls (a
 * cube with a 1 mm pyramid on its +x face, far from the contact, so that it
 * is no box and takes no separating-axis path) with an edge of each turned
 * toward the other, crossing at 20-90 degrees, 0.1-2 mm deep, jittering by up to 0.2 mm,
 * 5 mrad of yaw and 0.2 mrad of tilt a step. Neither shape shows a face along the normal; D's face
 * there is the parallelogram of the two edges, which D's own tilted supports
 * find. Every step: depth = the exact oracle's (1e-7), the overlap along the
 * normal = the depth (the normal is a minimiser); the shortcut must answer
 * most steps after the first. */
START_TEST(resting_shortcut_edge_on_edge)
{
    or_rng r = or_test_rng(0xed6e);
    mk_vec3 cube[9];
    for (int i = 0; i < 8; ++i)
        cube[i] = v3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1);
    cube[8] = v3(0.101, 0, 0);
    mk_hull *h = NULL;
    ck_assert_int_eq(mk_hull_create(cube, 9, &h), MK_OK);
    ck_assert_int_eq(h->box, 0);
    mk_shape a, b;
    mk_shape_hull(&a, h, 0);
    mk_shape_hull(&b, h, 0);
    const int sequences = or_scaled(100), steps = 20;
    long after_first = 0, answered = 0;
    for (int q = 0; q < sequences; ++q) {
        /* A: an edge along world x on top (45 degrees about x); B: an edge
         * along a direction at angle phi to it, at the bottom. */
        const double phi = or_uniform(&r, 0.35, 1.5708);
        mk_transform xa = at(v3(0, 0, 0)), xb = at(v3(0, 0, 0));
        turn(&xa, v3(1, 0, 0), 0.7853981633974483, v3(0, 0, 0));
        turn(&xb, v3(1, 0, 0), 0.7853981633974483, v3(0, 0, 0));
        turn(&xb, v3(0, 0, 1), phi, v3(0, 0, 0));
        const double pen = or_uniform(&r, 1e-4, 2e-3);
        mk_collide_settings s = mk_collide_default_settings();
        s.gjk.variant = (mk_gjk_variant)or_int(&r, 3);
        mk_collide_cache cc;
        memset(&cc, 0, sizeof cc);
        mk_vec3 slide = v3(or_uniform(&r, -0.03, 0.03), or_uniform(&r, -0.03, 0.03), 0);
        for (int k = 0; k < steps; ++k) {
            const mk_vec3 up = v3(0, 0, 1);
            double top = or_support_value(&a, &xa, up), low = -or_support_value(&b, &xb, v3_neg(up));
            xb.p = v3_add(slide, v3(0, 0, xb.p.z + top - pen - low));
            /* the supports along z see the edges' lowest ends once tilted:
             * corrections by the exact depth put the crossing pen deep (one
             * was enough until MK_TEST_SCALE=300, sequence 13402: at 20
             * degrees the slide put the crossing 8 mm past the end of A's
             * edge, where the distance is no longer the crossing's and that
             * correction left the hulls 0.1 mm apart) */
            for (int c = 0; c < 8; ++c) {
                double d0;
                mk_vec3 w0a, w0b;
                ck_assert(or_exact_distance(&a, &xa, &b, &xb, &d0, &w0a, &w0b));
                if (fabs(d0 + pen) <= 1e-12)
                    break;
                xb.p.z -= d0 + pen;
            }
            mk_pair p = {&a, xa, &b, xb};
            unsigned long long before = cc.shortcuts;
            mk_contact_patch_result pr;
            ck_assert_int_lt(mk_collide_patch(&p, &s, &cc, 8, &pr), MK_INVALID_INPUT);
            const int shortcut = cc.shortcuts != before;
            if (k > 0) {
                ++after_first;
                answered += shortcut;
            }
            double d;
            mk_vec3 wa, wb;
            ck_assert(or_exact_distance(&a, &xa, &b, &xb, &d, &wa, &wb));
            REQUIRE(d < 0 && pr.count > 0, "seq %d step %d: exact %g, %d points", q, k, d, pr.count);
            double sep = INFINITY;
            for (int i = 0; i < pr.count; ++i)
                sep = fmin(sep, pr.points[i].separation);
            REQUIRE(fabs(sep - d) <= 1e-7, "seq %d step %d (shortcut %d): deepest %.12g, exact %.12g", q, k,
                    shortcut, sep, d);
            REQUIRE(cc.hint_valid, "cc.hint_valid");
            const double ov = overlap_along(&p, m3_mul(&xa.R, cc.hint_normal));
            REQUIRE(fabs(ov + d) <= 1e-7, "seq %d step %d (shortcut %d): overlap %.12g along the normal, depth %.12g",
                    q, k, shortcut, ov, -d);
            jitter(&r, &slide, &xb, 2e-4, 5e-3, 2e-4);
        }
    }
    fprintf(stderr, "collide edge-on-edge shortcut: %d sequences x %d steps: %ld of %ld steps after the first by the "
                    "shortcut\n",
            sequences, steps, answered, after_first);
    ck_assert_int_gt(answered, after_first / 2);
    mk_hull_destroy(h);
}
END_TEST

/* Whether the two faces of a box (pose x) best aligned with the unit
 * direction n tie: their cosines within the manifold's face tie, 1e-4. */
static int face_tie(const mk_transform *x, mk_vec3 n)
{
    const mk_vec3 l = m3_tmul(&x->R, n); /* n in the box's frame */
    const double c[3] = {fabs(l.x), fabs(l.y), fabs(l.z)};
    const double hi = fmax(c[0], fmax(c[1], c[2])), lo = fmin(c[0], fmin(c[1], c[2]));
    const double mid = c[0] + c[1] + c[2] - hi - lo;
    return hi - mid <= 1e-4;
}

/* Box pairs take the separating-axis path (box_sat.c). Against the exact
 * polytope oracle on random boxes (rounded or not, 1:10 aspect) at random
 * poses from deep overlap to apart, and on stacked boxes tilted by 0 .. 1e-6
 * rad (edges nearly parallel): an overlap's signed distance matches the exact
 * one (1e-9), lies in its bracket, the overlap along its normal is its depth
 * and the witnesses differ by distance x normal; "apart" holds beyond the
 * reach by at least the margin along the normal it gives; "not decided" only
 * for cores apart. Then the pipeline on box pairs against the same boxes as
 * 8-point hulls (the general path): same count of points, same deepest
 * separation. */
START_TEST(box_sat_matches_oracle)
{
    or_rng r = or_test_rng(0xb0c5);
    int n = or_scaled(20000), overlaps = 0, apart = 0, undecided = 0, compared = 0;
    double worst = 0;
    for (int i = 0; i < n; ++i) {
        mk_shape a, b;
        double round_a = i % 4 == 1 ? or_uniform(&r, 0, 0.05) : 0, round_b = i % 4 == 2 ? or_uniform(&r, 0, 0.05) : 0;
        mk_vec3 ha = v3(or_uniform(&r, 0.05, 0.5), or_uniform(&r, 0.05, 0.5), or_uniform(&r, 0.05, 0.5));
        mk_vec3 hb = v3(or_uniform(&r, 0.05, 0.5), or_uniform(&r, 0.05, 0.5), or_uniform(&r, 0.05, 0.5));
        ck_assert_int_eq(mk_shape_box(&a, ha, round_a), MK_OK);
        ck_assert_int_eq(mk_shape_box(&b, hb, round_b), MK_OK);
        mk_transform xa = or_pose(&r, or_in_ball(&r, 3)), xb;
        if (i % 3 == 0) {
            /* stacked: B on A's top face, yawed, tilted by at most 1e-6 rad */
            mk_vec3 ez = v3(xa.R.m[0][2], xa.R.m[1][2], xa.R.m[2][2]);
            xb.R = xa.R;
            xb.p = v3(0, 0, 0);
            turn(&xb, ez, or_int(&r, 4) == 0 ? 0 : or_uniform(&r, -3, 3), v3(0, 0, 0));
            turn(&xb, or_unit(&r), or_uniform(&r, 0, 1e-6), v3(0, 0, 0));
            double top = or_support_value(&a, &xa, ez), low = -or_support_value(&b, &xb, v3_neg(ez));
            mk_vec3 side = v3_scale(or_in_ball(&r, 1), ha.x + hb.x);
            side = v3_madd(side, -v3_dot(side, ez), ez);
            xb.p = v3_add(v3_add(xa.p, side), v3_scale(ez, top - low - or_uniform(&r, -0.01, 0.02)));
        } else {
            xb = or_pose(&r, v3_add(xa.p, or_in_ball(&r, 0.9)));
        }
        mk_pair p = {&a, xa, &b, xb};
        double d;
        mk_vec3 wa, wb;
        REQUIRE(or_exact_distance(&a, &xa, &b, &xb, &d, &wa, &wb), "or_exact_distance(&a, &xa, &b, &xb, &d, &wa, &wb)");
        const double reach = i % 5 == 0 ? 0 : or_uniform(&r, 0, 0.1);
        mk_signed_distance_result sd;
        mk_vec3 an = v3(0, 0, 0);
        double am = 0;
        mk_box_sat_outcome o = mk_box_sat(&p, reach, &sd, &an, &am);
        const double core = d + round_a + round_b; /* signed distance of the cores */
        if (o == MK_BOX_SAT_OVERLAP) {
            ++overlaps;
            REQUIRE(core <= 1e-12, "pair %d: overlap claimed, cores %.17g apart", i, core);
            double err = fabs(sd.distance - d);
            worst = fmax(worst, err);
            REQUIRE(err <= 1e-9, "pair %d: distance %.17g exact %.17g", i, sd.distance, d);
            REQUIRE(sd.lower_bound <= d + 1e-12 && d <= sd.upper_bound + 1e-12, "pair %d: %.17g not in [%.17g, %.17g]",
                    i, d, sd.lower_bound, sd.upper_bound);
            ck_assert_int_eq(sd.status, MK_PENETRATING);
            REQUIRE(fabs(v3_len(sd.normal) - 1) < 1e-12, "fabs(v3_len(sd.normal) - 1) < 1e-12");
            REQUIRE(fabs(overlap_along(&p, sd.normal) + d) <= 1e-9,
                    "pair %d: overlap %.17g along the normal, depth %.17g",
                    i, overlap_along(&p, sd.normal), -d);
            mk_vec3 gap = v3_sub(v3_sub(sd.point_b, sd.point_a), v3_scale(sd.normal, sd.distance));
            ck_assert(v3_len(gap) <= 1e-12 * (1 + v3_max_abs(sd.point_a)));
            /* the witnesses lie on the shapes' surfaces (to 1e-9) */
            ck_assert(fabs(v3_dot(sd.normal, sd.point_a) - or_support_value(&a, &xa, sd.normal)) <= 1e-9);
            ck_assert(fabs(-v3_dot(sd.normal, sd.point_b) - or_support_value(&b, &xb, v3_neg(sd.normal))) <= 1e-9);
        } else if (o == MK_BOX_SAT_APART) {
            ++apart;
            REQUIRE(am > 0 && d - reach >= am - 1e-12, "pair %d: margin %.17g, exact distance %.17g, reach %.3g", i,
                    am, d, reach);
            double slack = -or_support_value(&b, &xb, v3_neg(an)) - or_support_value(&a, &xa, an) - reach;
            REQUIRE(slack >= am - 1e-12, "pair %d: slack %.17g along the normal, margin %.17g", i, slack, am);
        } else {
            ++undecided;
            REQUIRE(core > 0, "pair %d: undecided with overlapping cores (%.17g)", i, core);
        }

        /* the pipeline, against the boxes as hulls */
        if (i % 10 == 0 && round_a == 0 && round_b == 0) {
            mk_vec3 pa8[8], pb8[8];
            for (int k = 0; k < 8; ++k) {
                pa8[k] = v3(k & 1 ? ha.x : -ha.x, k & 2 ? ha.y : -ha.y, k & 4 ? ha.z : -ha.z);
                pb8[k] = v3(k & 1 ? hb.x : -hb.x, k & 2 ? hb.y : -hb.y, k & 4 ? hb.z : -hb.z);
            }
            mk_hull *hA = NULL, *hB = NULL;
            ck_assert_int_eq(mk_hull_create(pa8, 8, &hA), MK_OK);
            ck_assert_int_eq(mk_hull_create(pb8, 8, &hB), MK_OK);
            mk_shape sa, sb;
            mk_shape_hull(&sa, hA, 0);
            mk_shape_hull(&sb, hB, 0);
            mk_pair ph = {&sa, xa, &sb, xb};
            mk_collide_settings s = mk_collide_default_settings();
            s.speculative = reach;
            mk_contact_patch_result pr, ph_r;
            mk_status st = mk_collide_patch(&p, &s, NULL, 8, &pr);
            mk_status sth = mk_collide_patch(&ph, &s, NULL, 8, &ph_r);
            ck_assert_int_lt(st, MK_INVALID_INPUT);
            ck_assert_int_lt(sth, MK_INVALID_INPUT);
            /* A box whose two faces meet the normal at the same angle (to
             * the manifold's face tie, 1e-4 in the cosine) gives either face
             * as the incident one, and the two paths number the faces
             * differently: B 45 degrees about the axis of an edge pressed
             * into A's face had one face's far edge inside A (4 points) and
             * the other's outside (2), the deepest two the same (found at
             * MK_TEST_SCALE=300, pair 3593340). */
            const int tie = pr.count > 0 && (face_tie(&xa, pr.normal) || face_tie(&xb, pr.normal));
            REQUIRE(pr.count == ph_r.count || fabs(d) < 1e-7 || tie, "pair %d: %d points, as hulls %d", i, pr.count,
                    ph_r.count);
            if (pr.count > 0 && ph_r.count > 0) {
                double s1 = INFINITY, s2 = INFINITY;
                for (int k = 0; k < pr.count; ++k)
                    s1 = fmin(s1, pr.points[k].separation);
                for (int k = 0; k < ph_r.count; ++k)
                    s2 = fmin(s2, ph_r.points[k].separation);
                REQUIRE(fabs(s1 - s2) <= 1e-7, "pair %d: deepest %.12g, as hulls %.12g", i, s1, s2);
                ++compared;
            }
            mk_hull_destroy(hA);
            mk_hull_destroy(hB);
        }
    }
    fprintf(stderr, "collide box SAT: %d pairs: %d overlapping (worst |error| %.2g m), %d apart beyond reach, %d left to "
                    "GJK; %d pipelines compared with the boxes as hulls\n",
            n, overlaps, worst, apart, undecided, compared);
    ck_assert_int_gt(overlaps, n / 4);
    ck_assert_int_gt(apart, n / 10);
    ck_assert_int_gt(compared, n / 100);
}
END_TEST

/* Hulls that are boxes (mk_hull.box) take the boxes' path: random boxes built
 * as hulls (turned and moved in the hull's frame) against hull boxes and
 * boxes, at random poses from deep overlap to apart and stacked face on face:
 * mk_collide_patch gives the points the same boxes as MK_SHAPE_BOX give at
 * the composed poses (same count and ids, normal and points to 1e-12), and
 * the deepest point is the exact oracle's depth to the pipeline's tie. */
START_TEST(hull_boxes_take_the_box_path)
{
    or_rng r = or_test_rng(0xb0c6);
    int compared = 0, overlapping = 0;
    for (int i = 0; i < or_scaled(2000); ++i) {
        mk_shape hs[2], bs[2];
        mk_hull *hulls[2] = {NULL, NULL};
        mk_transform inner[2];
        for (int k = 0; k < 2; ++k) {
            const mk_vec3 h = v3(or_uniform(&r, 0.05, 0.5), or_uniform(&r, 0.05, 0.5), or_uniform(&r, 0.05, 0.5));
            inner[k] = or_pose(&r, or_in_ball(&r, 0.2));
            mk_vec3 p[8];
            for (int c = 0; c < 8; ++c)
                p[c] = xf_apply(&inner[k], v3(c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z));
            ck_assert_int_eq(mk_hull_create(p, 8, &hulls[k]), MK_OK);
            REQUIRE(hulls[k]->box, "pair %d: box %d not recognised", i, k);
            const double round = i % 4 == k + 1 ? or_uniform(&r, 0, 0.02) : 0;
            ck_assert_int_eq(mk_shape_hull(&hs[k], hulls[k], round), MK_OK);
            ck_assert_int_eq(mk_shape_box(&bs[k], hulls[k]->box_half_extents, round), MK_OK);
        }
        mk_transform xa = or_pose(&r, or_in_ball(&r, 2)), xb;
        if (i % 3 == 0) { /* B's box face down on A's top */
            xb = xa;
            turn(&xb, or_unit(&r), or_uniform(&r, 0, 1e-3), xa.p);
            const mk_vec3 up = v3(0, 0, 1);
            xb.p = v3_add(xa.p, v3(or_uniform(&r, -0.05, 0.05), or_uniform(&r, -0.05, 0.05), 0));
            const double top = or_support_value(&hs[0], &xa, up), low = -or_support_value(&hs[1], &xb, v3_neg(up));
            xb.p.z += top - low - or_uniform(&r, -0.005, 0.01);
        } else {
            xb = or_pose(&r, v3_add(xa.p, or_in_ball(&r, 0.9)));
        }
        /* the boxes' poses: the hull's pose composed with its box's */
        mk_transform ba, bb;
        const mk_transform *hx[2] = {&xa, &xb};
        mk_transform *bx[2] = {&ba, &bb};
        for (int k = 0; k < 2; ++k) {
            const mk_transform *x = hx[k], *q = &hulls[k]->box_pose;
            for (int a = 0; a < 3; ++a)
                for (int c = 0; c < 3; ++c)
                    bx[k]->R.m[a][c] = x->R.m[a][0] * q->R.m[0][c] + x->R.m[a][1] * q->R.m[1][c] +
                                       x->R.m[a][2] * q->R.m[2][c];
            bx[k]->p = xf_apply(x, q->p);
        }
        const int b_is_box = i % 2 == 0; /* hull box on hull box, or on a plain box */
        mk_pair ph = {&hs[0], xa, b_is_box ? &bs[1] : &hs[1], b_is_box ? bb : xb};
        mk_pair pb = {&bs[0], ba, &bs[1], bb};
        mk_collide_settings s = mk_collide_default_settings();
        s.speculative = i % 5 == 0 ? 0 : 0.01;
        mk_contact_patch_result rh, rb;
        ck_assert_int_lt(mk_collide_patch(&ph, &s, NULL, 8, &rh), MK_INVALID_INPUT);
        ck_assert_int_lt(mk_collide_patch(&pb, &s, NULL, 8, &rb), MK_INVALID_INPUT);
        REQUIRE(rh.count == rb.count, "pair %d: %d points as hulls, %d as boxes", i, rh.count, rb.count);
        if (rh.count > 0) {
            /* Cores apart, the normal is GJK's closest vector over its
             * length: the poses' rounding (the hull's box pose composed here
             * and in the pipeline, 1e-16 of the coordinates) turns it by up
             * to that over the cores' distance (seen at MK_TEST_SCALE=10: 3e-12
             * at 12 um; at 100, rounded shapes 15 mm deep whose cores were
             * 14 um apart: 1.1e-12, which the shapes' separation missed). */
            const double core_sep = min_separation_patch(&rh) + ph.a->radius + ph.b->radius;
            const double ntol = 1e-12 + (core_sep > 0 ? 1e-15 * (1 + v3_max_abs(xa.p)) / core_sep : 0);
            REQUIRE(v3_len(v3_sub(rh.normal, rb.normal)) <= ntol, "pair %d: normals differ", i);
            for (int q = 0; q < rh.count; ++q) {
                REQUIRE(rh.points[q].id == rb.points[q].id, "pair %d point %d: ids differ", i, q);
                REQUIRE(v3_len(v3_sub(rh.points[q].position, rb.points[q].position)) <= 1e-12 * (1 + v3_max_abs(xa.p)),
                        "pair %d point %d: positions differ", i, q);
            }
            ++compared;
        }
        double d;
        mk_vec3 wa, wb;
        REQUIRE(or_exact_distance(ph.a, &ph.xf_a, ph.b, &ph.xf_b, &d, &wa, &wb), "pair %d: oracle", i);
        if (d < 0 && rh.count > 0) {
            /* the deepest point within the pipeline's depth tie (1.1e-4 x
             * the smaller half extent, at most 0.5 m here) of the depth */
            ++overlapping;
            REQUIRE(fabs(min_separation_patch(&rh) - d) <= 1.1e-4 * 0.5, "pair %d: deepest %.17g, exact %.17g", i,
                    min_separation_patch(&rh), d);
        }
        mk_hull_destroy(hulls[0]);
        mk_hull_destroy(hulls[1]);
    }
    fprintf(stderr, "collide hull boxes: %d pairs with points compared with the boxes, %d overlapping\n", compared,
            overlapping);
    ck_assert_int_gt(compared, or_scaled(2000) / 4);
    ck_assert_int_gt(overlapping, or_scaled(2000) / 4);
}
END_TEST

/* A small box resting on a ground box 1e4 times larger (a demo world's
 * floor), tilted by up to 1e-6 rad and yawed, anywhere on it: the
 * separating-axis depth matches the exact oracle to 1e-9 m despite the
 * rounding of the ground's large extents. (Scaling the face-preference tie
 * with the larger box passes here too: the ground's faces never come within
 * a tie of the box's.) */
START_TEST(box_sat_small_box_on_huge_ground)
{
    or_rng r = or_test_rng(0x96d);
    mk_shape ground, box;
    ck_assert_int_eq(mk_shape_box(&ground, v3(2000, 2000, 1000), 0), MK_OK);
    for (int i = 0; i < or_scaled(2000); ++i) {
        double h = or_uniform(&r, 0.05, 0.3);
        ck_assert_int_eq(mk_shape_box(&box, v3(h * or_uniform(&r, 1, 2), h * or_uniform(&r, 1, 2), h), 0), MK_OK);
        mk_transform xg = at(v3(0, 0, -1000)), xb = at(v3(0, 0, 0));
        turn(&xb, v3(0, 0, 1), or_uniform(&r, -3, 3), v3(0, 0, 0));
        turn(&xb, or_unit(&r), or_uniform(&r, 0, 1e-6), v3(0, 0, 0));
        double low = -or_support_value(&box, &xb, v3(0, 0, -1));
        xb.p = v3(or_uniform(&r, -100, 100), or_uniform(&r, -100, 100), -low - or_uniform(&r, 1e-5, 3e-3));
        mk_pair p = {&ground, xg, &box, xb};
        double d;
        mk_vec3 wa, wb;
        ck_assert(or_exact_distance(&ground, &xg, &box, &xb, &d, &wa, &wb));
        mk_signed_distance_result sd;
        mk_vec3 an;
        double am;
        ck_assert_int_eq(mk_box_sat(&p, 0, &sd, &an, &am), MK_BOX_SAT_OVERLAP);
        REQUIRE(fabs(sd.distance - d) <= 1e-9, "case %d: distance %.17g exact %.17g", i, sd.distance, d);
    }
}
END_TEST

/* Rotation taking the unit vector a onto the unit vector b (a != -b). */
static mk_mat3 rotation_onto(mk_vec3 a, mk_vec3 b)
{
    const mk_vec3 v = v3_cross(a, b);
    const double c = v3_dot(a, b), k = 1 / (1 + c);
    return (mk_mat3){{{v.x * v.x * k + c, v.x * v.y * k - v.z, v.x * v.z * k + v.y},
                      {v.y * v.x * k + v.z, v.y * v.y * k + c, v.y * v.z * k - v.x},
                      {v.z * v.x * k - v.y, v.z * v.y * k + v.x, v.z * v.z * k + c}}};
}

/* A hull lying on one of its faces, 1 mm deep, on a ground plane and on a
 * large box (every usable face of 60- and 240-point hulls, yawed at random,
 * no speculative distance): the contact is that face, every point at the
 * depth (to the flat angle of the hull's contact faces, 1e-4 rad, times its
 * width), at least three of them. Until 2026-11-27 faces within 1e-4 in
 * cosine of the best aligned one (0.014 rad near the normal) were ties won
 * by the lower index: a neighbouring face a few milliradians off was taken
 * when its index was lower, its other corners up to a millimetre above the
 * ground and dropped, one point left (240-point hulls: 3.2% of the faces on
 * a plane, 2% with fewer than three points; on a box alike). */
START_TEST(hull_lying_on_a_face_takes_that_face)
{
    or_rng r = or_test_rng(0xface);
    const int sizes[2] = {60, 240};
    mk_shape ground;
    ck_assert_int_eq(mk_shape_box(&ground, v3(3, 3, 0.5), 0), MK_OK);
    const mk_transform gx = at(v3(0, 0, -0.5));
    const mk_collide_settings st = mk_collide_default_settings();
    int cases = 0;
    for (int z = 0; z < 2; ++z) {
        or_hull_pool pool;
        ck_assert_int_eq(or_hull_pool_make(&pool, &r, or_scaled(4) < 64 ? or_scaled(4) : 64, sizes[z]), MK_OK);
        for (int ih = 0; ih < pool.count; ++ih) {
            const mk_hull *h = pool.hulls[ih];
            mk_shape s;
            ck_assert_int_eq(mk_shape_hull(&s, pool.hulls[ih], 0), MK_OK);
            double width = 0;
            for (int v = 0; v < h->num_vertices; ++v)
                width = fmax(width, v3_len(h->vertices[v]));
            for (int f = 0; f < h->num_faces; ++f) {
                const int size = h->face_start[f + 1] - h->face_start[f];
                if (size < 3 || size > MK_MANIFOLD_MAX_FACE_VERTICES || h->face_normals[f].z > 1 - 1e-9)
                    continue;
                /* face f down (its normal onto -z), yawed, anywhere over the ground's middle */
                const mk_mat3 down = rotation_onto(h->face_normals[f], v3(0, 0, -1));
                const double yaw = or_uniform(&r, 0, 2 * 3.141592653589793);
                const mk_mat3 Y = {{{cos(yaw), -sin(yaw), 0}, {sin(yaw), cos(yaw), 0}, {0, 0, 1}}};
                mk_transform xf;
                for (int a = 0; a < 3; ++a)
                    for (int b = 0; b < 3; ++b)
                        xf.R.m[a][b] = Y.m[a][0] * down.m[0][b] + Y.m[a][1] * down.m[1][b] + Y.m[a][2] * down.m[2][b];
                xf.p = v3(or_uniform(&r, -0.5, 0.5), or_uniform(&r, -0.5, 0.5), 0);
                xf.p.z = -0.001 + or_support_value(&s, &xf, v3(0, 0, -1));
                /* the lowest point's height: -1 mm, to rounding */
                const double sd = -or_support_value(&s, &xf, v3(0, 0, -1));
                for (int on_box = 0; on_box < 2; ++on_box) {
                    mk_contact_patch_result m;
                    if (on_box) {
                        mk_pair p = {&ground, gx, &s, xf};
                        ck_assert_int_lt(mk_collide_patch(&p, &st, NULL, 8, &m), MK_INVALID_INPUT);
                    } else {
                        ck_assert_int_lt(mk_collide_plane_patch(&s, &xf, v3(0, 0, 1), 0, &st, 8, &m), MK_INVALID_INPUT);
                    }
                    REQUIRE(m.count >= 3, "hull-%d %d face %d (%d corners, %s): %d points", sizes[z], ih, f, size,
                            on_box ? "on a box" : "on a plane", m.count);
                    /* faces within MK_HULL_FLAT_ANGLE of one another are one
                     * contact face (mk_hull.face_region): its corners may sit
                     * up to that angle times the hull's width off the plane */
                    const double tol = 1e-9 + MK_HULL_FLAT_ANGLE * 2 * width;
                    for (int k = 0; k < m.count; ++k)
                        REQUIRE(fabs(m.points[k].separation - sd) <= tol,
                                "hull-%d %d face %d (%s): point %d separation %.12g, lowest point %.12g", sizes[z], ih,
                                f, on_box ? "on a box" : "on a plane", k, m.points[k].separation, sd);
                    ++cases;
                }
            }
        }
        or_hull_pool_free(&pool);
    }
    fprintf(stderr, "collide hull on a face: %d cases\n", cases);
    ck_assert_int_gt(cases, 1000);
}
END_TEST

/* Whether two patches of one contact differ by a vertex on a clip plane:
 * their counts by one, every point of each within tol of one of the other,
 * and two points of the larger one within tol of each other. */
static int vertex_split(const mk_contact_patch_result *m, const mk_contact_patch_result *m2, double tol)
{
    const mk_contact_patch_result *big = m->count > m2->count ? m : m2, *small = big == m ? m2 : m;
    if (big->count != small->count + 1)
        return 0;
    for (int pass = 0; pass < 2; ++pass) {
        const mk_contact_patch_result *x = pass ? big : small, *y = pass ? small : big;
        for (int i = 0; i < x->count; ++i) {
            double best = INFINITY;
            for (int j = 0; j < y->count; ++j)
                best = fmin(best, v3_len(v3_sub(x->points[i].position, y->points[j].position)));
            if (!(best <= tol))
                return 0;
        }
    }
    for (int i = 0; i < big->count; ++i)
        for (int j = i + 1; j < big->count; ++j)
            if (v3_len(v3_sub(big->points[i].position, big->points[j].position)) <= tol)
                return 1;
    return 0;
}

/* Two hulls face to face, B's face 1 mm into A's (random faces of 12-, 60-
 * and 240-point hulls, A's face up, B's face down and yawed, their centres
 * within 1 cm): the manifold is the faces' overlap, every point 1 mm deep
 * (to the flat angle times the width), at least three, and the same ids
 * after B turns by 1e-7 rad. With the cosine tie of before 2026-11-27
 * (hull_lying_on_a_face_takes_that_face) 1.4% to 6% of these took a
 * neighbouring face a few mrad off, up to a millimetre of spread in the
 * depths, about 1% were left with fewer than three points, and 2% to 5.5%
 * changed their ids under that motion (which face won the tie depended on
 * the support vertex found). */
START_TEST(hull_faces_face_to_face)
{
    or_rng r = or_test_rng(0xf2f);
    const int sizes[3] = {12, 60, 240};
    const mk_collide_settings st = mk_collide_default_settings();
    int cases = 0, other = 0, splits = 0;
    for (int z = 0; z < 3; ++z) {
        or_hull_pool pool;
        ck_assert_int_eq(or_hull_pool_make(&pool, &r, 16, sizes[z]), MK_OK);
        for (int t = 0; t < or_scaled(400); ++t) {
            const mk_hull *h[2] = {pool.hulls[or_int(&r, pool.count)], pool.hulls[or_int(&r, pool.count)]};
            const int f[2] = {or_int(&r, h[0]->num_faces), or_int(&r, h[1]->num_faces)};
            mk_shape sh[2];
            mk_transform x[2];
            double width = 0;
            for (int k = 0; k < 2; ++k) {
                ck_assert_int_eq(mk_shape_hull(&sh[k], (mk_hull *)h[k], 0), MK_OK);
                for (int v = 0; v < h[k]->num_vertices; ++v)
                    width = fmax(width, v3_len(h[k]->vertices[v]));
                x[k].R = rotation_onto(h[k]->face_normals[f[k]], v3(0, 0, k ? -1 : 1));
            }
            const double yaw = or_uniform(&r, 0, 2 * 3.141592653589793);
            const mk_mat3 Y = {{{cos(yaw), -sin(yaw), 0}, {sin(yaw), cos(yaw), 0}, {0, 0, 1}}};
            const mk_mat3 down = x[1].R;
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b)
                    x[1].R.m[a][b] = Y.m[a][0] * down.m[0][b] + Y.m[a][1] * down.m[1][b] + Y.m[a][2] * down.m[2][b];
            /* the faces' centres over the origin, A's face at z = 0, B's 1 mm below */
            for (int k = 0; k < 2; ++k) {
                const mk_hull *hk = h[k];
                mk_vec3 c = v3(0, 0, 0);
                const int n = hk->face_start[f[k] + 1] - hk->face_start[f[k]];
                for (int q = hk->face_start[f[k]]; q < hk->face_start[f[k] + 1]; ++q)
                    c = v3_add(c, v3_scale(hk->vertices[hk->face_vertices[q]], 1.0 / n));
                x[k].p = v3(0, 0, 0);
                x[k].p = v3_neg(xf_apply(&x[k], c));
            }
            x[1].p = v3_add(x[1].p, v3(or_uniform(&r, -0.01, 0.01), or_uniform(&r, -0.01, 0.01), -0.001));
            const double top = or_support_value(&sh[0], &x[0], v3(0, 0, 1));
            const double low = -or_support_value(&sh[1], &x[1], v3(0, 0, -1));
            mk_pair p = {&sh[0], x[0], &sh[1], x[1]};
            mk_contact_patch_result m;
            ck_assert_int_lt(mk_collide_patch(&p, &st, NULL, 8, &m), MK_INVALID_INPUT);
            double d;
            mk_vec3 wa, wb;
            REQUIRE(or_exact_distance(p.a, &p.xf_a, p.b, &p.xf_b, &d, &wa, &wb), "case %d: oracle", t);
            /* the faces' overlap is the contact when the pair is that deep */
            if (!(fabs(d - (low - top)) <= 1e-9)) {
                ++other;
                continue;
            }
            /* either face's contact face (its flat region, whose normal is
             * its lowest-indexed facet's) may be the reference */
            const double tol = 1e-9 + MK_HULL_FLAT_ANGLE * 2 * width;
            REQUIRE(m.count >= 3, "hull-%d case %d: %d points", sizes[z], t, m.count);
            REQUIRE(v3_len(v3_sub(m.normal, v3(0, 0, 1))) <= MK_HULL_FLAT_ANGLE + 1e-9,
                    "hull-%d case %d: normal %g %g %g", sizes[z], t,
                    m.normal.x, m.normal.y, m.normal.z);
            for (int k = 0; k < m.count; ++k)
                REQUIRE(fabs(m.points[k].separation - d) <= tol, "hull-%d case %d: point %d separation %.12g, %.12g",
                        sizes[z], t, k, m.points[k].separation, d);
            /* the same features after B turns by 1e-7 rad and moves by 1e-7 */
            mk_pair q = p;
            turn(&q.xf_b, or_unit(&r), 1e-7, q.xf_b.p);
            q.xf_b.p.x += 1e-7;
            mk_contact_patch_result m2;
            ck_assert_int_lt(mk_collide_patch(&q, &st, NULL, 8, &m2), MK_INVALID_INPUT);
            /* Unless a point sits on a side plane of the reference face (to
             * the motion's size): the motion then clips that vertex into
             * the two points where its edges cross the plane, or merges
             * those back (hull-240 case 10378 at MK_TEST_SCALE=300: an
             * incident vertex 1e-8 inside became two points 1.8e-7 apart);
             * no clip is stable across that, and the points stay put. */
            if (m2.count != m.count && vertex_split(&m, &m2, 1e-6)) {
                ++splits;
                continue;
            }
            REQUIRE(m2.count == m.count, "hull-%d case %d: %d points, %d after a tiny motion", sizes[z], t, m.count,
                    m2.count);
            for (int k = 0; k < m.count; ++k)
                REQUIRE(m2.points[k].id == m.points[k].id,
                        "hull-%d case %d: point %d id %08x, %08x after a tiny motion",
                        sizes[z], t, k, m.points[k].id, m2.points[k].id);
            ++cases;
        }
        or_hull_pool_free(&pool);
    }
    fprintf(stderr, "collide hull faces: %d face to face (and %d split by the motion), %d other contacts\n", cases,
            splits, other);
    ck_assert_int_gt(cases, or_scaled(400) * 2);
    ck_assert_int_le(splits, cases / 1000); /* rare, or the clip is not what it seems */
}
END_TEST

/* Two hulls face to face, 1 mm deep, where A's face lies in a flat region
 * with a neighbouring facet 5.4e-5 rad off it (within MK_HULL_FLAT_ANGLE,
 * whose region takes the neighbour's normal, the lower index). Clipped on
 * that region, the deepest point was 1.9e-5 m off the depth; clipped on
 * B's face with A's region incident, 1.1e-5 m short: both beyond the face
 * check (6e-6 m here), so the pair got one line point where its faces
 * overlap in a triangle (hull_faces_face_to_face at MK_TEST_SEED=378,
 * MK_TEST_SCALE=30, hull-12 case 5145). A region's clip is now held to its
 * own flatness: the spread of its facets' vertices along its normal. */
START_TEST(hull_region_folded_near_the_flat_angle)
{
    static const mk_vec3 va[9] = {
        {0x1.514a8df9525fcp-8, 0x1.3e0bbc50736abp-2, 0x1.ed4195f1d04dap-1},
        {0x1.78dd2510c0d88p-1, 0x1.fc2b71a224b4cp-3, 0x1.a7a787b8530f7p-4},
        {0x1.d67aa40ee1d25p-4, -0x1.9064cc0b29a24p-1, 0x1.16c4a035db623p-1},
        {-0x1.a73d532de1a1dp-2, 0x1.b65dfe6f3778cp-1, -0x1.7764410398cc8p-3},
        {-0x1.e06fac5867602p-1, -0x1.811343bc46dap-6, -0x1.41e710c5057e8p-1},
        {-0x1.083b83982fda2p-1, -0x1.8546a2f1c4a61p-3, -0x1.65e684d200a0fp-1},
        {-0x1.5b1c6785d23f3p-1, -0x1.f7d70ce58e532p-2, -0x1.494fc038685f5p-1},
        {0x1.6c0a21eebeae3p-2, -0x1.6e193599b92fbp-1, -0x1.27f64e0aaffb4p-1},
        {-0x1.9aec21c38cc09p-1, 0x1.4b9ed50ad59abp-3, -0x1.77b1220731874p-1}};
    static const mk_vec3 vb[12] = {
        {0x1.6c11f7b753c85p-3, 0x1.7a58ad0dce9f6p-1, -0x1.03b4542fb7427p-10},
        {0x1.870891a50422dp-3, 0x1.1c04a57620a11p-1, 0x1.7055e8fe8369fp-3},
        {0x1.08a00e107b2b9p-2, -0x1.25c656dd9325p-2, -0x1.8efd45282619cp-3},
        {0x1.69e67840db185p-3, 0x1.7af49d9afc9bfp-1, -0x1.3a3f72c3467d9p-7},
        {0x1.59c13e80b8a43p-2, 0x1.e34c26da5a3dbp-4, 0x1.acfadcf3ccc0ep-5},
        {-0x1.a1409f18dcc8ap-6, 0x1.85d2189e86f33p-6, -0x1.5b0c732ecd59p-2},
        {-0x1.e5a67852021e2p-5, 0x1.88469e7556438p-1, -0x1.992bd82c84476p-5},
        {-0x1.c27a8b163ffp-3, -0x1.c5f38f31c0311p-2, -0x1.8f874bcf05937p-3},
        {0x1.1ee4ca09309a4p-2, -0x1.7c0744903f753p-2, -0x1.1283a5dff581ap-3},
        {-0x1.18b351f8b7e55p-2, -0x1.6a33e891da0b8p-2, -0x1.37d3d6ab5fbe5p-3},
        {-0x1.837fcc91c43fap-4, -0x1.06ef39870d408p-2, -0x1.3e5534c60c3ccp-2},
        {-0x1.68d550af545efp-4, -0x1.0973c19ac2424p-4, -0x1.4f935641e50fep-2}};
    const mk_transform xa = {{{{0x1.29f9d951b9ddp-4, -0x1.cf868193f332bp-1, -0x1.ac7d5b943b441p-2},
                               {-0x1.cf868193f332bp-1, 0x1.db7e41e8ab43p-4, -0x1.a25b2f073a19dp-2},
                               {0x1.ac7d5b943b441p-2, 0x1.a25b2f073a19dp-2, -0x1.9f50fc98b35cap-1}}},
                             {-0x1.8a1cf2069c7c9p-4, -0x1.e6623067c6f88p-2, -0x1.4d56ee9eb9df3p-2}};
    const mk_transform xb = {{{{0x1.f0ff5ca3959cp-3, 0x1.9fbf018c5a04cp-4, -0x1.edf811a2a7784p-1},
                               {0x1.eeacde154967ap-1, -0x1.d6931af691fc4p-4, 0x1.d8f45df8b5239p-3},
                               {-0x1.65fe043c4a8bcp-4, -0x1.f9f2aa820178fp-1, -0x1.01effb2ff7bb9p-3}}},
                             {-0x1.ed6401ecbcc26p-4, -0x1.68b8b2d570dp-16, 0x1.7d40d4ac3c1d2p-1}};
    mk_hull *ha = NULL, *hb = NULL;
    ck_assert_int_eq(mk_hull_create(va, 9, &ha), MK_OK);
    ck_assert_int_eq(mk_hull_create(vb, 12, &hb), MK_OK);
    mk_shape a, b;
    ck_assert_int_eq(mk_shape_hull(&a, ha, 0), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&b, hb, 0), MK_OK);
    /* A's two facets up, 5.4e-5 rad apart, one flat region */
    int up = 0, region = -2;
    for (int f = 0; f < ha->num_faces; ++f)
        if (m3_mul(&xa.R, ha->face_normals[f]).z > 0.9) {
            ++up;
            ck_assert(ha->face_region && ha->face_region[f] >= 0);
            ck_assert(region == -2 || region == ha->face_region[f]);
            region = ha->face_region[f];
        }
    ck_assert_int_eq(up, 2);
    const mk_pair p = {&a, xa, &b, xb};
    double d;
    mk_vec3 wa, wb;
    REQUIRE(or_exact_distance(p.a, &p.xf_a, p.b, &p.xf_b, &d, &wa, &wb), "oracle");
    ck_assert_double_eq_tol(d, -0.001, 1e-12);
    double width = 0;
    for (int v = 0; v < ha->num_vertices; ++v)
        width = fmax(width, v3_len(ha->vertices[v]));
    for (int v = 0; v < hb->num_vertices; ++v)
        width = fmax(width, v3_len(hb->vertices[v]));
    const mk_collide_settings st = mk_collide_default_settings();
    mk_contact_patch_result m;
    ck_assert_int_eq(mk_collide_patch(&p, &st, NULL, 8, &m), MK_PENETRATING);
    ck_assert_msg(m.count >= 3, "%d points", m.count);
    ck_assert(v3_len(v3_sub(m.normal, v3(0, 0, 1))) <= MK_HULL_FLAT_ANGLE + 1e-9);
    for (int k = 0; k < m.count; ++k)
        ck_assert_msg(fabs(m.points[k].separation - d) <= 1e-9 + MK_HULL_FLAT_ANGLE * 2 * width,
                      "point %d separation %.12g, depth %.12g", k, m.points[k].separation, d);
    mk_hull_destroy(ha);
    mk_hull_destroy(hb);
}
END_TEST

/* A hull whose underside is two facets 2e-6 rad apart (a shallow V, its
 * ridge lowest), resting on a small cube under one of the halves, 1 mm deep:
 * the contact is the cube's top, four points. The faces through the
 * support vertex (on the ridge) are both facets, tied, and the lower index
 * won: under the other half it was the wrong one, the clip was empty and
 * one point was left. The incident face is now the tied face under the
 * reference face (found by hull_faces_face_to_face at MK_TEST_SCALE=50). */
START_TEST(hull_flat_region_takes_the_facet_under_the_contact)
{
    const double eps = 1e-6;
    const mk_vec3 vb[10] = {v3(-1, -1, 1), v3(1, -1, 1),     v3(1, 1, 1),      v3(-1, 1, 1),   v3(-1, -1, 0),
                            v3(1, -1, 0),  v3(0, -1, -eps), v3(-1, 1, 0),     v3(1, 1, 0),    v3(0, 1, -eps)};
    mk_vec3 va[8];
    for (int c = 0; c < 8; ++c)
        va[c] = v3(c & 1 ? 0.1 : -0.1, c & 2 ? 0.1 : -0.1, c & 4 ? 0.1 : -0.1);
    mk_hull *hb = NULL, *ha = NULL;
    ck_assert_int_eq(mk_hull_create(vb, 10, &hb), MK_OK);
    ck_assert_int_eq(mk_hull_create(va, 8, &ha), MK_OK);
    mk_shape sa, sb;
    ck_assert_int_eq(mk_shape_hull(&sa, ha, 0), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&sb, hb, 0), MK_OK);
    const mk_collide_settings st = mk_collide_default_settings();
    for (int side = -1; side <= 1; side += 2) {
        for (int k = 0; k < 5; ++k) {
            const double x0 = side * (0.3 + 0.1 * k); /* the cube under one half */
            const double under = -eps * (1 - fabs(x0)); /* B's underside over the cube's centre */
            const mk_pair p = {&sa, at(v3(x0, 0, under + 0.001 - 0.1)), &sb, at(v3(0, 0, 0))};
            /* the pipeline's answer, and the manifold along the cube's own
             * normal (where B's support vertex is on the ridge) */
            mk_contact_patch_result m[2];
            ck_assert_int_lt(mk_collide_patch(&p, &st, NULL, 8, &m[0]), MK_INVALID_INPUT);
            const mk_manifold_settings ms = mk_manifold_default_settings();
            ck_assert_int_eq(mk_contact_patch(&p, v3(0, 0, 1), -0.001, &ms, 8, &m[1]), MK_OK);
            for (int w = 0; w < 2; ++w) {
                REQUIRE(m[w].count == 4, "cube at x = %g (%s): %d points", x0, w ? "along +z" : "pipeline",
                        m[w].count);
                for (int q = 0; q < m[w].count; ++q)
                    REQUIRE(fabs(m[w].points[q].separation + 0.001) <= 1e-6,
                            "cube at x = %g: point %d separation %.12g",
                            x0, q, m[w].points[q].separation);
            }
        }
    }
    mk_hull_destroy(ha);
    mk_hull_destroy(hb);
}
END_TEST

/* A cube hull as it comes from a mesh: a 7 x 7 grid of points on every
 * face, coordinates moved by up to 1e-7 and rounded to single precision, so
 * that each face is a few dozen facets microradians apart. On a plane, on a
 * large box and face to face with another one (yawed): the contact is the
 * whole face (its flat region), so its four corners are among the points
 * (up to 8), every point within the noise of the depth; the ids stay under
 * a 1e-7 motion. One facet as the face gave three points on one small
 * triangle (a mesh cube rocked on it in ODE: test_ode
 * mesh_cube_rests_on_its_face). A 100-sided prism on its cap: eight points
 * on the rim. A box on a mesh floor: four points or more. */
START_TEST(mesh_hull_faces_are_flat_regions)
{
    mk_vec3 pts[MESH_CUBE_MAX(6)];
    int n = mesh_cube(6, 0x3e5, pts);
    or_rng r = or_test_rng(0x3e5);
    mk_hull *h = NULL;
    ck_assert_int_eq(mk_hull_create(pts, n, &h), MK_OK);
    ck_assert_int_gt(h->num_faces, 12); /* the faces are facets, not six squares */
    mk_shape cube, ground;
    ck_assert_int_eq(mk_shape_hull(&cube, h, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&ground, v3(3, 3, 0.5), 0), MK_OK);
    const mk_collide_settings st = mk_collide_default_settings();
    for (int t = 0; t < 40; ++t) {
        const double yaw = or_uniform(&r, 0, 2 * 3.141592653589793);
        mk_transform xf = mk_transform_from_quat(v3(or_uniform(&r, -0.5, 0.5), or_uniform(&r, -0.5, 0.5), 0),
                                                 (mk_quat){0, 0, sin(yaw / 2), cos(yaw / 2)});
        xf.p.z = -0.001 + or_support_value(&cube, &xf, v3(0, 0, -1)); /* 1 mm into z = 0 */
        const double sd = -or_support_value(&cube, &xf, v3(0, 0, -1));
        /* the bottom face's corners (the hull's points nearest them) */
        mk_vec3 corner[4];
        for (int c = 0; c < 4; ++c) {
            const mk_vec3 ideal = xf_apply(&xf, v3(c & 1 ? 0.1 : -0.1, c & 2 ? 0.1 : -0.1, -0.1));
            double best = INFINITY;
            for (int v = 0; v < h->num_vertices; ++v) {
                const mk_vec3 wv = xf_apply(&xf, h->vertices[v]);
                if (v3_len(v3_sub(wv, ideal)) < best) {
                    best = v3_len(v3_sub(wv, ideal));
                    corner[c] = wv;
                }
            }
        }
        /* the other mesh cube face down on this one, yawed */
        const double yaw2 = or_uniform(&r, 0, 2 * 3.141592653589793);
        const mk_vec3 shift = v3(or_uniform(&r, -0.02, 0.02), or_uniform(&r, -0.02, 0.02), 0);
        mk_transform up = mk_transform_from_quat(v3_add(xf.p, shift), (mk_quat){0, 0, sin(yaw2 / 2), cos(yaw2 / 2)});
        up.p.z += or_support_value(&cube, &xf, v3(0, 0, 1)) - 0.001 + or_support_value(&cube, &up, v3(0, 0, -1));
        for (int kind = 0; kind < 3; ++kind) {
            mk_contact_patch_result m, m2;
            mk_pair p = {&ground, at(v3(0, 0, -0.5)), &cube, xf};
            if (kind == 0) {
                ck_assert_int_lt(mk_collide_plane_patch(&cube, &xf, v3(0, 0, 1), 0, &st, 8, &m), MK_INVALID_INPUT);
            } else {
                if (kind == 2)
                    p = (mk_pair){&cube, xf, &cube, up};
                ck_assert_int_lt(mk_collide_patch(&p, &st, NULL, 8, &m), MK_INVALID_INPUT);
            }
            const char *what[3] = {"on a plane", "on a box", "face to face"};
            REQUIRE(m.count >= 4, "case %d %s: %d points", t, what[kind], m.count);
            const double want =
                kind == 2 ? -or_support_value(&cube, &up, v3(0, 0, -1)) - or_support_value(&cube, &xf, v3(0, 0, 1)) : sd;
            for (int q = 0; q < m.count; ++q)
                REQUIRE(fabs(m.points[q].separation - want) <= 2e-6, "case %d %s: point %d separation %.9g, %.9g", t,
                        what[kind], q, m.points[q].separation, want);
            if (kind < 2) /* the bottom's corners are points (point_a on the cube: A is the cube on a plane) */
                for (int c = 0; c < 4; ++c) {
                    int found = 0;
                    for (int q = 0; q < m.count && !found; ++q)
                        found = v3_len(v3_sub(kind ? m.points[q].point_b : m.points[q].point_a, corner[c])) <= 1e-9;
                    REQUIRE(found, "case %d %s: corner %d is no point", t, what[kind], c);
                }
            if (kind == 0)
                continue;
            mk_pair q = p;
            turn(&q.xf_b, or_unit(&r), 1e-7, q.xf_b.p);
            ck_assert_int_lt(mk_collide_patch(&q, &st, NULL, 8, &m2), MK_INVALID_INPUT);
            REQUIRE(m2.count == m.count, "case %d %s: %d points, %d after a tiny motion", t, what[kind], m.count,
                    m2.count);
            for (int k = 0; k < m.count; ++k)
                REQUIRE(m2.points[k].id == m.points[k].id, "case %d %s: point %d id %08x, %08x after a tiny motion", t,
                        what[kind], k, m.points[k].id, m2.points[k].id);
        }
    }
    mk_hull_destroy(h);

    /* a 100-sided prism standing on its cap (a face of more corners than a
     * contact face holds: two points until its outline stood for it) */
    n = mesh_prism(100, pts);
    ck_assert_int_eq(mk_hull_create(pts, n, &h), MK_OK);
    ck_assert_int_eq(mk_shape_hull(&cube, h, 0), MK_OK);
    const mk_transform xp = at(v3(0.3, -0.2, 0.05 - 0.001));
    mk_contact_patch_result m;
    ck_assert_int_lt(mk_collide_plane_patch(&cube, &xp, v3(0, 0, 1), 0, &st, 8, &m), MK_INVALID_INPUT);
    ck_assert_int_eq(m.count, 8);
    mk_pair p = {&ground, at(v3(0, 0, -0.5)), &cube, xp};
    mk_contact_patch_result mb;
    ck_assert_int_lt(mk_collide_patch(&p, &st, NULL, 8, &mb), MK_INVALID_INPUT);
    ck_assert_int_eq(mb.count, 8);
    for (int q = 0; q < 8; ++q) {
        ck_assert_double_eq_tol(m.points[q].separation, -0.001, 1e-12);
        ck_assert_double_eq_tol(mb.points[q].separation, -0.001, 1e-12);
        ck_assert_double_eq_tol(hypot(m.points[q].point_a.x - 0.3, m.points[q].point_a.y + 0.2), 0.1, 1e-12);
    }
    mk_hull_destroy(h);

    /* a box resting on a mesh floor (a 4 m slab whose top is a 31 x 31 grid):
     * four points or more wherever it stands (before: fewer at 79 of these
     * 100 places, the floor's face one facet) */
    static mk_vec3 slab_pts[MESH_SLAB_MAX(30)];
    const int ns = mesh_slab(30, 7, slab_pts);
    ck_assert_int_eq(mk_hull_create(slab_pts, ns, &h), MK_OK);
    mk_shape slab, small;
    ck_assert_int_eq(mk_shape_hull(&slab, h, 0), MK_OK);
    ck_assert_int_eq(mk_shape_box(&small, v3(0.1, 0.1, 0.1), 0), MK_OK);
    for (int t = 0; t < 100; ++t) {
        const double yaw = 0.37 * t;
        const mk_pair ps = {&slab, at(v3(0, 0, 0)), &small,
                            mk_transform_from_quat(v3(-1.5 + 0.03 * t, 0.3 * sin(t), 0.1 - 0.001),
                                                   (mk_quat){0, 0, sin(yaw / 2), cos(yaw / 2)})};
        mk_contact_patch_result mp;
        ck_assert_int_lt(mk_collide_patch(&ps, &st, NULL, 8, &mp), MK_INVALID_INPUT);
        REQUIRE(mp.count >= 4, "box on the mesh floor, place %d: %d points", t, mp.count);
        for (int q = 0; q < mp.count; ++q)
            REQUIRE(fabs(mp.points[q].separation + 0.001) <= 1e-6, "place %d: point %d separation %.9g", t, q,
                    mp.points[q].separation);
    }
    mk_hull_destroy(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collide");
    TCase *tc = tcase_create("collide");
    tcase_set_timeout(tc, 300 * or_test_scale()); /* a soak (MK_TEST_SCALE) runs that much longer */
    tcase_add_test(tc, box_on_box_four_points);
    tcase_add_test(tc, agrees_with_signed_distance);
    tcase_add_test(tc, witness_point_keeps_id_order);
    tcase_add_test(tc, witness_point_separation_along_the_manifold_normal);
    tcase_add_test(tc, plane_contacts);
    tcase_add_test(tc, plane_matches_box_standin);
    tcase_add_test(tc, plane_patch_points);
    tcase_add_test(tc, growth_model);
    tcase_add_test(tc, growth_model_boxes_match_general_manifold);
    tcase_add_test(tc, oracle_brackets_a_hull_away_from_its_origin);
    tcase_add_test(tc, certificate_matches_full_pipeline);
    tcase_add_test(tc, certificate_cases);
    tcase_add_test(tc, resting_shortcut_matches_oracle);
    tcase_add_test(tc, resting_shortcut_edge_on_edge);
    tcase_add_test(tc, resting_face_pair_matches_oracle);
    tcase_add_test(tc, resting_shortcut_backoff);
    tcase_add_test(tc, curved_resting_matches_signed_distance);
    tcase_add_test(tc, box_sat_matches_oracle);
    tcase_add_test(tc, box_sat_small_box_on_huge_ground);
    tcase_add_test(tc, hull_boxes_take_the_box_path);
    tcase_add_test(tc, hull_lying_on_a_face_takes_that_face);
    tcase_add_test(tc, hull_faces_face_to_face);
    tcase_add_test(tc, hull_region_folded_near_the_flat_angle);
    tcase_add_test(tc, hull_flat_region_takes_the_facet_under_the_contact);
    tcase_add_test(tc, mesh_hull_faces_are_flat_regions);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
