/* Box against box by the separating-axis test.
 *
 * The Minkowski difference D = A - B of two boxes is a polytope whose face
 * normals are among the 15 axes: the 3 face normals of each box and the 9
 * cross products of an edge direction of A with one of B (the OBB overlap test
 * of Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996, sec. 4). The
 * overlap of the boxes along a unit axis L is o(L) = h_A(L) + h_B(L) - |<t, L>|
 * (t: B's centre in A's frame), which is h_D(+-L) seen from the origin. If some
 * o(L) < 0 the boxes are apart along L; otherwise the origin lies in D and the
 * core penetration depth is the distance from the origin to D's boundary,
 * min over D's face normals of h_D, i.e. min_L o(L) over the 15 axes. Every
 * o(L) is an upper bound on the depth whatever L is (D holds the ball of that
 * radius about the origin only if it is at most every h_D), so the answer can
 * only be too deep, never too shallow, and only by what rounding or a skipped
 * axis costs; that is its certified bracket.
 *
 * Cross products of nearly parallel edges (sin of the angle below
 * MK_BOX_SAT_PARALLEL) are skipped: at exactly parallel edges D's face there
 * degenerates to an edge, whose normals' h_D values are concave along the arc
 * between its two faces, so the faces (other axes) hold the minimum; at a
 * nearly parallel pair the sliver face can undercut them by at most the angle
 * times the boxes' size, which widens the bracket by that much.
 *
 * Rounded boxes: with cores overlapping, D grown by the ball of r_A + r_B has
 * depth core depth + r_A + r_B along the same normal, exactly. */
#include "box_sat.h"

#include "vec.h"

#include <float.h>
#include <math.h>

/* Edge pairs closer to parallel than this (sin of the angle) are skipped. */
#define MK_BOX_SAT_PARALLEL 1e-9
/* An edge axis or one of B's faces beats the best face of A (of A or B) only
 * when shallower by more than this times the smaller box's size: near-ties go
 * to the faces, A first, as the manifold's reference face does. */
#define MK_BOX_SAT_TIE 1e-10

typedef struct axis {
    mk_real overlap; /* o(L) */
    mk_vec3 n;       /* unit axis, A's frame, oriented A to B */
    int kind;        /* 0: face of A, 1: face of B, 2: edge pair */
    int i, j;        /* A's axis (faces of A, edges), B's axis (faces of B, edges) */
} axis;

/* Core vertex of a box (half extents h, axes c, centre o) farthest along d. */
static inline mk_vec3 box_vertex(mk_vec3 o, const mk_vec3 c[3], mk_vec3 h, mk_vec3 d)
{
    mk_vec3 p = o;
    for (int k = 0; k < 3; ++k) {
        mk_real s = v3_dot(c[k], d) < 0 ? -v3_comp(h, k) : v3_comp(h, k);
        p = v3_madd(p, s, c[k]);
    }
    return p;
}

/* Closest points of the lines p0 + s u and q0 + t v (unit u, v, not parallel),
 * s clamped to [-su, su] and t to [-sv, sv]. */
static void edge_points(mk_vec3 p0, mk_vec3 u, mk_real su, mk_vec3 q0, mk_vec3 v, mk_real sv, mk_vec3 *pa,
                        mk_vec3 *pb)
{
    mk_vec3 w = v3_sub(p0, q0);
    mk_real b = v3_dot(u, v), d = v3_dot(u, w), e = v3_dot(v, w);
    mk_real den = 1 - b * b;
    mk_real s = den > 0 ? (b * e - d) / den : 0, t = den > 0 ? (e - b * d) / den : 0;
    s = fmin(fmax(s, -su), su);
    t = fmin(fmax(t, -sv), sv);
    *pa = v3_madd(p0, s, u);
    *pb = v3_madd(q0, t, v);
}

/* Axis k (0-2 faces of A, 3-5 faces of B, 6 + 3 i + j edge e_i x c_j) with
 * its overlap, oriented from A to B. */
static axis axis_of(int k, mk_real overlap, const mk_vec3 c[3], const mk_vec3 e[3], mk_vec3 t)
{
    axis x = {overlap, {0, 0, 1}, k < 3 ? 0 : (k < 6 ? 1 : 2), 0, 0};
    mk_vec3 L;
    if (k < 3) {
        x.i = k;
        L = e[k];
    } else if (k < 6) {
        x.j = k - 3;
        L = c[k - 3];
    } else {
        x.i = (k - 6) / 3;
        x.j = (k - 6) % 3;
        L = v3_normalize_or(v3_cross(e[x.i], c[x.j]), v3(0, 0, 1));
    }
    x.n = v3_dot(t, L) < 0 ? v3_neg(L) : L;
    return x;
}

