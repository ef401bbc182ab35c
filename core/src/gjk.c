/* GJK family: vanilla, Polyak- and Nesterov-accelerated GJK, distance and Boolean.
 *
 * Vanilla GJK is fully-corrective Frank-Wolfe on f(x) = ||x||^2 over D = A - B
 * ("Collision Detection Accelerated: An Optimization Perspective", Alg. 4, duality
 * gap eqs. 15-17, separating-plane test Alg. 2). Momentum variants follow GJK++
 * Alg. 6: intermediary point (28a), support direction (28b), support (28c),
 * augmented simplex and projection (28d-e), fixed-point switch to vanilla when
 * g(x_k) = 2<x_k, x_k - s_k> <= eps with d_k != x_k (eq. 32), and the optional
 * normalised direction update (eq. 33).
 *
 * Everything runs in A's local frame; B is carried by its pose relative to A. */
#include <minkowski/gjk.h>
#include <float.h>
#include <stddef.h>
#include "pair_check.h"
#include "simplex.h"
#include "support.h"

/* Weight of y in the momentum update (28b). The paper's gradient is 2 y; using y
 * itself weighs the momentum twice as much. Measured on 30,000 random ellipsoid
 * pairs (1,786 in close proximity, tolerance 1e-8): Nesterov 9.3 +- 3.2 iterations
 * with y vs 10.2 +- 3.7 with 2 y; Polyak (then with Nesterov's weight, below) 16.8 +- 11.4
 * vs 22.2 +- 12.7; vanilla 22.3. */
#define MK_GJK_GRAD_SCALE 1.0
/* Momentum weights (28b): Nesterov delta_k = (k + 1) / (k + 3), as GJK++
 * writes it for both variants; Polyak delta_k = 1 / (k + 1), a weight that
 * fades, which is the schedule of the authors' own implementation (HPP-FCL,
 * now Coal) that produced the paper's Fig. 7: Polyak "more robust when shapes
 * are strongly overlapping or distant", "almost always better than vanilla".
 * With (k + 1) / (k + 3) our Polyak was 3-4x slower than vanilla where the
 * paper has it at least as fast (mk_bench --section gjk --pairs 1000 --seed
 * 3, mean iterations of the distance query, vanilla / Polyak before / after):
 *   ellipsoids overlapping 5.5 / 20.2 / 5.2, at 1 cm overlap 7.1 / 31.8 / 6.0,
 *   distant 11.7 / 15.7 / 9.4, close 22.4 / 17.8 / 19.0, 1 cm apart
 *   23.3 / 22.4 / 20.2 (Boolean at 1 cm overlap 7.1 / 23.2 / 5.4);
 *   hull-1000 overlapping 5.5 / 6.9 / 5.2, 1 cm apart 12.0 / 10.1 / 9.4;
 *   hull-240 1 cm apart 9.6 / 7.9 / 7.7; boxes, hull-12, hull-60 within 0.1.
 * After: Polyak's mean is at or below vanilla's in every family and category
 * of the bench (test polyak_no_slower_than_vanilla). The gradient weight y
 * (MK_GJK_GRAD_SCALE 1) stays best with this schedule too: 2 y and y / 2 gave
 * 0.2-0.6 more iterations on ellipsoids, hull-240 and hull-1000. */
static inline mk_real momentum_weight(int polyak, int k) { return polyak ? 1.0 / (k + 1.0) : (k + 1.0) / (k + 3.0); }
/* Iteration from which Polyak runs vanilla: its weight 1 / (k + 1) has faded
 * to 1/5 by then and no longer shortens the run, but while d_k != x_k every
 * run ends with one more support pair than its iterations, the one along x_k
 * that the fixed-point check (eq. 32) needs before it may stop (vanilla's last
 * support is along x_k already). Measured (callgrind, instructions per
 * distance query, 1,000 bench problems per family and category, this cut-off
 * against none): hull-1000 1 cm apart -4.9% (13,561 -> 12,901; iterations
 * 9.07 -> 9.17), hull-240 -3.6%; mean over the 30 families and categories
 * -3.1%, from -0.4% (boxes overlapping) to -7.3% (ellipsoids at 1 cm
 * overlap), none worse. Cut-offs 3, 5, 6: mean -5.4%, -1.8%, -1.3%, with 3
 * 2.1% worse on distant ellipsoids. The Boolean query at 1 cm overlap: -2% to
 * -6% (ellipsoids, hull-60, -240, -1000). In time (mk_bench, 11 runs pinned),
 * Polyak over vanilla on hull-1000 1 cm apart 1.26x -> 1.32x (1.31-1.34). */
#define MK_GJK_POLYAK_MOMENTUM_ITER 4
/* Momentum iterations after which the loop falls back to vanilla (with the
 * fallback on). Accelerated runs converge in far fewer on every dataset. 64
 * until 2026-11-27: an ellipsoid exactly touching a hull (distance 1e-16)
 * kept Nesterov's momentum for 64 iterations and vanilla did not finish in
 * the 64 the bound of 128 left (test hostile_exact_touching_boolean_decides);
 * with 32, 86 in all. The bench's mean iterations moved by 0.1 at most
 * (ellipsoids, 500 pairs per category). */
