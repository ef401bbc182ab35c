/* Narrowphase composition: signed distance (GJK + EPA) then the manifold. */
#include <minkowski/collide.h>

#include "box_sat.h"
#include "epa_seed.h"
#include "manifold_internal.h"
#include "pair_check.h"
#include "support.h"
#include "vec.h"

#include <math.h>
#include <stdalign.h>
#include <string.h>

mk_collide_settings mk_collide_default_settings(void)
{
    mk_collide_settings s;
    s.gjk = mk_gjk_default_settings();
    s.gjk.init = MK_GJK_INIT_SIMPLEX;
    s.epa = mk_epa_default_settings();
    s.growth = mk_growth_default_settings();
    s.speculative = 0;
    return s;
}

/* Shortcut backoff (mk_collide_cache): after this many misses in a row it is
 * tried on every MK_COLLIDE_SHORTCUT_EVERY-th call only. */
#define MK_COLLIDE_SHORTCUT_PATIENCE 4
#define MK_COLLIDE_SHORTCUT_EVERY 4

/* Feature id of a point that is the signed-distance witness pair itself. */
#define MK_COLLIDE_WITNESS_ID 0x7FFFFFF0u

/* Depth tie of keep_deepest, relative to the smaller shape's half extent:
 * a little above the manifold's own reduction tie (MK_MF_TIE = 1e-4 in
 * manifold.c), so a point the reduction kept as deepest within its tie is
 * never replaced for a rounding-level difference. */
#define MK_COLLIDE_DEPTH_TIE 1.1e-4

/* The pipeline's points: a patch of some capacity (4 for a manifold). */
typedef mk_contact_patch_result contact_points;

static void empty(contact_points *out)
{
    out->count = 0;
    out->normal = v3(1, 0, 0);
}

/* The slots past the count zeroed. */
static void zero_tail(contact_points *out)
{
    const size_t unused = (size_t)(MK_MANIFOLD_MAX_PATCH_POINTS - out->count);
    memset(out->points + out->count, 0, sizeof out->points[0] * unused);
}

/* The manifold's points are features of the reference face; on some curved
 * pairs none of them reaches the true signed distance (measured on random
 * cylinder/cone vs hull pairs: up to 1.9 mm short of 6.3 mm). The engine must
 * see the true depth, so when the deepest point falls short, the exact witness
 * pair joins the points: by more than a micrometre-scale tolerance when there
 * is room, by more than the depth tie (MK_COLLIDE_DEPTH_TIE x the smaller
 * shape's size, the reduction's own) in place of the shallowest when full. */
static void keep_deepest(contact_points *m, int cap, mk_real tie, mk_vec3 pa, mk_vec3 pb, mk_real distance)
{
    if (m->count == 0)
        return;
    int shallow = 0;
    mk_real deepest = m->points[0].separation;
    for (int i = 1; i < m->count; ++i) {
        if (m->points[i].separation < deepest)
            deepest = m->points[i].separation;
        if (m->points[i].separation > m->points[shallow].separation)
            shallow = i;
    }
    /* Adding a point costs nothing; replacing one the reduction chose needs
     * more than a tie-level difference. */
    if (deepest <= distance + (m->count < cap ? 1e-6 * (1 + fabs(distance)) : tie))
        return;
    int slot = m->count < cap ? m->count++ : shallow;
    /* Its separation along the manifold's normal (manifold.h: separation =
     * <point_b - point_a, normal>): the pair lies along the signed-distance
     * normal, which may differ from the reference face's normal by up to the
     * face angle, and then the points differ tangentially, as on line
     * contacts. The depth then falls short of the signed distance by the
     * distance times (1 - cos) of that angle, second order (before, the
     * signed distance was taken as it is: 1.3e-3 off the pair's projection
     * at a depth of 250). */
    mk_manifold_point w;
    w.point_a = pa;
    w.point_b = pb;
    w.position = v3_scale(v3_add(pa, pb), 0.5);
    w.separation = v3_dot(v3_sub(pb, pa), m->normal);
    w.depth = -w.separation;
    w.id = MK_COLLIDE_WITNESS_ID;
    /* Into its place by id (manifold.h: increasing feature ids): the others
     * stay sorted around the slot it takes. */
    while (slot > 0 && m->points[slot - 1].id > w.id) {
        m->points[slot] = m->points[slot - 1];
        --slot;
    }
    while (slot + 1 < m->count && m->points[slot + 1].id < w.id) {
        m->points[slot] = m->points[slot + 1];
        ++slot;
    }
    m->points[slot] = w;
}

static mk_real depth_tie(const mk_pair *pair)
{
    mk_real ea = shape_half_size(pair->a), eb = shape_half_size(pair->b);
    return MK_COLLIDE_DEPTH_TIE * (ea < eb ? ea : eb);
}

/* Contact points on a normal and signed distance: the manifold (cap 4) or
 * the patch (cap 5 .. 8); out is emptied on an error status. */
static mk_status shape_points(const mk_pair *pair, mk_vec3 normal, mk_real distance, mk_real spec, int cap,
                              contact_points *out)
{
    /* Two boxes: the face clip in the reference box's coordinates (the same
     * points as the general path's, at a fraction of its cost). */
    if (pair->a->type == MK_SHAPE_BOX && pair->b->type == MK_SHAPE_BOX &&
        mk_manifold_box_box(pair, normal, distance, spec, cap, &out->normal, out->points, &out->count)) {
        zero_tail(out);
        return MK_OK;
    }
    mk_manifold_settings ms = mk_manifold_default_settings();
    ms.speculative_distance = spec;
    mk_status mst;
    if (cap > MK_MANIFOLD_MAX_POINTS) {
        mst = mk_contact_patch(pair, normal, distance, &ms, cap, out);
    } else {
        mk_manifold m;
        mst = mk_contact_manifold(pair, normal, distance, &ms, &m);
        out->count = m.count;
        out->normal = m.normal;
        memcpy(out->points, m.points, sizeof m.points);
    }
    if (mst != MK_OK)
        empty(out);
    return mst;
}

/* ... then the witness when no point reaches the depth. */
static mk_status make_points(const mk_pair *pair, mk_vec3 normal, mk_real distance, mk_vec3 pa, mk_vec3 pb,
                             mk_real spec, int cap, contact_points *out)
{
    const mk_status mst = shape_points(pair, normal, distance, spec, cap, out);
    if (mst != MK_OK)
        return mst;
    keep_deepest(out, cap, depth_tie(pair), pa, pb, distance);
    return MK_OK;
}

/* A proof that the pair stood apart beyond the speculative distance: along
 * the world direction n (A to B), B's nearest point lay margin > 0 beyond A's
 * farthest point grown by the speculative distance. */
typedef struct apart {
    int ok;
    mk_vec3 n;
    mk_real margin;
} apart;

/* Slack along the world unit direction n: B's lowest point along n minus A's
 * highest point grown by spec (local core supports plus the radii). */
static mk_real slack_along(const mk_pair *pair, mk_vec3 n, mk_real spec)
{
    mk_vec3 da = m3_tmul(&pair->xf_a.R, n), db = m3_tmul(&pair->xf_b.R, v3_neg(n));
    mk_real top_a = v3_dot(n, pair->xf_a.p) + v3_dot(da, mk_shape_support(pair->a, da, NULL)) + pair->a->radius;
    mk_real bot_b = v3_dot(n, pair->xf_b.p) - v3_dot(db, mk_shape_support(pair->b, db, NULL)) - pair->b->radius;
    return bot_b - top_a - spec;
}

