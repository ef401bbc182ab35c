/* mk_bench section "gjk": our GJK variants and the peer libraries on the papers'
 * datasets, distance and Boolean, with accuracy against the certified references. */
#include "bench_c.h"

#include <stdlib.h>
#include <string.h>

/* Verdicts closer to contact than this are not counted as wrong (metres). */
#define VERDICT_SLACK 1e-6
/* Distance errors counted as large (metres). */
#define LARGE_ERR 1e-4

enum { MAX_QUERIES = 2 * OURS_CONFIG_COUNT + 8 };

/* What one query configuration did on one set. */
typedef struct q_stats {
    const char *name;
    bench_kind kind;
    int ours;         /* index into ours_configs, or -1 for a peer */
    int available;
    double med_ns, sweep_ns;
    double it_mean, it_std;
    double max_err, med_err;
    int large_err;    /* distance errors above LARGE_ERR */
    int fails;
    int cert_viol;    /* ours, distance: reference outside [lower, upper] */
} q_stats;

typedef struct set_result {
    int nq;
    q_stats q[MAX_QUERIES];
} set_result;

static int wrong_verdict(const bench_problem *p, const bench_answer *a)
{
    if (a->overlap == p->overlap)
        return 0;
    return fabs(p->ref) > VERDICT_SLACK;
}

static void evaluate(const bench_set *set, const bench_answer *ans, q_stats *s)
{
    int n = set->count;
    double *err = malloc(sizeof *err * (size_t)n), *it = malloc(sizeof *it * (size_t)n);
    int ne = 0, ni = 0;
    s->fails = 0;
    s->cert_viol = 0;
    s->large_err = 0;
    for (int i = 0; i < n; ++i) {
        const bench_problem *p = &set->p[i];
        const bench_answer *a = &ans[i];
        if (!a->ok || wrong_verdict(p, a))
            ++s->fails;
        if (a->iterations >= 0)
            it[ni++] = a->iterations;
        if (s->kind == BENCH_DISTANCE && a->ok) {
            double truth = p->overlap ? 0 : p->ref;
            double got = a->overlap ? 0 : a->distance;
            err[ne] = fabs(got - truth);
            s->large_err += err[ne++] > LARGE_ERR;
            if (s->ours >= 0 && !p->overlap) {
                double slack = p->ref_width + 1e-12;
                if (a->lower > p->ref + slack || a->upper < p->ref - slack)
                    ++s->cert_viol;
            }
        }
    }
    s->max_err = ne ? bench_max(err, ne) : NAN;
    s->med_err = ne ? bench_median(err, ne) : NAN;
    if (ni)
        bench_mean_std(it, ni, &s->it_mean, &s->it_std);
    else
        s->it_mean = s->it_std = NAN;
    free(err);
    free(it);
}

/* ------------------------------------------------------------ one set */

static void add_query(const bench_query **qs, const void **params, q_stats *st, int *nq, const bench_query *q,
                      const void *param, int ours)
{
    qs[*nq] = q;
    params[*nq] = param;
    memset(&st[*nq], 0, sizeof st[*nq]);
    st[*nq].name = ours >= 0 ? ours_configs[ours].name : q->name;
    st[*nq].kind = q->kind;
    st[*nq].ours = ours;
    ++*nq;
}

