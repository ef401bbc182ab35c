/* Penetration depth of bodies of revolution about parallel axes (internal). */
#ifndef MK_SRC_REVOLUTION_H
#define MK_SRC_REVOLUTION_H

#include <minkowski/epa.h>

/* A validated pair of sphere, capsule, cylinder or cone cores, at least one a
 * cylinder or a cone, whose axes are parallel and whose poses are rotations,
 * both to rounding, with overlapping cores: the penetration depth from the
 * pair's common meridian section (revolution.c), written to *out as mk_epa
 * reports a depth (radii added, certified bracket, witnesses on the
 * surfaces, status MK_PENETRATING, flags MK_EPA_FLAG_REVOLUTION, no
 * iterations, no polytope). Returns 1 when it answered within
 * max(tolerance, relative_tolerance * depth) of settings, else 0 and *out
 * untouched: other pairs, cores that only touch, or a bracket too wide. */
int mk_revolution_depth(const mk_pair *pair, const mk_epa_settings *settings, mk_epa_result *out);

#endif
