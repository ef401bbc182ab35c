/* ODE adapter suite: the overrides answer every pair kind with ODE's contact
 * conventions, flags and stride are honoured, uninstall gives the stock
 * colliders back, the geom classes have exact AABBs, and scenes rest, stack
 * and survive. Each test runs in its own process (Check's fork mode), so each
 * starts from a fresh ODE. MK_SOAK=1 makes the bin scene longer and fuller. */
#include <minkowski/minkowski.h>
#include <minkowski/ode.h>

#include "meshes.h"
#include "oracle.h"
#include "world.h"
#include "world_pairs.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static void setup(void)
{
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
}

static void teardown(void)
{
    mk_ode_shutdown();
    dCloseODE();
}

/* Fixed-seed generator (splitmix64). */
static uint64_t g_rng = 0x5EED0DEull;
static double rnd(void)
{
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

static void random_rotation(dMatrix3 R)
{
    dQuaternion q = {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5};
    dNormalize4(q);
    dQtoR(q, R);
}

static const dReal kCube[24] = {-0.1, -0.1, -0.1, 0.1, -0.1, -0.1, -0.1, 0.1, -0.1, 0.1, 0.1, -0.1,
                                -0.1, -0.1, 0.1,  0.1, -0.1, 0.1,  -0.1, 0.1, 0.1,  0.1, 0.1, 0.1};

/* The same cube as a hand-made dConvex (the adapter is not told about it). */
static dReal kCubePlanes[24] = {1, 0, 0, 0.1, -1, 0, 0, 0.1, 0, 1, 0, 0.1, 0, -1, 0, 0.1, 0, 0, 1, 0.1, 0, 0, -1, 0.1};
static unsigned kCubePolys[30] = {4, 1, 3, 7, 5, 4, 0, 4, 6, 2, 4, 2, 6, 7, 3, 4, 0, 1, 5, 4, 4, 4, 5, 7, 6, 4, 0, 2, 3, 1};

/* One geom of each kind: 0..4 the stock kinds box, sphere, capsule, cylinder,
 * dConvex (registered), 5..7 minkowski's cone, ellipsoid, hull, 8 the plane z = 0. */
enum { KIND_CONVEX = 4, KIND_PLANE = 8, NUM_KINDS = 9 };
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

/* Overlapping placement of a (kind i) and b (kind j): a tilted at the origin,
 * b offset by (0.06, 0.01, 0.03); against the plane z = 0 the other geom sits
 * 4 cm above it. */
static void place_pair(dGeomID a, int i, dGeomID b, int j)
{
    if (i != KIND_PLANE) {
        dMatrix3 R;
        dRFromAxisAndAngle(R, 0.3, 0.5, 0.2, 0.4);
        dGeomSetRotation(a, R);
        dGeomSetPosition(a, 0, 0, j == KIND_PLANE ? 0.04 : 0);
    }
    if (j != KIND_PLANE)
        dGeomSetPosition(b, 0.06, 0.01, i == KIND_PLANE ? 0.04 : 0.03);
}

static dContactGeom *at(dContact *c, int k) { return &c[k].geom; }

/* The same, field by field (ODE's trimesh colliders leave the fourth
 * element of pos and normal unset: memcmp sees stack garbage there). */
static int same_contact_fields(const dContact *x, const dContact *y, int n)
{
    for (int k = 0; k < n; ++k) {
        const dContactGeom *a = &x[k].geom, *b = &y[k].geom;
        for (int i = 0; i < 3; ++i)
            if (a->pos[i] != b->pos[i] || a->normal[i] != b->normal[i])
                return 0;
        if (a->depth != b->depth || a->g1 != b->g1 || a->g2 != b->g2 || a->side1 != b->side1 || a->side2 != b->side2)
            return 0;
    }
    return 1;
}

static int same_contacts(const dContact *x, const dContact *y, int n)
{
    for (int k = 0; k < n; ++k)
        if (memcmp(&x[k].geom, &y[k].geom, sizeof(dContactGeom)))
            return 0;
    return 1;
}

/* ------------------------------------------------------------ routing and conventions */

/* Every kind against every kind, both orders: answered by minkowski (the call
 * counter moves by one, the per-class counters for both classes), contacts with
 * depth >= 0, unit normals pointing from g2 into g1, g1/g2 the arguments,
 * sides -1. */
START_TEST(every_pair_kind)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    int pairs = 0;
    for (int i = 0; i < NUM_KINDS; ++i)
        for (int j = 0; j < NUM_KINDS; ++j) {
            if (i == KIND_PLANE && j == KIND_PLANE)
                continue;
            dGeomID a = make_kind(i), b = make_kind(j);
            ck_assert_ptr_nonnull(a);
            ck_assert_ptr_nonnull(b);
            place_pair(a, i, b, j);
            const int ca = dGeomGetClass(a), cb = dGeomGetClass(b);
            mk_ode_stats before = mk_ode_get_stats();
            dContact c[8];
            int n = dCollide(a, b, 8, &c[0].geom, (int)sizeof(dContact));
            mk_ode_stats after = mk_ode_get_stats();
            ck_assert_msg(after.calls == before.calls + 1, "pair %d/%d not answered by minkowski", i, j);
            ck_assert(after.calls_by_class[ca] == before.calls_by_class[ca] + 1);
            ck_assert(after.calls_by_class[cb] == before.calls_by_class[cb] + 1);
            ck_assert_msg(n > 0 && n <= 8, "pair %d/%d: %d contacts", i, j, n);
            for (int k = 0; k < n; ++k) {
                const dContactGeom *g = at(c, k);
                ck_assert(g->depth >= 0);
                ck_assert_ptr_eq(g->g1, a);
                ck_assert_ptr_eq(g->g2, b);
                ck_assert_int_eq(g->side1, -1);
                ck_assert_int_eq(g->side2, -1);
                double len = sqrt(g->normal[0] * g->normal[0] + g->normal[1] * g->normal[1] + g->normal[2] * g->normal[2]);
                ck_assert_double_eq_tol(len, 1, 1e-9);
                /* from g2 into g1: against the offset of b from a */
                double dir[3] = {0.06, 0.01, 0.03};
                if (i == KIND_PLANE)
                    dir[0] = 0, dir[1] = 0, dir[2] = 1; /* a = plane below b */
                if (j == KIND_PLANE)
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
    ck_assert_int_eq((int)st.stock_fallbacks, 0);
    teardown();
}
END_TEST

/* The adapter's table of ODE's stock routing (used by uninstall's fallback path
 * and for unregistered dConvex) is what this libode really does: in a fresh
 * process, dCollide and the table's function give bit-identical contacts for
 * every pair of the six stock kinds, both orders. A different ODE build (other
 * libccd switches) fails here first. */
START_TEST(stock_routing_table)
{
    setup();
    int checked = 0;
    for (int i = 0; i < NUM_KINDS; ++i)
        for (int j = 0; j < NUM_KINDS; ++j) {
            if (i > KIND_CONVEX && i != KIND_PLANE)
                continue;
            if ((j > KIND_CONVEX && j != KIND_PLANE) || (i == KIND_PLANE && j == KIND_PLANE))
                continue;
            dGeomID a = make_kind(i), b = make_kind(j);
            place_pair(a, i, b, j);
            dContact x[8], y[8];
            memset(x, 0, sizeof x), memset(y, 0, sizeof y);
            int n = dCollide(a, b, 8, &x[0].geom, (int)sizeof(dContact));
            int reverse = 0;
            dColliderFn *fn = mk_ode_stock_collider(dGeomGetClass(a), dGeomGetClass(b), &reverse);
            ck_assert_msg(fn != NULL, "pair %d/%d: no stock collider in the table", i, j);
            int m = reverse ? fn(b, a, 8, &y[0].geom, (int)sizeof(dContact)) : fn(a, b, 8, &y[0].geom, (int)sizeof(dContact));
            for (int k = 0; reverse && k < m; ++k) {
                dContactGeom *g = at(y, k);
                for (int d = 0; d < 3; ++d)
                    g->normal[d] = -g->normal[d];
                dGeomID t = g->g1;
                g->g1 = g->g2, g->g2 = t;
                int s = g->side1;
                g->side1 = g->side2, g->side2 = s;
            }
            ck_assert_msg(n > 0, "pair %d/%d: the stock collider finds no contact", i, j);
            ck_assert_msg(n == m && same_contacts(x, y, n), "pair %d/%d: the table differs from dCollide", i, j);
            destroy_kind(a);
            destroy_kind(b);
            ++checked;
        }
    ck_assert_int_eq(checked, 35); /* 6 x 6 ordered pairs minus plane-plane */
    ck_assert_ptr_null(mk_ode_stock_collider(dPlaneClass, dPlaneClass, NULL));
    ck_assert_ptr_null(mk_ode_stock_collider(dRayClass, dBoxClass, NULL));
    teardown();
}
END_TEST

/* Records the stock answer of every stock pair (both orders) into out[35][8]. */
static void record_stock_pairs(dContact out[35][8], int counts[35])
{
    int p = 0;
    for (int i = 0; i < NUM_KINDS; ++i)
        for (int j = 0; j < NUM_KINDS; ++j) {
            if ((i > KIND_CONVEX && i != KIND_PLANE) || (j > KIND_CONVEX && j != KIND_PLANE) ||
                (i == KIND_PLANE && j == KIND_PLANE))
                continue;
            dGeomID a = make_kind(i), b = make_kind(j);
            /* make_kind's convex is registered: a hand-made registered copy would
             * be the same; the geom addresses differ between calls, so g1/g2 are
             * compared through their classes below */
            place_pair(a, i, b, j);
            memset(out[p], 0, sizeof out[p]);
            counts[p] = dCollide(a, b, 8, &out[p][0].geom, (int)sizeof(dContact));
            for (int k = 0; k < counts[p]; ++k)
                at(out[p], k)->g1 = at(out[p], k)->g2 = NULL;
            destroy_kind(a);
            destroy_kind(b);
            ++p;
        }
}

/* Uninstall (no geom class older than minkowski's): every stock pair answers
 * bit-identically to before the install (same-class pairs included), no
 * minkowski call; the minkowski classes keep colliding through minkowski; a
 * second install takes the pairs over again. A user override of a cell the
 * adapter never touches is lost (documented: ODE's initialiser rebuilds the
 * whole table). */
START_TEST(uninstall_restores_stock)
{
    setup();
    static dContact before[35][8], after[35][8], during[35][8];
    int nb[35], na[35], nd[35];
    record_stock_pairs(before, nb);
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    ck_assert_int_eq(mk_ode_cone_class(), dFirstUserClass);
    mk_ode_reset_stats();
    record_stock_pairs(during, nd);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 35);
    (void)during;
    (void)nd;
    dSetColliderOverride(dRayClass, dSphereClass, NULL); /* the user's own change elsewhere */
    mk_ode_uninstall();
    mk_ode_reset_stats();
    record_stock_pairs(after, na);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 0);
    for (int p = 0; p < 35; ++p)
        ck_assert_msg(na[p] == nb[p] && same_contacts(before[p], after[p], nb[p]), "stock pair %d changed", p);
    /* the ray-sphere cell is ODE's again (the override above is gone) */
    dGeomID ray = dCreateRay(0, 1), ball = dCreateSphere(0, 0.1);
    dGeomRaySet(ray, 0, 0, 0.5, 0, 0, -1);
    dContact c[8];
    ck_assert_int_eq(dCollide(ray, ball, 8, &c[0].geom, (int)sizeof(dContact)), 1);
    /* minkowski's classes still collide, through minkowski */
    dGeomID cone = mk_ode_create_cone(0, 0.1, 0.2), floor = dCreatePlane(0, 0, 0, 1, 0);
    dGeomSetPosition(cone, 0, 0, 0.09);
    ck_assert_int_gt(dCollide(cone, floor, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 1);
    /* installing again takes the dConvex pair over: a full face manifold */
    dGeomID h1 = mk_ode_create_convex(0, kCube, 8), h2 = mk_ode_create_convex(0, kCube, 8);
    dGeomSetPosition(h2, 0, 0, 0.19);
    ck_assert_int_eq(dCollide(h1, h2, 8, &c[0].geom, (int)sizeof(dContact)), 1); /* stock MPR */
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    ck_assert_int_eq(dCollide(h1, h2, 8, &c[0].geom, (int)sizeof(dContact)), 4);
    destroy_kind(h1), destroy_kind(h2), dGeomDestroy(cone), dGeomDestroy(floor), dGeomDestroy(ray), dGeomDestroy(ball);
    teardown();
}
END_TEST

/* A geom class another library made before minkowski's keeps colliding after
 * install and uninstall (uninstall then puts back only the cells it changed):
 * mixed stock pairs are bit-identical to before, same-class pairs are answered
 * by the stock function again (arguments swapped: equivalent, not identical). */
static int foreign_calls;
static int foreign_collider(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip)
{
    (void)flags, (void)skip;
    ++foreign_calls;
    c->pos[0] = c->pos[1] = c->pos[2] = 0;
    c->normal[0] = c->normal[1] = 0, c->normal[2] = 1;
    c->depth = 0.001;
    c->g1 = o1, c->g2 = o2, c->side1 = c->side2 = -1;
    return 1;
}
static dColliderFn *foreign_get(int num) { return num == dSphereClass ? foreign_collider : NULL; }
static void foreign_aabb(dGeomID g, dReal aabb[6])
{
    (void)g;
    for (int k = 0; k < 6; ++k)
        aabb[k] = k % 2 ? 1 : -1;
}

#define FLOOR_G 16
static double g_floor_v[(FLOOR_G + 1) * (FLOOR_G + 1) * 3];
static dTriIndex g_floor_i[FLOOR_G * FLOOR_G * 6];
static dGeomID make_floor(dSpaceID space, dTriMeshDataID *data, double w, double slope);

START_TEST(uninstall_keeps_older_classes)
{
    setup();
    dGeomClass fc = {8, foreign_get, foreign_aabb, NULL, NULL};
    const int foreign = dCreateGeomClass(&fc);
    ck_assert_int_eq(foreign, dFirstUserClass);
    dGeomID f = dCreateGeom(foreign), ball = dCreateSphere(0, 0.1);
    dContact c[8];
    static dContact before[35][8], after[35][8];
    int nb[35], na[35];
    record_stock_pairs(before, nb);
    /* and the trimesh cells (MK_ODE_TRIMESH): a box, capsule and cylinder 1 mm into a floor */
    dTriMeshDataID data;
    dGeomID floor = make_floor(0, &data, 8, 0);
    dGeomID on_floor[3] = {dCreateBox(0, 0.2, 0.2, 0.2), dCreateCapsule(0, 0.1, 0.2), dCreateCylinder(0, 0.1, 0.2)};
    dContact tm_before[3][8], tm_after[3][8];
    int tb[3], ta[3];
    for (int k = 0; k < 3; ++k) {
        dGeomSetPosition(on_floor[k], 0.3 * k, 0.1, k == 1 ? 0.199 : 0.099);
        tb[k] = dCollide(on_floor[k], floor, 8, &tm_before[k][0].geom, (int)sizeof(dContact));
    }
    ck_assert_int_eq(dCollide(f, ball, 8, &c[0].geom, (int)sizeof(dContact)), 1);
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    dCollide(on_floor[0], floor, 8, &c[0].geom, (int)sizeof(dContact));
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 1);
    ck_assert_int_eq(mk_ode_cone_class(), dFirstUserClass + 1);
    ck_assert_int_eq(dCollide(f, ball, 8, &c[0].geom, (int)sizeof(dContact)), 1);
    mk_ode_uninstall();
    ck_assert_int_eq(dCollide(f, ball, 8, &c[0].geom, (int)sizeof(dContact)), 1);
    ck_assert_int_eq(foreign_calls, 3);
    mk_ode_reset_stats();
    record_stock_pairs(after, na);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 0);
    int p = 0;
    for (int i = 0; i < NUM_KINDS; ++i)
        for (int j = 0; j < NUM_KINDS; ++j) {
            if ((i > KIND_CONVEX && i != KIND_PLANE) || (j > KIND_CONVEX && j != KIND_PLANE) ||
                (i == KIND_PLANE && j == KIND_PLANE))
                continue;
            if (i != j)
                ck_assert_msg(na[p] == nb[p] && same_contacts(before[p], after[p], nb[p]), "stock pair %d/%d changed", i, j);
            else
                ck_assert_msg(na[p] > 0, "same-class pair %d lost its collider", i);
            ++p;
        }
    for (int k = 0; k < 3; ++k) {
        ta[k] = dCollide(on_floor[k], floor, 8, &tm_after[k][0].geom, (int)sizeof(dContact));
        ck_assert_msg(tb[k] > 0 && ta[k] == tb[k] && same_contact_fields(tm_before[k], tm_after[k], tb[k]),
                      "trimesh pair %d changed", k);
        dGeomDestroy(on_floor[k]);
    }
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 0);
    dGeomDestroy(floor);
    mk_ode_forget_trimesh_data(data);
    dGeomTriMeshDataDestroy(data);
    dGeomDestroy(f), dGeomDestroy(ball);
    teardown();
}
END_TEST

