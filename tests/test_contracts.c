/* The headers' promises, checked on random pairs of every family through every
 * pair query: what a fuzzer (2026-11-26, 430,000 cases over the public API)
 * found broken, kept from coming back. The truths here are the shapes' own
 * support values and surfaces (tests/oracle.c's formulas), not another
 * answer of the library:
 *   - signed distance: finite, unit normal, lower <= distance <= upper,
 *     point_b - point_a = distance * normal (epa.h), witnesses not outside
 *     their shapes;
 *   - Boolean (GJK and growth): "separated" comes with a positive margin and a
 *     plane the shapes' supports respect, and agrees with the signed
 *     distance's bracket; "intersecting" only within the touching band;
 *   - growth distance (cold, then warm over small motions): finite, unit
 *     normal, lower <= sigma = upper within the tolerance, the normal's plane
 *     respected by both shapes scaled to the lower bound, the witnesses on
 *     their shapes and brought to the contact point by the scaling, warm
 *     answers equal to cold ones;
 *   - collide (cached, over small motions): at most the room asked for,
 *     increasing feature ids, separation = <point_b - point_a, normal> and
 *     depth = -separation (manifold.h), unit normal.
 * Scenes at scales 1e-3, 1 and 1e3 (primitives; hulls at 1), placed apart
 * or overlapping by up to 0.1 (times the scale), then most of them slid along
 * their normal to touching, within 1e-9 or 1e-6 of it, or 1 cm deep.
 * MK_TEST_SCALE multiplies the count (a soak). */
#include <minkowski/minkowski.h>

#include "meshes.h"
#include "oracle.h"
#include "require.h"
#include "vec.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Touching band of a Boolean query at the default absolute tolerance 1e-8 on
 * the duality gap: "touching within the tolerance" covers distances up to
 * sqrt(1e-8 / 2). */
#define BOOLEAN_BAND 7.1e-5

static int unit_normal(mk_vec3 n) { return fabs(v3_len(n) - 1) <= 1e-9; }

typedef struct scene {
    int index;
    mk_shape a, b;
    mk_transform xa, xb;
    double size;  /* the larger shape's extent, for rounding allowances */
    double scale; /* the scene's scale (1e-3, 1, 1e3) */
} scene;

static double extent(const mk_shape *s)
{
    mk_vec3 lo, hi;
    mk_shape_local_aabb(s, &lo, &hi);
    return 0.5 * v3_max_abs(v3_sub(hi, lo)) + s->radius;
}

static void check_signed_distance(const scene *sc, const mk_signed_distance_result *r, const char *what)
{
    const double slack = 1e-9 * sc->size;
    REQUIRE(isfinite(r->distance) && isfinite(r->lower_bound) && isfinite(r->upper_bound) &&
                v3_finite(r->point_a) && v3_finite(r->point_b),
            "scene %d %s: not finite", sc->index, what);
    REQUIRE(unit_normal(r->normal), "scene %d %s: normal of length %.17g", sc->index, what, v3_len(r->normal));
    REQUIRE(r->lower_bound <= r->distance + slack && r->distance <= r->upper_bound + slack,
            "scene %d %s: [%.17g, %.17g] around %.17g", sc->index, what, r->lower_bound, r->upper_bound,
            r->distance);
    const mk_vec3 e = v3_sub(v3_sub(r->point_b, r->point_a), v3_scale(r->normal, r->distance));
    REQUIRE(v3_len(e) <= slack + 1e-9 * fabs(r->distance), "scene %d %s: point_b - point_a - distance * normal = %g",
            sc->index, what, v3_len(e));
    /* On their shapes to the answer's own accuracy. The witnesses are put
     * distance * normal apart about the midpoint of a pair of points of A and
     * B whose gap is within the bracket's width w of the distance d; across
     * the normal that pair can then differ by up to sqrt(w (2 |d| + w)), and
     * each witness sits off its surface by up to half of that, or w along the
     * normal. */
    const double w = r->upper_bound - r->lower_bound;
    const double allow = slack + 2 * w + sqrt(w * (2 * fabs(r->distance) + w));
    const double oa = or_point_shape(&sc->a, &sc->xa, r->point_a, NULL);
    const double ob = or_point_shape(&sc->b, &sc->xb, r->point_b, NULL);
    REQUIRE(oa <= allow && ob <= allow,
            "scene %d %s (types %d/%d, radii %g/%g, size %g): distance %.17g [%.17g, %.17g], witnesses outside "
            "their shapes by %g and %g",
            sc->index, what, sc->a.type, sc->b.type, sc->a.radius, sc->b.radius, sc->size, r->distance,
            r->lower_bound, r->upper_bound, oa, ob);
}