/* ------------------------------------------------------------ resting-contact shortcut */

/* Tilt of the four support directions around the hinted normal (radians,
 * about 3 degrees): larger than the turn of a resting body in a step, smaller
 * than the angle between neighbouring faces of a box or bevelled hull. */
#define MK_COLLIDE_HINT_TILT 0.05

/* The Minkowski difference D = A - B in A's frame: w = a - b. */
typedef struct mink {
    const mk_shape *a, *b;
    mk_mat3 R;  /* B's rotation in A's frame */
    mk_vec3 p;  /* B's origin in A's frame */
    int hint_a, hint_b;
} mink;

/* The pair's D, B posed in A's frame, with the support hints to start from. */
static mink mink_of(const mk_pair *pair, int hint_a, int hint_b)
{
    mink k;
    k.a = pair->a;
    k.b = pair->b;
    k.R = m3_tmul_m3(&pair->xf_a.R, &pair->xf_b.R);
    k.p = m3_tmul(&pair->xf_a.R, v3_sub(pair->xf_b.p, pair->xf_a.p));
    k.hint_a = hint_a;
    k.hint_b = hint_b;
    return k;
}

/* A's support along d, or (of_b) B's along -d, in A's frame: the two halves
 * of D's support along d. */
static mk_vec3 ref_support(mink *k, int of_b, mk_vec3 d)
{
    return of_b ? v3_add(m3_mul(&k->R, mk_shape_support(k->b, m3_tmul(&k->R, v3_neg(d)), &k->hint_b)), k->p)
                : mk_shape_support(k->a, d, &k->hint_a);
}

static mk_vec3 mink_support(mink *k, mk_vec3 d, mk_vec3 *pa, mk_vec3 *pb)
{
    *pa = ref_support(k, 0, d);
    *pb = ref_support(k, 1, d);
    return v3_sub(*pa, *pb);
}

/* Smallest barycentric coordinate of the origin in the triangle (i, j, l) of
 * the plane points (x, y); -1 for a degenerate triangle. */
static mk_real origin_margin(const mk_real *x, const mk_real *y, int i, int j, int l)
{
    mk_real det = (x[j] - x[i]) * (y[l] - y[i]) - (x[l] - x[i]) * (y[j] - y[i]);
    if (!(fabs(det) > 0))
        return -1;
    mk_real bj = ((-x[i]) * (y[l] - y[i]) - (x[l] - x[i]) * (-y[i])) / det;
    mk_real bl = ((x[j] - x[i]) * (-y[i]) - (-x[i]) * (y[j] - y[i])) / det;
    return fmin(1 - bj - bl, fmin(bj, bl));
}

/* Whose face the shortcut looks for: A's, B's, or D's own. */
typedef enum ref_face { REF_A, REF_B, REF_D } ref_face;

/* What the shortcut did: answered, or not (the four tilted supports are one
 * point or one line: that shape shows a vertex or an edge along n). */
enum { SHORTCUT_NO = 0, SHORTCUT_DONE = 1, SHORTCUT_NO_FACE = 2 };

/* Signed distance of an overlapping pair from a hinted normal (A's frame,
 * unit), certified as EPA certifies its answer: the tetrahedron of support
 * points {v_i, v_j, v_l, apex} lies inside D, so when it holds the origin its
 * nearest face distance L is a lower bound on the core depth, and the
 * triangle normal m gives the upper bound h_D(m) (van den Bergen 2001,
 * "Proximity queries and penetration depth computation on 3D game objects",
 * the EPA bounds). Taken only when h_D(m) - L is within the EPA tolerance;
 * returns SHORTCUT_DONE then, else SHORTCUT_NO or SHORTCUT_NO_FACE (nothing
 * written).
 *
 * The triangle's corners: REF_A / REF_B, four supports of that shape tilted
 * around n (its face's vertices) less the other shape's support against the
 * face: D's face when the face rests on a smaller feature (a box on a larger
 * box, a vertex on a face). REF_D, four tilted supports of D itself: the
 * corners of D's face along n, for an edge crossing an edge (neither shape
 * shows a face; D's face is the parallelogram of the two edges). */
