/* A convex shape against a triangle mesh (mesh.h).
 *
 * The mesh: welded vertices, triangles with unit normals (counter-clockwise
 * winding), for each triangle edge the third vertex of the triangle across
 * it (-1: an open edge, or one shared by more than two triangles), each
 * vertex's one-ring, and an axis-aligned box tree over the triangles
 * (median split along the longest axis of the centroids' box, leaves of up
 * to MESH_LEAF triangles), all in the mesh's own frame.
 *
 * The query, in the mesh's frame: the shape's box (its support along the
 * three axes) picks the triangles whose boxes it meets; each with the
 * shape's centre in front of it (normal N), or a little behind it with the
 * centre inside the surface (point_sunk, mesh.h), is met so:
 *  1. the shape's depth below the triangle's plane from one support call
 *     along -N (kept for the next triangle with the same normal); a shape
 *     above the plane (beyond the speculative distance) gets nothing from
 *     this triangle, and a triangle whose three edges are flat (inside a
 *     floor) goes straight to step 4: no other normal is its to give;
 *  2. unless the shape lies wholly beyond one of the triangle's side
 *     planes or of the planes halfway between those and the face's (six
 *     support calls), or its part below the plane lies inside the
 *     triangle's column by at least its depth (three support calls: then
 *     step 4, the face's answer), mk_collide_patch against the triangle
 *     extruded away from the shape (a prism, a hand-built hull of 6 vertices
 *     and 5 faces, thickness twice the plane depth plus 5% of the triangle's
 *     longest edge, so its far face is never the nearest way out); the
 *     push-out direction u is minus the patch's normal;
 *  3. u other than N is kept when it belongs to the feature the deepest
 *     point's foot lies on: an edge that is convex (or open) with u in its
 *     Voronoi cone (<u, N> >= <N', N>, N' the face beyond), or a corner with
 *     no edge of its one-ring rising along u (corner_cone), or a point of
 *     one of the corner's edges within the feet's slack of it (u across the
 *     edge, in its cone), or, the foot off every edge, u square to a convex
 *     (or open) edge, leaning out across it and in its cone; the patch's
 *     points then stand;
 *  4. otherwise (u = N, or a u the surface does not have there, which is
 *     what catches shapes on the inner edges of a flat floor or a valley)
 *     the triangle answers as the plane it spans: the shape's feature below
 *     it (mk_collide_plane_patch, kept for the next triangle in the same
 *     plane) where the feet lie over the triangle (or the point lies in the
 *     gap under a concave edge, plane_contacts), with normal N; with u = N
 *     also the patch's points on the triangle's edges other than flat ones
 *     (corners of the contact region at the mesh's border or a crease);
 *     with a u rejected, a point nearer the plane across a convex edge than
 *     N's is held to the shape's penetration depth in that edge's wedge
 *     and in the region under the triangles in reach, and a point nearer
 *     the plane of another triangle that has this one behind it (a convex
 *     corner's) to the region's (ridge_limits).
 * Contacts gather in a bounded buffer, merged and reduced (reduce_contacts)
 * whenever it fills and at the end.
 *
 * None of the seed papers treats meshes: this is our own composition of
 * their queries (signed distance and EPA, manifold.c's patch, the half-space
 * contact) with the Voronoi regions of a polyhedral surface's features (a
 * face's normal, an edge's wedge between its faces, a vertex's polar cone),
 * which is what decides whether a normal belongs to the surface there. */
#include <minkowski/mesh.h>

#include "support.h"
#include "valid.h"
#include "vec.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MESH_LEAF 4
/* Depth of the tree's traversal stack: median splits give a depth of at most
 * log2(triangles) + 1 < 33 for any int count. */
#define MESH_STACK 72
/* Contacts held between reductions, and added by one triangle at most (its
 * patch's points on edges and the plane's). */
#define MESH_BUFFER 64
#define MESH_PER_TRIANGLE (2 * MK_MANIFOLD_MAX_PATCH_POINTS)
/* A normal within this of the face normal (1 - cos) is the face's. */
#define MESH_FACE_COS 1e-10
/* Contacts from two triangles closer than this (times the shape's half
 * size) with normals within this (1 - cos, about 0.014 rad) are one: the
 * same edge or corner met from both sides, whose two EPA normals differ by
 * the queries' tolerance (1e-4 rad and 3.3e-5 apart seen on a cone of half
 * size 0.3 deep on a terrain's ridge). */
#define MESH_SAME_POINT 1e-3
#define MESH_SAME_NORMAL 1e-4
/* Depths as close as this (times the shape's half size) are a tie. */
#define MESH_DEPTH_TIE 1e-6
/* Slack of exact tests (flat edges, feet over a triangle: lengths relative
 * to the triangle's longest edge). */
#define MESH_EDGE_SLACK 1e-9
/* Slack of the tests on EPA's answer, whose witness points and normals on a
 * curved shape carry its tolerance: a foot within this (times the shape's
 * half size) of an edge lies on it (2e-5 off seen on a cone of half size
 * 0.3 whose contact was an edge), and a normal within this (radians, or
 * cosines) of an edge's or a corner's cone lies in it. */
#define MESH_FOOT_SLACK 1e-3
#define MESH_CONE_SLACK 1e-4
/* A point of the region's patch (region_contacts) this far past a plane in
 * reach (times the shape's half size) still counts as behind it: EPA's
 * witness carries its tolerance (1e-8). */
#define MESH_INSIDE_SLACK 1e-6

typedef struct mesh_node {
    mk_vec3 lo, hi;
    int child; /* first of two children (child, child + 1), or -1 for a leaf */
    int first, count;
} mesh_node;

/* A triangle's edges as the queries see them (mk_mesh_create computes
 * them once: triangles are one-sided): edge k from corner k to k + 1, its
 * outward direction in the plane, its kind and cone (edge_kind), and the
 * longest edge's length. */
typedef struct tri_info {
    mk_vec3 w[3];
    /* a convex or concave edge's: the outward normal of the face across
     * it; a concave edge's: that face's outward direction in its own plane
     * at the edge (towards this triangle) */
    mk_vec3 across[3], across_w[3];
    mk_real limit[3];
    mk_real longest;
    unsigned char kind[3];
    unsigned char all_flat;
    /* a face sharing a corner turns more than square from this one (their
     * normals' dot product below zero): the triangle's prism (face_contacts
     * step 2) reaches out through that face's plane, outside a convex solid */
    unsigned char sharp_ring;
} tri_info;

struct mk_mesh {
    int num_vertices, num_triangles, num_nodes;
    mk_vec3 *vertices;
    int *tri;      /* 3 per triangle, in tree order */
    int *opposite; /* 3 per triangle: across edge k (tri[k] -> tri[k + 1]) */
    int *source;   /* the input index of each triangle */
    int *ring_start, *ring; /* the vertices an edge joins to v: ring[ring_start[v] .. ring_start[v + 1]) */
    mk_vec3 *normal;
    mk_vec3 *box; /* 2 per triangle: its box's corners */
    tri_info *info;
    mesh_node *nodes;
};

enum { EDGE_OPEN, EDGE_FLAT, EDGE_CONVEX, EDGE_CONCAVE };

/* Edge k of triangle t (vertices tv, normal N): open (no single
 * neighbour), flat (the neighbour in the plane), convex or concave; for open
 * and convex edges *cos_limit is the cosine between N and the face beyond
 * (0 for open edges: the plane turned down 90 degrees); for convex and
 * concave edges *across is the outward normal of the face across (else N),
 * for concave ones *across_w that face's outward direction in its plane
 * at the edge (else zero). */
static int edge_kind(const struct mk_mesh *m, int t, int k, const mk_vec3 tv[3], mk_vec3 N, mk_real L,
                     mk_real *cos_limit, mk_vec3 *across, mk_vec3 *across_w)
{
    *cos_limit = 0;
    *across = N, *across_w = v3(0, 0, 0);
    const int opp = m->opposite[3 * t + k];
    if (opp < 0)
        return EDGE_OPEN;
    const mk_vec3 a = tv[k], e = v3_sub(tv[(k + 1) % 3], a), q = v3_sub(m->vertices[opp], a);
    const mk_real h = v3_dot(N, q);
    if (fabs(h) <= MESH_EDGE_SLACK * L)
        return EDGE_FLAT;
    if (h > 0) {
        /* this triangle lies in front of the face across a concave edge */
        mk_vec3 n2 = v3_cross(e, q);
        n2 = v3_scale(n2, 1 / v3_len(n2));
        if (v3_dot(n2, v3_sub(tv[(k + 2) % 3], a)) < 0)
            n2 = v3_neg(n2);
        mk_vec3 w2 = v3_cross(e, n2);
        w2 = v3_scale(w2, 1 / v3_len(w2));
        if (v3_dot(w2, q) > 0) /* away from the face across, towards this triangle */
            w2 = v3_neg(w2);
        *across = n2, *across_w = w2;
        return EDGE_CONCAVE;
    }
    mk_vec3 n2 = v3_cross(e, q);
    n2 = v3_scale(n2, 1 / v3_len(n2));
    if (v3_dot(n2, v3_sub(tv[(k + 2) % 3], a)) > 0) /* outward: away from this triangle */
        n2 = v3_neg(n2);
    *cos_limit = v3_dot(n2, N);
    *across = n2;
    return EDGE_CONVEX;
}


/* ------------------------------------------------------------ building */

typedef struct keyed {
    mk_real key[3];
    int index;
} keyed;

static int keyed_cmp(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    for (int i = 0; i < 3; ++i) {
        if (a->key[i] < b->key[i])
            return -1;
        if (a->key[i] > b->key[i])
            return 1;
    }
    return (a->index > b->index) - (a->index < b->index);
}

typedef struct half_edge {
    int lo, hi, tri, k;
} half_edge;

static int half_edge_cmp(const void *pa, const void *pb)
{
    const half_edge *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    if (a->tri != b->tri)
        return a->tri < b->tri ? -1 : 1;
    return (a->k > b->k) - (a->k < b->k);
}

/* Coordinates are finite (mk_mesh_create checks them): plain comparisons,
 * not fmin / fmax (library calls here, with NaN rules of no use). */
static inline mk_real lesser(mk_real a, mk_real b) { return a < b ? a : b; }
static inline mk_real greater(mk_real a, mk_real b) { return a > b ? a : b; }
static inline mk_vec3 v3_lesser(mk_vec3 a, mk_vec3 b) { return v3(lesser(a.x, b.x), lesser(a.y, b.y), lesser(a.z, b.z)); }
static inline mk_vec3 v3_greater(mk_vec3 a, mk_vec3 b)
{
    return v3(greater(a.x, b.x), greater(a.y, b.y), greater(a.z, b.z));
}

/* Node `at` over triangles [first, first + count) of `order` (sorted here),
 * the triangles' boxes in box[2 t], box[2 t + 1]; children are appended at
 * *used. Recursion depth: log2(count) + 1. */