/* A separating plane's promise, against the shapes' supports. */
static void check_plane(const scene *sc, mk_vec3 n, double offset, double margin, const char *what)
{
    const double slack = 1e-9 * sc->size + 1e-12 * fabs(offset);
    REQUIRE(margin > 0, "scene %d %s: separated with margin %.17g", sc->index, what, margin);
    REQUIRE(unit_normal(n), "scene %d %s: plane normal of length %.17g", sc->index, what, v3_len(n));
    const double top_a = or_support_value(&sc->a, &sc->xa, n), bot_b = -or_support_value(&sc->b, &sc->xb, v3_neg(n));
    REQUIRE(top_a <= offset - 0.5 * margin + slack && bot_b >= offset + 0.5 * margin - slack,
            "scene %d %s: A reaches %.17g, B %.17g, plane %.17g +- %.3g", sc->index, what, top_a, bot_b, offset,
            0.5 * margin);
}

static void check_points(const scene *sc, const mk_contact_patch_result *m, int cap, const char *what)
{
    REQUIRE(m->count >= 0 && m->count <= cap, "scene %d %s: %d points for room %d", sc->index, what, m->count, cap);
    if (m->count > 0)
        REQUIRE(unit_normal(m->normal), "scene %d %s: normal of length %.17g", sc->index, what, v3_len(m->normal));
    for (int k = 0; k < m->count; ++k) {
        const mk_manifold_point *p = &m->points[k];
        REQUIRE(v3_finite(p->point_a) && v3_finite(p->point_b) && isfinite(p->separation),
                "scene %d %s: point %d not finite", sc->index, what, k);
        const double proj = v3_dot(v3_sub(p->point_b, p->point_a), m->normal);
        REQUIRE(fabs(proj - p->separation) <= 1e-9 * (sc->size + fabs(proj)),
                "scene %d %s: point %d separation %.17g, <point_b - point_a, normal> %.17g", sc->index, what, k,
                p->separation, proj);
        REQUIRE(p->depth == -p->separation, "scene %d %s: point %d depth %.17g", sc->index, what, k, p->depth);
        if (k > 0)
            REQUIRE(m->points[k - 1].id < p->id, "scene %d %s: ids %08x, %08x", sc->index, what,
                    m->points[k - 1].id, p->id);
    }
}

/* A growth distance's promises (growth.h), against the shapes' supports and
 * surfaces. */
