/* Closest points of two segments (internal): the manifold's line contacts
 * and the signed distance's closed form for spheres and capsules. */
#ifndef MK_SRC_SEGMENT_H
#define MK_SRC_SEGMENT_H

#include <math.h>
#include "vec.h"

/* Closest points p0 + s u and q0 + t v of two segments (s, t in [0, 1]). */
static inline void closest_on_segments(mk_vec3 p0, mk_vec3 u, mk_vec3 q0, mk_vec3 v, mk_real *s_out, mk_real *t_out)
{
    mk_vec3 r = v3_sub(p0, q0);
    mk_real a = v3_dot(u, u), e = v3_dot(v, v), b = v3_dot(u, v);
    mk_real cc = v3_dot(u, r), f = v3_dot(v, r);
    mk_real s = 0, t = 0;
    if (!(a > 0) && !(e > 0)) {
        /* both degenerate */
    } else if (!(a > 0)) {
        t = fmin(fmax(f / e, 0), 1);
    } else if (!(e > 0)) {
        s = fmin(fmax(-cc / a, 0), 1);
    } else {
        mk_real den = a * e - b * b;
        s = den > 1e-14 * a * e ? fmin(fmax((b * f - cc * e) / den, 0), 1) : 0;
        t = (b * s + f) / e;
        if (t < 0) {
            t = 0;
            s = fmin(fmax(-cc / a, 0), 1);
        } else if (t > 1) {
            t = 1;
            s = fmin(fmax((b - cc) / a, 0), 1);
        }
    }
    *s_out = s;
    *t_out = t;
}

#endif
