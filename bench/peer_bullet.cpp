// mk_bench peer: Bullet 3.24 in double precision (Debian libbullet-dev,
// pkg-config bullet-float64, compiled with -DBT_USE_DOUBLE_PRECISION; this file
// is the only one that includes Bullet, so float and double never mix).
//
// btGjkEpaSolver2::Distance and ::Penetration on Bullet's own shapes with every
// margin set to 0 (so both see the exact shapes): btBoxShape, btCylinderShapeZ,
// btConvexHullShape (support by a linear scan, as in Bullet), and, as Bullet
// has no ellipsoid, a btConvexInternalShape subclass with the exact ellipsoid
// support (reached by Bullet's virtual fallback for custom convex shapes); a
// sphere is btSphereShape, a point whose margin is the radius, so Penetration
// takes the margins for a pair with a sphere (usemargins, its default, as
// btGjkEpaPenetrationDepthSolver calls it) and not for the others (margins 0:
// the same answers, ~12% faster). The initial guess is the difference of the
// shapes' origins, as that solver passes.
#include "bench.h"

#include <cmath>
#include <memory>
#include <new>
#include <vector>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btConvexInternalShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>

static_assert(sizeof(btScalar) == 8, "peer_bullet.cpp must be compiled with bullet-float64's flags");

namespace {

// Axis-aligned ellipsoid with semi-axes r: support r^2 d / |r d|.
class BenchEllipsoid : public btConvexInternalShape {
public:
    BT_DECLARE_ALIGNED_ALLOCATOR();

    explicit BenchEllipsoid(const btVector3 &radii) : m_radii(radii)
    {
        m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
        setMargin(0);
    }

    btVector3 localGetSupportingVertexWithoutMargin(const btVector3 &d) const override
    {
        btVector3 rd = m_radii * d;
        btScalar l = rd.length();
        if (!(l > 0))
            return btVector3(m_radii.x(), 0, 0);
        return m_radii * rd / l;
    }

    void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3 *v, btVector3 *out, int n) const override
    {
        for (int i = 0; i < n; ++i)
            out[i] = localGetSupportingVertexWithoutMargin(v[i]);
    }

    void getAabb(const btTransform &t, btVector3 &lo, btVector3 &hi) const override { getAabbSlow(t, lo, hi); }

    void calculateLocalInertia(btScalar, btVector3 &inertia) const override { inertia.setZero(); }

    const char *getName() const override { return "BenchEllipsoid"; }

private:
    btVector3 m_radii;
};

struct BulletCtx {
    const bench_set *set = nullptr;
    std::vector<std::unique_ptr<btConvexShape>> shapes; // one per pool shape
    btAlignedObjectArray<btTransform> xa, xb;
};

btTransform to_bt(const mk_transform &t)
{
    btMatrix3x3 R(t.R.m[0][0], t.R.m[0][1], t.R.m[0][2], t.R.m[1][0], t.R.m[1][1], t.R.m[1][2], t.R.m[2][0],
                  t.R.m[2][1], t.R.m[2][2]);
    return btTransform(R, btVector3(t.p.x, t.p.y, t.p.z));
}

std::unique_ptr<btConvexShape> to_bt_shape(const mk_shape &s)
{
    switch (s.type) {
    case MK_SHAPE_BOX: {
        mk_vec3 h = s.u.box.half_extents;
        auto b = std::make_unique<btBoxShape>(btVector3(h.x, h.y, h.z));
        b->setMargin(0); // keeps the outer size: the core becomes the whole box
        return b;
    }
    case MK_SHAPE_SPHERE:
        return std::make_unique<btSphereShape>(s.radius); // its margin is the radius
    case MK_SHAPE_CYLINDER: {
        if (s.radius > 0)
            return nullptr;
        const double r = s.u.cylinder.radius, h = s.u.cylinder.half_height;
        auto c = std::make_unique<btCylinderShapeZ>(btVector3(r, r, h));
        c->setMargin(0);
        return c;
    }
    case MK_SHAPE_ELLIPSOID: {
        mk_vec3 r = s.u.ellipsoid.radii;
        return std::make_unique<BenchEllipsoid>(btVector3(r.x, r.y, r.z));
    }
    case MK_SHAPE_HULL: {
        const mk_hull *h = s.u.hull.hull;
        auto c = std::make_unique<btConvexHullShape>();
        for (int i = 0; i < h->num_vertices; ++i)
            c->addPoint(btVector3(h->vertices[i].x, h->vertices[i].y, h->vertices[i].z), false);
        c->recalcLocalAabb();
        c->setMargin(0);
        return c;
    }
    default:
        return nullptr;
    }
}

void *bullet_make(const bench_set *set, const void *)
{
    auto x = std::make_unique<BulletCtx>();
    x->set = set;
    for (int i = 0; i < set->pool->count; ++i) {
        x->shapes.push_back(to_bt_shape(set->pool->shapes[i]));
        if (!x->shapes.back())
            return nullptr;
    }
    for (int i = 0; i < set->count; ++i) {
        x->xa.push_back(to_bt(set->p[i].pair.xf_a));
        x->xb.push_back(to_bt(set->p[i].pair.xf_b));
    }
    return x.release();
}

