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

/* ------------------------------------------------------------ work per query */

#ifdef MK_BENCH_HAVE_EPA
#include <minkowski/collide.h>
#include <minkowski/epa.h>

/* Where a signed distance's time goes (issue 3's speed target): the support
 * calls each library makes per query, counted through the same support
 * function (libccd's callback is ours: peer_ccd.c), and what ours' GJK phase
 * and one support pair cost on their own. Ours is counted through user shapes
 * wrapping the problem's shapes (the queries' own requests; the hull start
 * tables' shortcut that EPA takes for a hull is off there, which moves its
 * iteration count by about 1%). */

typedef struct counted_shape {
    const mk_shape *s;
    int hint;
    long *calls;
} counted_shape;

static mk_vec3 counted_support(const void *data, mk_vec3 d)
{
    counted_shape *c = (counted_shape *)data; /* our own non-const object: the hint is scratch */
    ++*c->calls;
    return mk_shape_support(c->s, d, &c->hint);
}

/* s behind a counting user shape; its bounds are the core's extreme points
 * along the axes (uncounted). */
static int counting_shape(const mk_shape *s, long *calls, counted_shape *c, mk_shape *out)
{
    c->s = s;
    c->hint = -1;
    c->calls = calls;
    int h = -1;
    mk_vec3 lo = b3(mk_shape_support(s, b3(-1, 0, 0), &h).x, mk_shape_support(s, b3(0, -1, 0), &h).y,
                    mk_shape_support(s, b3(0, 0, -1), &h).z);
    mk_vec3 hi = b3(mk_shape_support(s, b3(1, 0, 0), &h).x, mk_shape_support(s, b3(0, 1, 0), &h).y,
                    mk_shape_support(s, b3(0, 0, 1), &h).z);
    return mk_shape_user(out, counted_support, c, lo, hi, s->radius) == MK_OK;
}

typedef struct phase_ctx {
    const bench_set *set;
    mk_gjk_settings gjk;
    mk_vec3 *normal; /* ours' answer's normal per problem (world, A to B) */
} phase_ctx;

static void *phase_make(const bench_set *set, const void *param)
{
    (void)param;
    const mk_epa_settings es = mk_epa_default_settings();
    const size_t bytes = mk_epa_workspace_size(es.max_iterations);
    phase_ctx *x = malloc(sizeof *x);
    void *ws = malloc(bytes);
    if (!x || !ws || !(x->normal = malloc(sizeof *x->normal * (size_t)set->count))) {
        free(x);
        free(ws);
        return NULL;
    }
    x->set = set;
    x->gjk = mk_gjk_default_settings();
    for (int i = 0; i < set->count; ++i) {
        mk_signed_distance_result r;
        mk_signed_distance(&set->p[i].pair, NULL, &es, NULL, ws, bytes, &r);
        x->normal[i] = r.normal;
    }
    free(ws);
    return x;
}

static void phase_release(void *ctx)
{
    phase_ctx *x = ctx;
    free(x->normal);
    free(x);
}

/* mk_signed_distance's first stage on its own: GJK at its defaults, to the
 * overlap EPA starts from. */
static double gjk_phase_run(void *ctx, int i)
{
    const phase_ctx *x = ctx;
    mk_gjk_result r;
    mk_gjk_distance(&x->set->p[i].pair, &x->gjk, NULL, &r);
    return r.distance;
}

/* Eight support pairs of D = A - B along directions 0.05 rad around the
 * answer's normal (EPA's last supports lie there), each shape's hint carried
 * from one to the next as EPA carries it: the price of a support pair. */
