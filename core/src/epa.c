/* Penetration depth by the Expanding Polytope Algorithm, and signed distance.
 *
 * EPA (G. van den Bergen, "Proximity Queries and Penetration Depth Computation
 * on 3D Game Objects", GDC 2001; "Collision Detection in Interactive 3D
 * Environments", 2003): grow a polytope P inside D = A - B around the origin,
 * always towards its face closest to the origin, until that face lies on the
 * boundary of D. The paper is not in seeds/, so the equations are numbered here
 * (working notes: ALGORITHMS.md, "EPA"):
 *   (E1) depth = min_{|n| = 1} h_D(n),  h_D(n) = max_{w in D} <n, w>
 *        = <n, s_A(n)> - <n, s_B(-n)>          (support of the difference)
 *   (E2) upper bound: depth <= h_D(n) for every unit n queried
 *   (E3) lower bound: conv(V) is inside D for V in D, so if the closed surface
 *        of P winds around the origin, depth >= min_f off_f with
 *        off_f = min_{v in f} <n_f, v> (n_f unit outward; this holds for any
 *        unit n_f, so face normals need not be exact)
 *   (E4) expansion: w = s_D(n_f) for the face f of smallest off_f; the faces
 *        with <n_g, w> > off_g are removed and the horizon is joined to w
 *   (E5) stop when upper - lower <= max(tol, rel_tol * depth)
 * Everything runs on the cores in A's frame; radii are added at the end. The
 * polytope lives in the caller's workspace: no heap, no recursion (the visible
 * region is a breadth-first list), every loop bounded. */
#include <minkowski/epa.h>
#include <float.h>
#include <stdint.h>
#include <string.h>
#include "epa_seed.h"
#include "pair_check.h"
#include "closed_depth.h"
#include "segment.h"
#include "simplex.h"
#include "support.h"

/* ------------------------------------------------------------ constants */

#define MK_EPA_DEFAULT_TOLERANCE 1e-8
#define MK_EPA_DEFAULT_MAX_ITER 128
/* Seed candidates (GJK's points and the supports added around them). */
#define MK_EPA_MAX_SEED MK_EPA_SEED_VERTICES
/* A point is beyond a face when it is above it by more than this times the
 * size of D (a few hundred ulps: the floor of the face-plane arithmetic). */
#define MK_EPA_BEYOND_EPS 1e-12
/* Seed points closer than this (times the size of D) to a line or plane
 * through the others are collinear / coplanar. */
#define MK_EPA_FLAT_EPS 1e-10
/* GJK simplex vertices with a smaller barycentric weight are not trusted to
 * keep the origin away from the seed's boundary: the origin is then near an
 * edge or vertex of the simplex and the seed is grown around it instead.
 * (1e-3 until 2026-11-23: two cubes stacked with a 0.05 rad yaw leave GJK's
 * tetrahedron with weights 2e-4 and 5e-4, and growing a seed around the
 * segment cost ~1.4 us of a 2.1 us signed distance; at 1e-4, 0.7 us. The
 * penetration bench is unchanged within noise, three alternating runs.) */
#define MK_EPA_SEED_MIN_BARY 1e-4
/* Segment seed: projected support points must surround the origin by this
 * margin (times the size of D), at most this many replacement steps. */
#define MK_EPA_SURROUND_MARGIN 1e-3
#define MK_EPA_SURROUND_STEPS 8
/* Rounds of "add supports off a degenerate (flat) point set". */
#define MK_EPA_SEED_ROUNDS 3
/* The closest face is far from D's boundary along its normal when a start-
 * table point of D lies more than this times the face's offset beyond it: the
 * expansion then takes that point instead of climbing for the support. Measured
 * on hull-240 pairs at 1 cm overlap (single calls, medians of per-problem
 * means, a noisy machine): 1.0 -> 4% faster than always climbing, 0.5 -> 6%,
 * 0.25 -> 9%, 0.1 and 0.03 no better (0.03: 1.7% more iterations). With
 * per-problem minima the gain was within noise on its own and ~6% together
 * with the paired climbs of support_max. */
#define MK_EPA_FAR_RATIO 0.25

/* ------------------------------------------------------------ settings, workspace */

mk_epa_settings mk_epa_default_settings(void)
{
    mk_epa_settings s;
    s.tolerance = MK_EPA_DEFAULT_TOLERANCE;
    s.relative_tolerance = 0;
    s.max_iterations = MK_EPA_DEFAULT_MAX_ITER;
    s.max_faces = 0;
    return s;
}

/* A support point of D with the points of A and B that made it (A's frame). */
typedef struct vert {
    mk_vec3 w, a, b;
} vert;

/* A triangle of the polytope, counter-clockwise seen from outside. */
typedef struct face {
    mk_vec3 n;    /* unit outward normal */
    mk_real off;  /* min over the vertices of <n, v> (E3) */
    int v[3];
    int adj[3];   /* adj[i]: face across edge v[i] -> v[i+1] */
    int slot;     /* index in the live list, -1 when free */
    int stamp;    /* expansion that last tested visibility */
    int visible;
} face;

/* GJK's four points, the seed's supports, one support per iteration. */
static int vertex_capacity(int max_iter) { return 4 + MK_EPA_SEED_VERTICES + max_iter; }
static int face_capacity(int max_iter) { return 2 * vertex_capacity(max_iter) - 4; }

#define MK_EPA_ALIGN 16
static size_t align_up(size_t n) { return (n + MK_EPA_ALIGN - 1) & ~(size_t)(MK_EPA_ALIGN - 1); }

size_t mk_epa_workspace_size(int max_iterations)
{
    if (max_iterations <= 0 || max_iterations > MK_EPA_MAX_ITER_CAP)
        return 0;
    size_t nv = (size_t)vertex_capacity(max_iterations), nf = (size_t)face_capacity(max_iterations);
    return MK_EPA_ALIGN + align_up(nv * sizeof(vert)) + align_up(nf * sizeof(face)) +
           align_up(nf * sizeof(mk_real)) + 3 * align_up(nf * sizeof(int)) + 5 * align_up(nv * sizeof(int));
}

/* ------------------------------------------------------------ pair context */

typedef struct ctx {
    const mk_shape *a, *b;
    mk_mat3 R; /* B's rotation in A's frame */
    mk_vec3 p; /* B's origin in A's frame */
    int hint_a, hint_b;
    int bad;   /* a support point was not finite */
} ctx;

static void make_ctx(const mk_pair *pair, int hint_a, int hint_b, ctx *c)
{
    c->a = pair->a;
    c->b = pair->b;
    c->R = m3_tmul_m3(&pair->xf_a.R, &pair->xf_b.R);
    c->p = m3_tmul(&pair->xf_a.R, v3_sub(pair->xf_b.p, pair->xf_a.p));
    c->hint_a = hint_a;
    c->hint_b = hint_b;
    c->bad = 0;
}

/* A hull large enough to be climbed (support.h), whose start table is then
 * worth reading on its own. */
static inline const mk_hull *climbed_hull(const mk_shape *s)
{
    if (s->type != MK_SHAPE_HULL || s->u.hull.hull->num_vertices <= MK_HULL_LINEAR_SCAN_MAX)
        return NULL;
    return s->u.hull.hull;
}

/* Start of a climb as in support.h: the hint or the start table's vertex for
 * d (`table`, when the caller has looked it up already, else -1), whichever is
 * higher along d. Returns the table's vertex with *done = 1 when the table
 * knows it is extreme (no climb needed). */
static inline int climb_start(const mk_hull *h, mk_vec3 d, int table, int hint, mk_real *best, int *done)
{
    *done = 0;
    int v = table;
    if (v < 0) {
        v = hull_table_vertex(h, d, done);
        if (*done)
            return v;
    }
    *best = v3_dot(h->vertices[v], d);
    if (hint >= 0 && hint < h->num_vertices && hint != v) {
        mk_real s = v3_dot(h->vertices[hint], d);
        if (s > *best) {
            *best = s;
            v = hint;
        }
    }
    return v;
}

/* One steepest-ascent step from v (support.h's climb): the best neighbour, or
 * v itself at the top. Branch-free selection: which neighbour wins is data, and
 * mispredicted branches would also stop the other hull's loads in flight. */
static inline int climb_step(const mk_hull *h, mk_vec3 d, int v, mk_real *best)
{
    int next = v;
    mk_real b = *best;
    for (int k = h->adj_start[v]; k < h->adj_start[v + 1]; ++k) {
        int u = h->adj[k];
        mk_real s = v3_dot(h->vertices[u], d);
        int up = s > b;
        next = up ? u : next;
        b = up ? s : b;
    }
    *best = b;
    return next;
}

/* Supports of two climbed hulls at once, the climbs interleaved step by step
 * so that their cache misses overlap. Each climb is the one of support.h (same
 * start, same steps, same answer), bounded by its hull's vertex count. */
static inline void climb_pair(const mk_hull *ha, mk_vec3 da, int ta, int *va, const mk_hull *hb, mk_vec3 db, int tb,
                              int *vb)
{
    mk_real sa, sb;
    int done_a, done_b;
    int a = climb_start(ha, da, ta, *va, &sa, &done_a), b = climb_start(hb, db, tb, *vb, &sb, &done_b);
    int moving_a = !done_a, moving_b = !done_b;
    const int steps = ha->num_vertices > hb->num_vertices ? ha->num_vertices : hb->num_vertices;
    for (int step = 0; step < steps && (moving_a || moving_b); ++step) {
        if (moving_a) {
            int next = climb_step(ha, da, a, &sa);
            moving_a = next != a && step + 1 < ha->num_vertices;
            a = next;
        }
        if (moving_b) {
            int next = climb_step(hb, db, b, &sb);
            moving_b = next != b && step + 1 < hb->num_vertices;
            b = next;
        }
    }
    *va = a;
    *vb = b;
}

/* The point of D farthest along n (E1): a = s_A(n), b = s_B(-n); two climbed
 * hulls climb together (from their start-table vertices ta, tb for n when
 * known, else -1). */
static inline vert support_max(ctx *c, mk_vec3 n, int ta, int tb)
{
    vert s;
    mk_vec3 nb = m3_tmul(&c->R, v3_neg(n)), lb;
    const mk_hull *ha = climbed_hull(c->a), *hb = climbed_hull(c->b);
    if (ha && hb) {
        climb_pair(ha, n, ta, &c->hint_a, hb, nb, tb, &c->hint_b);
        s.a = ha->vertices[c->hint_a];
        lb = hb->vertices[c->hint_b];
    } else {
        s.a = shape_support(c->a, n, &c->hint_a);
        lb = shape_support(c->b, nb, &c->hint_b);
    }
    s.b = v3_add(m3_mul(&c->R, lb), c->p);
    s.w = v3_sub(s.a, s.b);
    if (!v3_finite(s.w))
        c->bad = 1;
    return s;
}

/* ------------------------------------------------------------ the polytope */

typedef enum grow { GROW_OK, GROW_BUDGET, GROW_DEGENERATE } grow;

typedef struct epa {
    ctx *c;
    vert *v;
    int nv, max_v;
    face *f;
    int nused, max_f, budget; /* slots ever used, capacity, live-face budget */
    int *live;                /* live face indices ... */
    mk_real *live_off;        /* ... and their offsets, dense for the closest-face scan */
    int nlive;
    int *free_list;
    int nfree;
    int *visit;               /* visible faces of the current expansion */
    int *hz_from, *hz_to, *hz_nb, *hz_new, *out_edge; /* horizon; out_edge: vertex -> horizon edge */
    int stamp;
    vert pending;             /* last support point, until kept */
    mk_real scale, eps_beyond, eps_flat;
    /* Bounds on the core depth (E2, E3) and the direction of the upper one. */
    mk_real lower, upper;
    mk_vec3 best_n;
    int best_face; /* face whose normal is best_n, if it is still live (-1: none) */
    mk_real tol, rel_tol, radius;
    int flags;
} epa;

