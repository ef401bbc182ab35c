/* The checks every query makes on the pair it is given (internal). */
#ifndef MK_SRC_PAIR_CHECK_H
#define MK_SRC_PAIR_CHECK_H

#include <math.h>
#include <minkowski/gjk.h>
#include "valid.h"

/* MK_INVALID_INPUT for a NULL pair or shape or a pose that is not a finite
 * rotation and translation (mk_is_valid_transform), a shape's own validation
 * status (mk_shape_validate), else MK_OK. */
static inline mk_status pair_check(const mk_pair *pair)
{
    if (!pair || !pair->a || !pair->b)
        return MK_INVALID_INPUT;
    mk_status sa = shape_status(pair->a);
    if (sa != MK_OK)
        return sa;
    mk_status sb = shape_status(pair->b);
    if (sb != MK_OK)
        return sb;
    if (!transform_ok(&pair->xf_a) || !transform_ok(&pair->xf_b))
        return MK_INVALID_INPUT;
    return MK_OK;
}

/* Largest GJK iteration bound a caller may ask for. */
#define MK_GJK_MAX_ITER_CAP 100000

/* The GJK settings every query that runs GJK accepts: a known variant and
 * initial guess, 1 .. MK_GJK_MAX_ITER_CAP iterations, a finite tolerance >= 0. */
static inline int gjk_settings_ok(const mk_gjk_settings *st)
{
    return st->variant >= MK_GJK_VANILLA && st->variant <= MK_GJK_NESTEROV && st->max_iterations > 0 &&
           st->max_iterations <= MK_GJK_MAX_ITER_CAP && isfinite(st->tolerance) && st->tolerance >= 0 &&
           st->init >= MK_GJK_INIT_BOUNDS && st->init <= MK_GJK_INIT_SIMPLEX;
}

#endif