#define MK_GJK_MOMENTUM_MAX_ITER 32
/* Restarts after a stall far above the floating-point floor (gjk_loop): at
 * most this many, only with this many iterations left, and only when the gap
 * exceeds both MK_GJK_FLOOR * DBL_EPSILON * (|w|^2 + |x|^2) and
 * MK_GJK_RESTART_REL * |x|^2 (a distance uncertain by more than about half
 * that fraction of itself). At the scale 1e3 stalls at the real floor showed
 * gaps up to 1e5 DBL_EPSILON (|w|^2 + |x|^2) but below 1e-9 |x|^2 (the second
 * test keeps them from restarting); the capsule on the wide disk: 5e6 and 23.
 * The gap's own rounding is about 2 DBL_EPSILON |w|^2 (x is known to
 * DBL_EPSILON |w|, times |w| in <x, w>). 65536 until 2026-11-27: shapes
 * 1400 to 1500 across touching at the scale 1e3 stalled with |x| 6.7e-6 to
 * 1.8e-5 and gaps 1e-7 to 1e-5, far above that rounding (about 2e-9 there)
 * but below the old floor (7.6e-5 at |w| = 2.3e3), were taken at the floor,
 * and the witnesses from the touching point lay up to |x| / 2 off the shapes,
 * 2e-9 to 6e-9 of their size (test_contracts at MK_TEST_SCALE=1000, scenes
 * 2,055,152, 2,273,124 and 2,418,614); at 256 they restart and pass. The
 * bench's iteration counts and the demo's trajectories are unchanged. */
#define MK_GJK_RESTARTS 2
#define MK_GJK_RESTART_ROOM 8
#define MK_GJK_FLOOR 256
#define MK_GJK_RESTART_REL 1e-6
/* An absolute tolerance also asks g <= MK_GJK_NEAR_REL |x|^2: the gap bounds
 * |x - x*|^2 <= g / 2, so the normal is then known to sqrt(MK_GJK_NEAR_REL /
 * 2) = 7e-3 rad at any distance, where the absolute 1e-8 alone left it 0.07
 * rad off for cores 3e-5 apart (EPA then started from a pair GJK had called
 * touching, and the contact points built on such normals lay off the
 * shapes). Unchanged wherever |x| >= 1e-2 with the default 1e-8. Core fuzzer,
 * 400,000 cases: cases with a failure 1,986 -> 434, every tag down (EPA
 * witnesses off a shape 957 -> 8, collide missed 269 -> 25). */
#define MK_GJK_NEAR_REL 1e-4
/* Squared ratio |x| / max(|a|, |b|) (the simplex's support points) below
 * which a stalled x's direction may be rounding noise (x_separates). */
#define MK_GJK_FLOOR_DIR 1e-16

mk_gjk_settings mk_gjk_default_settings(void)
{
    mk_gjk_settings s;
    s.variant = MK_GJK_NESTEROV;
    s.normalize_dir = 0;
    s.fallback_to_vanilla = 1;
    s.relative_tolerance = 0;
    s.tolerance = 1e-8;
    s.max_iterations = 128;
    s.init = MK_GJK_INIT_BOUNDS;
    s.init_guess = v3(1, 0, 0);
    return s;
}

/* ------------------------------------------------------------ pair context */

typedef struct ctx {
    const mk_shape *a, *b;
    mk_mat3 R;      /* B's rotation in A's frame */
    mk_vec3 p;      /* B's origin in A's frame */
    mk_real radius; /* r_A + r_B */
    int hint_a, hint_b;
    int bad_support; /* a user support returned a non-finite point */
    int have_inner;  /* Boolean queries: inner is a point of the cores' D (A's frame) */
    mk_vec3 inner;
} ctx;

/* The point w = a - b of D least along d, a = s_A(-d), b = s_B(d), written into
 * slot n of the simplex (free: the loop holds at most 3 points when it asks).
 * Forced inline: it is the body of every iteration. One sum tests all three
 * coordinates: NaN and infinities propagate through it (a sum that overflows,
 * coordinates near DBL_MAX, is refused too: their squares overflow anyway). */
static inline __attribute__((always_inline)) void support_min(ctx *c, mk_vec3 d, mk_simplex *s, int n)
{
    mk_vec3 pa = shape_support(c->a, v3_neg(d), &c->hint_a);
    mk_vec3 lb = shape_support(c->b, m3_tmul(&c->R, d), &c->hint_b);
    mk_vec3 pb = v3_add(m3_mul(&c->R, lb), c->p);
    mk_vec3 w = v3_sub(pa, pb);
    s->a[n] = pa;
    s->b[n] = pb;
    s->w[n] = w;
    if (!isfinite(w.x + w.y + w.z))
        c->bad_support = 1;
}

static mk_status validate(const mk_pair *pair, const mk_gjk_settings *st)
{
    mk_status pv = pair_check(pair);
    if (pv != MK_OK)
        return pv;
    if (!gjk_settings_ok(st))
        return MK_INVALID_INPUT;
    return MK_OK;
}

/* A point inside a shape's core, in its frame: the frame origin for the
 * primitives, a hull's centroid (shape.h: an interior point); 0 for user
 * shapes (their support is all that is known). */
static inline int interior_point(const mk_shape *s, mk_vec3 *p)
{
    *p = v3(0, 0, 0);
    if (s->type == MK_SHAPE_USER)
        return 0;
    if (s->type == MK_SHAPE_HULL)
        *p = s->u.hull.hull->centroid;
    return 1;
}

/* Whether the origin lies strictly inside the tetrahedron (a, b, c, d): the
 * four signed volumes with one vertex replaced by the origin share the sign
 * of their sum, the whole, which is not flat (simplex.h). */
static inline int origin_in_tetra(mk_vec3 a, mk_vec3 b, mk_vec3 c, mk_vec3 d)
{
    tetra_volumes t;
    tetra_volumes_of(a, b, c, d, &t);
    if (t.flat)
        return 0;
    return t.total > 0 ? (t.c[0] > 0 && t.c[1] > 0 && t.c[2] > 0 && t.c[3] > 0)
                       : (t.c[0] < 0 && t.c[1] < 0 && t.c[2] < 0 && t.c[3] < 0);
}

