// minkowski Bullet adapter: create functions, per-pair algorithm, shape cache.
// A thin translator: Bullet shape -> mk_shape (once per shape), pair -> core
// query, core manifold -> btManifoldResult in Bullet's conventions (ENGINES.md).
#include <minkowski/bullet.h>
#include <minkowski/collide.h>

#include <btBulletCollisionCommon.h>
#include <BulletCollision/CollisionDispatch/btActivatingCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btConvexPointCloudShape.h>
#include <BulletCollision/CollisionShapes/btMultiSphereShape.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

static_assert(sizeof(btScalar) == sizeof(float) || sizeof(btScalar) == sizeof(double), "btScalar");

namespace {

// ------------------------------------------------------------------ shape kinds

int kind_bit(int proxy_type)
{
    switch (proxy_type) {
    case BOX_SHAPE_PROXYTYPE: return 0;
    case SPHERE_SHAPE_PROXYTYPE: return 1;
    case CAPSULE_SHAPE_PROXYTYPE: return 2;
    case CYLINDER_SHAPE_PROXYTYPE: return 3;
    case CONE_SHAPE_PROXYTYPE: return 4;
    case CONVEX_HULL_SHAPE_PROXYTYPE: return 5;
    case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE: return 6;
    case MULTI_SPHERE_SHAPE_PROXYTYPE: return 7;
    case STATIC_PLANE_PROXYTYPE: return 8;
    default: return -1;
    }
}

const int kProxyTypes[] = {BOX_SHAPE_PROXYTYPE,          SPHERE_SHAPE_PROXYTYPE,
                           CAPSULE_SHAPE_PROXYTYPE,      CYLINDER_SHAPE_PROXYTYPE,
                           CONE_SHAPE_PROXYTYPE,         CONVEX_HULL_SHAPE_PROXYTYPE,
                           CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE, MULTI_SPHERE_SHAPE_PROXYTYPE,
                           STATIC_PLANE_PROXYTYPE};

mk_vec3 to_mk(const btVector3 &v) { return mk_vec3{v.x(), v.y(), v.z()}; }
btVector3 to_bt(const mk_vec3 &v) { return btVector3(btScalar(v.x), btScalar(v.y), btScalar(v.z)); }

// Rotation taking minkowski's local Z axis (capsule, cylinder, cone) to Bullet's
// up axis: a cyclic permutation of the axes, so it stays a proper rotation.
mk_mat3 axis_fix(int up)
{
    mk_mat3 R = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    if (up == 1) // columns: x -> z, y -> x, z -> y
        R = mk_mat3{{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}};
    else if (up == 0) // columns: x -> y, y -> z, z -> x
        R = mk_mat3{{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}};
    return R;
}

// ------------------------------------------------------------------ shape cache

// Convex hull of a union of spheres (btMultiSphereShape), as a user support.
struct MultiSphere {
    std::vector<mk_vec3> centres;
    std::vector<double> radii;
};

mk_vec3 multisphere_support(const void *data, mk_vec3 d)
{
    const MultiSphere *m = static_cast<const MultiSphere *>(data);
    double len = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    mk_vec3 u = len > 0 ? mk_vec3{d.x / len, d.y / len, d.z / len} : mk_vec3{1, 0, 0};
    size_t best = 0;
    double best_v = -INFINITY;
    for (size_t i = 0; i < m->centres.size(); ++i) {
        const mk_vec3 &c = m->centres[i];
        double v = c.x * u.x + c.y * u.y + c.z * u.z + m->radii[i];
        if (v > best_v) {
            best_v = v;
            best = i;
        }
    }
    const mk_vec3 &c = m->centres[best];
    double r = m->radii[best];
    return mk_vec3{c.x + r * u.x, c.y + r * u.y, c.z + r * u.z};
}

struct HullDeleter {
    void operator()(mk_hull *h) const { mk_hull_destroy(h); }
};

int point_count(const btCollisionShape *s)
{
    if (s->getShapeType() == CONVEX_HULL_SHAPE_PROXYTYPE)
        return static_cast<const btConvexHullShape *>(s)->getNumPoints();
    if (s->getShapeType() == CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE)
        return static_cast<const btConvexPointCloudShape *>(s)->getNumPoints();
    if (s->getShapeType() == MULTI_SPHERE_SHAPE_PROXYTYPE)
        return static_cast<const btMultiSphereShape *>(s)->getSphereCount();
    return 0;
}

// What a translation depends on, read from the Bullet shape: its type, local
// scaling, margin and sizes (box and cylinder half extents, radii, heights,
// up axes), and for point shapes their count and a hash of the points (and
// radii). Shapes are keyed by address, and a shape deleted and another made
// at the same address must not inherit the first one's translation (a box of
// another size kept the old size: a sphere clear of the new box was reported
// centimetres deep in it; found by a fuzzer of the adapter).
struct Signature {
    int type = -1;
    int count = 0;
    double v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    bool operator==(const Signature &o) const
    {
        if (type != o.type || count != o.count)
            return false;
        for (int i = 0; i < 8; ++i)
            if (!(v[i] == o.v[i]) && !(std::isnan(v[i]) && std::isnan(o.v[i])))
                return false;
        return true;
    }
};

// A hash of the bits of n btVector3 (x, y, z) and of m btScalar, one
// multiply-xorshift step per scalar.
std::uint64_t hash_points(const btVector3 *p, int n, const btScalar *r, int m)
{
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&h](btScalar v) {
        std::uint64_t b = 0;
        std::memcpy(&b, &v, sizeof v);
        h = (h ^ b) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    };
    for (int i = 0; i < n; ++i)
        mix(p[i].x()), mix(p[i].y()), mix(p[i].z());
    for (int i = 0; r && i < m; ++i)
        mix(r[i]);
    return h;
}