void bullet_release(void *ctx) { delete static_cast<BulletCtx *>(ctx); }

inline bool distance(const BulletCtx *x, int i, btGjkEpaSolver2::sResults &r)
{
    const bench_problem &p = x->set->p[i];
    const btTransform &ta = x->xa[i], &tb = x->xb[i];
    return btGjkEpaSolver2::Distance(x->shapes[p.ia].get(), ta, x->shapes[p.ib].get(), tb,
                                     tb.getOrigin() - ta.getOrigin(), r);
}

inline bool penetration(const BulletCtx *x, int i, btGjkEpaSolver2::sResults &r)
{
    const bench_problem &p = x->set->p[i];
    const btTransform &ta = x->xa[i], &tb = x->xb[i];
    btConvexShape *a = x->shapes[p.ia].get(), *b = x->shapes[p.ib].get();
    // Margins only where a shape has one (a sphere's): with margins 0 they
    // change no answer and cost Bullet ~12% (the virtual support with margin).
    const bool margins = a->getMargin() > 0 || b->getMargin() > 0;
    return btGjkEpaSolver2::Penetration(a, ta, b, tb, tb.getOrigin() - ta.getOrigin(), r, margins);
}

double distance_run(void *ctx, int i)
{
    btGjkEpaSolver2::sResults r;
    bool sep = distance(static_cast<const BulletCtx *>(ctx), i, r);
    return sep ? r.distance : -1;
}

void distance_answer(void *ctx, int i, bench_answer *out)
{
    btGjkEpaSolver2::sResults r;
    bool sep = distance(static_cast<const BulletCtx *>(ctx), i, r);
    // Not separated: Penetrating (GJK enclosed the origin) or GJK_Failed.
    out->ok = sep ? std::isfinite(r.distance) : r.status == btGjkEpaSolver2::sResults::Penetrating;
    out->overlap = !sep;
    out->distance = sep ? r.distance : 0;
    out->depth = NAN;
    out->iterations = -1;
    out->lower = out->upper = NAN;
}

double penetration_run(void *ctx, int i)
{
    btGjkEpaSolver2::sResults r;
    bool pen = penetration(static_cast<const BulletCtx *>(ctx), i, r);
    return pen ? r.distance : 1;
}

void penetration_answer(void *ctx, int i, bench_answer *out)
{
    btGjkEpaSolver2::sResults r;
    bool pen = penetration(static_cast<const BulletCtx *>(ctx), i, r);
    // Penetrating: distance is minus the depth. Otherwise Separated, GJK_Failed or EPA_Failed.
    out->ok = pen ? std::isfinite(r.distance) : r.status == btGjkEpaSolver2::sResults::Separated;
    out->overlap = pen;
    out->depth = pen ? -r.distance : 0;
    out->distance = NAN;
    out->iterations = -1;
    out->lower = out->upper = NAN;
}

} // namespace

extern "C" const bench_query peer_bullet_distance = {"Bullet GjkEpa2", BENCH_DISTANCE, bullet_make, bullet_release,
                                                     distance_run, distance_answer, nullptr};
extern "C" const bench_query peer_bullet_penetration = {"Bullet GjkEpa2", BENCH_PENETRATION, bullet_make,
                                                        bullet_release, penetration_run, penetration_answer,
                                                        nullptr};

// ---------------------------------------------------------------- rays

#include <BulletCollision/NarrowPhaseCollision/btSubSimplexConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

namespace {
struct RayCtx {
    std::vector<std::unique_ptr<btConvexShape>> shapes;
};
} // namespace

extern "C" void *peer_bullet_ray_make(const bench_pool *pool)
{
    auto x = std::make_unique<RayCtx>();
    for (int i = 0; i < pool->count; ++i) {
        x->shapes.push_back(to_bt_shape(pool->shapes[i]));
        if (!x->shapes.back())
            return nullptr;
    }
    return x.release();
}

extern "C" void peer_bullet_ray_release(void *ctx) { delete static_cast<RayCtx *>(ctx); }

// btCollisionWorld::rayTestSingleInternal's convex branch: a point (a sphere
// of radius 0, margin 0) cast from `from` to `to` against the shape at rest;
// a hit needs a normal (its length^2 > 1e-4 there).
extern "C" int peer_bullet_ray(void *ctx, int shape, const mk_transform *xf, mk_vec3 o, mk_vec3 u, double len,
                               double *t)
{
    const RayCtx *x = static_cast<const RayCtx *>(ctx);
    btSphereShape point(0.0);
    point.setMargin(0.);
    btVoronoiSimplexSolver solver;
    btSubsimplexConvexCast cast(&point, x->shapes[shape].get(), &solver);
    btConvexCast::CastResult res;
    res.m_fraction = 1.;
    btTransform from, to;
    from.setIdentity(), to.setIdentity();
    from.setOrigin(btVector3(o.x, o.y, o.z));
    to.setOrigin(btVector3(o.x + len * u.x, o.y + len * u.y, o.z + len * u.z));
    const btTransform at = to_bt(*xf);
    *t = 0;
    if (!cast.calcTimeOfImpact(from, to, at, at, res) || res.m_normal.length2() <= btScalar(1e-4))
        return 0;
    *t = res.m_fraction * len;
    return 1;
}