mk_box_sat_outcome mk_box_sat(const mk_pair *pair, mk_real reach, mk_signed_distance_result *out, mk_vec3 *apart_n,
                              mk_real *apart_margin)
{
    const mk_transform *xa = &pair->xf_a;
    const mk_vec3 ha = pair->a->u.box.half_extents, hb = pair->b->u.box.half_extents;
    const mk_real radius = pair->a->radius + pair->b->radius;
    const mk_mat3 R = m3_tmul_m3(&xa->R, &pair->xf_b.R);
    const mk_vec3 t = m3_tmul(&xa->R, v3_sub(pair->xf_b.p, xa->p));
    const mk_vec3 c[3] = {v3(R.m[0][0], R.m[1][0], R.m[2][0]), v3(R.m[0][1], R.m[1][1], R.m[2][1]),
                          v3(R.m[0][2], R.m[1][2], R.m[2][2])};
    const mk_vec3 e[3] = {v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1)};
    const mk_real size = v3_max_abs(ha) + v3_max_abs(hb);
    /* The tie scales with the smaller box (a depth never exceeds its size):
     * a ground box many times larger must not widen it. */
    const mk_real tie = MK_BOX_SAT_TIE * fmin(v3_max_abs(ha), v3_max_abs(hb));

    /* |R| once: every axis's radii are sums of its entries times half extents. */
    mk_real absR[3][3];
    for (int r = 0; r < 3; ++r)
        for (int q = 0; q < 3; ++q)
            absR[r][q] = fabs(R.m[r][q]);
    const mk_real hA[3] = {ha.x, ha.y, ha.z}, hB[3] = {hb.x, hb.y, hb.z}, tt[3] = {t.x, t.y, t.z};

    /* best: the chosen axis (faces preferred within the tie); gap: the axis
     * of the smallest overlap (separating the most when negative). Axes are
     * numbered k: 0-2 faces of A, 3-5 faces of B, 6 + 3 i + j edge e_i x c_j. */
    mk_real best_o = INFINITY, gap_o = INFINITY;
    int best_k = 0, gap_k = 0;
    int skipped = 0;
#define MK_SAT_TAKE(o, k, face_a)                                                                                     \
    do {                                                                                                           \
        if ((o) < gap_o)                                                                                           \
            gap_o = (o), gap_k = (k);                                                                              \
        if ((face_a) ? (o) < best_o : (o) < best_o - tie)                                                          \
            best_o = (o), best_k = (k);                                                                            \
    } while (0)
    /* Faces of A: L = e_i. */
    for (int i = 0; i < 3; ++i) {
        const mk_real o = hA[i] + hB[0] * absR[i][0] + hB[1] * absR[i][1] + hB[2] * absR[i][2] - fabs(tt[i]);
        MK_SAT_TAKE(o, i, 1);
    }
    /* Faces of B: L = c_j (column j of R). */
    for (int j = 0; j < 3; ++j) {
        const mk_real tl = tt[0] * R.m[0][j] + tt[1] * R.m[1][j] + tt[2] * R.m[2][j];
        const mk_real o = hB[j] + hA[0] * absR[0][j] + hA[1] * absR[1][j] + hA[2] * absR[2][j] - fabs(tl);
        MK_SAT_TAKE(o, 3 + j, 0);
    }
    /* Edges: L = e_i x c_j, whose components are L[i] = 0, L[i1] = -R[i2][j],
     * L[i2] = R[i1][j] (i1 = i + 1, i2 = i + 2 mod 3); B's radius along it from
     * c_k . L for every k (no orthonormality assumed), then over |L|. Those
     * products are the 2x2 minors R[i2][k] R[i1][j] - R[i1][k] R[i2][j]: zero
     * for k = j, of one magnitude for (k, j) and (j, k) (rounding to nearest
     * is symmetric in sign), so three per i give all nine, bit for bit. */
    static const int next1[3] = {1, 2, 0}, next2[3] = {2, 0, 1};
    for (int i = 0; i < 3; ++i) {
        const int i1 = next1[i], i2 = next2[i];
        const mk_real *r1 = R.m[i1], *r2 = R.m[i2];
        /* |minors| of the column pairs, a symmetric table with a zero diagonal */
        const mk_real m01 = fabs(r1[0] * -r2[1] + r2[0] * r1[1]);
        const mk_real m02 = fabs(r1[0] * -r2[2] + r2[0] * r1[2]);
        const mk_real m12 = fabs(r1[1] * -r2[2] + r2[1] * r1[2]);
        const mk_real am[3][3] = {{0, m01, m02}, {m01, 0, m12}, {m02, m12, 0}};
        for (int j = 0; j < 3; ++j) {
            const mk_real l1 = -r2[j], l2 = r1[j];
            const mk_real len = sqrt(l1 * l1 + l2 * l2);
            if (!(len > MK_BOX_SAT_PARALLEL)) {
                skipped = 1;
                continue;
            }
            const mk_real ra = hA[i1] * fabs(l1) + hA[i2] * fabs(l2);
            const mk_real rb = hB[0] * am[0][j] + hB[1] * am[1][j] + hB[2] * am[2][j];
            const mk_real raw = ra + rb - fabs(tt[i1] * l1 + tt[i2] * l2);
            /* The division only for an axis that may be taken: raw / len
             * below bar, the larger of gap_o and best_o - tie, tested as raw
             * against bar times len with room for both roundings (1e-12
             * relative), so an axis passing it is taken exactly as if every
             * axis were divided, and none that would be taken fails it. */
            const mk_real bar = (gap_o > best_o - tie ? gap_o : best_o - tie) * len;
            if (!(raw <= bar + 1e-12 * fabs(bar)))
                continue;
            const mk_real o = raw / len;
            MK_SAT_TAKE(o, 6 + 3 * i + j, 0);
        }
    }
