/* mk_bench section "support": hull support by linear scan vs hill-climbing, to
 * place MK_HULL_LINEAR_SCAN_MAX (shape.h) at the measured crossover.
 *
 * Hulls of N points on random ellipsoids (every point a vertex). Three views:
 *   per call, random directions: linear scan vs climbing cold (from the hull's table of
 *     extreme vertices, hint -1)
 *     and from the previous answer (a hint that says nothing);
 *   per call, a random walk of directions (steps of about 17 degrees) with the
 *     previous answer as hint: what a GJK query asks of the support function;
 *   in situ: whole GJK distance queries (default settings, 1 cm apart) on user
 *     shapes wrapping the same hulls with a linear or a climbing support
 *     callback (hint reset to -1 before each query, as a cold query),
 *     next to the built-in hull shape (which switches at MK_HULL_LINEAR_SCAN_MAX). */
#include "bench_c.h"

#include <stdlib.h>
#include <string.h>

static const int sizes[] = {8, 12, 16, 20, 24, 32, 40, 48, 64, 96, 128, 192, 256};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

/* ------------------------------------------------------------ per-call timing */

typedef struct dir_seq {
    int n;
    mk_vec3 *d;
} dir_seq;

static double time_linear(const mk_hull *h, const dir_seq *s)
{
    int acc = 0;
    double t0 = bench_now_ns();
    for (int k = 0; k < s->n; ++k)
        acc += mk_hull_support_linear(h, s->d[k]);
    double t1 = bench_now_ns();
    bench_sink += acc;
    return (t1 - t0) / s->n;
}

static double time_climb(const mk_hull *h, const dir_seq *s, int warm)
{
    int acc = 0, hint = -1;
    double t0 = bench_now_ns();
    for (int k = 0; k < s->n; ++k) {
        int v = mk_hull_support_climb(h, s->d[k], warm ? hint : -1);
        hint = v;
        acc += v;
    }
    double t1 = bench_now_ns();
    bench_sink += acc;
    return (t1 - t0) / s->n;
}

static void random_dirs(dir_seq *s, or_rng *rng)
{
    for (int k = 0; k < s->n; ++k)
        s->d[k] = or_unit(rng);
}

static void walk_dirs(dir_seq *s, or_rng *rng)
{
    mk_vec3 d = or_unit(rng);
    for (int k = 0; k < s->n; ++k) {
        s->d[k] = d;
        d = b3_madd(d, 0.3, or_unit(rng));
        d = b3_scale(d, 1 / b3_len(d));
    }
}

/* ------------------------------------------------------------ in situ: user-shape hulls */

typedef struct user_hull {
    const mk_hull *h;
    int hint;
} user_hull;

static mk_vec3 support_linear(const void *data, mk_vec3 d)
{
    const user_hull *u = data;
    return u->h->vertices[mk_hull_support_linear(u->h, d)];
}

static mk_vec3 support_climb(const void *data, mk_vec3 d)
{
    user_hull *u = (user_hull *)data; /* our own mutable object: the hint is scratch */
    u->hint = mk_hull_support_climb(u->h, d, u->hint);
    return u->h->vertices[u->hint];
}

typedef struct situ_ctx {
    int n;
    mk_pair *pairs;  /* over user shapes (or the set's own hull shapes when native) */
    mk_shape *shapes;
    user_hull *objs; /* 2 per problem */
    mk_gjk_settings st;
} situ_ctx;

static void *situ_make(const bench_set *set, const void *param)
{
    const int mode = *(const int *)param; /* 0 native, 1 linear, 2 climb */
    situ_ctx *x = calloc(1, sizeof *x);
    int n = set->count;
    x->n = n;
    x->pairs = malloc(sizeof *x->pairs * (size_t)n);
    x->shapes = malloc(sizeof *x->shapes * 2 * (size_t)n);
    x->objs = malloc(sizeof *x->objs * 2 * (size_t)n);
    x->st = mk_gjk_default_settings();
    for (int i = 0; i < n; ++i) {
        x->pairs[i] = set->p[i].pair;
        if (mode == 0)
            continue;
        for (int k = 0; k < 2; ++k) {
            const mk_shape *s = k ? set->p[i].pair.b : set->p[i].pair.a;
            const mk_hull *h = s->u.hull.hull;
            user_hull *u = &x->objs[2 * i + k];
            u->h = h;
            u->hint = -1;
            mk_shape_user(&x->shapes[2 * i + k], mode == 1 ? support_linear : support_climb, u, h->aabb_min,
                          h->aabb_max, 0);
        }
        x->pairs[i].a = &x->shapes[2 * i];
        x->pairs[i].b = &x->shapes[2 * i + 1];
    }
    return x;
}