static int resting_shortcut(const mk_pair *pair, mk_vec3 n, ref_face ref, const mk_epa_settings *es, int hint_a,
                            int hint_b, mk_signed_distance_result *sd)
{
    mink k = mink_of(pair, hint_a, hint_b);
    const int ref_b = ref == REF_B;
    /* Four supports tilted around n: on a face whose normal is near n, these
     * are that face's vertices. */
    mk_vec3 t1, t2;
    v3_across(n, &t1, &t2);
    mk_vec3 v[4], a[4], b[4], fv[4];
    for (int i = 0; i < 4; ++i) {
        /* azimuths 0.4 + i pi / 2: (cos, sin) = (c, s), (-s, c), (-c, -s), (s, -c) */
        static const mk_real kc[4] = {0.9210609940028851, -0.3894183423086505, -0.9210609940028851,
                                      0.3894183423086505};
        static const mk_real ks[4] = {0.3894183423086505, 0.9210609940028851, -0.3894183423086505,
                                      -0.9210609940028851};
        mk_vec3 d = v3_add(n, v3_scale(v3_add(v3_scale(t1, kc[i]), v3_scale(t2, ks[i])), MK_COLLIDE_HINT_TILT));
        fv[i] = ref == REF_D ? mink_support(&k, d, &a[i], &b[i]) : ref_support(&k, ref_b, d);
    }
    /* The face's normal (largest of the four triangles), then for a shape's
     * face the other shape's support point against it: D's points v = a - b
     * on that face. */
    mk_vec3 fn = v3(0, 0, 0);
    for (int q = 0; q < 4; ++q) {
        mk_vec3 c = v3_cross(v3_sub(fv[(q + 1) & 3], fv[q]), v3_sub(fv[(q + 2) & 3], fv[q]));
        if (v3_len2(c) > v3_len2(fn))
            fn = c;
    }
    if (!(v3_len2(fn) > 0))
        return SHORTCUT_NO_FACE;
    fn = v3_normalize_or(v3_scale(fn, v3_dot(fn, n) >= 0 ? 1 : -1), n);
    mk_vec3 u1 = v3_normalize_or(v3_sub(t1, v3_scale(fn, v3_dot(t1, fn))), t1), u2 = v3_cross(fn, u1);
    const mk_vec3 other = ref != REF_D ? ref_support(&k, !ref_b, fn) : v3(0, 0, 0);
    mk_real x[4], y[4];
    for (int i = 0; i < 4; ++i) {
        if (ref != REF_D) {
            a[i] = ref_b ? other : fv[i];
            b[i] = ref_b ? fv[i] : other;
        }
        v[i] = v3_sub(a[i], b[i]);
        x[i] = v3_dot(v[i], u1);
        y[i] = v3_dot(v[i], u2);
    }
    n = fn;
    /* The triangle of three of them whose projection along the face normal
     * best surrounds the origin's (largest smallest barycentric coordinate). */
    static const int tri[4][3] = {{0, 1, 2}, {0, 2, 3}, {0, 1, 3}, {1, 2, 3}};
    int best = -1;
    mk_real best_min = 0;
    for (int q = 0; q < 4; ++q) {
        mk_real lo = origin_margin(x, y, tri[q][0], tri[q][1], tri[q][2]);
        if (lo > best_min) {
            best_min = lo;
            best = q;
        }
    }
    if (best < 0)
        return SHORTCUT_NO;
    const int i0 = tri[best][0], i1 = tri[best][1], i2 = tri[best][2];
    mk_vec3 m = v3_cross(v3_sub(v[i1], v[i0]), v3_sub(v[i2], v[i0]));
    mk_real ml = v3_len(m);
    if (!(ml > 0))
        return 0;
    m = v3_scale(m, (v3_dot(m, n) >= 0 ? 1 : -1) / ml);
    const mk_real face = v3_dot(m, v[i0]); /* origin's distance to the triangle's plane */
    /* Upper bound: the overlap along m. */
    mk_vec3 ua, ub;
    const mk_real upper = v3_dot(m, mink_support(&k, m, &ua, &ub));
    /* The apex opposite the triangle, then the tetrahedron's side faces. */
    mk_vec3 xa, xb;
    const mk_vec3 apex = mink_support(&k, v3_neg(m), &xa, &xb);
    if (!(face > 0) || !(v3_dot(m, apex) < 0)) {
        return 0;
    }
    mk_real lower = face;
    const int e[3][3] = {{i0, i1, i2}, {i1, i2, i0}, {i2, i0, i1}};
    for (int s = 0; s < 3; ++s) {
        mk_vec3 p0 = v[e[s][0]], p1 = v[e[s][1]], opp = v[e[s][2]];
        mk_vec3 sn = v3_cross(v3_sub(p1, p0), v3_sub(apex, p0));
        mk_real sl = v3_len(sn);
        if (!(sl > 0))
            return 0;
        sn = v3_scale(sn, 1 / sl);
        if (v3_dot(sn, v3_sub(opp, p0)) > 0) /* face outwards, away from the third vertex */
            sn = v3_neg(sn);
        lower = fmin(lower, v3_dot(sn, p0));
    }
    if (!(lower > 0) || !isfinite(upper))
        return 0;
    /* EPA's stopping test (epa.h): upper - lower within the tolerance. */
    const mk_real r = pair->a->radius + pair->b->radius;
    const mk_real lo_full = fmin(lower, upper) + r, up_full = upper + r;
    if (!(up_full - lo_full <= fmax(es->tolerance, es->relative_tolerance * up_full))) {
        return 0;
    }
    /* Witnesses: barycentric coordinates of the origin's projection f m on the
     * triangle (inside it, or the answer is not this face's). */
    mk_vec3 e1 = v3_sub(v[i1], v[i0]), e2 = v3_sub(v[i2], v[i0]), f = v3_sub(v3_scale(m, face), v[i0]);
    mk_real d11 = v3_dot(e1, e1), d12 = v3_dot(e1, e2), d22 = v3_dot(e2, e2);
    mk_real f1 = v3_dot(f, e1), f2 = v3_dot(f, e2), den = d11 * d22 - d12 * d12;
    if (!(den > 0))
        return 0;
    mk_real l1 = (d22 * f1 - d12 * f2) / den, l2 = (d11 * f2 - d12 * f1) / den, l0 = 1 - l1 - l2;
    if (!(l0 >= 0 && l1 >= 0 && l2 >= 0)) {
        return 0;
    }
    mk_vec3 core_a = v3_add(v3_add(v3_scale(a[i0], l0), v3_scale(a[i1], l1)), v3_scale(a[i2], l2));
    mk_vec3 nw = m3_mul(&pair->xf_a.R, m);
    sd->status = MK_PENETRATING;
    sd->distance = -up_full;
    sd->lower_bound = -up_full;
    sd->upper_bound = -lo_full;
    sd->normal = nw;
    sd->point_a = v3_madd(xf_apply(&pair->xf_a, core_a), pair->a->radius, nw);
    sd->point_b = v3_madd(sd->point_a, -up_full, nw);
    sd->gjk_iterations = 0;
    sd->epa_iterations = 0;
    sd->epa_flags = 0;
    return SHORTCUT_DONE;
}

/* Most vertices of a face the face-pair path takes; its EPA's iteration cap
 * and workspace (measured: 2.8 iterations on average on a yawed stack of
 * bevelled boxes). */
#define MK_COLLIDE_FACE_POLY 32
#define MK_COLLIDE_FACE_PAIR_ITER 32
#define MK_COLLIDE_FACE_PAIR_BYTES (16 * 1024)

/* EPA from the shortcut's seed points (mk_epa_from_points): a short
 * expansion or none, in a small workspace (its budget can only end the
 * shortcut, never bias its answer). */
static int seeded_epa(const mk_pair *pair, const mk_vec3 *a, const mk_vec3 *b, int count, const mk_epa_settings *es,
                      mk_signed_distance_result *sd)
{
    mk_epa_settings st = *es;
    if (st.max_iterations > MK_COLLIDE_FACE_PAIR_ITER)
        st.max_iterations = MK_COLLIDE_FACE_PAIR_ITER;
    alignas(16) unsigned char ws[MK_COLLIDE_FACE_PAIR_BYTES];
    return mk_epa_workspace_size(st.max_iterations) <= sizeof ws &&
           mk_epa_from_points(pair, a, b, count, &st, ws, sizeof ws, sd);
}

/* The extents across the normal (x, y) of a face's edges i -> i + 1 (the
 * coordinates run one past the last vertex, back to the first); returns the
 * largest |x| + |y| of the vertices, the scale of the face-pair test's slack. */
static mk_real edge_extents(const mk_real *x, const mk_real *y, int n, mk_real lo[2][MK_COLLIDE_FACE_POLY],
                            mk_real hi[2][MK_COLLIDE_FACE_POLY])
{
    mk_real big = 0;
    for (int i = 0; i < n; ++i) {
        const int ux = x[i] < x[i + 1], uy = y[i] < y[i + 1];
        lo[0][i] = ux ? x[i] : x[i + 1], hi[0][i] = ux ? x[i + 1] : x[i];
        lo[1][i] = uy ? y[i] : y[i + 1], hi[1][i] = uy ? y[i + 1] : y[i];
        const mk_real m = fabs(x[i]) + fabs(y[i]);
        big = m > big ? m : big;
    }
    return big;
}

/* The edge pair of two faces, A's corners ia[0 .. na) (A's frame) and B's
 * ib[0 .. nbv) (posed in A's frame by R, p), whose parallelogram {a - b} is the
 * highest along n of those the line along n through the origin crosses,
 * with its height above the origin > 0: 1 with its corners in a[0 .. 4),
 * b[0 .. 4) (a[k] - b[k] for the four pairs of the edges' ends), else 0. */
