/* Transforms and small public math helpers. */
#include <minkowski/status.h>
#include "valid.h"

mk_transform mk_transform_identity(void)
{
    mk_transform xf = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {0, 0, 0}};
    return xf;
}

mk_transform mk_transform_from_quat(mk_vec3 p, mk_quat q)
{
    mk_real n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    mk_real s = n > 0 ? 1.0 / n : NAN;
    mk_real x = q.x * s, y = q.y * s, z = q.z * s, w = q.w * s;
    mk_transform xf;
    xf.R.m[0][0] = 1 - 2 * (y * y + z * z);
    xf.R.m[0][1] = 2 * (x * y - z * w);
    xf.R.m[0][2] = 2 * (x * z + y * w);
    xf.R.m[1][0] = 2 * (x * y + z * w);
    xf.R.m[1][1] = 1 - 2 * (x * x + z * z);
    xf.R.m[1][2] = 2 * (y * z - x * w);
    xf.R.m[2][0] = 2 * (x * z - y * w);
    xf.R.m[2][1] = 2 * (y * z + x * w);
    xf.R.m[2][2] = 1 - 2 * (x * x + y * y);
    xf.p = p;
    return xf;
}

int mk_vec3_is_finite(mk_vec3 v) { return v3_finite(v); }

int mk_is_valid_transform(const mk_transform *xf) { return xf && transform_ok(xf); }

mk_vec3 mk_transform_point(const mk_transform *xf, mk_vec3 local) { return xf_apply(xf, local); }
mk_vec3 mk_rotate(const mk_mat3 *R, mk_vec3 v) { return m3_mul(R, v); }
mk_vec3 mk_rotate_inv(const mk_mat3 *R, mk_vec3 v) { return m3_tmul(R, v); }
int mk_real_size(void) { return (int)sizeof(mk_real); }

const char *mk_version(void) { return MK_VERSION_STRING; }

const char *mk_status_string(mk_status s)
{
    switch (s) {
    case MK_OK: return "ok";
    case MK_GJK_SEPARATED: return "separated";
    case MK_GJK_INTERSECTING: return "intersecting";
    case MK_GJK_MAX_ITER: return "iteration limit reached";
    case MK_PENETRATING: return "penetrating";
    case MK_EPA_MAX_ITER: return "EPA iteration limit reached";
    case MK_EPA_FACE_BUDGET: return "EPA face budget reached";
    case MK_GROWTH_MAX_ITER: return "growth-distance iteration limit reached";
    case MK_GROWTH_DEGENERATE: return "growth distance undefined for these centres";
    case MK_RAY_HIT: return "ray hit";
    case MK_RAY_MISS: return "ray missed";
    case MK_RAY_INSIDE: return "ray starts inside";
    case MK_RAY_MAX_ITER: return "ray-cast iteration limit reached";
    case MK_INVALID_INPUT: return "invalid input";
    case MK_INVALID_SIZE: return "invalid shape size";
    case MK_DEGENERATE_HULL: return "degenerate hull";
    case MK_WORKSPACE_TOO_SMALL: return "workspace too small";
    case MK_OUT_OF_MEMORY: return "out of memory";
    case MK_QHULL_ERROR: return "qhull error";
    }
    return "unknown status";
}
