/* mk_bench section "ray": mk_ray_cast (ray.h) against the exact entry of each
 * ray, beside ODE's rays (dRay against a dBox, or a dConvex of the same hull)
 * and Bullet's ray test against a convex shape (float64:
 * btSubsimplexConvexCast of a point, what btCollisionWorld::rayTestSingle
 * runs for convex shapes), same rays, same run.
 *
 * Rays: each shape of the family's pool at a random pose; origins 2-5 times
 * the shape's reach from it, aimed at a random point within 0.8 reach (3 in
 * 4: mostly hits) or anywhere (mostly misses); length 10 reaches. Exact
 * entries: ellipsoids the unit sphere in scaled coordinates, boxes their
 * slabs, hulls the planes of their faces. Columns:
 * median ns per ray over the runs (hits and misses together); |t err|: the
 * distance along the ray to the exact entry, max and median over the hits;
 * wrong: hit/miss verdicts that differ from the exact one by more than
 * 1e-6 of the reach (rays grazing within that are not counted). */
#include "bench_c.h"

#include <minkowski/ray.h>

#include <stdlib.h>
#include <string.h>

typedef struct ray_case {
    int shape;
    mk_transform xf;
    mk_vec3 o, u; /* origin, unit direction */
    double len;
    double t_exact; /* NAN: a miss */
    double graze;   /* how near the exact answer is to changing (the miss's clearance or the chord's depth) */
} ray_case;

static double reach_of(const mk_shape *s)
{
    mk_vec3 lo, hi;
    mk_shape_local_aabb(s, &lo, &hi);
    return b3_len(b3(fmax(fabs(lo.x), fabs(hi.x)), fmax(fabs(lo.y), fabs(hi.y)), fmax(fabs(lo.z), fabs(hi.z))));
}

/* Entry and exit of the local ray q + t e through a convex set given by its
 * planes n.x <= d (slabs, faces); returns 1 with [t0, t1] when it crosses. */
static int planes_interval(const mk_vec3 *n, const double *d, int m, mk_vec3 q, mk_vec3 e, double *t0, double *t1)
{
    double lo = -INFINITY, hi = INFINITY;
    for (int k = 0; k < m; ++k) {
        const double a = b3_dot(n[k], e), b = d[k] - b3_dot(n[k], q);
        if (a == 0) {
            if (b < 0)
                return 0;
            continue;
        }
        const double t = b / a;
        if (a < 0)
            lo = fmax(lo, t);
        else
            hi = fmin(hi, t);
    }
    *t0 = lo, *t1 = hi;
    return lo <= hi;
}

/* The exact entry (NAN: none within [0, len]) and its graze margin. */
static void exact_entry(const mk_shape *s, ray_case *c)
{
    const mk_mat3 *R = &c->xf.R;
    const mk_vec3 dq = b3_sub(c->o, c->xf.p);
    const mk_vec3 q = b3(R->m[0][0] * dq.x + R->m[1][0] * dq.y + R->m[2][0] * dq.z,
                         R->m[0][1] * dq.x + R->m[1][1] * dq.y + R->m[2][1] * dq.z,
                         R->m[0][2] * dq.x + R->m[1][2] * dq.y + R->m[2][2] * dq.z);
    const mk_vec3 e = b3(R->m[0][0] * c->u.x + R->m[1][0] * c->u.y + R->m[2][0] * c->u.z,
                         R->m[0][1] * c->u.x + R->m[1][1] * c->u.y + R->m[2][1] * c->u.z,
                         R->m[0][2] * c->u.x + R->m[1][2] * c->u.y + R->m[2][2] * c->u.z);
    double t0 = NAN, t1 = NAN;
    int cross = 0;
    if (s->type == MK_SHAPE_ELLIPSOID) {
        const mk_vec3 r = s->u.ellipsoid.radii;
        const mk_vec3 qs = b3(q.x / r.x, q.y / r.y, q.z / r.z), es = b3(e.x / r.x, e.y / r.y, e.z / r.z);
        const double A = b3_dot(es, es), B = b3_dot(qs, es), C = b3_dot(qs, qs) - 1, disc = B * B - A * C;
        cross = disc >= 0;
        if (cross)
            t0 = (-B - sqrt(disc)) / A, t1 = (-B + sqrt(disc)) / A;
        c->graze = fabs(disc) / A; /* squared half chord (scaled), a proxy */
    } else {
        const int cap = s->type == MK_SHAPE_HULL ? s->u.hull.hull->num_faces : 6;
        mk_vec3 *n = malloc(sizeof *n * (size_t)cap);
        double *d = malloc(sizeof *d * (size_t)cap);
        int m = 0;
        if (s->type == MK_SHAPE_BOX) {
            const mk_vec3 h = s->u.box.half_extents;
            const double hh[3] = {h.x, h.y, h.z};
            for (int a = 0; a < 3; ++a)
                for (int sg = -1; sg <= 1; sg += 2) {
                    n[m] = b3(a == 0 ? sg : 0, a == 1 ? sg : 0, a == 2 ? sg : 0);
                    d[m++] = hh[a];
                }
        } else { /* the hull's faces (Qhull's planes, through their vertices) */
            const mk_hull *h = s->u.hull.hull;
            for (int f = 0; f < h->num_faces; ++f) {
                n[m] = h->face_normals[f];
                double dmax = -INFINITY;
                for (int k = h->face_start[f]; k < h->face_start[f + 1]; ++k)
                    dmax = fmax(dmax, b3_dot(n[m], h->vertices[h->face_vertices[k]]));
                d[m++] = dmax;
            }
        }
        cross = planes_interval(n, d, m, q, e, &t0, &t1);
        c->graze = cross ? t1 - t0 : 0;
        free(n), free(d);
    }
    c->t_exact = NAN;
    if (cross && t1 >= 0 && t0 >= 0 && t0 <= c->len)
        c->t_exact = t0;
}