// The cheap part of the signature (O(1) per call).
Signature signature(const btCollisionShape *s)
{
    Signature g;
    g.type = s->getShapeType();
    const btVector3 sc = s->getLocalScaling();
    g.v[0] = sc.x(), g.v[1] = sc.y(), g.v[2] = sc.z(), g.v[3] = s->getMargin();
    switch (g.type) {
    case BOX_SHAPE_PROXYTYPE: {
        const btVector3 h = static_cast<const btBoxShape *>(s)->getHalfExtentsWithoutMargin();
        g.v[4] = h.x(), g.v[5] = h.y(), g.v[6] = h.z();
        break;
    }
    case SPHERE_SHAPE_PROXYTYPE: g.v[4] = static_cast<const btSphereShape *>(s)->getRadius(); break;
    case CAPSULE_SHAPE_PROXYTYPE: {
        const btCapsuleShape *c = static_cast<const btCapsuleShape *>(s);
        g.v[4] = c->getRadius(), g.v[5] = c->getHalfHeight(), g.v[6] = c->getUpAxis();
        break;
    }
    case CYLINDER_SHAPE_PROXYTYPE: {
        const btCylinderShape *c = static_cast<const btCylinderShape *>(s);
        const btVector3 h = c->getHalfExtentsWithoutMargin();
        g.v[4] = h.x(), g.v[5] = h.y(), g.v[6] = h.z(), g.v[7] = c->getUpAxis();
        break;
    }
    case CONE_SHAPE_PROXYTYPE: {
        const btConeShape *c = static_cast<const btConeShape *>(s);
        g.v[4] = c->getRadius(), g.v[5] = c->getHeight(), g.v[6] = c->getConeUpIndex();
        break;
    }
    default: g.count = point_count(s); break;
    }
    return g;
}

// The expensive part: a hash of the points of point shapes (0 for others).
std::uint64_t points_hash(const btCollisionShape *s)
{
    switch (s->getShapeType()) {
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
        const btConvexHullShape *h = static_cast<const btConvexHullShape *>(s);
        return hash_points(h->getUnscaledPoints(), h->getNumPoints(), nullptr, 0);
    }
    case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE: {
        const btConvexPointCloudShape *h = static_cast<const btConvexPointCloudShape *>(s);
        return hash_points(h->getUnscaledPoints(), h->getNumPoints(), nullptr, 0);
    }
    case MULTI_SPHERE_SHAPE_PROXYTYPE: {
        const btMultiSphereShape *m = static_cast<const btMultiSphereShape *>(s);
        std::vector<btVector3> c(size_t(m->getSphereCount()));
        std::vector<btScalar> r(size_t(m->getSphereCount()));
        for (int i = 0; i < m->getSphereCount(); ++i)
            c[size_t(i)] = m->getSpherePosition(i), r[size_t(i)] = m->getSphereRadius(i);
        return hash_points(c.data(), int(c.size()), r.data(), int(r.size()));
    }
    default: return 0;
    }
}