static void check_growth(const scene *sc, const mk_growth_result *g, const char *what)
{
    const double tol = mk_growth_default_settings().tolerance;
    const double slack = 1e-9 * sc->size;
    REQUIRE(isfinite(g->sigma) && isfinite(g->lower_bound) && isfinite(g->upper_bound) && v3_finite(g->point_a) &&
                v3_finite(g->point_b) && v3_finite(g->contact) && v3_finite(g->centre_a) && v3_finite(g->centre_b),
            "scene %d %s: not finite", sc->index, what);
    REQUIRE(unit_normal(g->normal), "scene %d %s: normal of length %.17g", sc->index, what, v3_len(g->normal));
    REQUIRE(g->sigma == g->upper_bound && g->lower_bound <= g->upper_bound &&
                g->upper_bound - g->lower_bound <= 1.01 * tol * g->upper_bound,
            "scene %d %s: sigma %.17g in [%.17g, %.17g]", sc->index, what, g->sigma, g->lower_bound, g->upper_bound);
    /* Scaled by the lower bound about their centres, A stays below the
     * normal's plane and B above it. */
    const mk_vec3 n = g->normal;
    const double s = g->lower_bound, ca = v3_dot(n, g->centre_a), cb = v3_dot(n, g->centre_b);
    const double top_a = ca + s * (or_support_value(&sc->a, &sc->xa, n) - ca);
    const double bot_b = cb + s * (-or_support_value(&sc->b, &sc->xb, v3_neg(n)) - cb);
    REQUIRE(top_a <= bot_b + slack + 1e-12 * (fabs(top_a) + fabs(bot_b)),
            "scene %d %s (types %d/%d): scaled by %.17g, A reaches %.17g above B's %.17g", sc->index, what,
            sc->a.type, sc->b.type, s, top_a, bot_b);
    /* The witnesses lie on their shapes (to the tolerance: a basis' weights
     * sit a chord below a curved surface), and sigma brings both to the
     * contact. */
    const double w = 4 * tol * sc->size + slack;
    const double oa = or_point_shape(&sc->a, &sc->xa, g->point_a, NULL);
    const double ob = or_point_shape(&sc->b, &sc->xb, g->point_b, NULL);
    REQUIRE(fabs(oa) <= w && fabs(ob) <= w, "scene %d %s (types %d/%d): witnesses off their shapes by %g and %g",
            sc->index, what, sc->a.type, sc->b.type, oa, ob);
    const mk_vec3 xa = v3_madd(g->centre_a, g->sigma, v3_sub(g->point_a, g->centre_a));
    const mk_vec3 xb = v3_madd(g->centre_b, g->sigma, v3_sub(g->point_b, g->centre_b));
    const double reach = slack + 1e-9 * (g->sigma + 1) * (sc->size + v3_len(v3_sub(g->centre_b, g->centre_a)));
    REQUIRE(v3_len(v3_sub(xa, g->contact)) <= reach && v3_len(v3_sub(xb, g->contact)) <= reach,
            "scene %d %s: scaled witnesses %g and %g from the contact", sc->index, what,
            v3_len(v3_sub(xa, g->contact)), v3_len(v3_sub(xb, g->contact)));
}

/* What the scenes exercised (printed). */
typedef struct tally {
    int penetrating, separated, budget, boolean_apart, growth_apart, points, witness;
    int growth, growth_cold, growth_warm; /* growth distances checked, supports cold and warm */
} tally;