static int crossing_edges(const mk_hull *ha, const int *ia, int na, const mk_hull *hb, const int *ib, int nbv,
                          const mk_mat3 *R, mk_vec3 p, mk_vec3 n, mk_vec3 a[4], mk_vec3 b[4])
{
    if (na < 3 || nbv < 3 || na > MK_COLLIDE_FACE_POLY || nbv > MK_COLLIDE_FACE_POLY)
        return 0;
    mk_vec3 pa[MK_COLLIDE_FACE_POLY], pb[MK_COLLIDE_FACE_POLY];
    for (int i = 0; i < na; ++i)
        pa[i] = ha->vertices[ia[i]];
    for (int j = 0; j < nbv; ++j)
        pb[j] = v3_add(m3_mul(R, hb->vertices[ib[j]]), p);
    /* The edge pair, in coordinates across n (x, y) and heights along it (z). */
    mk_vec3 t1, t2;
    v3_across(n, &t1, &t2);
    mk_real ax[MK_COLLIDE_FACE_POLY + 1], ay[MK_COLLIDE_FACE_POLY + 1], az[MK_COLLIDE_FACE_POLY + 1];
    mk_real bx[MK_COLLIDE_FACE_POLY + 1], by[MK_COLLIDE_FACE_POLY + 1], bz[MK_COLLIDE_FACE_POLY + 1];
    for (int i = 0; i <= na; ++i) {
        const mk_vec3 q = pa[i % na];
        ax[i] = v3_dot(q, t1), ay[i] = v3_dot(q, t2), az[i] = v3_dot(q, n);
    }
    for (int j = 0; j <= nbv; ++j) {
        const mk_vec3 q = pb[j % nbv];
        bx[j] = v3_dot(q, t1), by[j] = v3_dot(q, t2), bz[j] = v3_dot(q, n);
    }
    /* A pair can cross only where its edges' extents across n overlap, on
     * both axes (the parallelogram's extent holds 0): that cheap test, with a
     * slack far above the rounding of the exact one below, skips most pairs
     * and never one the exact test would take. */
    mk_real lo_a[2][MK_COLLIDE_FACE_POLY], hi_a[2][MK_COLLIDE_FACE_POLY];
    mk_real lo_b[2][MK_COLLIDE_FACE_POLY], hi_b[2][MK_COLLIDE_FACE_POLY];
    const mk_real big_a = edge_extents(ax, ay, na, lo_a, hi_a), big_b = edge_extents(bx, by, nbv, lo_b, hi_b);
    const mk_real big = big_a > big_b ? big_a : big_b;
    const mk_real slack = 1e-9 * big;
    int bi = -1, bj = -1;
    mk_real best_h = -INFINITY;
    for (int i = 0; i < na; ++i) {
        const mk_real e1x = ax[i + 1] - ax[i], e1y = ay[i + 1] - ay[i], e1z = az[i + 1] - az[i];
        for (int j = 0; j < nbv; ++j) {
            if ((lo_a[0][i] > hi_b[0][j] + slack) | (lo_b[0][j] > hi_a[0][i] + slack) |
                (lo_a[1][i] > hi_b[1][j] + slack) | (lo_b[1][j] > hi_a[1][i] + slack))
                continue;
            const mk_real e2x = bx[j + 1] - bx[j], e2y = by[j + 1] - by[j];
            const mk_real wx = ax[i] - bx[j], wy = ay[i] - by[j];
            /* w + s ea - u eb on the line along n through the origin (the
             * two edges cross across n): s = sn / det, u = un / det, both in
             * [0, 1]; the tests combined, one branch (most pairs fail) */
            const mk_real det = e2x * e1y - e1x * e2y;
            const mk_real sn = wx * e2y - e2x * wy, un = wx * e1y - e1x * wy;
            const mk_real ad = fabs(det);
            const int cross = (ad > 1e-9 * (fabs(e1x) + fabs(e1y)) * (fabs(e2x) + fabs(e2y))) & (sn * det >= 0) &
                              (un * det >= 0) & (fabs(sn) <= ad) & (fabs(un) <= ad);
            if (!cross)
                continue;
            const mk_real h = az[i] - bz[j] + (sn * e1z - un * (bz[j + 1] - bz[j])) / det;
            if (h > best_h) {
                best_h = h;
                bi = i;
                bj = j;
            }
        }
    }
    if (bi < 0 || !(best_h > 0))
        return 0;
    const int i1 = (bi + 1) % na, j1 = (bj + 1) % nbv;
    a[0] = pa[bi], a[1] = pa[i1], a[2] = pa[bi], a[3] = pa[i1];
    b[0] = pb[bj], b[1] = pb[bj], b[2] = pb[j1], b[3] = pb[j1];
    return 1;
}

/* Two hulls resting face on face with the faces' outlines crossing (a yawed
 * stack of equal boxes): D's face along the normal is then often neither
 * shape's face less a vertex (each one's deepest vertex overhangs the other's
 * face, and resting_shortcut's triangles miss the origin) but the
 * parallelogram {a - b} of an edge of A's face and an edge of B's face, one
 * of the slivers such parallelograms make, their planes apart by the bodies'
 * tilt. The one over the origin is the highest along n of those the line
 * along n through the origin crosses, i.e. of the edge pairs that cross seen
 * along n (every such parallelogram lies in D, and D's boundary is their
 * upper envelope: crossing_edges). EPA (mk_epa_from_points) then starts from
 * its four corners and D's support opposite n: the polytope holds D's face
 * from the start, the expansion adds the neighbouring cells the lower bound
 * needs (about 3 iterations on the demo's stacks of bevelled boxes), and the
 * answer is certified as EPA's always is. Returns 1 with *sd written, else 0.
 *
 * A mesh's flat face is many facets microradians apart (mk_hull.face_region),
 * and two such facets often have no crossing edges over the origin (the
 * demo's ODE mesh stack: 1,822 of 4,095 calls, then GJK + EPA from scratch);
 * the faces' flat-region outlines then do (their corners are the hulls'
 * vertices all the same, so the seed stays in D). Where the facets cross,
 * their small parallelogram costs fewer edge pairs and EPA iterations, so
 * they come first, unless the outlines gave the pair's last answer
 * (outline_first; *outline says which gave this one). Measured against
 * either order for every pair (ns a call, `mk_bench --section contact`,
 * yawed mesh cubes; instructions over the ODE mesh stack's first 600
 * steps): facets first
 * 1,648-1,666 ns and 148.6M, outlines first 1,772-1,798 ns and 142.7M, the
 * pair's 1,647-1,684 ns and 143.5M (the facets alone, before 83dc1b6:
 * 1,687-1,712 ns and 194.9M). An outline beyond the budget is not tried. */
static int face_pair_epa(const mk_pair *pair, mk_vec3 n, const mk_epa_settings *es, int hint_a, int hint_b,
                         int outline_first, int *outline, mk_signed_distance_result *sd)
{
    if (pair->a->type != MK_SHAPE_HULL || pair->b->type != MK_SHAPE_HULL)
        return 0;
    const mk_hull *ha = pair->a->u.hull.hull, *hb = pair->b->u.hull.hull;
    const mk_mat3 R = m3_tmul_m3(&pair->xf_a.R, &pair->xf_b.R);
    const mk_vec3 p = m3_tmul(&pair->xf_a.R, v3_sub(pair->xf_b.p, pair->xf_a.p));
    /* The faces along n: through each support vertex, the best aligned. */
    const mk_vec3 nb = m3_tmul(&R, v3_neg(n));
    int va = hint_a, vb = hint_b;
    (void)mk_shape_support(pair->a, n, &va);
    (void)mk_shape_support(pair->b, nb, &vb);
    mk_real ca, cb;
    const int fa = mk_manifold_hull_face(ha, n, va, &ca), fb = mk_manifold_hull_face(hb, nb, vb, &cb);
    const mk_real cmin = cos(MK_COLLIDE_HINT_TILT);
    if (fa < 0 || fb < 0 || !(ca >= cmin) || !(cb >= cmin))
        return 0;
    mk_vec3 a[5], b[5];
    const int *fia = ha->face_vertices + ha->face_start[fa], *fib = hb->face_vertices + hb->face_start[fb];
    const int fna = ha->face_start[fa + 1] - ha->face_start[fa], fnb = hb->face_start[fb + 1] - hb->face_start[fb];
    int na, nbv;
    const int *ia = mk_manifold_contact_face(ha, fa, &na, NULL);
    const int *ib = mk_manifold_contact_face(hb, fb, &nbv, NULL);
    /* [0]: the faces, [1]: their contact faces (the outlines where regions) */
    const int *la[2] = {fia, ia}, *lb[2] = {fib, ib}, ka[2] = {fna, na}, kb[2] = {fnb, nbv};
    const int regions = ia != fia || ib != fib;
    int k = regions && outline_first;
    if (!crossing_edges(ha, la[k], ka[k], hb, lb[k], kb[k], &R, p, n, a, b)) {
        k = !k;
        if (!regions || !crossing_edges(ha, la[k], ka[k], hb, lb[k], kb[k], &R, p, n, a, b))
            return 0;
    }
    *outline = k;
    /* The seed: the parallelogram's corners and D's support opposite n. */
    int wa = va, wb = vb;
    a[4] = mk_shape_support(pair->a, v3_neg(n), &wa);
    b[4] = v3_add(m3_mul(&R, mk_shape_support(pair->b, v3_neg(nb), &wb)), p);
    return seeded_epa(pair, a, b, 5, es, sd);
}