static double support_pairs_run(void *ctx, int i)
{
    const phase_ctx *x = ctx;
    const mk_pair *p = &x->set->p[i].pair;
    const mk_vec3 n = x->normal[i];
    const mk_vec3 t = fabs(n.x) < 0.6 ? b3(1, 0, 0) : b3(0, 1, 0);
    mk_vec3 t1 = b3_madd(t, -b3_dot(t, n), n);
    t1 = b3_scale(t1, 1 / b3_len(t1));
    const mk_vec3 t2 = b3(n.y * t1.z - n.z * t1.y, n.z * t1.x - n.x * t1.z, n.x * t1.y - n.y * t1.x);
    int ha = -1, hb = -1;
    double acc = 0;
    for (int k = 0; k < 8; ++k) {
        const double a = 0.78539816339744831 * k;
        const mk_vec3 d = b3_madd(b3_madd(n, 0.05 * cos(a), t1), 0.05 * sin(a), t2);
        const mk_mat3 *ra = &p->xf_a.R, *rb = &p->xf_b.R;
        const mk_vec3 da = b3(ra->m[0][0] * d.x + ra->m[1][0] * d.y + ra->m[2][0] * d.z,
                              ra->m[0][1] * d.x + ra->m[1][1] * d.y + ra->m[2][1] * d.z,
                              ra->m[0][2] * d.x + ra->m[1][2] * d.y + ra->m[2][2] * d.z);
        const mk_vec3 db = b3(-(rb->m[0][0] * d.x + rb->m[1][0] * d.y + rb->m[2][0] * d.z),
                              -(rb->m[0][1] * d.x + rb->m[1][1] * d.y + rb->m[2][1] * d.z),
                              -(rb->m[0][2] * d.x + rb->m[1][2] * d.y + rb->m[2][2] * d.z));
        acc += mk_shape_support(p->a, da, &ha).x + mk_shape_support(p->b, db, &hb).x;
    }
    return acc;
}

static const bench_query gjk_phase = {"GJK phase", BENCH_PENETRATION, phase_make, phase_release, gjk_phase_run,
                                      NULL, NULL};
static const bench_query support_pairs = {"8 support pairs", BENCH_PENETRATION, phase_make, phase_release,
                                          support_pairs_run, NULL, NULL};

static void work_per_query(const bench_set *set, const bench_opts *o)
{
    const int n = set->count;
    long calls = 0, gi = 0, ei = 0;
    const mk_epa_settings es = mk_epa_default_settings();
    const size_t bytes = mk_epa_workspace_size(es.max_iterations);
    void *ws = malloc(bytes);
    if (!ws)
        return;
    for (int i = 0; i < n; ++i) {
        counted_shape ca, cb;
        mk_shape ua, ub;
        if (!counting_shape(set->p[i].pair.a, &calls, &ca, &ua) || !counting_shape(set->p[i].pair.b, &calls, &cb, &ub))
            continue;
        const mk_pair q = {&ua, set->p[i].pair.xf_a, &ub, set->p[i].pair.xf_b};
        mk_signed_distance_result r;
        mk_signed_distance(&q, NULL, &es, NULL, ws, bytes, &r);
        gi += r.gjk_iterations;
        ei += r.epa_iterations;
    }
    free(ws);
    char peer[64] = "";
#ifdef MK_BENCH_HAVE_CCD
    void *cx = peer_ccd_gjk_pen.make(set, peer_ccd_gjk_pen.param);
    if (cx) {
        const long before = peer_ccd_support_calls;
        for (int i = 0; i < n; ++i)
            peer_ccd_gjk_pen.run(cx, i);
        snprintf(peer, sizeof peer, ", libccd GJK+EPA %.1f", (double)(peer_ccd_support_calls - before) / n);
        peer_ccd_gjk_pen.release(cx);
    }
#endif
    const bench_query *q[2] = {&gjk_phase, &support_pairs};
    void *ctx[2] = {phase_make(set, NULL), phase_make(set, NULL)};
    double *per = malloc(sizeof *per * 2 * (size_t)n), sweep[2];
    if (ctx[0] && ctx[1] && per && bench_time(q, ctx, 2, n, o->runs, per, sweep))
        printf("  %-12s %-16s work per query: support calls, ours %.1f (GJK %.2f + EPA %.2f iterations)%s;\n"
               "  %-12s %-16s ours' GJK phase alone %.0f ns, one support pair %.0f ns (medians): ours'\n"
               "  %-12s %-16s support calls alone take ~%.0f ns\n",
               "", "", (double)calls / n, (double)gi / n, (double)ei / n, peer, "", "", bench_median(per, n),
               bench_median(per + n, n) / 8, "", "", 0.5 * (double)calls / n * bench_median(per + n, n) / 8);
    free(per);
    for (int k = 0; k < 2; ++k)
        if (ctx[k])
            phase_release(ctx[k]);
}
#endif