// One translated Bullet shape. Valid while the Bullet shape's signature is
// what it was at translation (checked in full when a pair is made, its
// scaling, margin and point count at every call).
struct ShapeEntry {
    const btCollisionShape *key = nullptr;
    Signature sig;
    std::uint64_t points = 0;
    unsigned generation = 0; // bumped at every translation (pair caches compare it)
    bool ok = false;
    mk_shape shape{};
    mk_mat3 fix{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}; // our local frame -> Bullet's
    bool fixed = false;                             // fix is not the identity
    std::unique_ptr<mk_hull, HullDeleter> hull;
    std::unique_ptr<MultiSphere> spheres;
};

// The points as spheres of radius 0 (a user support over them: conv(points)),
// rounded by `rounding`: for point sets Qhull cannot make a solid hull of.
bool translate_point_set(const std::vector<mk_vec3> &p, double rounding, ShapeEntry &e)
{
    e.spheres.reset(new MultiSphere);
    mk_vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (const mk_vec3 &c : p) {
        e.spheres->centres.push_back(c);
        e.spheres->radii.push_back(0);
        lo = mk_vec3{std::fmin(lo.x, c.x), std::fmin(lo.y, c.y), std::fmin(lo.z, c.z)};
        hi = mk_vec3{std::fmax(hi.x, c.x), std::fmax(hi.y, c.y), std::fmax(hi.z, c.z)};
    }
    return !p.empty() && mk_shape_user(&e.shape, multisphere_support, e.spheres.get(), lo, hi, rounding) == MK_OK;
}

bool translate_points(const btVector3 *pts, int n, const btVector3 &scale, double rounding, ShapeEntry &e)
{
    std::vector<mk_vec3> p(static_cast<size_t>(n > 0 ? n : 0));
    for (int i = 0; i < n; ++i)
        p[size_t(i)] = to_mk(pts[i] * scale);
    mk_hull *h = nullptr;
    const mk_status st = mk_hull_create(p.data(), n, &h);
    // Bullet takes flat, collinear and tiny point sets (a quad as a platform,
    // fewer than four points), rounded by the margin; Qhull makes no solid
    // hull of them.
    if (st == MK_DEGENERATE_HULL)
        return translate_point_set(p, rounding, e);
    if (st != MK_OK)
        return false;
    e.hull.reset(h);
    return mk_shape_hull(&e.shape, h, rounding) == MK_OK;
}