/* A core with a curved surface (a user shape may have one): D then has
 * curved pieces, where EPA's gap closes by halves, not in a few supports as
 * on polytopes (a sphere's or capsule's core is a point or a segment). */
static int curved_core(const mk_shape *s)
{
    return s->type == MK_SHAPE_CYLINDER || s->type == MK_SHAPE_CONE || s->type == MK_SHAPE_ELLIPSOID ||
           s->type == MK_SHAPE_USER;
}

/* Tilts of the curved seed's two rings of supports around the hinted normal
 * (radians): a fine ring for the turn of a resting pair in a step, a coarse
 * one (the face shortcut's) to catch a larger turn. Three supports per ring
 * (until 2026-11-27 four: on the ODE bin's first 600 steps the seed then cost
 * 18.9k instructions per call, with three 15.6k; EPA's iterations per call
 * over the whole run went from 2.7 to 3.2, its failures from 501 to 486). The
 * fine tilt measured against 3e-4, 3e-3 and 1e-2 (3.4 iterations per call
 * against 4.2, 4.4 and 5.5), the coarse one against 0.02 and 0.1 (4.4, 3.4). */
#define MK_COLLIDE_CURVED_FINE 1e-3
#define MK_COLLIDE_CURVED_POINTS 8

/* A resting pair whose contact is not a face of D (curved on curved: a
 * cylinder across a cylinder, a cone's rim on a capsule), where the face
 * shortcut cannot close EPA's gap: EPA (mk_epa_from_points) from D's supports
 * along the hinted normal n, along two rings of directions tilted around it
 * (MK_COLLIDE_CURVED_FINE and MK_COLLIDE_HINT_TILT) and opposite it. When the
 * contact normal turned by less than the tilts since the hint, their hull
 * holds the origin and its faces over the contact are already small: EPA
 * refines from there instead of from GJK's simplex (on random resting
 * cylinder pairs the gap halves per support: 4-8 supports from the seed
 * against 20-30 from GJK's simplex). Certified as EPA
 * always is; returns 1 with *sd written, 0 (the origin outside the seed, a
 * flat seed, the budget) to let GJK + EPA answer. */
static int curved_epa(const mk_pair *pair, mk_vec3 n, const mk_epa_settings *es, int hint_a, int hint_b,
                      mk_signed_distance_result *sd)
{
    if (!curved_core(pair->a) && !curved_core(pair->b))
        return 0;
    mink k = mink_of(pair, hint_a, hint_b);
    mk_vec3 t1, t2;
    v3_across(n, &t1, &t2);
    /* azimuths 2 i pi / 3 (fine ring) and pi / 3 + 2 i pi / 3 (coarse ring) */
    static const mk_real kc[6] = {1, -0.5, -0.5, 0.5, -1, 0.5};
    static const mk_real ks[6] = {0, 0.86602540378443865, -0.86602540378443865, 0.86602540378443865, 0,
                                  -0.86602540378443865};
    mk_vec3 a[MK_COLLIDE_CURVED_POINTS], b[MK_COLLIDE_CURVED_POINTS], w[MK_COLLIDE_CURVED_POINTS];
    int count = 0;
    for (int i = 0; i < MK_COLLIDE_CURVED_POINTS; ++i) {
        mk_vec3 d;
        if (i < 6) {
            const mk_real tilt = i < 3 ? MK_COLLIDE_CURVED_FINE : MK_COLLIDE_HINT_TILT;
            d = v3_add(n, v3_scale(v3_add(v3_scale(t1, kc[i]), v3_scale(t2, ks[i])), tilt));
        } else {
            d = i == 6 ? n : v3_neg(n);
        }
        mk_vec3 pa, pb;
        const mk_vec3 q = mink_support(&k, d, &pa, &pb);
        int dup = 0; /* a vertex or an edge answers several directions */
        for (int j = 0; j < count && !dup; ++j)
            dup = w[j].x == q.x && w[j].y == q.y && w[j].z == q.z;
        if (dup)
            continue;
        a[count] = pa, b[count] = pb, w[count] = q;
        ++count;
    }
    return count >= 4 && seeded_epa(pair, a, b, count, es, sd);
}

/* ------------------------------------------------------------ the pipeline */

/* What a full call learnt about the pair, for mk_collide_cache. */
typedef struct outcome {
    apart why;      /* separation certificate */
    int near;       /* points returned */
    int overlap;    /* and the cores overlapped: `normal` is the contact normal */
    mk_vec3 normal; /* A's local frame */
    int shortcut;   /* the depth came from resting_shortcut */
    int face_pair;  /* ... by way of face_pair_epa */
    int face_outline; /* ... from the faces' flat-region outlines */
    int curved;     /* ... by way of curved_epa */
    int shortcut_missed; /* it was tried and could not answer */
} outcome;

/* The checks the pipeline's stages would make on their inputs, once. */
static int inputs_ok(const mk_pair *pair, const mk_collide_settings *s);

static int epa_settings_ok(const mk_epa_settings *e)
{
    return isfinite(e->tolerance) && e->tolerance >= 0 && isfinite(e->relative_tolerance) &&
           e->relative_tolerance >= 0;
}

/* Points of a pair whose cores overlap, from a certified signed distance
 * (the box test's or the shortcut's), and what the contact memory keeps (the
 * normal in frame_a, A's pose: the points may come from the pair as boxes,
 * posed otherwise). */
static mk_status overlap_points(const mk_pair *pair, const mk_transform *frame_a,
                                const mk_signed_distance_result *sd, mk_real spec, int cap, contact_points *out,
                                outcome *oc)
{
    mk_status mst = make_points(pair, sd->normal, sd->distance, sd->point_a, sd->point_b, spec, cap, out);
    if (mst != MK_OK)
        return mst;
    oc->near = out->count > 0;
    oc->overlap = 1;
    oc->normal = m3_tmul(&frame_a->R, sd->normal);
    return sd->status;
}

/* A box, or a hull that says it is one (read before validation: only the
 * pointer is checked). */
static inline int boxish(const mk_shape *s)
{
    return s->type == MK_SHAPE_BOX || (s->type == MK_SHAPE_HULL && s->u.hull.hull && s->u.hull.hull->box);
}