static void situ_release(void *ctx)
{
    situ_ctx *x = ctx;
    free(x->pairs);
    free(x->shapes);
    free(x->objs);
    free(x);
}

static double situ_run(void *ctx, int i)
{
    situ_ctx *x = ctx;
    x->objs[2 * i].hint = -1;
    x->objs[2 * i + 1].hint = -1;
    mk_gjk_result r;
    mk_gjk_distance(&x->pairs[i], &x->st, NULL, &r);
    return r.distance;
}

static void situ_answer(void *ctx, int i, bench_answer *out)
{
    situ_ctx *x = ctx;
    x->objs[2 * i].hint = -1;
    x->objs[2 * i + 1].hint = -1;
    mk_gjk_result r;
    mk_status s = mk_gjk_distance(&x->pairs[i], &x->st, NULL, &r);
    out->ok = s == MK_GJK_SEPARATED;
    out->distance = r.distance;
    out->iterations = r.iterations;
}

static const bench_query situ_query = {"gjk in situ", BENCH_DISTANCE, situ_make, situ_release, situ_run,
                                       situ_answer, NULL};

/* ------------------------------------------------------------ the section */

static int make_hull_pool(bench_pool *pool, int npts, int count, or_rng *rng)
{
    memset(pool, 0, sizeof *pool);
    pool->fam = FAM_HULL12; /* only used in messages */
    pool->shapes = calloc((size_t)count, sizeof *pool->shapes);
    pool->hulls = calloc((size_t)count, sizeof *pool->hulls);
    mk_vec3 *pts = malloc(sizeof *pts * (size_t)npts);
    for (int i = 0; i < count; ++i) {
        mk_vec3 ax = b3(or_uniform(rng, 0.1, 0.5), or_uniform(rng, 0.1, 0.5), or_uniform(rng, 0.1, 0.5));
        for (int k = 0; k < npts; ++k) {
            mk_vec3 u = or_unit(rng);
            pts[k] = b3(ax.x * u.x, ax.y * u.y, ax.z * u.z);
        }
        if (mk_hull_create(pts, npts, &pool->hulls[i]) != MK_OK ||
            mk_shape_hull(&pool->shapes[i], pool->hulls[i], 0) != MK_OK) {
            free(pts);
            return 0;
        }
        pool->count = i + 1;
    }
    free(pts);
    return 1;
}