static int run_set(const bench_set *set, const bench_opts *o, set_result *res)
{
    const bench_query *qs[MAX_QUERIES];
    const void *params[MAX_QUERIES];
    int nq = 0;
    for (int k = 0; k < OURS_CONFIG_COUNT; ++k)
        add_query(qs, params, res->q, &nq, &ours_distance, &ours_configs[k], k);
    for (int k = 0; k < OURS_CONFIG_COUNT; ++k)
        add_query(qs, params, res->q, &nq, &ours_boolean, &ours_configs[k], k);
#ifdef MK_BENCH_HAVE_FCL
    add_query(qs, params, res->q, &nq, &peer_fcl_distance, NULL, -1);
#endif
#ifdef MK_BENCH_HAVE_BULLET
    add_query(qs, params, res->q, &nq, &peer_bullet_distance, NULL, -1);
#endif
#ifdef MK_BENCH_HAVE_CCD
    add_query(qs, params, res->q, &nq, &peer_ccd_gjk, NULL, -1);
    add_query(qs, params, res->q, &nq, &peer_ccd_mpr, NULL, -1);
#endif
    res->nq = nq;

    void *ctx[MAX_QUERIES];
    const bench_query *live[MAX_QUERIES];
    void *live_ctx[MAX_QUERIES];
    int live_idx[MAX_QUERIES], nlive = 0;
    int n = set->count;
    bench_answer *ans = malloc(sizeof *ans * (size_t)n);
    for (int k = 0; k < nq; ++k) {
        ctx[k] = qs[k]->make(set, params[k]);
        res->q[k].available = ctx[k] != NULL;
        if (!ctx[k])
            continue;
        for (int i = 0; i < n; ++i)
            qs[k]->answer(ctx[k], i, &ans[i]);
        evaluate(set, ans, &res->q[k]);
        live[nlive] = qs[k];
        live_ctx[nlive] = ctx[k];
        live_idx[nlive++] = k;
    }
    free(ans);

    double *per = malloc(sizeof *per * (size_t)nlive * (size_t)n);
    double sweep[MAX_QUERIES];
    int ok = per && bench_time(live, live_ctx, nlive, n, o->runs, per, sweep);
    for (int j = 0; ok && j < nlive; ++j) {
        q_stats *s = &res->q[live_idx[j]];
        s->med_ns = bench_median(&per[(size_t)j * n], n);
        s->sweep_ns = sweep[j];
    }
    free(per);
    for (int k = 0; k < nq; ++k)
        if (ctx[k])
            qs[k]->release(ctx[k]);
    return ok;
}

/* ------------------------------------------------------------ tables */

static const char *fmt_err(double e, char *buf, size_t len)
{
    if (isnan(e))
        snprintf(buf, len, "-");
    else if (e == 0)
        snprintf(buf, len, "0");
    else
        snprintf(buf, len, "%.1e", e);
    return buf;
}

static void print_ours(const bench_set *set, const set_result *r, int first)
{
    if (first) {
        printf("  %-16s %-14s | %-13s %7s %8s %8s %8s %5s %4s | %-13s %7s %5s\n", "category", "variant",
               "dist iters", "med ns", "sweep ns", "max|err|", "med|err|", "fails", "cert", "bool iters",
               "med ns", "fails");
    }
    for (int k = 0; k < OURS_CONFIG_COUNT; ++k) {
        const q_stats *d = &r->q[k], *b = &r->q[OURS_CONFIG_COUNT + k];
        char e1[16], e2[16], it1[24], it2[24];
        snprintf(it1, sizeof it1, "%.1f +- %.1f", d->it_mean, d->it_std);
        snprintf(it2, sizeof it2, "%.1f +- %.1f", b->it_mean, b->it_std);
        printf("  %-16s %-14s | %-13s %7.0f %8.0f %8s %8s %5d %4d | %-13s %7.0f %5d\n",
               k == 0 ? bench_category_name(set->cat) : "", ours_configs[k].name, it1, d->med_ns, d->sweep_ns,
               fmt_err(d->max_err, e1, sizeof e1), fmt_err(d->med_err, e2, sizeof e2), d->fails, d->cert_viol, it2,
               b->med_ns, b->fails);
    }
}

/* Our fastest configuration of a kind (by median ns). */
static int fastest_ours(const set_result *r, bench_kind kind)
{
    int best = -1;
    for (int k = 0; k < r->nq; ++k) {
        const q_stats *s = &r->q[k];
        if (s->ours < 0 || s->kind != kind || !s->available)
            continue;
        if (best < 0 || s->med_ns < r->q[best].med_ns)
            best = k;
    }
    return best;
}