bool translate(const btCollisionShape *s, mk_bullet_margin_mode mode, ShapeEntry &e)
{
    const bool exact = mode == MK_BULLET_MARGIN_EXACT;
    const double margin = s->getMargin();
    switch (s->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE: {
        const btBoxShape *b = static_cast<const btBoxShape *>(s);
        if (exact ? mk_shape_box(&e.shape, to_mk(b->getHalfExtentsWithMargin()), 0) == MK_OK
                  : mk_shape_box(&e.shape, to_mk(b->getHalfExtentsWithoutMargin()), margin) == MK_OK)
            return true;
        // Bullet takes a box with a zero side (a plate), and a margin set
        // larger than a half extent (the core's extents negative): no rounded
        // box is that. The box of the full half extents, sharp, as Bullet's
        // box-box and box-plane algorithms take it, as its 8 corners.
        const btVector3 h = b->getHalfExtentsWithMargin();
        if (!(h.x() >= 0 && h.y() >= 0 && h.z() >= 0) || !std::isfinite(double(h.x() + h.y() + h.z())))
            return false;
        std::vector<mk_vec3> corners;
        for (int c = 0; c < 8; ++c)
            corners.push_back(to_mk(btVector3(c & 1 ? h.x() : -h.x(), c & 2 ? h.y() : -h.y(), c & 4 ? h.z() : -h.z())));
        return translate_point_set(corners, 0, e);
    }
    case SPHERE_SHAPE_PROXYTYPE:
        return mk_shape_sphere(&e.shape, static_cast<const btSphereShape *>(s)->getRadius()) == MK_OK;
    case CAPSULE_SHAPE_PROXYTYPE: {
        const btCapsuleShape *c = static_cast<const btCapsuleShape *>(s);
        e.fix = axis_fix(c->getUpAxis());
        // Bullet takes the height 0: a sphere (the core's capsule wants a positive length).
        if (c->getHalfHeight() == 0)
            return mk_shape_sphere(&e.shape, c->getRadius()) == MK_OK;
        return mk_shape_capsule(&e.shape, c->getRadius(), c->getHalfHeight()) == MK_OK;
    }
    case CYLINDER_SHAPE_PROXYTYPE: {
        const btCylinderShape *c = static_cast<const btCylinderShape *>(s);
        int up = c->getUpAxis();
        e.fix = axis_fix(up);
        btVector3 h = exact ? c->getHalfExtentsWithMargin() : c->getHalfExtentsWithoutMargin();
        int radial = up == 0 ? 1 : 0;
        return mk_shape_cylinder(&e.shape, h[radial], h[up], exact ? 0 : margin) == MK_OK;
    }
    case CONE_SHAPE_PROXYTYPE: {
        const btConeShape *c = static_cast<const btConeShape *>(s);
        e.fix = axis_fix(c->getConeUpIndex());
        return mk_shape_cone(&e.shape, c->getRadius(), 0.5 * c->getHeight(), exact ? 0 : margin) == MK_OK;
    }
    case CONVEX_HULL_SHAPE_PROXYTYPE: {
        const btConvexHullShape *h = static_cast<const btConvexHullShape *>(s);
        return translate_points(h->getUnscaledPoints(), h->getNumPoints(), h->getLocalScaling(),
                                exact ? 0 : margin, e);
    }
    case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE: {
        const btConvexPointCloudShape *h = static_cast<const btConvexPointCloudShape *>(s);
        return translate_points(h->getUnscaledPoints(), h->getNumPoints(), h->getLocalScaling(),
                                exact ? 0 : margin, e);
    }
    case MULTI_SPHERE_SHAPE_PROXYTYPE: {
        // Bullet shrinks each sphere by the margin and inflates back: same outer
        // surface, so both modes use the nominal spheres.
        const btMultiSphereShape *m = static_cast<const btMultiSphereShape *>(s);
        e.spheres.reset(new MultiSphere);
        btVector3 scale = m->getLocalScaling();
        mk_vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
        for (int i = 0; i < m->getSphereCount(); ++i) {
            mk_vec3 c = to_mk(m->getSpherePosition(i) * scale);
            double r = m->getSphereRadius(i) * scale.x();
            if (!(r >= 0) || !std::isfinite(r))
                return false;
            e.spheres->centres.push_back(c);
            e.spheres->radii.push_back(r);
            lo = mk_vec3{std::fmin(lo.x, c.x - r), std::fmin(lo.y, c.y - r), std::fmin(lo.z, c.z - r)};
            hi = mk_vec3{std::fmax(hi.x, c.x + r), std::fmax(hi.y, c.y + r), std::fmax(hi.z, c.z + r)};
        }
        if (e.spheres->centres.empty())
            return false;
        return mk_shape_user(&e.shape, multisphere_support, e.spheres.get(), lo, hi, 0) == MK_OK;
    }
    default:
        return false;
    }
}

} // namespace

// ------------------------------------------------------------------ context

struct mk_bullet_context {
    btCollisionDispatcher *dispatcher = nullptr;
    mk_bullet_options options{};
    mk_collide_settings settings{};
    mk_bullet_stats stats{};
    std::unordered_map<const btCollisionShape *, ShapeEntry> shapes;
    std::vector<std::unique_ptr<btCollisionAlgorithmCreateFunc>> funcs;
    std::vector<std::pair<int, int>> registered;
    unsigned generation = 0;