static void build_node(mk_mesh *m, int at, int first, int count, int *order, const mk_vec3 *box, keyed *scratch,
                       int *used)
{
    mesh_node *nd = &m->nodes[at];
    mk_vec3 lo = v3(DBL_MAX, DBL_MAX, DBL_MAX), hi = v3(-DBL_MAX, -DBL_MAX, -DBL_MAX);
    mk_vec3 clo = lo, chi = hi;
    for (int i = first; i < first + count; ++i) {
        const mk_vec3 tl = box[2 * order[i]], th = box[2 * order[i] + 1], c = v3_add(tl, th);
        lo = v3_lesser(lo, tl), hi = v3_greater(hi, th);
        clo = v3_lesser(clo, c), chi = v3_greater(chi, c);
    }
    nd->lo = lo, nd->hi = hi;
    nd->first = first, nd->count = count, nd->child = -1;
    if (count <= MESH_LEAF)
        return;
    const mk_vec3 ext = v3_sub(chi, clo);
    const int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : ext.y >= ext.z ? 1 : 2;
    for (int i = 0; i < count; ++i) {
        const int t = order[first + i];
        scratch[i].key[0] = v3_comp(v3_add(box[2 * t], box[2 * t + 1]), axis);
        scratch[i].key[1] = scratch[i].key[2] = 0;
        scratch[i].index = t;
    }
    qsort(scratch, (size_t)count, sizeof *scratch, keyed_cmp);
    for (int i = 0; i < count; ++i)
        order[first + i] = scratch[i].index;
    const int child = *used;
    *used += 2;
    nd->child = child;
    const int half = count / 2;
    build_node(m, child, first, half, order, box, scratch, used);
    build_node(m, child + 1, first + half, count - half, order, box, scratch, used);
}

void mk_mesh_destroy(mk_mesh *m)
{
    if (!m)
        return;
    free(m->vertices);
    free(m->tri);
    free(m->opposite);
    free(m->source);
    free(m->normal);
    free(m->nodes);
    free(m->ring_start);
    free(m->ring);
    free(m->info);
    free(m->box);
    free(m);
}

int mk_mesh_triangle_count(const mk_mesh *m) { return m ? m->num_triangles : 0; }
int mk_mesh_vertex_count(const mk_mesh *m) { return m ? m->num_vertices : 0; }

/* The triangles' normals, boxes and edge information (tri_info), once the
 * triangles, their opposite vertices and the vertices are in place.
 * Returns 0 when out of memory. */
static int finish(mk_mesh *m)
{
    const int nt = m->num_triangles;
    m->info = malloc(sizeof *m->info * (size_t)nt);
    m->box = malloc(sizeof *m->box * 2 * (size_t)nt);
    if (!m->info || !m->box)
        return 0;
    for (int t = 0; t < nt; ++t) {
        const mk_vec3 a = m->vertices[m->tri[3 * t]], b = m->vertices[m->tri[3 * t + 1]],
                      c = m->vertices[m->tri[3 * t + 2]];
        const mk_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
        m->normal[t] = v3_scale(n, 1 / v3_len(n));
        m->box[2 * t] = v3_lesser(a, v3_lesser(b, c));
        m->box[2 * t + 1] = v3_greater(a, v3_greater(b, c));
    }
    for (int t = 0; t < nt; ++t) {
        tri_info *ti = &m->info[t];
        const mk_vec3 N = m->normal[t];
        const mk_vec3 tv[3] = {m->vertices[m->tri[3 * t]], m->vertices[m->tri[3 * t + 1]],
                               m->vertices[m->tri[3 * t + 2]]};
        ti->longest = 0;
        for (int k = 0; k < 3; ++k) {
            const mk_vec3 e = v3_sub(tv[(k + 1) % 3], tv[k]), c = v3_cross(e, N);
            ti->longest = greater(ti->longest, v3_len(e));
            ti->w[k] = v3_scale(c, 1 / v3_len(c));
        }
        for (int k = 0; k < 3; ++k)
            ti->kind[k] =
                (unsigned char)edge_kind(m, t, k, tv, N, ti->longest, &ti->limit[k], &ti->across[k], &ti->across_w[k]);
        ti->all_flat = ti->kind[0] == EDGE_FLAT && ti->kind[1] == EDGE_FLAT && ti->kind[2] == EDGE_FLAT;
    }
    /* The faces at each vertex (a counting sort), then sharp_ring. */
    const int nv = m->num_vertices;
    int *at = calloc((size_t)nv + 1, sizeof *at), *faces = malloc(sizeof *faces * 3 * (size_t)(nt > 0 ? nt : 1));
    if (!at || !faces) {
        free(at), free(faces);
        return 0;
    }
    for (int i = 0; i < 3 * nt; ++i)
        ++at[m->tri[i] + 1];
    for (int v = 0; v < nv; ++v)
        at[v + 1] += at[v];
    for (int i = 0; i < 3 * nt; ++i)
        faces[at[m->tri[i]]++] = i / 3;
    for (int v = nv; v > 0; --v) /* back to the starts */
        at[v] = at[v - 1];
    at[0] = 0;
    for (int t = 0; t < nt; ++t) {
        int sharp = 0;
        for (int i = 0; i < 3 && !sharp; ++i) {
            const int v = m->tri[3 * t + i];
            for (int j = at[v]; j < at[v + 1] && !sharp; ++j)
                sharp = v3_dot(m->normal[faces[j]], m->normal[t]) < 0;
        }
        m->info[t].sharp_ring = (unsigned char)sharp;
    }
    free(at), free(faces);
    return 1;
}

/* Whether a triangle has area enough for a normal (the others never touch
 * anything): twice its area above 1e-12 of its longest edge squared. */
static int has_area(mk_vec3 a, mk_vec3 b, mk_vec3 c)
{
    const mk_vec3 e0 = v3_sub(b, a), e1 = v3_sub(c, a), e2 = v3_sub(c, b);
    const mk_real L2 = greater(v3_len2(e0), greater(v3_len2(e1), v3_len2(e2)));
    return v3_len(v3_cross(e0, e1)) > 1e-12 * L2;
}

mk_status mk_mesh_create(const mk_vec3 *vertices, int num_vertices, const int *indices, int num_triangles,
                         mk_mesh **out)
{
    if (!out)
        return MK_INVALID_INPUT;
    *out = NULL;
    if (!vertices || !indices || num_vertices < 1 || num_triangles < 1 || num_triangles > INT32_MAX / 6)
        return MK_INVALID_INPUT;
    for (int i = 0; i < num_vertices; ++i)
        if (!v3_finite(vertices[i]) || !(v3_max_abs(vertices[i]) <= MK_MAX_COORDINATE))
            return MK_INVALID_INPUT;
    for (int i = 0; i < 3 * num_triangles; ++i)
        if (indices[i] < 0 || indices[i] >= num_vertices)
            return MK_INVALID_INPUT;

    mk_status st = MK_OUT_OF_MEMORY;
    mk_mesh *m = calloc(1, sizeof *m);
    keyed *keys = malloc(sizeof *keys * (size_t)(num_vertices > num_triangles ? num_vertices : num_triangles));
    int *weld = malloc(sizeof *weld * (size_t)num_vertices);
    int *order = malloc(sizeof *order * (size_t)num_triangles);
    int *tri = malloc(sizeof *tri * 3 * (size_t)num_triangles);
    int *src = malloc(sizeof *src * (size_t)num_triangles);
    half_edge *edges = malloc(sizeof *edges * 3 * (size_t)num_triangles);
    mk_vec3 *box = NULL; /* the triangles' boxes, for the tree */
    if (!m || !keys || !weld || !order || !tri || !src || !edges)
        goto done;
    m->vertices = malloc(sizeof *m->vertices * (size_t)num_vertices);
    if (!m->vertices)
        goto done;

    /* Weld exactly equal positions: sort, then one id per run. */
    for (int i = 0; i < num_vertices; ++i) {
        keys[i].key[0] = vertices[i].x, keys[i].key[1] = vertices[i].y, keys[i].key[2] = vertices[i].z;
        keys[i].index = i;
    }
    qsort(keys, (size_t)num_vertices, sizeof *keys, keyed_cmp);
    int nv = 0;
    for (int i = 0; i < num_vertices; ++i) {
        if (i == 0 || memcmp(keys[i].key, keys[i - 1].key, sizeof keys[i].key) != 0)
            m->vertices[nv++] = vertices[keys[i].index];
        weld[keys[i].index] = nv - 1;
    }
    m->num_vertices = nv;

    /* Triangles with area; the others never touch anything. */
    int nt = 0;
    for (int t = 0; t < num_triangles; ++t) {
        const int a = weld[indices[3 * t]], b = weld[indices[3 * t + 1]], c = weld[indices[3 * t + 2]];
        if (a == b || b == c || a == c || !has_area(m->vertices[a], m->vertices[b], m->vertices[c]))
            continue;
        tri[3 * nt] = a, tri[3 * nt + 1] = b, tri[3 * nt + 2] = c;
        src[nt] = t;
        ++nt;
    }
    if (nt == 0) {
        st = MK_DEGENERATE_HULL;
        goto done;
    }
    m->num_triangles = nt;
    m->tri = malloc(sizeof *m->tri * 3 * (size_t)nt);
    m->opposite = malloc(sizeof *m->opposite * 3 * (size_t)nt);
    m->source = malloc(sizeof *m->source * (size_t)nt);
    m->normal = malloc(sizeof *m->normal * (size_t)nt);
    m->nodes = malloc(sizeof *m->nodes * (size_t)(2 * nt));
    m->ring_start = calloc((size_t)nv + 1, sizeof *m->ring_start);
    if (!m->tri || !m->opposite || !m->source || !m->normal || !m->nodes || !m->ring_start)
        goto done;

    /* The tree orders the triangles: build it over the unordered ones, then
     * store them in its order. */
    box = malloc(sizeof *box * 2 * (size_t)nt);
    if (!box)
        goto done;
    for (int t = 0; t < nt; ++t) {
        const mk_vec3 a = m->vertices[tri[3 * t]], b = m->vertices[tri[3 * t + 1]], c = m->vertices[tri[3 * t + 2]];
        box[2 * t] = v3_lesser(a, v3_lesser(b, c));
        box[2 * t + 1] = v3_greater(a, v3_greater(b, c));
        order[t] = t;
    }
    int used = 1;
    build_node(m, 0, 0, nt, order, box, keys, &used);
    m->num_nodes = used;
    for (int i = 0; i < nt; ++i) {
        memcpy(&m->tri[3 * i], &tri[3 * order[i]], sizeof *tri * 3);
        m->source[i] = src[order[i]];
    }

    /* Neighbours: the half-edges sorted by their vertex pair; a pair held by
     * exactly two triangles is an inner edge. */
    for (int t = 0; t < nt; ++t)
        for (int k = 0; k < 3; ++k) {
            const int a = m->tri[3 * t + k], b = m->tri[3 * t + (k + 1) % 3];
            edges[3 * t + k] = (half_edge){a < b ? a : b, a < b ? b : a, t, k};
            m->opposite[3 * t + k] = -1;
        }
    qsort(edges, 3 * (size_t)nt, sizeof *edges, half_edge_cmp);
    for (int i = 0; i < 3 * nt;) {
        int j = i + 1;
        while (j < 3 * nt && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi)
            ++j;
        if (j - i == 2) {
            const half_edge *p = &edges[i], *q = &edges[i + 1];
            m->opposite[3 * p->tri + p->k] = m->tri[3 * q->tri + (q->k + 2) % 3];
            m->opposite[3 * q->tri + q->k] = m->tri[3 * p->tri + (p->k + 2) % 3];
        }
        ++m->ring_start[edges[i].lo + 1], ++m->ring_start[edges[i].hi + 1];
        i = j;
    }
    /* One-rings: each distinct edge once at both ends. */
    for (int v = 0; v < nv; ++v)
        m->ring_start[v + 1] += m->ring_start[v];
    m->ring = malloc(sizeof *m->ring * (size_t)(m->ring_start[nv] > 0 ? m->ring_start[nv] : 1));
    if (!m->ring)
        goto done;
    for (int v = 0; v < nv; ++v)
        weld[v] = m->ring_start[v]; /* fill positions (weld is no longer needed) */
    for (int i = 0; i < 3 * nt; ++i)
        if (i == 0 || edges[i].lo != edges[i - 1].lo || edges[i].hi != edges[i - 1].hi) {
            m->ring[weld[edges[i].lo]++] = edges[i].hi;
            m->ring[weld[edges[i].hi]++] = edges[i].lo;
        }
    if (!finish(m))
        goto done;
    *out = m;
    m = NULL;
    st = MK_OK;
done:
    mk_mesh_destroy(m);
    free(keys);
    free(weld);
    free(order);
    free(tri);
    free(src);
    free(edges);
    free(box);
    return st;
}