static void make_ctx(const mk_pair *pair, const mk_gjk_cache *cache, ctx *c)
{
    c->a = pair->a;
    c->b = pair->b;
    c->R = m3_tmul_m3(&pair->xf_a.R, &pair->xf_b.R);
    c->p = m3_tmul(&pair->xf_a.R, v3_sub(pair->xf_b.p, pair->xf_a.p));
    c->radius = pair->a->radius + pair->b->radius;
    c->hint_a = cache && cache->valid ? cache->hint_a : -1;
    c->hint_b = cache && cache->valid ? cache->hint_b : -1;
    c->bad_support = 0;
    c->have_inner = 0;
    c->inner = v3(0, 0, 0);
}

/* Boolean queries: a point of D from points inside both cores, when known.
 * Not for two boxes: their simplex encloses the origin in 4.6 iterations on
 * the bench's boxes at 1 cm overlap, and the test saved 0.1 of them while
 * costing 5% more instructions and ~10% more time (200 -> 220 ns). */
static void set_inner(const mk_pair *pair, ctx *c)
{
    mk_vec3 ia, ib;
    c->have_inner = !(pair->a->type == MK_SHAPE_BOX && pair->b->type == MK_SHAPE_BOX) &&
                    interior_point(pair->a, &ia) && interior_point(pair->b, &ib);
    if (c->have_inner)
        c->inner = v3_sub(ia, v3_add(m3_mul(&c->R, ib), c->p));
}

/* Centre of a shape's local bounding box (mk_shape_local_aabb): the origin for
 * every shape but hulls and user shapes. */
static inline mk_vec3 local_centre(const mk_shape *s)
{
    if (s->type == MK_SHAPE_HULL)
        return v3_scale(v3_add(s->u.hull.hull->aabb_min, s->u.hull.hull->aabb_max), 0.5);
    if (s->type == MK_SHAPE_USER)
        return v3_scale(v3_add(s->u.user.aabb_min, s->u.user.aabb_max), 0.5);
    return v3(0, 0, 0);
}

/* Bounding-box centre of A minus that of B, in A's frame. */
static mk_vec3 bounds_guess(const ctx *c)
{
    mk_vec3 cb = v3_add(m3_mul(&c->R, local_centre(c->b)), c->p);
    return v3_sub(local_centre(c->a), cb);
}

static mk_vec3 initial_guess(const ctx *c, const mk_gjk_settings *st, const mk_gjk_cache *cache)
{
    mk_vec3 g = v3(0, 0, 0);
    if (st->init == MK_GJK_INIT_USER)
        g = st->init_guess;
    else if ((st->init == MK_GJK_INIT_CACHE || st->init == MK_GJK_INIT_SIMPLEX) && cache && cache->valid)
        g = cache->dir;
    if (!v3_finite(g) || !(v3_len2(g) > 0))
        g = bounds_guess(c);
    if (!(v3_len2(g) > 0))
        g = v3(1, 0, 0); /* coincident centres: any direction starts the search */
    return g;
}

/* ------------------------------------------------------------ simplex warm start */

static mk_gjk_core_key core_key(const mk_shape *s)
{
    mk_gjk_core_key k = {(int)s->type, {0, 0, 0}, NULL, NULL};
    switch (s->type) {
    case MK_SHAPE_BOX: k.size = s->u.box.half_extents; break;
    case MK_SHAPE_CAPSULE: k.size.x = s->u.capsule.half_height; break;
    case MK_SHAPE_CYLINDER: k.size = v3(s->u.cylinder.radius, s->u.cylinder.half_height, 0); break;
    case MK_SHAPE_CONE: k.size = v3(s->u.cone.radius, s->u.cone.half_height, 0); break;
    case MK_SHAPE_ELLIPSOID: k.size = s->u.ellipsoid.radii; break;
    case MK_SHAPE_HULL: k.ref = s->u.hull.hull; break;
    case MK_SHAPE_USER: /* its bounds too: the core views of capsules (epa.c) carry the segment there */
        k.size = v3_sub(s->u.user.aabb_max, s->u.user.aabb_min);
        k.ref = s->u.user.data;
        k.fn = s->u.user.support;
        break;
    default: break;
    }
    return k;
}

static int same_key(const mk_gjk_core_key *k, const mk_gjk_core_key *m)
{
    return k->type == m->type && k->size.x == m->size.x && k->size.y == m->size.y && k->size.z == m->size.z &&
           k->ref == m->ref && k->fn == m->fn;
}

/* MK_GJK_INIT_SIMPLEX: the cached simplex's points, each still on its shape
 * (A's in A's frame as cached, B's moved by B's new pose), so their
 * differences are points of D; the loop starts from their closest point to
 * the origin. Returns the number of points seeded (0: no usable simplex). */
static int seed_simplex(const ctx *c, const mk_gjk_settings *st, const mk_gjk_cache *cache, mk_simplex *sx)
{
    if (st->init != MK_GJK_INIT_SIMPLEX || !cache || !cache->valid || cache->count < 1 || cache->count > 4)
        return 0;
    const mk_gjk_core_key ka = core_key(c->a), kb = core_key(c->b);
    if (!same_key(&ka, &cache->key_a) || !same_key(&kb, &cache->key_b))
        return 0;
    for (int i = 0; i < cache->count; ++i) {
        sx->a[i] = cache->a[i];
        sx->b[i] = v3_add(m3_mul(&c->R, cache->b[i]), c->p);
        sx->w[i] = v3_sub(sx->a[i], sx->b[i]);
        if (!isfinite(sx->w[i].x + sx->w[i].y + sx->w[i].z))
            return 0;
    }
    sx->count = cache->count;
    return sx->count;
}