/* A box or a hull that is one (mk_hull.box): the box shape standing for s and
 * its world pose; 0 for other shapes. s is validated. */
static int box_of(const mk_shape *s, const mk_transform *xf, mk_shape *box, mk_transform *pose)
{
    if (s->type == MK_SHAPE_BOX) {
        *box = *s;
        *pose = *xf;
        return 1;
    }
    if (s->type != MK_SHAPE_HULL || !s->u.hull.hull->box)
        return 0;
    const mk_hull *h = s->u.hull.hull;
    memset(box, 0, sizeof *box);
    box->type = MK_SHAPE_BOX;
    box->radius = s->radius;
    box->u.box.half_extents = h->box_half_extents;
    pose->R = m3_mul_m3(&xf->R, &h->box_pose.R);
    pose->p = xf_apply(xf, h->box_pose.p);
    return 1;
}

static mk_status collide_full(const mk_pair *pair, const mk_collide_settings *settings, mk_gjk_cache *cache,
                              const mk_collide_cache *memory, int cap, contact_points *out, outcome *oc)
{
    memset(oc, 0, sizeof *oc);
    if (!out)
        return MK_INVALID_INPUT;
    empty(out);
    mk_collide_settings s = settings ? *settings : mk_collide_default_settings();
    if (!isfinite(s.speculative))
        return MK_INVALID_INPUT;
    const int pair_ok = pair && pair->a && pair->b;
    /* Two boxes (or hulls that are boxes, mk_hull.box, posed as boxes): the
     * separating-axis test gives the exact depth of overlapping
     * cores, or proves the pair apart, in one pass (box_sat.c); cores apart
     * within reach still need GJK's distance, so a pair of rounded boxes whose
     * last call found them so (resting on their margins, as Bullet's) goes
     * straight to GJK. Sharp boxes at rest (ODE's) touch, their cores a hair
     * apart one step and overlapping the next: GJK first would send every
     * second call to EPA, so they always take the test first. */
    const int cores_were_apart =
        pair_ok && memory && memory->near && !memory->hint_valid && (pair->a->radius > 0 || pair->b->radius > 0);
    const int box_like = pair_ok && boxish(pair->a) && boxish(pair->b);
    /* The pair as boxes (points is what the contact points are made from: the
     * boxes' clip, whichever stage found the depth). */
    mk_shape box_a, box_b;
    mk_pair bp;
    const int as_boxes = box_like && s.speculative >= 0 && inputs_ok(pair, &s);
    const int two_boxes = pair_ok && pair->a->type == MK_SHAPE_BOX && pair->b->type == MK_SHAPE_BOX;
    const int hull_boxes = as_boxes && !two_boxes && box_of(pair->a, &pair->xf_a, &box_a, &bp.xf_a) &&
                           box_of(pair->b, &pair->xf_b, &box_b, &bp.xf_b);
    bp.a = &box_a;
    bp.b = &box_b;
    /* two boxes are their own pair (no copies) */
    const mk_pair *points = hull_boxes ? &bp : pair;
    if (as_boxes && !cores_were_apart) {
        mk_signed_distance_result sd;
        mk_vec3 an;
        mk_real am;
        switch (mk_box_sat(points, s.speculative, &sd, &an, &am)) {
        case MK_BOX_SAT_APART:
            oc->why.ok = 1;
            oc->why.n = an;
            oc->why.margin = am;
            return MK_GJK_SEPARATED;
        case MK_BOX_SAT_OVERLAP:
            return overlap_points(points, &pair->xf_a, &sd, s.speculative, cap, out, oc);
        case MK_BOX_SAT_NOT_DECIDED:
            break;
        }
    }
    /* A pair that overlapped last time tries the resting-contact shortcut
     * first; its own checks stand in for the stages' (GJK, EPA) validation. */
    if (memory && memory->hint_valid && memory->shortcut_wait <= 0 && pair_ok && s.speculative >= 0 &&
        inputs_ok(pair, &s) && epa_settings_ok(&s.epa) && v3_finite(memory->hint_normal)) {
        mk_signed_distance_result sd;
        mk_vec3 n = v3_normalize_or(memory->hint_normal, v3(0, 0, 0));
        int ha = cache && cache->valid ? cache->hint_a : -1, hb = cache && cache->valid ? cache->hint_b : -1;
        /* A's face, B's face, and only when neither shows a face along n
         * (edge on edge), D's (on two parallel faces D's tilted supports can
         * fall on neighbouring faces of D that a rocking tilt splits off:
         * trying D there cost a rocking hull stack 12%, answering 5 of 5,232).
         * When both show a face but neither holds the origin's side of D,
         * two hulls' crossing face edges (face_pair_epa). A pair whose last
         * answer came from those tries them first (a resting pair keeps its
         * kind of contact). */
        int got = SHORTCUT_NO, outline = 0;
        const int pair_first = memory->face_pair && v3_len2(n) > 0;
        const int curved_first = memory->curved && v3_len2(n) > 0;
        if (curved_first && curved_epa(pair, n, &s.epa, ha, hb, &sd)) {
            got = SHORTCUT_DONE;
            oc->curved = 1;
        } else if (pair_first && face_pair_epa(pair, n, &s.epa, ha, hb, memory->face_outline, &outline, &sd)) {
            got = SHORTCUT_DONE;
            oc->face_pair = 1;
            oc->face_outline = outline;
        } else if (v3_len2(n) > 0) {
            const int ra = resting_shortcut(pair, n, REF_A, &s.epa, ha, hb, &sd);
            got = ra == SHORTCUT_DONE ? ra : resting_shortcut(pair, n, REF_B, &s.epa, ha, hb, &sd);
            if (ra == SHORTCUT_NO_FACE && got == SHORTCUT_NO_FACE) {
                got = resting_shortcut(pair, n, REF_D, &s.epa, ha, hb, &sd);
            } else if (ra == SHORTCUT_NO && got == SHORTCUT_NO && !pair_first &&
                       face_pair_epa(pair, n, &s.epa, ha, hb, memory->face_outline, &outline, &sd)) {
                got = SHORTCUT_DONE;
                oc->face_pair = 1;
                oc->face_outline = outline;
            }
            if (got != SHORTCUT_DONE && !curved_first && curved_epa(pair, n, &s.epa, ha, hb, &sd)) {
                got = SHORTCUT_DONE;
                oc->curved = 1;
            }
        }
        if (got == SHORTCUT_DONE) {
            oc->shortcut = 1;
            return overlap_points(points, &pair->xf_a, &sd, s.speculative, cap, out, oc);
        }
        oc->shortcut_missed = 1;
    }
    /* Most pairs an engine's broadphase hands over are apart by more than the
     * speculative distance. The Boolean query on A grown by that distance
     * proves it in a step or two from the cached direction (early exit of
     * Alg. 2), where the full distance would converge to the tolerance. */
    /* Skipped when the pair was within reach last time: the cache's iterate x
     * lies in the cores' difference, so |x| bounds their distance then (and
     * mk_collide_cache remembers whether the last call gave points, which
     * covers overlapping cores, where x says nothing). */
    int near = memory && memory->near;
    if (!near && cache && cache->valid && pair_ok) {
        mk_real reach = pair->a->radius + pair->b->radius + 2 * s.speculative;
        near = v3_len2(cache->dir) <= reach * reach;
    }
    if (!near && s.speculative >= 0 && pair_ok) {
        mk_shape grown = *pair->a;
        grown.radius += s.speculative;
        mk_pair gp = {&grown, pair->xf_a, pair->b, pair->xf_b};
        mk_gjk_intersect_result ir;
        mk_status bs = mk_gjk_intersect(&gp, &s.gjk, cache, &ir);
        if (bs >= MK_INVALID_INPUT)
            return bs;
        if (bs == MK_GJK_SEPARATED) {
            oc->why.ok = 1;
            oc->why.n = ir.plane_normal;
            oc->why.margin = ir.margin;
            return MK_GJK_SEPARATED;
        }
    }
    /* Cap EPA's budget to the stack workspace (bounded halving: at most 31 steps). */
    while (s.epa.max_iterations > 1 && mk_epa_workspace_size(s.epa.max_iterations) > MK_COLLIDE_WORKSPACE_BYTES)
        s.epa.max_iterations /= 2;
    alignas(16) unsigned char ws[MK_COLLIDE_WORKSPACE_BYTES];
    mk_signed_distance_result sd;
    mk_status st = mk_signed_distance(pair, &s.gjk, &s.epa, cache, ws, sizeof ws, &sd);
    if (st >= MK_INVALID_INPUT)
        return st;
    if (sd.distance > s.speculative) {
        /* apart beyond the speculative margin: no points. The certificate is
         * the slack along the normal, measured by its own supports. */
        if (s.speculative >= 0) {
            oc->why.n = sd.normal;
            oc->why.margin = slack_along(pair, sd.normal, s.speculative);
            oc->why.ok = oc->why.margin > 0;
        }
        return st;
    }
    mk_status mst = make_points(points, sd.normal, sd.distance, sd.point_a, sd.point_b, s.speculative, cap, out);
    if (mst != MK_OK)
        return mst;
    oc->near = out->count > 0;
    /* cores overlapping: EPA's normal is the hint for the shortcut */
    oc->overlap = sd.distance + pair->a->radius + pair->b->radius < 0;
    oc->normal = m3_tmul(&pair->xf_a.R, sd.normal);
    return st;
}