static void make_cases(const bench_pool *pool, int n, or_rng *rng, ray_case *cs)
{
    for (int i = 0; i < n; ++i) {
        ray_case *c = &cs[i];
        c->shape = i % pool->count;
        const mk_shape *s = &pool->shapes[c->shape];
        const double reach = reach_of(s);
        c->xf = or_pose(rng, b3(or_uniform(rng, -1, 1), or_uniform(rng, -1, 1), or_uniform(rng, -1, 1)));
        c->o = b3_madd(c->xf.p, reach * or_uniform(rng, 2, 5), or_unit(rng));
        mk_vec3 d = or_int(rng, 4) ? b3_sub(b3_madd(c->xf.p, reach * or_uniform(rng, 0, 0.8), or_unit(rng)), c->o)
                                   : or_unit(rng);
        c->u = b3_scale(d, 1 / b3_len(d));
        c->len = 10 * reach;
        exact_entry(s, c);
    }
}

static double time_ours(const bench_pool *pool, const ray_case *cs, int n, int runs)
{
    double *per = malloc(sizeof *per * (size_t)runs);
    for (int r = 0; r < runs; ++r) {
        double acc = 0;
        const double t0 = bench_now_ns();
        for (int i = 0; i < n; ++i) {
            mk_ray_result res;
            mk_ray_cast(&pool->shapes[cs[i].shape], &cs[i].xf, cs[i].o, cs[i].u, cs[i].len, NULL, &res);
            acc += res.t;
        }
        per[r] = (bench_now_ns() - t0 - bench_clock_overhead_ns()) / n;
        bench_sink += acc;
    }
    const double m = bench_median(per, runs);
    free(per);
    return m;
}

/* One library's accuracy: t errors over the exact hits, wrong verdicts. */
typedef struct ray_acc {
    double max_err, med_err;
    int wrong, hits, graze_skipped;
    double mean_iter;
} ray_acc;

static void tally(const ray_case *cs, int n, const double *t, const int *hit, const double *reach, ray_acc *a)
{
    double *err = malloc(sizeof *err * (size_t)n);
    int ne = 0;
    a->wrong = a->hits = a->graze_skipped = 0;
    for (int i = 0; i < n; ++i) {
        const int exact_hit = !isnan(cs[i].t_exact);
        if (cs[i].graze < 1e-6 * reach[i] && hit[i] != exact_hit) {
            ++a->graze_skipped;
            continue;
        }
        if (hit[i] != exact_hit) {
            ++a->wrong;
            continue;
        }
        if (exact_hit) {
            err[ne++] = fabs(t[i] - cs[i].t_exact);
            ++a->hits;
        }
    }
    a->max_err = ne ? bench_max(err, ne) : NAN;
    a->med_err = ne ? bench_median(err, ne) : NAN;
    free(err);
}

#if defined(MK_BENCH_HAVE_ODE) || defined(MK_BENCH_HAVE_BULLET)
/* One peer's ray, i-th case: 1 with *t on a hit. */
typedef int (*peer_cast)(void *ctx, int i, const ray_case *c, double *t);

#ifdef MK_BENCH_HAVE_ODE
static int ode_cast(void *ctx, int i, const ray_case *c, double *t) { return peer_ode_ray(ctx, i, c->o, c->u, c->len, t); }
#endif
#ifdef MK_BENCH_HAVE_BULLET
static int bullet_cast(void *ctx, int i, const ray_case *c, double *t)
{
    (void)i;
    return peer_bullet_ray(ctx, c->shape, &c->xf, c->o, c->u, c->len, t);
}
#endif

/* A peer's row: its verdicts and t against the exact ones, then its median
 * time per ray over the runs, beside ours (ns_ours). */
