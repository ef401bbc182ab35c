/* Robust closest point of a simplex to the origin, in the spirit of the signed
 * volumes method (Montanari, Petrinic, Barbieri 2017): barycentric coordinates
 * from sub-determinants, sub-faces visited only where a coordinate is negative,
 * and the best of the visited faces kept. Written for minkowski. */
#include "simplex.h"
#include "vec.h"

/* Relative size below which a determinant is treated as zero (flat simplex). */
#define MK_SIMPLEX_FLAT_EPS 1e-13

/* A candidate answer: which of the input vertices, and their weights. */
typedef struct sub {
    int n;
    int idx[4];
    mk_real bary[4];
    mk_vec3 x;
    mk_real d2;
} sub;

static void sub_point(const mk_vec3 *w, sub *r)
{
    mk_vec3 x = v3(0, 0, 0);
    for (int i = 0; i < r->n; ++i)
        x = v3_madd(x, r->bary[i], w[r->idx[i]]);
    r->x = x;
    r->d2 = v3_len2(x);
}

static sub vertex(const mk_vec3 *w, int i)
{
    sub r = {1, {i, 0, 0, 0}, {1, 0, 0, 0}, w[i], v3_len2(w[i])};
    return r;
}

/* Segment w[i] w[j]. */
static sub s1d(const mk_vec3 *w, int i, int j)
{
    mk_vec3 a = w[i], t = v3_sub(w[j], a);
    mk_real tt = v3_len2(t);
    mk_real at = -v3_dot(a, t);
    if (!(tt > 0) || at <= 0)
        return vertex(w, i);
    if (at >= tt)
        return vertex(w, j);
    mk_real lam = at / tt;
    sub r = {2, {i, j, 0, 0}, {1 - lam, lam, 0, 0}, v3(0, 0, 0), 0};
    sub_point(w, &r);
    return r;
}

static void keep_best(sub *best, sub cand)
{
    if (cand.d2 < best->d2)
        *best = cand;
}

/* Triangle w[i] w[j] w[k]. */
static sub s2d(const mk_vec3 *w, int i, int j, int k)
{
    mk_vec3 p1 = w[i], p2 = w[j], p3 = w[k];
    mk_vec3 e1 = v3_sub(p2, p1), e2 = v3_sub(p3, p1);
    mk_vec3 n = v3_cross(e1, e2);
    mk_real nn = v3_len2(n);
    int flat = !(nn > MK_SIMPLEX_FLAT_EPS * MK_SIMPLEX_FLAT_EPS * v3_len2(e1) * v3_len2(e2));
    if (!flat) {
        /* Project the origin on the plane, then take barycentric coordinates in the
         * coordinate plane where the triangle's projection is largest. */
        mk_vec3 p0 = v3_scale(n, v3_dot(p1, n) / nn);
        mk_real an[3] = {fabs(n.x), fabs(n.y), fabs(n.z)};
        int ax = an[0] >= an[1] && an[0] >= an[2] ? 0 : (an[1] >= an[2] ? 1 : 2);
        const mk_real *P[4] = {&p0.x, &p1.x, &p2.x, &p3.x};
        int u = (ax + 1) % 3, v = (ax + 2) % 3;
        mk_real q[4][2];
        for (int m = 0; m < 4; ++m) {
            q[m][0] = P[m][u];
            q[m][1] = P[m][v];
        }
#define CROSS2(a, b, c) ((q[b][0] - q[a][0]) * (q[c][1] - q[a][1]) - (q[b][1] - q[a][1]) * (q[c][0] - q[a][0]))
        mk_real c1 = CROSS2(0, 2, 3), c2 = CROSS2(0, 3, 1), c3 = CROSS2(0, 1, 2);
#undef CROSS2
        mk_real total = c1 + c2 + c3;
        int s1 = (c1 > 0) == (total > 0) || c1 == 0;
        int s2 = (c2 > 0) == (total > 0) || c2 == 0;
        int s3 = (c3 > 0) == (total > 0) || c3 == 0;
        if (total != 0 && s1 && s2 && s3) {
            sub r = {3, {i, j, k, 0}, {c1 / total, c2 / total, c3 / total, 0}, v3(0, 0, 0), 0};
            sub_point(w, &r);
            return r;
        }
        sub best = {0, {0}, {0}, v3(0, 0, 0), INFINITY};
        if (!s1) keep_best(&best, s1d(w, j, k));
        if (!s2) keep_best(&best, s1d(w, i, k));
        if (!s3) keep_best(&best, s1d(w, i, j));
        if (best.n > 0)
            return best;
    }
    /* Flat triangle (or no sign decided): best of the three edges. */
    sub best = s1d(w, i, j);
    keep_best(&best, s1d(w, j, k));
    keep_best(&best, s1d(w, i, k));
    return best;
}