/* The pairs mask: with only dConvex and plane selected, convex-convex and
 * convex-plane go to minkowski while box-box and convex-box (box not selected)
 * stay ODE's. A second install with everything replaces the first; bad options
 * are refused. keep_native leaves box-box and convex-plane (ODE's analytic
 * colliders) to ODE and takes convex-box, convex-convex and cylinder-cylinder
 * (libccd MPR). */
START_TEST(pairs_mask)
{
    setup();
    mk_ode_options o = mk_ode_default_options();
    o.pairs = MK_ODE_CONVEX | MK_ODE_PLANE;
    ck_assert_int_eq(mk_ode_install(&o), 0);
    dGeomID h1 = make_kind(KIND_CONVEX), h2 = make_kind(KIND_CONVEX), box = make_kind(0), box2 = make_kind(0);
    dGeomID floor = make_kind(KIND_PLANE);
    place_pair(h1, KIND_CONVEX, h2, KIND_CONVEX);
    dGeomSetPosition(box, 0.05, 0, 0.1);
    dGeomSetPosition(box2, 0.05, 0.02, 0.2);
    dContact c[8], s[8];
    mk_ode_reset_stats();
    ck_assert_int_gt(dCollide(h1, h2, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_gt(dCollide(floor, h1, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 2);
    memset(c, 0, sizeof c), memset(s, 0, sizeof s);
    int n = dCollide(box, box2, 8, &c[0].geom, (int)sizeof(dContact));
    ck_assert_int_gt(n, 0);
    ck_assert_int_eq(mk_ode_stock_collider(dBoxClass, dBoxClass, NULL)(box, box2, 8, &s[0].geom, (int)sizeof(dContact)), n);
    (void)s;
    ck_assert_int_gt(dCollide(h1, box, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 2);
    o.pairs = MK_ODE_ALL;
    ck_assert_int_eq(mk_ode_install(&o), 0);
    ck_assert_int_gt(dCollide(box, box2, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 3);
    o.tolerance = -1;
    ck_assert_int_eq(mk_ode_install(&o), -1);
    /* keep_native: only libccd's MPR pairs change hands */
    o = mk_ode_default_options();
    o.keep_native = 1;
    ck_assert_int_eq(mk_ode_install(&o), 0);
    dGeomID c1 = make_kind(3), c2 = make_kind(3);
    dGeomSetPosition(c2, 0.02, 0, 0.15);
    mk_ode_reset_stats();
    ck_assert_int_gt(dCollide(box, box2, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_gt(dCollide(floor, h1, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 0);
    ck_assert_int_gt(dCollide(h1, box, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_gt(dCollide(h1, h2, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_gt(dCollide(c1, c2, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 3);
    dGeomDestroy(c1), dGeomDestroy(c2);
    destroy_kind(h1), destroy_kind(h2), dGeomDestroy(box), dGeomDestroy(box2), dGeomDestroy(floor);
    teardown();
}
END_TEST

/* Box resting 1 cm deep on a box: 4 contacts of depth 0.01 with normal +z
 * (from the lower box g2 into the upper g1); flags limit 2 gives 2; a stride of
 * two dContacts puts contact k at byte k * skip and leaves the rest alone;
 * CONTACTS_UNIMPORTANT gives one contact through the Boolean query, none when
 * apart. */
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
    teardown();
}
END_TEST

/* ------------------------------------------------------------ hand-built contacts */

/* Checks one hand-built pair both ways round: the count, every depth, the
 * normal (from g2 into g1), g1/g2/sides, and that each position lies between
 * the two surfaces: pos +- depth/2 * normal on each side of the contact. */
static void check_pair(dGeomID a, dGeomID b, int count, double depth, const double n_ba[3], const char *what)
{
    for (int order = 0; order < 2; ++order) {
        dGeomID g1 = order ? b : a, g2 = order ? a : b;
        const double s = order ? -1 : 1; /* n_ba points from b into a */
        dContact c[8];
        memset(c, 0, sizeof c);
        int n = dCollide(g1, g2, 8, &c[0].geom, (int)sizeof(dContact));
        ck_assert_msg(n == count, "%s (order %d): %d contacts, expected %d", what, order, n, count);
        for (int k = 0; k < n; ++k) {
            const dContactGeom *g = at(c, k);
            ck_assert_msg(fabs(g->depth - depth) < 1e-9, "%s: depth %.12g, expected %g", what, g->depth, depth);
            for (int d = 0; d < 3; ++d)
                ck_assert_msg(fabs(g->normal[d] - s * n_ba[d]) < 1e-9, "%s (order %d): normal %g %g %g", what, order,
                              g->normal[0], g->normal[1], g->normal[2]);
            ck_assert_ptr_eq(g->g1, g1);
            ck_assert_ptr_eq(g->g2, g2);
            ck_assert_int_eq(g->side1, -1);
            ck_assert_int_eq(g->side2, -1);
        }
    }
}

/* Two cubes of side 0.2 as in the demo's stack: low resting on the ground
 * at (x, y), high on it yawed 0.05 rad and 1.2 mm deep. */
static void yawed_on(dGeomID high, dGeomID low, double x, double y)
{
    dMatrix3 R;
    dGeomSetPosition(low, x, y, 0.1);
    dRFromAxisAndAngle(R, 0, 0, 1, 0.05);
    dGeomSetRotation(high, R);
    dGeomSetPosition(high, x + 0.001, y + 0.002, 0.3 - 0.0012);
}

/* Exact cases against closed forms (depths, normals), plus the stock
 * colliders as an independent oracle on the pairs both can answer: sphere on
 * plane, sphere-sphere, box edge on plane, cone base on plane, capsule lying
 * on a box, ellipsoid on plane, cube hull on cube dConvex. */
START_TEST(hand_built_contacts)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    const double up[3] = {0, 0, 1};
    dGeomID floor = dCreatePlane(0, 0, 0, 1, 0);
    dContact c[8], s[8];

    /* sphere r 0.1 centred at z 0.09: 1 cm into the ground, one contact */
    dGeomID ball = dCreateSphere(0, 0.1);
    dGeomSetPosition(ball, 0.3, -0.2, 0.09);
    check_pair(ball, floor, 1, 0.01, up, "sphere-plane");
    ck_assert_int_eq(dCollide(ball, floor, 8, &c[0].geom, (int)sizeof(dContact)), 1);
    ck_assert_double_eq_tol(c[0].geom.pos[0], 0.3, 1e-12);
    ck_assert_double_eq_tol(c[0].geom.pos[1], -0.2, 1e-12);
    ck_assert(c[0].geom.pos[2] > -0.01 - 1e-12 && c[0].geom.pos[2] < 1e-12);
    ck_assert_int_eq(mk_ode_stock_collider(dSphereClass, dPlaneClass, NULL)(ball, floor, 8, &s[0].geom, (int)sizeof(dContact)), 1);
    ck_assert_double_eq_tol(s[0].geom.depth, c[0].geom.depth, 1e-12);

    /* two spheres r 0.1, centres 0.15 apart along u: depth 0.05, normal -u into the first */
    dGeomID b2 = dCreateSphere(0, 0.1);
    const double u[3] = {0.48, 0.6, 0.64}; /* unit */
    dGeomSetPosition(b2, 0.3 + 0.15 * u[0], -0.2 + 0.15 * u[1], 0.09 + 0.15 * u[2]);
    const double mu[3] = {-u[0], -u[1], -u[2]};
    check_pair(ball, b2, 1, 0.05, mu, "sphere-sphere");

    /* box 0.2 x 0.2 x 0.2 turned 45 degrees about x, lowest edge 5 mm deep:
     * two contacts (the edge ends), depth 0.005 each, as ODE's box-plane says */
    dGeomID box = dCreateBox(0, 0.2, 0.2, 0.2);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 1, 0, 0, PI / 4);
    dGeomSetRotation(box, R);
    dGeomSetPosition(box, 0, 0, 0.1 * sqrt(2.0) - 0.005);
    check_pair(box, floor, 2, 0.005, up, "box edge-plane");
    ck_assert_int_eq(mk_ode_stock_collider(dBoxClass, dPlaneClass, NULL)(box, floor, 8, &s[0].geom, (int)sizeof(dContact)), 2);
    ck_assert_double_eq_tol(s[0].geom.depth, 0.005, 1e-9);

    /* cone r 0.1, length 0.2, upright, base 2 mm deep: contacts on the rim,
     * all 2 mm deep, as many as the caller takes up to the patch's 8 */
    dGeomID cone = mk_ode_create_cone(0, 0.1, 0.2);
    dGeomSetPosition(cone, 1, 1, 0.098);
    check_pair(cone, floor, 8, 0.002, up, "cone base-plane");
    ck_assert_int_eq(dCollide(cone, floor, 8, &c[0].geom, (int)sizeof(dContact)), 8);
    for (int k = 0; k < 8; ++k) {
        double rr = hypot(c[k].geom.pos[0] - 1, c[k].geom.pos[1] - 1);
        ck_assert_msg(fabs(rr - 0.1) < 1e-9, "cone rim contact at radius %g", rr);
    }
    ck_assert_int_eq(dCollide(cone, floor, 4, &c[0].geom, (int)sizeof(dContact)), 4);
    ck_assert_int_eq(dCollide(cone, floor, 6, &c[0].geom, (int)sizeof(dContact)), 6);

    /* a dConvex box with every corner cut by 1 cm (the demo's hull stack),
     * flat on its octagon 1.2 mm deep: the 8 octagon corners at that depth,
     * as ODE's own convex-plane collider gives them */
    dReal bev[72];
    int nb = 0;
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2)
            for (int sz = -1; sz <= 1; sz += 2) {
                const double q[3][3] = {{sx * 0.09, sy * 0.1, sz * 0.1}, {sx * 0.1, sy * 0.09, sz * 0.1},
                                        {sx * 0.1, sy * 0.1, sz * 0.09}};
                for (int j = 0; j < 3; ++j, ++nb)
                    bev[3 * nb] = q[j][0], bev[3 * nb + 1] = q[j][1], bev[3 * nb + 2] = q[j][2];
            }
    dGeomID bevelled = mk_ode_create_convex(0, bev, nb);
    dRFromAxisAndAngle(R, 0, 0, 1, 0.3);
    dGeomSetRotation(bevelled, R);
    dGeomSetPosition(bevelled, -3, 1, 0.1 - 0.0012);
    check_pair(bevelled, floor, 8, 0.0012, up, "bevelled dConvex-plane");
    ck_assert_int_eq(mk_ode_stock_collider(dConvexClass, dPlaneClass, NULL)(bevelled, floor, 8, &s[0].geom, (int)sizeof(dContact)), 8);
    ck_assert_int_eq(dCollide(bevelled, floor, 4, &c[0].geom, (int)sizeof(dContact)), 4);

    /* capsule r 0.05, segment 0.2 along x, lying 3 mm deep on a box top at z 0:
     * two contacts (segment ends over the face), depth 0.003, normal +z into the capsule */
    dGeomID slab = dCreateBox(0, 1, 1, 0.2), cap = dCreateCapsule(0, 0.05, 0.2);
    dGeomSetPosition(slab, 3, 3, -0.1);
    dRFromAxisAndAngle(R, 0, 1, 0, PI / 2);
    dGeomSetRotation(cap, R);
    dGeomSetPosition(cap, 3, 3, 0.047);
    check_pair(cap, slab, 2, 0.003, up, "capsule-box");
    ck_assert_int_gt(mk_ode_stock_collider(dCapsuleClass, dBoxClass, NULL)(cap, slab, 8, &s[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_double_eq_tol(s[0].geom.depth, 0.003, 1e-9); /* ODE's capsule-box: one point here */

    /* ellipsoid semi-axes (0.1, 0.07, 0.05) upright, 4 mm deep: one contact */
    dGeomID egg = mk_ode_create_ellipsoid(0, 0.1, 0.07, 0.05);
    dGeomSetPosition(egg, -1, 2, 0.046);
    check_pair(egg, floor, 1, 0.004, up, "ellipsoid-plane");

    /* minkowski hull cube on a dConvex cube, faces aligned, 3 mm overlap: the
     * four corners of the top face, depth 0.003, normal +z into the upper one */
    dGeomID hull = mk_ode_create_hull(0, kCube, 8), cvx = mk_ode_create_convex(0, kCube, 8);
    dGeomSetPosition(cvx, 5, 5, 0.1);
    dGeomSetPosition(hull, 5.02, 5.01, 0.297);
    check_pair(hull, cvx, 4, 0.003, up, "hull-dConvex");

    /* dBox on dBox, the upper one yawed 0.05 rad (the demo's stack), 1.2 mm
     * overlap: the 8 corners of the overlap octagon, depth 0.0012, as many
     * as ODE's own box-box gives; 4 when the caller takes 4; with room for
     * one, the deepest (all equal here: any of them, at the right depth). */
    dGeomID low = dCreateBox(0, 0.2, 0.2, 0.2), high = dCreateBox(0, 0.2, 0.2, 0.2);
    yawed_on(high, low, 7, 7);
    const unsigned long long patches = mk_ode_get_stats().patches;
    check_pair(high, low, 8, 0.0012, up, "yawed box-box");
    ck_assert_uint_eq(mk_ode_get_stats().patches, patches + 2);
    ck_assert_int_eq(mk_ode_stock_collider(dBoxClass, dBoxClass, NULL)(high, low, 8, &s[0].geom, (int)sizeof(dContact)), 8);
    ck_assert_int_eq(dCollide(high, low, 4, &c[0].geom, (int)sizeof(dContact)), 4);
    ck_assert_int_eq(dCollide(high, low, 1, &c[0].geom, (int)sizeof(dContact)), 1);
    ck_assert_double_eq_tol(c[0].geom.depth, 0.0012, 1e-9);

    ck_assert_int_eq((int)mk_ode_get_stats().failures, 0);
    dGeomDestroy(ball), dGeomDestroy(b2), dGeomDestroy(box), dGeomDestroy(cone), dGeomDestroy(slab), dGeomDestroy(cap);
    dGeomDestroy(egg), dGeomDestroy(hull), destroy_kind(cvx), destroy_kind(bevelled), dGeomDestroy(floor), dGeomDestroy(low), dGeomDestroy(high);
    teardown();
}
END_TEST

/* The growth-distance contact model takes as many points as the
 * signed-distance one (mk_collide_growth_patch): the yawed box on a box (the
 * demo's stack) gives the 8 corners of the overlap octagon at 1.2 mm (on a
 * face the growth separation is the depth), 4 when the caller takes 4; the
 * same boxes as dConvex cubes likewise. */
START_TEST(growth_model_patches)
{
    setup();
    mk_ode_options o = mk_ode_default_options();
    o.contact_model = MK_ODE_MODEL_GROWTH;
    ck_assert_int_eq(mk_ode_install(&o), 0);
    const double up[3] = {0, 0, 1};
    dGeomID low = dCreateBox(0, 0.2, 0.2, 0.2), high = dCreateBox(0, 0.2, 0.2, 0.2);
    yawed_on(high, low, 7, 7);
    const unsigned long long patches = mk_ode_get_stats().patches;
    check_pair(high, low, 8, 0.0012, up, "growth: yawed box-box");
    ck_assert_uint_eq(mk_ode_get_stats().patches, patches + 2);
    dContact c[8];
    ck_assert_int_eq(dCollide(high, low, 4, &c[0].geom, (int)sizeof(dContact)), 4);
    dGeomID base = mk_ode_create_convex(0, kCube, 8), top = mk_ode_create_convex(0, kCube, 8);
    yawed_on(top, base, 5, 5);
    check_pair(top, base, 8, 0.0012, up, "growth: yawed dConvex boxes");
    ck_assert_int_eq((int)mk_ode_get_stats().failures, 0);
    dGeomDestroy(low), dGeomDestroy(high), destroy_kind(base), destroy_kind(top);
    teardown();
}
END_TEST

/* Sizes ODE accepts and the core refuses. A dCapsule of length 0 is a sphere:
 * it rests on the ground and on a box as a sphere of its radius does (before,
 * the adapter refused it and it fell through, where stock ODE answers it: found
 * by a fuzzer of the adapter). A dBox with a zero side gets no contact, counted
 * as a failure (ODE's own cylinder-box collider aborts on it, so it is not
 * handed to ODE), and never a NaN. */
START_TEST(zero_sizes)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    const double up[3] = {0, 0, 1};
    dGeomID floor = dCreatePlane(0, 0, 0, 1, 0);
    dGeomID ball = dCreateCapsule(0, 0.1, 0);
    dGeomSetPosition(ball, 0.3, -0.2, 0.09);
    check_pair(ball, floor, 1, 0.01, up, "length-0 capsule on the plane");
    /* on a box 0.4 x 0.4 x 0.2 whose top is at z = 0: as a sphere, and as the
     * stock capsule-box collider says */
    dGeomID box = dCreateBox(0, 0.4, 0.4, 0.2);
    dGeomSetPosition(box, 0.3, -0.2, -0.1);
    check_pair(ball, box, 1, 0.01, up, "length-0 capsule on a box");
    dContact c[8];
    int rev = 0;
    dColliderFn *stock = mk_ode_stock_collider(dCapsuleClass, dBoxClass, &rev);
    ck_assert_ptr_nonnull(stock);
    const int n = rev ? stock(box, ball, 8, &c[0].geom, (int)sizeof(dContact))
                      : stock(ball, box, 8, &c[0].geom, (int)sizeof(dContact));
    ck_assert_int_eq(n, 1);
    ck_assert_double_eq_tol(c[0].geom.depth, 0.01, 1e-12);

    /* a plate: zero thickness, 1 cm below the ground's surface */
    dGeomID plate = dCreateBox(0, 0.4, 0.4, 0);
    dGeomSetPosition(plate, 0, 0, -0.01);
    mk_ode_reset_stats();
    for (int order = 0; order < 2; ++order) {
        memset(c, 0, sizeof c);
        ck_assert_int_eq(dCollide(order ? floor : plate, order ? plate : floor, 8, &c[0].geom, (int)sizeof(dContact)), 0);
        ck_assert_int_eq(dCollide(order ? ball : plate, order ? plate : ball, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    }
    const mk_ode_stats st = mk_ode_get_stats();
    ck_assert_int_eq((int)st.failures, 4);
    ck_assert_int_eq((int)st.contacts, 0);
    dGeomDestroy(plate), dGeomDestroy(box), dGeomDestroy(ball), dGeomDestroy(floor);
    teardown();
}
END_TEST

/* dConvex bookkeeping: a dConvex made by hand collides through ODE's stock
 * collider (counted as a fallback, bit-identical to the stock function) until
 * registered, through minkowski once registered (a full face manifold), and
 * through the stock collider again once forgotten. The geom data slot of every
 * geom involved is never touched. */
START_TEST(convex_side_table)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    dGeomID hand = dCreateConvex(0, kCubePlanes, 6, kCube, 8, kCubePolys);
    dGeomID made = mk_ode_create_convex(0, kCube, 8), cone = mk_ode_create_cone(0, 0.1, 0.2);
    int tag_hand, tag_made, tag_cone;
    dGeomSetData(hand, &tag_hand), dGeomSetData(made, &tag_made), dGeomSetData(cone, &tag_cone);
    dGeomSetPosition(hand, 0, 0, 0.198);
    dContact c[8], s[8];
    memset(c, 0, sizeof c), memset(s, 0, sizeof s);
    mk_ode_reset_stats();
    int n = dCollide(hand, made, 8, &c[0].geom, (int)sizeof(dContact));
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq((int)mk_ode_get_stats().stock_fallbacks, 1);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 0);
    int reverse;
    dColliderFn *fn = mk_ode_stock_collider(dConvexClass, dConvexClass, &reverse);
    ck_assert_int_eq(fn(made, hand, 8, &s[0].geom, (int)sizeof(dContact)), 1); /* ODE swaps same-class overrides */
    ck_assert_double_eq_tol(s[0].geom.depth, c[0].geom.depth, 1e-12);
    /* an unregistered dConvex has no geometry for the minkowski classes */
    dGeomSetPosition(cone, 0, 0, 0.19);
    ck_assert_int_eq(dCollide(hand, cone, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq(mk_ode_register_convex(hand, kCube, 8), 0);
    ck_assert_int_eq(mk_ode_register_convex(cone, kCube, 8), -1); /* not a dConvex */
    ck_assert_int_eq(dCollide(hand, made, 8, &c[0].geom, (int)sizeof(dContact)), 4);
    ck_assert_int_gt(dCollide(hand, cone, 8, &c[0].geom, (int)sizeof(dContact)), 0);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 2);
    mk_ode_forget_convex(hand);
    ck_assert_int_eq(dCollide(hand, made, 8, &c[0].geom, (int)sizeof(dContact)), 1);
    ck_assert_int_eq((int)mk_ode_get_stats().stock_fallbacks, 3);
    ck_assert_ptr_eq(dGeomGetData(hand), &tag_hand);
    ck_assert_ptr_eq(dGeomGetData(made), &tag_made);
    ck_assert_ptr_eq(dGeomGetData(cone), &tag_cone);
    /* degenerate clouds are refused */
    const dReal flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    ck_assert_ptr_null(mk_ode_create_convex(0, flat, 4));
    ck_assert_ptr_null(mk_ode_create_hull(0, flat, 4));
    ck_assert_ptr_null(mk_ode_create_cone(0, -1, 0.2));
    ck_assert_ptr_null(mk_ode_create_ellipsoid(0, 0.1, 0, 0.1));
    dGeomDestroy(hand), destroy_kind(made), dGeomDestroy(cone);
    teardown();
}
END_TEST

/* The classes' AABBs are exact under random poses: against closed forms for
 * the cone (apex and base circle) and ellipsoid (sqrt(sum (R_ij a_j)^2)), and
 * the transformed vertices for the hull. */
START_TEST(class_aabbs_exact)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    const dReal pts[18] = {0.1, 0, 0, -0.05, 0.08, 0, -0.05, -0.08, 0.01, 0, 0, 0.12, 0.02, 0.01, -0.09, 0.03, -0.03, 0.05};
    dGeomID cone = mk_ode_create_cone(0, 0.1, 0.3), egg = mk_ode_create_ellipsoid(0, 0.1, 0.07, 0.05);
    dGeomID hull = mk_ode_create_hull(0, pts, 6);
    for (int t = 0; t < 50; ++t) {
        dMatrix3 R;
        const dReal p[3] = {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5};
        dReal box[6], want[6];
        /* cone: apex at R (0,0,0.15) + p, base circle centre R (0,0,-0.15) + p, radius 0.1 */
        random_rotation(R);
        dGeomSetRotation(cone, R), dGeomSetPosition(cone, p[0], p[1], p[2]);
        dGeomGetAABB(cone, box);
        for (int i = 0; i < 3; ++i) {
            double apex = p[i] + 0.15 * R[4 * i + 2], base = p[i] - 0.15 * R[4 * i + 2];
            double ext = 0.1 * sqrt(fmax(0, 1 - R[4 * i + 2] * R[4 * i + 2]));
            want[2 * i] = fmin(apex, base - ext), want[2 * i + 1] = fmax(apex, base + ext);
        }
        for (int k = 0; k < 6; ++k)
            ck_assert_msg(fabs(box[k] - want[k]) < 1e-12, "cone aabb[%d] %g, expected %g", k, box[k], want[k]);
        random_rotation(R);
        dGeomSetRotation(egg, R), dGeomSetPosition(egg, p[0], p[1], p[2]);
        dGeomGetAABB(egg, box);
        for (int i = 0; i < 3; ++i) {
            double ext = sqrt(pow(R[4 * i] * 0.1, 2) + pow(R[4 * i + 1] * 0.07, 2) + pow(R[4 * i + 2] * 0.05, 2));
            want[2 * i] = p[i] - ext, want[2 * i + 1] = p[i] + ext;
        }
        for (int k = 0; k < 6; ++k)
            ck_assert_msg(fabs(box[k] - want[k]) < 1e-12, "ellipsoid aabb[%d] %g, expected %g", k, box[k], want[k]);
        random_rotation(R);
        dGeomSetRotation(hull, R), dGeomSetPosition(hull, p[0], p[1], p[2]);
        dGeomGetAABB(hull, box);
        for (int i = 0; i < 3; ++i) {
            want[2 * i] = INFINITY, want[2 * i + 1] = -INFINITY;
            for (int v = 0; v < 6; ++v) {
                double x = p[i] + R[4 * i] * pts[3 * v] + R[4 * i + 1] * pts[3 * v + 1] + R[4 * i + 2] * pts[3 * v + 2];
                want[2 * i] = fmin(want[2 * i], x), want[2 * i + 1] = fmax(want[2 * i + 1], x);
            }
        }
        for (int k = 0; k < 6; ++k)
            ck_assert_msg(fabs(box[k] - want[k]) < 1e-12, "hull aabb[%d] %g, expected %g", k, box[k], want[k]);
    }
    dGeomDestroy(cone), dGeomDestroy(egg), dGeomDestroy(hull);
    teardown();
}
END_TEST

/* dRay against the minkowski classes, as ODE answers a ray against its own
 * primitives (ray.cpp): one contact at the entry, depth = distance along
 * the ray, normal = the geom's outward normal (g1 = the ray); from inside,
 * the exit with the normal inward (none with backface culling, none when
 * the geom holds the whole ray); nothing beyond the length; the other
 * argument order flipped. Against closed forms (a cube hull, a cone's side,
 * base and apex, ellipsoids through the unit sphere in scaled coordinates). Before this,
 * rays passed through these geoms without a contact. */
static int ray_hit(dGeomID ray, dGeomID g, dContactGeom *c) { return dCollide(ray, g, 1, c, sizeof(dContact)); }

START_TEST(rays_hit_the_new_classes)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    const dReal cube[24] = {-0.1, -0.1, -0.1, 0.1, -0.1, -0.1, -0.1, 0.1, -0.1, 0.1, 0.1, -0.1,
                            -0.1, -0.1, 0.1,  0.1, -0.1, 0.1,  -0.1, 0.1, 0.1,  0.1, 0.1, 0.1};
    dGeomID hull = mk_ode_create_hull(0, cube, 8), cone = mk_ode_create_cone(0, 0.1, 0.3);
    dGeomID egg = mk_ode_create_ellipsoid(0, 0.1, 0.07, 0.05);
    dGeomID ray = dCreateRay(0, 5);
    dContact c[2];
    memset(c, 0, sizeof c);
    /* the cube from outside, both argument orders */
    dGeomRaySet(ray, -1, 0.01, 0.02, 1, 0, 0);
    ck_assert_int_eq(ray_hit(ray, hull, &c[0].geom), 1);
    const dContactGeom *g = &c[0].geom;
    ck_assert_double_eq_tol(g->pos[0], -0.1, 1e-12);
    ck_assert_double_eq_tol(g->pos[1], 0.01, 1e-12);
    ck_assert_double_eq_tol(g->depth, 0.9, 1e-12);
    ck_assert_double_eq_tol(g->normal[0], -1, 1e-12);
    ck_assert(g->g1 == ray && g->g2 == hull && g->side1 == -1 && g->side2 == -1);
    ck_assert_int_eq(dCollide(hull, ray, 1, &c[1].geom, sizeof(dContact)), 1);
    ck_assert(c[1].geom.g1 == hull && c[1].geom.g2 == ray);
    ck_assert_double_eq_tol(c[1].geom.normal[0], 1, 1e-12);
    ck_assert_double_eq_tol(c[1].geom.depth, 0.9, 1e-12);
    /* too short, pointing away, passing by */
    dGeomRaySetLength(ray, 0.85);
    ck_assert_int_eq(ray_hit(ray, hull, &c[0].geom), 0);
    dGeomRaySetLength(ray, 5);
    dGeomRaySet(ray, -1, 0.01, 0.02, -1, 0, 0);
    ck_assert_int_eq(ray_hit(ray, hull, &c[0].geom), 0);
    dGeomRaySet(ray, -1, 0.3, 0.02, 1, 0, 0);
    ck_assert_int_eq(ray_hit(ray, hull, &c[0].geom), 0);
    /* from inside: the exit, normal inward; culled; held whole */
    dGeomRaySet(ray, 0.05, 0.01, 0.02, 1, 0, 0);
    ck_assert_int_eq(ray_hit(ray, hull, &c[0].geom), 1);
    ck_assert_double_eq_tol(g->pos[0], 0.1, 1e-12);
    ck_assert_double_eq_tol(g->depth, 0.05, 1e-12);
    ck_assert_double_eq_tol(g->normal[0], -1, 1e-12);
    dGeomRaySetBackfaceCull(ray, 1);
    ck_assert_int_eq(ray_hit(ray, hull, &c[0].geom), 0);
    dGeomRaySetBackfaceCull(ray, 0);
    dGeomRaySetLength(ray, 0.03);
    ck_assert_int_eq(ray_hit(ray, hull, &c[0].geom), 0);
    dGeomRaySetLength(ray, dInfinity);
    ck_assert_int_eq(ray_hit(ray, hull, &c[0].geom), 1);
    ck_assert_double_eq_tol(g->depth, 0.05, 1e-12);
    dGeomRaySetLength(ray, 5);
    /* the cone's side at z = 0 (radius 0.05 there): normal (-2h, 0, r) / |.| */
    dGeomRaySet(ray, -1, 0, 0, 1, 0, 0);
    ck_assert_int_eq(ray_hit(ray, cone, &c[0].geom), 1);
    ck_assert_double_eq_tol(g->depth, 0.95, 1e-12);
    ck_assert_double_eq_tol(g->normal[0], -0.3 / sqrt(0.1), 1e-12);
    ck_assert_double_eq_tol(g->normal[2], 0.1 / sqrt(0.1), 1e-12);
    /* its base from below, its apex from above */
    dGeomRaySet(ray, 0.01, 0.02, -1, 0, 0, 1);
    ck_assert_int_eq(ray_hit(ray, cone, &c[0].geom), 1);
    ck_assert_double_eq_tol(g->depth, 0.85, 1e-12);
    ck_assert_double_eq_tol(g->normal[2], -1, 1e-12);
    dGeomRaySet(ray, 0, 0, 1, 0, 0, -1);
    ck_assert_int_eq(ray_hit(ray, cone, &c[0].geom), 1);
    ck_assert_double_eq_tol(g->depth, 0.85, 1e-12);
    /* ellipsoids at random poses: the entry of the unit sphere in scaled
     * coordinates, the quadric's gradient as the normal */
    int hits = 0;
    for (int t = 0; t < 400; ++t) {
        dMatrix3 R;
        random_rotation(R);
        const dReal p[3] = {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5};
        dGeomSetRotation(egg, R), dGeomSetPosition(egg, p[0], p[1], p[2]);
        double o[3], d[3], aim[3];
        for (int i = 0; i < 3; ++i)
            o[i] = p[i] + (rnd() - 0.5), aim[i] = p[i] + 0.1 * (rnd() - 0.5);
        double dl = 0;
        for (int i = 0; i < 3; ++i)
            d[i] = aim[i] - o[i], dl += d[i] * d[i];
        dl = sqrt(dl);
        for (int i = 0; i < 3; ++i)
            d[i] /= dl;
        dGeomRaySet(ray, o[0], o[1], o[2], d[0], d[1], d[2]);
        /* local: q = R^T (o - p), e = R^T d, scaled by the radii */
        const double rad[3] = {0.1, 0.07, 0.05};
        double q[3], e[3];
        for (int i = 0; i < 3; ++i) {
            q[i] = e[i] = 0;
            for (int k = 0; k < 3; ++k)
                q[i] += R[4 * k + i] * (o[k] - p[k]), e[i] += R[4 * k + i] * d[k];
            q[i] /= rad[i], e[i] /= rad[i];
        }
        const double A = e[0] * e[0] + e[1] * e[1] + e[2] * e[2], B = q[0] * e[0] + q[1] * e[1] + q[2] * e[2];
        const double C = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] - 1, disc = B * B - A * C;
        const int n = ray_hit(ray, egg, &c[0].geom);
        if (C <= 0) { /* inside: the exit */
            const double t_exit = (-B + sqrt(disc)) / A;
            ck_assert_int_eq(n, 1);
            ck_assert_double_eq_tol(g->depth, t_exit, 1e-6);
            continue;
        }
        const double t_in = disc >= 0 ? (-B - sqrt(disc)) / A : -1;
        if (disc < -1e-6 || t_in < 0) {
            ck_assert_int_eq(n, 0);
            continue;
        }
        if (disc < 1e-6)
            continue; /* grazing: either answer */
        ck_assert_int_eq(n, 1);
        ++hits;
        /* t short by up to 4 tol / cos(incidence); the normal within that over the curvature */
        ck_assert_double_eq_tol(g->depth, t_in, 1e-5);
        double nl[3], nw[3] = {0, 0, 0};
        for (int i = 0; i < 3; ++i)
            nl[i] = (q[i] + t_in * e[i]) / rad[i];
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 3; ++i)
                nw[k] += R[4 * k + i] * nl[i];
        const double nn = sqrt(nw[0] * nw[0] + nw[1] * nw[1] + nw[2] * nw[2]);
        for (int k = 0; k < 3; ++k)
            ck_assert_double_eq_tol(g->normal[k], nw[k] / nn, 1e-3);
    }
    ck_assert_int_gt(hits, 40);
    /* dRay against a stock kind stays ODE's */
    const mk_ode_stats before = mk_ode_get_stats();
    dGeomID box = dCreateBox(0, 0.2, 0.2, 0.2);
    dGeomRaySet(ray, -1, 0, 0, 1, 0, 0);
    ck_assert_int_eq(ray_hit(ray, box, &c[0].geom), 1);
    ck_assert_double_eq_tol(g->depth, 0.9, 1e-12);
    ck_assert(mk_ode_get_stats().calls == before.calls);
    dGeomDestroy(box), dGeomDestroy(ray), dGeomDestroy(hull), dGeomDestroy(cone), dGeomDestroy(egg);
    teardown();
}
END_TEST

/* dRay against a dConvex made by mk_ode_create_convex from a 12-point cloud
 * (Qhull's hull: triangular faces). ODE 0.16.2's own ray-convex collider
 * (Debian's build) misses most of these rays (4 hits of 166 that meet the
 * hull: printed below, not asserted, as a later ODE may fix it). With the
 * adapter (MK_ODE_RAY, in the defaults) the hits agree with the exact entry
 * through the hull's face planes; an unregistered dConvex (a cube, quads)
 * keeps ODE's collider; uninstall, the pairs mask and keep_native leave the
 * pair to ODE. */
START_TEST(rays_meet_registered_convexes)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    dReal pts[36];
    mk_vec3 mp[12];
    for (int i = 0; i < 12; ++i) {
        const double z = 2 * rnd() - 1, a = 2 * PI * rnd(), r = sqrt(1 - z * z);
        mp[i] = (mk_vec3){0.3 * r * cos(a), 0.2 * r * sin(a), 0.1 * z};
        pts[3 * i] = mp[i].x, pts[3 * i + 1] = mp[i].y, pts[3 * i + 2] = mp[i].z;
    }
    dGeomID cv = mk_ode_create_convex(0, pts, 12);
    ck_assert_ptr_nonnull(cv);
    mk_hull *h;
    ck_assert_int_eq(mk_hull_create(mp, 12, &h), MK_OK);
    dMatrix3 R;
    random_rotation(R);
    dGeomSetRotation(cv, R), dGeomSetPosition(cv, 0.3, -0.2, 0.1);
    dGeomID ray = dCreateRay(0, 5);
    enum { N = 200 };
    double o[N][3], d[N][3], exact[N];
    int hits_exact = 0;
    for (int k = 0; k < N; ++k) {
        double aim[3] = {0.3 + 0.2 * (rnd() - 0.5), -0.2 + 0.2 * (rnd() - 0.5), 0.1 + 0.1 * (rnd() - 0.5)};
        double len = 0;
        for (int i = 0; i < 3; ++i)
            o[k][i] = aim[i] + 2 * (rnd() - 0.5), d[k][i] = 0;
        for (int i = 0; i < 3; ++i)
            d[k][i] = aim[i] - o[k][i], len += d[k][i] * d[k][i];
        len = sqrt(len);
        /* exact entry: the face planes in the hull's frame (q = R^T (o - p), e = R^T d) */
        double q[3], e[3];
        const double pos[3] = {0.3, -0.2, 0.1};
        for (int i = 0; i < 3; ++i) {
            d[k][i] /= len;
            q[i] = e[i] = 0;
        }
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                q[i] += R[4 * j + i] * (o[k][j] - pos[j]), e[i] += R[4 * j + i] * d[k][j];
        double lo = -INFINITY, hi = INFINITY;
        for (int f = 0; f < h->num_faces; ++f) {
            const mk_vec3 n = h->face_normals[f];
            const double a = n.x * e[0] + n.y * e[1] + n.z * e[2];
            const double b = h->face_offsets[f] - (n.x * q[0] + n.y * q[1] + n.z * q[2]);
            if (a < 0)
                lo = fmax(lo, b / a);
            else if (a > 0)
                hi = fmin(hi, b / a);
            else if (b < 0)
                lo = INFINITY;
        }
        /* the entry, or from inside the exit (ODE's rays) */
        exact[k] = lo <= hi && lo >= 0 && lo <= 5 ? lo : lo <= hi && lo < 0 && hi >= 0 && hi <= 5 ? hi : NAN;
        hits_exact += !isnan(exact[k]);
    }
    ck_assert_int_gt(hits_exact, N / 2);
    /* stock first (a second install below takes it over again) */
    mk_ode_uninstall();
    int stock_hits = 0;
    dContactGeom c;
    for (int k = 0; k < N; ++k) {
        dGeomRaySet(ray, o[k][0], o[k][1], o[k][2], d[k][0], d[k][1], d[k][2]);
        stock_hits += dCollide(ray, cv, 1, &c, sizeof c);
    }
    printf("ode rays: stock ODE's ray-convex collider hit %d of %d rays that meet a 12-point dConvex\n", stock_hits,
           hits_exact);
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    mk_ode_reset_stats();
    int hits = 0;
    double worst = 0;
    for (int k = 0; k < N; ++k) {
        dGeomRaySet(ray, o[k][0], o[k][1], o[k][2], d[k][0], d[k][1], d[k][2]);
        const int n = dCollide(ray, cv, 1, &c, sizeof c);
        ck_assert_int_eq(n, !isnan(exact[k]));
        if (n) {
            ck_assert(c.g1 == ray && c.g2 == cv);
            worst = fmax(worst, fabs(c.depth - exact[k]));
            ++hits;
        }
    }
    ck_assert_double_le(worst, 1e-12);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, N);
    /* an unregistered dConvex keeps ODE's collider (a cube: quads, which it hits) */
    static dReal cube_planes[24] = {1, 0, 0, 0.1, -1, 0, 0, 0.1, 0, 1, 0, 0.1, 0, -1, 0, 0.1, 0, 0, 1, 0.1, 0, 0, -1, 0.1};
    static dReal cube_pts[24] = {-0.1, -0.1, -0.1, 0.1, -0.1, -0.1, -0.1, 0.1, -0.1, 0.1, 0.1, -0.1,
                                 -0.1, -0.1, 0.1,  0.1, -0.1, 0.1,  -0.1, 0.1, 0.1,  0.1, 0.1, 0.1};
    static unsigned cube_polys[30] = {4, 1, 3, 7, 5, 4, 0, 4, 6, 2, 4, 2, 6, 7, 3, 4, 0, 1, 5, 4, 4, 4, 5, 7, 6, 4, 0, 2, 3, 1};
    dGeomID raw = dCreateConvex(0, cube_planes, 6, cube_pts, 8, cube_polys);
    dGeomRaySet(ray, -1, 0.01, 0.02, 1, 0, 0);
    mk_ode_reset_stats();
    ck_assert_int_eq(dCollide(ray, raw, 1, &c, sizeof c), 1);
    ck_assert_double_eq_tol(c.depth, 0.9, 1e-9);
    ck_assert_int_eq((int)mk_ode_get_stats().stock_fallbacks, 1);
    ck_assert_int_eq((int)mk_ode_get_stats().calls, 0);
    /* without MK_ODE_RAY, with keep_native, and uninstalled: ODE's collider */
    mk_ode_options opt = mk_ode_default_options();
    opt.pairs = MK_ODE_ALL & ~MK_ODE_RAY;
    for (int pass = 0; pass < 3; ++pass) {
        if (pass == 0)
            ck_assert_int_eq(mk_ode_install(&opt), 0);
        else if (pass == 1) {
            opt = mk_ode_default_options();
            opt.keep_native = 1;
            ck_assert_int_eq(mk_ode_install(&opt), 0);
        } else {
            mk_ode_uninstall();
        }
        mk_ode_reset_stats();
        for (int k = 0; k < N; ++k) {
            dGeomRaySet(ray, o[k][0], o[k][1], o[k][2], d[k][0], d[k][1], d[k][2]);
            dCollide(ray, cv, 1, &c, sizeof c);
        }
        ck_assert_int_eq((int)mk_ode_get_stats().calls, 0);
    }
    mk_hull_destroy(h);
    dGeomDestroy(raw), dGeomDestroy(ray);
    mk_ode_forget_convex(cv);
    dGeomDestroy(cv);
    teardown();
}
END_TEST

/* Robot models hang geoms on bodies with offsets (dGeomSetOffset*), and older
 * code wraps them in a dGeomTransform: ODE's own colliders read the geom's
 * final pose (body pose times offset; for the wrapped geom, the transform's
 * pose times the geom's), and an override that read the body's pose, or the
 * wrapped geom's own, would put the shape 0.1 m or more off. Every kind
 * (geom a) against every kind: the contacts of the offset geom and of the
 * wrapped one match those of the same geom placed directly at that world
 * pose, in count, depth (to EPA's tolerance), position (1e-3) and normal
 * (1e-2: a sphere or a capsule deep in a cylinder has a flat minimum, whose
 * normal the depth's tolerance fixes only to about 1e-3, and the poses
 * differ by rounding: 8.4e-4 measured, positions 3.3e-5; a wrong pose is
 * off by 0.05 m and 0.37 rad or more). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
START_TEST(offset_and_transform_geoms)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    dWorldID world = dWorldCreate();
    dMatrix3 R, Rb, Ri, Ro;
    dRFromAxisAndAngle(R, 0.3, 0.5, 0.2, 0.4); /* place_pair's pose of a */
    dRFromEulerAngles(Rb, -0.5, 0.4, 0.7);
    dRFromEulerAngles(Ri, 0.1, -0.2, 0.3);
    dMULTIPLY2_333(Ro, R, Ri); /* the transform's rotation: Ro Ri = R */
    const dVector3 p_in = {0.05, 0, -0.02};
    for (int i = 0; i < KIND_PLANE; ++i)
        for (int j = 0; j < NUM_KINDS; ++j) {
            dGeomID direct = make_kind(i), other = make_kind(j);
            place_pair(direct, i, other, j);
            const dReal *P = dGeomGetPosition(direct);

            dBodyID body = dBodyCreate(world);
            dBodySetPosition(body, 0.3, -0.2, 0.5);
            dBodySetRotation(body, Rb);
            dGeomID offset = make_kind(i);
            dGeomSetBody(offset, body);
            dGeomSetOffsetWorldPosition(offset, P[0], P[1], P[2]);
            dGeomSetOffsetWorldRotation(offset, R);

            dGeomID wrapped = make_kind(i), tr = dCreateGeomTransform(0);
            dGeomTransformSetGeom(tr, wrapped);
            dGeomSetPosition(wrapped, p_in[0], p_in[1], p_in[2]);
            dGeomSetRotation(wrapped, Ri);
            dVector3 q;
            dMULTIPLY0_331(q, Ro, p_in);
            dGeomSetRotation(tr, Ro);
            dGeomSetPosition(tr, P[0] - q[0], P[1] - q[1], P[2] - q[2]);

            dContact c0[8], c1[8];
            const int n0 = dCollide(direct, other, 8, &c0[0].geom, (int)sizeof(dContact));
            ck_assert_msg(n0 > 0, "kinds %d, %d: place_pair overlaps them", i, j);
            for (int v = 0; v < 2; ++v) {
                dGeomID g = v ? tr : offset;
                const int n1 = dCollide(g, other, 8, &c1[0].geom, (int)sizeof(dContact));
                ck_assert_msg(n1 == n0, "kinds %d, %d, %s: %d contacts, placed directly %d", i, j,
                              v ? "transform" : "offset", n1, n0);
                for (int k = 0; k < n0; ++k) {
                    const dContactGeom *a = &c0[k].geom, *b = &c1[k].geom;
                    /* ODE names the wrapped geom (dGeomTransformSetInfo 0) */
                    ck_assert_ptr_eq(b->g1, v ? wrapped : offset);
                    ck_assert_ptr_eq(b->g2, other);
                    ck_assert_msg(fabs(a->depth - b->depth) <= 1e-6, "kinds %d, %d, %s, contact %d: depth %.9g vs %.9g",
                                  i, j, v ? "transform" : "offset", k, b->depth, a->depth);
                    for (int m = 0; m < 3; ++m)
                        ck_assert_msg(fabs(a->pos[m] - b->pos[m]) <= 1e-3 && fabs(a->normal[m] - b->normal[m]) <= 1e-2,
                                      "kinds %d, %d, %s, contact %d: pos/normal %d off by %.3g / %.3g", i, j,
                                      v ? "transform" : "offset", k, m, b->pos[m] - a->pos[m],
                                      b->normal[m] - a->normal[m]);
                }
            }
            destroy_kind(direct);
            destroy_kind(offset);
            dGeomDestroy(tr); /* cleanup 0: the wrapped geom is ours to destroy */
            destroy_kind(wrapped);
            destroy_kind(other);
            dBodyDestroy(body);
        }
    dWorldDestroy(world);
    teardown();
}
END_TEST
#pragma GCC diagnostic pop

/* mk_ode_shutdown before the dCloseODE that ends ODE: after a new dInitODE2,
 * another library's class gets dFirstUserClass (ODE forgot ours) and the next
 * install makes minkowski's classes afresh, which collide again. */
START_TEST(shutdown_and_reinit)
{
    setup();
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    dGeomID cone = mk_ode_create_cone(0, 0.1, 0.2);
    dGeomDestroy(cone);
    mk_ode_shutdown();
    ck_assert_int_eq(mk_ode_cone_class(), -1);
    ck_assert_ptr_null(mk_ode_create_cone(0, 0.1, 0.2));
    dCloseODE();
    setup();
    dGeomClass fc = {8, foreign_get, foreign_aabb, NULL, NULL};
    ck_assert_int_eq(dCreateGeomClass(&fc), dFirstUserClass);
    ck_assert_int_eq(mk_ode_install(NULL), 0);
    ck_assert_int_eq(mk_ode_cone_class(), dFirstUserClass + 1);
    cone = mk_ode_create_cone(0, 0.1, 0.2);
    dGeomID floor = dCreatePlane(0, 0, 0, 1, 0);
    dGeomSetPosition(cone, 0, 0, 0.099);
    dContact c[8];
    ck_assert_int_eq(dCollide(cone, floor, 8, &c[0].geom, (int)sizeof(dContact)), 8);
    dGeomDestroy(cone), dGeomDestroy(floor);
    teardown();
}
END_TEST

/* ------------------------------------------------------------ scenes */

static mk_world *make_world_timed(mk_narrowphase np, int growth, int by_pair)
{
    mk_world_config cfg = {np, MK_GJK_NESTEROV, 1.0 / 240, 9.81, 0.6, growth, by_pair};
    mk_world *w = mk_ode_world_create(&cfg);
    ck_assert_ptr_nonnull(w);
    mk_world_add_ground(w);
    return w;
}

static mk_world *make_world(mk_narrowphase np, int growth) { return make_world_timed(np, growth, 0); }

static void cube_points(mk_vec3 cube[8])
{
    for (int k = 0; k < 8; ++k)
        cube[k] = (mk_vec3){kCube[3 * k], kCube[3 * k + 1], kCube[3 * k + 2]};
}

/* The demo's --by-pair table (world_pairs.h): with by_pair, every dCollide
 * call is counted under the kinds of its two bodies; without, no table. */
START_TEST(pair_times_add_up)
{
    mk_vec3 cube[8];
    cube_points(cube);
    for (int np = 0; np < 2; ++np) {
        check_pair_times(make_world_timed(np ? MK_NARROWPHASE_MINKOWSKI : MK_NARROWPHASE_STOCK, 0, 1), cube);
        mk_world *plain = make_world(np ? MK_NARROWPHASE_MINKOWSKI : MK_NARROWPHASE_STOCK, 0);
        ck_assert_ptr_null(mk_world_pair_times(plain));
        mk_world_destroy(plain);
    }
}
END_TEST

static double tilt_deg(const mk_transform *t) { return acos(fmin(1.0, fabs(t->R.m[2][2]))) * 180 / PI; }

/* A dConvex cube and a cone dropped on the ground (the cube yawed, both 10 to
 * 25 cm up) settle flat at their half heights, 0.1 and 0.15. Height bound
 * 1.5 mm: ODE leaves penetration up to the 1 mm surface layer uncorrected (a
 * body may rest anywhere in it, depending on its landing), corrects what lies
 * beyond with ERP 0.2 per step (asymptotically: 1.02 mm seen after 2 s), and
 * the soft CFM 1e-5 adds under a micrometre for 1 kg. Tilt bound 0.1 degree: across
 * the 0.2 m base that is 0.35 mm of height difference, a third of the surface
 * layer, so every base corner (or rim point) is still in contact: the body
 * rests on its face. A body left on one contact at a time rocks or rests on an
 * edge, several degrees off. Stock ODE (dConvex pyramid for the cone) is
 * printed, not asserted. */
START_TEST(convex_and_cone_rest_flat)
{
    for (int np = 0; np < 2; ++np) {
        if (_i && !np)
            continue; /* loop 1: the growth model, minkowski only */
        const int minkowski = np;
        mk_world *w = make_world(minkowski ? MK_NARROWPHASE_MINKOWSKI : MK_NARROWPHASE_STOCK, _i);
        mk_vec3 cube[8];
        cube_points(cube);
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
        fprintf(stderr, "ode resting, %s%s: cube z %.5f tilt %.4f deg, cone z %.5f tilt %.4f deg\n",
                minkowski ? "minkowski" : "stock", _i ? " (growth)" : "", tb.p.z, tilt_deg(&tb), tc.p.z, tilt_deg(&tc));
        if (minkowski) {
            ck_assert_msg(fabs(tb.p.z - 0.1) < 1.5e-3, "box rests at %g", tb.p.z);
            ck_assert_msg(fabs(tc.p.z - 0.15) < 1.5e-3, "cone rests at %g", tc.p.z);
            ck_assert_msg(tilt_deg(&tb) < 0.1 && tilt_deg(&tc) < 0.1, "tilt %g %g", tilt_deg(&tb), tilt_deg(&tc));
            ck_assert(mk_world_minkowski_calls(w) > 0);
        }
        mk_world_destroy(w);
    }
}
END_TEST

/* A cube hull as it comes from a mesh (mesh_cube, a 7 x 7 grid per face),
 * dropped yawed on the ground: with minkowski it rests on its face,
 * at least four contacts a step over the last second, tilt under 0.002
 * degree and still (angular speed under 1e-3 rad/s). Until the manifold took
 * the facets' flat region as the face (2026-11-27), one facet was the face:
 * three contacts a step on one small triangle, the cube rocking by up to
 * 0.04 degree at up to 0.2 rad/s, never still. Stock ODE is printed, not
 * asserted. */
START_TEST(mesh_cube_rests_on_its_face)
{
    static mk_vec3 pts[MESH_CUBE_MAX(6)];
    const int n = mesh_cube(6, 12345, pts);
    for (int np = 0; np < 2; ++np) {
        mk_world *w = make_world(np ? MK_NARROWPHASE_MINKOWSKI : MK_NARROWPHASE_STOCK, 0);
        mk_body_desc d = {0};
        d.kind = MK_BODY_HULL;
        d.points = pts;
        d.num_points = n;
        d.mass = 1;
        d.pose = mk_transform_from_quat((mk_vec3){0, 0, 0.102}, (mk_quat){0, 0, sin(0.15), cos(0.15)});
        const int cube = mk_world_add_body(w, &d);
        int fewest = 1 << 30;
        double worst_tilt = 0, fastest = 0;
        for (int s = 0; s < 720; ++s) {
            mk_step_stats st = mk_world_step(w);
            if (s >= 480) {
                fewest = st.contacts < fewest ? st.contacts : fewest;
                mk_transform t = mk_world_body_pose(w, cube);
                worst_tilt = fmax(worst_tilt, tilt_deg(&t));
                mk_vec3 lin, ang;
                mk_world_body_velocity(w, cube, &lin, &ang);
                fastest = fmax(fastest, sqrt(ang.x * ang.x + ang.y * ang.y + ang.z * ang.z));
            }
        }
        const mk_transform t = mk_world_body_pose(w, cube);
        fprintf(stderr, "ode mesh cube (%d points), %s: z %.5f, last second: tilt up to %.5f deg, >= %d contacts, "
                        "angular speed up to %.2e rad/s\n",
                n, np ? "minkowski" : "stock", t.p.z, worst_tilt, fewest, fastest);
        if (np) {
            ck_assert_msg(fabs(t.p.z - 0.1) < 1.5e-3, "rests at %g", t.p.z);
            ck_assert_msg(fewest >= 4, "%d contacts", fewest);
            ck_assert_msg(worst_tilt < 0.002, "tilt %g deg", worst_tilt);
            ck_assert_msg(fastest < 1e-3, "angular speed %g", fastest);
        }
        mk_world_destroy(w);
    }
}
END_TEST

/* Ten dConvex hulls of the points `pts` (a 0.2 m cube), 5 mm apart, each
 * yawed 0.05 rad more, for 10 s, stock ODE (np 0) or minkowski (np 1):
 * whether they stand (every cube within 2 cm of its place, tilt under 2
 * degrees), printed with the largest tilt and the narrowphase time. */
static int hull_stack_stands(const char *what, const mk_vec3 *pts, int n, int np)
{
    mk_world *w = make_world(np ? MK_NARROWPHASE_MINKOWSKI : MK_NARROWPHASE_STOCK, 0);
    int ids[10];
    for (int i = 0; i < 10; ++i) {
        mk_body_desc d = {0};
        d.kind = MK_BODY_HULL;
        d.points = pts;
        d.num_points = n;
        d.mass = 1;
        double a = 0.05 * i;
        d.pose = mk_transform_from_quat((mk_vec3){0, 0, 0.1 + 0.205 * i}, (mk_quat){0, 0, sin(a / 2), cos(a / 2)});
        ids[i] = mk_world_add_body(w, &d);
    }
    double narrow = 0;
    for (int s = 0; s < 2400; ++s)
        narrow += mk_world_step(w).narrowphase_seconds;
    int standing = 1;
    double worst = 0;
    for (int i = 0; i < 10; ++i) {
        mk_transform t = mk_world_body_pose(w, ids[i]);
        worst = fmax(worst, tilt_deg(&t));
        if (!(fabs(t.p.z - (0.1 + 0.2 * i)) < 0.02 && hypot(t.p.x, t.p.y) < 0.02 && tilt_deg(&t) < 2))
            standing = 0;
    }
    mk_transform top = mk_world_body_pose(w, ids[9]);
    fprintf(stderr, "ode %s stack (%d points each), %s: %s (top at z %.3f, x %.3f), tilt up to %.3f deg, "
                    "narrowphase %.1f us/step\n",
            what, n, np ? "minkowski" : "stock", standing ? "stands" : "fell", top.p.z, top.p.x, worst,
            narrow / 2400 * 1e6);
    mk_world_destroy(w);
    return standing;
}

/* Ten dConvex cubes, 5 mm apart, each yawed 0.05 rad more: with minkowski
 * they stand for 10 s (every cube within 2 cm of its place, tilt under 2
 * degrees). Stock ODE (libccd MPR, one contact per pair) runs the same scene
 * and its outcome is printed, not asserted. */
START_TEST(convex_stack_stands_10s)
{
    mk_vec3 cube[8];
    cube_points(cube);
    hull_stack_stands("convex", cube, 8, 0);
    ck_assert_msg(hull_stack_stands("convex", cube, 8, 1), "the stack fell with minkowski");
}
END_TEST

/* The same with ten cubes as they come from a mesh (mesh_cube, a 4 x 4 grid
 * per face). Before the manifold took a mesh face's flat region as the face
 * (2026-11-27) this stack fell: each pair touched on one small facet. Stock
 * ODE's falls too (printed, not asserted). */
START_TEST(mesh_cube_stack_stands_10s)
{
    static mk_vec3 pts[MESH_CUBE_MAX(3)];
    const int n = mesh_cube(3, 12345, pts);
    hull_stack_stands("mesh cube", pts, n, 0);
    ck_assert_msg(hull_stack_stands("mesh cube", pts, n, 1), "the mesh cube stack fell with minkowski");
}
END_TEST

/* A minkowski world (Nesterov GJK) whose ground is make_floor's jittered
 * 8 m grid (flat) as a triangle mesh. */
static mk_world *mesh_ground_world(void)
{
    mk_world_config cfg = {MK_NARROWPHASE_MINKOWSKI, MK_GJK_NESTEROV, 1.0 / 240, 9.81, 0.6, 0, 0};
    mk_world *w = mk_ode_world_create(&cfg);
    ck_assert_ptr_nonnull(w);
    dTriMeshDataID unused;
    dGeomDestroy(make_floor(0, &unused, 8, 0)); /* fills g_floor_v / g_floor_i */
    dGeomTriMeshDataDestroy(unused);
    static mk_vec3 fv[(FLOOR_G + 1) * (FLOOR_G + 1)];
    static int fi[FLOOR_G * FLOOR_G * 6];
    for (int k = 0; k < (FLOOR_G + 1) * (FLOOR_G + 1); ++k)
        fv[k] = (mk_vec3){g_floor_v[3 * k], g_floor_v[3 * k + 1], g_floor_v[3 * k + 2]};
    for (int k = 0; k < FLOOR_G * FLOOR_G * 6; ++k)
        fi[k] = (int)g_floor_i[k];
    ck_assert_int_eq(mk_world_add_ground_mesh(w, fv, (FLOOR_G + 1) * (FLOOR_G + 1), fi, FLOOR_G * FLOOR_G * 2), 0);
    return w;
}

/* Small bodies dropped from 1.44 m (5.3 m/s, 2.2 cm per step at the floor)
 * onto a triangle-mesh ground stay on it. Found by a soak (MK_SOAK=1
 * MK_TEST_SEED=61, mixed_bodies_in_a_bin on the mesh ground; body 94): a cone
 * of radius 4 cm lying on its side met the floor 1.9 cm deep with one
 * contact, turned, and the next step its centre was 0.9 mm below the floor.
 * Every triangle then took it for a shape behind it (mesh.h: one-sided) and
 * it fell through, to z = -3,010 m by the end. That cone, on the same floor
 * (make_floor from the generator's first state, as the soak had it), then
 * every kind at random tilts: after 1 s every body is above the floor. */
START_TEST(small_fast_bodies_stay_on_a_mesh_ground)
{
    g_rng = 0x5EED0DEull; /* make_floor's jitter: a forked test's first state */
    mk_world *w = mesh_ground_world();
    enum { N = 49 };
    int ids[N];
    for (int i = 0; i < N; ++i) {
        mk_body_desc d = {0};
        d.mass = 1;
        if (i == 0) { /* the soak's cone, as it was dropped */
            d.kind = MK_BODY_CONE;
            d.size[0] = 0.039674309645087197, d.size[1] = 0.041418077183034516;
            d.pose.R = (mk_mat3){{{0.1189109300531932, 0.16729859639700756, -0.97870903253085162},
                                  {0.96991094441850456, -0.2304759446200848, 0.078444877772128496},
                                  {-0.21244517083494546, -0.95858855542671217, -0.18967084856097438}}};
            d.pose.p = (mk_vec3){0.75148723258340844, 0.37758332959996055, 1.4400000000000002};
        } else {
            d.kind = (mk_body_kind)(i % 6);
            const double s = 0.03 + 0.05 * rnd();
            d.size[0] = s * (0.5 + 0.5 * rnd()), d.size[1] = s * (0.5 + 0.5 * rnd()), d.size[2] = s * (0.5 + 0.5 * rnd());
            if (d.kind == MK_BODY_HULL) {
                static mk_vec3 cube[N][8];
                for (int k = 0; k < 8; ++k)
                    cube[i][k] = (mk_vec3){k & 1 ? s : -s, k & 2 ? 0.7 * s : -0.7 * s, k & 4 ? 0.5 * s : -0.5 * s};
                d.points = cube[i];
                d.num_points = 8;
            }
            d.pose = mk_transform_from_quat((mk_vec3){(i % 7 - 3) * 1.05 + 0.1, (i / 7 - 3) * 1.05 + 0.1, 1.44},
                                            (mk_quat){rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5});
        }
        ids[i] = mk_world_add_body(w, &d);
        ck_assert_int_ge(ids[i], 0);
    }
    for (int s = 0; s < 240; ++s)
        mk_world_step(w);
    for (int i = 0; i < N; ++i) {
        const mk_transform t = mk_world_body_pose(w, ids[i]);
        ck_assert_msg(mk_is_valid_transform(&t) && t.p.z > 0, "body %d (kind %d) went through the floor: z %g", i,
                      i ? i % 6 : MK_BODY_CONE, t.p.z);
    }
    ck_assert_int_eq((int)mk_ode_get_stats().failures, 0);
    mk_world_destroy(w);
}
END_TEST

/* 200 mixed bodies (dConvex hulls of 8..40 points, boxes, spheres, capsules,
 * cylinders, cones) into a 2 m bin for 2000 steps: finite, nobody escapes,
 * no collider error. MK_SOAK=1: 400 bodies, 6000 steps; MK_TEST_SEED=k: other
 * bodies and drop poses (oracle.h). */
START_TEST(mixed_bodies_in_a_bin)
{
    /* loop 0: on the plane; loop 1: on a triangle-mesh ground (the same plane, make_floor's jittered
     * grid: every kind against dTriMesh, MK_ODE_TRIMESH and the new classes) */
    mk_world *w;
    if (_i) {
        w = mesh_ground_world();
    } else {
        w = make_world(MK_NARROWPHASE_MINKOWSKI, 0);
    }
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
    g_rng = or_test_seed(77);
    const int soak = getenv("MK_SOAK") && atoi(getenv("MK_SOAK")) > 0;
    const int n = soak ? 400 : 200, steps = soak ? 6000 : 2000;
    static mk_vec3 clouds[400][40];
    int *ids = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) {
        mk_body_desc d = {0};
        d.kind = (mk_body_kind)(i % 6);
        double s = 0.06 + 0.05 * rnd();
        d.size[0] = s * (0.5 + 0.5 * rnd());
        d.size[1] = s * (0.5 + 0.5 * rnd());
        d.size[2] = s * (0.5 + 0.5 * rnd());
        if (d.kind == MK_BODY_HULL) {
            int m = 8 + (int)(rnd() * 33);
            mk_vec3 mean = {0, 0, 0};
            for (int k = 0; k < m; ++k) {
                clouds[i][k] = (mk_vec3){s * (2 * rnd() - 1), s * (2 * rnd() - 1), s * (2 * rnd() - 1)};
                mean = (mk_vec3){mean.x + clouds[i][k].x / m, mean.y + clouds[i][k].y / m, mean.z + clouds[i][k].z / m};
            }
            /* body frame at the points' mean, inside the hull (ODE's dConvex
             * warns about hulls whose origin is outside) */
            for (int k = 0; k < m; ++k)
                clouds[i][k] = (mk_vec3){clouds[i][k].x - mean.x, clouds[i][k].y - mean.y, clouds[i][k].z - mean.z};
            d.points = clouds[i];
            d.num_points = m;
        }
        d.mass = 1;
        int layer = i / 25, r = i % 25;
        mk_vec3 p = {(r % 5 - 2) * 0.38 + 0.04 * (rnd() - 0.5), (r / 5 - 2) * 0.38 + 0.04 * (rnd() - 0.5),
                     0.3 + 0.38 * layer};
        d.pose = mk_transform_from_quat(p, (mk_quat){rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5});
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
    ck_assert(mk_world_minkowski_calls(w) > 0);
    free(ids);
    mk_world_destroy(w);
}
END_TEST

/* A small pile of mixed bodies, stepped from a fixed state; the final poses
 * go into out. */
static void pile_run(mk_transform *out, int n, int steps)
{
    dRandSetSeed(1); /* QuickStep's constraint order */
    mk_world *w = make_world(MK_NARROWPHASE_MINKOWSKI, 0);
    g_rng = 2024;
    static mk_vec3 clouds[64][24];
    int ids[64];
    for (int i = 0; i < n; ++i) {
        mk_body_desc d = {0};
        d.kind = (mk_body_kind)(i % 6);
        const double sz = 0.06 + 0.05 * rnd();
        d.size[0] = d.size[1] = d.size[2] = sz;
        if (d.kind == MK_BODY_HULL) {
            for (int k = 0; k < 24; ++k)
                clouds[i][k] = (mk_vec3){sz * (2 * rnd() - 1), sz * (2 * rnd() - 1), sz * (2 * rnd() - 1)};
            d.points = clouds[i];
            d.num_points = 24;
        }
        d.mass = 1;
        d.pose = mk_transform_from_quat((mk_vec3){0.3 * (rnd() - 0.5), 0.3 * (rnd() - 0.5), 0.1 + 0.12 * i},
                                        (mk_quat){rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5});
        ids[i] = mk_world_add_body(w, &d);
        ck_assert_int_ge(ids[i], 0);
    }
    for (int s = 0; s < steps; ++s)
        mk_world_step(w);
    for (int i = 0; i < n; ++i)
        out[i] = mk_world_body_pose(w, ids[i]);
    mk_world_destroy(w);
}

/* The same scene gives the same trajectories bit for bit wherever its geoms
 * sit in memory. The adapter's per-pair warm-start table used to be direct-
 * mapped by the geoms' addresses: pairs whose addresses shared a slot evicted
 * each other's warm starts, which changes answers in their last digits, and
 * the demo's ODE scenes differed from run to run under address space
 * randomisation. The second run here first takes memory the first run's geoms
 * had (a thousand spheres kept alive), so its geoms sit elsewhere. */
START_TEST(same_answers_wherever_geoms_sit)
{
    setup();
    enum { N = 64, STEPS = 400 };
    static mk_transform first[N], second[N];
    pile_run(first, N, STEPS);
    dGeomID fill[1000];
    for (int i = 0; i < 1000; ++i)
        fill[i] = dCreateSphere(0, 0.01);
    pile_run(second, N, STEPS);
    for (int i = 0; i < 1000; ++i)
        dGeomDestroy(fill[i]);
    for (int i = 0; i < N; ++i)
        ck_assert_msg(memcmp(&first[i], &second[i], sizeof first[i]) == 0,
                      "body %d: (%.17g, %.17g, %.17g) then (%.17g, %.17g, %.17g)", i, first[i].p.x, first[i].p.y,
                      first[i].p.z, second[i].p.x, second[i].p.y, second[i].p.z);
    teardown();
}
END_TEST

/* ------------------------------------------------------------ dTriMesh */

/* A floor of g x g cells over [-w/2, w/2]^2 at z = 0 (or a tilted plane
 * z = slope x), inner vertices jittered by up to 0.3 cell in x and y, each
 * cell cut along a random diagonal, counter-clockwise from +z. The arrays
 * stay alive as ODE wants (the data is not copied). */
static dGeomID make_floor(dSpaceID space, dTriMeshDataID *data, double w, double slope)
{
    const int g = FLOOR_G;
    const double h = w / g;
    for (int i = 0; i <= g; ++i)
        for (int j = 0; j <= g; ++j) {
            double x = -0.5 * w + i * h, y = -0.5 * w + j * h;
            if (i > 0 && i < g && j > 0 && j < g)
                x += (rnd() - 0.5) * 0.6 * h, y += (rnd() - 0.5) * 0.6 * h;
            double *v = &g_floor_v[3 * (i * (g + 1) + j)];
            v[0] = x, v[1] = y, v[2] = slope * x;
        }
    int t = 0;
    for (int i = 0; i < g; ++i)
        for (int j = 0; j < g; ++j) {
            const dTriIndex a = (dTriIndex)(i * (g + 1) + j), b = a + (dTriIndex)(g + 1), c = b + 1, d = a + 1;
            const dTriIndex q1[6] = {a, b, c, a, c, d}, q2[6] = {a, b, d, b, c, d};
            memcpy(&g_floor_i[6 * t++], rnd() < 0.5 ? q1 : q2, sizeof q1);
        }
    *data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(*data, g_floor_v, 3 * sizeof(double), (g + 1) * (g + 1), g_floor_i, 6 * g * g,
                                3 * sizeof(dTriIndex));
    return dCreateTriMesh(space, *data, NULL, NULL, NULL);
}

/* Hand-built contacts of the new classes with a tessellated floor: a cone
 * standing 1 mm deep on its base, an ellipsoid tilted into it, a hull cube
 * yawed on it, in both orders; the flags limit and CONTACTS_UNIMPORTANT; a
 * geom above the floor or behind it (under a one-sided floor) gets none. */
START_TEST(trimesh_contacts)
{
    setup();
    mk_ode_install(NULL);
    dTriMeshDataID data;
    dGeomID floor = make_floor(0, &data, 8, 0);
    const int tris = dGeomTriMeshGetTriangleCount(floor);
    dContact c[16];
    /* ODE's own sphere collider sees the same front: a sphere above gets +z */
    dGeomID ball = dCreateSphere(0, 0.1);
    dGeomSetPosition(ball, 0.31, -0.17, 0.099);
    int n = dCollide(ball, floor, 16, &c[0].geom, sizeof(dContact));
    ck_assert_int_ge(n, 1);
    ck_assert_msg(c[0].geom.normal[2] > 0.999, "ODE's sphere normal z %g", c[0].geom.normal[2]);

    dGeomID cone = mk_ode_create_cone(0, 0.2, 0.4);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, 0.3);
    dGeomSetRotation(cone, R);
    dGeomSetPosition(cone, 0.23, 0.41, 0.2 - 0.001);
    for (int order = 0; order < 2; ++order) {
        n = order ? dCollide(floor, cone, 16, &c[0].geom, sizeof(dContact))
                  : dCollide(cone, floor, 16, &c[0].geom, sizeof(dContact));
        ck_assert_msg(n >= 3, "cone on floor: %d contacts", n);
        for (int k = 0; k < n; ++k) {
            const dContactGeom *g = &c[k].geom;
            const double sz = order ? -1 : 1;
            ck_assert_msg(fabs(g->normal[0]) < 1e-12 && fabs(g->normal[1]) < 1e-12 && fabs(g->normal[2] - sz) < 1e-12,
                          "order %d contact %d normal %g %g %g", order, k, g->normal[0], g->normal[1], g->normal[2]);
            ck_assert_msg(fabs(g->depth - 0.001) < 1e-12, "depth %.17g", g->depth);
            ck_assert(fabs(g->pos[2] + 0.0005) < 1e-12);
            /* on the base's rim */
            const double rx = g->pos[0] - 0.23, ry = g->pos[1] - 0.41;
            ck_assert_msg(fabs(sqrt(rx * rx + ry * ry) - 0.2) < 1e-9, "off the rim by %g", sqrt(rx * rx + ry * ry) - 0.2);
            ck_assert_ptr_eq(g->g1, order ? floor : cone);
            ck_assert_ptr_eq(g->g2, order ? cone : floor);
            const int side = order ? g->side1 : g->side2;
            ck_assert(side >= 0 && side < tris);
            ck_assert_int_eq(order ? g->side2 : g->side1, -1);
        }
    }
    ck_assert_int_eq(dCollide(cone, floor, 1, &c[0].geom, sizeof(dContact)), 1);
    ck_assert_int_eq(dCollide(cone, floor, 16 | CONTACTS_UNIMPORTANT, &c[0].geom, sizeof(dContact)), 1);
    dGeomSetPosition(cone, 0.23, 0.41, 0.2 + 1e-6);
    ck_assert_int_eq(dCollide(cone, floor, 16, &c[0].geom, sizeof(dContact)), 0);

    /* a tilted ellipsoid: one contact at its lowest point, the exact depth */
    dGeomID ell = mk_ode_create_ellipsoid(0, 0.3, 0.2, 0.1);
    dRFromAxisAndAngle(R, 1, 1, 0, 0.7);
    dGeomSetRotation(ell, R);
    /* lowest point along -z: the support of the ellipsoid, |diag(r) R^T z| */
    double h2 = 0;
    const double radii[3] = {0.3, 0.2, 0.1};
    for (int k = 0; k < 3; ++k)
        h2 += radii[k] * radii[k] * R[4 * 2 + k] * R[4 * 2 + k];
    dGeomSetPosition(ell, -1.3, 0.7, sqrt(h2) - 0.003);
    n = dCollide(ell, floor, 16, &c[0].geom, sizeof(dContact));
    ck_assert_int_eq(n, 1);
    ck_assert_msg(fabs(c[0].geom.depth - 0.003) < 1e-12 && c[0].geom.normal[2] > 1 - 1e-12, "depth %.17g",
                  c[0].geom.depth);
    /* under the floor (its back): nothing */
    dGeomSetPosition(ell, -1.3, 0.7, -sqrt(h2) + 0.003);
    ck_assert_int_eq(dCollide(ell, floor, 16, &c[0].geom, sizeof(dContact)), 0);

    /* a hull cube yawed on the floor, 2 mm deep: its four bottom corners */
    dGeomID hull = mk_ode_create_hull(0, kCube, 8);
    dRFromAxisAndAngle(R, 0, 0, 1, 0.45);
    dGeomSetRotation(hull, R);
    dGeomSetPosition(hull, 1.1, -0.6, 0.1 - 0.002);
    n = dCollide(hull, floor, 16, &c[0].geom, sizeof(dContact));
    ck_assert_int_eq(n, 4);
    for (int k = 0; k < n; ++k) {
        ck_assert(fabs(c[k].geom.depth - 0.002) < 1e-12 && c[k].geom.normal[2] > 1 - 1e-12);
        const double rx = c[k].geom.pos[0] - 1.1, ry = c[k].geom.pos[1] + 0.6;
        ck_assert_msg(fabs(sqrt(rx * rx + ry * ry) - 0.1 * sqrt(2.0)) < 1e-9, "not a corner");
    }
    mk_ode_stats st = mk_ode_get_stats();
    ck_assert(st.calls_by_class[dTriMeshClass] > 0 && st.failures == 0);
    dGeomDestroy(hull);
    dGeomDestroy(ell);
    dGeomDestroy(cone);
    dGeomDestroy(ball);
    dGeomDestroy(floor);
    mk_ode_forget_trimesh_data(data);
    dGeomTriMeshDataDestroy(data);
    teardown();
}
END_TEST

static void set_pose(dGeomID g, const mk_transform *xf)
{
    dMatrix3 R;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            R[4 * r + c] = xf->R.m[r][c];
        R[4 * r + 3] = 0;
    }
    dGeomSetRotation(g, R);
    dGeomSetPosition(g, xf->p.x, xf->p.y, xf->p.z);
}

/* MK_ODE_TRIMESH: a dBox, dCapsule, dCylinder and registered dConvex (a
 * cube) at random tilts 0.5-5 mm into a tessellated floor get the floor's
 * normal on every contact and the exact depth at the deepest (the lowest
 * point of the shape, from the oracle's supports); ODE's own colliders on
 * the same poses are counted and printed, not asserted (a later ODE may
 * fix them). An unregistered dConvex keeps ODE's collider; dSphere keeps
 * it always; without the bit, with keep_native (the dConvex only) and after
 * uninstall the stock colliders answer, contact for contact. */
START_TEST(stock_kinds_on_a_trimesh)
{
    setup();
    dTriMeshDataID data;
    dGeomID floor = make_floor(0, &data, 8, 0);
    dGeomTriMeshDataPreprocess2(data, 1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL); /* ODE's convex wants it */
    mk_ode_install(NULL);
    dGeomID geoms[4] = {dCreateBox(0, 0.3, 0.2, 0.16), dCreateCapsule(0, 0.08, 0.25), dCreateCylinder(0, 0.12, 0.2),
                        mk_ode_create_convex(0, kCube, 8)};
    mk_shape shapes[4];
    mk_shape_box(&shapes[0], (mk_vec3){0.15, 0.1, 0.08}, 0);
    mk_shape_capsule(&shapes[1], 0.08, 0.125);
    mk_shape_cylinder(&shapes[2], 0.12, 0.1, 0);
    mk_shape_box(&shapes[3], (mk_vec3){0.1, 0.1, 0.1}, 0);
    const char *names[4] = {"dBox", "dCapsule", "dCylinder", "dConvex"};
    /* the stock answers, recorded before install's effect is checked: uninstall, collide, install again */
    static dContact stock[4][40][16];
    static int stock_n[4][40];
    mk_transform poses[4][40];
    double deltas[4][40];
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 40; ++i) {
            dMatrix3 R;
            random_rotation(R);
            mk_transform xf;
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c)
                    xf.R.m[r][c] = R[4 * r + c];
            xf.p = (mk_vec3){(rnd() - 0.5) * 6, (rnd() - 0.5) * 6, 0};
            const double low = -or_support_value(&shapes[k], &xf, (mk_vec3){0, 0, -1});
            deltas[k][i] = 5e-4 + 4.5e-3 * rnd();
            xf.p.z = -low - deltas[k][i];
            poses[k][i] = xf;
        }
    mk_ode_uninstall();
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 40; ++i) {
            set_pose(geoms[k], &poses[k][i]);
            stock_n[k][i] = dCollide(geoms[k], floor, 16, &stock[k][i][0].geom, sizeof(dContact));
        }
    for (int mode = 0; mode < 4; ++mode) { /* defaults; without the bit; keep_native; uninstalled */
        mk_ode_options opt = mk_ode_default_options();
        if (mode == 1)
            opt.pairs = MK_ODE_ALL & ~MK_ODE_TRIMESH;
        if (mode == 2)
            opt.keep_native = 1;
        if (mode < 3)
            mk_ode_install(&opt);
        else
            mk_ode_uninstall();
        for (int k = 0; k < 4; ++k) {
            const int ours = mode == 0 || (mode == 2 && k == 3);
            int stock_tilted = 0, stock_missed = 0;
            for (int i = 0; i < 40; ++i) {
                set_pose(geoms[k], &poses[k][i]);
                dContact c[16];
                const int n = dCollide(geoms[k], floor, 16, &c[0].geom, sizeof(dContact));
                if (!ours) {
                    ck_assert_msg(n == stock_n[k][i] && same_contact_fields(c, stock[k][i], n), "mode %d %s #%d: not ODE's",
                                  mode, names[k], i);
                    continue;
                }
                ck_assert_msg(n >= 1, "%s #%d: no contact %.2g deep", names[k], i, deltas[k][i]);
                double deepest = 0;
                for (int j = 0; j < n; ++j) {
                    ck_assert_msg(fabs(c[j].geom.normal[2] - 1) < 1e-12, "%s #%d: normal z %.17g", names[k], i,
                                  c[j].geom.normal[2]);
                    ck_assert(c[j].geom.g1 == geoms[k] && c[j].geom.g2 == floor && c[j].geom.side2 >= 0);
                    deepest = fmax(deepest, c[j].geom.depth);
                }
                ck_assert_msg(fabs(deepest - deltas[k][i]) < 1e-9, "%s #%d: depth %.17g, exact %.17g", names[k], i,
                              deepest, deltas[k][i]);
                for (int j = 0; j < stock_n[k][i]; ++j)
                    stock_tilted += stock[k][i][j].geom.normal[2] < cos(0.01);
                stock_missed += stock_n[k][i] == 0;
            }
            if (mode == 0)
                fprintf(stderr, "%s on a tessellated floor, 40 poses: stock ODE %d contacts tilted over 0.01 rad, %d "
                                "poses without contact; minkowski none\n",
                        names[k], stock_tilted, stock_missed);
        }
    }
    /* a sphere stays ODE's; an unregistered dConvex too */
    mk_ode_install(NULL);
    mk_ode_reset_stats();
    dGeomID ball = dCreateSphere(0, 0.1);
    dGeomSetPosition(ball, 0.3, 0.1, 0.099);
    dContact c[16];
    ck_assert_int_ge(dCollide(ball, floor, 16, &c[0].geom, sizeof(dContact)), 1);
    ck_assert(mk_ode_get_stats().calls == 0);
    dGeomID plain = dCreateConvex(0, kCubePlanes, 6, kCube, 8, kCubePolys);
    dGeomSetPosition(plain, 0.3, 0.1, 0.099);
    dCollide(plain, floor, 16, &c[0].geom, sizeof(dContact));
    ck_assert(mk_ode_get_stats().stock_fallbacks == 1 && mk_ode_get_stats().calls == 0);
    dGeomDestroy(plain);
    dGeomDestroy(ball);
    mk_ode_forget_convex(geoms[3]);
    for (int k = 0; k < 4; ++k)
        dGeomDestroy(geoms[k]);
    dGeomDestroy(floor);
    mk_ode_forget_trimesh_data(data);
    dGeomTriMeshDataDestroy(data);
    teardown();
}
END_TEST