/* ------------------------------------------------------------ grids */

/* Cell (i, j) of an ni x nj grid (vertex (i, j) at index i nj + j) is cut
 * along the diagonal from (i + 1, j) to (i, j + 1) into triangles 2 c and
 * 2 c + 1 (c = i (nj - 1) + j): (a, c, b) and (d, b, c), a = (i, j), b =
 * (i + 1, j), c = (i, j + 1), d = (i + 1, j + 1). Their opposite vertices
 * follow from the grid (open at its border). */
typedef struct grid_ctx {
    mk_mesh *m;
    int ni, nj;
    int written; /* triangles placed, in tree order */
    int used;    /* nodes */
} grid_ctx;

static int grid_vertex(const grid_ctx *g, int i, int j)
{
    return i >= 0 && i < g->ni && j >= 0 && j < g->nj ? i * g->nj + j : -1;
}

static void grid_cell(grid_ctx *g, int i, int j)
{
    mk_mesh *m = g->m;
    const int a = grid_vertex(g, i, j), b = grid_vertex(g, i + 1, j), c = grid_vertex(g, i, j + 1),
              d = grid_vertex(g, i + 1, j + 1);
    const int cell = i * (g->nj - 1) + j;
    int t = g->written++;
    m->tri[3 * t] = a, m->tri[3 * t + 1] = c, m->tri[3 * t + 2] = b;
    m->opposite[3 * t] = grid_vertex(g, i - 1, j + 1); /* a -> c: the cell before in i */
    m->opposite[3 * t + 1] = d;                        /* c -> b: the diagonal */
    m->opposite[3 * t + 2] = grid_vertex(g, i + 1, j - 1); /* b -> a: the cell before in j */
    m->source[t] = 2 * cell;
    t = g->written++;
    m->tri[3 * t] = d, m->tri[3 * t + 1] = b, m->tri[3 * t + 2] = c;
    m->opposite[3 * t] = grid_vertex(g, i + 2, j);     /* d -> b: the cell after in i */
    m->opposite[3 * t + 1] = a;                        /* b -> c: the diagonal */
    m->opposite[3 * t + 2] = grid_vertex(g, i, j + 2); /* c -> d: the cell after in j */
    m->source[t] = 2 * cell + 1;
}

/* Node `at` over the cells [i0, i1) x [j0, j1), split along the side with
 * more cells; leaves of up to MESH_LEAF / 2 cells. Depth: log2(cells) + 1. */
static void grid_node(grid_ctx *g, int at, int i0, int i1, int j0, int j1)
{
    mesh_node *nd = &g->m->nodes[at];
    const int cells = (i1 - i0) * (j1 - j0);
    if (cells <= MESH_LEAF / 2) {
        nd->first = g->written, nd->count = 2 * cells, nd->child = -1;
        mk_vec3 lo = g->m->vertices[grid_vertex(g, i0, j0)], hi = lo;
        for (int i = i0; i <= i1; ++i)
            for (int j = j0; j <= j1; ++j) {
                lo = v3_lesser(lo, g->m->vertices[grid_vertex(g, i, j)]);
                hi = v3_greater(hi, g->m->vertices[grid_vertex(g, i, j)]);
            }
        for (int i = i0; i < i1; ++i)
            for (int j = j0; j < j1; ++j)
                grid_cell(g, i, j);
        nd->lo = lo, nd->hi = hi;
        return;
    }
    const int child = g->used;
    g->used += 2;
    if (i1 - i0 >= j1 - j0) {
        const int mid = i0 + (i1 - i0) / 2;
        grid_node(g, child, i0, mid, j0, j1);
        grid_node(g, child + 1, mid, i1, j0, j1);
    } else {
        const int mid = j0 + (j1 - j0) / 2;
        grid_node(g, child, i0, i1, j0, mid);
        grid_node(g, child + 1, i0, i1, mid, j1);
    }
    const mesh_node *l = &g->m->nodes[child], *r = &g->m->nodes[child + 1];
    nd = &g->m->nodes[at];
    nd->first = l->first, nd->count = l->count + r->count, nd->child = child;
    nd->lo = v3_lesser(l->lo, r->lo), nd->hi = v3_greater(l->hi, r->hi);
}

mk_status mk_mesh_create_grid(const mk_vec3 *vertices, int ni, int nj, mk_mesh **out)
{
    if (!out)
        return MK_INVALID_INPUT;
    *out = NULL;
    if (!vertices || ni < 2 || nj < 2 || ni > (1 << 15) || nj > (1 << 15))
        return MK_INVALID_INPUT;
    const int nv = ni * nj, cells = (ni - 1) * (nj - 1), nt = 2 * cells;
    for (int i = 0; i < nv; ++i)
        if (!v3_finite(vertices[i]) || !(v3_max_abs(vertices[i]) <= MK_MAX_COORDINATE))
            return MK_INVALID_INPUT;
    int flat_cells = 0;
    for (int i = 0; i + 1 < ni && !flat_cells; ++i)
        for (int j = 0; j + 1 < nj && !flat_cells; ++j) {
            const mk_vec3 a = vertices[i * nj + j], b = vertices[(i + 1) * nj + j], c = vertices[i * nj + j + 1],
                          d = vertices[(i + 1) * nj + j + 1];
            flat_cells = !has_area(a, c, b) || !has_area(d, b, c);
        }
    if (flat_cells) {
        /* triangles without area (or welded corners): the general path drops them */
        int *idx = malloc(sizeof *idx * 3 * (size_t)nt);
        if (!idx)
            return MK_OUT_OF_MEMORY;
        for (int i = 0, t = 0; i + 1 < ni; ++i)
            for (int j = 0; j + 1 < nj; ++j, t += 2) {
                const int a = i * nj + j, b = a + nj, c = a + 1, d = b + 1;
                const int six[6] = {a, c, b, d, b, c};
                memcpy(&idx[3 * t], six, sizeof six);
            }
        const mk_status st = mk_mesh_create(vertices, nv, idx, nt, out);
        free(idx);
        return st;
    }
    mk_mesh *m = calloc(1, sizeof *m);
    if (!m)
        return MK_OUT_OF_MEMORY;
    m->num_vertices = nv, m->num_triangles = nt;
    m->vertices = malloc(sizeof *m->vertices * (size_t)nv);
    m->tri = malloc(sizeof *m->tri * 3 * (size_t)nt);
    m->opposite = malloc(sizeof *m->opposite * 3 * (size_t)nt);
    m->source = malloc(sizeof *m->source * (size_t)nt);
    m->normal = malloc(sizeof *m->normal * (size_t)nt);
    m->nodes = malloc(sizeof *m->nodes * (size_t)(2 * nt));
    m->ring_start = malloc(sizeof *m->ring_start * ((size_t)nv + 1));
    m->ring = malloc(sizeof *m->ring * 6 * (size_t)nv);
    if (!m->vertices || !m->tri || !m->opposite || !m->source || !m->normal || !m->nodes || !m->ring_start ||
        !m->ring) {
        mk_mesh_destroy(m);
        return MK_OUT_OF_MEMORY;
    }
    memcpy(m->vertices, vertices, sizeof *vertices * (size_t)nv);
    grid_ctx g = {m, ni, nj, 0, 1};
    /* one-rings: the four grid neighbours and the two along the diagonals */
    const int di[6] = {-1, 1, 0, 0, 1, -1}, dj[6] = {0, 0, -1, 1, -1, 1};
    int r = 0;
    for (int i = 0; i < ni; ++i)
        for (int j = 0; j < nj; ++j) {
            m->ring_start[i * nj + j] = r;
            for (int k = 0; k < 6; ++k) {
                const int x = grid_vertex(&g, i + di[k], j + dj[k]);
                if (x >= 0)
                    m->ring[r++] = x;
            }
        }
    m->ring_start[nv] = r;
    grid_node(&g, 0, 0, ni - 1, 0, nj - 1);
    m->num_nodes = g.used;
    if (!finish(m)) {
        mk_mesh_destroy(m);
        return MK_OUT_OF_MEMORY;
    }
    *out = m;
    return MK_OK;
}

/* ------------------------------------------------------------ one triangle */

/* A triangle extruded by `thickness` along -N, as a hull: vertices 0-2 the
 * triangle (counter-clockwise about N), 3-5 below them; faces: the
 * triangle, the far one, and the three sides (side k over edge k). */
typedef struct prism {
    mk_hull h;
    mk_vec3 v[6];
    int adj_start[7], adj[18];
    int face_start[6], face_vertices[18];
    mk_vec3 normals[5];
    mk_real offsets[5];
} prism;

static void make_prism(prism *p, const mk_vec3 tv[3], mk_vec3 N, const mk_vec3 w[3], mk_real thickness)
{
    memset(p, 0, sizeof *p);
    mk_vec3 centre = v3(0, 0, 0);
    for (int i = 0; i < 3; ++i) {
        p->v[i] = tv[i];
        p->v[i + 3] = v3_madd(tv[i], -thickness, N);
        centre = v3_add(centre, v3_add(p->v[i], p->v[i + 3]));
    }
    centre = v3_scale(centre, 1.0 / 6);
    for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        p->adj_start[i] = 3 * i, p->adj_start[i + 3] = 3 * (i + 3);
        p->adj[3 * i] = j, p->adj[3 * i + 1] = k, p->adj[3 * i + 2] = i + 3;
        p->adj[3 * (i + 3)] = j + 3, p->adj[3 * (i + 3) + 1] = k + 3, p->adj[3 * (i + 3) + 2] = i;
    }
    p->adj_start[6] = 18;
    const int fv[18] = {0, 1, 2, 3, 5, 4, 0, 3, 4, 1, 1, 4, 5, 2, 2, 5, 3, 0};
    memcpy(p->face_vertices, fv, sizeof fv);
    const int fs[6] = {0, 3, 6, 10, 14, 18};
    memcpy(p->face_start, fs, sizeof fs);
    p->normals[0] = N, p->normals[1] = v3_neg(N);
    p->offsets[0] = v3_dot(N, tv[0]), p->offsets[1] = -v3_dot(N, p->v[3]);
    for (int k = 0; k < 3; ++k)
        p->normals[2 + k] = w[k], p->offsets[2 + k] = v3_dot(w[k], tv[k]);
    mk_real in = DBL_MAX;
    mk_vec3 lo = p->v[0], hi = p->v[0];
    for (int f = 0; f < 5; ++f)
        in = fmin(in, p->offsets[f] - v3_dot(p->normals[f], centre));
    for (int i = 1; i < 6; ++i) {
        lo = v3(fmin(lo.x, p->v[i].x), fmin(lo.y, p->v[i].y), fmin(lo.z, p->v[i].z));
        hi = v3(fmax(hi.x, p->v[i].x), fmax(hi.y, p->v[i].y), fmax(hi.z, p->v[i].z));
    }
    mk_hull *h = &p->h;
    h->num_vertices = 6, h->num_faces = 5;
    h->vertices = p->v, h->adj_start = p->adj_start, h->adj = p->adj;
    h->face_start = p->face_start, h->face_vertices = p->face_vertices;
    h->face_normals = p->normals, h->face_offsets = p->offsets;
    h->aabb_min = lo, h->aabb_max = hi;
    h->centroid = centre;
    h->inradius = in > 0 ? in : 0;
}

