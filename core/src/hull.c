/* Convex hulls: built once with Qhull (reentrant qhull_r), then read-only.
 *
 * The hull keeps what the queries need and nothing of Qhull: vertices, the
 * vertex adjacency graph (1-skeleton) for hill-climbing support, and polygonal
 * faces (Qhull merges coplanar triangles) with outward unit normals and the
 * faces through each vertex for contact manifolds. Everything lives in one
 * heap block so a hull is a single pointer that can be shared between threads.
 *
 * Hill-climbing support: on a convex polytope the linear function <d, x> has no
 * local maximum on the 1-skeleton that is not global, so steepest ascent over
 * neighbours from any start vertex ends at a support vertex. Each step strictly
 * increases <d, x>, so no vertex is visited twice and num_vertices steps bound
 * the walk. */
#include <minkowski/shape.h>

#include "support.h"
#include "vec.h"

#include <libqhull_r/qhull_ra.h>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Relative thickness below which a point set is treated as flat: the fourth
 * point's distance from the plane of the first three, over the set's extent. */
#define MK_HULL_FLAT_TOL 1e-9

/* Brute-force support: the first index of the largest <v_i, d> (strict >
 * keeps the lowest index on ties; a NaN first product keeps vertex 0). */
static int scan_scalar(const mk_vec3 *v, int n, mk_vec3 d)
{
    int best = 0;
    mk_real best_s = v3_dot(v[0], d);
    for (int i = 1; i < n; ++i) {
        mk_real s = v3_dot(v[i], d);
        if (s > best_s) {
            best_s = s;
            best = i;
        }
    }
    return best;
}

#if defined(__SSE2__)
/* The same answer as scan_scalar, two vertices per SSE2 operation (SSE2 is
 * in every x86-64), from the coordinate arrays. Products are summed in
 * v3_dot's order, (x dx + y dy) + z dz, so each is bit-identical to the
 * scalar one (-0 equals +0 in both). A NaN product (non-finite d, or
 * overflow) hands the query to scan_scalar, whose NaN behaviour is its own.
 * The scalar loop is bound by its compare-and-max chain, one per vertex.
 * Two forms, by measurement (a loop of mk_hull_support_linear calls,
 * medians of 5 runs, against the scalar loop): up to MK_HULL_TRACKED_MAX
 * vertices the lanes track their first maximum's index (8 vertices: 132 vs
 * 149 instructions a call, 7% less time); above, the products go to a
 * buffer under two running maxima and the first index holding the maximum
 * is searched after (18 vertices: 248 vs 309 instructions, 28% less time,
 * where tracking saved only 2%). */
#define MK_HULL_TRACKED_MAX 12
#define MK_HULL_BUFFERED_MAX 64

static inline __m128d dot_pair(const mk_hull *h, int i, __m128d dx, __m128d dy, __m128d dz)
{
    __m128d x = _mm_loadu_pd(h->vertex_x + i), y = _mm_loadu_pd(h->vertex_y + i), z = _mm_loadu_pd(h->vertex_z + i);
    return _mm_add_pd(_mm_add_pd(_mm_mul_pd(x, dx), _mm_mul_pd(y, dy)), _mm_mul_pd(z, dz));
}

/* Even indices in lane 0, odd in lane 1, each lane keeping its largest
 * product and the first index reaching it; the lanes then merge to the
 * lowest index of the overall maximum, which is what the scalar loop
 * returns. Needs n >= 2. */
static int scan_tracked(const mk_hull *h, mk_vec3 d)
{
    const int n = h->num_vertices;
    const __m128d dx = _mm_set1_pd(d.x), dy = _mm_set1_pd(d.y), dz = _mm_set1_pd(d.z);
    const __m128i two = _mm_set1_epi64x(2);
    __m128d best = dot_pair(h, 0, dx, dy, dz);
    __m128d nan = _mm_cmpunord_pd(best, best);
    __m128i cur = _mm_set_epi64x(1, 0), best_i = cur;
    int i = 2;
    for (; i + 1 < n; i += 2) {
        cur = _mm_add_epi64(cur, two);
        __m128d s = dot_pair(h, i, dx, dy, dz);
        nan = _mm_or_pd(nan, _mm_cmpunord_pd(s, s));
        __m128i gt = _mm_castpd_si128(_mm_cmpgt_pd(s, best));
        best = _mm_max_pd(s, best); /* s > best ? s : best */
        best_i = _mm_or_si128(_mm_and_si128(gt, cur), _mm_andnot_si128(gt, best_i));
    }
    if (_mm_movemask_pd(nan))
        return scan_scalar(h->vertices, n, d);
    mk_real bs[2];
    long long bi[2];
    _mm_storeu_pd(bs, best);
    _mm_storeu_si128((__m128i *)bi, best_i);
    /* lane 1 wins when larger, or equal with a lower first index */
    int lane = bs[1] > bs[0] || (bs[1] == bs[0] && bi[1] < bi[0]);
    int r = (int)bi[lane];
    if (i < n && v3_dot(h->vertices[i], d) > bs[lane]) /* odd count: the last vertex */
        r = i;
    return r;
}

/* Products into a buffer, two running maxima (four vertices per step),
 * then the first index holding the largest. Needs 4 <= n <=
 * MK_HULL_BUFFERED_MAX. */