#undef MK_SAT_TAKE
    if (!isfinite(gap_o) || !isfinite(best_o))
        return MK_BOX_SAT_NOT_DECIDED; /* cannot happen for validated inputs */

    /* Rounding of the overlaps (sums of a dozen products of magnitude up to
     * |t| + size). */
    const mk_real round = 64 * DBL_EPSILON * (v3_max_abs(t) + size);
    if (gap_o < 0) {
        mk_real margin = -gap_o - radius - reach - round;
        if (margin > 0) {
            *apart_n = m3_mul(&xa->R, axis_of(gap_k, gap_o, c, e, t).n);
            *apart_margin = margin;
            return MK_BOX_SAT_APART;
        }
        return MK_BOX_SAT_NOT_DECIDED;
    }

    /* Overlapping cores: depth and witnesses on the chosen axis. */
    const axis best = axis_of(best_k, best_o, c, e, t);
    const mk_real depth = best.overlap;
    const mk_vec3 n = best.n;
    mk_vec3 pa, pb;
    if (best.kind == 0) {
        pb = box_vertex(t, c, hb, v3_neg(n));
        pa = v3_madd(pb, depth, n);
    } else if (best.kind == 1) {
        pa = box_vertex(v3(0, 0, 0), e, ha, n);
        pb = v3_madd(pa, -depth, n);
    } else {
        /* A's edge along e_i through its vertex farthest along n, B's along
         * c_j through its vertex farthest along -n; their closest points, set
         * apart by exactly the depth about their midpoint. */
        mk_vec3 a0 = box_vertex(v3(0, 0, 0), e, ha, n);
        mk_vec3 b0 = box_vertex(t, c, hb, v3_neg(n));
        a0 = v3_madd(a0, -v3_comp(a0, best.i), e[best.i]);
        b0 = v3_madd(b0, -v3_dot(v3_sub(b0, t), c[best.j]), c[best.j]);
        edge_points(a0, e[best.i], v3_comp(ha, best.i), b0, c[best.j], v3_comp(hb, best.j), &pa, &pb);
        mk_vec3 mid = v3_scale(v3_add(pa, pb), 0.5);
        pa = v3_madd(mid, 0.5 * depth, n);
        pb = v3_madd(mid, -0.5 * depth, n);
    }
    /* Bracket on the core depth: the chosen overlap is an upper bound (to its
     * rounding); the smallest evaluated one, less rounding and what a skipped
     * sliver axis could undercut, a lower bound. */
    mk_real depth_lo = gap_o - round - (skipped ? 2 * MK_BOX_SAT_PARALLEL * (v3_max_abs(t) + size) : 0);
    if (depth_lo < 0)
        depth_lo = 0;
    const mk_vec3 nw = m3_mul(&xa->R, n);
    out->status = MK_PENETRATING;
    out->distance = -(depth + radius);
    out->lower_bound = -(depth + round + radius);
    out->upper_bound = -(depth_lo + radius);
    out->normal = nw;
    out->point_a = v3_madd(xf_apply(xa, pa), pair->a->radius, nw);
    out->point_b = v3_madd(out->point_a, -(depth + radius), nw);
    out->gjk_iterations = 0;
    out->epa_iterations = 0;
    out->epa_flags = 0;
    return MK_BOX_SAT_OVERLAP;
}