static void empty_manifold(mk_manifold *out)
{
    memset(out, 0, sizeof *out);
    out->normal = v3(1, 0, 0);
}

static void to_manifold(const contact_points *p, mk_manifold *out)
{
    memset(out, 0, sizeof *out);
    out->count = p->count;
    out->normal = p->normal;
    memcpy(out->points, p->points, sizeof out->points);
}

mk_status mk_collide(const mk_pair *pair, const mk_collide_settings *settings, mk_gjk_cache *cache,
                     mk_manifold *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    outcome oc;
    contact_points pts;
    mk_status st = collide_full(pair, settings, cache, NULL, MK_MANIFOLD_MAX_POINTS, &pts, &oc);
    to_manifold(&pts, out);
    return st;
}

/* ------------------------------------------------------------ certificates */

/* Local centre and radius of a ball holding the core (the core's bounding box
 * about its centre). 0 for user supports: their box is the caller's word only. */
static int core_ball(const mk_shape *s, mk_vec3 *centre, mk_real *rho)
{
    if (s->type == MK_SHAPE_USER)
        return 0;
    mk_vec3 lo, hi;
    shape_local_bounds(s, &lo, &hi);
    mk_vec3 h = v3_scale(v3_sub(hi, lo), 0.5);
    *centre = v3_scale(v3_add(lo, hi), 0.5);
    h = v3(fmax(h.x - s->radius, 0), fmax(h.y - s->radius, 0), fmax(h.z - s->radius, 0));
    *rho = v3_len(h) * (1 + 1e-12);
    return v3_finite(*centre) && isfinite(*rho);
}

static void certify(mk_collide_cache *c, const mk_pair *pair, const apart *why, mk_real spec)
{
    c->cert_valid = 0;
    if (!why->ok || !(why->margin > 0) || !v3_finite(why->n) || !(spec >= 0))
        return;
    if (!core_ball(pair->a, &c->ball_a, &c->ball_radius_a) || !core_ball(pair->b, &c->ball_b, &c->ball_radius_b))
        return;
    c->cert_normal = why->n;
    c->cert_margin = why->margin;
    c->cert_speculative = spec;
    c->cert_centre_a = xf_apply(&pair->xf_a, c->ball_a);
    c->cert_centre_b = xf_apply(&pair->xf_b, c->ball_b);
    c->cert_dir_a = m3_tmul(&pair->xf_a.R, why->n);
    c->cert_dir_b = m3_tmul(&pair->xf_b.R, why->n);
    c->shape_a = pair->a;
    c->shape_b = pair->b;
    c->cert_valid = 1;
}

/* Does the certificate still prove the pair apart beyond spec at these poses?
 * Along n, A's highest point rises by at most <n, dC_A> + rho_A |dR_A^T n|
 * (h_A(n) = <n, C_A> + h_core-centre(R_A^T n), the latter rho_A-Lipschitz), and
 * B's lowest point sinks by at most -<n, dC_B> + rho_B |dR_B^T n|. The margin
 * must exceed that plus any growth of spec, with room for rounding. */
static int still_apart(const mk_collide_cache *c, const mk_pair *pair, mk_real spec)
{
    if (!c->cert_valid || c->shape_a != pair->a || c->shape_b != pair->b)
        return 0;
    const mk_vec3 n = c->cert_normal;
    mk_vec3 ca = xf_apply(&pair->xf_a, c->ball_a), cb = xf_apply(&pair->xf_b, c->ball_b);
    mk_vec3 ua = m3_tmul(&pair->xf_a.R, n), ub = m3_tmul(&pair->xf_b.R, n);
    mk_real closing = v3_dot(n, v3_sub(ca, c->cert_centre_a)) - v3_dot(n, v3_sub(cb, c->cert_centre_b)) +
                      c->ball_radius_a * v3_len(v3_sub(ua, c->cert_dir_a)) +
                      c->ball_radius_b * v3_len(v3_sub(ub, c->cert_dir_b)) + fmax(spec - c->cert_speculative, 0);
    mk_real scale = v3_max_abs(ca) + v3_max_abs(cb) + c->ball_radius_a + c->ball_radius_b + pair->a->radius +
                    pair->b->radius + fabs(spec) + c->cert_margin;
    return closing + 1e-10 * scale < c->cert_margin; /* false on NaN */
}

/* The checks mk_collide's Boolean exit makes on its inputs. */
static int inputs_ok(const mk_pair *pair, const mk_collide_settings *s)
{
    return isfinite(s->speculative) && s->speculative >= 0 && pair_check(pair) == MK_OK && gjk_settings_ok(&s->gjk);
}

/* mk_collide_cached / mk_collide_patch: the certificate, then the pipeline,
 * which renews the certificate and the contact memory. */