static void check_scene(const scene *sc, void *ws, size_t ws_bytes, tally *t)
{
    mk_pair p = {&sc->a, sc->xa, &sc->b, sc->xb};
    mk_signed_distance_result sd;
    const mk_status st = mk_signed_distance(&p, NULL, NULL, NULL, ws, ws_bytes, &sd);
    /* (an absolute tolerance of 1e-8 is out of reach within EPA's default
     * budget on some curved pairs at the scale 1e3: its best bounds then; and
     * within GJK's, once in 100,000 scenes: an ellipsoid 2300 long near a
     * cylinder 2700 across, scene 95649 at MK_TEST_SCALE=100) */
    REQUIRE(st == MK_GJK_SEPARATED || st == MK_PENETRATING || st == MK_EPA_MAX_ITER || st == MK_GJK_MAX_ITER,
            "scene %d: signed distance %s", sc->index, mk_status_string(st));
    check_signed_distance(sc, &sd, "signed distance");
    t->penetrating += st == MK_PENETRATING;
    t->budget += st == MK_EPA_MAX_ITER || st == MK_GJK_MAX_ITER;
    t->separated += st == MK_GJK_SEPARATED;

    /* A relative tolerance alone (7bbdb2b: +inf read as converged). */
    mk_epa_settings rel = mk_epa_default_settings();
    rel.tolerance = 0;
    rel.relative_tolerance = 1e-9;
    mk_signed_distance_result sr;
    const mk_status srs = mk_signed_distance(&p, NULL, &rel, NULL, ws, ws_bytes, &sr);
    REQUIRE(srs == MK_GJK_SEPARATED || srs == MK_PENETRATING || srs == MK_EPA_MAX_ITER || srs == MK_GJK_MAX_ITER,
            "scene %d: relative %s", sc->index, mk_status_string(srs));
    /* The witnesses too: at touching, a relative tolerance far below
     * rounding (1e-9 of a depth of 1e-10) leaves EPA at its budget with faces
     * within rounding of the origin, and until the live faces' pairs were
     * candidates (epa.c nearest_face_witnesses) the witnesses could come from
     * GJK's pair, off the surfaces by up to half of GJK's |x| (3.8e-9 on a
     * cylinder and a hull at unit size, scene 5054 at MK_TEST_SCALE=10). */
    check_signed_distance(sc, &sr, "signed distance, relative tolerance");

    for (int v = MK_GJK_VANILLA; v <= MK_GJK_NESTEROV; ++v) {
        mk_gjk_settings gs = mk_gjk_default_settings();
        gs.variant = (mk_gjk_variant)v;
        mk_gjk_intersect_result ir;
        const mk_status bs = mk_gjk_intersect(&p, &gs, NULL, &ir);
        REQUIRE(bs == MK_GJK_SEPARATED || bs == MK_GJK_INTERSECTING, "scene %d: Boolean %s", sc->index,
                mk_status_string(bs));
        if (bs == MK_GJK_SEPARATED) {
            ++t->boolean_apart;
            check_plane(sc, ir.plane_normal, ir.plane_offset, ir.margin, "Boolean");
            REQUIRE(sd.upper_bound > -1e-9 * sc->size, "scene %d: Boolean separated, signed distance at most %.17g",
                    sc->index, sd.upper_bound);
        } else {
            REQUIRE(sd.lower_bound <= BOOLEAN_BAND + 1e-9 * sc->size,
                    "scene %d (types %d/%d, size %g): Boolean (variant %d, %d iterations) intersecting, signed "
                    "distance at least %.17g",
                    sc->index, sc->a.type, sc->b.type, sc->size, v, ir.iterations, sd.lower_bound);
        }
        mk_gjk_result g;
        const mk_status gd = mk_gjk_distance(&p, &gs, NULL, &g);
        if (gd == MK_GJK_SEPARATED)
            REQUIRE(g.lower_bound > 0 && g.distance > 0, "scene %d: distance separated at %.17g, lower %.17g",
                    sc->index, g.distance, g.lower_bound);
    }

    mk_growth_input in;
    memset(&in, 0, sizeof in);
    in.pair = p;
    mk_growth_intersect_result gr;
    const mk_status gbs = mk_growth_intersect(&in, NULL, NULL, &gr);
    if (gbs == MK_GJK_SEPARATED) {
        ++t->growth_apart;
        check_plane(sc, gr.plane_normal, gr.plane_offset, gr.margin, "growth Boolean");
    }

    /* growth distance, cold, then warm over three small motions of B */
    {
        mk_growth_cache gc;
        memset(&gc, 0, sizeof gc);
        mk_growth_input gi;
        memset(&gi, 0, sizeof gi);
        gi.pair = p;
        scene moved = *sc;
        for (int step = 0; step < 4; ++step) {
            mk_growth_result gw, gcold;
            const mk_status ws_ = mk_growth_distance(&gi, NULL, &gc, &gw);
            if (ws_ == MK_GROWTH_DEGENERATE) /* a centre on the boundary (blob hulls) */
                break;
            REQUIRE(ws_ == MK_GJK_SEPARATED || ws_ == MK_GJK_INTERSECTING, "scene %d step %d: growth %s", sc->index,
                    step, mk_status_string(ws_));
            check_growth(&moved, &gw, step ? "growth warm" : "growth");
            ++t->growth;
            if (step > 0) {
                /* The same answer; the status may differ only within the
                 * tolerance of touching (one bracket above 1, one not). */
                const mk_status cs_ = mk_growth_distance(&gi, NULL, NULL, &gcold);
                const double tol = mk_growth_default_settings().tolerance;
                REQUIRE((cs_ == ws_ || fabs(gcold.sigma - 1) <= 2 * tol) &&
                            fabs(gcold.sigma - gw.sigma) <= 2 * tol * gcold.sigma,
                        "scene %d step %d (types %d/%d, radii %g/%g, scale %g): growth warm %.17g (%s, %d supports), "
                        "cold %.17g (%s, %d)",
                        sc->index, step, sc->a.type, sc->b.type, sc->a.radius, sc->b.radius, sc->scale, gw.sigma,
                        mk_status_string(ws_), gw.iterations, gcold.sigma, mk_status_string(cs_), gcold.iterations);
                t->growth_cold += gcold.iterations;
                t->growth_warm += gw.iterations;
            }
            gi.pair.xf_b.p = v3_add(gi.pair.xf_b.p, v3_scale(v3(2e-4, -1e-4, 3e-4), sc->size));
            moved.xb = gi.pair.xf_b;
        }
    }

    /* collide, cached, over three small motions of B */
    mk_collide_settings cs = mk_collide_default_settings();
    cs.speculative = 0.01 * sc->size;
    mk_collide_cache cache;
    memset(&cache, 0, sizeof cache);
    mk_pair q = p;
    for (int step = 0; step < 3; ++step) {
        mk_contact_patch_result m;
        const int cap = step == 1 ? MK_MANIFOLD_MAX_POINTS : MK_MANIFOLD_MAX_PATCH_POINTS;
        const mk_status cst = mk_collide_patch(&q, &cs, &cache, cap, &m);
        REQUIRE(cst < MK_INVALID_INPUT, "scene %d step %d: collide %s", sc->index, step, mk_status_string(cst));
        scene moved = *sc;
        moved.xb = q.xf_b;
        check_points(&moved, &m, cap, "collide");
        t->points += m.count;
        for (int k = 0; k < m.count; ++k)
            t->witness += m.points[k].id == 0x7FFFFFF0u; /* collide.c's witness pair */
        q.xf_b.p = v3_add(q.xf_b.p, v3_scale(v3(1e-5, -2e-5, 1.5e-5), sc->size));
    }
}