/* ------------------------------------------------------------ trimesh callbacks */

/* What a trimesh's callbacks saw: every call in order (an array call as
 * -1 - its count, then its triangles; a per-triangle call as the index),
 * the geoms passed, and which triangles the per-triangle callback rejects. */
static struct {
    int log[4096], n;
    dGeomID mesh, other;
    int bad_args;
    int reject_mode; /* 0 accept all, 1 reject odd indices, 2 reject all */
} g_cb;

static void cb_log(int x)
{
    if (g_cb.n < 4096)
        g_cb.log[g_cb.n] = x;
    ++g_cb.n;
}

static void cb_array(dGeomID mesh, dGeomID other, const int *tris, int count)
{
    g_cb.bad_args += mesh != g_cb.mesh || other != g_cb.other || count < 1;
    cb_log(-1 - count);
    for (int i = 0; i < count; ++i)
        cb_log(tris[i]);
}

static int cb_triangle(dGeomID mesh, dGeomID other, int tri)
{
    g_cb.bad_args += mesh != g_cb.mesh || other != g_cb.other;
    cb_log(tri);
    return g_cb.reject_mode == 0 || (g_cb.reject_mode == 1 && tri % 2 == 0);
}

/* The floor's triangles whose boxes meet the geom's (dGeomGetAABB) by brute
 * force: in[t] = 1 (by more than 1e-9), 0 (apart by more), 2 (touching,
 * either way); returns how many are 1. */