/* Per-query constants. */
typedef struct mesh_query {
    const mk_shape *shape;
    mk_transform xf; /* the shape in the mesh's frame */
    const mk_mesh *mesh;
    const mk_collide_settings *settings;
    mk_vec3 centre;  /* the shape's centre, mesh frame */
    mk_vec3 box_lo, box_hi; /* the shape's own bounds (local frame, radius included) */
    mk_real half;       /* the shape's half size (shape_half_size) */
    mk_real foot_slack; /* MESH_FOOT_SLACK times that */
    mk_vec3 lo, hi;     /* the shape's box grown by its radius and the speculative distance */
    int sunk;           /* point_sunk of the centre, -1 until asked */
    int top_valid;      /* the shape's top above its centre along the last normal met from behind */
    mk_vec3 top_n;
    mk_real top;
    int low_valid;      /* the shape's lowest value along the last triangle's normal */
    mk_vec3 low_n;
    mk_real low;
    int plane_valid;    /* the last plane's patch (plane_contacts) */
    mk_vec3 plane_n;
    mk_real plane_c;
    mk_contact_patch_result plane;
    mk_status budget; /* MK_OK, or the first budget status met */
    int region_valid;   /* region_depth, once asked */
    mk_real region;
    int met;            /* a triangle's prism met the shape (face_contacts step 2) */
    mk_real turned_down; /* the deepest point of a prism's patch whose normal
                          * no edge or corner took (face_contacts step 3) */
    mk_real least_plane; /* the least depth of the shape below a triangle's plane met from its front */
} mesh_query;

/* Whether u lies in the cone of normals of the mesh's surface at vertex v:
 * no edge from v rises along u (<u, x - v> <= 0 for every neighbour x, to
 * MESH_CONE_SLACK).
 * Then v is the surface's point nearest to any point v + s u (s > 0) close
 * enough, and its contact normal is u; a vertex inside a flat region or at
 * the bottom of a valley has no such u but the faces' own. */
static int corner_cone(const mk_mesh *m, int v, mk_vec3 u)
{
    const mk_vec3 p = m->vertices[v];
    for (int i = m->ring_start[v]; i < m->ring_start[v + 1]; ++i)
        if (v3_dot(u, v3_sub(m->vertices[m->ring[i]], p)) > MESH_CONE_SLACK * v3_len(v3_sub(m->vertices[m->ring[i]], p)))
            return 0;
    return 1;
}

/* A contact found, and whether it is a face's own (exact): the face's
 * normal at the depth below its plane, not EPA's answer at an edge or a
 * corner nor a depth held to a ridge's wedge or an open edge's wall. */
typedef struct candidate {
    mk_mesh_contact c;
    int exact;
} candidate;

/* A contact whose shape point is p held to depth `cap` (when deeper): its
 * position moves with it, and it is no longer a face's exact one. */
static void hold_depth(candidate *cd, mk_vec3 p, mk_real cap)
{
    if (cd->c.depth > cap) {
        cd->c.depth = cap;
        cd->c.position = v3_madd(p, 0.5 * cap, cd->c.normal);
        cd->exact = 0;
    }
}

/* What point_sunk learnt about a point p: whether it is inside at all
 * (whichever triangles are nearest), the distance to the nearest of those
 * triangles' open edges' walls (infinite without one), and a nearest
 * surface point. */
typedef struct sunk_info {
    int inside;
    mk_real wall;
    mk_vec3 at;
} sunk_info;

static int point_sunk(const mesh_query *q, mk_vec3 p, int tri, sunk_info *info);

/* 4. The plane over triangle t: the shape's feature below the plane <N, x>
 * = c (its corners, a cap's rim, a curved shape's lowest point) where the
 * feet lie over the triangle, or the point lies in a valley's gap beside
 * it (below), with normal N. The plane's patch is kept for the next
 * triangle in the same plane (a floor's). */
static mk_status plane_contacts(mesh_query *q, int t, const mk_vec3 tv[3], mk_vec3 N, mk_real c, const mk_vec3 w[3],
                                mk_real L, candidate *buf, int *n)
{
    if (!q->plane_valid || memcmp(&q->plane_n, &N, sizeof N) != 0 || memcmp(&q->plane_c, &c, sizeof c) != 0) {
        const mk_status st =
            mk_collide_plane_patch(q->shape, &q->xf, N, c, q->settings, MK_MANIFOLD_MAX_PATCH_POINTS, &q->plane);
        if (st >= MK_INVALID_INPUT)
            return st;
        q->plane_valid = 1, q->plane_n = N, q->plane_c = c;
    }
    const mk_contact_patch_result *pr = &q->plane;
    const tri_info *ti = &q->mesh->info[t];
    for (int i = 0; i < pr->count; ++i) {
        const mk_vec3 foot = pr->points[i].point_b;
        int over = 1, gap = 0;
        const mk_vec3 p = v3_madd(foot, -pr->points[i].depth, N);
        for (int k = 0; k < 3 && over; ++k) {
            if (v3_dot(v3_sub(foot, tv[k]), w[k]) <= MESH_EDGE_SLACK * L)
                continue;
            /* Beyond a concave edge (and over it, not past its ends), the
             * point is still this triangle's when it is behind the face
             * across and its foot on that face's plane falls back on this
             * side of the edge: in the valley's gap, where neither face's
             * plane would otherwise have it, the faces asked take it (when no
             * other face is nearer to it: point_sunk). A face whose prism
             * the shape misses, or whose side plane it lies beyond, is not
             * asked. */
            const mk_real h2 = v3_dot(ti->across[k], v3_sub(p, tv[k]));
            const mk_vec3 e = v3_sub(tv[(k + 1) % 3], tv[k]);
            const mk_real along = v3_dot(v3_sub(p, tv[k]), e) / v3_dot(e, e); /* over the edge, not past its ends */
            over = ti->kind[k] == EDGE_CONCAVE && h2 < 0 && along > 0 && along < 1 &&
                   v3_dot(ti->across_w[k], v3_sub(v3_madd(p, -h2, ti->across[k]), tv[k])) > MESH_EDGE_SLACK * L;
            gap = 1;
        }
        sunk_info si = {1, INFINITY, p};
        if (over && gap)
            over = point_sunk(q, p, t, &si);
        if (!over)
            continue;
        buf[*n] = (candidate){{pr->points[i].position, N, pr->points[i].depth, t}, 1};
        hold_depth(&buf[(*n)++], p, si.wall); /* an open edge's wall nearer than this plane */
    }
    return MK_OK;
}

/* The posed shape's core point farthest along d (mesh frame). */
static inline mk_vec3 posed_support(const mesh_query *q, mk_vec3 d)
{
    return xf_apply(&q->xf, shape_support(q->shape, m3_tmul(&q->xf.R, d), NULL));
}

/* Whether the shape lies wholly beyond the plane <a, x> = c (unit a, mesh
 * frame): its lowest point along a, radius included, above it. */
static int shape_beyond(const mesh_query *q, mk_vec3 a, mk_real c)
{
    return v3_dot(a, posed_support(q, v3_neg(a))) - q->shape->radius > c;
}

/* The next triangle (tree position) whose own box meets [lo, hi], walking
 * the tree from *sp / stack / *t (start: *sp = 1, stack[0] = 0, *t = -1,
 * *end = -1); -1 when there is none, -2 when the tree is deeper than the
 * stack (median splits never build one). The triangle's own box, not its
 * leaf's: which triangles answer must not depend on how the tree grouped
 * them (a shape deep under a slope can reach a prism beside its box). */
static int next_triangle(const mk_mesh *mesh, mk_vec3 lo, mk_vec3 hi, int *stack, int *sp, int *t, int *end)
{
    for (;;) {
        while (++*t < *end) {
            const mk_vec3 tl = mesh->box[2 * *t], th = mesh->box[2 * *t + 1];
            if (!(tl.x > hi.x || th.x < lo.x || tl.y > hi.y || th.y < lo.y || tl.z > hi.z || th.z < lo.z))
                return *t;
        }
        if (*sp == 0)
            return -1;
        const mesh_node *nd = &mesh->nodes[stack[--*sp]];
        if (nd->lo.x > hi.x || nd->hi.x < lo.x || nd->lo.y > hi.y || nd->hi.y < lo.y || nd->lo.z > hi.z ||
            nd->hi.z < lo.z)
            continue;
        if (nd->child >= 0) {
            if (*sp + 2 > MESH_STACK)
                return -2;
            stack[(*sp)++] = nd->child + 1;
            stack[(*sp)++] = nd->child;
            continue;
        }
        *t = nd->first - 1, *end = nd->first + nd->count;
    }
}

/* Squared distance from p to triangle t (corners tv): to its plane when p
 * lies over it, else to the nearest of its edges; *at (may be NULL) gets
 * the triangle's point nearest to p. */
static mk_real triangle_dist2(const mk_mesh *m, int t, const mk_vec3 tv[3], mk_vec3 p, mk_vec3 *at)
{
    const tri_info *ti = &m->info[t];
    int over = 1;
    for (int k = 0; k < 3; ++k)
        over &= v3_dot(ti->w[k], v3_sub(p, tv[k])) <= 0;
    if (over) {
        const mk_real h = v3_dot(m->normal[t], v3_sub(p, tv[0]));
        if (at)
            *at = v3_madd(p, -h, m->normal[t]);
        return h * h;
    }
    mk_real best = INFINITY;
    for (int k = 0; k < 3; ++k) {
        const mk_vec3 e = v3_sub(tv[(k + 1) % 3], tv[k]), d = v3_sub(p, tv[k]);
        const mk_real s = fmin(fmax(v3_dot(d, e) / v3_dot(e, e), 0), 1);
        const mk_real d2 = v3_len2(v3_madd(d, -s, e));
        if (d2 < best) {
            best = d2;
            if (at)
                *at = v3_madd(tv[k], s, e);
        }
    }
    return best;
}

/* Whether point p lies inside the surface: behind the plane of every
 * triangle in reach whose nearest point to p is the nearest of all (to a
 * relative 1e-9: the triangles sharing that point's edge or corner), and
 * behind the wall of each of their open edges (mesh.h: the plane turned
 * down 90 degrees), and (with tri >= 0) triangle tri is one of them. A
 * point outside near a convex edge or corner is in front of each face
 * there, near a concave one in front of the face it is nearest to, so it
 * is never taken for inside; a point inside near a saddle may be taken for
 * outside. info may be NULL. A point inside with tri among the nearest is
 * no deeper below tri's plane than it is from tri, but may be nearer an
 * open edge's wall (info->wall). */
