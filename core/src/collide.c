/* Narrowphase composition: signed distance (GJK + EPA) then the manifold. */
#include <minkowski/collide.h>

#include "vec.h"

#include <math.h>
#include <stdalign.h>
#include <string.h>

mk_collide_settings mk_collide_default_settings(void)
{
    mk_collide_settings s;
    s.gjk = mk_gjk_default_settings();
    s.gjk.init = MK_GJK_INIT_CACHE;
    s.epa = mk_epa_default_settings();
    s.growth = mk_growth_default_settings();
    s.speculative = 0;
    return s;
}

static void empty(mk_manifold *out)
{
    memset(out, 0, sizeof *out);
    out->normal = v3(1, 0, 0);
}

/* Feature id of a point that is the signed-distance witness pair itself. */
#define MK_COLLIDE_WITNESS_ID 0x7FFFFFF0u

/* The manifold's points are features of the reference face; on some curved
 * pairs none of them reaches the true signed distance (measured on random
 * cylinder/cone vs hull pairs: up to 1.9 mm short of 6.3 mm). The engine must
 * see the true depth, so when the deepest point falls short by more than a
 * micrometre-scale tolerance, the exact witness pair joins the manifold, in
 * place of its shallowest point when it is full. */
static void keep_deepest(mk_manifold *m, mk_vec3 pa, mk_vec3 pb, mk_real distance)
{
    if (m->count == 0)
        return;
    int shallow = 0;
    mk_real deepest = m->points[0].separation;
    for (int i = 1; i < m->count; ++i) {
        if (m->points[i].separation < deepest)
            deepest = m->points[i].separation;
        if (m->points[i].separation > m->points[shallow].separation)
            shallow = i;
    }
    if (deepest <= distance + 1e-6 * (1 + fabs(distance)))
        return;
    int slot = m->count < MK_MANIFOLD_MAX_POINTS ? m->count++ : shallow;
    mk_manifold_point *p = &m->points[slot];
    p->point_a = pa;
    p->point_b = pb;
    p->position = v3_scale(v3_add(pa, pb), 0.5);
    p->separation = distance;
    p->depth = -distance;
    p->id = MK_COLLIDE_WITNESS_ID;
}

/* A proof that the pair stood apart beyond the speculative distance: along
 * the world direction n (A to B), B's nearest point lay margin > 0 beyond A's
 * farthest point grown by the speculative distance. */
typedef struct apart {
    int ok;
    mk_vec3 n;
    mk_real margin;
} apart;

/* Slack along the world unit direction n: B's lowest point along n minus A's
 * highest point grown by spec (local core supports plus the radii). */
static mk_real slack_along(const mk_pair *pair, mk_vec3 n, mk_real spec)
{
    mk_vec3 da = m3_tmul(&pair->xf_a.R, n), db = m3_tmul(&pair->xf_b.R, v3_neg(n));
    mk_real top_a = v3_dot(n, pair->xf_a.p) + v3_dot(da, mk_shape_support(pair->a, da, NULL)) + pair->a->radius;
    mk_real bot_b = v3_dot(n, pair->xf_b.p) - v3_dot(db, mk_shape_support(pair->b, db, NULL)) - pair->b->radius;
    return bot_b - top_a - spec;
}