static void print_peer_row(const char *cat, const q_stats *s, const q_stats *ours)
{
    char e1[16], e2[16], name[48], ratio[16];
    if (s->ours >= 0)
        snprintf(name, sizeof name, "minkowski %s", s->name);
    else
        snprintf(name, sizeof name, "%s", s->name);
    if (s == ours)
        snprintf(ratio, sizeof ratio, "1");
    else
        snprintf(ratio, sizeof ratio, "%.3f", ours->med_ns / s->med_ns);
    char large[16];
    if (s->kind == BENCH_DISTANCE)
        snprintf(large, sizeof large, "%d", s->large_err);
    else
        snprintf(large, sizeof large, "-");
    printf("  %-16s %-26s %-8s %8.0f %8.0f %11s %8s %8s %6s %5d\n", cat, name,
           s->kind == BENCH_DISTANCE ? "distance" : "Boolean", s->med_ns, s->sweep_ns, ratio,
           fmt_err(s->max_err, e1, sizeof e1), fmt_err(s->med_err, e2, sizeof e2), large, s->fails);
}

static void print_peers(const bench_set *set, const set_result *r, int first)
{
    if (first)
        printf("  %-16s %-26s %-8s %8s %8s %11s %8s %8s %6s %5s\n", "category", "library", "query", "med ns",
               "sweep ns", "ours/theirs", "max|err|", "med|err|", ">1e-4", "fails");
    const char *cat = bench_category_name(set->cat);
    for (int kind = BENCH_DISTANCE; kind <= BENCH_BOOLEAN; ++kind) {
        int best = fastest_ours(r, (bench_kind)kind);
        if (best < 0)
            continue;
        print_peer_row(cat, &r->q[best], &r->q[best]);
        cat = "";
        for (int k = 0; k < r->nq; ++k) {
            const q_stats *s = &r->q[k];
            if (s->ours >= 0 || (int)s->kind != kind)
                continue;
            if (!s->available) {
                printf("  %-16s %-26s (not available for this shape family)\n", "", s->name);
                continue;
            }
            print_peer_row("", s, &r->q[best]);
        }
    }
}

/* ------------------------------------------------------------ summary of the targets */

static const q_stats *find(const set_result *r, const char *name, bench_kind kind)
{
    for (int k = 0; k < r->nq; ++k)
        if (r->q[k].available && r->q[k].kind == kind && strcmp(r->q[k].name, name) == 0)
            return &r->q[k];
    return NULL;
}

static const char *verdict(int met) { return met ? "met" : "NOT met"; }