static int point_sunk(const mesh_query *q, mk_vec3 p, int tri, sunk_info *info)
{
    const mk_mesh *m = q->mesh;
    mk_real nearest = INFINITY, wall = INFINITY;
    mk_vec3 at = p;
    int hit = tri < 0;
    if (info)
        info->inside = 0, info->wall = INFINITY, info->at = p;
    /* Passes: the nearest among the triangles in reach; again over the box
     * about p that holds every triangle nearer than that (when it reaches
     * out of the query's box: a point deep in a shape near its box's side);
     * then the nearest ones' sides. */
    mk_vec3 lo = q->lo, hi = q->hi;
    for (int pass = 0; pass < 3; ++pass) {
        if (pass == 1) {
            if (!isfinite(nearest))
                return 0;
            const mk_real d = sqrt(nearest) * (1 + 1e-9) + 1e-12;
            const mk_vec3 blo = v3_sub(p, v3(d, d, d)), bhi = v3_add(p, v3(d, d, d));
            if (!(blo.x < lo.x || blo.y < lo.y || blo.z < lo.z || bhi.x > hi.x || bhi.y > hi.y || bhi.z > hi.z))
                continue;
            lo = v3_lesser(lo, blo), hi = v3_greater(hi, bhi);
        }
        int stack[MESH_STACK], sp = 1, t = -1, end = -1;
        stack[0] = 0;
        for (int k; (k = next_triangle(m, lo, hi, stack, &sp, &t, &end)) != -1;) {
            if (k < 0)
                return 0;
            const int *vid = &m->tri[3 * k];
            const mk_vec3 tv[3] = {m->vertices[vid[0]], m->vertices[vid[1]], m->vertices[vid[2]]};
            mk_vec3 near = p;
            const mk_real d2 = triangle_dist2(m, k, tv, p, &near);
            if (pass < 2) {
                if (d2 < nearest)
                    nearest = d2, at = near;
            } else if (d2 <= nearest * (1 + 1e-9) + 1e-24) {
                if (v3_dot(m->normal[k], v3_sub(p, tv[0])) >= 0)
                    return 0;
                /* an open edge's wall (the plane turned down 90 degrees
                 * beyond it): past it is outside */
                const tri_info *ti = &m->info[k];
                for (int e = 0; e < 3; ++e) {
                    if (ti->kind[e] != EDGE_OPEN)
                        continue;
                    const mk_real out = v3_dot(ti->w[e], v3_sub(p, tv[e]));
                    if (out > 0)
                        return 0;
                    wall = fmin(wall, -out);
                }
                hit |= k == tri;
            }
        }
    }
    if (!isfinite(nearest))
        return 0;
    if (info)
        info->inside = 1, info->wall = wall, info->at = at;
    return hit;
}

/* The shape's contact patch against `other` (mk_collide_patch, the shape
 * as A, other posed in the mesh's frame): a bad-input status, else MK_OK
 * with a budget status (a query at its bound, its best estimate used) kept
 * in q->budget. */
static mk_status shape_patch(mesh_query *q, const mk_shape *other, mk_contact_patch_result *pr)
{
    const mk_pair pair = {q->shape, q->xf, other, mk_transform_identity()};
    const mk_status st = mk_collide_patch(&pair, q->settings, NULL, MK_MANIFOLD_MAX_PATCH_POINTS, pr);
    if (st >= MK_INVALID_INPUT)
        return st;
    if ((st == MK_GJK_MAX_ITER || st == MK_EPA_MAX_ITER || st == MK_EPA_FACE_BUDGET) && q->budget == MK_OK)
        q->budget = st;
    return MK_OK;
}

/* The same for prism p. */
static mk_status prism_patch(mesh_query *q, const prism *p, mk_contact_patch_result *pr)
{
    mk_shape ps;
    const mk_status st = mk_shape_hull(&ps, &p->h, 0);
    return st != MK_OK ? st : shape_patch(q, &ps, pr);
}

/* The shape's penetration depth in `other`: the deepest point of its patch
 * (which holds the signed distance's witness), 0 when it does not reach
 * in. */
static mk_status depth_in(mesh_query *q, const mk_shape *other, mk_real *depth)
{
    mk_contact_patch_result pr;
    const mk_status st = shape_patch(q, other, &pr);
    *depth = 0;
    for (int i = 0; st == MK_OK && i < pr.count; ++i)
        *depth = fmax(*depth, pr.points[i].depth);
    return st;
}

/* The ridge over convex edge k of triangle t (corners tv): the
 * wedge under its two faces, cut to a bounded prism (make_prism's hull) that
 * holds the shape's reach: its cross-section is the triangle with a corner
 * on the edge's line and legs down both faces, extruded along the edge past
 * the shape's ends. Its first face is t's plane, its second the face
 * beyond's, the rest lie farther from the shape than its depth below t's
 * plane (which bounds its depth in the wedge). *depth: the shape's
 * penetration depth in the wedge (the deepest point of mk_collide_patch,
 * which holds the signed distance's witness); 0 when it does not reach in.
 * Returns a bad-input status, else MK_OK. */
static mk_status ridge_depth(mesh_query *q, int t, int k, const mk_vec3 tv[3], mk_real plane_depth, mk_real *depth)
{
    const mk_mesh *m = q->mesh;
    const mk_vec3 a = tv[k], e = v3_normalize_or(v3_sub(tv[(k + 1) % 3], a), v3(0, 0, 0));
    const mk_vec3 qv = v3_sub(m->vertices[m->opposite[3 * t + k]], a);
    const mk_vec3 in1 = v3_neg(m->info[t].w[k]);
    const mk_vec3 in2 = v3_normalize_or(v3_madd(qv, -v3_dot(qv, e), e), v3(0, 0, 0));
    /* Exits through the far faces cost more than `reach`, itself more than
     * the depth below t's plane (lifting along N by that frees the shape). */
    const mk_real r = q->shape->radius, reach = 2 * fmax(plane_depth, 0) + q->half + r;
    const mk_real e_hi = v3_dot(e, v3_sub(posed_support(q, e), a)) + r + reach;
    const mk_real e_lo = v3_dot(e, v3_sub(posed_support(q, v3_neg(e)), a)) - r - reach;
    const mk_vec3 off = v3_sub(q->centre, a);
    const mk_real across = v3_len(v3_madd(off, -v3_dot(off, e), e));
    const mk_real leg = 4 * (across + 4 * q->half + r) + 2 * reach;
    /* The cross-section counter-clockwise about the extrusion's axis X
     * (prism's N), swept from the end where X points. */
    mk_vec3 X = v3_cross(in1, in2);
    const mk_real xl = v3_len(X);
    if (!(xl > 1e-12)) {
        *depth = 0;
        return MK_OK;
    }
    X = v3_scale(X, 1 / xl);
    const mk_real top = v3_dot(X, e) > 0 ? e_hi : e_lo;
    mk_vec3 cv[3];
    cv[0] = v3_madd(a, top, e);
    cv[1] = v3_madd(cv[0], leg, in1);
    cv[2] = v3_madd(cv[0], leg, in2);
    mk_vec3 w[3];
    for (int j = 0; j < 3; ++j)
        w[j] = v3_normalize_or(v3_cross(v3_sub(cv[(j + 1) % 3], cv[j]), X), v3(0, 0, 0));
    prism p;
    make_prism(&p, cv, X, w, e_hi - e_lo);
    mk_shape ps;
    const mk_status st = mk_shape_hull(&ps, &p.h, 0);
    return st != MK_OK ? st : depth_in(q, &ps, depth);
}

/* Triangles a region (region_depth) takes at most. */
#define MESH_REGION_TRIANGLES 48

/* The points of a region: its triangles' corners, the same pushed back
 * along their normals, and the far corners of the triangles beside them
 * (mesh frame). */
typedef struct region_points {
    int count;
    mk_vec3 p[9 * MESH_REGION_TRIANGLES];
} region_points;

static mk_vec3 region_support(const void *data, mk_vec3 d)
{
    const region_points *r = data;
    int best = 0;
    mk_real top = v3_dot(d, r->p[0]);
    for (int i = 1; i < r->count; ++i) {
        const mk_real h = v3_dot(d, r->p[i]);
        if (h > top)
            top = h, best = i;
    }
    return r->p[best];
}

/* Height of p over triangle k's plane (mesh frame). */
static inline mk_real over_plane(const mk_mesh *m, int k, mk_vec3 p)
{
    return v3_dot(m->normal[k], v3_sub(p, m->vertices[m->tri[3 * k]]));
}

/* The triangles in the shape's reach (its box) into list[0 .. *count); 0
 * when more than MESH_REGION_TRIANGLES are (or the tree is deeper than its
 * stack), else 1. */
static int reach_list(const mesh_query *q, int list[MESH_REGION_TRIANGLES], int *count)
{
    int stack[MESH_STACK], sp = 1, t = -1, end = -1;
    stack[0] = 0;
    *count = 0;
    for (int k; (k = next_triangle(q->mesh, q->lo, q->hi, stack, &sp, &t, &end)) != -1;) {
        if (k < 0 || *count == MESH_REGION_TRIANGLES)
            return 0;
        list[(*count)++] = k;
    }
    return 1;
}

/* The region under the triangles list[0 .. count) in the shape's reach
 * (reach_list): the hull of those triangles, each extruded backwards by
 * twice the least depth of the shape below their planes (and a tenth of
 * its half size; less where that would cross the plane of a triangle in
 * reach that has it wholly behind), and of the far corners of the
 * triangles beside them (on a convex part of a surface, inside the solid,
 * and the solid there): rp the points, lo, hi their box. */
static void region_build(const mesh_query *q, const int *list, int count, region_points *rp, mk_vec3 *lo,
                         mk_vec3 *hi)
{
    const mk_mesh *m = q->mesh;
    /* The thickness: enough that no way out through the far side is
     * shorter than lifting the shape off the nearest of the planes it is
     * below (on a convex part of the surface, a way out of the solid), and
     * no more: a closed mesh's far side must not be reached. */
    mk_real least = INFINITY;
    for (int a = 0; a < count; ++a) {
        const mk_vec3 N = m->normal[list[a]];
        const mk_real below = v3_dot(N, m->vertices[m->tri[3 * list[a]]]) -
                              v3_dot(N, posed_support(q, v3_neg(N))) + q->shape->radius;
        if (below > 0)
            least = fmin(least, below);
    }
    const mk_real thickness = 2 * (isfinite(least) ? least : 0) + 0.1 * (q->half + q->shape->radius);
    rp->count = 0;
    *lo = v3(INFINITY, INFINITY, INFINITY), *hi = v3(-INFINITY, -INFINITY, -INFINITY);
    for (int a = 0; a < count; ++a) {
        const int k = list[a];
        const mk_vec3 N = m->normal[k];
        /* the triangles in reach that have this one wholly behind their
         * planes and face against N (at a fold sharper than square, N leads
         * out of the solid through their planes) */
        int stop[MESH_REGION_TRIANGLES], nstop = 0;
        for (int b = 0; b < count; ++b) {
            const int j = list[b];
            if (j == k || !(v3_dot(m->normal[j], N) < 0))
                continue;
            const mk_real slack = MESH_EDGE_SLACK * m->info[j].longest;
            int behind = 1;
            for (int c = 0; c < 3 && behind; ++c)
                behind = over_plane(m, j, m->vertices[m->tri[3 * k + c]]) <= slack;
            if (behind)
                stop[nstop++] = j;
        }
        for (int i = 0; i < 3; ++i) {
            const mk_vec3 v = m->vertices[m->tri[3 * k + i]];
            /* pushed back along N, but not out through those planes */
            mk_real push = thickness;
            for (int b = 0; b < nstop; ++b)
                push = fmin(push, fmax(-over_plane(m, stop[b], v), 0) / -v3_dot(m->normal[stop[b]], N));
            const mk_vec3 bv = v3_madd(v, -push, N);
            rp->p[rp->count++] = v, rp->p[rp->count++] = bv;
            *lo = v3_lesser(*lo, v3_lesser(v, bv)), *hi = v3_greater(*hi, v3_greater(v, bv));
            const int opp = m->opposite[3 * k + i];
            if (opp >= 0) {
                const mk_vec3 o = m->vertices[opp];
                rp->p[rp->count++] = o;
                *lo = v3_lesser(*lo, o), *hi = v3_greater(*hi, o);
            }
        }
    }
}