    // The cached translation of a Bullet shape, rebuilt when it changed.
    // `last` is the caller's pointer to the entry it used before (skips the
    // hash lookup; map nodes never move).
    // Every call compares what Bullet's setters change in place (local
    // scaling, margin, the point count); with `deep` (a pair being made: a
    // shape deleted and another made at its address can only be met then) the
    // whole signature, sizes and the points' hash.
    const ShapeEntry *entry(const btCollisionShape *s, ShapeEntry **last, bool deep = false)
    {
        ShapeEntry &e = *last && (*last)->key == s ? **last : shapes[s];
        *last = &e;
        if (!deep && e.key == s) {
            const btVector3 &sc = s->getLocalScaling();
            if (e.sig.type == s->getShapeType() && e.sig.v[0] == sc.x() && e.sig.v[1] == sc.y() &&
                e.sig.v[2] == sc.z() && e.sig.v[3] == s->getMargin() && e.sig.count == point_count(s))
                return e.ok ? &e : nullptr;
        }
        const Signature sig = signature(s);
        const std::uint64_t points = deep || e.key != s ? points_hash(s) : e.points;
        if (e.key == s && e.sig == sig && e.points == points)
            return e.ok ? &e : nullptr;
        e = ShapeEntry();
        e.key = s;
        e.sig = sig;
        e.points = points;
        e.generation = ++generation;
        e.ok = translate(s, options.margin_mode, e);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                e.fixed = e.fixed || e.fix.m[i][j] != (i == j ? 1 : 0);
        ++stats.shapes_translated;
        return e.ok ? &e : nullptr;
    }
};

namespace {

// World pose of our local frame: Bullet's pose composed with the axis fix.
// (fix is the identity for all but capsules, cylinders and cones along x or y.)
mk_transform pose_of(const btTransform &t, const mk_mat3 &fix, bool fixed)
{
    mk_transform xf;
    const btMatrix3x3 &B = t.getBasis();
    if (!fixed) {
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                xf.R.m[i][j] = B[i][j];
    } else {
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                xf.R.m[i][j] = B[i][0] * fix.m[0][j] + B[i][1] * fix.m[1][j] + B[i][2] * fix.m[2][j];
    }
    xf.p = to_mk(t.getOrigin());
    return xf;
}

// ------------------------------------------------------------------ algorithm

class MkAlgorithm : public btActivatingCollisionAlgorithm {
public:
    MkAlgorithm(const btCollisionAlgorithmConstructionInfo &ci, const btCollisionObjectWrapper *w0,
                const btCollisionObjectWrapper *w1, mk_bullet_context *ctx)
        : btActivatingCollisionAlgorithm(ci, w0, w1), m_ctx(ctx)
    {
        // A new pair: check the shapes' translations deeply (a shape may have
        // been made at a deleted one's address).
        for (const btCollisionObjectWrapper *w : {w0, w1})
            if (w->getCollisionShape()->getShapeType() != STATIC_PLANE_PROXYTYPE)
                m_ctx->entry(w->getCollisionShape(), w == w0 ? &m_entry0 : &m_entry1, true);
    }

    ~MkAlgorithm() override
    {
        if (m_manifold)
            m_dispatcher->releaseManifold(m_manifold);
    }

    void processCollision(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1,
                          const btDispatcherInfo &, btManifoldResult *result) override
    {
        // Lazy manifold: creating it in the constructor breaks contactPairTest on
        // sleeping bodies (ENGINES.md).
        if (!m_manifold)
            m_manifold = m_dispatcher->getNewManifold(w0->getCollisionObject(), w1->getCollisionObject());
        result->setPersistentManifold(m_manifold);
        m_threshold = m_manifold->getContactBreakingThreshold();

        mk_bullet_stats &st = m_ctx->stats;
        ++st.calls;
        int k0 = kind_bit(w0->getCollisionShape()->getShapeType());
        int k1 = kind_bit(w1->getCollisionShape()->getShapeType());
        if (k0 >= 0) ++st.calls_by_type[k0];
        if (k1 >= 0 && k1 != k0) ++st.calls_by_type[k1];

        mk_manifold m;
        mk_status status;
        if (k1 == 8 || k0 == 8)
            status = plane_contacts(w0, w1, &m);
        else
            status = convex_contacts(w0, w1, &m);
        if (status >= MK_INVALID_INPUT) {
            ++st.failures;
            return;
        }
        // Bullet wants the normal on B pointing from B to A, the point on B, and
        // a signed distance (negative = penetration).
        btVector3 n_b_to_a = -to_bt(m.normal);
        const btScalar threshold = m_threshold;
        int count = m_ctx->options.contact_mode == MK_BULLET_CONTACTS_ONE_POINT && m.count > 0 ? 1 : m.count;
        for (int i = 0; i < count; ++i) {
            const mk_manifold_point &p = m.points[i];
            btScalar dist = btScalar(-p.depth);
            if (dist > threshold)
                continue;
            result->addContactPoint(n_b_to_a, to_bt(p.point_b), dist);
            ++st.contacts;
        }
        result->refreshContactPoints();
    }