static int floor_reach(dGeomID g, int tris, unsigned char *in)
{
    dReal box[6];
    dGeomGetAABB(g, box);
    int must = 0;
    for (int t = 0; t < tris; ++t) {
        double gap = -INFINITY;
        for (int a = 0; a < 3; ++a) {
            double lo = INFINITY, hi = -INFINITY;
            for (int q = 0; q < 3; ++q) {
                const double x = g_floor_v[3 * g_floor_i[3 * t + q] + a];
                lo = fmin(lo, x), hi = fmax(hi, x);
            }
            gap = fmax(gap, fmax(lo - box[2 * a + 1], box[2 * a] - hi));
        }
        in[t] = gap < -1e-9 ? 1 : gap > 1e-9 ? 0 : 2;
        must += in[t] == 1;
    }
    return must;
}

/* The log of one query: an array call first listing each triangle in reach
 * once (every one of the `must` that are surely in reach, none out of it),
 * then one per-triangle call for each, in the same order. Returns how many
 * were listed. */
static int check_callback_log(int tris, const unsigned char *in, int must)
{
    ck_assert_msg(g_cb.bad_args == 0 && g_cb.n >= 1 && g_cb.n <= 4096 && g_cb.log[0] < 0,
                  "the array callback did not come first (%d calls)", g_cb.n);
    const int listed = -1 - g_cb.log[0];
    ck_assert_msg(g_cb.n == 1 + 2 * listed, "%d calls for %d triangles", g_cb.n, listed);
    int seen = 0;
    for (int q = 0; q < listed; ++q) {
        const int t = g_cb.log[1 + q];
        ck_assert_msg(t >= 0 && t < tris && in[t] != 0, "triangle %d out of reach", t);
        ck_assert_msg(g_cb.log[1 + listed + q] == t, "per-triangle calls out of order");
        seen += in[t] == 1;
        for (int q2 = 0; q2 < q; ++q2)
            ck_assert_msg(g_cb.log[1 + q2] != t, "triangle %d listed twice", t);
    }
    ck_assert_msg(seen == must, "%d of the %d triangles in reach listed", seen, must);
    return listed;
}