/* The shape's penetration depth in the region under the triangles in its
 * reach (region_build; a user shape over its points, about 10 kB on the
 * stack). INFINITY when more than MESH_REGION_TRIANGLES are in reach. Kept
 * for the query. Returns a bad-input status, else MK_OK. */
static mk_status region_depth(mesh_query *q, mk_real *depth)
{
    if (q->region_valid) {
        *depth = q->region;
        return MK_OK;
    }
    int list[MESH_REGION_TRIANGLES], count;
    region_points rp;
    mk_vec3 lo, hi;
    *depth = INFINITY;
    if (reach_list(q, list, &count) && count > 0) {
        region_build(q, list, count, &rp, &lo, &hi);
        mk_shape us;
        mk_status st = mk_shape_user(&us, region_support, &rp, lo, hi, 0);
        if (st == MK_OK)
            st = depth_in(q, &us, depth);
        if (st != MK_OK)
            return st;
    }
    q->region_valid = 1, q->region = *depth;
    return MK_OK;
}

/* Whether p lies behind the plane of every triangle list[0 .. count), to
 * `slack` plus `rel` times each one's longest edge. */
static int behind_planes(const mk_mesh *m, const int *list, int count, mk_vec3 p, mk_real slack, mk_real rel)
{
    for (int a = 0; a < count; ++a)
        if (!(over_plane(m, list[a], p) <= slack + rel * m->info[list[a]].longest))
            return 0;
    return 1;
}

/* The region's own answer, for a shape in a convex part of the surface
 * whose prisms it met but that no triangle answered for, or none as deep
 * as a prism's answer turned down (face_contacts step 3), or none as deep
 * as it lies below every plane met, when that is more than a tenth of its
 * half size (the caller's gates): a cylinder 19 cm into a convex blob's
 * corner got no contact (its deepest rim lies over none of the small
 * triangles there, so their planes take no point, and EPA's normal on
 * each prism lies in no edge's or corner's cone), a rounded box 17.7 cm
 * in one 6.9 mm deep, a flat box 17.1 cm in one 10.9 cm deep
 * (shapes_deep_in_blobs). When the triangles in reach make a convex patch
 * (each has every other, and the far corners of the triangles beside
 * them, behind its plane; the caller asks only when the filter passed them
 * all), the region under them (region_build) lies inside the solid, and
 * the shape's patch against it, with its normal, joins the contacts (no
 * deeper than the shape is in). Each point is given the triangle in reach
 * whose normal is nearest the contact's. Returns a bad-input status, else
 * MK_OK. */
static mk_status region_contacts(mesh_query *q, candidate *buf, int *n)
{
    const mk_mesh *m = q->mesh;
    int list[MESH_REGION_TRIANGLES], count;
    if (!reach_list(q, list, &count) || count == 0)
        return MK_OK;
    /* the convex patch first (most terrains fail it at once) */
    for (int b = 0; b < count; ++b)
        for (int c = 0; c < 3; ++c)
            if (!behind_planes(m, list, count, m->vertices[m->tri[3 * list[b] + c]], 0, MESH_EDGE_SLACK))
                return MK_OK;
    region_points rp;
    mk_vec3 lo, hi;
    region_build(q, list, count, &rp, &lo, &hi);
    /* and the far corners of the triangles beside them behind those planes
     * too (beyond a terrain's bump the ground may rise again: a sphere 2.7
     * cm into such a bump got the region's 8.2 cm) */
    for (int i = 0; i < rp.count; ++i)
        if (!behind_planes(m, list, count, rp.p[i], 0, MESH_EDGE_SLACK))
            return MK_OK;
    mk_shape us;
    mk_contact_patch_result pr;
    mk_status st = mk_shape_user(&us, region_support, &rp, lo, hi, 0);
    if (st == MK_OK)
        st = shape_patch(q, &us, &pr);
    if (st != MK_OK)
        return st;
    const mk_vec3 u = v3_neg(pr.normal);
    int best = list[0];
    for (int a = 1; a < count; ++a)
        if (v3_dot(m->normal[list[a]], u) > v3_dot(m->normal[best], u))
            best = list[a];
    /* Only points whose shape point lies behind every plane in reach: the
     * patch's points against a user shape come from its face as tilted
     * supports see it, which can reach past the region's face (a box over
     * a sharp ridge got a point 15 cm outside the far face's plane). A
     * point kept sits half its depth along u from its shape point. When
     * none is behind them all, the deepest, its shape point moved behind
     * them (a few passes of projection onto the planes it is past): the
     * signed distance's witness carries the depth and normal, but on a
     * face it may lie anywhere across it (a disc's 1 mm past a plane). */
    const int before = *n;
    int deepest = -1;
    for (int i = 0; i < pr.count; ++i) {
        if (deepest < 0 || pr.points[i].depth > pr.points[deepest].depth)
            deepest = i;
        const mk_vec3 p = pr.points[i].point_a;
        if (behind_planes(m, list, count, p, MESH_INSIDE_SLACK * q->half, 0))
            buf[(*n)++] = (candidate){{v3_madd(p, 0.5 * pr.points[i].depth, u), u, pr.points[i].depth, best}, 0};
    }
    if (*n == before && deepest >= 0) {
        mk_vec3 p = pr.points[deepest].point_a;
        for (int pass = 0; pass < 8; ++pass)
            for (int a = 0; a < count; ++a) {
                const mk_real past = over_plane(m, list[a], p);
                if (past > 0)
                    p = v3_madd(p, -past, m->normal[list[a]]);
            }
        const mk_real d = pr.points[deepest].depth;
        buf[(*n)++] = (candidate){{v3_madd(p, 0.5 * d, u), u, d, best}, 0};
    }
    return MK_OK;
}

/* Whether point p, depth below triangle t's plane (corners tv), is nearer
 * the plane of another triangle in reach that has t wholly behind it (to
 * MESH_EDGE_SLACK), or in front of it: on a convex part of the surface,
 * that face is nearer, or p is outside, and the depth below t's plane
 * overstates how far p is in. */
static int nearer_convex_face(const mesh_query *q, int t, const mk_vec3 tv[3], mk_vec3 p, mk_real depth)
{
    const mk_mesh *m = q->mesh;
    int stack[MESH_STACK], sp = 1, at = -1, end = -1;
    stack[0] = 0;
    /* the shape's reach, and every triangle within `depth` of p (the foot of
     * a nearer plane lies on its face when p is inside a convex part) */
    const mk_vec3 r = v3(depth, depth, depth);
    const mk_vec3 lo = v3_lesser(q->lo, v3_sub(p, r)), hi = v3_greater(q->hi, v3_add(p, r));
    for (int k; (k = next_triangle(m, lo, hi, stack, &sp, &at, &end)) != -1;) {
        if (k < 0)
            return 0;
        if (k == t)
            continue;
        if (!(-over_plane(m, k, p) < depth - MESH_DEPTH_TIE * q->half))
            continue;
        const mk_real slack = MESH_EDGE_SLACK * m->info[k].longest;
        if (over_plane(m, k, tv[0]) <= slack && over_plane(m, k, tv[1]) <= slack && over_plane(m, k, tv[2]) <= slack)
            return 1;
    }
    return 0;
}

/* Contacts buf[first .. n) of triangle t (corners tv) whose shape point is
 * nearer the plane of a face that has t wholly behind it (a neighbour
 * across a convex edge, or a convex corner's other faces) than their depth:
 * held to the region's depth, which on a convex part of the surface any
 * way out must pay. Returns a bad-input status, else MK_OK. */
static mk_status region_holds(mesh_query *q, int t, const mk_vec3 tv[3], int first, candidate *buf, int n)
{
    for (int i = first; i < n; ++i) {
        mk_mesh_contact *c = &buf[i].c;
        if (!(c->depth > 0))
            continue;
        const mk_vec3 p = v3_madd(c->position, -0.5 * c->depth, c->normal);
        if (!nearer_convex_face(q, t, tv, p, c->depth))
            continue;
        mk_real cap;
        const mk_status st = region_depth(q, &cap);
        if (st != MK_OK)
            return st;
        hold_depth(&buf[i], p, cap);
    }
    return MK_OK;
}

/* The plane's contacts buf[first .. n) of triangle t, answering for a push
 * the surface has not there (step 4 after a rejected EPA normal): a point
 * of the shape under t that is nearer the plane of the face across one of
 * t's convex edges than t's own lies past the ridge's bisector, where t's
 * plane depth overstates how far the shape is in (a box straddling a sharp
 * ridge, its corner deep under t's plane near the crest: 0.385 against a
 * penetration depth of 0.307, tests/test_mesh.c a_box_reaching_over_a_ridge).
 * Its depth is held to the shape's penetration depth in the ridge's wedge
 * (ridge_depth), which any way out of the solid must pay. And a point
 * nearer the plane of any triangle in reach that has t wholly behind it
 * (the neighbour, or a corner's other faces) is held to the shape's depth
 * in the region under the triangles in reach (region_depth), which on a
 * convex part of the surface any way out must pay (a box 0.14 into a
 * convex blob's corner got contacts 0.21 deep, shapes_deep_in_blobs). */
static mk_status ridge_limits(mesh_query *q, int t, const mk_vec3 tv[3], mk_vec3 N, mk_real plane_depth, int first,
                              candidate *buf, int n)
{
    const tri_info *ti = &q->mesh->info[t];
    for (int k = 0; k < 3; ++k) {
        if (ti->kind[k] != EDGE_CONVEX)
            continue;
        const mk_vec3 Nk = ti->across[k];
        const mk_real ck = v3_dot(Nk, tv[k]);
        mk_real cap = -1;
        for (int i = first; i < n; ++i) {
            mk_mesh_contact *c = &buf[i].c;
            const mk_vec3 p = v3_madd(c->position, -0.5 * c->depth, N);
            if (!(c->depth > 0 && ck - v3_dot(Nk, p) < c->depth))
                continue;
            if (cap < 0) {
                const mk_status st = ridge_depth(q, t, k, tv, plane_depth, &cap);
                if (st != MK_OK)
                    return st;
            }
            hold_depth(&buf[i], p, cap);
        }
    }
    return region_holds(q, t, tv, first, buf, n);
}

/* Adds the contacts of triangle t, met from its front (mesh frame), to
 * buf; returns a bad-input status, else MK_OK. */