static int scan_buffered(const mk_hull *h, mk_vec3 d)
{
    const int n = h->num_vertices;
    const __m128d dx = _mm_set1_pd(d.x), dy = _mm_set1_pd(d.y), dz = _mm_set1_pd(d.z);
    mk_real s[MK_HULL_BUFFERED_MAX];
    __m128d m0 = dot_pair(h, 0, dx, dy, dz), m1 = dot_pair(h, 2, dx, dy, dz);
    __m128d nan = _mm_cmpunord_pd(m0, m1);
    _mm_storeu_pd(s, m0);
    _mm_storeu_pd(s + 2, m1);
    int i = 4;
    for (; i + 3 < n; i += 4) {
        __m128d a = dot_pair(h, i, dx, dy, dz), b = dot_pair(h, i + 2, dx, dy, dz);
        _mm_storeu_pd(s + i, a);
        _mm_storeu_pd(s + i + 2, b);
        nan = _mm_or_pd(nan, _mm_cmpunord_pd(a, b));
        m0 = _mm_max_pd(a, m0);
        m1 = _mm_max_pd(b, m1);
    }
    if (i + 1 < n) {
        __m128d a = dot_pair(h, i, dx, dy, dz);
        _mm_storeu_pd(s + i, a);
        nan = _mm_or_pd(nan, _mm_cmpunord_pd(a, a));
        m0 = _mm_max_pd(a, m0);
        i += 2;
    }
    m0 = _mm_max_pd(m0, m1);
    mk_real top[2];
    _mm_storeu_pd(top, m0);
    mk_real best = top[0] > top[1] ? top[0] : top[1];
    if (i < n) { /* odd count: the last vertex */
        s[i] = v3_dot(h->vertices[i], d);
        best = s[i] > best ? s[i] : best;
    }
    if (_mm_movemask_pd(nan) || best != best)
        return scan_scalar(h->vertices, n, d);
    /* best is one of s[0..n): find the first, four at a time, then within */
    const __m128d b = _mm_set1_pd(best);
    int k = 0;
    for (; k + 3 < n; k += 4) {
        __m128d eq = _mm_or_pd(_mm_cmpeq_pd(_mm_loadu_pd(s + k), b), _mm_cmpeq_pd(_mm_loadu_pd(s + k + 2), b));
        if (_mm_movemask_pd(eq))
            break;
    }
    while (k < n - 1 && s[k] != best)
        ++k;
    return k;
}
#endif

int mk_hull_support_linear(const mk_hull *h, mk_vec3 d)
{
#if defined(__SSE2__)
    const int n = h->num_vertices;
    if (h->vertex_x && n >= 2)
        return n <= MK_HULL_TRACKED_MAX ? scan_tracked(h, d)
               : n <= MK_HULL_BUFFERED_MAX ? scan_buffered(h, d) : scan_scalar(h->vertices, n, d);
#endif
    return scan_scalar(h->vertices, h->num_vertices, d);
}

int mk_hull_support_climb(const mk_hull *h, mk_vec3 d, int start)
{
    return hull_climb(h, d, start);
}

void mk_hull_destroy(mk_hull *hull)
{
    free(hull);
}

/* Is the point set thick enough to have a volume? Picks the farthest pair,
 * the point farthest from their line, and the point farthest from that plane
 * (the usual initial-simplex heuristic), and compares the last distance with
 * the extent of the set. */
static int has_volume(const mk_vec3 *p, int n)
{
    int i0 = 0, i1 = 0;
    for (int i = 1; i < n; ++i) {
        if (p[i].x < p[i0].x)
            i0 = i;
    }
    mk_real best = -1;
    for (int i = 0; i < n; ++i) {
        mk_real d = v3_len2(v3_sub(p[i], p[i0]));
        if (d > best) {
            best = d;
            i1 = i;
        }
    }
    mk_real extent = sqrt(best);
    if (!(extent > 0))
        return 0;
    mk_vec3 e = v3_scale(v3_sub(p[i1], p[i0]), 1 / extent);
    int i2 = i0;
    best = -1;
    for (int i = 0; i < n; ++i) {
        mk_vec3 q = v3_sub(p[i], p[i0]);
        mk_real d = v3_len2(v3_sub(q, v3_scale(e, v3_dot(q, e))));
        if (d > best) {
            best = d;
            i2 = i;
        }
    }
    if (!(sqrt(best) > MK_HULL_FLAT_TOL * extent))
        return 0;
    mk_vec3 nrm = v3_cross(v3_sub(p[i1], p[i0]), v3_sub(p[i2], p[i0]));
    nrm = v3_scale(nrm, 1 / v3_len(nrm));
    best = 0;
    for (int i = 0; i < n; ++i) {
        mk_real d = fabs(v3_dot(v3_sub(p[i], p[i0]), nrm));
        if (d > best)
            best = d;
    }
    return best > MK_HULL_FLAT_TOL * extent;
}

/* Qhull prints diagnostics to errfile; keep libraries quiet. */
static FILE *quiet_file(void)
{
    FILE *f = fopen("/dev/null", "w");
    return f ? f : stderr;
}

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

typedef struct {
    mk_real angle;
    int vertex;
} angle_key;

/* Sorts a face's vertices counter-clockwise about its outward normal n. */
static void order_face(const mk_vec3 *verts, int *ids, int count, mk_vec3 n, angle_key *keys)
{
    mk_vec3 c = v3(0, 0, 0);
    for (int i = 0; i < count; ++i)
        c = v3_add(c, verts[ids[i]]);
    c = v3_scale(c, (mk_real)1 / count);
    mk_vec3 u = v3_sub(verts[ids[0]], c);
    u = v3_sub(u, v3_scale(n, v3_dot(u, n)));
    mk_real ul = v3_len(u);
    u = ul > 0 ? v3_scale(u, 1 / ul) : v3(1, 0, 0);
    mk_vec3 w = v3_cross(n, u);
    for (int i = 0; i < count; ++i) {
        mk_vec3 q = v3_sub(verts[ids[i]], c);
        keys[i].angle = atan2(v3_dot(q, w), v3_dot(q, u));
        keys[i].vertex = ids[i];
    }
    for (int i = 1; i < count; ++i) { /* insertion sort: faces are small */
        angle_key k = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j].angle > k.angle) {
            keys[j + 1] = keys[j];
            --j;
        }
        keys[j + 1] = k;
    }
    for (int i = 0; i < count; ++i)
        ids[i] = keys[i].vertex;
}