/* What a random test draws its scenes with: two pools of random hulls (of 12
 * and of 60 points, `count` each) and a workspace for EPA's default budget. */
typedef struct kit {
    or_hull_pool p12, p60;
    void *ws;
    size_t ws_bytes;
} kit;

static void kit_make(kit *k, or_rng *r, int count)
{
    ck_assert_int_eq(or_hull_pool_make(&k->p12, r, count, 12), MK_OK);
    ck_assert_int_eq(or_hull_pool_make(&k->p60, r, count, 60), MK_OK);
    k->ws_bytes = mk_epa_workspace_size(128);
    k->ws = malloc(k->ws_bytes);
    ck_assert_ptr_nonnull(k->ws);
}

static void kit_free(kit *k)
{
    free(k->ws);
    or_hull_pool_free(&k->p12);
    or_hull_pool_free(&k->p60);
}

START_TEST(random_scenes_keep_the_contracts)
{
    or_rng r = or_test_rng(0xc0417ac7);
    kit kt;
    kit_make(&kt, &r, 16);
    static const double scales[3] = {1e-3, 1, 1e3};
    const int n = or_scaled(3000);
    tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n; ++i) {
        scene sc;
        sc.index = i;
        const or_family fa = (or_family)or_int(&r, OR_FAMILY_COUNT), fb = (or_family)or_int(&r, OR_FAMILY_COUNT);
        mk_shape a, b;
        or_random_shape(&r, fa, &kt.p12, &kt.p60, &a);
        or_random_shape(&r, fb, &kt.p12, &kt.p60, &b);
        const int hulls = a.type == MK_SHAPE_HULL || b.type == MK_SHAPE_HULL;
        const double k = hulls ? 1 : scales[or_int(&r, 3)];
        sc.scale = k;
        sc.a = a;
        sc.b = b;
        or_scale_primitive(&a, k, &sc.a); /* hulls keep their size */
        or_scale_primitive(&b, k, &sc.b);
        or_place_pair(&r, &sc.a, &sc.b, or_uniform(&r, -0.1, 0.1) * k, &sc.xa, &sc.xb);
        const double ea = extent(&sc.a), eb = extent(&sc.b);
        sc.size = ea > eb ? ea : eb;
        /* Most scenes then slide B along the signed-distance normal to a
         * target: exactly touching, within 1e-9 or 1e-6 of it, 1 cm deep. */
        const int kind = or_int(&r, 6);
        if (kind < 5) {
            static const double targets[5] = {0, 1e-9, -1e-9, 1e-6, -0.01};
            mk_pair p = {&sc.a, sc.xa, &sc.b, sc.xb};
            mk_signed_distance_result sd;
            if (mk_signed_distance(&p, NULL, NULL, NULL, kt.ws, kt.ws_bytes, &sd) < MK_INVALID_INPUT)
                sc.xb.p = v3_madd(sc.xb.p, targets[kind] * k - sd.distance, sd.normal);
        }
        check_scene(&sc, kt.ws, kt.ws_bytes, &t);
    }
    kit_free(&kt);
    printf("contracts: %d random scenes (%d penetrating, %d apart, %d at EPA's or GJK's budget; Boolean apart %d of %d, "
           "growth Boolean %d); %d collide points, %d of them witness pairs\n",
           n, t.penetrating, t.separated, t.budget, t.boolean_apart, 3 * n, t.growth_apart, t.points, t.witness);
    printf("contracts: %d growth distances, after small motions %d supports cold, %d warm\n", t.growth,
           t.growth_cold, t.growth_warm);
}
END_TEST