static mk_status face_contacts(mesh_query *q, int t, candidate *buf, int *n)
{
    const mk_mesh *m = q->mesh;
    const mk_vec3 N = m->normal[t];
    const int *vid = &m->tri[3 * t];
    const mk_vec3 tv[3] = {m->vertices[vid[0]], m->vertices[vid[1]], m->vertices[vid[2]]};
    /* 1. the plane's depth (the shape's lowest point along N kept for the
     * next triangle facing the same way) */
    if (!q->low_valid || memcmp(&q->low_n, &N, sizeof N) != 0) {
        const mk_vec3 low = posed_support(q, v3_neg(N));
        q->low_valid = 1, q->low_n = N, q->low = v3_dot(N, low) - q->shape->radius;
    }
    const mk_real plane = v3_dot(N, tv[0]);
    const mk_real depth = plane - q->low;
    q->least_plane = lesser(q->least_plane, depth);
    if (!(depth >= -q->settings->speculative))
        return MK_OK;

    const tri_info *ti = &m->info[t];
    const mk_vec3 *w = ti->w;
    const mk_real L = ti->longest;
    const unsigned char *kind = ti->kind;
    const mk_real *limit = ti->limit;
    /* A triangle whose edges are all flat (inside a floor) takes no normal
     * but its face's and has no corners of a contact region on its edges:
     * the plane answers for it alone. */
    if (ti->all_flat)
        return plane_contacts(q, t, tv, N, plane, w, L, buf, n);
    /* A shape wholly beyond one of the triangle's side planes, or beyond a
     * plane through one of its edges halfway between the side's and the
     * face's (unit axis (N + w_k) / sqrt 2, along which the prism's highest
     * points are that edge's corners), misses the prism: up to six support
     * calls instead of GJK. On a bumpy terrain most triangles under the
     * shape's box are these (bench mesh: of the triangles the side planes
     * leave, about two in three are apart, and the halfway planes prove
     * about two in three of those). */
    const mk_real spec = q->settings->speculative;
    for (int k = 0; k < 3; ++k) {
        if (shape_beyond(q, w[k], v3_dot(w[k], tv[k]) + spec))
            return MK_OK;
    }
    for (int k = 0; k < 3; ++k) {
        const mk_vec3 a = v3_scale(v3_add(N, w[k]), 0.70710678118654752440);
        if (shape_beyond(q, a, v3_dot(a, tv[k]) + spec))
            return MK_OK;
    }
    /* A box: the prism (step 2) against it along its three axes; apart
     * along one of them, it misses the prism (about three in five of the
     * boxes the planes above leave on a bumpy floor, bench mesh: 7% fewer
     * instructions per box query there; other shapes' own bounds are too
     * loose to pay for the test). */
    const mk_real thickness = 2 * fmax(depth, 0) + 0.05 * L;
    for (int j = 0; j < 3 && q->shape->type == MK_SHAPE_BOX; ++j) {
        const mk_vec3 a = v3(q->xf.R.m[0][j], q->xf.R.m[1][j], q->xf.R.m[2][j]);
        const mk_real c = v3_dot(a, q->xf.p), down = -thickness * v3_dot(a, N);
        mk_real lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < 3; ++i) {
            const mk_real x = v3_dot(a, tv[i]);
            lo = fmin(lo, fmin(x, x + down)), hi = fmax(hi, fmax(x, x + down));
        }
        if (lo > c + v3_comp(q->box_hi, j) + spec || hi < c + v3_comp(q->box_lo, j) - spec)
            return MK_OK;
    }
    /* A shape whose part below the plane (its cap, d deep) lies inside the
     * triangle's column, at least d from each side plane, meets the prism
     * face first: lifting it by d along N frees it, and any shorter way
     * out leaves part of the cap below the plane, which a sideways move
     * shorter than d cannot take out of the column. Its patch would give
     * no point on an edge, and EPA the face's normal: the triangle answers
     * as its plane (step 4) without the prism. The cap's reach along w_k
     * takes one support call: for lambda >= 0, max over the cap of
     * <w_k, x> <= h(w_k - lambda N) + lambda c, h the shape's support
     * function (radius included) and c the plane's offset (a Lagrangian
     * bound; lambda = sqrt(half size / 2 d) makes it tight for a sphere). */
    if (depth > 0) {
        const mk_real lambda = fmin(fmax(sqrt(q->half / (2 * depth)), 1), 64);
        const mk_real grow = q->shape->radius * sqrt(1 + lambda * lambda);
        int inside = 1;
        for (int k = 0; k < 3 && inside; ++k) {
            const mk_vec3 dir = v3_madd(w[k], -lambda, N);
            const mk_vec3 x = posed_support(q, dir);
            inside = v3_dot(dir, x) + grow + lambda * plane <= v3_dot(w[k], tv[k]) - depth;
        }
        if (inside)
            return plane_contacts(q, t, tv, N, plane, w, L, buf, n);
    }
    /* 2. the prism */
    prism p;
    make_prism(&p, tv, N, w, thickness);
    mk_contact_patch_result pr;
    mk_status st = prism_patch(q, &p, &pr);
    if (st != MK_OK)
        return st;
    if (pr.count == 0)
        return MK_OK;
    q->met = 1;
    /* 3. the normal's cone */
    const mk_vec3 u = v3_neg(pr.normal);
    const mk_real cu = v3_dot(u, N);
    const int face = cu >= 1 - MESH_FACE_COS;
    if (cu > -MESH_CONE_SLACK && !face) {
        /* which feature of the triangle the deepest point touches: the
         * edges its foot lies on */
        int deepest = 0;
        for (int i = 1; i < pr.count; ++i)
            if (pr.points[i].depth > pr.points[deepest].depth)
                deepest = i;
        const mk_vec3 foot = pr.points[deepest].point_b;
        int on[3], edges = 0;
        for (int k = 0; k < 3; ++k)
            edges += on[k] = v3_dot(v3_sub(foot, tv[k]), w[k]) >= -q->foot_slack;
        int ok = 0;
        if (edges == 1) { /* an edge: convex (or open), u within its cone */
            const int k = on[0] ? 0 : on[1] ? 1 : 2;
            ok = (kind[k] == EDGE_OPEN || kind[k] == EDGE_CONVEX) && cu >= limit[k] - MESH_CONE_SLACK;
        } else if (edges >= 2) {
            /* a corner (edges k and k + 1 meet at vertex k + 1): u within its
             * cone; or a point of either edge next to the corner (the slack
             * holds both): u across that edge and within its cone */
            const int j = on[0] && on[1] ? 1 : on[1] && on[2] ? 2 : 0;
            ok = corner_cone(m, vid[j], u);
            for (int e = 0; e < 2 && !ok; ++e) {
                const int k = (j + 2 + e) % 3; /* the edges into and out of corner j */
                const mk_vec3 d = v3_sub(tv[(k + 1) % 3], tv[k]);
                ok = (kind[k] == EDGE_OPEN || kind[k] == EDGE_CONVEX) && cu >= limit[k] - MESH_CONE_SLACK &&
                     fabs(v3_dot(u, d)) <= MESH_CONE_SLACK * v3_len(d);
            }
        }
        /* A foot off every edge by more than the slack, where u itself says
         * which edge: square to it, leaning out across it and within its
         * cone (only that edge of the prism, or its ends, has such a normal).
         * EPA's witness on the prism of a curved shape deep at a crest can
         * lie that far off the edge (0.17 mm, the slack 0.16, a cone 8 cm
         * into a sharp ridge: no contact at all). */
        for (int k = 0; k < 3 && !ok && edges == 0; ++k) {
            const mk_vec3 d = v3_sub(tv[(k + 1) % 3], tv[k]);
            ok = (kind[k] == EDGE_OPEN || kind[k] == EDGE_CONVEX) && cu >= limit[k] - MESH_CONE_SLACK &&
                 v3_dot(u, w[k]) > MESH_CONE_SLACK && fabs(v3_dot(u, d)) <= MESH_CONE_SLACK * v3_len(d);
        }
        if (ok) {
            /* Where a face at a corner turns more than square from t, the
             * prism reaches out past that face's plane, outside the solid,
             * and EPA's way out through its side can be longer than any
             * way out of the solid (a box 3.4 cm into a convex blob's
             * corner got contacts 9.5 cm deep, shapes_deep_in_blobs): held
             * as the plane's points are (region_holds). */
            const int mine = *n;
            for (int i = 0; i < pr.count; ++i)
                buf[(*n)++] = (candidate){{pr.points[i].position, u, pr.points[i].depth, t}, 0};
            return ti->sharp_ring ? region_holds(q, t, tv, mine, buf, *n) : MK_OK;
        }
        q->turned_down = greater(q->turned_down, pr.points[deepest].depth);
    }
    /* A face contact keeps the patch's points on the triangle's edges other
     * than flat ones (where the shape's feature crosses the mesh's border or
     * a crease: corners of the contact region); points on flat edges are
     * where the tessellation cut the region, no corners of it. */
    const int mine = *n;
    if (face)
        for (int i = 0; i < pr.count; ++i) {
            const mk_vec3 foot = pr.points[i].point_b;
            int real_edge = 0;
            for (int k = 0; k < 3; ++k)
                real_edge |= kind[k] != EDGE_FLAT && fabs(v3_dot(v3_sub(foot, tv[k]), w[k])) <= MESH_EDGE_SLACK * L;
            if (real_edge)
                buf[(*n)++] = (candidate){{pr.points[i].position, N, pr.points[i].depth, t}, 1};
        }
    const int first = *n;
    st = plane_contacts(q, t, tv, N, plane, w, L, buf, n);
    if (st != MK_OK)
        return st;
    if (face)
        return ti->sharp_ring ? region_holds(q, t, tv, mine, buf, *n) : MK_OK;
    return ridge_limits(q, t, tv, N, depth, first, buf, *n);
}

/* Adds triangle t's contacts (mesh frame) to buf; returns a bad-input
 * status, else MK_OK. The front: the shape's centre in front of the
 * triangle's plane. A centre behind it, inside the surface (point_sunk),
 * meets the triangle when it is behind by less than half the way from the
 * centre to the shape's top along N: a small body driven a little past its
 * middle in one step still comes back out. A centre behind it but outside
 * the surface (a shape over a ridge reaching down a steep face beyond it)
 * meets the triangle as its plane (step 4: the shape's feature below the
 * plane, the feet over the triangle), and only where the shape itself is
 * inside the surface with this triangle nearest: a point is kept when it
 * is inside and has this triangle among its nearest (the shape's part
 * behind the plane that is outside the surface, above the ridge's near
 * side, is not in contact). Its depth is then its distance to the surface.
 * A point inside nearer another face gets the way out to its nearest
 * surface point (its distance, along the line to it), as that face's
 * own query may not see it: its foot on that face's plane can fall past
 * the crest. (mesh.h) */
