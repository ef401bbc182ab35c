/* minkowski: contact manifolds, up to four contact points sharing one normal.
 *
 * Input: two posed shapes plus the contact normal and signed distance that a
 * distance or penetration query returned for them (mk_gjk_distance when apart,
 * EPA / mk_signed_distance when they overlap). Output: the points an engine
 * needs to stack bodies without rocking, each with a depth and a feature id
 * that stays the same from one step to the next while the same features touch.
 *
 * How the points are made:
 * - Flat contacts (box and hull faces, the caps of cylinders, the base of a
 *   cone): the reference face is the face of A or B best aligned with the normal
 *   (A wins near-ties; a hull's faces within 1e-5 rad of its best face's angle
 *   are ties won by the lower index; a hull's face is its contact face,
 *   mk_hull.face_region); the incident feature of the other shape (its face most
 *   opposed to the reference normal, a capsule segment, a cylinder / cone side
 *   line, a point) is clipped against the side planes of the reference face,
 *   or against the circle of a reference cap. An incident cap is a ring of
 *   MK_MANIFOLD_RING_SAMPLES rim points (plus its exact deepest rim point when
 *   tilted), so a cylinder standing on a face gets points on its rim. A user
 *   shape shows a face when its support, tilted around the normal towards
 *   eight azimuths, visits three or more corners that stay put when the tilt
 *   halves (a polytope's face; its corners the tilts find), an edge when two.
 * - No face aligned with the normal (curved pairs, edge against edge): two
 *   parallel line features (capsule segments, cylinder side lines, box edges)
 *   give the two ends of their overlap, two crossing ones their closest
 *   points; anything else one point, on the shape whose support along the
 *   normal is a unique, stable point (its position is as good as the normal).
 * - Rounded shapes: computed on the cores, then each point moves by the radii
 *   along the normal and the separation drops by r_A + r_B. The deepest point
 *   lands exactly on the rounded surfaces; a point on a core face tilted by an
 *   angle t to the normal lands up to r (1 - cos t) inside (more penetration,
 *   never less).
 * - A face contact must reproduce signed_distance at its deepest point (to
 *   1e-5 x the smaller shape's size; or, when the normal is the face normal,
 *   reach the other shape's deepest point): otherwise the contact is at the
 *   face's border or edge against edge, and gets the line / point treatment.
 * - Points separated by more than settings.speculative_distance are dropped;
 *   more than four are reduced to four: the two farthest apart in the contact
 *   plane and the two on either side of that diagonal spanning the largest
 *   area, a choice made by the patch's shape, which does not flicker while the
 *   bodies rock by a hair. When a dropped point is deeper than every kept one
 *   by more than the depth tie, the four are instead the deepest, the one
 *   farthest from it and the two largest areas: the deepest point is always
 *   kept to within the tie. Near-ties (depths within 1e-4 x the smaller
 *   shape's size, lengths and areas likewise) go to the smaller feature id.
 * - The points come in increasing feature id: one set, one order.
 *
 * Pure, reentrant, no heap, bounded loops; the same inputs give the same points
 * in the same order. Stack use is about 25 KB.
 */
#ifndef MINKOWSKI_MANIFOLD_H
#define MINKOWSKI_MANIFOLD_H

#include <stdint.h>
#include <minkowski/gjk.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MK_MANIFOLD_MAX_POINTS 4
/* Capacity of mk_contact_patch: up to this many points of one contact patch. */
#define MK_MANIFOLD_MAX_PATCH_POINTS 8
/* Corners of a hull's contact face at most: a face with more, and a flat
 * region of faces, is used through its outline of at most this many corners
 * (mk_hull.face_region); a hand-built hull's faces with more are not used as
 * faces (the pair then gets a line or single-point contact). */
#define MK_MANIFOLD_MAX_FACE_VERTICES MK_HULL_CONTACT_CORNERS
/* Vertices of the regular polygon that stands for a circular cap. */
#define MK_MANIFOLD_RING_SAMPLES 16