/* Far from the world's origin (a large world: a vehicle 100 km out) the
 * queries work in the pair's own frame, so every promise holds as near the
 * origin, and the answers agree with those of the same pair placed near it
 * to the queries' tolerances: a tolerance or a bound scaled by the world
 * coordinates, instead of by the shapes, would fail here. Random scenes as
 * random_scenes_keep_the_contracts' (unit scale, most slid to a target
 * signed distance), moved 1 km or 100 km. */
START_TEST(far_scenes_keep_the_contracts)
{
    or_rng r = or_test_rng(0xfa2);
    kit kt;
    kit_make(&kt, &r, 16);
    const int n = or_scaled(600);
    tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int compared = 0, stalled = 0;
    double worst = 0;
    for (int i = 0; i < n; ++i) {
        scene sc;
        sc.index = i;
        sc.scale = 1;
        or_random_shape(&r, (or_family)or_int(&r, OR_FAMILY_COUNT), &kt.p12, &kt.p60, &sc.a);
        or_random_shape(&r, (or_family)or_int(&r, OR_FAMILY_COUNT), &kt.p12, &kt.p60, &sc.b);
        or_place_pair(&r, &sc.a, &sc.b, or_uniform(&r, -0.05, 0.05), &sc.xa, &sc.xb);
        const double ea = extent(&sc.a), eb = extent(&sc.b);
        sc.size = ea > eb ? ea : eb;
        mk_pair p = {&sc.a, sc.xa, &sc.b, sc.xb};
        mk_signed_distance_result near_sd, far_sd;
        /* most slid to touching, just apart, just in or 1 cm deep first */
        const int kind = or_int(&r, 5);
        if (kind < 4 && mk_signed_distance(&p, NULL, NULL, NULL, kt.ws, kt.ws_bytes, &near_sd) < MK_INVALID_INPUT) {
            static const double targets[4] = {0, 1e-6, -1e-6, -0.01};
            sc.xb.p = v3_madd(sc.xb.p, targets[kind] - near_sd.distance, near_sd.normal);
            p.xf_b = sc.xb;
        }
        const mk_status ns = mk_signed_distance(&p, NULL, NULL, NULL, kt.ws, kt.ws_bytes, &near_sd);
        const mk_vec3 off = v3_scale(or_unit(&r), i % 2 ? 1e5 : 1e3);
        scene far = sc;
        far.xa.p = v3_add(sc.xa.p, off);
        far.xb.p = v3_add(sc.xb.p, off);
        const mk_pair q = {&far.a, far.xa, &far.b, far.xb};
        const mk_status fs = mk_signed_distance(&q, NULL, NULL, NULL, kt.ws, kt.ws_bytes, &far_sd);
        /* both within EPA's and GJK's absolute tolerance (1e-8) of the exact
         * value, when neither stopped at a budget. GJK may stop above its
         * tolerance where floating point stalls it (gjk.h): a cone's rim a
         * micrometre from a box's face, 100 km out (MK_TEST_SEED=32,
         * MK_TEST_SCALE=300, scene 148,381), stalled at 43 iterations with
         * [9.884e-7, 1.0229e-6], 3.5e-8 wide, where the pair near the
         * origin ended at [9.9851e-7, 9.9880e-7]; both hold the value. So a
         * larger difference passes only when the two certified brackets
         * meet, and is counted. */
        if ((ns == MK_GJK_SEPARATED || ns == MK_PENETRATING) && (fs == MK_GJK_SEPARATED || fs == MK_PENETRATING)) {
            const double d = fabs(far_sd.distance - near_sd.distance), tol = 2e-8 + 1e-12 * sc.size;
            const int meet = far_sd.lower_bound <= near_sd.upper_bound + tol &&
                             near_sd.lower_bound <= far_sd.upper_bound + tol;
            REQUIRE(d <= tol || meet,
                    "scene %d: signed distance %.17g in [%.17g, %.17g], %.17g in [%.17g, %.17g] near the origin", i,
                    far_sd.distance, far_sd.lower_bound, far_sd.upper_bound, near_sd.distance,
                    near_sd.lower_bound, near_sd.upper_bound);
            if (d <= tol)
                worst = fmax(worst, d);
            else
                ++stalled;
            ++compared;
        }
        check_scene(&far, kt.ws, kt.ws_bytes, &t);
    }
    kit_free(&kt);
    printf("contracts, far scenes: %d scenes (%d penetrating, %d apart, %d at a budget); %d signed distances "
           "compared with the pair near the origin, largest difference %.3g (%d further pairs farther apart, "
           "at a stall, their brackets meeting)\n",
           n, t.penetrating, t.separated, t.budget, compared, worst, stalled);
    ck_assert_int_gt(compared, n / 2);
    /* stalls stay rare (1 and 3 of 180,000 at MK_TEST_SCALE=300, seeds 32
     * and 33): a tolerance that widened everywhere would not pass as one */
    ck_assert_int_le(stalled, 2 + compared / 10000);
}
END_TEST

