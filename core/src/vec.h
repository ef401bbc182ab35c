/* Internal inline vector helpers shared by every core file (not installed). */
#ifndef MK_SRC_VEC_H
#define MK_SRC_VEC_H

#include <math.h>
#include <minkowski/math.h>

static inline mk_vec3 v3(mk_real x, mk_real y, mk_real z) { mk_vec3 r = {x, y, z}; return r; }
static inline mk_vec3 v3_add(mk_vec3 a, mk_vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline mk_vec3 v3_sub(mk_vec3 a, mk_vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline mk_vec3 v3_neg(mk_vec3 a) { return v3(-a.x, -a.y, -a.z); }
static inline mk_vec3 v3_scale(mk_vec3 a, mk_real s) { return v3(a.x * s, a.y * s, a.z * s); }
/* a + s * b */
static inline mk_vec3 v3_madd(mk_vec3 a, mk_real s, mk_vec3 b) { return v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline mk_real v3_dot(mk_vec3 a, mk_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline mk_vec3 v3_cross(mk_vec3 a, mk_vec3 b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* Component i (0, 1, 2) of v. */
static inline mk_real v3_comp(mk_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
static inline mk_real v3_len2(mk_vec3 a) { return v3_dot(a, a); }
static inline mk_real v3_len(mk_vec3 a) { return sqrt(v3_dot(a, a)); }
static inline mk_vec3 v3_lerp(mk_vec3 a, mk_vec3 b, mk_real t) { return v3_madd(a, t, v3_sub(b, a)); }
static inline int v3_finite(mk_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline mk_real v3_max_abs(mk_vec3 a)
{
    mk_real m = fabs(a.x);
    if (fabs(a.y) > m) m = fabs(a.y);
    if (fabs(a.z) > m) m = fabs(a.z);
    return m;
}
/* Unit vector along a, or `fallback` when a is (numerically) zero. */
static inline mk_vec3 v3_normalize_or(mk_vec3 a, mk_vec3 fallback)
{
    mk_real l = v3_len(a);
    return l > 1e-300 && isfinite(l) ? v3_scale(a, 1.0 / l) : fallback;
}
/* Two unit vectors across the unit n, (t1, t2, n) right-handed. */
static inline void v3_across(mk_vec3 n, mk_vec3 *t1, mk_vec3 *t2)
{
    const mk_vec3 t = fabs(n.x) < 0.6 ? v3(1, 0, 0) : v3(0, 1, 0);
    *t1 = v3_normalize_or(v3_sub(t, v3_scale(n, v3_dot(t, n))), v3(0, 0, 1));
    *t2 = v3_cross(n, *t1);
}
static inline mk_vec3 m3_mul(const mk_mat3 *R, mk_vec3 v)
{
    return v3(R->m[0][0] * v.x + R->m[0][1] * v.y + R->m[0][2] * v.z,
              R->m[1][0] * v.x + R->m[1][1] * v.y + R->m[1][2] * v.z,
              R->m[2][0] * v.x + R->m[2][1] * v.y + R->m[2][2] * v.z);
}
/* R^T v */
static inline mk_vec3 m3_tmul(const mk_mat3 *R, mk_vec3 v)
{
    return v3(R->m[0][0] * v.x + R->m[1][0] * v.y + R->m[2][0] * v.z,
              R->m[0][1] * v.x + R->m[1][1] * v.y + R->m[2][1] * v.z,
              R->m[0][2] * v.x + R->m[1][2] * v.y + R->m[2][2] * v.z);
}
/* A^T B */
static inline mk_mat3 m3_tmul_m3(const mk_mat3 *A, const mk_mat3 *B)
{
    mk_mat3 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.m[i][j] = A->m[0][i] * B->m[0][j] + A->m[1][i] * B->m[1][j] + A->m[2][i] * B->m[2][j];
    return r;
}
/* A B */
static inline mk_mat3 m3_mul_m3(const mk_mat3 *A, const mk_mat3 *B)
{
    mk_mat3 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.m[i][j] = A->m[i][0] * B->m[0][j] + A->m[i][1] * B->m[1][j] + A->m[i][2] * B->m[2][j];
    return r;
}
static inline mk_vec3 xf_apply(const mk_transform *xf, mk_vec3 v) { return v3_add(m3_mul(&xf->R, v), xf->p); }

#endif