/* ------------------------------------------------------------ hostile curved pairs */

/* Deep pairs of curved shapes whose nearest boundary is nearly the nearest in
 * a whole ring or cone of directions, with analytic depths (D is then a body
 * of revolution, or the sphere's centre sits at an ellipsoid's centre):
 *   coaxial cylinders   one axis, centres 0 or up to 1e-3 x the smaller
 *                       radius apart across it, up to a tenth of the smaller
 *                       half height along it: depth = min(rA + rB - rho,
 *                       hA + hB - |z|);
 *   sphere in cylinder  the sphere's centre placed so about the cylinder's:
 *                       depth = min(r - rho, h - |z|) + r_sphere;
 *   sphere in ellipsoid an ellipsoid within 1% of a sphere, the sphere's
 *                       centre at its centre: depth = e_min + r_sphere.
 * Ours answers the first two from the pair's meridian section and the third
 * from the centre's distance to the surface (MK_EPA_FLAG_CLOSED_FORM); EPA
 * alone ended such pairs at its 128 iterations. */
enum { HOSTILE_KINDS = 3 };
static const char *const hostile_names[HOSTILE_KINDS] = {"coaxial cyl.", "sphere in cyl.", "sphere in ell."};

static int hostile_set(int kind, int n, or_rng *rng, bench_pool *pool, bench_set *set)
{
    memset(pool, 0, sizeof *pool);
    memset(set, 0, sizeof *set);
    pool->fam = FAM_COUNT;
    pool->count = 2 * n;
    pool->shapes = calloc((size_t)pool->count, sizeof *pool->shapes);
    set->p = calloc((size_t)n, sizeof *set->p);
    if (!pool->shapes || !set->p)
        return 0;
    set->pool = pool;
    set->cat = CAT_OVERLAP;
    set->count = n;
    for (int i = 0; i < n; ++i) {
        mk_shape *a = &pool->shapes[2 * i], *b = &pool->shapes[2 * i + 1];
        const mk_transform xa = or_pose(rng, or_in_ball(rng, 1));
        const mk_vec3 c0 = b3(xa.R.m[0][0], xa.R.m[1][0], xa.R.m[2][0]);
        const mk_vec3 c1 = b3(xa.R.m[0][1], xa.R.m[1][1], xa.R.m[2][1]);
        const mk_vec3 u = b3(xa.R.m[0][2], xa.R.m[1][2], xa.R.m[2][2]);
        /* B turned about A's axis: the same z column, bit for bit */
        const double phi = or_uniform(rng, 0, 6.283185307179586), cs = cos(phi), sn = sin(phi);
        mk_transform xb = xa;
        const mk_vec3 b0 = b3_add(b3_scale(c0, cs), b3_scale(c1, sn)), b1 = b3_add(b3_scale(c0, -sn), b3_scale(c1, cs));
        xb.R.m[0][0] = b0.x, xb.R.m[1][0] = b0.y, xb.R.m[2][0] = b0.z;
        xb.R.m[0][1] = b1.x, xb.R.m[1][1] = b1.y, xb.R.m[2][1] = b1.z;
        double depth = 0, rho = 0, z = 0;
        if (kind < 2) {
            const double r = or_uniform(rng, 0.1, 1), h = or_uniform(rng, 0.1, 1);
            mk_shape_cylinder(a, r, h, 0);
            double rmin = r, hmin = h;
            if (kind == 0) {
                const double r2 = or_uniform(rng, 0.1, 1), h2 = or_uniform(rng, 0.1, 1);
                mk_shape_cylinder(b, r2, h2, 0);
                rmin = fmin(r, r2);
                hmin = fmin(h, h2);
            } else {
                mk_shape_sphere(b, or_uniform(rng, 0.05, 0.5));
            }
            rho = i % 2 ? 0 : or_uniform(rng, 0, 1e-3) * rmin;
            z = or_uniform(rng, -0.1, 0.1) * hmin;
            depth = kind == 0 ? fmin(r + b->u.cylinder.radius - rho, h + b->u.cylinder.half_height - fabs(z))
                              : fmin(r - rho, h - fabs(z)) + b->radius;
        } else {
            const double base = or_uniform(rng, 0.1, 1);
            const mk_vec3 e = b3(base * or_uniform(rng, 1, 1.01), base * or_uniform(rng, 1, 1.01),
                                 base * or_uniform(rng, 1, 1.01));
            mk_shape_ellipsoid(a, e);
            mk_shape_sphere(b, or_uniform(rng, 0.05, 0.5));
            depth = fmin(e.x, fmin(e.y, e.z)) + b->radius;
        }
        xb.p = b3_add(xa.p, b3_add(b3_scale(c0, rho), b3_scale(u, z)));
        bench_problem *p = &set->p[i];
        p->ia = 2 * i;
        p->ib = 2 * i + 1;
        p->pair = (mk_pair){a, xa, b, xb};
        p->target = p->ref = -depth;
        p->ref_width = 0;
        p->overlap = 1;
        p->depth_exact = 1;
        p->axis = c0;
    }
    return 1;
}