static mk_status collide_cached(const mk_pair *pair, const mk_collide_settings *settings, mk_collide_cache *cache,
                                int cap, contact_points *out)
{
    mk_collide_settings def;
    if (!settings) {
        def = mk_collide_default_settings();
        settings = &def;
    }
    /* The bound first (cheap, and usually decisive), then the input checks
     * the pipeline's Boolean exit would make. */
    if (pair && pair->a && pair->b && cache->cert_valid && still_apart(cache, pair, settings->speculative) &&
        inputs_ok(pair, settings)) {
        empty(out);
        cache->near = 0;
        cache->hint_valid = 0;
        ++cache->skipped;
        return MK_GJK_SEPARATED;
    }
    outcome oc;
    mk_status st = collide_full(pair, settings, &cache->gjk, cache, cap, out, &oc);
    cache->cert_valid = 0;
    if (st >= MK_INVALID_INPUT) {
        cache->near = cache->hint_valid = 0;
        return st;
    }
    if (out->count == 0)
        certify(cache, pair, &oc.why, settings->speculative);
    cache->near = oc.near;
    cache->hint_valid = oc.near && oc.overlap && v3_finite(oc.normal);
    if (cache->hint_valid)
        cache->hint_normal = oc.normal;
    cache->shortcuts += (unsigned long long)oc.shortcut;
    cache->face_pair = oc.face_pair;
    cache->face_outline = oc.face_outline;
    cache->curved = oc.curved;
    /* The shortcut's backoff (mk_collide_cache): a miss lengthens the run of
     * misses (and, from the patience on, sets the wait), a success ends it,
     * and a call without an attempt counts the wait down. */
    if (oc.shortcut) {
        cache->shortcut_misses = 0;
        cache->shortcut_wait = 0;
    } else if (oc.shortcut_missed) {
        const int patience = MK_COLLIDE_SHORTCUT_PATIENCE;
        cache->shortcut_misses += cache->shortcut_misses < patience;
        cache->shortcut_wait = cache->shortcut_misses >= patience ? MK_COLLIDE_SHORTCUT_EVERY - 1 : 0;
    } else if (cache->shortcut_wait > 0) {
        --cache->shortcut_wait;
    }
    return st;
}

mk_status mk_collide_cached(const mk_pair *pair, const mk_collide_settings *settings, mk_collide_cache *cache,
                            mk_manifold *out)
{
    if (!cache)
        return mk_collide(pair, settings, NULL, out);
    if (!out)
        return MK_INVALID_INPUT;
    contact_points pts;
    mk_status st = collide_cached(pair, settings, cache, MK_MANIFOLD_MAX_POINTS, &pts);
    to_manifold(&pts, out);
    return st;
}

mk_status mk_collide_patch(const mk_pair *pair, const mk_collide_settings *settings, mk_collide_cache *cache,
                           int max_points, mk_contact_patch_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    empty(out);
    if (max_points < MK_MANIFOLD_MAX_POINTS || max_points > MK_MANIFOLD_MAX_PATCH_POINTS)
        return MK_INVALID_INPUT;
    if (cache)
        return collide_cached(pair, settings, cache, max_points, out);
    outcome oc;
    return collide_full(pair, settings, NULL, NULL, max_points, out, &oc);
}

/* Against a half-space the signed distance is exact from one support call
 * (the shape's lowest point along -n: no GJK or EPA), and the contact feature
 * is the shape's feature facing the plane, kept whole (the plane has no sides
 * to clip against). Up to cap points into pts[0 .. *count), the normal into
 * *normal; both entry points below start from *count = 0. */
static mk_status plane_points(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c,
                              const mk_collide_settings *settings, int cap, mk_manifold_point *pts, int *count,
                              mk_vec3 *normal)
{
    if (!shape || !xf || !transform_ok(xf) || !v3_finite(n) || !isfinite(c))
        return MK_INVALID_INPUT;
    mk_status v = shape_status(shape);
    if (v != MK_OK)
        return v;
    mk_real nl = v3_len(n);
    if (!(nl > 0) || !isfinite(nl))
        return MK_INVALID_INPUT;
    n = v3_scale(n, 1 / nl);
    c /= nl;
    const mk_real spec = settings ? settings->speculative : 0;
    if (!isfinite(spec) || !isfinite(c))
        return MK_INVALID_INPUT;
    mk_vec3 down = m3_tmul(&xf->R, v3_neg(n));
    int low_vertex = -1; /* a hull's support vertex, set by its support (the manifold starts from it) */
    const mk_vec3 low_local = shape_support(shape, down, &low_vertex);
    mk_vec3 low = v3_madd(xf_apply(xf, low_local), -shape->radius, n);
    mk_real sd = v3_dot(n, low) - c;
    if (!isfinite(sd))
        return MK_INVALID_INPUT;
    mk_status st = sd > 0 ? MK_GJK_SEPARATED : (sd < 0 ? MK_PENETRATING : MK_GJK_INTERSECTING);
    if (sd > spec)
        return st;
    mk_status mst = mk_manifold_halfspace(shape, xf, n, c, spec, low_local, low_vertex, cap, pts, count);
    if (mst != MK_OK) {
        *count = 0;
        return mst;
    }
    *normal = v3_neg(n);
    return st;
}

mk_status mk_collide_plane(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c,
                           const mk_collide_settings *settings, mk_manifold *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    empty_manifold(out);
    return plane_points(shape, xf, n, c, settings, MK_MANIFOLD_MAX_POINTS, out->points, &out->count, &out->normal);
}

mk_status mk_collide_plane_patch(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c,
                                 const mk_collide_settings *settings, int max_points, mk_contact_patch_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    empty(out);
    if (max_points < MK_MANIFOLD_MAX_POINTS || max_points > MK_MANIFOLD_MAX_PATCH_POINTS)
        return MK_INVALID_INPUT;
    return plane_points(shape, xf, n, c, settings, max_points, out->points, &out->count, &out->normal);
}

/* The growth model's points, up to cap (4 .. MK_MANIFOLD_MAX_PATCH_POINTS). */
static mk_status growth_points_of(const mk_growth_input *in, const mk_collide_settings *settings,
                                  mk_growth_cache *cache, int cap, contact_points *out)
{
    empty(out);
    mk_collide_settings s = settings ? *settings : mk_collide_default_settings();
    if (!in || !isfinite(s.speculative))
        return MK_INVALID_INPUT;
    mk_growth_result g;
    mk_status st = mk_growth_distance(in, &s.growth, cache, &g);
    if (st != MK_GJK_SEPARATED && st != MK_GJK_INTERSECTING && st != MK_GROWTH_MAX_ITER)
        return st;
    mk_real sep = v3_dot(v3_sub(g.point_b, g.point_a), g.normal);
    if (!isfinite(sep))
        return MK_INVALID_INPUT;
    if (sep > s.speculative)
        return st;
    const mk_status mst = shape_points(&in->pair, g.normal, sep, s.speculative, cap, out);
    return mst == MK_OK ? st : mst;
}

/* ... with the slots past the count zeroed, as mk_collide's. */
static mk_status growth_points(const mk_growth_input *in, const mk_collide_settings *settings,
                               mk_growth_cache *cache, int cap, contact_points *out)
{
    const mk_status st = growth_points_of(in, settings, cache, cap, out);
    zero_tail(out);
    return st;
}

mk_status mk_collide_growth(const mk_growth_input *in, const mk_collide_settings *settings, mk_growth_cache *cache,
                            mk_manifold *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    contact_points p;
    const mk_status st = growth_points(in, settings, cache, MK_MANIFOLD_MAX_POINTS, &p);
    to_manifold(&p, out);
    return st;
}

mk_status mk_collide_growth_patch(const mk_growth_input *in, const mk_collide_settings *settings,
                                  mk_growth_cache *cache, int max_points, mk_contact_patch_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    if (max_points < MK_MANIFOLD_MAX_POINTS || max_points > MK_MANIFOLD_MAX_PATCH_POINTS) {
        empty(out);
        return MK_INVALID_INPUT;
    }
    return growth_points(in, settings, cache, max_points, out);
}
