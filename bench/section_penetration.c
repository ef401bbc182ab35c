/* mk_bench section "penetration" (issue 3): penetration depth of overlapping
 * pairs, ours (epa.h) against libccd (GJK+EPA and MPR) and Bullet's GjkEpa2.
 *
 * Problems: the overlapping categories of the gjk section (-0.1..0 m and 1 cm
 * along the construction axis). Reference depths: exact for boxes and hulls up
 * to 240 vertices (tests/oracle's separating-axis test over face normals and
 * the edge pairs whose Gauss arcs cross); for ellipsoids, the best of a
 * multi-start ascent of the separation along a unit direction u,
 *   sep(u) = min_B <u, b> - max_A <u, a>,   depth = -max_u sep(u),
 * started from the construction axis and random directions: any u gives
 * depth <= -sep(u), so the reference is an upper bound, tight when the ascent
 * finds the global maximum. 1000-point hulls are left out (no exact depth). */
#include "bench_c.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_PEN_QUERIES = 8 };

static const bench_family pen_families[] = {FAM_ELLIPSOID, FAM_BOX, FAM_HULL12, FAM_HULL60, FAM_HULL240};
static const bench_category pen_categories[] = {CAT_OVERLAP, CAT_OVL_1CM};
enum { NPF = sizeof pen_families / sizeof pen_families[0], NPC = 2 };

/* ------------------------------------------------------------ numerical depth of smooth pairs */

static double sep_along(const bench_problem *p, mk_vec3 u)
{
    return -or_support_value(p->pair.b, &p->pair.xf_b, b3_neg(u)) - or_support_value(p->pair.a, &p->pair.xf_a, u);
}

/* Riemannian ascent of sep on the unit sphere with an adaptive angular step;
 * the gradient of sep is s_B(-u) - s_A(u). */
static double ascend(const bench_problem *p, mk_vec3 u, mk_vec3 *best_u)
{
    double f = sep_along(p, u), step = 0.2;
    for (int it = 0; it < 400 && step > 1e-12; ++it) {
        mk_vec3 g = b3_sub(or_support_point(p->pair.b, &p->pair.xf_b, b3_neg(u)),
                           or_support_point(p->pair.a, &p->pair.xf_a, u));
        mk_vec3 gt = b3_madd(g, -b3_dot(g, u), u);
        double lg = b3_len(gt);
        if (!(lg > 1e-15))
            break;
        mk_vec3 t = b3_madd(u, step / lg, gt);
        t = b3_scale(t, 1 / b3_len(t));
        double ft = sep_along(p, t);
        if (ft > f) {
            u = t;
            f = ft;
            step = fmin(step * 1.5, 0.5);
        } else {
            step *= 0.5;
        }
    }
    *best_u = u;
    return f;
}

static double numerical_depth(const bench_problem *p, int starts, or_rng *rng)
{
    mk_vec3 u;
    double best = ascend(p, p->axis, &u);
    for (int k = 0; k < starts; ++k) {
        double f = ascend(p, or_unit(rng), &u);
        if (f > best)
            best = f;
    }
    return -best;
}

/* ------------------------------------------------------------ one set */

typedef struct pen_stats {
    const char *name;
    int available;
    double med_ns, sweep_ns, max_err, med_err;
    int large_err; /* depth errors above 1e-4 m */
    int fails;
} pen_stats;

static void evaluate(const bench_set *set, const bench_answer *ans, pen_stats *s)
{
    int n = set->count, ne = 0;
    double *err = malloc(sizeof *err * (size_t)n);
    s->fails = 0;
    s->large_err = 0;
    for (int i = 0; i < n; ++i) {
        if (!ans[i].ok || !ans[i].overlap || !isfinite(ans[i].depth)) {
            ++s->fails;
            continue;
        }
        err[ne] = fabs(ans[i].depth - (-set->p[i].ref));
        s->large_err += err[ne++] > 1e-4;
    }
    s->max_err = ne ? bench_max(err, ne) : NAN;
    s->med_err = ne ? bench_median(err, ne) : NAN;
    free(err);
}

static int run_set(const bench_set *set, const bench_opts *o, const bench_query *const *qs, int nq, pen_stats *st)
{
    void *ctx[MAX_PEN_QUERIES];
    const bench_query *live[MAX_PEN_QUERIES];
    void *live_ctx[MAX_PEN_QUERIES];
    int idx[MAX_PEN_QUERIES], nlive = 0, n = set->count;
    bench_answer *ans = malloc(sizeof *ans * (size_t)n);
    for (int k = 0; k < nq; ++k) {
        memset(&st[k], 0, sizeof st[k]);
        st[k].name = qs[k]->name;
        ctx[k] = qs[k]->make(set, qs[k]->param);
        st[k].available = ctx[k] != NULL;
        if (!ctx[k])
            continue;
        for (int i = 0; i < n; ++i)
            qs[k]->answer(ctx[k], i, &ans[i]);
        evaluate(set, ans, &st[k]);
        live[nlive] = qs[k];
        live_ctx[nlive] = ctx[k];
        idx[nlive++] = k;
    }
    free(ans);
    double *per = malloc(sizeof *per * (size_t)(nlive ? nlive : 1) * (size_t)n);
    double sweep[MAX_PEN_QUERIES];
    int ok = per && bench_time(live, live_ctx, nlive, n, o->runs, per, sweep);
    for (int j = 0; ok && j < nlive; ++j) {
        st[idx[j]].med_ns = bench_median(&per[(size_t)j * n], n);
        st[idx[j]].sweep_ns = sweep[j];
    }
    free(per);
    for (int k = 0; k < nq; ++k)
        if (ctx[k])
            qs[k]->release(ctx[k]);
    return ok;
}

