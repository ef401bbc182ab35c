/* minkowski: scalar, vector and transform types shared by every module. */
#ifndef MINKOWSKI_MATH_H
#define MINKOWSKI_MATH_H

#include <minkowski/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One precision for the whole core. Query it at run time with mk_real_size(). */
typedef double mk_real;

typedef struct mk_vec3 { mk_real x, y, z; } mk_vec3;

/* Unit quaternion, scalar last (same layout as Bullet and Eigen). */
typedef struct mk_quat { mk_real x, y, z, w; } mk_quat;

/* Row-major 3x3 rotation: world = R * local. */
typedef struct mk_mat3 { mk_real m[3][3]; } mk_mat3;

/* Rigid pose: world = R * local + p. */
typedef struct mk_transform {
    mk_mat3 R;
    mk_vec3 p;
} mk_transform;

MK_API mk_transform mk_transform_identity(void);
/* Pose from a position and a quaternion; the quaternion is normalised here
 * (a zero or non-finite quaternion gives a non-finite rotation, which
 * mk_is_valid_transform() then rejects). */
MK_API mk_transform mk_transform_from_quat(mk_vec3 p, mk_quat q);
/* Largest accepted translation component: squared distances must not overflow. */
#define MK_MAX_COORDINATE 1e100

/* Finite entries, translation components within MK_MAX_COORDINATE, and an
 * orthonormal rotation (to 1e-5) with det = +1. */
MK_API int mk_is_valid_transform(const mk_transform *xf);
MK_API int mk_vec3_is_finite(mk_vec3 v);
MK_API mk_vec3 mk_transform_point(const mk_transform *xf, mk_vec3 local);
MK_API mk_vec3 mk_rotate(const mk_mat3 *R, mk_vec3 v);
MK_API mk_vec3 mk_rotate_inv(const mk_mat3 *R, mk_vec3 v);

/* sizeof(mk_real), so a program linking a prebuilt library can check it. */
MK_API int mk_real_size(void);

#ifdef __cplusplus
}
#endif
#endif