/* A trimesh's dTriArrayCallback and dTriCallback, for a geom minkowski
 * takes over (a dBox under MK_ODE_TRIMESH, a hull of the new class), in
 * both argument orders, at random tilts 2 mm into a tessellated floor:
 * the array callback comes first, once, with the geoms (trimesh, geom) and
 * exactly the triangles whose boxes meet the geom's box (brute force over
 * the floor's triangles and dGeomGetAABB; within 1e-9 of touching either
 * way), then the per-triangle callback once for each of them, in the same
 * order. Accepting every triangle changes no contact; rejecting the odd
 * ones leaves only contacts of even triangles (side = the triangle),
 * rejecting all leaves none. ODE's own dBox collider (after uninstall) is
 * offered no triangle the adapter does not offer (its box query is an
 * oriented one, so it may offer fewer). */
START_TEST(trimesh_callbacks)
{
    setup();
    dTriMeshDataID data;
    dGeomID floor = make_floor(0, &data, 8, 0);
    const int tris = dGeomTriMeshGetTriangleCount(floor);
    mk_ode_install(NULL);
    dGeomID geoms[2] = {dCreateBox(0, 0.5, 0.35, 0.2), mk_ode_create_hull(0, kCube, 8)};
    dContact plain[16], c[16];
    int stock_extra = 0, offered_total = 0, stock_total = 0;
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 40; ++i) {
            dGeomID g = geoms[k];
            dMatrix3 R;
            random_rotation(R);
            dGeomSetRotation(g, R);
            dGeomSetPosition(g, (rnd() - 0.5) * 6, (rnd() - 0.5) * 6, 0);
            dReal box[6];
            dGeomGetAABB(g, box);
            const dReal *p = dGeomGetPosition(g);
            dGeomSetPosition(g, p[0], p[1], p[2] - box[4] - 0.002);
            static unsigned char in[2 * FLOOR_G * FLOOR_G];
            const int must = floor_reach(g, tris, in);
            const int order = i % 2;
            dGeomTriMeshSetCallback(floor, NULL);
            dGeomTriMeshSetArrayCallback(floor, NULL);
            const int np = order ? dCollide(floor, g, 16, &plain[0].geom, sizeof(dContact))
                                 : dCollide(g, floor, 16, &plain[0].geom, sizeof(dContact));
            ck_assert_msg(np >= 1, "geom %d #%d: no contact", k, i);
            dGeomTriMeshSetCallback(floor, cb_triangle);
            dGeomTriMeshSetArrayCallback(floor, cb_array);
            g_cb.mesh = floor, g_cb.other = g;
            for (int mode = 0; mode < 3; ++mode) {
                g_cb.n = 0, g_cb.bad_args = 0, g_cb.reject_mode = mode;
                const int n = order ? dCollide(floor, g, 16, &c[0].geom, sizeof(dContact))
                                    : dCollide(g, floor, 16, &c[0].geom, sizeof(dContact));
                ck_assert_msg(g_cb.bad_args == 0 && g_cb.n >= 1 && g_cb.n <= 4096 && g_cb.log[0] < 0,
                              "geom %d #%d mode %d: the array callback did not come first", k, i, mode);
                const int listed = check_callback_log(tris, in, must);
                if (mode == 0) {
                    ck_assert_int_eq(n, np);
                    for (int q = 0; q < n; ++q)
                        ck_assert(memcmp(c[q].geom.pos, plain[q].geom.pos, 3 * sizeof(dReal)) == 0 &&
                                  memcmp(c[q].geom.normal, plain[q].geom.normal, 3 * sizeof(dReal)) == 0 &&
                                  c[q].geom.depth == plain[q].geom.depth && c[q].geom.side1 == plain[q].geom.side1 &&
                                  c[q].geom.side2 == plain[q].geom.side2);
                    offered_total += listed;
                } else if (mode == 1) {
                    for (int q = 0; q < n; ++q) {
                        const int side = order ? c[q].geom.side1 : c[q].geom.side2;
                        ck_assert_msg(side >= 0 && side % 2 == 0, "geom %d #%d: contact on rejected triangle %d", k, i,
                                      side);
                    }
                } else {
                    ck_assert_msg(n == 0, "geom %d #%d: %d contacts with every triangle rejected", k, i, n);
                }
            }
            if (k == 0) { /* ODE's own box collider offers no triangle we do not */
                mk_ode_uninstall();
                g_cb.n = 0, g_cb.reject_mode = 0;
                int ours[4096];
                /* our list, again */
                mk_ode_install(NULL);
                (void)dCollide(g, floor, 16, &c[0].geom, sizeof(dContact));
                const int listed = -1 - g_cb.log[0];
                memcpy(ours, g_cb.log + 1, sizeof(int) * (size_t)listed);
                mk_ode_uninstall();
                g_cb.n = 0;
                (void)dCollide(g, floor, 16, &c[0].geom, sizeof(dContact));
                const int stock = g_cb.n > 0 && g_cb.log[0] < 0 ? -1 - g_cb.log[0] : 0;
                stock_total += stock;
                for (int q = 0; q < stock && 1 + q < 4096; ++q) {
                    int found = 0;
                    for (int q2 = 0; q2 < listed; ++q2)
                        found |= ours[q2] == g_cb.log[1 + q];
                    stock_extra += !found;
                }
                mk_ode_install(NULL);
            }
        }
    /* a slab over most of the floor: more triangles than the adapter lists on its stack */
    dGeomID slab = dCreateBox(0, 7, 7, 0.2);
    dGeomSetPosition(slab, 0.1, -0.2, 0.1 - 0.002);
    static unsigned char in[2 * FLOOR_G * FLOOR_G];
    const int must = floor_reach(slab, tris, in);
    g_cb.other = slab, g_cb.n = 0, g_cb.bad_args = 0, g_cb.reject_mode = 0;
    ck_assert_int_ge(dCollide(slab, floor, 16, &c[0].geom, sizeof(dContact)), 4);
    const int listed = check_callback_log(tris, in, must);
    ck_assert_msg(listed > 256, "the slab reaches %d triangles", listed);
    dGeomDestroy(slab);
    printf("trimesh callbacks: %d triangles offered over 80 queries; ODE's dBox collider offered %d over 40, %d "
           "that minkowski did not\n",
           offered_total, stock_total, stock_extra);
    ck_assert_int_eq(stock_extra, 0);
    ck_assert(mk_ode_get_stats().failures == 0);
    dGeomDestroy(geoms[0]);
    dGeomDestroy(geoms[1]);
    dGeomDestroy(floor);
    mk_ode_forget_trimesh_data(data);
    dGeomTriMeshDataDestroy(data);
    teardown();
}
END_TEST

