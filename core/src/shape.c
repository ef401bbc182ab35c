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

void mk_shape_local_aabb(const mk_shape *s, mk_vec3 *lo, mk_vec3 *hi)
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