    btScalar calculateTimeOfImpact(btCollisionObject *, btCollisionObject *, const btDispatcherInfo &,
                                   btManifoldResult *) override
    {
        return btScalar(1); // discrete worlds only
    }

    void getAllContactManifolds(btManifoldArray &arr) override
    {
        if (m_manifold)
            arr.push_back(m_manifold);
    }

private:
    mk_status convex_contacts(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1,
                              mk_manifold *m)
    {
        const ShapeEntry *e0 = m_ctx->entry(w0->getCollisionShape(), &m_entry0);
        const ShapeEntry *e1 = m_ctx->entry(w1->getCollisionShape(), &m_entry1);
        if (!e0 || !e1)
            return MK_INVALID_INPUT;
        if (e0->generation != m_gen0 || e1->generation != m_gen1) {
            // A shape was (re)translated: the warm starts and the separation
            // certificate belong to the old geometry.
            m_cache = mk_collide_cache{};
            m_growth_cache = mk_growth_cache{};
            m_gen0 = e0->generation;
            m_gen1 = e1->generation;
        }
        mk_pair pair{&e0->shape, pose_of(w0->getWorldTransform(), e0->fix, e0->fixed), &e1->shape,
                     pose_of(w1->getWorldTransform(), e1->fix, e1->fixed)};
        mk_collide_settings s = m_ctx->settings;
        s.speculative = m_threshold;
        if (m_ctx->options.contact_model == MK_BULLET_MODEL_GROWTH) {
            mk_growth_input in{};
            in.pair = pair;
            if (e0->hull)
                in.centre_a = e0->hull->centroid;
            if (e1->hull)
                in.centre_b = e1->hull->centroid;
            mk_status gs = mk_collide_growth(&in, &s, &m_growth_cache, m);
            if (gs != MK_GROWTH_DEGENERATE)
                return gs;
            ++m_ctx->stats.growth_fallbacks; // no interior ball about a centre: use the signed distance
        }
        unsigned long long before = m_cache.skipped;
        mk_status st = mk_collide_cached(&pair, &s, &m_cache, m);
        m_ctx->stats.certified_apart += m_cache.skipped - before;
        return st;
    }

    // Convex vs static plane; the plane may be either body. Normals are
    // reported from body 0 to body 1 like every other pair.
    mk_status plane_contacts(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1,
                             mk_manifold *m)
    {
        bool plane_first = w0->getCollisionShape()->getShapeType() == STATIC_PLANE_PROXYTYPE;
        const btCollisionObjectWrapper *pw = plane_first ? w0 : w1;
        const btCollisionObjectWrapper *cw = plane_first ? w1 : w0;
        const btStaticPlaneShape *plane = static_cast<const btStaticPlaneShape *>(pw->getCollisionShape());
        const ShapeEntry *e = m_ctx->entry(cw->getCollisionShape(), &m_entry0);
        if (!e)
            return MK_INVALID_INPUT;
        const btTransform &pt = pw->getWorldTransform();
        btVector3 n = pt.getBasis() * plane->getPlaneNormal();
        btScalar c = plane->getPlaneConstant() + n.dot(pt.getOrigin());
        mk_transform xf = pose_of(cw->getWorldTransform(), e->fix, e->fixed);
        mk_collide_settings s = m_ctx->settings;
        s.speculative = m_threshold;
        mk_status st = mk_collide_plane(&e->shape, &xf, to_mk(n), double(c), &s, m);
        if (plane_first) {
            // mk_collide_plane reports from the shape to the plane: swap sides.
            m->normal = mk_vec3{-m->normal.x, -m->normal.y, -m->normal.z};
            for (int i = 0; i < m->count; ++i) {
                mk_vec3 a = m->points[i].point_a;
                m->points[i].point_a = m->points[i].point_b;
                m->points[i].point_b = a;
            }
        }
        return st;
    }