/* Newell's normal of a polygon (robust for nearly collinear vertices). */
static mk_vec3 newell_normal(const mk_vec3 *verts, const int *ids, int count)
{
    mk_vec3 n = v3(0, 0, 0);
    for (int i = 0; i < count; ++i) {
        mk_vec3 a = verts[ids[i]], b = verts[ids[(i + 1) % count]];
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    return n;
}

/* Direction to point (u, w) of cube face `face` (the inverse of
 * hull_start_index's face and coordinate choice). */
static mk_vec3 cube_dir(int face, mk_real u, mk_real w)
{
    mk_real m = face & 1 ? -1 : 1;
    return face < 2 ? v3(m, u, w) : face < 4 ? v3(w, m, u) : v3(u, w, m);
}

/* Start-table resolution for a hull of nv vertices (shape.h): none where
 * support scans linearly, else about 2 sqrt(nv) cells per cube edge (6 * 4 nv
 * cells, ~100 bytes per vertex, the candidate lists about as much again up to
 * 240 vertices), from 8 to 32. */
static int start_res(int nv)
{
    if (nv <= MK_HULL_LINEAR_SCAN_MAX)
        return 0;
    int r = (int)ceil(2 * sqrt((double)nv));
    return r < 8 ? 8 : r > 32 ? 32 : r;
}

/* Linear form of the directions of cube face `face`: cube_dir(face, u, w) =
 * base + u eu + w ew. */
static void cube_frame(int face, mk_vec3 *base, mk_vec3 *eu, mk_vec3 *ew)
{
    *base = cube_dir(face, 0, 0);
    *eu = v3_sub(cube_dir(face, 1, 0), *base);
    *ew = v3_sub(cube_dir(face, 0, 1), *base);
}

/* Clips the convex polygon (cu, cw)[0 .. *count) by the half-plane
 * <v - n, d(u, w)> >= 0 of directions where v beats n, widened by a relative
 * 1e-9 (see extreme_in_cell), into (nu, nw); returns 0 when the result has
 * more corners than cap (rounding: a convex clip adds at most one). */
static int clip_cell(mk_vec3 v, mk_vec3 n, mk_vec3 base, mk_vec3 eu, mk_vec3 ew, const mk_real *cu, const mk_real *cw,
                     int *count, mk_real *nu, mk_real *nw, int cap)
{
    mk_vec3 e = v3_sub(v, n);
    mk_real a = v3_dot(e, base), b = v3_dot(e, eu), c = v3_dot(e, ew);
    mk_real tol = 1e-9 * (fabs(a) + fabs(b) + fabs(c));
    int out = 0;
    for (int i = 0; i < *count; ++i) { /* Sutherland-Hodgman against a + b u + c w >= -tol */
        int j = i + 1 < *count ? i + 1 : 0;
        mk_real gi = a + b * cu[i] + c * cw[i] + tol, gj = a + b * cu[j] + c * cw[j] + tol;
        if (out + 2 > cap)
            return 0;
        if (gi >= 0) {
            nu[out] = cu[i], nw[out] = cw[i], ++out;
        }
        if ((gi >= 0) != (gj >= 0)) {
            mk_real t = gi / (gi - gj);
            nu[out] = cu[i] + t * (cu[j] - cu[i]), nw[out] = cw[i] + t * (cw[j] - cw[i]), ++out;
        }
    }
    *count = out;
    return 1;
}

/* Whether vertex v is extreme for some direction of the cell [u0, u1] x
 * [w0, w1] of a cube face (frame from cube_frame): the cell's square, clipped
 * by <v - n, d(u, w)> >= 0 for every neighbour n of v (the vertex's normal
 * cone, exact on a convex polytope's edge graph), is not empty. Each clip is
 * widened by a relative 1e-9, so a vertex extreme somewhere in the cell always
 * passes; one that passes wrongly only lengthens the cell's candidate list.
 * The clip against neighbour `first` goes first: it is the vertex the search
 * came from, extreme nearby, and empties the square of most vertices at once.
 * pu, pw: scratch of 2 * (4 + degree of v) reals each. */
static int extreme_in_cell(const mk_hull *h, int v, int first, mk_vec3 base, mk_vec3 eu, mk_vec3 ew, mk_real u0,
                           mk_real u1, mk_real w0, mk_real w1, mk_real *pu, mk_real *pw)
{
    const int cap = 4 + h->adj_start[v + 1] - h->adj_start[v];
    mk_real *cu = pu, *cw = pw, *nu = pu + cap, *nw = pw + cap;
    int count = 4;
    cu[0] = u0, cw[0] = w0, cu[1] = u1, cw[1] = w0, cu[2] = u1, cw[2] = w1, cu[3] = u0, cw[3] = w1;
    const mk_vec3 pv = h->vertices[v];
    for (int k = h->adj_start[v] - 1; k < h->adj_start[v + 1] && count > 0; ++k) {
        int n = k < h->adj_start[v] ? first : h->adj[k];
        if (k >= h->adj_start[v] && n == first)
            continue;
        if (!clip_cell(pv, h->vertices[n], base, eu, ew, cu, cw, &count, nu, nw, cap))
            return 1; /* more corners than a convex clip makes: keep v */
        mk_real *t = cu;
        cu = nu, nu = t, t = cw, cw = nw, nw = t;
    }
    return count > 0;
}

/* Whether the cell [u0, u1] x [w0, w1] lies in v's normal cone: every corner
 * direction has v at least as high as each neighbour (the cone is convex and
 * the cell's cone is spanned by its corner rays). */
static int cell_in_cone(const mk_hull *h, int v, mk_vec3 base, mk_vec3 eu, mk_vec3 ew, mk_real u0, mk_real u1,
                        mk_real w0, mk_real w1)
{
    for (int c = 0; c < 4; ++c) {
        mk_vec3 d = v3_add(base, v3_add(v3_scale(eu, c & 1 ? u1 : u0), v3_scale(ew, c & 2 ? w1 : w0)));
        mk_real sv = v3_dot(h->vertices[v], d);
        for (int k = h->adj_start[v]; k < h->adj_start[v + 1]; ++k)
            if (v3_dot(h->vertices[h->adj[k]], d) > sv)
                return 0;
    }
    return 1;
}

/* Start table (shape.h). Each cell's vertex c is extreme along the cell's
 * centre direction, found by climbing from the previous cell's answer (exact
 * from any start, cheap between neighbouring directions). Then the cell's
 * candidates: every vertex extreme for some direction of the cell. The
 * normal cones of these tile the cell's cone, neighbouring tiles are joined by
 * hull edges and the cell is convex, so they are the vertices reached from c
 * over edges through vertices that pass extreme_in_cell. One candidate: the
 * cell is certain; up to MK_HULL_START_LIST: the cell keeps the list, whose
 * best vertex along any direction of the cell is its support (no climb);
 * more: support climbs from c. `lists` gets the lists (returned; NULL and
 * *list_len 0 when there are none; *failed set when out of memory). */
#define MK_HULL_START_LIST 5
static int *build_start_table(mk_hull *h, int *table, size_t *list_len, int *failed)
{
    const int R = h->start_res, nv = h->num_vertices;
    *list_len = 0;
    *failed = 0;
    if (R == 0)
        return NULL;
    int prev = mk_hull_support_linear(h, v3(1, 0, 0));
    for (int face = 0; face < 6; ++face)
        for (int iu = 0; iu < R; ++iu)
            for (int iv = 0; iv < R; ++iv) {
                mk_real u = -1 + (2 * iu + 1) / (mk_real)R, w = -1 + (2 * iv + 1) / (mk_real)R;
                prev = hull_climb_from(h, cube_dir(face, u, w), prev);
                table[(face * R + iu) * R + iv] = prev;
            }

    int max_deg = 0;
    for (int v = 0; v < nv; ++v)
        if (h->adj_start[v + 1] - h->adj_start[v] > max_deg)
            max_deg = h->adj_start[v + 1] - h->adj_start[v];
    size_t cap = 6 * (size_t)R * R, len = 0;
    int *lists = malloc(sizeof(int) * cap);
    mk_real *scratch = malloc(sizeof(mk_real) * 4 * (size_t)(4 + max_deg));
    unsigned char *seen = calloc((size_t)nv, 1);
    int cand[MK_HULL_START_LIST + 1];
    if (!lists || !scratch || !seen) {
        free(lists), free(scratch), free(seen);
        *failed = 1;
        return NULL;
    }
    for (int face = 0; face < 6; ++face) {
        mk_vec3 base, eu, ew;
        cube_frame(face, &base, &eu, &ew);
        for (int iu = 0; iu < R; ++iu)
            for (int iv = 0; iv < R; ++iv) {
                int *cell = &table[(face * R + iu) * R + iv];
                mk_real u0 = -1 + 2 * iu / (mk_real)R, u1 = -1 + 2 * (iu + 1) / (mk_real)R;
                mk_real w0 = -1 + 2 * iv / (mk_real)R, w1 = -1 + 2 * (iv + 1) / (mk_real)R;
                int k = 1;
                cand[0] = *cell;
                if (cell_in_cone(h, *cell, base, eu, ew, u0, u1, w0, w1)) {
                    *cell = ~(*cell << 1);
                    continue;
                }
                seen[*cell] = 1;
                for (int i = 0; i < k && k <= MK_HULL_START_LIST; ++i)
                    for (int j = h->adj_start[cand[i]]; j < h->adj_start[cand[i] + 1] && k <= MK_HULL_START_LIST; ++j) {
                        int n = h->adj[j];
                        if (seen[n])
                            continue;
                        seen[n] = 1;
                        if (extreme_in_cell(h, n, cand[i], base, eu, ew, u0, u1, w0, w1, scratch,
                                            scratch + 2 * (4 + max_deg)))
                            cand[k++] = n;
                    }
                /* unmark every vertex seen: the candidates and their neighbours */
                for (int i = 0; i < k; ++i) {
                    seen[cand[i]] = 0;
                    for (int j = h->adj_start[cand[i]]; j < h->adj_start[cand[i] + 1]; ++j)
                        seen[h->adj[j]] = 0;
                }
                if (k == 1) {
                    *cell = ~(cand[0] << 1);
                } else if (k <= MK_HULL_START_LIST && len <= (size_t)INT_MAX >> 3) {
                    if (len + (size_t)k > cap) {
                        size_t ncap = 2 * cap + (size_t)k;
                        int *grown = realloc(lists, sizeof(int) * ncap);
                        if (!grown) {
                            free(lists), free(scratch), free(seen);
                            *failed = 1;
                            return NULL;
                        }
                        lists = grown, cap = ncap;
                    }
                    *cell = ~(int)((len << 3) | (size_t)(k - 2) << 1 | 1);
                    memcpy(lists + len, cand, sizeof(int) * (size_t)k);
                    len += (size_t)k;
                }
            }
    }
    free(scratch);
    free(seen);
    *list_len = len;
    if (len == 0) {
        free(lists);
        return NULL;
    }
    return lists;
}

/* Relative tolerance of the box recognition (normals, extents, corners). */
#define MK_HULL_BOX_TOL 1e-12

/* Is the hull a rectangular box? Its faces must come in opposite pairs along
 * three orthogonal axes and every vertex must be a corner of the box those
 * faces bound (to MK_HULL_BOX_TOL of its size); then the box's pose in the
 * hull frame and its half extents. */
static int recognise_box(const mk_vec3 *verts, int nv, const mk_vec3 *normals, const mk_real *offsets, int nf,
                         mk_transform *pose, mk_vec3 *half)
{
    if (nv != 8 || nf != 6)
        return 0;
    int axis_face[3], opp_face[3], na = 0, used[6] = {0};
    for (int f = 0; f < 6 && na < 3; ++f) {
        if (used[f])
            continue;
        int g = -1;
        for (int q = f + 1; q < 6; ++q)
            if (!used[q] && v3_dot(normals[f], normals[q]) < -1 + MK_HULL_BOX_TOL)
                g = q;
        if (g < 0)
            return 0;
        used[f] = used[g] = 1;
        axis_face[na] = f;
        opp_face[na] = g;
        ++na;
    }
    if (na != 3)
        return 0;
    mk_vec3 ax[3];
    mk_real h[3], c[3], size = 0;
    for (int i = 0; i < 3; ++i) {
        ax[i] = normals[axis_face[i]];
        /* bounded by <ax, x> <= offsets[f] and <-ax, x> <= offsets[g] */
        h[i] = 0.5 * (offsets[axis_face[i]] + offsets[opp_face[i]]);
        c[i] = 0.5 * (offsets[axis_face[i]] - offsets[opp_face[i]]);
        if (!(h[i] > 0))
            return 0;
        size = fmax(size, fabs(c[i]) + h[i]);
    }
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (!(fabs(v3_dot(ax[i], ax[j])) <= MK_HULL_BOX_TOL))
                return 0;
    if (v3_dot(v3_cross(ax[0], ax[1]), ax[2]) < 0)
        ax[2] = v3_neg(ax[2]), c[2] = -c[2];
    const mk_vec3 centre = v3_add(v3_add(v3_scale(ax[0], c[0]), v3_scale(ax[1], c[1])), v3_scale(ax[2], c[2]));
    for (int v = 0; v < nv; ++v) {
        const mk_vec3 d = v3_sub(verts[v], centre);
        for (int i = 0; i < 3; ++i)
            if (!(fabs(fabs(v3_dot(d, ax[i])) - h[i]) <= MK_HULL_BOX_TOL * size))
                return 0;
    }
    for (int r = 0; r < 3; ++r) {
        pose->R.m[r][0] = v3_comp(ax[0], r);
        pose->R.m[r][1] = v3_comp(ax[1], r);
        pose->R.m[r][2] = v3_comp(ax[2], r);
    }
    pose->p = centre;
    *half = v3(h[0], h[1], h[2]);
    return 1;
}

/* ------------------------------------------------------------ contact faces */

/* A vertex seen along a region's normal: coordinates in its plane, index. */
typedef struct seen_vertex {
    mk_real u, w;
    int id;
} seen_vertex;

static int seen_order(const void *a, const void *b)
{
    const seen_vertex *p = a, *q = b;
    if (p->u != q->u)
        return p->u < q->u ? -1 : 1;
    if (p->w != q->w)
        return p->w < q->w ? -1 : 1;
    return (p->id > q->id) - (p->id < q->id);
}

static inline mk_real turn(const seen_vertex *a, const seen_vertex *b, const seen_vertex *c)
{
    return (b->u - a->u) * (c->w - a->w) - (b->w - a->w) * (c->u - a->u);
}

/* The contact regions of mk_hull.face_region (see shape.h), in malloc'd
 * arrays: face_region (nf), start (n + 1), corners, face (n). */
typedef struct regions {
    int n;
    size_t num_corners;
    int *face_region, *start, *corners, *face;
} regions;

static void free_regions(regions *R)
{
    free(R->face_region);
    free(R->start);
    free(R->corners);
    free(R->face);
    memset(R, 0, sizeof *R);
}

/* Outline of the vertices pts[0 .. k) (sorted by seen_order): Andrew's
 * monotone chain, counter-clockwise, collinear points dropped, into out
 * (room for k + 1); then the flattest corners dropped (the smallest triangle
 * with its neighbours, Visvalingam's rule) down to MK_HULL_CONTACT_CORNERS.
 * Returns the corner count. */
static int outline(const seen_vertex *pts, int k, seen_vertex *out)
{
    int m = 0;
    for (int i = 0; i < k; ++i) {
        while (m >= 2 && !(turn(&out[m - 2], &out[m - 1], &pts[i]) > 0))
            --m;
        out[m++] = pts[i];
    }
    for (int i = k - 2, lower = m + 1; i >= 0; --i) {
        while (m >= lower && !(turn(&out[m - 2], &out[m - 1], &pts[i]) > 0))
            --m;
        out[m++] = pts[i];
    }
    --m; /* the first corner closes the chain */
    while (m > MK_HULL_CONTACT_CORNERS) {
        int drop = 0;
        mk_real least = INFINITY;
        for (int i = 0; i < m; ++i) {
            const mk_real a = turn(&out[(i + m - 1) % m], &out[i], &out[(i + 1) % m]);
            if (a < least) {
                least = a;
                drop = i;
            }
        }
        memmove(out + drop, out + drop + 1, sizeof *out * (size_t)(m - 1 - drop));
        --m;
    }
    return m;
}

/* Fills R; MK_OUT_OF_MEMORY when an allocation fails (R freed). */
static mk_status build_regions(const mk_vec3 *verts, int nv, const mk_vec3 *normals, int nf, const int *face_start,
                               const int *face_vertices, const int *vf_start, const int *vf, regions *R)
{
    memset(R, 0, sizeof *R);
    const mk_real cmin = 1 - 0.5 * MK_HULL_FLAT_ANGLE * MK_HULL_FLAT_ANGLE;
    int *queue = malloc(sizeof(int) * (size_t)nf), *stamp = calloc((size_t)nv, sizeof(int));
    seen_vertex *pts = malloc(sizeof(seen_vertex) * (size_t)nv), *ring = malloc(sizeof(seen_vertex) * (size_t)(nv + 1));
    R->face_region = malloc(sizeof(int) * (size_t)nf);
    R->start = malloc(sizeof(int) * (size_t)(nf + 1));
    R->face = malloc(sizeof(int) * (size_t)nf);
    size_t cap = 64;
    R->corners = malloc(sizeof(int) * cap);
    mk_status st = MK_OK;
    if (!queue || !stamp || !pts || !ring || !R->face_region || !R->start || !R->face || !R->corners) {
        st = MK_OUT_OF_MEMORY;
        goto done;
    }
    for (int f = 0; f < nf; ++f)
        R->face_region[f] = -2; /* not yet seen */
    R->start[0] = 0;
    for (int f = 0; f < nf; ++f) {
        if (R->face_region[f] != -2)
            continue;
        /* the faces within the flat angle of f, through shared vertices */
        const mk_vec3 nrm = normals[f];
        int nq = 0;
        queue[nq++] = f;
        R->face_region[f] = R->n;
        for (int qi = 0; qi < nq; ++qi) {
            const int g = queue[qi];
            for (int j = face_start[g]; j < face_start[g + 1]; ++j) {
                const int v = face_vertices[j];
                for (int t = vf_start[v]; t < vf_start[v + 1]; ++t) {
                    const int e = vf[t];
                    if (R->face_region[e] == -2 && v3_dot(normals[e], nrm) >= cmin) {
                        R->face_region[e] = R->n;
                        queue[nq++] = e;
                    }
                }
            }
        }
        if (nq == 1 && face_start[f + 1] - face_start[f] <= MK_HULL_CONTACT_CORNERS) {
            R->face_region[f] = -1; /* its own contact face */
            continue;
        }
        /* their vertices seen along f's normal */
        mk_vec3 u, w;
        v3_across(nrm, &u, &w);
        int k = 0;
        for (int qi = 0; qi < nq; ++qi) {
            const int g = queue[qi];
            for (int j = face_start[g]; j < face_start[g + 1]; ++j) {
                const int v = face_vertices[j];
                if (stamp[v] == f + 1)
                    continue;
                stamp[v] = f + 1;
                pts[k++] = (seen_vertex){v3_dot(verts[v], u), v3_dot(verts[v], w), v};
            }
        }
        qsort(pts, (size_t)k, sizeof *pts, seen_order);
        const int m = outline(pts, k, ring);
        if (m < 3) { /* no area: the faces stand as they are */
            for (int qi = 0; qi < nq; ++qi)
                R->face_region[queue[qi]] = -1;
            continue;
        }
        int first = 0;
        mk_real top = -INFINITY;
        for (int q = 0; q < m; ++q) {
            const mk_real h = v3_dot(verts[ring[q].id], nrm);
            if (h > top || (h == top && ring[q].id < ring[first].id)) {
                top = h;
                first = q;
            }
        }
        if (R->num_corners + (size_t)m > cap) {
            while (R->num_corners + (size_t)m > cap)
                cap *= 2;
            int *grown = realloc(R->corners, sizeof(int) * cap);
            if (!grown) {
                st = MK_OUT_OF_MEMORY;
                goto done;
            }
            R->corners = grown;
        }
        for (int q = 0; q < m; ++q)
            R->corners[R->num_corners++] = ring[(first + q) % m].id;
        R->face[R->n] = f;
        R->start[++R->n] = (int)R->num_corners;
    }
done:
    free(queue);
    free(stamp);
    free(pts);
    free(ring);
    if (st != MK_OK)
        free_regions(R);
    return st;
}

/* Byte offsets of a hull block's arrays (the mk_hull itself at 0). */
typedef struct hull_layout {
    size_t vertices, normals, offsets, coords, adj_start, adj, face_start, face_vertices, vf_start, vf, table, list;
} hull_layout;

/* Points the hull at the head of `block` to its arrays (start_list: only with
 * has_list, else NULL). */
static void attach(unsigned char *block, const hull_layout *L, int nv, int has_list)
{
    mk_hull *h = (mk_hull *)block;
    h->vertices = (const mk_vec3 *)(block + L->vertices);
    h->face_normals = (const mk_vec3 *)(block + L->normals);
    h->face_offsets = (const mk_real *)(block + L->offsets);
    h->vertex_x = (const mk_real *)(block + L->coords);
    h->vertex_y = h->vertex_x + nv;
    h->vertex_z = h->vertex_x + 2 * (size_t)nv;
    h->adj_start = (const int *)(block + L->adj_start);
    h->adj = (const int *)(block + L->adj);
    h->face_start = (const int *)(block + L->face_start);
    h->face_vertices = (const int *)(block + L->face_vertices);
    h->vert_face_start = (const int *)(block + L->vf_start);
    h->vert_faces = (const int *)(block + L->vf);
    h->start_vertex = (const int *)(block + L->table);
    h->start_list = has_list ? (const int *)(block + L->list) : NULL;
}

/* Builds the mk_hull block from Qhull's facets. Vertex ids were stored in
 * vertex->visitid by the caller. */
static mk_status build_block(qhT *qh, mk_hull **out)
{
    int nv = qh->num_vertices, nf = qh->num_facets;
    facetT *facet;
    vertexT *vertex, **vertexp;
    size_t total_fv = 0;
    int max_face = 0;
    FORALLfacets {
        int k = qh_setsize(qh, facet->vertices);
        total_fv += (size_t)k;
        if (k > max_face)
            max_face = k;
    }
    if (total_fv > INT32_MAX / 2 || nv < 4 || nf < 4)
        return MK_DEGENERATE_HULL;

    hull_layout L;
    L.vertices = align8(sizeof(mk_hull));
    L.normals = L.vertices + sizeof(mk_vec3) * (size_t)nv;
    L.offsets = L.normals + sizeof(mk_vec3) * (size_t)nf;
    L.coords = L.offsets + sizeof(mk_real) * (size_t)nf; /* x, y, z arrays of nv each */
    L.adj_start = align8(L.coords + 3 * sizeof(mk_real) * (size_t)nv);
    L.adj = L.adj_start + sizeof(int) * (size_t)(nv + 1);
    L.face_start = L.adj + sizeof(int) * total_fv; /* one directed edge per face corner */
    L.face_vertices = L.face_start + sizeof(int) * (size_t)(nf + 1);
    L.vf_start = L.face_vertices + sizeof(int) * total_fv;
    L.vf = L.vf_start + sizeof(int) * (size_t)(nv + 1); /* one entry per face corner */
    int res = start_res(nv);
    L.table = L.vf + sizeof(int) * total_fv;
    L.list = L.table + sizeof(int) * 6 * (size_t)res * (size_t)res; /* the block ends here without lists */

    unsigned char *block = calloc(1, L.list);
    angle_key *keys = malloc(sizeof(angle_key) * (size_t)max_face);
    if (!block || !keys) {
        free(block);
        free(keys);
        return MK_OUT_OF_MEMORY;
    }
    mk_hull *h = (mk_hull *)block;
    attach(block, &L, nv, 0);
    mk_vec3 *verts = (mk_vec3 *)(block + L.vertices);
    mk_vec3 *normals = (mk_vec3 *)(block + L.normals);
    mk_real *offsets = (mk_real *)(block + L.offsets);
    int *adj_start = (int *)(block + L.adj_start);
    int *adj = (int *)(block + L.adj);
    int *face_start = (int *)(block + L.face_start);
    int *face_vertices = (int *)(block + L.face_vertices);
    int *vf_start = (int *)(block + L.vf_start);
    int *vf = (int *)(block + L.vf);

    mk_real *coords = (mk_real *)(block + L.coords);
    FORALLvertices {
        int id = (int)vertex->visitid;
        verts[id] = v3(vertex->point[0], vertex->point[1], vertex->point[2]);
        coords[id] = verts[id].x;
        coords[nv + id] = verts[id].y;
        coords[2 * nv + id] = verts[id].z;
    }

    /* Faces: vertex ids ordered counter-clockwise about Qhull's outward normal. */
    int f = 0, pos = 0;
    FORALLfacets {
        face_start[f] = pos;
        int *ids = face_vertices + pos;
        int k = 0;
        FOREACHvertex_(facet->vertices)
            ids[k++] = (int)vertex->visitid;
        mk_vec3 qn = v3(facet->normal[0], facet->normal[1], facet->normal[2]);
        order_face(verts, ids, k, qn, keys);
        mk_vec3 n = newell_normal(verts, ids, k);
        mk_real len = v3_len(n);
        n = (len > 0 && v3_dot(n, qn) > 0) ? v3_scale(n, 1 / len) : qn;
        normals[f] = n;
        pos += k;
        ++f;
    }
    face_start[nf] = pos;
    free(keys);

    /* Offsets: the support value of the whole vertex set along each normal, so
     * <n, x> <= offset holds for every vertex exactly (no Qhull round-off). */
    for (int i = 0; i < nf; ++i) {
        mk_real m = -INFINITY;
        for (int v = 0; v < nv; ++v) {
            mk_real s = v3_dot(normals[i], verts[v]);
            if (s > m)
                m = s;
        }
        offsets[i] = m;
    }

    /* Adjacency: every directed edge a->b of a counter-clockwise face appears
     * in exactly one face, so collecting b for each a lists each neighbour once. */
    for (int i = 0; i < nf; ++i) {
        for (int j = face_start[i]; j < face_start[i + 1]; ++j)
            adj_start[face_vertices[j] + 1]++;
    }
    for (int v = 0; v < nv; ++v)
        adj_start[v + 1] += adj_start[v];
    int *fill = calloc((size_t)nv, sizeof(int));
    if (!fill) {
        free(block);
        return MK_OUT_OF_MEMORY;
    }
    for (int i = 0; i < nf; ++i) {
        int s = face_start[i], e = face_start[i + 1];
        for (int j = s; j < e; ++j) {
            int a = face_vertices[j], b = face_vertices[j + 1 < e ? j + 1 : s];
            adj[adj_start[a] + fill[a]++] = b;
        }
    }

    /* Faces through each vertex: the face lists inverted. Faces are visited in
     * increasing index, so each vertex's list comes out sorted (the manifold's
     * tie rule, lower face index first, relies on it). fill is reused. */
    for (int i = 0; i < nf; ++i) {
        for (int j = face_start[i]; j < face_start[i + 1]; ++j)
            vf_start[face_vertices[j] + 1]++;
    }
    for (int v = 0; v < nv; ++v)
        vf_start[v + 1] += vf_start[v];
    memset(fill, 0, sizeof(int) * (size_t)nv);
    for (int i = 0; i < nf; ++i) {
        for (int j = face_start[i]; j < face_start[i + 1]; ++j) {
            int a = face_vertices[j];
            vf[vf_start[a] + fill[a]++] = i;
        }
    }
    free(fill);

    regions R;
    if (build_regions(verts, nv, normals, nf, face_start, face_vertices, vf_start, vf, &R) != MK_OK) {
        free(block);
        return MK_OUT_OF_MEMORY;
    }

    /* Bounding box, volume centroid (tetrahedra fanned from the vertex mean),
     * inradius about the centroid. */
    mk_vec3 lo = verts[0], hi = verts[0], mean = v3(0, 0, 0);
    for (int v = 0; v < nv; ++v) {
        lo = v3(fmin(lo.x, verts[v].x), fmin(lo.y, verts[v].y), fmin(lo.z, verts[v].z));
        hi = v3(fmax(hi.x, verts[v].x), fmax(hi.y, verts[v].y), fmax(hi.z, verts[v].z));
        mean = v3_add(mean, verts[v]);
    }
    mean = v3_scale(mean, (mk_real)1 / nv);
    mk_real volume = 0;
    mk_vec3 moment = v3(0, 0, 0);
    for (int i = 0; i < nf; ++i) {
        int s = face_start[i], e = face_start[i + 1];
        mk_vec3 a = v3_sub(verts[face_vertices[s]], mean);
        for (int j = s + 1; j + 1 < e; ++j) {
            mk_vec3 b = v3_sub(verts[face_vertices[j]], mean);
            mk_vec3 c = v3_sub(verts[face_vertices[j + 1]], mean);
            mk_real vol6 = v3_dot(a, v3_cross(b, c));
            volume += vol6;
            moment = v3_add(moment, v3_scale(v3_add(v3_add(a, b), c), vol6));
        }
    }
    mk_vec3 centroid = volume > 0 ? v3_add(mean, v3_scale(moment, (mk_real)1 / (4 * volume))) : mean;
    mk_real inradius = INFINITY;
    for (int i = 0; i < nf; ++i) {
        mk_real d = offsets[i] - v3_dot(normals[i], centroid);
        if (d < inradius)
            inradius = d;
    }
    if (!(volume > 0) || !(inradius > 0)) {
        free(block);
        free_regions(&R);
        return MK_DEGENERATE_HULL;
    }

    h->num_vertices = nv;
    h->num_faces = nf;
    h->box = recognise_box(verts, nv, normals, offsets, nf, &h->box_pose, &h->box_half_extents);
    h->aabb_min = lo;
    h->aabb_max = hi;
    h->centroid = centroid;
    h->inradius = inradius;
    h->start_res = res;
    size_t list_len;
    int failed;
    int *lists = build_start_table(h, (int *)(block + L.table), &list_len, &failed);
    if (failed) {
        free(block);
        free_regions(&R);
        return MK_OUT_OF_MEMORY;
    }
    /* The lists, then the contact regions, join the block's end; it may
     * move, so every pointer is set again. */
    const size_t regions_at = L.list + sizeof(int) * list_len;
    const size_t region_ints = R.n > 0 ? (size_t)nf + (size_t)(R.n + 1) + R.num_corners + (size_t)R.n : 0;
    if (list_len > 0 || region_ints > 0) {
        unsigned char *grown = realloc(block, regions_at + sizeof(int) * region_ints);
        if (!grown) {
            free(block);
            free(lists);
            free_regions(&R);
            return MK_OUT_OF_MEMORY;
        }
        block = grown;
        h = (mk_hull *)block;
        if (list_len > 0)
            memcpy(block + L.list, lists, sizeof(int) * list_len);
        free(lists);
        attach(block, &L, nv, list_len > 0);
        if (region_ints > 0) {
            int *p = (int *)(block + regions_at);
            memcpy(p, R.face_region, sizeof(int) * (size_t)nf);
            h->face_region = p;
            p += nf;
            memcpy(p, R.start, sizeof(int) * (size_t)(R.n + 1));
            h->region_start = p;
            p += R.n + 1;
            memcpy(p, R.corners, sizeof(int) * R.num_corners);
            h->region_vertices = p;
            p += R.num_corners;
            memcpy(p, R.face, sizeof(int) * (size_t)R.n);
            h->region_face = p;
            h->num_regions = R.n;
        }
    } else {
        free(lists);
    }
    free_regions(&R);
    *out = h;
    return MK_OK;
}

mk_status mk_hull_create(const mk_vec3 *points, int count, mk_hull **out)
{
    if (!out)
        return MK_INVALID_INPUT;
    *out = NULL;
    if (!points || count < 0)
        return MK_INVALID_INPUT;
    for (int i = 0; i < count; ++i) {
        if (!v3_finite(points[i]))
            return MK_INVALID_INPUT;
    }
    if (count < 4 || !has_volume(points, count))
        return MK_DEGENERATE_HULL;

    coordT *coords = malloc(sizeof(coordT) * 3 * (size_t)count);
    if (!coords)
        return MK_OUT_OF_MEMORY;
    for (int i = 0; i < count; ++i) {
        coords[3 * i + 0] = points[i].x;
        coords[3 * i + 1] = points[i].y;
        coords[3 * i + 2] = points[i].z;
    }

    /* Default 3-d options merge coplanar facets (C-0, Qx): faces are polygons. */
    char options[] = "qhull";
    FILE *err = quiet_file();
    qhT qh_storage;
    qhT *qh = &qh_storage;
    QHULL_LIB_CHECK
    qh_zero(qh, err);
    int exit_code = qh_new_qhull(qh, 3, count, coords, False, options, NULL, err);
    mk_status st;
    if (exit_code != 0) {
        st = exit_code == qh_ERRsingular || exit_code == qh_ERRprec ? MK_DEGENERATE_HULL : MK_QHULL_ERROR;
    } else {
        vertexT *vertex;
        unsigned id = 0;
        FORALLvertices
            vertex->visitid = id++;
        st = build_block(qh, out);
    }
    qh_freeqhull(qh, !qh_ALL);
    int cur_long, tot_long;
    qh_memfreeshort(qh, &cur_long, &tot_long);
    if (err != stderr)
        fclose(err);
    free(coords);
    return st;
}