static void *carve(unsigned char **p, size_t bytes)
{
    void *r = *p;
    *p += align_up(bytes);
    return r;
}

static void epa_init(epa *e, ctx *c, const mk_epa_settings *s, mk_real radius, void *workspace)
{
    unsigned char *p = (unsigned char *)workspace;
    p += (MK_EPA_ALIGN - ((uintptr_t)p & (MK_EPA_ALIGN - 1))) & (MK_EPA_ALIGN - 1);
    e->c = c;
    e->max_v = vertex_capacity(s->max_iterations);
    e->max_f = face_capacity(s->max_iterations);
    e->budget = s->max_faces > 0 && s->max_faces < e->max_f ? s->max_faces : e->max_f;
    e->v = carve(&p, (size_t)e->max_v * sizeof(vert));
    e->f = carve(&p, (size_t)e->max_f * sizeof(face));
    e->live_off = carve(&p, (size_t)e->max_f * sizeof(mk_real));
    e->live = carve(&p, (size_t)e->max_f * sizeof(int));
    e->free_list = carve(&p, (size_t)e->max_f * sizeof(int));
    e->visit = carve(&p, (size_t)e->max_f * sizeof(int));
    e->hz_from = carve(&p, (size_t)e->max_v * sizeof(int));
    e->hz_to = carve(&p, (size_t)e->max_v * sizeof(int));
    e->hz_nb = carve(&p, (size_t)e->max_v * sizeof(int));
    e->hz_new = carve(&p, (size_t)e->max_v * sizeof(int));
    e->out_edge = carve(&p, (size_t)e->max_v * sizeof(int));
    e->nv = 0;
    e->nused = e->nlive = e->nfree = 0;
    e->stamp = 0;
    e->scale = e->eps_beyond = e->eps_flat = 0;
    e->lower = 0;
    e->upper = INFINITY;
    e->best_n = v3(1, 0, 0);
    e->best_face = -1;
    e->tol = s->tolerance;
    e->rel_tol = s->relative_tolerance;
    e->radius = radius;
    e->flags = 0;
}

/* Gap allowed between the bounds (E5), relative to the full depth. */
static inline mk_real allowed_gap(const epa *e)
{
    mk_real rel = e->rel_tol * (e->upper + e->radius);
    return rel > e->tol ? rel : e->tol;
}

/* Not before the first support: with upper = +inf a relative gap would read
 * inf <= inf. */
static inline int converged(const epa *e)
{
    return e->upper < INFINITY && e->upper - e->lower <= allowed_gap(e);
}

/* Size of D seen so far: scales the rounding thresholds. */
static void note_scale(epa *e, mk_vec3 w)
{
    mk_real m = v3_max_abs(w);
    if (m > e->scale) {
        e->scale = m;
        e->eps_beyond = MK_EPA_BEYOND_EPS * m;
        e->eps_flat = MK_EPA_FLAT_EPS * m;
    }
}

/* s, the support along unit n: tightens the upper bound (E2) and holds the
 * point as pending (keep_vertex() takes it in). Returns h_D(n). */
static mk_real take_support(epa *e, mk_vec3 n, vert s)
{
    e->pending = s;
    note_scale(e, s.w);
    mk_real h = v3_dot(n, s.w);
    if (h < e->upper) {
        e->upper = h;
        e->best_n = n;
        e->best_face = -1;
    }
    return h;
}

/* Support along unit n, the climbs from ta, tb (see support_max). */
static mk_real query_from(epa *e, mk_vec3 n, int ta, int tb)
{
    return take_support(e, n, support_max(e->c, n, ta, tb));
}

static mk_real query(epa *e, mk_vec3 n) { return query_from(e, n, -1, -1); }

/* Take the pending point into the vertex list; its index, or -1 when full. */
static int keep_vertex(epa *e)
{
    if (e->nv >= e->max_v)
        return -1;
    e->v[e->nv] = e->pending;
    e->out_edge[e->nv] = -1; /* on no horizon (expand() restores that after use) */
    return e->nv++;
}

static void live_add(epa *e, int fi)
{
    e->f[fi].slot = e->nlive;
    e->live[e->nlive] = fi;
    e->live_off[e->nlive] = e->f[fi].off;
    ++e->nlive;
}

static void live_remove(epa *e, int fi)
{
    int s = e->f[fi].slot, last = e->nlive - 1;
    if (s != last) {
        int g = e->live[last];
        e->live[s] = g;
        e->live_off[s] = e->live_off[last];
        e->f[g].slot = s;
    }
    e->nlive = last;
    e->f[fi].slot = -1;
    e->free_list[e->nfree++] = fi;
}

/* New live triangle (i0, i1, i2). A triangle too thin for a normal takes
 * `fallback` (a neighbour's): (E3) holds for any unit normal. */
static int face_new(epa *e, int i0, int i1, int i2, mk_vec3 fallback)
{
    int fi;
    if (e->nfree > 0)
        fi = e->free_list[--e->nfree];
    else if (e->nused < e->max_f)
        fi = e->nused++;
    else
        return -1;
    face *t = &e->f[fi];
    mk_vec3 a = e->v[i0].w, b = e->v[i1].w, c = e->v[i2].w;
    t->n = v3_normalize_or(v3_cross(v3_sub(b, a), v3_sub(c, a)), fallback);
    mk_real oa = v3_dot(t->n, a), ob = v3_dot(t->n, b), oc = v3_dot(t->n, c);
    mk_real o = oa < ob ? oa : ob;
    t->off = o < oc ? o : oc;
    t->v[0] = i0;
    t->v[1] = i1;
    t->v[2] = i2;
    t->adj[0] = t->adj[1] = t->adj[2] = -1;
    t->stamp = 0;
    t->visible = 0;
    live_add(e, fi);
    return fi;
}

/* Index of the live face with the smallest offset (dense scan). */
static int closest_face(const epa *e)
{
    /* Branch-free selection: where the minimum moves is data. */
    int best = 0;
    mk_real bo = e->live_off[0];
    for (int k = 1; k < e->nlive; ++k) {
        mk_real o = e->live_off[k];
        int lower = o < bo;
        best = lower ? k : best;
        bo = lower ? o : bo;
    }
    return e->live[best];
}

static inline mk_real height(const epa *e, int fi, mk_vec3 w) { return v3_dot(e->f[fi].n, w) - e->f[fi].off; }

/* Tetrahedron (i0..i3) with outward faces; i3 must be off the plane of the others. */
static int make_tetrahedron(epa *e, int i0, int i1, int i2, int i3)
{
    mk_vec3 p0 = e->v[i0].w;
    mk_real vol = v3_dot(v3_cross(v3_sub(e->v[i1].w, p0), v3_sub(e->v[i2].w, p0)), v3_sub(e->v[i3].w, p0));
    if (vol > 0) { /* i3 above (i0, i1, i2): flip so every face looks outward */
        int t = i1;
        i1 = i2;
        i2 = t;
    }
    const int tri[4][3] = {{i0, i1, i2}, {i0, i3, i1}, {i1, i3, i2}, {i0, i2, i3}};
    int fi[4];
    mk_vec3 fallback = v3(1, 0, 0);
    for (int k = 0; k < 4; ++k) {
        fi[k] = face_new(e, tri[k][0], tri[k][1], tri[k][2], fallback);
        if (fi[k] < 0)
            return 0;
    }
    /* Adjacency: adj[k][i] is the face holding edge i of face k reversed. */
    static const int adj[4][3] = {{1, 2, 3}, {3, 2, 0}, {1, 3, 0}, {0, 2, 1}};
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 3; ++i)
            e->f[fi[k]].adj[i] = fi[adj[k][i]];
    return 1;
}

/* Edge index of face g running from vertex `from` to vertex `to`, or -1. */
static int edge_of(const face *g, int from, int to)
{
    /* The corner holding `from` without branching on which it is. */
    int j = g->v[1] == from ? 1 : g->v[2] == from ? 2 : 0;
    static const int next[3] = {1, 2, 0};
    return g->v[j] == from && g->v[next[j]] == to ? j : -1;
}

/* Add vertex iw (beyond face f0) to the hull (E4): mark the faces that see it
 * (breadth-first from f0), check that their border is one simple cycle, then
 * replace them by a fan of triangles from iw. Nothing changes unless the
 * update is consistent and fits the budget. */
static grow expand(epa *e, int iw, int f0)
{
    const mk_vec3 w = e->v[iw].w;
    const int stamp = ++e->stamp;
    int nvis = 0, nh = 0;
    grow result = GROW_OK;

    e->f[f0].stamp = stamp;
    e->f[f0].visible = 1;
    e->visit[nvis++] = f0;
    for (int head = 0; head < nvis && result == GROW_OK; ++head) {
        const face *g = &e->f[e->visit[head]];
        for (int i = 0; i < 3; ++i) {
            int h = g->adj[i];
            face *gh = &e->f[h];
            if (gh->stamp != stamp) {
                gh->stamp = stamp;
                gh->visible = height(e, h, w) > e->eps_beyond;
                if (gh->visible) {
                    e->visit[nvis++] = h;
                    continue;
                }
            }
            if (gh->visible)
                continue;
            if (nh == e->max_v) {
                result = GROW_DEGENERATE;
                break;
            }
            e->hz_from[nh] = g->v[i];
            e->hz_to[nh] = g->v[(i + 1) % 3];
            e->hz_nb[nh] = h;
            ++nh;
        }
    }
    /* The horizon must be one simple cycle: each vertex leaves once, and
     * following the edges from the first one visits all of them. */
    if (result == GROW_OK && nh < 3)
        result = GROW_DEGENERATE;
    int linked = 0;
    for (; result == GROW_OK && linked < nh; ++linked) {
        if (e->out_edge[e->hz_from[linked]] >= 0)
            result = GROW_DEGENERATE;
        else
            e->out_edge[e->hz_from[linked]] = linked;
    }
    if (result == GROW_OK) {
        int k = 0;
        for (int step = 1; step <= nh; ++step) {
            k = e->out_edge[e->hz_to[k]];
            if (k < 0 || (k == 0) != (step == nh)) {
                result = GROW_DEGENERATE;
                break;
            }
        }
    }
    if (result == GROW_OK && e->nlive - nvis + nh > e->budget)
        result = GROW_BUDGET;

    if (result == GROW_OK) {
        for (int k = 0; k < nvis; ++k)
            live_remove(e, e->visit[k]);
        for (int k = 0; k < nh; ++k) {
            int nb = e->hz_nb[k];
            int nf = face_new(e, e->hz_from[k], e->hz_to[k], iw, e->f[nb].n);
            /* cannot fail: the budget check left room */
            e->hz_new[k] = nf;
            e->f[nf].adj[0] = nb;
            int j = edge_of(&e->f[nb], e->hz_to[k], e->hz_from[k]);
            if (j >= 0)
                e->f[nb].adj[j] = nf;
        }
        for (int k = 0; k < nh; ++k) {
            int next = e->out_edge[e->hz_to[k]];
            e->f[e->hz_new[k]].adj[1] = e->hz_new[next];
            e->f[e->hz_new[next]].adj[2] = e->hz_new[k];
        }
    }
    for (int k = 0; k < linked; ++k)
        e->out_edge[e->hz_from[k]] = -1;
    return result;
}

/* Insert vertex iw where it is beyond the current hull (seeding only). */
static void insert_point(epa *e, int iw)
{
    int best = -1;
    mk_real bh = e->eps_beyond;
    for (int k = 0; k < e->nlive; ++k) {
        mk_real h = height(e, e->live[k], e->v[iw].w);
        if (h > bh) {
            bh = h;
            best = e->live[k];
        }
    }
    if (best >= 0)
        expand(e, iw, best); /* a failed update leaves the hull as it was */
}

/* ------------------------------------------------------------ seeding */

typedef enum hull_kind { HULL_OK, HULL_POINT, HULL_LINE, HULL_PLANE, HULL_FAIL } hull_kind;

