/* The checks every query makes on the pair it is given (internal). */
#ifndef MK_SRC_PAIR_CHECK_H
#define MK_SRC_PAIR_CHECK_H

#include <minkowski/gjk.h>

/* MK_INVALID_INPUT for a NULL pair or shape or a pose that is not a finite
 * rotation and translation (mk_is_valid_transform), a shape's own validation
 * status (mk_shape_validate), else MK_OK. */
static inline mk_status pair_check(const mk_pair *pair)
{
    if (!pair || !pair->a || !pair->b)
        return MK_INVALID_INPUT;
    mk_status sa = mk_shape_validate(pair->a);
    if (sa != MK_OK)
        return sa;
    mk_status sb = mk_shape_validate(pair->b);
    if (sb != MK_OK)
        return sb;
    if (!mk_is_valid_transform(&pair->xf_a) || !mk_is_valid_transform(&pair->xf_b))
        return MK_INVALID_INPUT;
    return MK_OK;
}

#endif
