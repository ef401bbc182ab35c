/* mk_bench peer: libccd 2 (Debian libccd-dev, double precision).
 *
 * libccd has no shapes of its own: the caller supplies world-frame support
 * functions. Ours go through the public mk_shape_support (the same support
 * points, hill-climbing with a per-object hint reset before each query, as a
 * cold minkowski query), so the comparison is between the algorithms.
 * Settings are CCD_INIT's defaults (first direction (1,0,0), MPR tolerance 1e-4,
 * EPA tolerance 1e-4) except max_iterations, capped at 1000 instead of
 * ULONG_MAX so a pathological case cannot hang the benchmark. MPR's interior
 * point is the shape's centre (hull centroid). */
#include "bench_c.h"

#include <ccd/ccd.h>
#include <stdlib.h>

typedef struct ccd_obj {
    const mk_shape *s;
    mk_transform xf;
    mk_vec3 center; /* world */
    int hint;       /* hull hill-climbing hint (written by the support function) */
} ccd_obj;

typedef struct ccd_ctx {
    int n;
    ccd_obj *o; /* 2 per problem */
    ccd_t ccd;
} ccd_ctx;

long peer_ccd_support_calls;

static void support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    ++peer_ccd_support_calls;
    ccd_obj *o = (ccd_obj *)obj; /* our own non-const object: the hint is scratch */
    const mk_mat3 *R = &o->xf.R;
    mk_vec3 d = b3(ccdVec3X(dir), ccdVec3Y(dir), ccdVec3Z(dir));
    mk_vec3 dl = b3(R->m[0][0] * d.x + R->m[1][0] * d.y + R->m[2][0] * d.z,
                    R->m[0][1] * d.x + R->m[1][1] * d.y + R->m[2][1] * d.z,
                    R->m[0][2] * d.x + R->m[1][2] * d.y + R->m[2][2] * d.z);
    mk_vec3 p = mk_shape_support(o->s, dl, &o->hint);
    const double l = sqrt(dl.x * dl.x + dl.y * dl.y + dl.z * dl.z);
    if (o->s->radius > 0 && l > 0) /* rounded shapes (spheres): the core's point moved out by the radius */
        p = b3_madd(p, o->s->radius / l, dl);
    ccdVec3Set(out, R->m[0][0] * p.x + R->m[0][1] * p.y + R->m[0][2] * p.z + o->xf.p.x,
               R->m[1][0] * p.x + R->m[1][1] * p.y + R->m[1][2] * p.z + o->xf.p.y,
               R->m[2][0] * p.x + R->m[2][1] * p.y + R->m[2][2] * p.z + o->xf.p.z);
}

static void center(const void *obj, ccd_vec3_t *out)
{
    const ccd_obj *o = obj;
    ccdVec3Set(out, o->center.x, o->center.y, o->center.z);
}

static void fill(ccd_obj *o, const mk_shape *s, const mk_transform *xf)
{
    o->s = s;
    o->xf = *xf;
    mk_vec3 c = b3(0, 0, 0);
    if (s->type == MK_SHAPE_HULL)
        c = s->u.hull.hull->centroid;
    const mk_mat3 *R = &xf->R;
    o->center = b3(R->m[0][0] * c.x + R->m[0][1] * c.y + R->m[0][2] * c.z + xf->p.x,
                   R->m[1][0] * c.x + R->m[1][1] * c.y + R->m[1][2] * c.z + xf->p.y,
                   R->m[2][0] * c.x + R->m[2][1] * c.y + R->m[2][2] * c.z + xf->p.z);
    o->hint = -1;
}

static void *ccd_make(const bench_set *set, const void *param)
{
    (void)param;
    ccd_ctx *x = malloc(sizeof *x);
    if (!x)
        return NULL;
    x->n = set->count;
    x->o = malloc(sizeof *x->o * 2 * (size_t)set->count);
    if (!x->o) {
        free(x);
        return NULL;
    }
    for (int i = 0; i < set->count; ++i) {
        fill(&x->o[2 * i], set->p[i].pair.a, &set->p[i].pair.xf_a);
        fill(&x->o[2 * i + 1], set->p[i].pair.b, &set->p[i].pair.xf_b);
    }
    CCD_INIT(&x->ccd);
    x->ccd.support1 = support;
    x->ccd.support2 = support;
    x->ccd.center1 = center;
    x->ccd.center2 = center;
    x->ccd.max_iterations = 1000;
    return x;
}