/* A heightfield of nw x nd samples (random heights in [0, 0.3], or 0)
 * next to a dTriMesh made by the test from the same samples, cut the same
 * way (ODE's cells: the diagonal from (i + 1, j) to (i, j + 1)), in the
 * heightfield's frame (Y up, sample (i, j) at (i w - W/2, h, j d - D/2)). */
#define HF_W 9
#define HF_D 7
static double g_hf_heights[HF_W * HF_D];
static double g_hf_mesh_v[HF_W * HF_D * 3];
static dTriIndex g_hf_mesh_i[(HF_W - 1) * (HF_D - 1) * 6];

static void make_heightfield_twin(double width, double depth, int flat, dHeightfieldDataID *hd, dTriMeshDataID *md,
                                  int wrap)
{
    for (int k = 0; k < HF_W * HF_D; ++k)
        g_hf_heights[k] = flat ? 0 : 0.3 * rnd();
    if (wrap) /* a tiling terrain repeats its first row and column */
        for (int i = 0; i < HF_W; ++i)
            for (int j = 0; j < HF_D; ++j)
                if (i == HF_W - 1 || j == HF_D - 1)
                    g_hf_heights[i + j * HF_W] = g_hf_heights[(i % (HF_W - 1)) + (j % (HF_D - 1)) * HF_W];
    *hd = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildDouble(*hd, g_hf_heights, 0, width, depth, HF_W, HF_D, 1.0, 0.0, 0.1, wrap);
    const double sw = width / (HF_W - 1), sd = depth / (HF_D - 1);
    for (int i = 0; i < HF_W; ++i)
        for (int j = 0; j < HF_D; ++j) {
            double *v = &g_hf_mesh_v[3 * (i * HF_D + j)];
            v[0] = i * sw - width / 2, v[1] = g_hf_heights[i + j * HF_W], v[2] = j * sd - depth / 2;
        }
    int t = 0;
    for (int i = 0; i + 1 < HF_W; ++i)
        for (int j = 0; j + 1 < HF_D; ++j) {
            const dTriIndex a = (dTriIndex)(i * HF_D + j), b = a + HF_D, c = a + 1, e = b + 1;
            const dTriIndex tri[6] = {a, c, b, e, b, c};
            memcpy(&g_hf_mesh_i[6 * t++], tri, sizeof tri);
        }
    *md = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(*md, g_hf_mesh_v, 3 * sizeof(double), HF_W * HF_D, g_hf_mesh_i,
                                6 * (HF_W - 1) * (HF_D - 1), 3 * sizeof(dTriIndex));
}