typedef struct mk_manifold_settings {
    /* Keep points whose separation is <= this (units of length). 0 keeps touching
     * and penetrating points only; engines with speculative contacts pass their
     * contact margin (Bullet: the contact breaking threshold). Any finite value. */
    mk_real speculative_distance;
} mk_manifold_settings;

/* speculative_distance = 0. */
MK_API mk_manifold_settings mk_manifold_default_settings(void);

typedef struct mk_manifold_point {
    mk_vec3 point_a;    /* world, on A's surface */
    mk_vec3 point_b;    /* world, on B's surface */
    mk_vec3 position;   /* world, midpoint of point_a and point_b */
    /* Signed distance of the pair along the manifold normal:
     * separation = <point_b - point_a, normal>; negative = penetration. For face
     * and single-point contacts point_b = point_a + separation * normal exactly;
     * for nearly parallel line contacts the pair may also differ tangentially. */
    mk_real separation;
    mk_real depth;      /* -separation: > 0 = penetration (ODE's sign) */
    /* Feature id, stable while the same features touch (see below). */
    uint32_t id;
} mk_manifold_point;

/* Feature id layout (distinct within one manifold, equal across steps while the
 * same features are in contact):
 *   bit  31     1 when the reference feature belongs to B
 *   bits 30-24  reference face (or A's feature) index, low 7 bits
 *   bits 23-16  incident face (or B's feature) index, low 8 bits
 *   bits 15-8   incident vertex / edge, or 0x80 | reference vertex
 *   bits 7-0    0xFF incident vertex, 0xFE reference vertex, otherwise the
 *               reference edge (clip plane) that cut an incident edge, or a
 *               code >= 0xF0 for line and single-point contacts. */

typedef struct mk_manifold {
    int count;       /* 0 .. MK_MANIFOLD_MAX_POINTS */
    /* Unit, world, from A to B, shared by every point. For face contacts this is
     * the reference face normal (oriented A to B), otherwise the input normal. */
    mk_vec3 normal;
    mk_manifold_point points[MK_MANIFOLD_MAX_POINTS];
} mk_manifold;

/* Contact manifold of a pair.
 *   normal           world, from A to B; normalised here (zero or non-finite is
 *                    invalid). Use the normal of mk_gjk_distance (separated) or
 *                    of the penetration query (overlapping).
 *   signed_distance  distance between the shapes (radii included), negative when
 *                    they overlap (minus the penetration depth).
 *   settings         may be NULL (defaults).
 * Returns MK_OK (out->count may be 0: signed_distance above the speculative
 * distance gives no points; otherwise at least one: if every clipped point was
 * dropped, the support point along the normal of the shape where it is unique
 * (else the midpoint of the two supports) with its foot on the other shape's
 * support plane, whose separation is <= signed_distance whenever
 * signed_distance is the true value), or
 * MK_INVALID_INPUT / MK_INVALID_SIZE with out->count = 0. */
MK_API mk_status mk_contact_manifold(const mk_pair *pair, mk_vec3 normal, mk_real signed_distance,
                                     const mk_manifold_settings *settings, mk_manifold *out);

/* The same contact with room for up to max_points points (4 ..
 * MK_MANIFOLD_MAX_PATCH_POINTS), for engines that take more than four per pair
 * (ODE's dCollide takes up to the flags limit): the points are those of
 * mk_contact_manifold's patch before its reduction when they fit, else the
 * same four it keeps plus, one at a time, the candidate farthest from the
 * points already kept (near-ties to the smaller id). A yawed box on a box
 * gets all eight corners of its octagon. Ids, depths, normal, order (by id),
 * status: as mk_contact_manifold. */
typedef struct mk_contact_patch_result {
    int count;      /* 0 .. MK_MANIFOLD_MAX_PATCH_POINTS */
    mk_vec3 normal; /* as mk_manifold.normal */
    mk_manifold_point points[MK_MANIFOLD_MAX_PATCH_POINTS];
} mk_contact_patch_result;

MK_API mk_status mk_contact_patch(const mk_pair *pair, mk_vec3 normal, mk_real signed_distance,
                                  const mk_manifold_settings *settings, int max_points,
                                  mk_contact_patch_result *out);

#ifdef __cplusplus
}
#endif
#endif
