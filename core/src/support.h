/* Core support functions, inlined into the query loops (internal). */
#ifndef MK_SRC_SUPPORT_H
#define MK_SRC_SUPPORT_H

#include <minkowski/shape.h>
#include "vec.h"

/* Point of the disc {x^2 + y^2 <= r^2} farthest along (dx, dy). */
static inline void disc_support(mk_real r, mk_real dx, mk_real dy, mk_real *x, mk_real *y)
{
    mk_real l = sqrt(dx * dx + dy * dy);
    if (l > 0) {
        *x = r * dx / l;
        *y = r * dy / l;
    } else {
        *x = 0;
        *y = 0;
    }
}

/* Cell of mk_hull.start_vertex for direction d: the cube face its largest
 * component points to, then the cell of the other two components over the
 * largest, on a res x res grid (res >= 1). d = 0 and NaN give some valid cell. */
static inline int hull_start_index(mk_vec3 d, int res)
{
    mk_real ax = fabs(d.x), ay = fabs(d.y), az = fabs(d.z);
    int face;
    mk_real m, u, v;
    if (ax >= ay && ax >= az) {
        face = d.x < 0;
        m = ax, u = d.y, v = d.z;
    } else if (ay >= az) {
        face = 2 + (d.y < 0);
        m = ay, u = d.z, v = d.x;
    } else {
        face = 4 + (d.z < 0);
        m = az, u = d.x, v = d.y;
    }
    const mk_real half = 0.5 * res, top = res - 1;
    mk_real k = half / m;
    mk_real fu = u * k + half, fv = v * k + half;
    fu = fu > 0 ? (fu < top ? fu : top) : 0; /* NaN -> 0 */
    fv = fv > 0 ? (fv < top ? fv : top) : 0;
    return (face * res + (int)fu) * res + (int)fv;
}

/* The best of a start-table cell's k candidates along d (the first on ties). */
static inline int hull_list_best(const mk_hull *h, mk_vec3 d, const int *list, int k)
{
    int best = list[0];
    mk_real best_s = v3_dot(h->vertices[best], d);
    for (int i = 1; i < k; ++i) {
        mk_real s = v3_dot(h->vertices[list[i]], d);
        if (s > best_s) {
            best_s = s;
            best = list[i];
        }
    }
    return best;
}

/* A start-table entry (shape.h) < 0 decoded for d: the cell's certain vertex,
 * or the best of its candidates, either way extreme along d. */
static inline int hull_entry_vertex(const mk_hull *h, mk_vec3 d, int e)
{
    unsigned x = ~(unsigned)e;
    if (!(x & 1))
        return (int)(x >> 1);
    return hull_list_best(h, d, h->start_list + (x >> 3), (int)((x >> 1) & 3) + 2);
}

/* The start table's vertex for d (h->start_res > 0): extreme along d where
 * the cell knows it (*exact = 1), else the cell's climbing start (*exact = 0). */
static inline int hull_table_vertex(const mk_hull *h, mk_vec3 d, int *exact)
{
    int e = h->start_vertex[hull_start_index(d, h->start_res)];
    *exact = e < 0;
    return e < 0 ? hull_entry_vertex(h, d, e) : e;
}

/* Steepest ascent over neighbours from vertex v, whose value <v, d> the caller
 * already has in best_s (see hull.c). */
static inline int hull_climb_from_value(const mk_hull *h, mk_vec3 d, int v, mk_real best_s)
{
    for (int step = 0; step < h->num_vertices; ++step) {
        int next = v;
        for (int k = h->adj_start[v]; k < h->adj_start[v + 1]; ++k) {
            int u = h->adj[k];
            mk_real s = v3_dot(h->vertices[u], d);
            if (s > best_s) {
                best_s = s;
                next = u;
            }
        }
        if (next == v)
            break;
        v = next;
    }
    return v;
}

/* Steepest ascent over neighbours from vertex v (see hull.c). */
static inline int hull_climb_from(const mk_hull *h, mk_vec3 d, int v)
{
    return hull_climb_from_value(h, d, v, v3_dot(h->vertices[v], d));
}

/* Hull support. A start-table cell that knows its extreme vertices (one, or
 * a short candidate list) answers at once; otherwise climb from the hint or
 * the cell's vertex, whichever is higher along d (only the cell's vertex when
 * the hint is outside [0, n): a cold query). */
static inline int hull_climb(const mk_hull *h, mk_vec3 d, int start)
{
    if (h->start_res == 0) /* small hull without a table */
        return hull_climb_from(h, d, start >= 0 && start < h->num_vertices ? start : 0);
    int v = h->start_vertex[hull_start_index(d, h->start_res)];
    if (v < 0)
        return hull_entry_vertex(h, d, v);
    mk_real sv = v3_dot(h->vertices[v], d);
    if (start >= 0 && start < h->num_vertices && start != v) {
        mk_real ss = v3_dot(h->vertices[start], d);
        if (ss > sv) {
            v = start;
            sv = ss;
        }
    }
    return hull_climb_from_value(h, d, v, sv);
}