static void hostile_pairs(const bench_opts *o, const bench_query *const *qs, int nq, int ours)
{
    printf("\n-- hostile curved pairs (deep, nearest boundary nearly the same in a ring or cone of directions;\n"
           "   analytic depths), %d problems each --\n",
           o->pairs);
    printf("  %-15s %-24s %8s %8s %11s %8s %8s %6s %5s\n", "pairs", "library", "med ns", "sweep ns",
           "ours/theirs", "max|err|", "med|err|", ">1e-4", "fails");
    for (int kind = 0; kind < HOSTILE_KINDS; ++kind) {
        or_rng rng = or_rng_make(o->seed * 1000003u + 900u + (uint64_t)kind);
        bench_pool pool;
        bench_set set;
        pen_stats st[MAX_PEN_QUERIES];
        if (hostile_set(kind, o->pairs, &rng, &pool, &set) && run_set(&set, o, qs, nq, st)) {
            for (int k = 0; k < nq; ++k) {
                char e1[16], e2[16], ratio[16];
                if (!st[k].available) {
                    printf("  %-15s %-24s (not available for these shapes)\n", k == 0 ? hostile_names[kind] : "",
                           st[k].name);
                    continue;
                }
                if (ours >= 0)
                    snprintf(ratio, sizeof ratio, "%.3f", st[ours].med_ns / st[k].med_ns);
                else
                    snprintf(ratio, sizeof ratio, "-");
                printf("  %-15s %-24s %8.0f %8.0f %11s %8s %8s %6d %5d\n", k == 0 ? hostile_names[kind] : "",
                       st[k].name, st[k].med_ns, st[k].sweep_ns, ratio, fmt_err(st[k].max_err, e1, sizeof e1),
                       fmt_err(st[k].med_err, e2, sizeof e2), st[k].large_err, st[k].fails);
            }
        }
        fflush(stdout);
        free(set.p);
        free(pool.shapes);
    }
}

/* ------------------------------------------------------------ deep curved pairs */

#ifdef MK_BENCH_HAVE_EPA
/* Where EPA's iteration bound matters: random deep pairs of spheres,
 * capsules, cylinders, cones, ellipsoids and boxes, sizes 0.2-1.2 m (a third
 * of them 1e-3 m thin in one dimension: discs, needles, pancakes), random
 * orientations, centres within 5 cm of each other (every other pair on one
 * point). Ours only, at max_iterations 128 (the default), the most
 * mk_collide's stack workspace holds (329 today), 512 and 2048: the
 * pairs that end at the bound (MK_EPA_MAX_ITER, with the bracket so far),
 * their widest bracket, the mean iterations and the median time per query
 * (one call per pair, each timed on its own, the clock's cost included). */
