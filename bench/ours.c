/* mk_bench: minkowski's own queries as bench_query configurations. */
#include "bench_c.h"

#include <stdlib.h>

/* Every variant at the papers' setting: absolute tolerance 1e-8 on the
 * Frank-Wolfe duality gap (the library also asks 1e-4 |x|^2 where that is
 * smaller, gjk.h), bounding-box initial guess, cold start (no cache). */
const ours_config ours_configs[OURS_CONFIG_COUNT] = {
    {"vanilla", MK_GJK_VANILLA, 0},
    {"polyak", MK_GJK_POLYAK, 0},
    {"polyak+norm", MK_GJK_POLYAK, 1},
    {"nesterov", MK_GJK_NESTEROV, 0},
    {"nesterov+norm", MK_GJK_NESTEROV, 1},
};

typedef struct ours_ctx {
    const bench_set *set;
    mk_gjk_settings st;
} ours_ctx;

static void *ours_make(const bench_set *set, const void *param)
{
    const ours_config *c = param;
    ours_ctx *x = malloc(sizeof *x);
    if (!x)
        return NULL;
    x->set = set;
    x->st = mk_gjk_default_settings();
    x->st.variant = c->variant;
    x->st.normalize_dir = c->normalize;
    x->st.fallback_to_vanilla = 1;
    x->st.relative_tolerance = 0;
    x->st.tolerance = 1e-8;
    x->st.max_iterations = 128;
    x->st.init = MK_GJK_INIT_BOUNDS;
    return x;
}

static void ours_release(void *ctx) { free(ctx); }

static double distance_run(void *ctx, int i)
{
    const ours_ctx *x = ctx;
    mk_gjk_result r;
    mk_gjk_distance(&x->set->p[i].pair, &x->st, NULL, &r);
    return r.distance;
}

static void distance_answer(void *ctx, int i, bench_answer *out)
{
    const ours_ctx *x = ctx;
    mk_gjk_result r;
    mk_status s = mk_gjk_distance(&x->set->p[i].pair, &x->st, NULL, &r);
    out->ok = (s == MK_GJK_SEPARATED || s == MK_GJK_INTERSECTING) && isfinite(r.distance);
    out->overlap = s == MK_GJK_INTERSECTING;
    out->distance = r.distance;
    out->depth = NAN;
    out->iterations = r.iterations;
    out->lower = r.lower_bound;
    out->upper = r.upper_bound;
}

static double boolean_run(void *ctx, int i)
{
    const ours_ctx *x = ctx;
    mk_gjk_intersect_result r;
    return (double)mk_gjk_intersect(&x->set->p[i].pair, &x->st, NULL, &r);
}

static void boolean_answer(void *ctx, int i, bench_answer *out)
{
    const ours_ctx *x = ctx;
    mk_gjk_intersect_result r;
    mk_status s = mk_gjk_intersect(&x->set->p[i].pair, &x->st, NULL, &r);
    out->ok = s == MK_GJK_SEPARATED || s == MK_GJK_INTERSECTING;
    out->overlap = s == MK_GJK_INTERSECTING;
    out->distance = NAN;
    out->depth = NAN;
    out->iterations = r.iterations;
    out->lower = out->upper = NAN;
}

const bench_query ours_distance = {"minkowski", BENCH_DISTANCE, ours_make, ours_release, distance_run,
                                   distance_answer, NULL};
const bench_query ours_boolean = {"minkowski", BENCH_BOOLEAN, ours_make, ours_release, boolean_run,
                                  boolean_answer, NULL};

/* ------------------------------------------------------------ penetration (issue 3) */

#ifdef MK_BENCH_HAVE_EPA
#include <minkowski/epa.h>

/* mk_signed_distance, cold, at its defaults (GJK: nesterov, tolerance 1e-8;
 * EPA: absolute tolerance 1e-8 on the certified depth gap, 128 iterations), and
 * with EPA's tolerance at libccd's default 1e-4. */
typedef struct pen_ctx {
    const bench_set *set;
    mk_epa_settings st;
    void *ws;
    size_t ws_bytes;
} pen_ctx;

static void *pen_make(const bench_set *set, const void *param)
{
    pen_ctx *x = malloc(sizeof *x);
    if (!x)
        return NULL;
    x->set = set;
    x->st = mk_epa_default_settings();
    x->st.tolerance = *(const double *)param;
    x->ws_bytes = mk_epa_workspace_size(x->st.max_iterations);
    x->ws = malloc(x->ws_bytes);
    if (!x->ws) {
        free(x);
        return NULL;
    }
    return x;
}

static void pen_release(void *ctx)
{
    pen_ctx *x = ctx;
    free(x->ws);
    free(x);
}

static double pen_run(void *ctx, int i)
{
    pen_ctx *x = ctx;
    mk_signed_distance_result r;
    mk_signed_distance(&x->set->p[i].pair, NULL, &x->st, NULL, x->ws, x->ws_bytes, &r);
    return r.distance;
}

static void pen_answer(void *ctx, int i, bench_answer *out)
{
    pen_ctx *x = ctx;
    mk_signed_distance_result r;
    mk_status s = mk_signed_distance(&x->set->p[i].pair, NULL, &x->st, NULL, x->ws, x->ws_bytes, &r);
    out->ok = (s == MK_PENETRATING || s == MK_GJK_SEPARATED) && isfinite(r.distance);
    out->overlap = r.distance < 0;
    out->depth = r.distance < 0 ? -r.distance : 0;
    out->distance = r.distance;
    out->iterations = r.epa_iterations;
    out->lower = r.lower_bound;
    out->upper = r.upper_bound;
}

static const double pen_tol[2] = {1e-8, 1e-4};
static const bench_query ours_pen[2] = {
    {"minkowski (EPA tol 1e-8)", BENCH_PENETRATION, pen_make, pen_release, pen_run, pen_answer, &pen_tol[0]},
    {"minkowski (EPA tol 1e-4)", BENCH_PENETRATION, pen_make, pen_release, pen_run, pen_answer, &pen_tol[1]},
};

const bench_query *ours_penetration_query(int k) { return k >= 0 && k < 2 ? &ours_pen[k] : NULL; }
#else
const bench_query *ours_penetration_query(int k)
{
    (void)k;
    return NULL;
}
#endif