/* Hulls as they come from meshes (demos/meshes.h: cubes whose faces are many
 * facets microradians apart, one flat region each, and bricks made of them),
 * against each other and against the random families, placed at random or
 * (half the hull pairs) resting yawed on A's top face: the same promises, and
 * for two such hulls the signed distance against the exact separating-axis
 * oracle and, when they overlap, collide's deepest point against it too.
 * Resting pairs take the flat regions' outlines in collide's face-pair
 * shortcut (83dc1b6) on the second call at a pose. */
START_TEST(mesh_hulls_keep_the_contracts)
{
    or_rng r = or_test_rng(0x3e5b);
    kit kt;
    kit_make(&kt, &r, 8);
    enum { MESHES = 6 };
    mk_hull *mesh[MESHES];
    for (int i = 0; i < MESHES; ++i) {
        mk_vec3 pts[MESH_CUBE_MAX(4)];
        const int n = mesh_cube(2 + i % 3, 0x51 + (unsigned long long)i, pts);
        if (i >= 3) /* a brick: 1.5 x 1 x 0.5 of the cube */
            for (int k = 0; k < n; ++k)
                pts[k] = v3(1.5 * pts[k].x, pts[k].y, 0.5 * pts[k].z);
        ck_assert_int_eq(mk_hull_create(pts, n, &mesh[i]), MK_OK);
        ck_assert(mesh[i]->num_regions > 0 && !mesh[i]->box);
    }
    const int n = or_scaled(600);
    tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int oracle_checked = 0, overlapping = 0, face_pairs = 0;
    for (int i = 0; i < n; ++i) {
        scene sc;
        sc.index = i;
        sc.scale = 1;
        mk_shape_hull(&sc.a, mesh[or_int(&r, MESHES)], 0);
        if (or_int(&r, 3) == 0)
            or_random_shape(&r, (or_family)or_int(&r, OR_FAMILY_COUNT), &kt.p12, &kt.p60, &sc.b);
        else
            mk_shape_hull(&sc.b, mesh[or_int(&r, MESHES)], 0);
        or_place_pair(&r, &sc.a, &sc.b, or_uniform(&r, -0.05, 0.02), &sc.xa, &sc.xb);
        const int resting = sc.b.type == MK_SHAPE_HULL && or_int(&r, 2) == 0;
        if (resting) {
            /* B on A's local +z face, yawed by 0.02-0.3 rad about it, tilted
             * by up to 1e-3 rad, offset sideways, 0.05-2 mm deep */
            const double yaw = (or_int(&r, 2) ? 1 : -1) * or_uniform(&r, 0.02, 0.3), tilt = or_uniform(&r, 0, 1e-3);
            const mk_vec3 ax = or_unit(&r);
            const mk_quat qy = {0, 0, sin(yaw / 2), cos(yaw / 2)};
            const mk_quat qt = {ax.x * sin(tilt / 2), ax.y * sin(tilt / 2), ax.z * sin(tilt / 2), cos(tilt / 2)};
            const mk_transform ry = mk_transform_from_quat(v3(0, 0, 0), qy);
            const mk_transform rt = mk_transform_from_quat(v3(0, 0, 0), qt);
            sc.xb.R = m3_mul_m3(&sc.xa.R, &ry.R);
            sc.xb.R = m3_mul_m3(&sc.xb.R, &rt.R);
            const mk_vec3 up = m3_mul(&sc.xa.R, v3(0, 0, 1));
            sc.xb.p = xf_apply(&sc.xa, v3(or_uniform(&r, -0.02, 0.02), or_uniform(&r, -0.02, 0.02), 0));
            const double top = or_support_value(&sc.a, &sc.xa, up), low = -or_support_value(&sc.b, &sc.xb, v3_neg(up));
            sc.xb.p = v3_madd(sc.xb.p, top - low - or_uniform(&r, 5e-5, 2e-3), up);
        }
        const double ea = extent(&sc.a), eb = extent(&sc.b);
        sc.size = ea > eb ? ea : eb;
        mk_pair p = {&sc.a, sc.xa, &sc.b, sc.xb};
        mk_signed_distance_result sd;
        const int kind = resting ? 3 : or_int(&r, 4);
        if (kind < 3 && mk_signed_distance(&p, NULL, NULL, NULL, kt.ws, kt.ws_bytes, &sd) < MK_INVALID_INPUT) {
            static const double targets[3] = {0, -1e-6, -0.005};
            sc.xb.p = v3_madd(sc.xb.p, targets[kind] - sd.distance, sd.normal);
            p.xf_b = sc.xb;
        }
        if (sc.b.type == MK_SHAPE_HULL &&
            mk_signed_distance(&p, NULL, NULL, NULL, kt.ws, kt.ws_bytes, &sd) < MK_INVALID_INPUT) {
            double d;
            mk_vec3 wa, wb;
            REQUIRE(or_exact_distance(&sc.a, &sc.xa, &sc.b, &sc.xb, &d, &wa, &wb), "scene %d: oracle", i);
            REQUIRE(fabs(sd.distance - d) <= 1e-8 + 1e-12 * sc.size, "scene %d: signed distance %.17g, exact %.17g", i,
                    sd.distance, d);
            ++oracle_checked;
            /* Overlapping: collide twice at the pose (the second call from
             * the first's contact memory, through the shortcuts); its deepest
             * point reaches the exact depth to the reduction's depth tie
             * (collide.c: 1.1e-4 of the smaller shape's size). Within
             * EPA's tolerance (1e-8) of touching it may give no point (seen:
             * -5.2e-9). */
            if (d < -2e-8) {
                mk_collide_cache cc;
                memset(&cc, 0, sizeof cc);
                const mk_collide_settings cs = mk_collide_default_settings();
                mk_contact_patch_result m;
                for (int call = 0; call < 2; ++call)
                    REQUIRE(mk_collide_patch(&p, &cs, &cc, MK_MANIFOLD_MAX_PATCH_POINTS, &m) < MK_INVALID_INPUT,
                            "scene %d: collide", i);
                double deepest = INFINITY;
                for (int k = 0; k < m.count; ++k)
                    deepest = fmin(deepest, m.points[k].separation);
                const double small = ea < eb ? ea : eb;
                REQUIRE(m.count > 0 && fabs(deepest - d) <= 1.1e-4 * small + 1e-8,
                        "scene %d: %d points, deepest %.17g, exact %.17g (face pair %d)", i, m.count, deepest, d,
                        cc.face_pair);
                face_pairs += cc.face_pair;
                ++overlapping;
            }
        }
        check_scene(&sc, kt.ws, kt.ws_bytes, &t);
    }
    for (int i = 0; i < MESHES; ++i)
        mk_hull_destroy(mesh[i]);
    kit_free(&kt);
    printf("contracts, mesh hulls: %d scenes (%d penetrating, %d apart, %d at a budget), %d against the exact "
           "oracle; %d collide points; %d overlapping hull pairs collided twice, %d second calls by the face-pair "
           "path\n",
           n, t.penetrating, t.separated, t.budget, oracle_checked, t.points, overlapping, face_pairs);
    ck_assert_int_gt(oracle_checked, n / 2);
    ck_assert_int_gt(face_pairs, overlapping / 4);
}
END_TEST

static Suite *contracts_suite(void)
{
    Suite *s = suite_create("contracts");
    TCase *t = tcase_create("random");
    tcase_set_timeout(t, 600 * or_test_scale());
    tcase_add_test(t, random_scenes_keep_the_contracts);
    tcase_add_test(t, mesh_hulls_keep_the_contracts);
    tcase_add_test(t, far_scenes_keep_the_contracts);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(contracts_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