/* The simplex into the cache, B's points back to B's frame. */
static void store_simplex(const ctx *c, const mk_simplex *sx, mk_gjk_cache *cache)
{
    cache->count = sx->count;
    for (int i = 0; i < sx->count; ++i) {
        cache->a[i] = sx->a[i];
        cache->b[i] = m3_tmul(&c->R, v3_sub(sx->b[i], c->p));
    }
    cache->key_a = core_key(c->a);
    cache->key_b = core_key(c->b);
}

/* ------------------------------------------------------------ the loop */

typedef enum outcome { RUN_CONVERGED, RUN_SEPARATED, RUN_OVERLAP, RUN_MAX_ITER, RUN_BAD } outcome;

typedef struct run {
    mk_simplex *simplex;     /* the caller's: the distance query's result holds it */
    mk_vec3 x;               /* current iterate in conv(simplex), A's frame */
    mk_real lb_dw, lb_dd;    /* best lower bound on the core distance is lb_dw / sqrt(lb_dd) */
    mk_vec3 lb_dir, lb_a, lb_b; /* direction achieving it and its support points */
    mk_real gap;
    mk_vec3 x_gap;           /* the iterate the gap was measured at */
    int gap_at_x;            /* converged on the gap along the final x (not a stall) */
    int iterations;
    int used_fallback;
    outcome out;
} run;

/* Any direction d certifies dist >= <d, w> / |d| for w = s_D(-d); keep the best.
 * Compared as <d, w>^2 / |d|^2 so the loop needs no sqrt or division; only
 * positive bounds matter (distances are >= 0). */
static inline void note_lower_bound(run *r, mk_vec3 d, mk_vec3 w, mk_vec3 pa, mk_vec3 pb)
{
    mk_real dw = v3_dot(d, w);
    if (!(dw > 0))
        return;
    mk_real dd = v3_len2(d);
    if (dw * dw * r->lb_dd > r->lb_dw * r->lb_dw * dd) {
        r->lb_dw = dw;
        r->lb_dd = dd;
        r->lb_dir = d;
        r->lb_a = pa;
        r->lb_b = pb;
    }
}

/* Best lower bound on the core distance so far (0 when none is positive). */
static inline mk_real lower_bound(const run *r) { return r->lb_dw > 0 ? r->lb_dw / sqrt(r->lb_dd) : 0; }

/* Whether the best lower bound exceeds the radii: the shapes are apart. */
static inline int separated_beyond(const run *r, mk_real radius)
{
    return r->lb_dw > 0 && r->lb_dw * r->lb_dw > radius * radius * r->lb_dd;
}

/* The separating plane of the best lower bound (Alg. 2): D lies in
 * {w : <d, w> >= lb |d|}, so with n = -d / |d| (A's frame, from A to B) every
 * core point a has <n, a> <= <n, lb_a> and every core point b has
 * <n, b> >= <n, lb_b>. Returns the margin between the full shapes' planes,
 * *top_a (A's highest) and *bot_b (B's lowest) along *n. */
static mk_real plane_margin(const run *r, mk_real ra, mk_real rb, mk_vec3 *n, mk_real *top_a, mk_real *bot_b)
{
    *n = v3_normalize_or(v3_neg(r->lb_dir), v3(1, 0, 0));
    *top_a = v3_dot(*n, r->lb_a) + ra;
    *bot_b = v3_dot(*n, r->lb_b) - rb;
    return *bot_b - *top_a;
}

/* Boolean exit on separation: the bound clears the radii, and its plane does
 * too as the certificate computes it (the squared test can pass by rounding
 * where the plane does not: a cylinder rounded by 15306 at a distance of 1.55
 * along another direction gave a first lower bound 2e-12 above the radii and
 * a margin of -4e-12; the loop goes on then, and finds the real plane). */
static inline int separated_by_plane(const run *r, const ctx *c)
{
    if (!separated_beyond(r, c->radius))
        return 0;
    mk_vec3 n;
    mk_real top_a, bot_b;
    return plane_margin(r, c->a->radius, c->b->radius, &n, &top_a, &bot_b) > 0;
}

/* One more lower bound (any direction gives one): the support along the
 * normal of the simplex's triangle, turned towards x. Written into the
 * simplex's free slot 3; the simplex keeps its three points. */
static inline __attribute__((always_inline)) void face_normal_bound(ctx *c, mk_simplex *sx, mk_vec3 x, run *r)
{
    mk_vec3 nrm = v3_cross(v3_sub(sx->w[1], sx->w[0]), v3_sub(sx->w[2], sx->w[0]));
    if (v3_dot(nrm, x) < 0)
        nrm = v3_neg(nrm);
    if (!(v3_len2(nrm) > 0) || !v3_finite(nrm))
        return;
    support_min(c, nrm, sx, 3);
    if (!c->bad_support)
        note_lower_bound(r, nrm, sx->w[3], sx->a[3], sx->b[3]);
    c->bad_support = 0; /* the query's answer stands without this bound */
}

/* Whether a gap g <= tolerance along x ends the run. The gap bounds
 * x2 - <x, w> and says nothing of x's direction once |x| is below about the
 * tolerance's square root: the cores may overlap along x (<x, w> < 0, i.e.
 * g > 2 x2) where another direction has proved them apart (a positive lower
 * bound). The run goes on then, to a separating x or to its stall at the
 * rounding floor (where mk_gjk_distance takes the normal from the lower
 * bound). Found by the core's fuzzer: two rounded boxes 3e-5 across, 3.2e-5
 * apart at coordinates of 2e5, stopped after one iteration on a gap of
 * 6.1e-9 > 2 x2 = 4.6e-9 with the distance 4.75e-5 and the normal 0.82 rad
 * off; a box 1.5e-5 long touching a box 40 across stopped with |x| = 1e-14
 * and a normal along which the boxes overlapped by 5.6 (the contact
 * manifold built on it put its point 18 off the small box). */
