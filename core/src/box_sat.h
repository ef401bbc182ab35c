/* Box against box by the separating-axis test (internal, not installed). */
#ifndef MK_SRC_BOX_SAT_H
#define MK_SRC_BOX_SAT_H

#include <minkowski/epa.h>

typedef enum mk_box_sat_outcome {
    MK_BOX_SAT_NOT_DECIDED, /* the cores are apart, within reach: ask GJK for the distance */
    MK_BOX_SAT_APART,       /* apart beyond `reach` along *apart_n, by *apart_margin > 0 */
    MK_BOX_SAT_OVERLAP      /* cores overlap or touch: *out holds the signed distance */
} mk_box_sat_outcome;

/* Two boxes (shape type MK_SHAPE_BOX, any rounding radius; both validated by the
 * caller, as are the poses). When the cores overlap, the exact signed distance
 * of the rounded shapes: status MK_PENETRATING, distance = -(core depth + r_A +
 * r_B), its bracket, witnesses and the unit normal A to B (world), iteration
 * counts 0. When some axis separates the full shapes by more than reach (>= 0),
 * the world unit direction A to B and the margin beyond reach. */
mk_box_sat_outcome mk_box_sat(const mk_pair *pair, mk_real reach, mk_signed_distance_result *out, mk_vec3 *apart_n,
                              mk_real *apart_margin);

#endif