static mk_status triangle_contacts(mesh_query *q, int t, candidate *buf, int *n)
{
    const mk_mesh *m = q->mesh;
    const mk_vec3 N = m->normal[t];
    const mk_real behind = v3_dot(N, v3_sub(m->vertices[m->tri[3 * t]], q->centre));
    if (!(behind > 0))
        return face_contacts(q, t, buf, n);
    if (q->sunk < 0)
        q->sunk = point_sunk(q, q->centre, -1, NULL);
    if (q->sunk) {
        if (!q->top_valid || memcmp(&q->top_n, &N, sizeof N) != 0) {
            const mk_vec3 top = posed_support(q, N);
            q->top_valid = 1, q->top_n = N, q->top = v3_dot(N, v3_sub(top, q->centre)) + q->shape->radius;
        }
        return behind < 0.5 * q->top ? face_contacts(q, t, buf, n) : MK_OK;
    }
    const int *vid = &m->tri[3 * t];
    const mk_vec3 tv[3] = {m->vertices[vid[0]], m->vertices[vid[1]], m->vertices[vid[2]]};
    const int first = *n;
    const mk_status st = plane_contacts(q, t, tv, N, v3_dot(N, tv[0]), m->info[t].w, m->info[t].longest, buf, n);
    int kept = first;
    for (int i = first; i < *n; ++i) {
        mk_mesh_contact *c = &buf[i].c;
        const mk_vec3 p = v3_madd(c->position, -0.5 * c->depth, c->normal);
        sunk_info si;
        if (!(c->depth > 0))
            continue;
        if (point_sunk(q, p, t, &si)) {
            hold_depth(&buf[i], p, si.wall); /* an open edge's wall nearer than this plane */
        } else {
            /* inside but nearer another face (a shape straddling a sharp
             * ridge, its point deep under this face past the ridge's
             * bisector): its own way out, to the nearest surface point (or
             * an open edge's wall, when nearer) */
            const mk_vec3 out = v3_sub(si.at, p);
            const mk_real d = v3_len(out);
            if (!(si.inside && d > 0))
                continue;
            c->normal = v3_scale(out, 1 / d);
            c->depth = fmin(d, si.wall);
            c->position = v3_madd(p, 0.5 * c->depth, c->normal);
            buf[i].exact = 0;
        }
        buf[kept++] = buf[i];
    }
    *n = kept;
    return st;
}

/* ------------------------------------------------------------ merging */

/* Drops duplicates (one position within `tol` and one normal within
 * MESH_SAME_NORMAL: the same edge or corner met by two triangles, or met by
 * one and a face's contact next to it): the deeper stays (ties: the
 * earlier), but of two as deep to MESH_DEPTH_TIE half sizes of which one
 * has a face's exact normal, that one. Then keeps at most `keep`: the deepest, then each time
 * the one farthest from those kept (ties: the deeper, then the earlier).
 * The survivors keep their order. Returns their number. */
static int reduce_contacts(candidate *cand, int n, int keep, mk_real tol, mk_real tie)
{
    unsigned char alive[MESH_BUFFER + MESH_PER_TRIANGLE];
    for (int i = 0; i < n; ++i)
        alive[i] = 1;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n && alive[i]; ++j) {
            const mk_mesh_contact *a = &cand[i].c, *b = &cand[j].c;
            if (!alive[j] || v3_len2(v3_sub(a->position, b->position)) > tol * tol ||
                v3_dot(a->normal, b->normal) < 1 - MESH_SAME_NORMAL)
                continue;
            const int j_wins = fabs(a->depth - b->depth) <= tie && cand[j].exact != cand[i].exact
                                   ? cand[j].exact
                                   : b->depth > a->depth;
            if (j_wins)
                alive[i] = 0;
            else
                alive[j] = 0;
        }
    int live = 0;
    for (int i = 0; i < n; ++i)
        live += alive[i];
    if (live > keep) {
        unsigned char chosen[MESH_BUFFER + MESH_PER_TRIANGLE] = {0};
        mk_real gap[MESH_BUFFER + MESH_PER_TRIANGLE];
        int best = -1;
        for (int i = 0; i < n; ++i)
            if (alive[i] && (best < 0 || cand[i].c.depth > cand[best].c.depth))
                best = i;
        for (int taken = 0; taken < keep; ++taken) {
            chosen[best] = 1;
            int next = -1;
            for (int i = 0; i < n; ++i) {
                if (!alive[i] || chosen[i])
                    continue;
                const mk_real d = v3_len2(v3_sub(cand[i].c.position, cand[best].c.position));
                gap[i] = taken == 0 ? d : fmin(gap[i], d);
                if (next < 0 || gap[i] > gap[next] || (gap[i] == gap[next] && cand[i].c.depth > cand[next].c.depth))
                    next = i;
            }
            best = next;
        }
        for (int i = 0; i < n; ++i)
            alive[i] = chosen[i];
    }
    int k = 0;
    for (int i = 0; i < n; ++i)
        if (alive[i])
            cand[k++] = cand[i];
    return k;
}

/* ------------------------------------------------------------ the query */

/* The query's inputs checked, and the shape posed in the mesh's frame (q;
 * q->settings = s), with its box there grown by its radius and the
 * speculative distance (lo, hi). */
static mk_status query_begin(const mk_shape *shape, const mk_transform *xf, const mk_mesh *mesh,
                             const mk_transform *mesh_xf, const mk_collide_settings *settings, mk_collide_settings *s,
                             mesh_query *q, mk_vec3 *lo, mk_vec3 *hi)
{
    if (!shape || !xf || !mesh || !mesh_xf || !transform_ok(xf) || !transform_ok(mesh_xf))
        return MK_INVALID_INPUT;
    const mk_status v = shape_status(shape);
    if (v != MK_OK)
        return v;
    *s = settings ? *settings : mk_collide_default_settings();
    if (!isfinite(s->speculative))
        return MK_INVALID_INPUT;
    q->shape = shape, q->mesh = mesh, q->settings = s, q->budget = MK_OK;
    q->plane_valid = 0, q->low_valid = 0, q->top_valid = 0, q->sunk = -1, q->region_valid = 0, q->met = 0;
    q->turned_down = -INFINITY, q->least_plane = INFINITY;
    q->xf.R = m3_tmul_m3(&mesh_xf->R, &xf->R);
    q->xf.p = m3_tmul(&mesh_xf->R, v3_sub(xf->p, mesh_xf->p));
    mk_vec3 c = v3(0, 0, 0);
    if (shape->type == MK_SHAPE_HULL)
        c = shape->u.hull.hull->centroid;
    else if (shape->type == MK_SHAPE_USER)
        c = v3_scale(v3_add(shape->u.user.aabb_min, shape->u.user.aabb_max), 0.5);
    q->centre = v3_add(m3_mul(&q->xf.R, c), q->xf.p);
    shape_local_bounds(shape, &q->box_lo, &q->box_hi);
    q->half = 0.5 * v3_max_abs(v3_sub(q->box_hi, q->box_lo)); /* shape_half_size */
    q->foot_slack = MESH_FOOT_SLACK * q->half;
    mk_real lo3[3] = {0, 0, 0}, hi3[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        const mk_vec3 row = v3(q->xf.R.m[i][0], q->xf.R.m[i][1], q->xf.R.m[i][2]);
        const mk_real up = v3_dot(row, shape_support(shape, row, NULL));
        const mk_real down = v3_dot(row, shape_support(shape, v3_neg(row), NULL));
        const mk_real pad = shape->radius + fmax(s->speculative, 0);
        lo3[i] = v3_comp(q->xf.p, i) + down - pad, hi3[i] = v3_comp(q->xf.p, i) + up + pad;
    }
    *lo = v3(lo3[0], lo3[1], lo3[2]), *hi = v3(hi3[0], hi3[1], hi3[2]);
    q->lo = *lo, q->hi = *hi;
    return MK_OK;
}

int mk_mesh_overlaps(const mk_shape *shape, const mk_transform *xf, const mk_mesh *mesh, const mk_transform *mesh_xf,
                     const mk_collide_settings *settings, int *triangles, int max_triangles)
{
    mk_collide_settings s;
    mesh_query q;
    mk_vec3 lo, hi;
    if (max_triangles < 0 || (max_triangles > 0 && !triangles) ||
        query_begin(shape, xf, mesh, mesh_xf, settings, &s, &q, &lo, &hi) != MK_OK)
        return -1;
    int stack[MESH_STACK], sp = 1, t = -1, end = -1, n = 0;
    stack[0] = 0;
    for (int k; (k = next_triangle(mesh, lo, hi, stack, &sp, &t, &end)) != -1;) {
        if (k < 0)
            return -1;
        if (n < max_triangles)
            triangles[n] = mesh->source[k];
        ++n;
    }
    return n;
}

mk_status mk_collide_mesh_filtered(const mk_shape *shape, const mk_transform *xf, const mk_mesh *mesh,
                                   const mk_transform *mesh_xf, const mk_collide_settings *settings,
                                   mk_mesh_filter *filter, void *user, int max_contacts, mk_mesh_contact *out,
                                   int *count)
{
    if (!count)
        return MK_INVALID_INPUT;
    *count = 0;
    if (!out || max_contacts < 1)
        return MK_INVALID_INPUT;
    mk_collide_settings s;
    mesh_query q;
    mk_vec3 lo, hi;
    const mk_status begun = query_begin(shape, xf, mesh, mesh_xf, settings, &s, &q, &lo, &hi);
    if (begun != MK_OK)
        return begun;
    const mk_real tol = MESH_SAME_POINT * q.half;
    const mk_real tie = MESH_DEPTH_TIE * q.half;
    candidate buf[MESH_BUFFER + MESH_PER_TRIANGLE];
    int n = 0, rejected = 0;
    int stack[MESH_STACK], sp = 1, t = -1, end = -1;
    stack[0] = 0;
    for (int k; (k = next_triangle(mesh, lo, hi, stack, &sp, &t, &end)) != -1;) {
        if (k < 0)
            return MK_INVALID_INPUT;
        if (filter && !filter(user, mesh->source[k])) {
            rejected = 1;
            continue;
        }
        if (n > MESH_BUFFER)
            n = reduce_contacts(buf, n, MESH_BUFFER / 2, tol, tie);
        const mk_status st = triangle_contacts(&q, k, buf, &n);
        if (st != MK_OK)
            return st;
    }
    /* No contact, or none as deep as a prism's turned-down answer, or (a
     * shape deeper than a tenth of its half size below every plane met)
     * none as deep as that: the region's, where it stands for the solid
     * (region_contacts; on a convex solid the depth below any face's plane
     * bounds the shape's, so a deepest contact short of the least such
     * depth may be short of it). */
    mk_real deepest = -INFINITY;
    for (int i = 0; i < n; ++i)
        deepest = greater(deepest, buf[i].c.depth);
    const int deep = n > 0 && q.least_plane > 0.1 * q.half && deepest < 0.99 * q.least_plane;
    if (((n == 0 && q.met) || q.turned_down > deepest + 0.01 * fabs(deepest) + tie || deep) && !rejected) {
        if (n > MESH_BUFFER)
            n = reduce_contacts(buf, n, MESH_BUFFER / 2, tol, tie);
        const mk_status st = region_contacts(&q, buf, &n);
        if (st != MK_OK)
            return st;
    }
    n = reduce_contacts(buf, n, max_contacts, tol, tie);
    for (int i = 0; i < n; ++i) {
        out[i].position = v3_add(m3_mul(&mesh_xf->R, buf[i].c.position), mesh_xf->p);
        out[i].normal = m3_mul(&mesh_xf->R, buf[i].c.normal);
        out[i].depth = buf[i].c.depth;
        out[i].triangle = mesh->source[buf[i].c.triangle];
    }
    *count = n;
    return q.budget;
}

mk_status mk_collide_mesh(const mk_shape *shape, const mk_transform *xf, const mk_mesh *mesh,
                          const mk_transform *mesh_xf, const mk_collide_settings *settings, int max_contacts,
                          mk_mesh_contact *out, int *count)
{
    return mk_collide_mesh_filtered(shape, xf, mesh, mesh_xf, settings, NULL, NULL, max_contacts, out, count);
}