static mk_status collide_full(const mk_pair *pair, const mk_collide_settings *settings, mk_gjk_cache *cache,
                              mk_manifold *out, apart *why)
{
    why->ok = 0;
    if (!out)
        return MK_INVALID_INPUT;
    empty(out);
    mk_collide_settings s = settings ? *settings : mk_collide_default_settings();
    if (!isfinite(s.speculative))
        return MK_INVALID_INPUT;
    /* Most pairs an engine's broadphase hands over are apart by more than the
     * speculative distance. The Boolean query on A grown by that distance
     * proves it in a step or two from the cached direction (early exit of
     * Alg. 2), where the full distance would converge to the tolerance. */
    /* Skipped when the cache says the pair was within reach last time (|x| of
     * the cached iterate bounds the core distance then): touching pairs go
     * straight to the signed distance. */
    int near = 0;
    if (cache && cache->valid && pair && pair->a && pair->b) {
        mk_real reach = pair->a->radius + pair->b->radius + 2 * s.speculative;
        near = v3_len2(cache->dir) <= reach * reach;
    }
    if (!near && s.speculative >= 0 && pair && pair->a && pair->b) {
        mk_shape grown = *pair->a;
        grown.radius += s.speculative;
        mk_pair gp = {&grown, pair->xf_a, pair->b, pair->xf_b};
        mk_gjk_intersect_result ir;
        mk_status bs = mk_gjk_intersect(&gp, &s.gjk, cache, &ir);
        if (bs >= MK_INVALID_INPUT)
            return bs;
        if (bs == MK_GJK_SEPARATED) {
            why->ok = 1;
            why->n = ir.plane_normal;
            why->margin = ir.margin;
            return MK_GJK_SEPARATED;
        }
    }
    /* Cap EPA's budget to the stack workspace (bounded halving: at most 31 steps). */
    while (s.epa.max_iterations > 1 && mk_epa_workspace_size(s.epa.max_iterations) > MK_COLLIDE_WORKSPACE_BYTES)
        s.epa.max_iterations /= 2;
    alignas(16) unsigned char ws[MK_COLLIDE_WORKSPACE_BYTES];
    mk_signed_distance_result sd;
    mk_status st = mk_signed_distance(pair, &s.gjk, &s.epa, cache, ws, sizeof ws, &sd);
    if (st >= MK_INVALID_INPUT)
        return st;
    if (sd.distance > s.speculative) {
        /* apart beyond the speculative margin: no points. The certificate is
         * the slack along the normal, measured by its own supports. */
        if (s.speculative >= 0) {
            why->n = sd.normal;
            why->margin = slack_along(pair, sd.normal, s.speculative);
            why->ok = why->margin > 0;
        }
        return st;
    }
    mk_manifold_settings ms = mk_manifold_default_settings();
    ms.speculative_distance = s.speculative;
    mk_status mst = mk_contact_manifold(pair, sd.normal, sd.distance, &ms, out);
    if (mst != MK_OK)
        return mst;
    keep_deepest(out, sd.point_a, sd.point_b, sd.distance);
    return st;
}

mk_status mk_collide(const mk_pair *pair, const mk_collide_settings *settings, mk_gjk_cache *cache,
                     mk_manifold *out)
{
    apart why;
    return collide_full(pair, settings, cache, out, &why);
}

/* ------------------------------------------------------------ certificates */

/* Local centre and radius of a ball holding the core (the core's bounding box
 * about its centre). 0 for user supports: their box is the caller's word only. */
static int core_ball(const mk_shape *s, mk_vec3 *centre, mk_real *rho)
{
    if (s->type == MK_SHAPE_USER)
        return 0;
    mk_vec3 lo, hi;
    mk_shape_local_aabb(s, &lo, &hi);
    mk_vec3 h = v3_scale(v3_sub(hi, lo), 0.5);
    *centre = v3_scale(v3_add(lo, hi), 0.5);
    h = v3(fmax(h.x - s->radius, 0), fmax(h.y - s->radius, 0), fmax(h.z - s->radius, 0));
    *rho = v3_len(h) * (1 + 1e-12);
    return v3_finite(*centre) && isfinite(*rho);
}

static void certify(mk_collide_cache *c, const mk_pair *pair, const apart *why, mk_real spec)
{
    c->cert_valid = 0;
    if (!why->ok || !(why->margin > 0) || !v3_finite(why->n) || !(spec >= 0))
        return;
    if (!core_ball(pair->a, &c->ball_a, &c->ball_radius_a) || !core_ball(pair->b, &c->ball_b, &c->ball_radius_b))
        return;
    c->cert_normal = why->n;
    c->cert_margin = why->margin;
    c->cert_speculative = spec;
    c->cert_centre_a = xf_apply(&pair->xf_a, c->ball_a);
    c->cert_centre_b = xf_apply(&pair->xf_b, c->ball_b);
    c->cert_dir_a = m3_tmul(&pair->xf_a.R, why->n);
    c->cert_dir_b = m3_tmul(&pair->xf_b.R, why->n);
    c->shape_a = pair->a;
    c->shape_b = pair->b;
    c->cert_valid = 1;
}