static void print_targets(set_result (*res)[CAT_COUNT], const int *have)
{
    printf("\n== Targets of issue 2 (measured on this machine; speed is never asserted) ==\n");
    if (have[FAM_ELLIPSOID]) {
        const set_result *r = &res[FAM_ELLIPSOID][CAT_CLOSE];
        const q_stats *v = find(r, "vanilla", BENCH_DISTANCE), *n = find(r, "nesterov", BENCH_DISTANCE),
                      *nn = find(r, "nesterov+norm", BENCH_DISTANCE);
        printf("- ellipsoids, close proximity, distance iterations: vanilla %.1f +- %.1f, nesterov %.1f +- %.1f "
               "(ratio %.2f), nesterov+norm %.1f +- %.1f (paper: 16 +- 5 vs 7 +- 2): about half: %s\n",
               v->it_mean, v->it_std, n->it_mean, n->it_std, n->it_mean / v->it_mean, nn->it_mean, nn->it_std,
               verdict(n->it_mean <= 0.6 * v->it_mean));
    }
    for (int f = FAM_HULL240; f <= FAM_HULL1000; ++f) {
        if (!have[f])
            continue;
        const set_result *r = &res[f][CAT_SEP_1CM];
        const q_stats *v = find(r, "vanilla", BENCH_DISTANCE);
        printf("- %s at 1 cm, distance: vanilla %.0f ns", bench_family_name((bench_family)f), v->med_ns);
        const char *mom[] = {"polyak", "polyak+norm", "nesterov", "nesterov+norm"};
        for (int k = 0; k < 4; ++k) {
            const q_stats *m = find(r, mom[k], BENCH_DISTANCE);
            printf("; %s %.0f ns (%.2fx)", mom[k], m->med_ns, v->med_ns / m->med_ns);
        }
        const q_stats *p = find(r, "polyak", BENCH_DISTANCE), *n = find(r, "nesterov", BENCH_DISTANCE);
        printf("\n    Nesterov and Polyak >= 1.3x faster than vanilla: %s\n",
               verdict(v->med_ns / p->med_ns >= 1.3 && v->med_ns / n->med_ns >= 1.3));
        int best = fastest_ours(r, BENCH_DISTANCE);
        const q_stats *fcl = find(r, "FCL GJK (libccd)", BENCH_DISTANCE);
        const q_stats *bt = find(r, "Bullet GjkEpa2", BENCH_DISTANCE);
        if (best >= 0 && fcl)
            printf("    fastest (%s, %.0f ns) vs FCL %.0f ns: %.1fx faster (target 3x: %s)\n", r->q[best].name,
                   r->q[best].med_ns, fcl->med_ns, fcl->med_ns / r->q[best].med_ns,
                   verdict(fcl->med_ns / r->q[best].med_ns >= 3));
        if (best >= 0 && bt)
            printf("    fastest (%s, %.0f ns) vs Bullet %.0f ns: %.1fx faster (target 5x: %s)\n", r->q[best].name,
                   r->q[best].med_ns, bt->med_ns, bt->med_ns / r->q[best].med_ns,
                   verdict(bt->med_ns / r->q[best].med_ns >= 5));
    }
    for (int f = 0; f < FAM_COUNT; ++f) {
        if (!have[f])
            continue;
        const set_result *r = &res[f][CAT_OVL_1CM];
        int best = fastest_ours(r, BENCH_BOOLEAN);
        const q_stats *g = find(r, "libccd GJK", BENCH_BOOLEAN), *m = find(r, "libccd MPR", BENCH_BOOLEAN);
        if (best < 0 || !g || !m)
            continue;
        double theirs = g->med_ns < m->med_ns ? g->med_ns : m->med_ns;
        printf("- %s at 1 cm overlap, Boolean: ours (%s) %.0f ns, libccd GJK %.0f ns, MPR %.0f ns: %.1fx faster "
               "than libccd's fastest (target 3x: %s)\n",
               bench_family_name((bench_family)f), r->q[best].name, r->q[best].med_ns, g->med_ns, m->med_ns,
               theirs / r->q[best].med_ns, verdict(theirs / r->q[best].med_ns >= 3));
    }
    if (have[FAM_BOX]) {
        double worst = 0;
        printf("- boxes, distance, median ns per query of the default variant (nesterov):");
        for (int c = 0; c < CAT_COUNT; ++c) {
            const q_stats *n = find(&res[FAM_BOX][c], "nesterov", BENCH_DISTANCE);
            printf(" %.0f", n->med_ns);
            if (n->med_ns > worst)
                worst = n->med_ns;
        }
        double worst_best = 0;
        printf(" (per category); fastest variant:");
        for (int c = 0; c < CAT_COUNT; ++c) {
            int b = fastest_ours(&res[FAM_BOX][c], BENCH_DISTANCE);
            printf(" %.0f (%s)", res[FAM_BOX][c].q[b].med_ns, res[FAM_BOX][c].q[b].name);
            if (res[FAM_BOX][c].q[b].med_ns > worst_best)
                worst_best = res[FAM_BOX][c].q[b].med_ns;
        }
        printf("\n    under 200 ns: default %s, fastest %s\n", verdict(worst < 200), verdict(worst_best < 200));
    }
}