static inline int x_decides(const run *r, mk_real x2, mk_real g) { return 2 * x2 >= g || !(r->lb_dw > 0); }

/* Boolean queries: a point x of D within MK_GJK_TOUCH_REL of the pair's scale
 * (the distance between the shapes' frames, |p|) of the radii ball is
 * touching, answered as intersecting (the distance is at most that;
 * |x|^2 <= r^2 + (1e-9 |p|)^2 is tested, no root needed). Without it a curved
 * pair at exact touching ran the GJK loop to the rounding floor, whose convergence
 * is slowest there: an ellipsoid 2.9 across touching an 11-point hull (signed
 * distance 1e-16) took 62 iterations vanilla and 124 with Nesterov's
 * normalised directions, and Nesterov's plain ones reached the bound of 128
 * (test_contracts at MK_TEST_SCALE=300). 1e-9 of the size: the bench counts a
 * Boolean verdict wrong beyond 1e-6 m of contact, 1e-9 of 1000 m. */
#define MK_GJK_TOUCH_REL 1e-9

/* GJK++ Alg. 6 (vanilla when st->variant == MK_GJK_VANILLA). In Boolean mode it
 * also stops as soon as a plane separates the cores by more than the radii
 * (Alg. 2) or the cores are closer than the radii. */
static inline __attribute__((always_inline)) void gjk_loop(ctx *c, const mk_gjk_settings *st, mk_vec3 x0, int boolean,
                                                          int seeded, run *r)
{
    const mk_real radius = c->radius;
    const int polyak = st->variant == MK_GJK_POLYAK;
    int momentum = st->variant != MK_GJK_VANILLA;
    mk_vec3 x = x0, d_prev = x0, s_prev = x0;
    mk_real x2 = INFINITY;
    int have_x = 0; /* x is a point of D (true after the first projection) */
    int restarts = 0;   /* and the state before the first one, or the best at a restart */
    mk_simplex kept;
    mk_vec3 kept_x = x0;
    mk_real kept_x2 = INFINITY, kept_gap = INFINITY;
    mk_vec3 kept_x_gap = x0;

    mk_simplex *sx = r->simplex;
    /* |x|^2 at or below which the shapes overlap: the radii ball, and in
     * Boolean mode the touching band */
    const mk_real within2 = radius * radius + (boolean ? MK_GJK_TOUCH_REL * MK_GJK_TOUCH_REL * v3_len2(c->p) : 0);
    r->lb_dw = 0;
    r->lb_dd = 1;
    r->lb_dir = x0;
    r->lb_a = r->lb_b = v3(0, 0, 0);
    r->gap = INFINITY;
    r->x_gap = x0;
    r->gap_at_x = 0;
    r->used_fallback = 0;
    r->out = RUN_MAX_ITER;
    if (seeded) {
        /* A warm active set (seed_simplex): its closest point is the first
         * iterate, a point of D like any projection's. */
        x = d_prev = s_prev = mk_simplex_project(sx);
        x2 = v3_len2(x);
        have_x = 1;
        if (sx->count == 4 || x2 == 0 || x2 <= radius * radius) {
            r->out = RUN_OVERLAP;
            r->iterations = 0;
            r->x = x;
            return;
        }
    } else {
        sx->count = 0;
    }

    int k;
    for (k = 0; k < st->max_iterations; ++k) {
        /* Polyak's cut-off comes with the switch to vanilla (without it the
         * loop runs the authors' schedule throughout); not a stall, so
         * used_fallback stays 0. */
        if (polyak && st->fallback_to_vanilla && k == MK_GJK_POLYAK_MOMENTUM_ITER)
            momentum = 0;
        /* Support direction: momentum (28a-b, or eq. 33) or the plain gradient. */
        mk_vec3 d = x;
        int d_is_x = 1;
        /* From a seeded simplex the first direction is x itself (d_{-1} =
         * y_0 = x_0 in (28b)), taken as such: its gap is the true duality gap. */
        if (momentum && have_x && !(seeded && k == 0)) {
            mk_real delta = momentum_weight(polyak, k);
            mk_vec3 y = polyak ? x : v3_lerp(s_prev, x, delta);
            if (st->normalize_dir) {
                mk_real ly = v3_len(y), ld = v3_len(d_prev);
                d = ld > 0 ? v3_scale(d_prev, delta / ld) : v3(0, 0, 0);
                if (ly > 0)
                    d = v3_madd(d, (1 - delta) / ly, y);
            } else {
                d = v3_madd(v3_scale(d_prev, delta), (1 - delta) * MK_GJK_GRAD_SCALE, y);
            }
            if (isfinite(d.x + d.y + d.z) && v3_len2(d) > 0)
                d_is_x = 0;
            else
                d = x;
        }

        const int n = sx->count;
        support_min(c, d, sx, n);
        if (c->bad_support) {
            r->out = RUN_BAD;
            break;
        }
        mk_vec3 w = sx->w[n];
        note_lower_bound(r, d, w, sx->a[n], sx->b[n]);
        if (boolean && separated_by_plane(r, c)) {
            r->out = RUN_SEPARATED;
            break;
        }

        if (have_x) {
            /* Duality gap / fixed-point condition (eq. 32). */
            const mk_real near = MK_GJK_NEAR_REL * x2;
            mk_real eps = st->relative_tolerance ? st->tolerance * x2 : st->tolerance < near ? st->tolerance : near;
            mk_real g = 2 * (x2 - v3_dot(x, w));
            if (d_is_x)
                r->gap = g, r->x_gap = x;
            if (g <= eps && x_decides(r, x2, g)) {
                if (d_is_x) {
                    r->out = RUN_CONVERGED;
                    r->gap_at_x = 1;
                    break;
                }
                /* Momentum stalled (eq. 31): take the support along x instead and,
                 * with the fallback on, stay vanilla until termination. */
                if (st->fallback_to_vanilla) {
                    momentum = 0;
                    r->used_fallback = 1;
                }
                d = x;
                d_is_x = 1;
                support_min(c, d, sx, n);
                if (c->bad_support) {
                    r->out = RUN_BAD;
                    break;
                }
                w = sx->w[n];
                note_lower_bound(r, d, w, sx->a[n], sx->b[n]);
                if (boolean && separated_by_plane(r, c)) {
                    r->out = RUN_SEPARATED;
                    break;
                }
                g = 2 * (x2 - v3_dot(x, w));
                r->gap = g;
                r->x_gap = x;
                if (g <= eps && x_decides(r, x2, g)) {
                    r->out = RUN_CONVERGED;
                    r->gap_at_x = 1;
                    break;
                }
            }
        }

        /* Momentum safeguards (the GJK++ fallback of eq. 31 catches most stalls,
         * not all): a support point already in the simplex means the momentum
         * direction has frozen (Nesterov's delta -> 1 keeps d_k ~ d_{k-1}), and a long
         * momentum run on a non-strictly convex pair can creep forward by
         * rounding-sized steps. Both hand over to vanilla, which converges. */
        if (momentum && !d_is_x && st->fallback_to_vanilla) {
            int repeat = k >= MK_GJK_MOMENTUM_MAX_ITER;
            for (int i = 0; i < n && !repeat; ++i)
                repeat = sx->w[i].x == w.x && sx->w[i].y == w.y && sx->w[i].z == w.z;
            if (repeat) {
                momentum = 0;
                r->used_fallback = 1;
                if (have_x) {
                    d_prev = d;
                    continue; /* next iteration takes the support along x */
                }
            }
        }

        /* Augment the active set (the support is already in slot n) and project
         * the origin (28d-e). */
        sx->count = n + 1;
        /* Boolean: a triangle of support points and a point deep inside D
         * (the interior point of Minkowski portal refinement; G. Snethen,
         * Game Programming Gems 7, 2008) span a tetrahedron inside D; when it
         * holds the origin the cores overlap, often an iteration or two
         * before the simplex itself encloses the origin (curved shapes, deep
         * overlaps). No projection needed then. */
        if (boolean && c->have_inner && sx->count == 3 && origin_in_tetra(sx->w[0], sx->w[1], sx->w[2], c->inner)) {
            r->out = RUN_OVERLAP;
            ++k;
            break;
        }
        simplex_sub cand;
        int inside;
        mk_vec3 xn = simplex_solve(sx, &cand, &inside);
        mk_real xn2 = v3_len2(xn);
        if (inside || xn2 == 0 || xn2 <= within2) {
            simplex_commit(sx, &cand);
            x = xn;
            have_x = 1;
            r->out = RUN_OVERLAP; /* cores within the radii (or touching): the shapes overlap */
            ++k;
            break;
        }
        /* A projection no closer than the last is a stall; the last simplex
         * and x stay (w is dropped): x is the point the gap was measured at.
         * In exact arithmetic the new projection is closer; in floating point
         * a sliver triangle can put it farther, and it used to be kept: a
         * capsule 0.4 mm across next to a cone at coordinates of 2.4e4 was
         * called 2.7e-5 apart (truth below 5.2e-8) with witnesses 1.05e-4
         * apart (the core's fuzzer; test hostile_stall_keeps_the_better_iterate). */
        int stalled = have_x && !(xn2 < x2);
        if (!stalled) {
            simplex_commit(sx, &cand);
            x = xn;
            x2 = xn2;
        }
        have_x = 1;
        if (stalled) {
            /* No progress in floating point: vanilla is at its precision floor;
             * momentum is stuck on its direction, so switch it off. */
            sx->count = n;
            if (!momentum && d_is_x) {
                /* A stall far above the floating-point floor is an
                 * ill-conditioned simplex, not the floor: a capsule on a disk
                 * 1e4 across and 1 mm thick mixed points of D's two parallel
                 * faces (the segment's ends), 6e-4 apart, into a tetrahedron
                 * 2e4 wide, whose projection stalled halfway between them
                 * (gap 0.11, distance off by 3e-4; the Boolean query would
                 * have called such a pair touching). Restart from x with an
                 * empty simplex (the lower bound so far stays); bounded, only
                 * with room left for a few iterations, and the state kept
                 * if the restart gets no closer. */
                const mk_real eps = st->relative_tolerance ? st->tolerance * x2 : st->tolerance;
                const mk_real floor_gap = MK_GJK_FLOOR * DBL_EPSILON * (v3_len2(w) + x2);
                if (restarts < MK_GJK_RESTARTS && r->gap > eps && r->gap > floor_gap &&
                    r->gap > MK_GJK_RESTART_REL * x2 && k + MK_GJK_RESTART_ROOM < st->max_iterations) {
                    if (!restarts || x2 < kept_x2) { /* the best stalled state, kept */
                        kept = *sx;
                        kept_x = x;
                        kept_x2 = x2;
                        kept_gap = r->gap;
                        kept_x_gap = r->x_gap;
                    }
                    ++restarts;
                    sx->count = 0;
                    have_x = 0;
                    d_prev = s_prev = x;
                    continue;
                }
                /* At the floor the supports along x may all fall short of a
                 * positive bound while the simplex lies on D's closest face,
                 * x off its foot point by rounding (a cone and a box 1 mm
                 * apart at the scale 1e3: Polyak ended with the bound 0, and
                 * "intersecting"); that face's own normal separates. */
                if (sx->count == 3)
                    face_normal_bound(c, sx, x, r);
                r->out = RUN_CONVERGED;
                ++k;
                break;
            }
            if (st->fallback_to_vanilla) {
                momentum = 0;
                r->used_fallback = 1;
            }
        }
        d_prev = d;
        s_prev = w;
    }
    /* A restart that ended no closer than the state it left: that state (a
     * stall, as before the restart). */
    if (restarts && (r->out == RUN_CONVERGED || r->out == RUN_MAX_ITER) && (!have_x || !(x2 < kept_x2))) {
        *sx = kept;
        x = kept_x;
        x2 = kept_x2;
        r->gap = kept_gap;
        r->x_gap = kept_x_gap;
        r->out = RUN_CONVERGED;
        r->gap_at_x = 0;
        have_x = 1;
        if (sx->count == 3) /* as at any stall (below the restart test) */
            face_normal_bound(c, sx, x, r);
    }
    r->iterations = k;
    r->x = x;
    if (!have_x) { /* max_iterations hit before the first projection (cannot happen for >= 1) */
        r->x = v3(0, 0, 0);
    }
}

