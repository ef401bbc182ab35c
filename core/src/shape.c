/* Shape constructors, validation, support functions and bounding boxes. */
#include <minkowski/shape.h>
#include "support.h"
#include "valid.h"

/* ------------------------------------------------------------ validation */

mk_status mk_shape_validate(const mk_shape *s) { return shape_status(s); }

/* ------------------------------------------------------------ constructors */

/* Validate a candidate and only then copy it out, so errors leave *s untouched. */
static mk_status commit(mk_shape *s, const mk_shape *candidate)
{
    if (!s)
        return MK_INVALID_INPUT;
    mk_status st = mk_shape_validate(candidate);
    if (st == MK_OK)
        *s = *candidate;
    return st;
}

mk_status mk_shape_sphere(mk_shape *s, mk_real radius)
{
    mk_shape c = {.type = MK_SHAPE_SPHERE, .radius = radius};
    return commit(s, &c);
}

mk_status mk_shape_box(mk_shape *s, mk_vec3 half_extents, mk_real rounding)
{
    mk_shape c = {.type = MK_SHAPE_BOX, .radius = rounding};
    c.u.box.half_extents = half_extents;
    return commit(s, &c);
}

mk_status mk_shape_capsule(mk_shape *s, mk_real radius, mk_real half_height)
{
    mk_shape c = {.type = MK_SHAPE_CAPSULE, .radius = radius};
    c.u.capsule.half_height = half_height;
    return commit(s, &c);
}

mk_status mk_shape_cylinder(mk_shape *s, mk_real radius, mk_real half_height, mk_real rounding)
{
    mk_shape c = {.type = MK_SHAPE_CYLINDER, .radius = rounding};
    c.u.cylinder.radius = radius;
    c.u.cylinder.half_height = half_height;
    return commit(s, &c);
}

mk_status mk_shape_cone(mk_shape *s, mk_real radius, mk_real half_height, mk_real rounding)
{
    mk_shape c = {.type = MK_SHAPE_CONE, .radius = rounding};
    c.u.cone.radius = radius;
    c.u.cone.half_height = half_height;
    return commit(s, &c);
}

mk_status mk_shape_ellipsoid(mk_shape *s, mk_vec3 radii)
{
    mk_shape c = {.type = MK_SHAPE_ELLIPSOID, .radius = 0};
    c.u.ellipsoid.radii = radii;
    return commit(s, &c);
}

mk_status mk_shape_hull(mk_shape *s, const mk_hull *hull, mk_real rounding)
{
    mk_shape c = {.type = MK_SHAPE_HULL, .radius = rounding};
    c.u.hull.hull = hull;
    return commit(s, &c);
}

mk_status mk_shape_user(mk_shape *s, mk_support_fn fn, const void *data, mk_vec3 aabb_min,
                        mk_vec3 aabb_max, mk_real rounding)
{
    mk_shape c = {.type = MK_SHAPE_USER, .radius = rounding};
    c.u.user.support = fn;
    c.u.user.data = data;
    c.u.user.aabb_min = aabb_min;
    c.u.user.aabb_max = aabb_max;
    return commit(s, &c);
}

/* ------------------------------------------------------------ support */

mk_vec3 mk_shape_support(const mk_shape *s, mk_vec3 d, int *hint) { return shape_support(s, d, hint); }

/* ------------------------------------------------------------ bounds */

void mk_shape_local_aabb(const mk_shape *s, mk_vec3 *lo, mk_vec3 *hi) { shape_local_bounds(s, lo, hi); }