static const char *fmt_err(double e, char *buf, size_t len)
{
    if (isnan(e))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1e", e);
    return buf;
}

/* ------------------------------------------------------------ the section */

void section_penetration(const bench_opts *o)
{
    const bench_query *qs[MAX_PEN_QUERIES];
    int nq = 0, ours = -1;
    const bench_query *mine = ours_penetration_query(0);
    for (int k = 0; ours_penetration_query(k); ++k) {
        if (k == 0)
            ours = nq;
        qs[nq++] = ours_penetration_query(k);
    }
#ifdef MK_BENCH_HAVE_CCD
    qs[nq++] = &peer_ccd_gjk_pen;
    qs[nq++] = &peer_ccd_mpr_pen;
#endif
#ifdef MK_BENCH_HAVE_BULLET
    qs[nq++] = &peer_bullet_penetration;
#endif
    printf("\n== Section penetration: depth of overlapping pairs, %d problems per family and category ==\n",
           o->pairs);
    if (!mine)
        printf("ours: not available (the core had no epa.c / epa.h at configure time); peers only.\n");
    else
        printf("ours: mk_signed_distance at its defaults (EPA absolute tolerance 1e-8 on the certified depth gap)\n"
               "and with EPA's tolerance at libccd's 1e-4; ours/theirs uses the defaults.\n");
    printf("reference depths: exact (tests/oracle SAT) for boxes and hulls; ellipsoids: best of a multi-start\n"
           "ascent of the support-plane separation (an upper bound of the depth, tight at the global maximum).\n"
           "|err|: |depth - reference|; >1e-4: errors above 0.1 mm; fails: no answer or no overlap reported.\n"
           "Peers at their defaults (libccd: EPA and MPR tolerance 1e-4; Bullet: margins 0, GJK+EPA as in\n"
           "btGjkEpaPenetrationDepthSolver).\n");
    printf("  %-12s %-16s %-24s %8s %8s %11s %8s %8s %6s %5s\n", "family", "category", "library", "med ns",
           "sweep ns", "ours/theirs", "max|err|", "med|err|", ">1e-4", "fails");
    for (int fi = 0; fi < NPF; ++fi) {
        bench_family f = pen_families[fi];
        if (!bench_family_selected(f, o))
            continue;
        or_rng rng = or_rng_make(o->seed * 1000003u + 500u + (uint64_t)f);
        bench_pool pool;
        if (!bench_pool_make(&pool, f, bench_pool_size(f, o), &rng)) {
            bench_pool_free(&pool);
            continue;
        }
        for (int ci = 0; ci < NPC; ++ci) {
            bench_set set;
            if (!bench_set_make(&set, &pool, pen_categories[ci], o->pairs, &rng, 0, 1)) {
                bench_set_free(&set);
                continue;
            }
            int exact = 1;
            for (int i = 0; i < set.count; ++i) {
                bench_problem *p = &set.p[i];
                if (!p->depth_exact) {
                    p->ref = -numerical_depth(p, o->quick ? 8 : 24, &rng);
                    exact = 0;
                }
            }
            pen_stats st[MAX_PEN_QUERIES];
            if (run_set(&set, o, qs, nq, st)) {
                for (int k = 0; k < nq; ++k) {
                    char e1[16], e2[16], ratio[16];
                    if (!st[k].available) {
                        printf("  %-12s %-16s %-24s (not available for this family)\n", "", "", st[k].name);
                        continue;
                    }
                    if (ours >= 0)
                        snprintf(ratio, sizeof ratio, "%.3f", st[ours].med_ns / st[k].med_ns);
                    else
                        snprintf(ratio, sizeof ratio, "-");
                    printf("  %-12s %-16s %-24s %8.0f %8.0f %11s %8s %8s %6d %5d\n",
                           k == 0 ? bench_family_name(f) : "", k == 0 ? bench_category_name(set.cat) : "",
                           st[k].name, st[k].med_ns, st[k].sweep_ns, ratio, fmt_err(st[k].max_err, e1, sizeof e1),
                           fmt_err(st[k].med_err, e2, sizeof e2), st[k].large_err, st[k].fails);
                }
                if (!exact)
                    printf("  %-12s %-16s (reference: numerical upper bound of the depth)\n", "", "");
            }
            fflush(stdout);
            bench_set_free(&set);
        }
        bench_pool_free(&pool);
    }
}