/* Convex hull of the seed vertices cand[0..k): a tetrahedron of far-apart
 * points, then the others inserted. When the points span less than 3D, says
 * so and gives the direction to search off them (`off`: the line's direction
 * or the plane's normal). */
static hull_kind seed_hull(epa *e, const int *cand_in, int k_in, mk_vec3 *off)
{
    /* Each point once: the same support found along several directions (a
     * small hull's vertex against a large box's corner, met along three
     * axes) made zero-area triangles whose borrowed normals gave offsets far
     * below the origin (-18.6 on a polytope 20 across: a hull 1e-3 across at
     * a corner of a box 20 across, mk_epa's "very different sizes" test at
     * MK_TEST_SCALE=100); the expansion along such a normal then met a
     * pinched visible region and stopped with the bracket [0, 7.2e-4]. */
    int cand[MK_EPA_MAX_SEED], k = 0;
    for (int j = 0; j < k_in && k < MK_EPA_MAX_SEED; ++j) {
        int dup = 0;
        for (int i = 0; i < k && !dup; ++i)
            dup = v3_max_abs(v3_sub(e->v[cand_in[j]].w, e->v[cand[i]].w)) <= e->eps_flat;
        if (!dup)
            cand[k++] = cand_in[j];
    }
    if (k == 0)
        return HULL_POINT;
    if (k == 4) {
        /* GJK's tetrahedron as it is, unless it is (nearly) flat */
        mk_vec3 p0 = e->v[cand[0]].w, e1 = v3_sub(e->v[cand[1]].w, p0), e2 = v3_sub(e->v[cand[2]].w, p0);
        mk_vec3 n = v3_cross(e1, e2);
        mk_real l1 = v3_len(e1), ln = v3_len(n);
        mk_real h = fabs(v3_dot(n, v3_sub(e->v[cand[3]].w, p0)));
        if (l1 > e->eps_flat && ln > e->eps_flat * l1 && h > e->eps_flat * ln)
            return make_tetrahedron(e, cand[0], cand[1], cand[2], cand[3]) ? HULL_OK : HULL_FAIL;
    }
    int i0 = cand[0], i1 = -1, i2 = -1, i3 = -1;
    mk_real best = e->eps_flat;
    for (int j = 1; j < k; ++j) {
        mk_real d = v3_len(v3_sub(e->v[cand[j]].w, e->v[i0].w));
        if (d > best) {
            best = d;
            i1 = cand[j];
        }
    }
    if (i1 < 0)
        return HULL_POINT;
    mk_vec3 p0 = e->v[i0].w, dir = v3_normalize_or(v3_sub(e->v[i1].w, p0), v3(1, 0, 0));
    best = e->eps_flat;
    for (int j = 1; j < k; ++j) {
        mk_vec3 q = v3_sub(e->v[cand[j]].w, p0);
        mk_real d = v3_len(v3_madd(q, -v3_dot(q, dir), dir));
        if (d > best) {
            best = d;
            i2 = cand[j];
        }
    }
    if (i2 < 0) {
        *off = dir;
        return HULL_LINE;
    }
    mk_vec3 n = v3_normalize_or(v3_cross(v3_sub(e->v[i1].w, p0), v3_sub(e->v[i2].w, p0)), v3(0, 0, 1));
    best = e->eps_flat;
    for (int j = 1; j < k; ++j) {
        mk_real d = fabs(v3_dot(n, v3_sub(e->v[cand[j]].w, p0)));
        if (d > best) {
            best = d;
            i3 = cand[j];
        }
    }
    if (i3 < 0) {
        *off = n;
        return HULL_PLANE;
    }
    if (!make_tetrahedron(e, i0, i1, i2, i3))
        return HULL_FAIL;
    for (int j = 1; j < k; ++j)
        if (cand[j] != i1 && cand[j] != i2 && cand[j] != i3)
            insert_point(e, cand[j]);
    return HULL_OK;
}

/* Two unit vectors completing e to an orthonormal basis. */
static void basis(mk_vec3 e, mk_vec3 *u1, mk_vec3 *u2)
{
    mk_vec3 axis = fabs(e.x) <= fabs(e.y) && fabs(e.x) <= fabs(e.z) ? v3(1, 0, 0)
                   : fabs(e.y) <= fabs(e.z)                         ? v3(0, 1, 0)
                                                                    : v3(0, 0, 1);
    *u1 = v3_normalize_or(v3_cross(e, axis), v3(0, 0, 1));
    *u2 = v3_cross(e, *u1);
}

/* Support along n kept as a seed candidate (if there is room). Returns 1 when
 * the bounds have already met (E5). */
static int seed_query(epa *e, mk_vec3 n, int *cand, int *k)
{
    query(e, n);
    if (*k < MK_EPA_MAX_SEED) {
        int i = keep_vertex(e);
        if (i >= 0)
            cand[(*k)++] = i;
    }
    return converged(e);
}

/* The origin lies (nearly) on the segment cand[0] cand[1] of D: add support
 * points around that line until, projected on the plane across it, they
 * surround the origin with a margin (2D GJK on the projection). Together with
 * the segment's ends they then hold the origin inside. Returns 1 if the bounds
 * met on the way. */
static int surround_segment(epa *e, mk_vec3 dir, int *cand, int *k)
{
    if (*k + 3 > MK_EPA_MAX_SEED)
        return 0;
    mk_vec3 u1, u2;
    basis(dir, &u1, &u2);
    int tri[3];
    mk_real px[3], py[3];
    for (int j = 0; j < 3; ++j) {
        mk_real t = 2.0943951023931954923 * j; /* 2 pi / 3 */
        mk_vec3 m = v3_add(v3_scale(u1, cos(t)), v3_scale(u2, sin(t)));
        if (seed_query(e, m, cand, k))
            return 1;
        tri[j] = *k - 1;
        px[j] = v3_dot(u1, e->v[cand[tri[j]]].w);
        py[j] = v3_dot(u2, e->v[cand[tri[j]]].w);
    }
    for (int step = 0; step < MK_EPA_SURROUND_STEPS && *k < MK_EPA_MAX_SEED; ++step) {
        /* Edge with the least inward clearance of the origin. */
        int worst = -1;
        mk_real worst_c = MK_EPA_SURROUND_MARGIN * e->scale;
        mk_real mx = 0, my = 0;
        for (int j = 0; j < 3; ++j) {
            int i = (j + 1) % 3, l = (j + 2) % 3; /* edge (i, l), opposite j */
            mk_real tx = -(py[l] - py[i]), ty = px[l] - px[i];
            mk_real tl = sqrt(tx * tx + ty * ty);
            if (!(tl > 0))
                continue;
            tx /= tl;
            ty /= tl;
            mk_real side_j = tx * (px[j] - px[i]) + ty * (py[j] - py[i]);
            mk_real side_o = -(tx * px[i] + ty * py[i]);
            mk_real clear, sx, sy;
            if (fabs(side_j) > e->eps_flat) {
                mk_real s = side_j > 0 ? 1 : -1;
                clear = s * side_o;
                sx = -s * tx;
                sy = -s * ty;
            } else { /* flat triangle: search on the origin's side */
                mk_real s = side_o >= 0 ? 1 : -1;
                clear = -fabs(side_o);
                sx = s * tx;
                sy = s * ty;
            }
            if (clear < worst_c) {
                worst_c = clear;
                worst = j;
                mx = sx;
                my = sy;
            }
        }
        if (worst < 0)
            return 0; /* surrounded */
        mk_vec3 m = v3_add(v3_scale(u1, mx), v3_scale(u2, my));
        if (seed_query(e, m, cand, k))
            return 1;
        tri[worst] = *k - 1;
        px[worst] = v3_dot(u1, e->v[cand[tri[worst]]].w);
        py[worst] = v3_dot(u2, e->v[cand[tri[worst]]].w);
    }
    return 0;
}

typedef enum seed_out { SEED_POLYTOPE, SEED_DONE, SEED_FAIL } seed_out;

/* Build the first polytope from GJK's simplex (A's frame). SEED_DONE when the
 * bounds met on the way (touching or flat cores), SEED_FAIL when no polytope
 * could be built (the caller answers from the bounds). */