static void peer_row(const char *name, void *ctx, peer_cast cast, const ray_case *cs, int n, const double *reach,
                     int runs, double ns_ours)
{
    double *t = malloc(sizeof *t * (size_t)n), *per = malloc(sizeof *per * (size_t)runs);
    int *hit = malloc(sizeof *hit * (size_t)n);
    for (int i = 0; i < n; ++i)
        hit[i] = cast(ctx, i, &cs[i], &t[i]);
    ray_acc a;
    tally(cs, n, t, hit, reach, &a);
    for (int r = 0; r < runs; ++r) {
        double acc = 0, tt;
        const double t0 = bench_now_ns();
        for (int i = 0; i < n; ++i)
            acc += cast(ctx, i, &cs[i], &tt);
        per[r] = (bench_now_ns() - t0 - bench_clock_overhead_ns()) / n;
        bench_sink += acc;
    }
    const double med = bench_median(per, runs);
    printf("  %-10s %-28s %8.0f %10.2g %10.2g %7d %6s   ours/theirs %.2f\n", "", name, med, a.max_err, a.med_err,
           a.wrong, "-", ns_ours / med);
    free(t), free(per), free(hit);
}
#endif

void section_ray(const bench_opts *o)
{
    printf("\n== Section ray: mk_ray_cast against the exact entry; ODE's rays and Bullet's ray test on convex shapes ==\n");
    printf("rays 2-5 reaches out, 3 in 4 aimed inside the shape; ours at its defaults (ellipsoids and\n"
           "boxes: closed forms; hulls: iterations, tolerance 1e-7, the hit within 4e-7 of the surface);\n"
           "ODE: dCollide of a dRay with a dBox or a dConvex of the same hull (its face planes);\n"
           "Bullet: btSubsimplexConvexCast of a point, as\n"
           "btCollisionWorld::rayTestSingle (float64). |t err| over exact hits; wrong: verdicts that differ\n"
           "from the exact one (rays grazing within 1e-6 of the reach not counted).\n");
    printf("  %-10s %-28s %8s %10s %10s %7s %6s\n", "family", "library", "med ns", "max|t err|", "med|t err|",
           "wrong", "iter");
    or_rng rng = or_rng_make(o->seed * 0x9E3779B97F4A7C15ull + 0x7a1);
    for (int f = 0; f < FAM_COUNT; ++f) {
        if (!bench_family_selected((bench_family)f, o))
            continue;
        bench_pool pool;
        if (!bench_pool_make(&pool, (bench_family)f, bench_pool_size((bench_family)f, o), &rng)) {
            printf("  %-10s pool could not be built\n", bench_family_name((bench_family)f));
            continue;
        }
        const int n = o->pairs;
        ray_case *cs = malloc(sizeof *cs * (size_t)n);
        double *t = malloc(sizeof *t * (size_t)n), *reach = malloc(sizeof *reach * (size_t)n);
        int *hit = malloc(sizeof *hit * (size_t)n);
        make_cases(&pool, n, &rng, cs);
        long iters = 0;
        for (int i = 0; i < n; ++i) {
            mk_ray_result res;
            const mk_status st =
                mk_ray_cast(&pool.shapes[cs[i].shape], &cs[i].xf, cs[i].o, cs[i].u, cs[i].len, NULL, &res);
            hit[i] = st == MK_RAY_HIT;
            t[i] = res.t;
            reach[i] = reach_of(&pool.shapes[cs[i].shape]);
            iters += res.iterations;
        }
        ray_acc a;
        tally(cs, n, t, hit, reach, &a);
        const double ns = time_ours(&pool, cs, n, o->runs);
        printf("  %-10s %-28s %8.0f %10.2g %10.2g %7d %6.1f   (%d exact hits of %d)\n",
               bench_family_name((bench_family)f), "minkowski mk_ray_cast", ns, a.max_err, a.med_err, a.wrong,
               (double)iters / n, a.hits, n);
#ifdef MK_BENCH_HAVE_ODE
        {
            int *sh = malloc(sizeof *sh * (size_t)n);
            mk_transform *xfs = malloc(sizeof *xfs * (size_t)n);
            for (int i = 0; i < n; ++i)
                sh[i] = cs[i].shape, xfs[i] = cs[i].xf;
            void *od = peer_ode_ray_make(&pool, n, sh, xfs);
            if (od) {
                peer_row(f == FAM_BOX ? "ODE dRay vs dBox" : "ODE dRay vs dConvex", od, ode_cast, cs, n, reach,
                         o->runs, ns);
                peer_ode_ray_release(od);
            }
            free(sh), free(xfs);
        }
#endif
#ifdef MK_BENCH_HAVE_BULLET
        void *bt = peer_bullet_ray_make(&pool);
        if (bt) {
            peer_row("Bullet SubsimplexConvexCast", bt, bullet_cast, cs, n, reach, o->runs, ns);
            peer_bullet_ray_release(bt);
        }
#endif
        free(cs), free(t), free(reach), free(hit);
        bench_pool_free(&pool);
    }
}