static void deep_shape(or_rng *r, int kind, mk_shape *s)
{
    const double a = or_uniform(r, 0.2, 1.2), c = or_uniform(r, 0.2, 1.2);
    const double b = or_uniform(r, 0, 1) < 1.0 / 3 ? 1e-3 : or_uniform(r, 0.2, 1.2);
    switch (kind) {
    case 0: mk_shape_sphere(s, a); break;
    case 1: mk_shape_capsule(s, a, b); break;
    case 2: mk_shape_cylinder(s, a, b, 0); break;
    case 3: mk_shape_cone(s, a, b, 0); break;
    case 4: mk_shape_ellipsoid(s, b3(a, b, c)); break;
    default: mk_shape_box(s, b3(a, b, c), 0); break;
    }
}

static void deep_pairs(const bench_opts *o)
{
    const int n = o->quick ? 600 : 12000;
    int budgets[4] = {128, 128, 512, 2048};
    while (mk_epa_workspace_size(budgets[1] + 1) <= MK_COLLIDE_WORKSPACE_BYTES) /* the most mk_collide's workspace holds */
        ++budgets[1];
    const size_t bytes = mk_epa_workspace_size(budgets[3]);
    void *ws = malloc(bytes);
    mk_shape *sh = malloc(sizeof *sh * 2 * (size_t)n);
    mk_transform *xf = malloc(sizeof *xf * 2 * (size_t)n);
    double *ns = malloc(sizeof *ns * (size_t)n);
    if (!ws || !sh || !xf || !ns) {
        free(ws), free(sh), free(xf), free(ns);
        return;
    }
    or_rng rng = or_rng_make(o->seed * 1000003u + 950u);
    for (int i = 0; i < n; ++i) {
        deep_shape(&rng, (int)(or_uniform(&rng, 0, 6)), &sh[2 * i]);
        deep_shape(&rng, (int)(or_uniform(&rng, 0, 6)), &sh[2 * i + 1]);
        xf[2 * i] = or_pose(&rng, or_in_ball(&rng, 1));
        xf[2 * i + 1] = or_pose(&rng, i % 2 ? xf[2 * i].p : b3_add(xf[2 * i].p, or_in_ball(&rng, 0.05)));
    }
    printf("\n-- deep curved pairs: %d random pairs (spheres, capsules, cylinders, cones, ellipsoids, boxes;\n"
           "   0.2-1.2 m, a third 1 mm thin in one dimension; centres within 5 cm), ours by EPA's iteration bound --\n",
           n);
    printf("  %-14s %10s %12s %14s %12s %8s\n", "max_iterations", "overlapping", "at the bound", "widest bracket",
           "mean iters", "med ns");
    for (int k = 0; k < 4; ++k) {
        mk_epa_settings es = mk_epa_default_settings();
        es.max_iterations = budgets[k];
        int over = 0, bound = 0;
        long iters = 0;
        double widest = 0;
        for (int i = 0; i < n; ++i) {
            const mk_pair p = {&sh[2 * i], xf[2 * i], &sh[2 * i + 1], xf[2 * i + 1]};
            mk_signed_distance_result r;
            const double t0 = bench_now_ns();
            const mk_status st = mk_signed_distance(&p, NULL, &es, NULL, ws, bytes, &r);
            ns[i] = bench_now_ns() - t0;
            over += r.distance < 0;
            iters += r.epa_iterations;
            if (st == MK_EPA_MAX_ITER || st == MK_EPA_FACE_BUDGET) {
                ++bound;
                widest = fmax(widest, r.upper_bound - r.lower_bound);
            }
        }
        printf("  %-14d %10d %12d %14.1e %12.1f %8.0f\n", budgets[k], over, bound, widest, (double)iters / n,
               bench_median(ns, n));
    }
    fflush(stdout);
    free(ws), free(sh), free(xf), free(ns);
}
#endif

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
#ifdef MK_BENCH_HAVE_EPA
                /* not for ellipsoids: behind the counting user shapes they are
                 * no longer ellipsoids, and ours would not take their inner
                 * cores (MK_EPA_FLAG_INNER_CORES) as it does in the rows */
                if (mine && f != FAM_ELLIPSOID)
                    work_per_query(&set, o);
#endif
            }
            fflush(stdout);
            bench_set_free(&set);
        }
        bench_pool_free(&pool);
    }
    if (!o->family) {
        hostile_pairs(o, qs, nq, ours);
#ifdef MK_BENCH_HAVE_EPA
        if (mine)
            deep_pairs(o);
#endif
    }
}