/* ------------------------------------------------------------ distance */

/* Radius about its origin of a ball holding the shape's core (its local
 * bounding box's farthest corner). */
static mk_real bounding_radius(const mk_shape *s)
{
    mk_vec3 lo, hi;
    shape_local_bounds(s, &lo, &hi);
    return v3_len(v3(fmax(fabs(lo.x), fabs(hi.x)), fmax(fabs(lo.y), fabs(hi.y)), fmax(fabs(lo.z), fabs(hi.z))));
}

/* Whether the cores are apart along x (the normal -x / |x|) where a run
 * stalled (a run converged on the gap leaves a separating x, x_decides). At
 * the rounding floor |x| ~ 1e-15 and its direction is noise: an ellipsoid
 * 1e-3 across touching the face of a box 60 across stalled there with a
 * normal 0.9 rad off the face's, along which the shapes overlapped by 34
 * (the contact manifold on it put its point 34 deep, at the box's far
 * corner; the core's fuzzer). The lower bound's direction separates them
 * (by the certified lb > 0): the caller takes the normal from it then. Above
 * the floor x's direction is good to rounding, ~1e-16 max(|a|, |b|) / |x|,
 * and no support is spent (exact answers on polytopes often end in a stall: a
 * support there cost the box bench 1.8% of its instructions). The pair and
 * x come by value, so that the query's own ctx and run need not live in
 * memory (passing their addresses cost 1.5% of the instructions, 8% of the
 * time). */