    mk_bullet_context *m_ctx;
    btPersistentManifold *m_manifold = nullptr;
    mk_collide_cache m_cache{};
    mk_growth_cache m_growth_cache{};
    ShapeEntry *m_entry0 = nullptr, *m_entry1 = nullptr;
    unsigned m_gen0 = 0, m_gen1 = 0; // generations of the entries the caches were built on
    btScalar m_threshold = 0; // this call's contact breaking threshold
};

struct CreateFunc : public btCollisionAlgorithmCreateFunc {
    explicit CreateFunc(mk_bullet_context *ctx) : m_ctx(ctx) {}
    btCollisionAlgorithm *CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo &ci,
                                                   const btCollisionObjectWrapper *w0,
                                                   const btCollisionObjectWrapper *w1) override
    {
        // Not allocateCollisionAlgorithm: Bullet's pool hands out fixed-size
        // elements sized for the stock algorithms and does not check the size
        // in release builds; ours is larger (warm-start caches), and writing
        // past the element corrupted its neighbours. freeCollisionAlgorithm
        // releases memory outside the pool with btAlignedFree.
        void *mem = btAlignedAlloc(sizeof(MkAlgorithm), 16);
        return new (mem) MkAlgorithm(ci, w0, w1, m_ctx);
    }
    mk_bullet_context *m_ctx;
};

} // namespace

// ------------------------------------------------------------------ C API

extern "C" {

mk_bullet_options mk_bullet_default_options(void)
{
    mk_bullet_options o;
    o.variant = MK_GJK_VANILLA;
    o.normalize_dir = 0;
    o.tolerance = 1e-8;
    o.pairs = MK_BULLET_ALL;
    o.margin_mode = MK_BULLET_MARGIN_COMPATIBLE;
    o.contact_mode = MK_BULLET_CONTACTS_MANIFOLD;
    o.contact_model = MK_BULLET_MODEL_SIGNED_DISTANCE;
    return o;
}

mk_bullet_context *mk_bullet_install(btCollisionDispatcher *dispatcher, const mk_bullet_options *options)
{
    if (!dispatcher)
        return nullptr;
    mk_bullet_options o = options ? *options : mk_bullet_default_options();
    if (o.variant < MK_GJK_VANILLA || o.variant > MK_GJK_NESTEROV || !(o.tolerance >= 0) ||
        !std::isfinite(o.tolerance) || (o.margin_mode != MK_BULLET_MARGIN_COMPATIBLE &&
                                        o.margin_mode != MK_BULLET_MARGIN_EXACT) ||
        (o.contact_model != MK_BULLET_MODEL_SIGNED_DISTANCE && o.contact_model != MK_BULLET_MODEL_GROWTH))
        return nullptr;
    mk_bullet_context *ctx = new mk_bullet_context;
    ctx->dispatcher = dispatcher;
    ctx->options = o;
    ctx->settings = mk_collide_default_settings();
    ctx->settings.gjk.variant = o.variant;
    ctx->settings.gjk.normalize_dir = o.normalize_dir;
    ctx->settings.gjk.tolerance = o.tolerance;
    ctx->settings.gjk.init = MK_GJK_INIT_SIMPLEX;

    ctx->funcs.emplace_back(new CreateFunc(ctx));
    btCollisionAlgorithmCreateFunc *f = ctx->funcs.back().get();
    for (int t0 : kProxyTypes)
        for (int t1 : kProxyTypes) {
            if (!(o.pairs & (1u << kind_bit(t0))) || !(o.pairs & (1u << kind_bit(t1))))
                continue;
            if (t0 == STATIC_PLANE_PROXYTYPE && t1 == STATIC_PLANE_PROXYTYPE)
                continue; // two static planes never collide
            dispatcher->registerCollisionCreateFunc(t0, t1, f);
            dispatcher->registerClosestPointsCreateFunc(t0, t1, f);
            ctx->registered.emplace_back(t0, t1);
        }
    return ctx;
}

void mk_bullet_uninstall(mk_bullet_context *ctx)
{
    if (!ctx)
        return;
    btCollisionConfiguration *cfg = ctx->dispatcher->getCollisionConfiguration();
    for (const auto &p : ctx->registered) {
        ctx->dispatcher->registerCollisionCreateFunc(p.first, p.second,
                                                     cfg->getCollisionAlgorithmCreateFunc(p.first, p.second));
        ctx->dispatcher->registerClosestPointsCreateFunc(
            p.first, p.second, cfg->getClosestPointsAlgorithmCreateFunc(p.first, p.second));
    }
    delete ctx;
}

mk_bullet_stats mk_bullet_get_stats(const mk_bullet_context *ctx)
{
    mk_bullet_stats s{};
    if (ctx)
        s = ctx->stats;
    return s;
}

int mk_bullet_scalar_size(void) { return int(sizeof(btScalar)); }

} // extern "C"