/* Same contacts, as sets: every contact of one has one of the other at the
 * same place and with the same normal (the sum of the six coordinates'
 * differences under 1e-3) and depth (1e-7). The two meshes' corners differ
 * by rounding (the trimesh's go through its pose and back), and an edge met
 * by EPA on a curved shape has its witness point and normal only to EPA's
 * tolerance (2.6e-5 and 1.1e-4 apart seen, a cone on a ridge; merged
 * duplicates averaged, mesh.c). A misread sample or grid moves contacts by
 * centimetres. */
static int same_contact_sets(const dContact *x, int nx, const dContact *y, int ny)
{
    if (nx != ny)
        return 0;
    for (int i = 0; i < nx; ++i) {
        int found = 0;
        for (int j = 0; j < ny && !found; ++j) {
            double d = 0;
            for (int k = 0; k < 3; ++k)
                d += fabs(x[i].geom.pos[k] - y[j].geom.pos[k]) + fabs(x[i].geom.normal[k] - y[j].geom.normal[k]);
            found = d < 1e-3 && fabs(x[i].geom.depth - y[j].geom.depth) < 1e-7;
        }
        if (!found)
            return 0;
    }
    return 1;
}

/* The new classes against a dHeightfield get the contacts they get against
 * a dTriMesh the test builds from the same samples: placeable at a random
 * pose (the twin at the same pose), not placeable (at the identity), and
 * wrapping (shapes beyond the first tile meet the samples again). The
 * adapter reads the heightfield from ODE's own structures, so this is the
 * check that it reads them right. Fields: normal from g2 into g1 (flipped
 * with the heightfield first), side -1. */