/* Does the certificate still prove the pair apart beyond spec at these poses?
 * Along n, A's highest point rises by at most <n, dC_A> + rho_A |dR_A^T n|
 * (h_A(n) = <n, C_A> + h_core-centre(R_A^T n), the latter rho_A-Lipschitz), and
 * B's lowest point sinks by at most -<n, dC_B> + rho_B |dR_B^T n|. The margin
 * must exceed that plus any growth of spec, with room for rounding. */
static int still_apart(const mk_collide_cache *c, const mk_pair *pair, mk_real spec)
{
    if (!c->cert_valid || c->shape_a != pair->a || c->shape_b != pair->b)
        return 0;
    const mk_vec3 n = c->cert_normal;
    mk_vec3 ca = xf_apply(&pair->xf_a, c->ball_a), cb = xf_apply(&pair->xf_b, c->ball_b);
    mk_vec3 ua = m3_tmul(&pair->xf_a.R, n), ub = m3_tmul(&pair->xf_b.R, n);
    mk_real closing = v3_dot(n, v3_sub(ca, c->cert_centre_a)) - v3_dot(n, v3_sub(cb, c->cert_centre_b)) +
                      c->ball_radius_a * v3_len(v3_sub(ua, c->cert_dir_a)) +
                      c->ball_radius_b * v3_len(v3_sub(ub, c->cert_dir_b)) + fmax(spec - c->cert_speculative, 0);
    mk_real scale = v3_max_abs(ca) + v3_max_abs(cb) + c->ball_radius_a + c->ball_radius_b + pair->a->radius +
                    pair->b->radius + fabs(spec) + c->cert_margin;
    return closing + 1e-10 * scale < c->cert_margin; /* false on NaN */
}

/* The checks mk_collide's Boolean exit makes on its inputs. */
static int inputs_ok(const mk_pair *pair, const mk_collide_settings *s)
{
    const mk_gjk_settings *g = &s->gjk;
    return isfinite(s->speculative) && s->speculative >= 0 && mk_shape_validate(pair->a) == MK_OK &&
           mk_shape_validate(pair->b) == MK_OK && mk_is_valid_transform(&pair->xf_a) &&
           mk_is_valid_transform(&pair->xf_b) && g->variant >= MK_GJK_VANILLA && g->variant <= MK_GJK_NESTEROV &&
           g->max_iterations > 0 && g->max_iterations <= 100000 && isfinite(g->tolerance) && g->tolerance >= 0 &&
           g->init >= MK_GJK_INIT_BOUNDS && g->init <= MK_GJK_INIT_CACHE;
}

mk_status mk_collide_cached(const mk_pair *pair, const mk_collide_settings *settings, mk_collide_cache *cache,
                            mk_manifold *out)
{
    if (!cache)
        return mk_collide(pair, settings, NULL, out);
    if (!out)
        return MK_INVALID_INPUT;
    mk_collide_settings def;
    if (!settings) {
        def = mk_collide_default_settings();
        settings = &def;
    }
    /* The bound first (cheap, and usually decisive), then the input checks
     * the pipeline's Boolean exit would make. */
    if (pair && pair->a && pair->b && cache->cert_valid && still_apart(cache, pair, settings->speculative) &&
        inputs_ok(pair, settings)) {
        out->count = 0; /* what empty() leaves that a caller may read */
        out->normal = v3(1, 0, 0);
        ++cache->skipped;
        return MK_GJK_SEPARATED;
    }
    apart why;
    mk_status st = collide_full(pair, settings, &cache->gjk, out, &why);
    cache->cert_valid = 0;
    if (st < MK_INVALID_INPUT && out->count == 0)
        certify(cache, pair, &why, settings->speculative);
    return st;
}

/* The half-space is stood in for by a box whose top face is the plane, centred
 * under the shape and large enough that leaving through its top is always the
 * shortest way out: then the box pair has the half-space pair's contact
 * features, and the tested face clipping of the manifold does the work. */
