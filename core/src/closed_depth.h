/* Penetration depths in closed form, before EPA (internal). Each takes a
 * validated pair and, when its cores overlap, writes *out as mk_epa reports
 * a depth (radii added, certified bracket, witnesses on the surfaces, status
 * MK_PENETRATING, flags MK_EPA_FLAG_CLOSED_FORM, no iterations, no
 * polytope). Each returns 1 when it answered within max(tolerance,
 * relative_tolerance * depth) of settings, else 0 with *out untouched:
 * another pair, cores that only touch or are apart, or a bracket too wide. */
#ifndef MK_SRC_CLOSED_DEPTH_H
#define MK_SRC_CLOSED_DEPTH_H

#include <minkowski/epa.h>

#include "support.h"
#include "vec.h"

/* The posed cores' overlap along the world unit n, h_A(n) + h_B(-n) (E2 of
 * epa.c: an upper bound of the core depth), with the offset of B from A taken
 * first: far from the world's origin the posed points' coordinates would
 * round by more than the shapes' own size allows. */
static inline mk_real closed_overlap_along(const mk_pair *pair, mk_vec3 n)
{
    const mk_vec3 sa = m3_mul(&pair->xf_a.R, shape_support(pair->a, m3_tmul(&pair->xf_a.R, n), NULL));
    const mk_vec3 sb = m3_mul(&pair->xf_b.R, shape_support(pair->b, m3_tmul(&pair->xf_b.R, v3_neg(n)), NULL));
    return v3_dot(n, v3_sub(sa, sb)) - v3_dot(n, v3_sub(pair->xf_b.p, pair->xf_a.p));
}

/* Whether the core depth's bracket [lower, upper] meets the settings:
 * upper - lower <= max(tolerance, relative_tolerance * depth), depth the full
 * shapes' (E5 of epa.c). */
static inline int closed_within(const mk_epa_settings *s, mk_real lower, mk_real upper, mk_real depth)
{
    const mk_real rel = s->relative_tolerance * depth;
    return upper - lower <= (rel > s->tolerance ? rel : s->tolerance);
}

/* A closed form's answer as mk_epa reports one: the core depth's bracket
 * [lower, upper] (upper reported), radii r, world normal n and witnesses. */
static inline void closed_answer(mk_epa_result *out, mk_real lower, mk_real upper, mk_real r, mk_vec3 n,
                                 mk_vec3 point_a, mk_vec3 point_b)
{
    out->status = MK_PENETRATING;
    out->depth = upper + r;
    out->upper_bound = out->depth;
    out->lower_bound = lower + r;
    out->normal = n;
    out->point_a = point_a;
    out->point_b = point_b;
    out->iterations = 0;
    out->flags = MK_EPA_FLAG_CLOSED_FORM;
    out->num_faces = 0;
}

/* Sphere, capsule, cylinder or cone cores, at least one a cylinder or a cone,
 * whose axes are parallel and whose poses are rotations, both to rounding:
 * from the pair's common meridian section (revolution.c). */
int mk_revolution_depth(const mk_pair *pair, const mk_epa_settings *settings, mk_epa_result *out);

/* A sphere whose centre lies inside an ellipsoid: the centre's distance to
 * the ellipsoid's surface (point_ellipsoid.c). */
int mk_point_ellipsoid_depth(const mk_pair *pair, const mk_epa_settings *settings, mk_epa_result *out);

#endif