static int x_separates(ctx c, mk_vec3 x, const mk_simplex *sx, mk_vec3 x_gap, mk_real gap)
{
    /* The rounding scale is that of the support points each w = a - b was
     * made of, not of w: two boxes 1e5 across, corner to corner 2.3e-10
     * apart at 8.6e5 from the origin, stalled on the single point w of D
     * there, |w| = |x|, while a and b carry rounding of ~1e-11 (x's
     * direction 0.08 rad off, the shapes 2,019 deep along it; the core's
     * fuzzer). */
    mk_real w2 = 0;
    for (int i = 0; i < sx->count; ++i) {
        const mk_real a2 = v3_len2(sx->a[i]), b2 = v3_len2(sx->b[i]);
        w2 = w2 > a2 ? w2 : a2;
        w2 = w2 > b2 ? w2 : b2;
    }
    /* Above the floor, x separates when the iterate the gap was measured at
     * did (by |x_g| - g / (2 |x_g|)) and x's direction is close enough to
     * that one's: D's support value moves by at most |u - u_g| max |w| over
     * D (u: unit directions), and |w| <= |a| + |b| <= r_A + |p| + r_B (the
     * shapes' bounding radii about their origins, B's origin p in A's
     * frame). The stalled x is the projection after the last support, not
     * the measured iterate: a user box 1.6e-3 across touching an ellipsoid
     * 7e-6 across, the stalled x's direction 0.29 rad off the lower
     * bound's, the shapes 2.4e-4 deep along it (the core's fuzzer). */
    const mk_real xx = v3_len2(x), xg2 = v3_len2(x_gap);
    if (xx > MK_GJK_FLOOR_DIR * w2 && xg2 > 0) {
        const mk_real lx = sqrt(xx), lg = sqrt(xg2);
        const mk_real sep_gap = lg - gap / (2 * lg);
        const mk_vec3 du = v3_sub(v3_scale(x, 1 / lx), v3_scale(x_gap, 1 / lg));
        const mk_real lip = bounding_radius(c.a) + v3_len(c.p) + bounding_radius(c.b);
        if (sep_gap > 0 && lip * v3_len(du) < sep_gap)
            return 1;
    }
    mk_simplex tmp;
    support_min(&c, x, &tmp, 0);
    return c.bad_support || v3_dot(x, tmp.w[0]) >= 0;
}

static void zero_result(mk_gjk_result *out, mk_status st)
{
    mk_gjk_result z = {0};
    z.status = st;
    z.normal = v3(1, 0, 0);
    *out = z;
}

