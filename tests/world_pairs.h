/* The demo's --by-pair table (demos/world.h), checked the same way in each
 * engine's scenario suite (test_ode, test_bullet). */
#ifndef MK_TESTS_WORLD_PAIRS_H
#define MK_TESTS_WORLD_PAIRS_H

#include "world.h"

#include <check.h>
#include <string.h>

/* A 0.2 m box resting on another on the ground, a box-shaped hull (cube: its
 * 8 corners) beside them, 240 steps in w (made with by_pair): the per-pair
 * calls and contact points add up to the step statistics' totals (pairs
 * handed to the narrowphase, contact points used), box-box and box-plane calls
 * are there with their time, and nothing is filed under a kind no body has.
 * Destroys w. */
static inline void check_pair_times(mk_world *w, const mk_vec3 cube[8])
{
    mk_body_desc d;
    memset(&d, 0, sizeof d);
    d.kind = MK_BODY_BOX;
    d.size[0] = d.size[1] = d.size[2] = 0.1;
    d.mass = 1;
    const mk_quat level = {0, 0, 0, 1}, yawed = {0, 0, 0.1, 0.995};
    d.pose = mk_transform_from_quat((mk_vec3){0, 0, 0.1}, level);
    mk_world_add_body(w, &d);
    d.pose = mk_transform_from_quat((mk_vec3){0.02, 0, 0.305}, yawed);
    mk_world_add_body(w, &d);
    mk_body_desc h;
    memset(&h, 0, sizeof h);
    h.kind = MK_BODY_HULL;
    h.points = cube;
    h.num_points = 8;
    h.mass = 1;
    h.pose = mk_transform_from_quat((mk_vec3){0.215, 0, 0.11}, level);
    mk_world_add_body(w, &h);
    unsigned long long pairs = 0, contacts = 0;
    for (int s = 0; s < 240; ++s) {
        mk_step_stats st = mk_world_step(w);
        pairs += (unsigned long long)st.pairs;
        contacts += (unsigned long long)st.contacts;
    }
    const mk_pair_times *t = mk_world_pair_times(w);
    ck_assert_ptr_nonnull(t);
    unsigned long long calls = 0, points = 0;
    for (int a = 0; a < MK_PAIR_KINDS; ++a)
        for (int b = 0; b < MK_PAIR_KINDS; ++b) {
            calls += t->calls[a][b], points += t->contacts[a][b];
            const int known = (a == MK_BODY_BOX || a == MK_BODY_HULL || a == MK_PAIR_PLANE) &&
                              (b == MK_BODY_BOX || b == MK_BODY_HULL || b == MK_PAIR_PLANE) && a <= b;
            ck_assert_msg(known || t->calls[a][b] == 0, "calls filed under kinds %d-%d", a, b);
        }
    ck_assert_uint_eq(calls, pairs);
    ck_assert_uint_eq(points, contacts);
    ck_assert_uint_gt(t->calls[MK_BODY_BOX][MK_BODY_BOX], 0);
    ck_assert_uint_gt(t->calls[MK_BODY_BOX][MK_PAIR_PLANE], 0);
    ck_assert(t->seconds[MK_BODY_BOX][MK_BODY_BOX] > 0 && t->seconds[MK_BODY_BOX][MK_PAIR_PLANE] > 0);
    mk_world_destroy(w);
}

#endif