static void ccd_release(void *ctx)
{
    ccd_ctx *x = ctx;
    if (x)
        free(x->o);
    free(x);
}

static inline ccd_obj *obj(ccd_ctx *x, int i, int k)
{
    ccd_obj *o = &x->o[2 * i + k];
    o->hint = -1; /* cold start (table of extreme vertices), like the minkowski queries */
    return o;
}

/* ------------------------------------------------------------ Boolean */

static double gjk_run(void *ctx, int i)
{
    ccd_ctx *x = ctx;
    return ccdGJKIntersect(obj(x, i, 0), obj(x, i, 1), &x->ccd);
}

static double mpr_run(void *ctx, int i)
{
    ccd_ctx *x = ctx;
    return ccdMPRIntersect(obj(x, i, 0), obj(x, i, 1), &x->ccd);
}

static void boolean_answer(int hit, bench_answer *out)
{
    out->ok = 1;
    out->overlap = hit != 0;
    out->distance = out->depth = out->lower = out->upper = NAN;
    out->iterations = -1;
}

static void gjk_answer(void *ctx, int i, bench_answer *out) { boolean_answer((int)gjk_run(ctx, i), out); }
static void mpr_answer(void *ctx, int i, bench_answer *out) { boolean_answer((int)mpr_run(ctx, i), out); }

const bench_query peer_ccd_gjk = {"libccd GJK", BENCH_BOOLEAN, ccd_make, ccd_release, gjk_run, gjk_answer, NULL};
const bench_query peer_ccd_mpr = {"libccd MPR", BENCH_BOOLEAN, ccd_make, ccd_release, mpr_run, mpr_answer, NULL};

/* ------------------------------------------------------------ penetration */

/* Both return 0 and fill depth when the shapes intersect, -1 when they do not
 * (ccdGJKPenetration: -2 when EPA fails to allocate). */
static double gjk_pen_run(void *ctx, int i)
{
    ccd_ctx *x = ctx;
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    int r = ccdGJKPenetration(obj(x, i, 0), obj(x, i, 1), &x->ccd, &depth, &dir, &pos);
    return r + depth;
}

static double mpr_pen_run(void *ctx, int i)
{
    ccd_ctx *x = ctx;
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    int r = ccdMPRPenetration(obj(x, i, 0), obj(x, i, 1), &x->ccd, &depth, &dir, &pos);
    return r + depth;
}

static void pen_answer(int r, double depth, bench_answer *out)
{
    out->ok = (r == 0 || r == -1) && isfinite(depth);
    out->overlap = r == 0;
    out->depth = r == 0 ? depth : 0;
    out->distance = out->lower = out->upper = NAN;
    out->iterations = -1;
}

static void gjk_pen_answer(void *ctx, int i, bench_answer *out)
{
    ccd_ctx *x = ctx;
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    int r = ccdGJKPenetration(obj(x, i, 0), obj(x, i, 1), &x->ccd, &depth, &dir, &pos);
    pen_answer(r, depth, out);
}

static void mpr_pen_answer(void *ctx, int i, bench_answer *out)
{
    ccd_ctx *x = ctx;
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    int r = ccdMPRPenetration(obj(x, i, 0), obj(x, i, 1), &x->ccd, &depth, &dir, &pos);
    pen_answer(r, depth, out);
}

const bench_query peer_ccd_gjk_pen = {"libccd GJK+EPA", BENCH_PENETRATION, ccd_make, ccd_release, gjk_pen_run,
                                      gjk_pen_answer, NULL};
const bench_query peer_ccd_mpr_pen = {"libccd MPR", BENCH_PENETRATION, ccd_make, ccd_release, mpr_pen_run,
                                      mpr_pen_answer, NULL};
