/* Projection of the origin onto a simplex of 1..4 points (internal). */
#ifndef MK_SRC_SIMPLEX_H
#define MK_SRC_SIMPLEX_H

#include <minkowski/gjk.h>

/* Replace s by the smallest sub-simplex whose convex hull contains the point of
 * conv(s->w) closest to the origin, fill s->bary for it, and return that point.
 * Signed-volume style: every decision is a sign of a sub-determinant compared
 * with the full one, so degenerate (flat, needle, coincident) simplices fall
 * back to their faces instead of dividing by zero. Returns the exact origin (and
 * a 4-point simplex or a lower-dimensional one containing it) when the origin
 * lies inside. */
mk_vec3 mk_simplex_project(mk_simplex *s);

#endif
