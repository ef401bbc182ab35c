/* EPA from a caller's points of D (internal, not installed). */
#ifndef MK_SRC_EPA_SEED_H
#define MK_SRC_EPA_SEED_H

#include <minkowski/epa.h>

/* mk_epa's expansion from the convex hull of count (4 .. MK_EPA_SEED_VERTICES)
 * points a[i] - b[i] of D, a[i] on A's core and b[i] on B's, in A's frame,
 * instead of GJK's simplex: for a caller that knows points near D's face
 * along the normal (collide.c's face-on-face contacts). Pair and settings as
 * mk_epa's, already validated by the caller. Returns 1 when the expansion
 * converged with the origin inside: *out is then the signed distance as
 * mk_signed_distance gives it (status MK_PENETRATING, certified bracket, no
 * GJK iterations). Otherwise 0 (the points were flat, the origin outside, the
 * budget or the precision floor reached) and *out untouched. */
int mk_epa_from_points(const mk_pair *pair, const mk_vec3 *a, const mk_vec3 *b, int count,
                       const mk_epa_settings *settings, void *workspace, size_t workspace_bytes,
                       mk_signed_distance_result *out);

#endif