mk_status mk_collide_plane(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c,
                           const mk_collide_settings *settings, mk_manifold *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    empty(out);
    if (!shape || !xf || !mk_is_valid_transform(xf) || !v3_finite(n) || !isfinite(c))
        return MK_INVALID_INPUT;
    mk_status v = mk_shape_validate(shape);
    if (v != MK_OK)
        return v;
    mk_real nl = v3_len(n);
    if (!(nl > 0))
        return MK_INVALID_INPUT;
    n = v3_scale(n, 1 / nl);
    c /= nl;

    /* Bounding radius of the shape about its frame origin. */
    mk_vec3 lo, hi;
    mk_shape_local_aabb(shape, &lo, &hi);
    mk_real R = fmax(v3_max_abs(lo), v3_max_abs(hi)) * 1.7320508075688772 + shape->radius;
    mk_real h = v3_dot(n, xf->p) - c; /* height of the shape's origin above the plane */
    mk_real half = 2 * R + 2 * fabs(h) + 1e-9 * (1 + R);
    if (!isfinite(half) || !isfinite(h))
        return MK_INVALID_INPUT;

    mk_shape box;
    mk_status bs = mk_shape_box(&box, v3(half, half, half), 0);
    if (bs != MK_OK)
        return bs;
    /* Box frame: z along n, centre half below the plane under the shape. */
    mk_vec3 t = fabs(n.x) < 0.6 ? v3(1, 0, 0) : v3(0, 1, 0);
    mk_vec3 u = v3_normalize_or(v3_sub(t, v3_scale(n, v3_dot(t, n))), v3(0, 0, 1));
    mk_vec3 w = v3_cross(n, u);
    mk_transform bx;
    bx.R = (mk_mat3){{{u.x, w.x, n.x}, {u.y, w.y, n.y}, {u.z, w.z, n.z}}};
    bx.p = v3_sub(xf->p, v3_scale(n, h + half));

    mk_collide_settings s = settings ? *settings : mk_collide_default_settings();
    if (!isfinite(s.speculative))
        return MK_INVALID_INPUT;
    /* Against a half-space the signed distance is exact from one support call:
     * the lowest point of the shape along -n. No GJK or EPA needed. */
    mk_vec3 down = m3_tmul(&xf->R, v3_neg(n));
    mk_vec3 low = v3_madd(xf_apply(xf, mk_shape_support(shape, down, NULL)), -shape->radius, n);
    mk_real sd = v3_dot(n, low) - c;
    if (!isfinite(sd))
        return MK_INVALID_INPUT;
    mk_status st = sd > 0 ? MK_GJK_SEPARATED : (sd < 0 ? MK_PENETRATING : MK_GJK_INTERSECTING);
    if (sd > s.speculative)
        return st;
    mk_manifold_settings ms = mk_manifold_default_settings();
    ms.speculative_distance = s.speculative;
    mk_pair pair = {shape, *xf, &box, bx};
    mk_status mst = mk_contact_manifold(&pair, v3_neg(n), sd, &ms, out);
    if (mst != MK_OK)
        return mst;
    keep_deepest(out, low, v3_madd(low, -sd, n), sd);
    return st;
}

mk_status mk_collide_growth(const mk_growth_input *in, const mk_collide_settings *settings, mk_growth_cache *cache,
                            mk_manifold *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    empty(out);
    mk_collide_settings s = settings ? *settings : mk_collide_default_settings();
    if (!in || !isfinite(s.speculative))
        return MK_INVALID_INPUT;
    mk_growth_result g;
    mk_status st = mk_growth_distance(in, &s.growth, cache, &g);
    if (st != MK_GJK_SEPARATED && st != MK_GJK_INTERSECTING && st != MK_GROWTH_MAX_ITER)
        return st;
    mk_real sep = v3_dot(v3_sub(g.point_b, g.point_a), g.normal);
    if (!isfinite(sep))
        return MK_INVALID_INPUT;
    if (sep > s.speculative)
        return st;
    mk_manifold_settings ms = mk_manifold_default_settings();
    ms.speculative_distance = s.speculative;
    mk_status mst = mk_contact_manifold(&in->pair, g.normal, sep, &ms, out);
    return mst == MK_OK ? st : mst;
}