mk_status mk_gjk_distance(const mk_pair *pair, const mk_gjk_settings *settings, mk_gjk_cache *cache,
                          mk_gjk_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    mk_gjk_settings st = settings ? *settings : mk_gjk_default_settings();
    mk_status v = validate(pair, &st);
    if (v != MK_OK) {
        zero_result(out, v);
        return v;
    }

    ctx c;
    make_ctx(pair, cache, &c);
    mk_vec3 x0 = initial_guess(&c, &st, cache);
    run r;
    r.simplex = &out->simplex;
    gjk_loop(&c, &st, x0, 0, seed_simplex(&c, &st, cache, &out->simplex), &r);
    if (r.out == RUN_BAD) {
        zero_result(out, MK_INVALID_INPUT);
        return MK_INVALID_INPUT;
    }

    const mk_real ra = pair->a->radius, rb = pair->b->radius;
    mk_real core_ub = r.out == RUN_OVERLAP && out->simplex.count == 4 ? 0 : v3_len(r.x);
    mk_real core_lb = lower_bound(&r);
    if (core_lb > core_ub)
        core_lb = core_ub; /* rounding: keep the bracket ordered */

    /* Witnesses on the cores, in A's frame. */
    mk_vec3 a, b;
    const mk_simplex *sx = &out->simplex;
    simplex_witnesses(sx, &a, &b);
    mk_vec3 n = v3_scale(r.x, core_ub > 0 ? -1.0 / core_ub : 0);
    if (!(core_ub > 0) || !isfinite(n.x + n.y + n.z)) /* cores overlap: any unit vector, -x0 preferred */
        n = v3_normalize_or(v3_neg(x0), v3(1, 0, 0));
    else if (r.out == RUN_CONVERGED && !r.gap_at_x && r.lb_dw > 0 && !x_separates(c, r.x, sx, r.x_gap, r.gap))
        n = v3_normalize_or(v3_neg(r.lb_dir), n);
    a = v3_madd(a, ra, n);
    b = v3_madd(b, -rb, n);

    const mk_transform *xa = &pair->xf_a;
    out->core_distance = core_ub;
    out->distance = core_ub > c.radius ? core_ub - c.radius : 0;
    out->upper_bound = out->distance;
    out->lower_bound = core_lb > c.radius ? core_lb - c.radius : 0;
    out->point_a = xf_apply(xa, a);
    out->point_b = xf_apply(xa, b);
    out->normal = m3_mul(&xa->R, n);
    out->gap = r.out == RUN_OVERLAP ? 0 : r.gap;
    if (!isfinite(out->gap))
        out->gap = 0;
    out->iterations = r.iterations;
    out->used_fallback = r.used_fallback;
    if (r.out == RUN_MAX_ITER)
        out->status = MK_GJK_MAX_ITER;
    else
        /* Separated only when certified: the lower bound clears the radii. When
         * the gap cannot separate the bounds (|x| tiny next to the tolerance,
         * e.g. the simplex passing near the origin of an overlapping pair), the
         * answer is "touching within the tolerance", reported as intersecting. */
        out->status =
            separated_beyond(&r, c.radius) && out->lower_bound > 0 ? MK_GJK_SEPARATED : MK_GJK_INTERSECTING;

    if (cache) {
        cache->dir = core_ub > 0 ? r.x : r.lb_dir;
        cache->hint_a = c.hint_a;
        cache->hint_b = c.hint_b;
        cache->valid = v3_finite(cache->dir) && v3_len2(cache->dir) > 0;
        store_simplex(&c, &out->simplex, cache);
    }
    return out->status;
}

/* ------------------------------------------------------------ Boolean */

mk_status mk_gjk_intersect(const mk_pair *pair, const mk_gjk_settings *settings, mk_gjk_cache *cache,
                           mk_gjk_intersect_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    mk_gjk_intersect_result z = {0};
    z.plane_normal = v3(1, 0, 0);
    *out = z;
    mk_gjk_settings st = settings ? *settings : mk_gjk_default_settings();
    mk_status v = validate(pair, &st);
    if (v != MK_OK) {
        out->status = v;
        return v;
    }

    ctx c;
    make_ctx(pair, cache, &c);
    set_inner(pair, &c);
    mk_vec3 x0 = initial_guess(&c, &st, cache);
    mk_simplex simplex;
    run r;
    r.simplex = &simplex;
    gjk_loop(&c, &st, x0, 1, seed_simplex(&c, &st, cache, &simplex), &r);
    out->iterations = r.iterations;
    if (r.out == RUN_BAD) {
        out->status = MK_INVALID_INPUT;
        return out->status;
    }

    /* Separating plane (plane_margin); its margin must come out positive:
     * at touching it can round to <= 0 (then: touching). */
    mk_vec3 n = v3(1, 0, 0);
    mk_real top_a = 0, bot_b = 0;
    if (separated_beyond(&r, c.radius) &&
        plane_margin(&r, pair->a->radius, pair->b->radius, &n, &top_a, &bot_b) > 0) {
        mk_vec3 nw = m3_mul(&pair->xf_a.R, n);
        out->plane_normal = nw;
        out->plane_offset = 0.5 * (top_a + bot_b) + v3_dot(nw, pair->xf_a.p);
        out->margin = bot_b - top_a;
        out->status = MK_GJK_SEPARATED;
    } else if (r.out == RUN_MAX_ITER) {
        out->status = MK_GJK_MAX_ITER;
    } else {
        /* Overlap proven, or converged to touching within the tolerance. */
        out->status = MK_GJK_INTERSECTING;
    }
    if (cache) {
        mk_real x2 = v3_len2(r.x);
        cache->dir = x2 > 0 ? r.x : r.lb_dir;
        cache->hint_a = c.hint_a;
        cache->hint_b = c.hint_b;
        cache->valid = v3_finite(cache->dir) && v3_len2(cache->dir) > 0;
        store_simplex(&c, &simplex, cache);
    }
    return out->status;
}