START_TEST(heightfield_contacts)
{
    setup();
    mk_ode_install(NULL);
    dGeomID geoms[3] = {mk_ode_create_cone(0, 0.3, 0.5), mk_ode_create_ellipsoid(0, 0.4, 0.25, 0.2),
                        mk_ode_create_hull(0, kCube, 8)};
    int compared = 0, touching = 0;
    for (int mode = 0; mode < 3; ++mode) { /* placeable, not placeable, wrapping */
        dHeightfieldDataID hd;
        dTriMeshDataID md;
        const double width = 4, depth = 3;
        make_heightfield_twin(width, depth, 0, &hd, &md, mode == 2);
        dGeomID hf = dCreateHeightfield(0, hd, mode != 1);
        dGeomID mesh = dCreateTriMesh(0, md, NULL, NULL, NULL);
        dMatrix3 R;
        if (mode != 1) {
            random_rotation(R);
            const dReal p[3] = {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5};
            dGeomSetRotation(hf, R), dGeomSetPosition(hf, p[0], p[1], p[2]);
            dGeomSetRotation(mesh, R), dGeomSetPosition(mesh, p[0], p[1], p[2]);
        }
        const dReal *hp = mode != 1 ? dGeomGetPosition(hf) : NULL, *hR = mode != 1 ? dGeomGetRotation(hf) : NULL;
        for (int trial = 0; trial < 300; ++trial) {
            dGeomID g = geoms[trial % 3];
            /* a point over the terrain (beyond the first tile when wrapping), in the heightfield's frame */
            const double span = mode == 2 ? 3 : 1;
            double local[3] = {(rnd() - 0.5) * width * span, 0.15 + 0.4 * rnd(), (rnd() - 0.5) * depth * span};
            random_rotation(R);
            double world[3];
            for (int r = 0; r < 3; ++r)
                world[r] = hp ? hp[r] + hR[4 * r] * local[0] + hR[4 * r + 1] * local[1] + hR[4 * r + 2] * local[2]
                              : local[r];
            dGeomSetRotation(g, R);
            dGeomSetPosition(g, world[0], world[1], world[2]);
            dContact a[64], b[64];
            const int na = dCollide(g, hf, 64, &a[0].geom, sizeof(dContact));
            int nb = 0;
            if (mode == 2) {
                /* the twin is one tile: move the shape back into it (the same samples repeat) */
                double back[3] = {local[0], local[1], local[2]};
                const double tw = width * (HF_W - 1) / (HF_W - 1), td = depth;
                back[0] -= tw * floor((back[0] + width / 2) / tw);
                back[2] -= td * floor((back[2] + depth / 2) / td);
                /* near a tile's seam the twin would need its neighbour tile: skip those */
                if (back[0] < -width / 2 + 0.8 || back[0] > width / 2 - 0.8 || back[2] < -depth / 2 + 0.8 ||
                    back[2] > depth / 2 - 0.8)
                    continue;
                for (int r = 0; r < 3; ++r)
                    world[r] = hp[r] + hR[4 * r] * back[0] + hR[4 * r + 1] * back[1] + hR[4 * r + 2] * back[2];
                dGeomSetPosition(g, world[0], world[1], world[2]);
                nb = dCollide(g, mesh, 64, &b[0].geom, sizeof(dContact));
                /* and the heightfield's contacts moved back by the same tile offset */
                const double sh[3] = {local[0] - back[0], 0, local[2] - back[2]};
                for (int k = 0; k < na; ++k)
                    for (int r = 0; r < 3; ++r)
                        a[k].geom.pos[r] -= hR[4 * r] * sh[0] + hR[4 * r + 2] * sh[2];
            } else {
                nb = dCollide(g, mesh, 64, &b[0].geom, sizeof(dContact));
            }
            ck_assert_msg(same_contact_sets(a, na, b, nb), "mode %d trial %d: %d heightfield contacts, %d trimesh", mode,
                          trial, na, nb);
            for (int k = 0; k < na; ++k)
                ck_assert(a[k].geom.g1 == g && a[k].geom.g2 == hf && a[k].geom.side1 == -1 && a[k].geom.side2 == -1);
            ++compared;
            touching += na > 0;
            if (na > 0) { /* the other order flips the normals */
                dContact c[64];
                const int nc = dCollide(hf, g, 64, &c[0].geom, sizeof(dContact));
                ck_assert_int_eq(nc, na);
                ck_assert(c[0].geom.g1 == hf && c[0].geom.g2 == g);
            }
        }
        dGeomDestroy(hf);
        dGeomDestroy(mesh);
        mk_ode_forget_trimesh_data(md);
        dGeomTriMeshDataDestroy(md);
        dGeomHeightfieldDataDestroy(hd);
    }
    fprintf(stderr, "heightfield against its trimesh twin: %d poses compared, %d touching\n", compared, touching);
    ck_assert_int_gt(touching, compared / 4);
    ck_assert_int_eq((int)mk_ode_get_stats().failures, 0);
    for (int k = 0; k < 3; ++k)
        dGeomDestroy(geoms[k]);
    teardown();
}
END_TEST

/* A geom resting on a heightfield meets the same patch of cells call after
 * call, and the adapter keeps it (the samples are read every call and the
 * patch rebuilt only when they change). What the test checks is that a
 * change always shows: samples changed in place under a heightfield that
 * references them, and a callback heightfield whose heights move between
 * calls, give the depth of the new surface, exactly; two geoms on one
 * heightfield keep their own patches. */
static double g_hf_level;
static dReal hf_level_callback(void *data, int x, int z)
{
    (void)data, (void)x, (void)z;
    return g_hf_level;
}

START_TEST(heightfield_patch_follows_its_samples)
{
    setup();
    mk_ode_install(NULL);
    for (int k = 0; k < HF_W * HF_D; ++k)
        g_hf_heights[k] = 0;
    dHeightfieldDataID hd = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildDouble(hd, g_hf_heights, 0, 4, 3, HF_W, HF_D, 1.0, 0.0, 0.1, 0); /* referenced */
    dHeightfieldDataID cd = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildCallback(cd, NULL, hf_level_callback, 4, 3, HF_W, HF_D, 1.0, 0.0, 0.1, 0);
    dGeomHeightfieldDataSetBounds(cd, -1, 1);
    dGeomID fields[2] = {dCreateHeightfield(0, hd, 0), dCreateHeightfield(0, cd, 0)};
    dGeomID cubes[2] = {mk_ode_create_hull(0, kCube, 8), mk_ode_create_hull(0, kCube, 8)};
    dGeomSetPosition(cubes[0], 0.3, 0.1 - 0.002, 0.2); /* Y up: 2 mm into the level 0 */
    dGeomSetPosition(cubes[1], -1.1, 0.1 - 0.002, -0.6);
    dContact c[16];
    for (int f = 0; f < 2; ++f) {
        g_hf_level = 0;
        for (int k = 0; k < HF_W * HF_D; ++k)
            g_hf_heights[k] = 0;
        const double levels[5] = {0, 0, 0.01, 0.01, -0.0015};
        for (int step = 0; step < 5; ++step) {
            for (int k = 0; k < HF_W * HF_D; ++k)
                g_hf_heights[k] = levels[step];
            g_hf_level = levels[step];
            for (int g = 0; g < 2; ++g) {
                const int n = dCollide(cubes[g], fields[f], 16, &c[0].geom, sizeof(dContact));
                ck_assert_msg(n == 4, "field %d step %d cube %d: %d contacts", f, step, g, n);
                for (int k = 0; k < n; ++k)
                    ck_assert_msg(fabs(c[k].geom.depth - (0.002 + levels[step])) < 1e-12 && c[k].geom.normal[1] > 1 - 1e-12,
                                  "field %d step %d cube %d: depth %.17g, the surface's %.17g", f, step, g,
                                  c[k].geom.depth, 0.002 + levels[step]);
            }
        }
    }
    ck_assert(mk_ode_get_stats().failures == 0);
    for (int k = 0; k < 2; ++k)
        dGeomDestroy(cubes[k]), dGeomDestroy(fields[k]);
    dGeomHeightfieldDataDestroy(hd);
    dGeomHeightfieldDataDestroy(cd);
    teardown();
}
END_TEST

/* A small simulation on a floor: a trimesh, or the plane z = 0. */
typedef struct floor_sim {
    dWorldID world;
    dSpaceID space;
    dJointGroupID joints;
    double mu;
    int contacts; /* in the last step */
} floor_sim;

static void floor_near(void *data, dGeomID a, dGeomID b)
{
    floor_sim *f = data;
    dContact c[16];
    const int n = dCollide(a, b, 16, &c[0].geom, sizeof(dContact));
    for (int k = 0; k < n; ++k) {
        c[k].surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
        c[k].surface.mu = f->mu;
        c[k].surface.soft_erp = 0.2;
        c[k].surface.soft_cfm = 1e-5;
        dJointAttach(dJointCreateContact(f->world, f->joints, &c[k]), dGeomGetBody(a), dGeomGetBody(b));
    }
    f->contacts += n;
}

static void floor_sim_init(floor_sim *f, double mu)
{
    f->world = dWorldCreate();
    dWorldSetGravity(f->world, 0, 0, -9.81);
    dWorldSetERP(f->world, 0.2);
    dWorldSetCFM(f->world, 1e-5);
    dWorldSetContactSurfaceLayer(f->world, 0.001);
    dWorldSetQuickStepNumIterations(f->world, 20);
    f->space = dHashSpaceCreate(0);
    f->joints = dJointGroupCreate(0);
    f->mu = mu;
}

static void floor_sim_step(floor_sim *f)
{
    f->contacts = 0;
    dSpaceCollide(f->space, f, floor_near);
    dWorldQuickStep(f->world, 1.0 / 240);
    dJointGroupEmpty(f->joints);
}

static void floor_sim_free(floor_sim *f)
{
    dJointGroupDestroy(f->joints);
    dSpaceDestroy(f->space);
    dWorldDestroy(f->world);
}

static dBodyID body_for(floor_sim *f, dGeomID g, double x, double y, double z, double yaw)
{
    dBodyID b = dBodyCreate(f->world);
    dMass m;
    dMassSetBoxTotal(&m, 1, 0.2, 0.2, 0.2);
    dBodySetMass(b, &m);
    dGeomSetBody(g, b);
    dBodySetPosition(b, x, y, z);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, yaw);
    dBodySetRotation(b, R);
    return b;
}

static double body_tilt_deg(dBodyID b) { return acos(fmin(1.0, fabs(dBodyGetRotation(b)[10]))) * 180 / PI; }

/* A floor of kind 0 (a jittered trimesh, make_floor), 1 (a flat
 * dHeightfield of 32 x 32 cells, turned so its Y axis is world Z) or 2 (the
 * plane z = 0); *tm / *hd: the data to destroy after the space. */
static double g_flat_heights[33 * 33];
static void add_floor(dSpaceID space, int kind, dTriMeshDataID *tm, dHeightfieldDataID *hd)
{
    *tm = NULL, *hd = NULL;
    if (kind == 0) {
        make_floor(space, tm, 8, 0);
    } else if (kind == 1) {
        *hd = dGeomHeightfieldDataCreate();
        dGeomHeightfieldDataBuildDouble(*hd, g_flat_heights, 0, 8, 8, 33, 33, 1.0, 0.0, 0.1, 0);
        dGeomID hf = dCreateHeightfield(space, *hd, 1);
        dMatrix3 R;
        dRFromAxisAndAngle(R, 1, 0, 0, PI / 2);
        dGeomSetRotation(hf, R);
    } else {
        dCreatePlane(space, 0, 0, 1, 0);
    }
}

static void drop_floor_data(dTriMeshDataID tm, dHeightfieldDataID hd)
{
    if (tm) {
        mk_ode_forget_trimesh_data(tm);
        dGeomTriMeshDataDestroy(tm);
    }
    if (hd)
        dGeomHeightfieldDataDestroy(hd);
}

/* The new classes dropped on a tessellated floor (loop 0: a jittered
 * trimesh; loop 1: a flat heightfield) settle as on the plane
 * (convex_and_cone_rest_flat's bounds: height within 1.5 mm, tilt under
 * 0.1 degree): a cone on its base, an ellipsoid on its shortest axis, a hull
 * cube yawed. Then the same cube slides at 1.5 m/s over the tessellation,
 * frictionless for 3 s, beside a twin on a dPlane: the edges inside the
 * floor must not kick it (its height stays within 0.2 mm of the twin's, its
 * tilt under 0.05 degree, its path within 1 mm of the twin's). */
START_TEST(new_classes_rest_and_slide_on_meshes)
{
    setup();
    mk_ode_install(NULL);
    const char *what = _i ? "heightfield" : "trimesh";
    floor_sim f;
    floor_sim_init(&f, 0.8);
    dTriMeshDataID tm;
    dHeightfieldDataID hd;
    add_floor(f.space, _i, &tm, &hd);
    dBodyID cone = body_for(&f, mk_ode_create_cone(f.space, 0.1, 0.3), -1, 0.5, 0.25, 0.2);
    dBodyID ell = body_for(&f, mk_ode_create_ellipsoid(f.space, 0.15, 0.12, 0.08), 0.6, -0.9, 0.18, 0.7);
    dBodyID cube = body_for(&f, mk_ode_create_hull(f.space, kCube, 8), 1.3, 1.1, 0.2, 0.35);
    for (int s = 0; s < 480; ++s)
        floor_sim_step(&f);
    const double zc = dBodyGetPosition(cone)[2], ze = dBodyGetPosition(ell)[2], zb = dBodyGetPosition(cube)[2];
    fprintf(stderr, "%s floor: cone z %.5f tilt %.4f deg, ellipsoid z %.5f tilt %.4f, cube z %.5f tilt %.4f\n", what,
            zc, body_tilt_deg(cone), ze, body_tilt_deg(ell), zb, body_tilt_deg(cube));
    ck_assert_msg(fabs(zc - 0.15) < 1.5e-3 && body_tilt_deg(cone) < 0.1, "cone at %g, %g deg", zc, body_tilt_deg(cone));
    ck_assert_msg(fabs(ze - 0.08) < 1.5e-3 && body_tilt_deg(ell) < 0.1, "ellipsoid at %g, %g deg", ze,
                  body_tilt_deg(ell));
    ck_assert_msg(fabs(zb - 0.1) < 1.5e-3 && body_tilt_deg(cube) < 0.1, "cube at %g, %g deg", zb, body_tilt_deg(cube));
    floor_sim_free(&f);
    drop_floor_data(tm, hd);

    /* sliding: the mesh run and the plane run */
    double path[2][3] = {{0}}, worst_dz = 0, worst_tilt = 0;
    static double heights[2][721];
    for (int run = 0; run < 2; ++run) {
        floor_sim_init(&f, 0);
        add_floor(f.space, run == 0 ? _i : 2, &tm, &hd);
        dBodyID b = body_for(&f, mk_ode_create_hull(f.space, kCube, 8), -3.5, -2.5, 0.0995, 0.35);
        for (int s = 0; s < 60; ++s) /* settle */
            floor_sim_step(&f);
        dBodySetLinearVel(b, 1.5, 1.0, 0);
        dBodySetAngularVel(b, 0, 0, 0);
        for (int s = 0; s <= 720; ++s) {
            floor_sim_step(&f);
            heights[run][s] = dBodyGetPosition(b)[2];
            if (run == 0)
                worst_tilt = fmax(worst_tilt, body_tilt_deg(b));
        }
        for (int k = 0; k < 3; ++k)
            path[run][k] = dBodyGetPosition(b)[k];
        floor_sim_free(&f);
        drop_floor_data(tm, hd);
    }
    for (int s = 0; s <= 720; ++s)
        worst_dz = fmax(worst_dz, fabs(heights[0][s] - heights[1][s]));
    const double dx = path[0][0] - path[1][0], dy = path[0][1] - path[1][1];
    fprintf(stderr, "sliding over the %s: ends %.4f %.4f (plane %.4f %.4f), height off the plane run by up to "
                    "%.2e, tilt up to %.4f deg\n",
            what, path[0][0], path[0][1], path[1][0], path[1][1], worst_dz, worst_tilt);
    ck_assert_msg(path[0][0] > 0.9, "the cube slid only to x = %g", path[0][0]);
    ck_assert_msg(sqrt(dx * dx + dy * dy) < 1e-3, "path %g off the plane's", sqrt(dx * dx + dy * dy));
    ck_assert_msg(worst_dz < 2e-4, "height %g off the plane's", worst_dz);
    ck_assert_msg(worst_tilt < 0.05, "tilt %g deg", worst_tilt);
    ck_assert_int_eq((int)mk_ode_get_stats().failures, 0);
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ode");
    TCase *api = tcase_create("adapter");
    tcase_add_test(api, every_pair_kind);
    tcase_add_test(api, stock_routing_table);
    tcase_add_test(api, uninstall_restores_stock);
    tcase_add_test(api, uninstall_keeps_older_classes);
    tcase_add_test(api, pairs_mask);
    tcase_add_test(api, flags_stride_and_boolean);
    tcase_add_test(api, hand_built_contacts);
    tcase_add_test(api, growth_model_patches);
    tcase_add_test(api, zero_sizes);
    tcase_add_test(api, convex_side_table);
    tcase_add_test(api, class_aabbs_exact);
    tcase_add_test(api, rays_hit_the_new_classes);
    tcase_add_test(api, rays_meet_registered_convexes);
    tcase_add_test(api, offset_and_transform_geoms);
    tcase_add_test(api, shutdown_and_reinit);
    tcase_add_test(api, trimesh_contacts);
    tcase_add_test(api, heightfield_contacts);
    tcase_add_test(api, heightfield_patch_follows_its_samples);
    tcase_add_test(api, stock_kinds_on_a_trimesh);
    tcase_add_test(api, trimesh_callbacks);
    suite_add_tcase(s, api);
    TCase *scenes = tcase_create("scenes");
    tcase_set_timeout(scenes, 600);
    tcase_add_loop_test(scenes, convex_and_cone_rest_flat, 0, 2); /* signed distance, growth distance */
    tcase_add_test(scenes, convex_stack_stands_10s);
    tcase_add_test(scenes, mesh_cube_rests_on_its_face);
    tcase_add_test(scenes, mesh_cube_stack_stands_10s);
    tcase_add_loop_test(scenes, mixed_bodies_in_a_bin, 0, 2); /* on the plane, on a triangle mesh */
    tcase_add_test(scenes, pair_times_add_up);
    tcase_add_test(scenes, same_answers_wherever_geoms_sit);
    tcase_add_test(scenes, small_fast_bodies_stay_on_a_mesh_ground);
    tcase_add_loop_test(scenes, new_classes_rest_and_slide_on_meshes, 0, 2); /* trimesh, heightfield */
    suite_add_tcase(s, scenes);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