void section_support(const bench_opts *o)
{
    const int nhulls = o->quick ? 4 : 16, ndirs = o->quick ? 2000 : 20000;
    const int nprob = o->quick ? 32 : 1000;
    or_rng rng = or_rng_make(o->seed + 7);
    printf("\n== Section support: hull support, linear scan vs hill-climbing (MK_HULL_LINEAR_SCAN_MAX is %d) ==\n",
           MK_HULL_LINEAR_SCAN_MAX);
    printf("%d hulls of N points on random ellipsoids per size; per call: median over hulls of the median over %d "
           "runs of %d calls;\n"
           "in situ: median ns of a default (nesterov) GJK distance query, 1 cm apart, %d problems.\n",
           nhulls, o->runs, ndirs, nprob);
    printf("  %5s %6s | %8s %8s %8s | %8s %8s %6s | %8s %8s %8s %6s\n", "N", "verts", "linear", "cold", "rand+h",
           "walk lin", "walk+h", "climb", "GJK lin", "GJK clmb", "GJK nat", "iters");
    printf("  %5s %6s | %26s | %24s | %33s\n", "", "", "random directions, ns/call", "GJK-like walk, ns/call",
           "in situ, ns/query");
    dir_seq rs = {ndirs, malloc(sizeof(mk_vec3) * (size_t)ndirs)}, ws = {ndirs, malloc(sizeof(mk_vec3) * (size_t)ndirs)};
    int cross_walk = -1, cross_situ = -1, last_lin_walk = -1, last_lin_situ = -1;
    for (int si = 0; si < NSIZES; ++si) {
        int npts = sizes[si];
        bench_pool pool;
        if (!make_hull_pool(&pool, npts, nhulls, &rng)) {
            printf("  %5d: hull construction failed\n", npts);
            bench_pool_free(&pool);
            continue;
        }
        double vsum = 0;
        double *lin = malloc(sizeof(double) * (size_t)nhulls * 5), *cold = lin + nhulls, *rwarm = cold + nhulls,
               *wlin = rwarm + nhulls, *wwarm = wlin + nhulls;
        double runs_buf[5][64];
        for (int h = 0; h < nhulls; ++h) {
            const mk_hull *hull = pool.hulls[h];
            vsum += hull->num_vertices;
            random_dirs(&rs, &rng);
            walk_dirs(&ws, &rng);
            for (int r = 0; r < o->runs && r < 64; ++r) {
                runs_buf[0][r] = time_linear(hull, &rs);
                runs_buf[1][r] = time_climb(hull, &rs, 0);
                runs_buf[2][r] = time_climb(hull, &rs, 1);
                runs_buf[3][r] = time_linear(hull, &ws);
                runs_buf[4][r] = time_climb(hull, &ws, 1);
            }
            int nr = o->runs < 64 ? o->runs : 64;
            lin[h] = bench_median(runs_buf[0], nr);
            cold[h] = bench_median(runs_buf[1], nr);
            rwarm[h] = bench_median(runs_buf[2], nr);
            wlin[h] = bench_median(runs_buf[3], nr);
            wwarm[h] = bench_median(runs_buf[4], nr);
        }
        double m_lin = bench_median(lin, nhulls), m_cold = bench_median(cold, nhulls),
               m_rw = bench_median(rwarm, nhulls), m_wl = bench_median(wlin, nhulls),
               m_ww = bench_median(wwarm, nhulls);
        free(lin);

        /* in situ */
        bench_set set;
        double g[3] = {NAN, NAN, NAN}, iters = NAN;
        if (bench_set_make(&set, &pool, CAT_SEP_1CM, nprob, &rng, 0, 0)) {
            static const int modes[3] = {1, 2, 0};
            const bench_query *qs[3] = {&situ_query, &situ_query, &situ_query};
            void *ctx[3];
            for (int k = 0; k < 3; ++k)
                ctx[k] = situ_make(&set, &modes[k]);
            double *per = malloc(sizeof *per * 3 * (size_t)set.count);
            if (bench_time(qs, ctx, 3, set.count, o->runs, per, NULL))
                for (int k = 0; k < 3; ++k)
                    g[k] = bench_median(&per[(size_t)k * set.count], set.count);
            double *it = malloc(sizeof *it * (size_t)set.count), sd;
            for (int i = 0; i < set.count; ++i) {
                bench_answer a;
                situ_answer(ctx[2], i, &a);
                it[i] = a.iterations;
            }
            bench_mean_std(it, set.count, &iters, &sd);
            free(it);
            free(per);
            for (int k = 0; k < 3; ++k)
                situ_release(ctx[k]);
            bench_set_free(&set);
        }
        printf("  %5d %6.1f | %8.1f %8.1f %8.1f | %8.1f %8.1f %6s | %8.0f %8.0f %8.0f %6.1f\n", npts,
               vsum / nhulls, m_lin, m_cold, m_rw, m_wl, m_ww, m_ww < m_wl ? "faster" : "slower", g[0], g[1], g[2],
               iters);
        fflush(stdout);
        if (m_ww < m_wl && cross_walk < 0)
            cross_walk = npts;
        if (m_ww >= m_wl)
            last_lin_walk = npts;
        if (g[1] < g[0] && cross_situ < 0)
            cross_situ = npts;
        if (g[1] >= g[0])
            last_lin_situ = npts;
        bench_pool_free(&pool);
    }
    free(rs.d);
    free(ws.d);
    printf("crossover, per call on the GJK-like walk: climbing first faster at N = %d (linear last faster at N = %d)\n",
           cross_walk, last_lin_walk);
    printf("crossover, in situ GJK queries: climbing first faster at N = %d (linear last faster at N = %d)\n",
           cross_situ, last_lin_situ);
}