static seed_out seed(epa *e, const mk_simplex *s, mk_vec3 n_hint)
{
    int cand[MK_EPA_MAX_SEED], k = 0;
    int count = s->count, kept[4], nk = 0, dropped[4], nd = 0;
    for (int i = 0; i < count; ++i) {
        vert g;
        g.a = s->a[i];
        g.b = s->b[i];
        g.w = v3_sub(g.a, g.b);
        note_scale(e, g.w);
        e->pending = g;
        if (s->bary[i] > MK_EPA_SEED_MIN_BARY)
            kept[nk++] = keep_vertex(e);
        else
            dropped[nd++] = keep_vertex(e);
    }
    for (int i = 0; i < nk; ++i)
        cand[k++] = kept[i];

    const int tetrahedron = count == 4 && nk >= 3;
    /* Origin on the simplex's boundary: the cores may only touch, and then the
     * direction GJK last reported often is the contact normal. */
    if (!tetrahedron && seed_query(e, n_hint, cand, &k))
        return SEED_DONE;

    if (tetrahedron) {
        /* A tetrahedron around the origin (near one face at worst: the
         * expansion deals with that first). */
        for (int i = 0; i < nd; ++i)
            cand[k++] = dropped[i];
    } else if (nk == 3) {
        /* Origin on a triangle: a double pyramid over it. */
        mk_vec3 a = e->v[kept[0]].w;
        mk_vec3 n = v3_normalize_or(v3_cross(v3_sub(e->v[kept[1]].w, a), v3_sub(e->v[kept[2]].w, a)), n_hint);
        if (seed_query(e, n, cand, &k) || seed_query(e, v3_neg(n), cand, &k))
            return SEED_DONE;
        e->flags |= MK_EPA_FLAG_SEED_GROWN;
    } else if (nk == 2 &&
               v3_len(v3_sub(e->v[kept[1]].w, e->v[kept[0]].w)) > e->eps_flat) {
        /* Origin on a segment through D: surround the segment's line. */
        mk_vec3 dir = v3_normalize_or(v3_sub(e->v[kept[1]].w, e->v[kept[0]].w), v3(1, 0, 0));
        if (surround_segment(e, dir, cand, &k))
            return SEED_DONE;
        e->flags |= MK_EPA_FLAG_SEED_GROWN;
    } else {
        /* Origin at (or near) a support point: it is on or near the boundary
         * of D. Supports along the axes give a polytope to refine from. */
        static const mk_real axes[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (int j = 0; j < 6; ++j)
            if (seed_query(e, v3(axes[j][0], axes[j][1], axes[j][2]), cand, &k))
                return SEED_DONE;
        e->flags |= MK_EPA_FLAG_SEED_GROWN;
    }
    for (int i = 0; i < nd && k < MK_EPA_MAX_SEED && !tetrahedron; ++i)
        cand[k++] = dropped[i];

    /* Span 3D: search off a flat set (both sides of a plane, around a line). */
    for (int round = 0; round < MK_EPA_SEED_ROUNDS; ++round) {
        mk_vec3 off = v3(1, 0, 0);
        hull_kind hk = seed_hull(e, cand, k, &off);
        if (hk == HULL_OK)
            return SEED_POLYTOPE;
        if (hk == HULL_FAIL)
            return SEED_FAIL;
        e->flags |= MK_EPA_FLAG_SEED_GROWN;
        /* The hull attempt may have left faces behind: start over. */
        e->nused = e->nlive = e->nfree = 0;
        if (hk == HULL_PLANE) {
            if (seed_query(e, off, cand, &k) || seed_query(e, v3_neg(off), cand, &k))
                return SEED_DONE;
        } else if (hk == HULL_LINE) {
            if (surround_segment(e, off, cand, &k))
                return SEED_DONE;
        } else {
            static const mk_real axes[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
            for (int j = 0; j < 4; ++j)
                if (seed_query(e, v3_scale(v3(axes[j][0], axes[j][1], axes[j][2]), 0.57735026918962576451), cand,
                               &k))
                    return SEED_DONE;
        }
    }
    return SEED_FAIL;
}

/* ------------------------------------------------------------ expansion loop */

typedef enum stop { STOP_CONVERGED, STOP_FLOOR, STOP_MAX_ITER, STOP_BUDGET, STOP_DEGENERATE, STOP_BAD } stop;

/* A point of D near the support along n, without climbing: each climbed hull
 * gives its start-table vertex for the direction, other shapes their exact
 * support. Returns 0, and nothing, when neither shape is a climbed hull, else
 * 1, or 2 when the point is the support along n (both tables knew their
 * extreme vertex: the hill-climbing support would find the same value). Any
 * point of D may join the polytope (E3); only a support may touch the upper
 * bound. */
static int table_point(ctx *c, mk_vec3 n, vert *out, int *ta, int *tb)
{
    const mk_hull *ha = climbed_hull(c->a), *hb = climbed_hull(c->b);
    if (!ha && !hb)
        return 0;
    mk_vec3 nb = m3_tmul(&c->R, v3_neg(n));
    int exact_a = 1, exact_b = 1;
    if (ha) {
        *ta = hull_table_vertex(ha, n, &exact_a);
        out->a = ha->vertices[*ta];
    } else {
        out->a = shape_support(c->a, n, &c->hint_a);
    }
    mk_vec3 lb;
    if (hb) {
        *tb = hull_table_vertex(hb, nb, &exact_b);
        lb = hb->vertices[*tb];
    } else {
        lb = shape_support(c->b, nb, &c->hint_b);
    }
    out->b = v3_add(m3_mul(&c->R, lb), c->p);
    out->w = v3_sub(out->a, out->b);
    if (!v3_finite(out->w))
        c->bad = 1;
    if (exact_a && exact_b) {
        if (ha)
            c->hint_a = *ta;
        if (hb)
            c->hint_b = *tb;
        return 2;
    }
    return 1;
}

/* EPA proper (E4, E5). */
static stop expand_loop(epa *e, int max_iter, int *iterations)
{
    int it;
    stop why = STOP_MAX_ITER;
    for (it = 0; it < max_iter; ++it) {
        int fi = closest_face(e);
        mk_real off = e->f[fi].off;
        if (off > 0 && off > e->lower)
            e->lower = off; /* (E3): a positive offset proves the origin inside */
        if (converged(e)) {
            why = STOP_CONVERGED;
            break;
        }
        /* The start tables answer most directions exactly (table_point 2):
         * that point is the support. Otherwise, far below D's boundary along
         * n, any point of D well beyond the face expands the polytope about
         * as well as the support: the table point saves both climbs, whose
         * first touches of a hull's far side are cache misses (E3 holds for
         * any vertices in D; the upper bound comes from supports only). Near
         * the boundary, or when the table point is not beyond the face, the
         * climbed support. */
        vert t;
        int ta = -1, tb = -1;
        const int tp = table_point(e->c, e->f[fi].n, &t, &ta, &tb);
        if (tp && e->c->bad) {
            why = STOP_BAD;
            break;
        }
        if (tp == 1 && e->upper < INFINITY) {
            mk_real ht = v3_dot(e->f[fi].n, t.w);
            if (off > 0 && ht - off > MK_EPA_FAR_RATIO * off && ht - off > e->eps_beyond) {
                e->pending = t;
                note_scale(e, t.w);
                int iw = keep_vertex(e);
                grow g = iw < 0 ? GROW_BUDGET : expand(e, iw, fi);
                if (g != GROW_OK) {
                    why = g == GROW_BUDGET ? STOP_BUDGET : STOP_DEGENERATE;
                    ++it;
                    break;
                }
                continue;
            }
        }
        /* The climbs start from the better of the table vertices and the last
         * support's (ta, tb stay -1 for shapes that are not climbed hulls).
         * Starting from the best corner of the face instead was measured
         * slower (hull-240: 2.5%, hull-1000: 2%, single calls): the table
         * vertex is as close and needs no extra dot products. */
        mk_real before = e->upper;
        mk_real h = tp == 2 ? take_support(e, e->f[fi].n, t) : query_from(e, e->f[fi].n, ta, tb);
        if (e->upper < before)
            e->best_face = fi;
        if (e->c->bad) {
            why = STOP_BAD;
            break;
        }
        if (converged(e)) {
            why = STOP_CONVERGED;
            ++it;
            break;
        }
        if (h - off <= e->eps_beyond) {
            why = STOP_FLOOR; /* the face is on D's boundary to rounding */
            ++it;
            break;
        }
        int iw = keep_vertex(e);
        grow g = iw < 0 ? GROW_BUDGET : expand(e, iw, fi);
        if (g != GROW_OK) {
            why = g == GROW_BUDGET ? STOP_BUDGET : STOP_DEGENERATE;
            ++it;
            break;
        }
    }
    if (why == STOP_MAX_ITER && e->nlive > 0) {
        /* Bounds of the last polytope. */
        mk_real off = e->f[closest_face(e)].off;
        if (off > 0 && off > e->lower)
            e->lower = off;
        if (converged(e))
            why = STOP_CONVERGED;
    }
    *iterations = it;
    return why;
}

/* Weights of q on face g from the sub-triangle areas along its normal (negative
 * outside an edge), normalised to sum 1. Returns 0 for a zero-area face. */
static int face_weights(const epa *e, const face *g, mk_vec3 q, mk_real lam[3])
{
    mk_vec3 a = e->v[g->v[0]].w, b = e->v[g->v[1]].w, c = e->v[g->v[2]].w;
    mk_real wa = v3_dot(g->n, v3_cross(v3_sub(b, q), v3_sub(c, q)));
    mk_real wb = v3_dot(g->n, v3_cross(v3_sub(c, q), v3_sub(a, q)));
    mk_real wc = v3_dot(g->n, v3_cross(v3_sub(a, q), v3_sub(b, q)));
    mk_real sum = wa + wb + wc;
    if (!(sum > 0) || !isfinite(sum))
        return 0;
    lam[0] = wa / sum;
    lam[1] = wb / sum;
    lam[2] = wc / sum;
    return 1;
}

/* A weight of an exit point below -this is not rounding. */
#define MK_EPA_EXIT_SLACK 1e-9

/* The live triangle the ray from the origin along n crosses, by its own
 * vertices (Moller and Trumbore, "Fast, minimum storage ray-triangle
 * intersection", 1997): the farthest crossing (a polytope that rounding bent
 * inward is crossed more than once, and the last crossing is where the ray
 * leaves), and among crossings within rounding of it the one whose smallest
 * weight is largest (the most inside one: neighbours share edges). Returns 0
 * when no triangle is crossed within MK_EPA_EXIT_SLACK. */
static int ray_hits_triangle(const epa *e, mk_vec3 n, int idx[3], mk_real lam[3], mk_vec3 *exit)
{
    int best = -1;
    mk_real best_min = -MK_EPA_EXIT_SLACK, best_t = 0, bu = 0, bv = 0;
    const mk_real same_t = e->eps_beyond;
    for (int k = 0; k < e->nlive; ++k) {
        const face *g = &e->f[e->live[k]];
        const mk_vec3 w0 = e->v[g->v[0]].w;
        const mk_vec3 e1 = v3_sub(e->v[g->v[1]].w, w0), e2 = v3_sub(e->v[g->v[2]].w, w0);
        const mk_vec3 pv = v3_cross(n, e2);
        const mk_real det = v3_dot(e1, pv);
        if (!(fabs(det) > 0))
            continue;
        const mk_vec3 tv = v3_neg(w0);
        const mk_vec3 qv = v3_cross(tv, e1);
        const mk_real u = v3_dot(tv, pv) / det, v = v3_dot(n, qv) / det, t = v3_dot(e2, qv) / det;
        const mk_real m = fmin(1 - u - v, fmin(u, v));
        if (!(t > 0 && isfinite(t) && m > -MK_EPA_EXIT_SLACK))
            continue;
        if (best < 0 || t > best_t + same_t || (t >= best_t - same_t && m > best_min)) {
            best_min = m;
            best = k;
            best_t = t;
            bu = u;
            bv = v;
        }
    }
    if (best < 0)
        return 0;
    const face *g = &e->f[e->live[best]];
    mk_real l[3] = {1 - bu - bv, bu, bv}, sum = 0;
    for (int i = 0; i < 3; ++i) {
        idx[i] = g->v[i];
        lam[i] = l[i] > 0 ? l[i] : 0;
        sum += lam[i];
    }
    for (int i = 0; i < 3; ++i)
        lam[i] /= sum;
    *exit = v3_scale(n, best_t);
    return 1;
}

/* Where the ray from the origin along n leaves the polytope, as weights of the
 * exit face's vertices. Coplanar faces tie on the exit distance (boxes give
 * many), so among the faces within rounding of the nearest crossing the one
 * holding the crossing point wins; *exit is the crossing point. Returns 0
 * when the polytope does not hold the origin. */
static int ray_exit(const epa *e, mk_vec3 n, int idx[3], mk_real lam[3], mk_vec3 *exit)
{
    /* Usually the face that gave the normal is still there and the ray crosses
     * it (any point of the polytope on the ray makes consistent witnesses). */
    if (e->best_face >= 0) {
        const face *g = &e->f[e->best_face];
        if (g->slot >= 0 && g->off > 0 && g->n.x == n.x && g->n.y == n.y && g->n.z == n.z &&
            face_weights(e, g, v3_scale(n, g->off), lam) && lam[0] >= 0 && lam[1] >= 0 && lam[2] >= 0) {
            for (int i = 0; i < 3; ++i)
                idx[i] = g->v[i];
            *exit = v3_scale(n, g->off);
            return 1;
        }
    }
    /* A face whose offset is not positive: within rounding of 0 (flat
     * tolerance), the origin is on the polytope's boundary (touching) and the
     * caller takes GJK's common point; far below it, a sliver that took a
     * neighbour's normal (late in a long run: an ellipsoid 10 deep in a
     * cylinder at the scale 1e3 reached EPA's budget with one at -1.8 among
     * 260, and the witnesses from GJK's common point lay 0.067 off the
     * cylinder; test_contracts at MK_TEST_SCALE=300), whose plane is no exit
     * to trust: the triangles themselves then. */
    mk_real bt = INFINITY;
    for (int k = 0; k < e->nlive; ++k) {
        const face *g = &e->f[e->live[k]];
        if (!(g->off > 0))
            return g->off < -e->eps_flat ? ray_hits_triangle(e, n, idx, lam, exit) : 0;
        mk_real c = v3_dot(g->n, n);
        if (c > 0 && g->off < bt * c)
            bt = g->off / c;
    }
    if (!isfinite(bt))
        return 0;
    /* The polytope held the ball of radius e->lower (its faces' offsets said
     * so, and it has only grown since), so its exit along n lies no nearer.
     * A nearer plane crossing is a face that rounding bent inward (a cone
     * 10 deep in a box at the scale 1e3: after 260 faces, one 1.2 from the
     * origin, its plane crossed at 9.994 where the bracket was [10 - 8e-9,
     * 10 + 7e-9]; the witnesses there lay 1.5e-3 off the box; test_contracts
     * at MK_TEST_SCALE=1000, scene 1,745,246): the triangles then. */
    if (bt < e->lower - e->eps_beyond)
        return ray_hits_triangle(e, n, idx, lam, exit);
    const mk_vec3 q = v3_scale(n, bt);
    int best = -1;
    mk_real best_min = -INFINITY, l[3];
    for (int k = 0; k < e->nlive; ++k) {
        const face *g = &e->f[e->live[k]];
        if (!(fabs(v3_dot(g->n, q) - g->off) <= e->eps_beyond) || !(v3_dot(g->n, n) > 0))
            continue; /* q is not on its plane */
        if (!face_weights(e, g, q, l))
            continue;
        mk_real m = fmin(l[0], fmin(l[1], l[2]));
        if (m > best_min) {
            best_min = m;
            best = e->live[k];
            lam[0] = l[0];
            lam[1] = l[1];
            lam[2] = l[2];
        }
    }
    /* No face's plane holds q: the nearest crossing came from a degenerate
     * face (two of its vertices equal: a cone's apex met twice; its plane,
     * set conservatively, lay 3.5e-8 inside its neighbours', and the
     * witnesses fell back to GJK's common point, 418 off a sphere 2953 in
     * radius deep in a cone). The triangles themselves then. */
    if (best < 0)
        return ray_hits_triangle(e, n, idx, lam, exit);
    /* The faces' planes are conservative (a thin face takes a neighbour's
     * normal; offsets are their vertices' lowest), so their nearest crossing
     * can lie on no face's triangle: a weight far below zero says so (-0.5
     * on an ellipsoid deep in a cone, missing the crossing by 58). Then the
     * ray is crossed with the triangles themselves. */
    if (best_min < -MK_EPA_EXIT_SLACK && ray_hits_triangle(e, n, idx, lam, exit))
        return 1;
    /* Clamp rounding (q on an edge) back into the triangle. */
    mk_real sum = 0;
    for (int i = 0; i < 3; ++i) {
        idx[i] = e->f[best].v[i];
        lam[i] = lam[i] > 0 ? lam[i] : 0;
        sum += lam[i];
    }
    for (int i = 0; i < 3; ++i)
        lam[i] /= sum;
    *exit = q;
    return 1;
}

/* Distance from q to sum lam[i] w[i] (the weights sum to 1). */
static mk_real weights_miss(const mk_vec3 w[3], const mk_real lam[3], mk_vec3 q)
{
    mk_vec3 r = v3_scale(q, -1);
    for (int i = 0; i < 3; ++i)
        r = v3_madd(r, lam[i], w[i]);
    return v3_len(r);
}

/* Weights of q on the triangle w[0..3) that reproduce q best. face_weights
 * takes cross products about q itself, whose rounding scales with the
 * vertices' distance to q: on a sliver (two vertices almost equal, the third
 * far away) that is far larger than the sliver's width, and the weights
 * missed q by 0.54 on a face 3.4e5 across (a 0.3 mm cylinder on a box face).
 * Weights taken about a vertex (rounding scaled by the edges from it, exact
 * along a short edge) and the projections on each edge are tried too; the
 * convex combination nearest q wins. Only when the first misses by more than
 * rounding: otherwise lam stays as it is. */
static void refine_weights(const epa *e, const int idx[3], mk_vec3 q, mk_real lam[3])
{
    const mk_vec3 w[3] = {e->v[idx[0]].w, e->v[idx[1]].w, e->v[idx[2]].w};
    mk_real best = weights_miss(w, lam, q);
    if (!(best > 64 * DBL_EPSILON * e->scale))
        return;
    const mk_vec3 nrm = v3_cross(v3_sub(w[1], w[0]), v3_sub(w[2], w[0]));
    for (int k = 0; k < 6; ++k) {
        mk_real l[3] = {0, 0, 0};
        const int i = k % 3, j = (i + 1) % 3, m = (i + 2) % 3;
        const mk_vec3 e1 = v3_sub(w[j], w[i]), e2 = v3_sub(w[m], w[i]), d = v3_sub(q, w[i]);
        if (k < 3) { /* about vertex i */
            const mk_real den = v3_dot(nrm, v3_cross(e1, e2));
            if (!(fabs(den) > 0))
                continue;
            l[j] = v3_dot(nrm, v3_cross(d, e2)) / den;
            l[m] = v3_dot(nrm, v3_cross(e1, d)) / den;
            l[j] = l[j] > 0 ? l[j] : 0;
            l[m] = l[m] > 0 ? l[m] : 0;
            const mk_real s = l[j] + l[m];
            if (s > 1) {
                l[j] /= s;
                l[m] /= s;
            }
            l[i] = 1 - l[j] - l[m];
        } else { /* on edge i -> j */
            const mk_real ee = v3_len2(e1);
            if (!(ee > 0))
                continue;
            mk_real t = v3_dot(d, e1) / ee;
            t = t > 0 ? (t < 1 ? t : 1) : 0;
            l[i] = 1 - t;
            l[j] = t;
        }
        const mk_real miss = weights_miss(w, l, q);
        if (miss < best) {
            best = miss;
            for (int c = 0; c < 3; ++c)
                lam[c] = l[c];
        }
    }
}

/* ------------------------------------------------------------ answers */

static void epa_placeholder(mk_epa_result *out, mk_status st)
{
    memset(out, 0, sizeof *out);
    out->status = st;
    out->normal = v3(1, 0, 0);
}

static int valid_settings(const mk_epa_settings *s)
{
    return isfinite(s->tolerance) && s->tolerance >= 0 && isfinite(s->relative_tolerance) &&
           s->relative_tolerance >= 0 && s->max_iterations > 0 && s->max_iterations <= MK_EPA_MAX_ITER_CAP;
}

static int valid_simplex(const mk_simplex *s)
{
    if (s->count < 1 || s->count > 4)
        return 0;
    for (int i = 0; i < s->count; ++i)
        if (!v3_finite(s->a[i]) || !v3_finite(s->b[i]) || !isfinite(s->bary[i]))
            return 0;
    return 1;
}

/* Core view of a shape (radius 0). Spheres and capsules need a positive radius
 * to validate, so their point / segment cores become user shapes. */
static mk_vec3 point_core_support(const void *data, mk_vec3 d)
{
    (void)data;
    (void)d;
    return v3(0, 0, 0);
}

static mk_vec3 segment_core_support(const void *data, mk_vec3 d)
{
    mk_real h = ((const mk_shape *)data)->u.capsule.half_height;
    return v3(0, 0, d.z >= 0 ? h : -h);
}

static void core_view(const mk_shape *s, mk_shape *out)
{
    *out = *s;
    if (s->type == MK_SHAPE_SPHERE || s->type == MK_SHAPE_CAPSULE) {
        mk_real h = s->type == MK_SHAPE_CAPSULE ? s->u.capsule.half_height : 0;
        out->type = MK_SHAPE_USER;
        out->u.user.support = s->type == MK_SHAPE_CAPSULE ? segment_core_support : point_core_support;
        out->u.user.data = s;
        out->u.user.aabb_min = v3(0, 0, -h);
        out->u.user.aabb_max = v3(0, 0, h);
    }
    out->radius = 0;
}

/* GJK to convergence on the cores of a pair (radius 0 views). */
static mk_status core_gjk(const mk_pair *pair, const mk_gjk_settings *gs, mk_gjk_cache *cache, mk_gjk_result *g)
{
    mk_shape ca, cb;
    core_view(pair->a, &ca);
    core_view(pair->b, &cb);
    mk_pair cp = {&ca, pair->xf_a, &cb, pair->xf_b};
    return mk_gjk_distance(&cp, gs, cache, g);
}

/* core_gjk, then (with `refine`) a second, warm-started run when the first
 * leaves the distance less certain than the EPA tolerance. GJK's default stops
 * on the duality gap g <= 1e-8 (length^2), which leaves the distance uncertain
 * by up to g / (2 |x|): large near contact, where rounded shapes get their
 * (negative) distance from GJK alone. The second run stops on g <= |x| tol. */
static mk_status core_gjk_refined(const mk_pair *pair, const mk_gjk_settings *settings, int refine,
                                  mk_gjk_cache *cache, const mk_epa_settings *es, mk_gjk_result *g, int *iterations)
{
    mk_gjk_settings base = settings ? *settings : mk_gjk_default_settings();
    mk_status gs = core_gjk(pair, &base, cache, g);
    *iterations = g->iterations;
    mk_real want = es->relative_tolerance * g->core_distance;
    want = want > es->tolerance ? want : es->tolerance;
    if (refine && gs == MK_GJK_SEPARATED && g->gap > 2 * g->core_distance * want) {
        base.tolerance = g->core_distance * want;
        base.relative_tolerance = 0;
        base.init = MK_GJK_INIT_CACHE;
        mk_gjk_result g2;
        mk_status gs2 = core_gjk(pair, &base, cache, &g2);
        *iterations += g2.iterations;
        /* Only a run that got no farther from the answer replaces the first:
         * near its precision floor a second run can stall on a worse point (a
         * rounded cone 1.4e5 across at coordinates of 1.5e6 against a 2.6 mm
         * box: 373.1335 against 373.1300, and the witnesses then missed by
         * 3.5e-3); nor one that contradicts the first's certified lower
         * bound (at coordinates of 1e5 a run saw the cores overlap that the
         * first had proved 0.013 apart: the bracket came out upside down).
         * Both lower bounds are certified: the larger stays (the first run's
         * proved the cores apart: so they are). */
        if ((gs2 == MK_GJK_SEPARATED || gs2 == MK_GJK_INTERSECTING) && g2.core_distance <= g->core_distance &&
            g2.core_distance >= g->lower_bound) {
            if (g->lower_bound > g2.lower_bound) {
                g2.lower_bound = g->lower_bound;
                g2.status = gs2 = MK_GJK_SEPARATED;
            }
            *g = g2;
            gs = gs2;
        }
    }
    return gs;
}

/* Cores apart but within r_A + r_B: depth = r_A + r_B - core distance, from
 * the converged core GJK result g. */
static mk_status cores_apart(const mk_pair *pair, const mk_gjk_result *g, mk_epa_result *out)
{
    mk_real r = pair->a->radius + pair->b->radius;
    mk_real ub = g->core_distance, lb = g->lower_bound > 0 ? g->lower_bound : 0;
    out->depth = r - ub > 0 ? r - ub : 0;
    out->lower_bound = out->depth;
    out->upper_bound = r - lb > 0 ? r - lb : 0;
    out->normal = g->normal;
    out->point_a = v3_madd(g->point_a, pair->a->radius, g->normal);
    out->point_b = v3_madd(g->point_b, -pair->b->radius, g->normal);
    out->iterations = 0;
    out->flags = MK_EPA_FLAG_CORES_SEPARATED;
    out->num_faces = 0;
    out->status = g->status == MK_GJK_MAX_ITER ? MK_EPA_MAX_ITER : MK_PENETRATING;
    return out->status;
}

/* Witnesses from weights lam of the polytope vertices idx: the same convex
 * combination of A's and of B's support points, put exactly the depth
 * (e->upper) apart along e->best_n. When their difference lies off that line
 * beyond rounding (a point clamped into its triangle), the pair's midpoint is
 * moved instead, so that point_b - point_a stays along n. Returns |a - b -
 * depth n|: each witness lies within half of that of its shape's point. */
static mk_real weighted_witnesses(const epa *e, const int idx[3], const mk_real lam[3], mk_vec3 *pa, mk_vec3 *pb)
{
    const mk_vec3 n = e->best_n;
    mk_vec3 a = v3(0, 0, 0), b = v3(0, 0, 0);
    for (int i = 0; i < 3; ++i) {
        a = v3_madd(a, lam[i], e->v[idx[i]].a);
        b = v3_madd(b, lam[i], e->v[idx[i]].b);
    }
    const mk_vec3 ab = v3_sub(a, b);
    const mk_real s = v3_dot(n, ab);
    /* (a crossing clamped into its triangle: 1.6e-6 on a pair at the scale
     * 1e3 whose planes gave no exit) */
    const mk_real miss2 = v3_len2(v3_madd(ab, -s, n));
    const mk_real floor_len = 64 * DBL_EPSILON * e->scale;
    if (miss2 > floor_len * floor_len) {
        const mk_vec3 m = v3_scale(v3_add(a, b), 0.5);
        *pa = v3_madd(m, 0.5 * e->upper, n);
        *pb = v3_madd(m, -0.5 * e->upper, n);
    } else {
        *pa = v3_madd(a, 0.5 * (e->upper - s), n);
        *pb = v3_madd(b, -0.5 * (e->upper - s), n);
    }
    return v3_len(v3_madd(ab, -e->upper, n));
}

/* Witnesses of the polytope's answer (core points, A's frame): where the ray
 * along e->best_n leaves it (the same convex combination of A's and of B's
 * support points), put exactly the depth (e->upper) apart along it. 0 when
 * the ray finds no face. */
static int ray_witnesses(epa *e, mk_vec3 *pa, mk_vec3 *pb)
{
    int idx[3];
    mk_real lam[3];
    mk_vec3 q;
    if (!ray_exit(e, e->best_n, idx, lam, &q))
        return 0;
    refine_weights(e, idx, q, lam);
    (void)weighted_witnesses(e, idx, lam, pa, pb);
    return 1;
}

/* Witnesses of face fi (alive or not: its vertices are points of D) at the
 * point of its triangle nearest the ray's point at the depth; returns
 * weighted_witnesses' |a - b - depth n|. */
static mk_real face_witnesses(const epa *e, int fi, mk_vec3 *pa, mk_vec3 *pb)
{
    const face *g = &e->f[fi];
    const int idx[3] = {g->v[0], g->v[1], g->v[2]};
    const mk_vec3 q = v3_scale(e->best_n, e->upper);
    mk_real lam[3] = {1, 0, 0};
    refine_weights(e, idx, q, lam);
    return weighted_witnesses(e, idx, lam, pa, pb);
}

/* For a polytope the ray cannot be trusted to leave (ray_exit: a face within
 * rounding of the origin): the pair nearest the answer (a - b = depth n)
 * among the face that gave it (e->best_face) and the live faces; returns its
 * |a - b - depth n|, infinity without a face. The answer's face alone was
 * not enough: a cylinder touching a hull (depth 8.6e-11, a relative tolerance
 * of 1e-9 of it) ran EPA to its budget, the answer came from an early face
 * whose pair lay 8.9e-4 off, and a live face held one within rounding (test_epa
 * hostile_touching_cylinder_and_hull_relative_witnesses). Only on this path,
 * at most the face budget's refine_weights. */
static mk_real nearest_face_witnesses(const epa *e, mk_vec3 *pa, mk_vec3 *pb)
{
    mk_real best = e->best_face < 0 ? INFINITY : face_witnesses(e, e->best_face, pa, pb);
    for (int k = 0; k < e->nlive; ++k) {
        if (e->live[k] == e->best_face)
            continue; /* weighed above */
        mk_vec3 fa, fb;
        const mk_real err = face_witnesses(e, e->live[k], &fa, &fb);
        if (err < best) {
            best = err;
            *pa = fa;
            *pb = fb;
        }
    }
    return best;
}

/* The point GJK's simplex has in both cores: its weights applied to A's
 * support points give a point a of A, applied to B's a point b of B, with
 * a - b = x, GJK's last point of D (tiny: the cores touch within GJK's
 * tolerance), and their half sum is the contact point. When the simplex
 * encloses the origin, a = b in exact arithmetic, but the weights of a flat
 * tetrahedron carry rounding relative to D's size (7e-4 of a box 1.2e6 across
 * holding a cylinder 0.03 across, whose half sum lay 458 off the cylinder;
 * the core's fuzzer), and each point's error is that times the spread of its
 * own support points: then the point of the shape whose points spread less.
 * Those weights' rounding grows as the tetrahedron flattens (about eps L^2 /
 * thickness), while a face's projection weights keep that of eps L; and in a
 * flat tetrahedron the origin lies within its thickness of a face. So the
 * faces' projections compete too, and the weights whose a and b agree best
 * win (a box 2600 across touching a cone 1850 tall: the tetrahedron's own
 * weights put a 3.8e-5 off the box, 2.9e-8 of its size, where its faces' give
 * 2e-13; test_contracts at MK_TEST_SCALE=30). (Below four points the weights
 * are the projection's, and a and b differ by x: the half sum.)
 *
 * Whatever the count, when one shape's support points are all one point (a
 * vertex met at every step) and the other's are not, that point is the
 * contact, and the other's weighted sum is not: on a curved surface it lies
 * inside by the chord's sag (a box's corner touching a cone's side 1000
 * across, GJK's triangle the corner three times and three points of the cone
 * 0.3 apart on its rim: the half sum lay 3.8e-6 inside the cone, 3.4e-9 of
 * the size; test_contracts at MK_TEST_SCALE=1000). *anchor = -1 when the
 * point is A's single point, 1 B's, else 0. Points that spread on both sides
 * keep the rules above: neither a small spread nor the steadier support
 * along the normal (manifold.c's test for a single contact point) proves
 * one. An ellipsoid 1470 across touching a box's edge, GJK 9.8e-6 short of
 * it: the ellipsoid's weighted sum put the witnesses 9.8e-6 off, its support
 * along EPA's normal (noise-level at touching) 6.8e-3 off the edge; the half
 * sum, 4.9e-6 off, is the best of this simplex, and epa_solve takes a
 * polytope face's pair instead when it is nearer the answer (there 2.7e-9 off;
 * test_contracts at MK_TEST_SCALE=1000, scene 1,623,469). *pa, *pb: the
 * pair of the weights taken (a - b = x below four points), against which
 * epa_solve weighs the polytope faces' pairs. */
static mk_vec3 gjk_common_point(const mk_simplex *sx, int *anchor, mk_vec3 *pa, mk_vec3 *pb)
{
    mk_vec3 a, b;
    simplex_witnesses(sx, &a, &b);
    *pa = a;
    *pb = b;
    mk_real spread_a = 0, spread_b = 0;
    for (int i = 1; i < sx->count; ++i) {
        const mk_real da = v3_len2(v3_sub(sx->a[i], sx->a[0])), db = v3_len2(v3_sub(sx->b[i], sx->b[0]));
        spread_a = da > spread_a ? da : spread_a;
        spread_b = db > spread_b ? db : spread_b;
    }
    *anchor = spread_a == 0 && spread_b > 0 ? -1 : spread_b == 0 && spread_a > 0 ? 1 : 0;
    if (*anchor)
        return *anchor < 0 ? sx->a[0] : sx->b[0];
    if (sx->count < 4)
        return v3_scale(v3_add(a, b), 0.5);
    mk_real agree = v3_len2(v3_sub(a, b));
    for (int f = 0; f < 4; ++f) {
        mk_simplex t;
        t.count = 3;
        for (int i = 0, j = 0; i < 4; ++i)
            if (i != f) {
                t.w[j] = sx->w[i];
                t.a[j] = sx->a[i];
                t.b[j] = sx->b[i];
                ++j;
            }
        mk_simplex_project(&t);
        mk_vec3 ta, tb;
        simplex_witnesses(&t, &ta, &tb);
        const mk_real d = v3_len2(v3_sub(ta, tb));
        if (d < agree) {
            agree = d;
            a = ta;
            b = tb;
        }
    }
    *pa = a;
    *pb = b;
    return spread_a < spread_b ? a : spread_b < spread_a ? b : v3_scale(v3_add(a, b), 0.5);
}

/* The result of a finished expansion: core depth = the upper bound (E2),
 * attained along e->best_n; a, b its core witnesses (A's frame); radii added. */
static mk_status epa_result(const mk_pair *pair, const epa *e, stop why, mk_vec3 a, mk_vec3 b, int iterations,
                            int polytope, mk_epa_result *out)
{
    const mk_transform *xa = &pair->xf_a;
    const mk_real ra = pair->a->radius, rb = pair->b->radius;
    const mk_real up = e->upper, lo = e->lower < e->upper ? e->lower : e->upper;
    const mk_vec3 n = e->best_n;
    int flags = e->flags;
    if (why == STOP_FLOOR)
        flags |= MK_EPA_FLAG_PRECISION_FLOOR;
    if (why == STOP_DEGENERATE)
        flags |= MK_EPA_FLAG_DEGENERATE_UPDATE;
    a = v3_madd(a, ra, n);
    b = v3_madd(b, -rb, n);
    out->depth = up + ra + rb;
    out->upper_bound = out->depth;
    out->lower_bound = lo + ra + rb;
    out->normal = m3_mul(&xa->R, n);
    out->point_a = xf_apply(xa, a);
    out->point_b = xf_apply(xa, b);
    out->iterations = iterations;
    out->flags = flags;
    out->num_faces = polytope ? e->nlive : 0;
    switch (why) {
    case STOP_MAX_ITER: out->status = MK_EPA_MAX_ITER; break;
    case STOP_BUDGET: out->status = MK_EPA_FACE_BUDGET; break;
    default: out->status = MK_PENETRATING; break; /* converged, or a floor / degenerate flag */
    }
    return out->status;
}

/* EPA on a validated pair whose GJK result says the cores overlap or touch
 * (GJK reports "touching within its tolerance" as intersecting, with |x| > 0).
 * The answer is signed: out->depth = upper bound of the core depth + radii,
 * negative when a support plane proves the cores apart after all; the
 * bracket is [lower_bound, upper_bound] on that signed depth. *anchor:
 * gjk_common_point's, when the witnesses came from it (one of them a point
 * of its shape, -1 A's, 1 B's), else 0. */
static mk_status epa_solve(const mk_pair *pair, ctx *c, const mk_gjk_result *gjk, const mk_epa_settings *st,
                           void *workspace, mk_epa_result *out, int *anchor)
{
    const mk_transform *xa = &pair->xf_a;
    const mk_real ra = pair->a->radius, rb = pair->b->radius;
    *anchor = 0;
    /* Pairs with a closed form (closed_depth.h): coaxial bodies of
     * revolution, a sphere's centre inside an ellipsoid. */
    if (mk_revolution_depth(pair, st, out) || mk_point_ellipsoid_depth(pair, st, out))
        return out->status;
    epa e;
    epa_init(&e, c, st, ra + rb, workspace);
    /* Until a polytope around the origin proves overlap, GJK's point x of D
     * bounds the signed core distance from above: depth >= -|x|. */
    e.lower = -gjk->core_distance;

    mk_vec3 hint = v3_normalize_or(m3_tmul(&xa->R, gjk->normal), v3(1, 0, 0));
    seed_out so = seed(&e, &gjk->simplex, hint);
    stop why = STOP_CONVERGED;
    int iterations = 0;
    if (c->bad) {
        why = STOP_BAD;
    } else if (so == SEED_DONE) {
        e.flags |= MK_EPA_FLAG_TOUCHING;
    } else if (so == SEED_POLYTOPE) {
        why = expand_loop(&e, st->max_iterations, &iterations);
    } else {
        why = converged(&e) ? STOP_CONVERGED : STOP_DEGENERATE;
    }
    if (why == STOP_BAD) {
        epa_placeholder(out, MK_INVALID_INPUT);
        return MK_INVALID_INPUT;
    }
    /* Witnesses where the ray along n leaves the polytope, else the contact
     * point GJK found, put depth apart along n (a - b = depth n): a single
     * point of one shape (gjk_common_point's anchor) stays on its shape and
     * the other witness moves, any other point sits halfway. */
    mk_vec3 a, b;
    *anchor = 0;
    if (!(so == SEED_POLYTOPE && ray_witnesses(&e, &a, &b))) {
        mk_vec3 ga, gb;
        const mk_vec3 m = gjk_common_point(&gjk->simplex, anchor, &ga, &gb);
        const mk_real up = *anchor < 0 ? 0 : *anchor > 0 ? e.upper : 0.5 * e.upper;
        a = v3_madd(m, up, e.best_n);
        b = v3_madd(m, up - e.upper, e.best_n);
        /* GJK's pair (ga, gb: a - b = x, its point of D, or a tetrahedron's
         * weights' rounding) placed about m: each witness is off its shape by
         * up to about |ga - gb - depth n| / 2. A face of the polytope may hold
         * a pair nearer the answer: an ellipsoid touching a box at the scale
         * 1e3 (depth 5.9e-9, a face's offset -7e-11 within the flat tolerance
         * 1.8e-7, so the ray was not trusted) took GJK's pair, |x| = 9.8e-6
         * after GJK stalled, and both witnesses lay 4.9e-6 off their shapes;
         * the answer's face held a pair within rounding (test_contracts at
         * MK_TEST_SCALE=1000, scene 1,623,469). Two cylinders overlapping by
         * 3.6e-9 at unit size, EPA at its budget under a relative tolerance:
         * GJK's tetrahedron (|x| = 0) put a witness 1.7e-9 outside a
         * cylinder, a live face's pair was within rounding (scene 321,205 of
         * the relative-tolerance run at MK_TEST_SCALE=1000). Weighed by
         * its distance off the ray alone, not along it, a face's pair 3.1e-9
         * short of the depth won over GJK's exact one where a cone exactly
         * touched a hull (scene 543,908: witnesses 1.5e-9 off). */
        mk_vec3 fa, fb;
        const mk_real gjk_off = v3_len(v3_madd(v3_sub(ga, gb), -e.upper, e.best_n));
        if (so == SEED_POLYTOPE && !*anchor && nearest_face_witnesses(&e, &fa, &fb) < gjk_off) {
            a = fa;
            b = fb;
        }
    }
    return epa_result(pair, &e, why, a, b, iterations, so == SEED_POLYTOPE, out);
}

/* A signed distance from EPA's answer (the GJK fields are the caller's): its
 * negated depth and bracket; a depth that came out negative (a support plane
 * proved the cores apart after all) is a separation. */
static mk_status sd_from_epa(const mk_epa_result *e, mk_signed_distance_result *out)
{
    out->distance = -e->depth;
    out->lower_bound = -e->upper_bound;
    out->upper_bound = -e->lower_bound;
    out->point_a = e->point_a;
    out->point_b = e->point_b;
    out->normal = e->normal;
    out->epa_iterations = e->iterations;
    out->epa_flags = e->flags;
    out->status = e->status == MK_PENETRATING && out->distance > 0 ? MK_GJK_SEPARATED : e->status;
    return out->status;
}

/* Contract in epa_seed.h. */
int mk_epa_from_points(const mk_pair *pair, const mk_vec3 *a, const mk_vec3 *b, int count,
                       const mk_epa_settings *settings, void *workspace, size_t workspace_bytes,
                       mk_signed_distance_result *out)
{
    if (count < 4 || count > MK_EPA_MAX_SEED || !workspace ||
        workspace_bytes < mk_epa_workspace_size(settings->max_iterations))
        return 0;
    ctx c;
    make_ctx(pair, -1, -1, &c);
    epa e;
    epa_init(&e, &c, settings, pair->a->radius + pair->b->radius, workspace);
    int cand[MK_EPA_MAX_SEED];
    for (int i = 0; i < count; ++i) {
        vert g;
        g.a = a[i];
        g.b = b[i];
        g.w = v3_sub(a[i], b[i]);
        if (!v3_finite(g.w))
            return 0;
        note_scale(&e, g.w);
        e.pending = g;
        cand[i] = keep_vertex(&e);
    }
    mk_vec3 off;
    if (seed_hull(&e, cand, count, &off) != HULL_OK)
        return 0;
    int iterations = 0;
    const stop why = expand_loop(&e, settings->max_iterations, &iterations);
    mk_vec3 pa, pb;
    if (why != STOP_CONVERGED || c.bad || !(e.lower > 0) || !ray_witnesses(&e, &pa, &pb))
        return 0;
    mk_epa_result er;
    mk_signed_distance_result sd;
    epa_result(pair, &e, why, pa, pb, iterations, 1, &er);
    if (sd_from_epa(&er, &sd) != MK_PENETRATING)
        return 0;
    sd.gjk_iterations = 0;
    *out = sd;
    return 1;
}

/* The penetration depth of shapes that turned out apart is 0. */
static void clamp_depth(mk_epa_result *out, int anchor)
{
    if (out->depth < 0) {
        /* keep the witnesses touching along the normal: at their midpoint,
         * or at the one that is a point of its shape (epa_solve's anchor) */
        mk_vec3 m = anchor < 0   ? out->point_a
                    : anchor > 0 ? out->point_b
                                 : v3_scale(v3_add(out->point_a, out->point_b), 0.5);
        out->point_a = out->point_b = m;
        out->depth = 0;
    }
    if (out->upper_bound < 0)
        out->upper_bound = 0;
    if (out->lower_bound < 0)
        out->lower_bound = 0;
}

/* The checks mk_epa and mk_signed_distance make on the pair and the
 * workspace (the pair's status first, as pair_check gives it). */
static mk_status pair_and_workspace(const mk_pair *pair, const mk_epa_settings *st, const void *workspace,
                                    size_t workspace_bytes)
{
    const mk_status v = pair_check(pair);
    if (v != MK_OK)
        return v;
    return workspace && workspace_bytes >= mk_epa_workspace_size(st->max_iterations) ? MK_OK
                                                                                      : MK_WORKSPACE_TOO_SMALL;
}

mk_status mk_epa(const mk_pair *pair, const mk_gjk_result *gjk, const mk_epa_settings *settings, void *workspace,
                 size_t workspace_bytes, mk_epa_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    epa_placeholder(out, MK_INVALID_INPUT);
    mk_epa_settings st = settings ? *settings : mk_epa_default_settings();
    if (!valid_settings(&st) || !gjk || gjk->status != MK_GJK_INTERSECTING || !valid_simplex(&gjk->simplex) ||
        !isfinite(gjk->core_distance) || !v3_finite(gjk->normal))
        return MK_INVALID_INPUT;
    mk_status v = pair_and_workspace(pair, &st, workspace, workspace_bytes);
    if (v != MK_OK) {
        out->status = v;
        return v;
    }
    ctx c;
    int anchor = 0;
    make_ctx(pair, -1, -1, &c); /* cold hill-climbing starts (the hulls' start tables) */
    if (gjk->core_distance > 0 && pair->a->radius + pair->b->radius > 0) {
        /* GJK stopped as soon as the cores came within the radii: finish it
         * on the cores, from where it stopped. */
        mk_gjk_cache warm;
        memset(&warm, 0, sizeof warm);
        for (int i = 0; i < gjk->simplex.count; ++i)
            warm.dir = v3_madd(warm.dir, gjk->simplex.bary[i], v3_sub(gjk->simplex.a[i], gjk->simplex.b[i]));
        warm.valid = v3_finite(warm.dir) && v3_len2(warm.dir) > 0;
        mk_gjk_settings gs = mk_gjk_default_settings();
        gs.init = MK_GJK_INIT_CACHE;
        mk_gjk_result g;
        int gjk_iterations;
        mk_status s = core_gjk_refined(pair, &gs, 1, &warm, &st, &g, &gjk_iterations);
        if (s == MK_GJK_INTERSECTING) {
            epa_solve(pair, &c, &g, &st, workspace, out, &anchor);
            clamp_depth(out, anchor);
            return out->status;
        }
        if (s != MK_GJK_SEPARATED && s != MK_GJK_MAX_ITER) {
            out->status = s;
            return s;
        }
        return cores_apart(pair, &g, out);
    }
    epa_solve(pair, &c, gjk, &st, workspace, out, &anchor);
    clamp_depth(out, anchor);
    return out->status;
}

/* ------------------------------------------------------------ signed distance */

/* Core distances below this times the size of D count as touching when GJK's
 * normal is not certified: x is then a rounding-sized vector. */
#define MK_SD_TOUCHING 1e-6

static mk_real scale_of(const mk_gjk_result *g)
{
    mk_real m = 0;
    for (int i = 0; i < g->simplex.count; ++i) {
        mk_real l = v3_max_abs(g->simplex.w[i]);
        m = l > m ? l : m;
    }
    return m;
}

static void sd_placeholder(mk_signed_distance_result *out, mk_status st);

/* The core of a sphere (a point) or a capsule (a segment) in the world: its
 * end points (equal for a sphere). 0 for other shapes. */
static int segment_core(const mk_shape *s, const mk_transform *xf, mk_vec3 *p0, mk_vec3 *p1)
{
    if (s->type == MK_SHAPE_SPHERE) {
        *p0 = *p1 = xf->p;
        return 1;
    }
    if (s->type != MK_SHAPE_CAPSULE)
        return 0;
    const mk_real h = s->u.capsule.half_height;
    *p0 = xf_apply(xf, v3(0, 0, -h));
    *p1 = xf_apply(xf, v3(0, 0, h));
    return 1;
}

/* Spheres and capsules: the cores are points and segments, whose closest
 * points have a closed form; the signed distance is their distance less the
 * radii. Returns 0 (nothing written) when the cores touch to within
 * MK_SD_TOUCHING of their size, where the normal is rounding (the general
 * path decides there, as it does for every other pair). */
static int rounded_segments(const mk_pair *pair, mk_gjk_cache *cache, mk_signed_distance_result *out)
{
    mk_vec3 a0, a1, b0, b1;
    if (!segment_core(pair->a, &pair->xf_a, &a0, &a1) || !segment_core(pair->b, &pair->xf_b, &b0, &b1))
        return 0;
    const mk_vec3 u = v3_sub(a1, a0), v = v3_sub(b1, b0);
    mk_real s, t;
    closest_on_segments(a0, u, b0, v, &s, &t);
    const mk_vec3 pa = v3_madd(a0, s, u), pb = v3_madd(b0, t, v);
    const mk_vec3 x = v3_sub(pb, pa);
    const mk_real d = v3_len(x);
    const mk_real scale = v3_max_abs(a0) + v3_max_abs(a1) + v3_max_abs(b0) + v3_max_abs(b1);
    if (!(d > MK_SD_TOUCHING * scale) || !isfinite(d))
        return 0;
    const mk_vec3 n = v3_scale(x, 1 / d);
    const mk_real ra = pair->a->radius, rb = pair->b->radius;
    /* pa and pb are points of the cores up to their rounding (a few units
     * in the last place of the coordinates): the bracket. */
    const mk_real round = 16 * DBL_EPSILON * scale;
    sd_placeholder(out, MK_GJK_SEPARATED);
    out->distance = d - ra - rb;
    out->upper_bound = d + round - ra - rb;
    out->lower_bound = d - round - ra - rb;
    out->normal = n;
    out->point_a = v3_madd(pa, ra, n);
    out->point_b = v3_madd(pb, -rb, n);
    if (out->distance < 0) {
        out->status = MK_PENETRATING;
        out->epa_flags = MK_EPA_FLAG_CORES_SEPARATED;
    }
    if (cache) {
        /* what GJK leaves: its iterate a - b in A's frame, no simplex */
        cache->dir = m3_tmul(&pair->xf_a.R, v3_neg(x));
        cache->count = 0;
        cache->valid = 1;
    }
    return 1;
}

/* An ellipsoid with semi-axes e is its inner parallel body grown by a ball
 * of rho = e_min^2 / e_max, its smallest radius of curvature (a ball of that
 * radius rolls freely inside it: Blaschke's rolling theorem), and the inner
 * body's support along d is s_E(d) - rho d / |d|. EPA on those cores, rho
 * added to the radii, works on a difference whose boundary is rho less
 * curved each way, which is what its polytope must follow: where the
 * ellipsoids are nearly round, nearly flat; and a shallow overlap is cores
 * apart, a GJK distance. */
typedef struct ellipsoid_core {
    mk_vec3 e;
    mk_real rho;
} ellipsoid_core;

static mk_vec3 ellipsoid_core_support(const void *data, mk_vec3 d)
{
    const ellipsoid_core *c = data;
    const mk_vec3 ed = v3(c->e.x * d.x, c->e.y * d.y, c->e.z * d.z);
    const mk_real l = v3_len(ed), dl = v3_len(d);
    if (!(l > 0) || !(dl > 0))
        return v3(c->e.x - c->rho, 0, 0);
    return v3(c->e.x * ed.x / l - c->rho * d.x / dl, c->e.y * ed.y / l - c->rho * d.y / dl,
              c->e.z * ed.z / l - c->rho * d.z / dl);
}

/* s itself, or for an ellipsoid its inner core (a user shape on c) with rho
 * added to its radius. 1 when s was an ellipsoid. */
static int ellipsoid_as_core(const mk_shape *s, ellipsoid_core *c, mk_shape *out)
{
    *out = *s;
    if (s->type != MK_SHAPE_ELLIPSOID)
        return 0;
    const mk_vec3 e = s->u.ellipsoid.radii;
    const mk_real lo = fmin(e.x, fmin(e.y, e.z)), hi = fmax(e.x, fmax(e.y, e.z));
    c->e = e;
    c->rho = lo * (lo / hi);
    const mk_vec3 h = v3(fmax(e.x - c->rho, 0), fmax(e.y - c->rho, 0), fmax(e.z - c->rho, 0));
    return mk_shape_user(out, ellipsoid_core_support, c, v3_neg(h), h, s->radius + c->rho) == MK_OK;
}

static void sd_placeholder(mk_signed_distance_result *out, mk_status st)
{
    memset(out, 0, sizeof *out);
    out->status = st;
    out->normal = v3(1, 0, 0);
}

/* mk_signed_distance's first stages on a validated pair: the closed form of
 * spheres and capsules whose cores are apart, else GJK on the cores into *g,
 * *gs (*cache: the caller's, or `local` when it has none; `refine`: see
 * core_gjk_refined). 1 when *out holds the answer already. */
static int sd_start(const mk_pair *pair, const mk_gjk_settings *gjk_settings, int refine, const mk_epa_settings *es,
                    mk_gjk_cache **cache, mk_gjk_cache *local, mk_gjk_result *g, mk_status *gs,
                    mk_signed_distance_result *out)
{
    if (rounded_segments(pair, *cache, out))
        return 1;
    /* GJK on the cores: converged distances even where the radii overlap. A
     * local cache carries GJK's last support vertices (hill-climbing hints)
     * over to EPA when the caller keeps none. */
    memset(local, 0, sizeof *local);
    if (!*cache)
        *cache = local;
    *gs = core_gjk_refined(pair, gjk_settings, refine, *cache, es, g, &out->gjk_iterations);
    if (*gs != MK_GJK_SEPARATED && *gs != MK_GJK_INTERSECTING && *gs != MK_GJK_MAX_ITER) {
        out->status = *gs;
        return 1;
    }
    return 0;
}

/* The stages after GJK (its status gs, result *gr, the pair's cache): EPA
 * when the cores overlap, else GJK's distance. */
static mk_status sd_finish(const mk_pair *pair, mk_status gs, const mk_gjk_result *g, mk_gjk_cache *cache,
                           const mk_epa_settings *es, void *workspace, mk_signed_distance_result *out)
{
    const mk_real ra = pair->a->radius, rb = pair->b->radius, r = ra + rb;
    ctx c;
    make_ctx(pair, cache->hint_a, cache->hint_b, &c);
    int anchor = 0;

    if (gs == MK_GJK_INTERSECTING) {
        mk_epa_result e;
        if (epa_solve(pair, &c, g, es, workspace, &e, &anchor) == MK_INVALID_INPUT) {
            sd_placeholder(out, MK_INVALID_INPUT);
            return MK_INVALID_INPUT;
        }
        return sd_from_epa(&e, out);
    }

    /* Cores apart (or GJK out of iterations): distance from GJK. The support
     * along the normal certifies the separation along it, -h_D(n), a lower
     * bound of the signed core distance even where GJK has no positive one. */
    mk_vec3 nl = v3_normalize_or(m3_tmul(&pair->xf_a.R, g->normal), v3(1, 0, 0));
    vert s = support_max(&c, nl, -1, -1);
    if (c.bad) {
        sd_placeholder(out, MK_INVALID_INPUT);
        return MK_INVALID_INPUT;
    }
    mk_real sep = -v3_dot(nl, s.w);
    mk_real ub = g->core_distance, lb = g->lower_bound > 0 ? g->lower_bound : -INFINITY;
    mk_vec3 n = g->normal;
    mk_vec3 mid = v3_scale(v3_add(g->point_a, g->point_b), 0.5);
    mk_vec3 epa_a = mid, epa_b = mid; /* EPA's core witnesses, when its normal wins */
    int from_epa = 0;
    if (gs == MK_GJK_SEPARATED && ub - sep > fmax(es->tolerance, ub) && ub <= MK_SD_TOUCHING * scale_of(g)) {
        /* Touching to rounding: the direction of GJK's tiny x is noise (the
         * separation along it is off by more than the distance itself). EPA
         * from GJK's simplex finds the contact normal; keep the better one. */
        mk_epa_result e;
        if (epa_solve(pair, &c, g, es, workspace, &e, &anchor) == MK_INVALID_INPUT) {
            sd_placeholder(out, MK_INVALID_INPUT);
            return MK_INVALID_INPUT;
        }
        mk_real sep_e = -(e.depth - r);
        if (sep_e > sep) {
            sep = sep_e;
            n = e.normal;
            /* EPA's witnesses carry the radii: back to the cores (and their
             * midpoint) */
            mid = v3_madd(v3_scale(v3_add(e.point_a, e.point_b), 0.5), 0.5 * (rb - ra), n);
            epa_a = v3_madd(e.point_a, -ra, n);
            epa_b = v3_madd(e.point_b, rb, n);
            from_epa = 1;
            out->epa_iterations = e.iterations;
            out->epa_flags = e.flags;
        }
    }
    mk_real core_lb = sep > lb ? sep : lb;
    if (core_lb > ub)
        core_lb = ub;
    out->distance = ub - r;
    out->upper_bound = out->distance;
    out->lower_bound = core_lb - r;
    out->normal = n;
    /* Witnesses distance apart along n, centred on GJK's pair or EPA's; a
     * witness EPA took as a point of its shape (epa_solve's anchor) stays,
     * the other one moves (EPA's support bound can be looser than GJK's
     * distance: a cone 2.6e-9 from a hull's vertex, EPA's gap -1.1e-9; both
     * moved about their midpoint, the cone's lay 1.9e-9 off it, 2.6e-9 of the
     * size; test_contracts at MK_TEST_SCALE=1000). */
    mk_vec3 ca = v3_madd(mid, -0.5 * ub, n), cb = v3_madd(mid, 0.5 * ub, n);
    if (from_epa && anchor < 0) {
        ca = epa_a;
        cb = v3_madd(epa_a, ub, n);
    } else if (from_epa && anchor > 0) {
        cb = epa_b;
        ca = v3_madd(epa_b, -ub, n);
    }
    out->point_a = v3_madd(ca, ra, n);
    out->point_b = v3_madd(cb, -rb, n);
    if (out->distance < 0)
        out->epa_flags |= MK_EPA_FLAG_CORES_SEPARATED;
    if (gs == MK_GJK_MAX_ITER)
        out->status = MK_GJK_MAX_ITER;
    else
        out->status = out->distance < 0 ? MK_PENETRATING : MK_GJK_SEPARATED;
    return out->status;
}

/* A validated pair without ellipsoids (the inner cores' pair), start to end,
 * GJK refined whatever the caller's settings: the cores' distance is the
 * depth's, and must meet EPA's tolerance (mk_collide passes its settings,
 * which left it unrefined: on resting ellipsoids the answer was often
 * declined and EPA ran as well, keeping 65% of EPA's former instructions
 * under callgrind). */
static mk_status sd_plain(const mk_pair *pair, const mk_gjk_settings *gjk_settings, const mk_epa_settings *es,
                          void *workspace, mk_signed_distance_result *out)
{
    sd_placeholder(out, MK_INVALID_INPUT);
    mk_gjk_cache local, *cache = NULL;
    mk_gjk_result g;
    mk_status gs = MK_INVALID_INPUT;
    if (sd_start(pair, gjk_settings, 1, es, &cache, &local, &g, &gs, out))
        return out->status;
    return sd_finish(pair, gs, &g, cache, es, workspace, out);
}

/* Overlapping ellipsoids (GJK found the cores overlapping): the answer on
 * their inner cores (ellipsoid_as_core), when it is certain of the overlap
 * and converged; touching pairs keep EPA on the shapes themselves, whose
 * polytope proves the overlap GJK found, where the cores' distance is as
 * uncertain as the depth is small. Not against a sphere: its centre inside an
 * ellipsoid has a closed form (epa_solve), and outside it GJK found the cores
 * apart. 1 with *out written (GJK's iterations added to the ones there). */
static int inner_cores(const mk_pair *pair, const mk_gjk_settings *gjk_settings, const mk_epa_settings *settings,
                       void *workspace, mk_signed_distance_result *out)
{
    const mk_shape_type ta = pair->a->type, tb = pair->b->type;
    if ((ta != MK_SHAPE_ELLIPSOID && tb != MK_SHAPE_ELLIPSOID) || ta == MK_SHAPE_SPHERE || tb == MK_SHAPE_SPHERE)
        return 0;
    ellipsoid_core ca, cb;
    mk_shape ua, ub;
    const int ea = ellipsoid_as_core(pair->a, &ca, &ua), eb = ellipsoid_as_core(pair->b, &cb, &ub);
    if (!(ea || eb))
        return 0;
    const mk_pair cores = {&ua, pair->xf_a, &ub, pair->xf_b};
    mk_signed_distance_result in;
    if (sd_plain(&cores, gjk_settings, settings, workspace, &in) != MK_PENETRATING || !(in.upper_bound < 0))
        return 0;
    /* As EPA reports: the depth is the shapes' overlap along the normal (E2;
     * the cores' GJK distance leaves it within its tolerance), the witnesses
     * moved apart to it about their middle. */
    const mk_real ov = closed_overlap_along(pair, in.normal) + pair->a->radius + pair->b->radius;
    const mk_real lo = -ov, hi = in.upper_bound;
    if (!(isfinite(ov) && lo < 0 && lo <= hi && closed_within(settings, lo, hi, ov)))
        return 0;
    const mk_real shift = 0.5 * (in.distance - lo);
    in.point_a = v3_madd(in.point_a, shift, in.normal);
    in.point_b = v3_madd(in.point_b, -shift, in.normal);
    in.distance = in.lower_bound = lo;
    in.gjk_iterations += out->gjk_iterations;
    /* the cores a user sees are the shapes: what happened is said by the
     * inner-core flag */
    in.epa_flags = (in.epa_flags & ~MK_EPA_FLAG_CORES_SEPARATED) | MK_EPA_FLAG_INNER_CORES;
    *out = in;
    return 1;
}

mk_status mk_signed_distance(const mk_pair *pair, const mk_gjk_settings *gjk_settings,
                             const mk_epa_settings *epa_settings, mk_gjk_cache *cache, void *workspace,
                             size_t workspace_bytes, mk_signed_distance_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    sd_placeholder(out, MK_INVALID_INPUT);
    mk_epa_settings es = epa_settings ? *epa_settings : mk_epa_default_settings();
    if (!valid_settings(&es))
        return MK_INVALID_INPUT;
    mk_status v = pair_and_workspace(pair, &es, workspace, workspace_bytes);
    if (v != MK_OK) {
        out->status = v;
        return v;
    }
    mk_gjk_cache local;
    mk_gjk_result g;
    mk_status gs = MK_INVALID_INPUT;
    if (sd_start(pair, gjk_settings, !gjk_settings, &es, &cache, &local, &g, &gs, out))
        return out->status;
    if (gs == MK_GJK_INTERSECTING && inner_cores(pair, gjk_settings, &es, workspace, out))
        return out->status;
    return sd_finish(pair, gs, &g, cache, &es, workspace, out);
}
