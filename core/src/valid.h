/* Input validation every query makes (internal): mk_is_valid_transform and
 * mk_shape_validate are these, and pair_check.h inlines them into the
 * queries (the checks are ~10% of a box-box distance query's instructions;
 * the four calls into other translation units were 1.4% of them). */
#ifndef MK_SRC_VALID_H
#define MK_SRC_VALID_H

#include <minkowski/shape.h>
#include <minkowski/status.h>
#include "vec.h"

static inline int transform_ok(const mk_transform *xf)
{
    /* One branch-free pass, every test combined with '&' (called twice per query,
     * so it must stay cheap). No separate finiteness test is needed: a NaN or an
     * infinity in R makes one of the tested quantities NaN or infinite, which
     * fails its comparison, and a NaN translation fails its bound. */
    const mk_real *m = &xf->R.m[0][0];
    mk_vec3 r0 = v3(m[0], m[1], m[2]), r1 = v3(m[3], m[4], m[5]), r2 = v3(m[6], m[7], m[8]);
    /* Translations whose squares overflow are refused, not answered with inf. */
    const mk_real big = MK_MAX_COORDINATE;
    int ok = (fabs(xf->p.x) <= big) & (fabs(xf->p.y) <= big) & (fabs(xf->p.z) <= big);
    /* Rotation test in 3 dots and a cross product: rows r0, r1 unit and orthogonal
     * (to 1e-5, which accepts poses that went through single precision), and
     * |r2 - r0 x r1| <= 1e-5 (compared squared). Together
     * these mean R R^T = I and det R = +1: a mirror has r2 = -(r0 x r1). */
    const mk_real tol = 1e-5;
    const int unit0 = fabs(v3_len2(r0) - 1) <= tol, unit1 = fabs(v3_len2(r1) - 1) <= tol;
    const int orthogonal = fabs(v3_dot(r0, r1)) <= tol;
    ok &= unit0 & unit1 & orthogonal;
    ok &= v3_len2(v3_sub(v3_cross(r0, r1), r2)) <= tol * tol;
    return ok;
}

static inline int size_positive(mk_real v) { return isfinite(v) && v > 0; }
static inline int size_nonnegative(mk_real v) { return isfinite(v) && v >= 0; }

static inline mk_status shape_status(const mk_shape *s)
{
    if (!s)
        return MK_INVALID_INPUT;
    if (!size_nonnegative(s->radius))
        return MK_INVALID_SIZE;
    switch (s->type) {
    case MK_SHAPE_SPHERE:
        return size_positive(s->radius) ? MK_OK : MK_INVALID_SIZE;
    case MK_SHAPE_BOX: {
        mk_vec3 h = s->u.box.half_extents;
        return size_positive(h.x) && size_positive(h.y) && size_positive(h.z) ? MK_OK : MK_INVALID_SIZE;
    }
    case MK_SHAPE_CAPSULE:
        return size_positive(s->radius) && size_positive(s->u.capsule.half_height) ? MK_OK : MK_INVALID_SIZE;
    case MK_SHAPE_CYLINDER:
        return size_positive(s->u.cylinder.radius) && size_positive(s->u.cylinder.half_height) ? MK_OK
                                                                                               : MK_INVALID_SIZE;
    case MK_SHAPE_CONE:
        return size_positive(s->u.cone.radius) && size_positive(s->u.cone.half_height) ? MK_OK : MK_INVALID_SIZE;
    case MK_SHAPE_ELLIPSOID: {
        mk_vec3 r = s->u.ellipsoid.radii;
        return size_positive(r.x) && size_positive(r.y) && size_positive(r.z) ? MK_OK : MK_INVALID_SIZE;
    }
    case MK_SHAPE_HULL: {
        const mk_hull *h = s->u.hull.hull;
        /* a start table, when it has one (shape.h; a hand-built hull may set
         * start_res 0); a box, when it says it is one */
        return h && h->num_vertices >= 4 && h->vertices && h->adj_start && h->adj && h->start_res >= 0 &&
                       (h->start_res == 0 || h->start_vertex) &&
                       (!h->box || (size_positive(h->box_half_extents.x) && size_positive(h->box_half_extents.y) &&
                                    size_positive(h->box_half_extents.z) && transform_ok(&h->box_pose)))
                   ? MK_OK
                   : MK_INVALID_INPUT;
    }
    case MK_SHAPE_USER: {
        mk_vec3 lo = s->u.user.aabb_min, hi = s->u.user.aabb_max;
        if (!s->u.user.support || !v3_finite(lo) || !v3_finite(hi))
            return MK_INVALID_INPUT;
        return lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z ? MK_OK : MK_INVALID_SIZE;
    }
    case MK_SHAPE_TYPE_COUNT:
        break;
    }
    return MK_INVALID_INPUT;
}

#endif