/* Tetrahedron w[0..3]. */
static sub s3d(const mk_vec3 *w)
{
    /* c[m] = signed volume with vertex m replaced by the origin; they sum to the
     * full signed volume, and c[m] / total are the barycentric coordinates. */
    mk_vec3 p1 = w[0], p2 = w[1], p3 = w[2], p4 = w[3];
    mk_real c[4];
    /* vol(a,b,c,d) = <b - a, (c - a) x (d - a)>, with one vertex replaced by 0. */
    c[0] = v3_dot(p2, v3_cross(p3, p4));                                  /* vol(0,p2,p3,p4) */
    c[1] = v3_dot(v3_neg(p1), v3_cross(v3_sub(p3, p1), v3_sub(p4, p1)));  /* vol(p1,0,p3,p4) */
    c[2] = v3_dot(v3_sub(p2, p1), v3_cross(v3_neg(p1), v3_sub(p4, p1)));  /* vol(p1,p2,0,p4) */
    c[3] = v3_dot(v3_sub(p2, p1), v3_cross(v3_sub(p3, p1), v3_neg(p1)));  /* vol(p1,p2,p3,0) */
    mk_real total = c[0] + c[1] + c[2] + c[3];
    mk_vec3 e1 = v3_sub(p2, p1), e2 = v3_sub(p3, p1), e3 = v3_sub(p4, p1);
    mk_real scale = v3_len(e1) * v3_len(e2) * v3_len(e3);
    int flat = !(fabs(total) > MK_SIMPLEX_FLAT_EPS * scale);
    int inside = !flat;
    int neg[4];
    for (int m = 0; m < 4; ++m) {
        neg[m] = flat || (c[m] != 0 && (c[m] > 0) != (total > 0));
        if (neg[m])
            inside = 0;
    }
    if (inside) {
        sub r = {4, {0, 1, 2, 3}, {c[0] / total, c[1] / total, c[2] / total, c[3] / total}, v3(0, 0, 0), 0};
        return r; /* the origin itself */
    }
    static const int face[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    sub best = {0, {0}, {0}, v3(0, 0, 0), INFINITY};
    for (int m = 0; m < 4; ++m)
        if (neg[m])
            keep_best(&best, s2d(w, face[m][0], face[m][1], face[m][2]));
    return best;
}

mk_vec3 mk_simplex_project(mk_simplex *s)
{
    sub r;
    switch (s->count) {
    case 1: r = vertex(s->w, 0); break;
    case 2: r = s1d(s->w, 0, 1); break;
    case 3: r = s2d(s->w, 0, 1, 2); break;
    default: r = s3d(s->w); break;
    }
    /* Compact in place: candidate indices are increasing, so idx[m] >= m. */
    for (int m = 0; m < r.n; ++m) {
        int i = r.idx[m];
        if (i != m) {
            s->w[m] = s->w[i];
            s->a[m] = s->a[i];
            s->b[m] = s->b[i];
        }
        s->bary[m] = r.bary[m];
    }
    s->count = r.n;
    return r.n == 4 ? v3(0, 0, 0) : r.x;
}