/* Forced inline: it sits in the innermost loop of every query. */
static inline __attribute__((always_inline)) mk_vec3 shape_support(const mk_shape *s, mk_vec3 d, int *hint)
{
    switch (s->type) {
    case MK_SHAPE_SPHERE:
        return v3(0, 0, 0);
    case MK_SHAPE_BOX: {
        mk_vec3 h = s->u.box.half_extents;
        /* copysign: branch-free, the signs of random directions defeat prediction */
        return v3(copysign(h.x, d.x), copysign(h.y, d.y), copysign(h.z, d.z));
    }
    case MK_SHAPE_CAPSULE:
        return v3(0, 0, d.z >= 0 ? s->u.capsule.half_height : -s->u.capsule.half_height);
    case MK_SHAPE_CYLINDER: {
        mk_vec3 p;
        disc_support(s->u.cylinder.radius, d.x, d.y, &p.x, &p.y);
        p.z = d.z >= 0 ? s->u.cylinder.half_height : -s->u.cylinder.half_height;
        return p;
    }
    case MK_SHAPE_CONE: {
        /* Either the apex or a point of the base rim, whichever is farther. */
        mk_real h = s->u.cone.half_height, r = s->u.cone.radius;
        mk_real rim = sqrt(d.x * d.x + d.y * d.y);
        if (d.z * h >= -d.z * h + r * rim)
            return v3(0, 0, h);
        mk_vec3 p;
        disc_support(r, d.x, d.y, &p.x, &p.y);
        p.z = -h;
        return p;
    }
    case MK_SHAPE_ELLIPSOID: {
        /* argmax over {x : sum (x_i / r_i)^2 <= 1} of <d, x> is r_i^2 d_i / ||r .* d||. */
        mk_vec3 r = s->u.ellipsoid.radii;
        mk_vec3 rd = v3(r.x * d.x, r.y * d.y, r.z * d.z);
        mk_real l = v3_len(rd);
        if (!(l > 0))
            return v3(r.x, 0, 0);
        return v3(r.x * rd.x / l, r.y * rd.y / l, r.z * rd.z / l);
    }
    case MK_SHAPE_HULL: {
        const mk_hull *h = s->u.hull.hull;
        int v;
        if (h->num_vertices <= MK_HULL_LINEAR_SCAN_MAX)
            v = mk_hull_support_linear(h, d);
        else
            v = hull_climb(h, d, hint ? *hint : -1);
        if (hint)
            *hint = v;
        return h->vertices[v];
    }
    case MK_SHAPE_USER:
        return s->u.user.support(s->u.user.data, d);
    case MK_SHAPE_TYPE_COUNT:
        break;
    }
    return v3(0, 0, 0);
}

/* Local-frame bounding box of the whole shape (core + radius): the body of
 * mk_shape_local_aabb, inlined into the queries that need a shape's size
 * (the call was 1.5% of a box-on-plane contact's instructions). */
static inline void shape_local_bounds(const mk_shape *s, mk_vec3 *lo, mk_vec3 *hi)
{
    mk_vec3 h = v3(0, 0, 0), c = v3(0, 0, 0);
    switch (s->type) {
    case MK_SHAPE_SPHERE: break;
    case MK_SHAPE_BOX: h = s->u.box.half_extents; break;
    case MK_SHAPE_CAPSULE: h = v3(0, 0, s->u.capsule.half_height); break;
    case MK_SHAPE_CYLINDER:
        h = v3(s->u.cylinder.radius, s->u.cylinder.radius, s->u.cylinder.half_height);
        break;
    case MK_SHAPE_CONE: h = v3(s->u.cone.radius, s->u.cone.radius, s->u.cone.half_height); break;
    case MK_SHAPE_ELLIPSOID: h = s->u.ellipsoid.radii; break;
    case MK_SHAPE_HULL: {
        const mk_hull *hu = s->u.hull.hull;
        c = v3_scale(v3_add(hu->aabb_min, hu->aabb_max), 0.5);
        h = v3_scale(v3_sub(hu->aabb_max, hu->aabb_min), 0.5);
        break;
    }
    case MK_SHAPE_USER:
        c = v3_scale(v3_add(s->u.user.aabb_min, s->u.user.aabb_max), 0.5);
        h = v3_scale(v3_sub(s->u.user.aabb_max, s->u.user.aabb_min), 0.5);
        break;
    case MK_SHAPE_TYPE_COUNT: break;
    }
    mk_real r = s->radius;
    h = v3_add(h, v3(r, r, r));
    *lo = v3_sub(c, h);
    *hi = v3_add(c, h);
}

/* Largest half-size of that box: the scale of a shape's tolerances. */
static inline mk_real shape_half_size(const mk_shape *s)
{
    mk_vec3 lo, hi;
    shape_local_bounds(s, &lo, &hi);
    return 0.5 * v3_max_abs(v3_sub(hi, lo));
}

#endif