/* ------------------------------------------------------------ the section */

void section_gjk(const bench_opts *o)
{
    static set_result res[FAM_COUNT][CAT_COUNT];
    int have[FAM_COUNT] = {0};
    printf("\n== Section gjk: distance and Boolean queries, %d problems per family and category ==\n", o->pairs);
    printf("ours: absolute tolerance 1e-8 on the duality gap (and 1e-4 |x|^2 where smaller, near contact), "
           "bounding-box initial guess, cold start, fallback to vanilla on (eq. 32).\n");
    printf("med ns: median over problems of the per-problem median over %d runs (blocks of repeated calls);\n"
           "sweep ns: median over runs of the mean of one pass over all problems (each called once).\n"
           "ours/theirs: our fastest configuration's med ns / the library's (< 1: ours is faster).\n"
           "|err|: distance error vs the certified reference (0 when both say overlap); >1e-4: errors above\n"
           "0.1 mm; fails: wrong Boolean verdict (beyond 1e-6 m of contact) or no answer; cert: references\n"
           "outside our certified [lower, upper].\n",
           o->runs);
    for (int f = 0; f < FAM_COUNT; ++f) {
        if (!bench_family_selected((bench_family)f, o))
            continue;
        /* one stream per family: --family reproduces the full run's problems */
        or_rng rng = or_rng_make(o->seed * 1000003u + (uint64_t)f);
        bench_pool pool;
        double t0 = bench_now_ns();
        if (!bench_pool_make(&pool, (bench_family)f, bench_pool_size((bench_family)f, o), &rng)) {
            bench_pool_free(&pool);
            continue;
        }
        bench_set sets[CAT_COUNT];
        int ok = 1;
        for (int c = 0; c < CAT_COUNT && ok; ++c)
            ok = bench_set_make(&sets[c], &pool, (bench_category)c, o->pairs, &rng, o->quick ? 5 : 25, 0);
        if (!ok) {
            bench_pool_free(&pool);
            continue;
        }
        printf("\n### %s: %d shapes", bench_family_name((bench_family)f), pool.count);
        if (pool.hulls)
            printf(" (hull vertices %d..%d, mean %.1f)", pool.min_vertices, pool.max_vertices, pool.mean_vertices);
        double width = 0;
        int resampled = 0, checked = 0, overl = 0;
        double odiff = 0;
        for (int c = 0; c < CAT_COUNT; ++c) {
            width = fmax(width, sets[c].max_width);
            resampled += sets[c].resampled;
            checked += sets[c].oracle_checked;
            odiff = fmax(odiff, sets[c].oracle_max_diff);
            for (int i = 0; i < sets[c].count; ++i)
                overl += sets[c].p[i].overlap;
        }
        printf("; references: separated certified to %.1e m", width);
        if (checked)
            printf(", %d checked against the oracle (max diff %.1e m)", checked, odiff);
        printf(", %d overlaps certified by a common point, %d candidates redrawn; built in %.1f s\n", overl,
               resampled, (bench_now_ns() - t0) * 1e-9);
        for (int c = 0; c < CAT_COUNT; ++c) {
            if (run_set(&sets[c], o, &res[f][c]))
                have[f] = 1;
        }
        printf("ours, per variant:\n");
        for (int c = 0; c < CAT_COUNT; ++c)
            print_ours(&sets[c], &res[f][c], c == 0);
        printf("against the peers (same problems):\n");
        for (int c = 0; c < CAT_COUNT; ++c)
            print_peers(&sets[c], &res[f][c], c == 0);
        fflush(stdout);
        for (int c = 0; c < CAT_COUNT; ++c)
            bench_set_free(&sets[c]);
        bench_pool_free(&pool);
    }
    print_targets(res, have);
}
