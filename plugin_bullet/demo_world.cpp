// The demos' engine-neutral world (demos/world.h) on Bullet: a discrete dynamics
// world whose dispatcher is timed, with the stock narrowphase or minkowski's.
#include "world.h"

#include <minkowski/bullet.h>

#include <btBulletDynamicsCommon.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

class TimedDispatcher : public btCollisionDispatcher {
public:
    explicit TimedDispatcher(btCollisionConfiguration *cfg) : btCollisionDispatcher(cfg) {}
    // --by-pair: Bullet's own near callback, timed pair by pair; the bodies'
    // user index holds their pair kind (world.h).
    void time_pairs(mk_pair_times *t)
    {
        by_pair = t;
        setNearCallback(timed_near_callback);
    }
    static void timed_near_callback(btBroadphasePair &pair, btCollisionDispatcher &d, const btDispatcherInfo &info)
    {
        TimedDispatcher &td = static_cast<TimedDispatcher &>(d);
        auto t0 = std::chrono::steady_clock::now();
        btCollisionDispatcher::defaultNearCallback(pair, d, info);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        int contacts = 0;
        if (pair.m_algorithm) {
            btManifoldArray manifolds;
            pair.m_algorithm->getAllContactManifolds(manifolds);
            for (int i = 0; i < manifolds.size(); ++i)
                contacts += manifolds[i]->getNumContacts();
        }
        const auto *a = static_cast<const btCollisionObject *>(pair.m_pProxy0->m_clientObject);
        const auto *b = static_cast<const btCollisionObject *>(pair.m_pProxy1->m_clientObject);
        mk_pair_times_add(td.by_pair, a->getUserIndex(), b->getUserIndex(), s, contacts);
    }
    mk_pair_times *by_pair = nullptr;
    void dispatchAllCollisionPairs(btOverlappingPairCache *cache, const btDispatcherInfo &info,
                                   btDispatcher *dispatcher) override
    {
        auto t0 = std::chrono::steady_clock::now();
        pairs += cache->getNumOverlappingPairs();
        btCollisionDispatcher::dispatchAllCollisionPairs(cache, info, dispatcher);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    double seconds = 0;
    int pairs = 0;
};

struct BulletWorld {
    mk_world base; // first member: mk_world * <-> BulletWorld *
    mk_world_config cfg;
    std::unique_ptr<btDefaultCollisionConfiguration> config;
    std::unique_ptr<TimedDispatcher> dispatcher;
    std::unique_ptr<btDbvtBroadphase> broadphase;
    std::unique_ptr<btSequentialImpulseConstraintSolver> solver;
    std::unique_ptr<btDiscreteDynamicsWorld> world;
    mk_bullet_context *mk = nullptr;
    // a mesh ground's arrays and their interface, declared before the shapes so they outlive them
    std::vector<btScalar> ground_vertices;
    std::vector<int> ground_indices;
    std::unique_ptr<btTriangleIndexVertexArray> ground_mesh;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btDefaultMotionState>> states;
    std::vector<std::unique_ptr<btRigidBody>> bodies; // index = body id (ground excluded)
    std::unique_ptr<btRigidBody> ground;
    std::unique_ptr<mk_pair_times> by_pair; // cfg.by_pair

    ~BulletWorld()
    {
        if (ground)
            world->removeRigidBody(ground.get());
        for (auto &b : bodies)
            world->removeRigidBody(b.get());
        world.reset(); // pairs and their algorithms go before the adapter
        if (mk && std::getenv("MK_BULLET_STATS")) { // diagnostics: what the adapter did
            mk_bullet_stats st = mk_bullet_get_stats(mk);
            std::fprintf(stderr, "\nminkowski_bullet: %llu calls, %llu answered by a separation certificate, "
                                 "%llu contact points, %llu failures\n",
                         st.calls, st.certified_apart, st.contacts, st.failures);
        }
        if (mk)
            mk_bullet_uninstall(mk);
    }
};

BulletWorld *self(mk_world *w) { return reinterpret_cast<BulletWorld *>(w); }
const BulletWorld *self(const mk_world *w) { return reinterpret_cast<const BulletWorld *>(w); }

btTransform to_bt(const mk_transform &xf)
{
    btMatrix3x3 R(btScalar(xf.R.m[0][0]), btScalar(xf.R.m[0][1]), btScalar(xf.R.m[0][2]),
                  btScalar(xf.R.m[1][0]), btScalar(xf.R.m[1][1]), btScalar(xf.R.m[1][2]),
                  btScalar(xf.R.m[2][0]), btScalar(xf.R.m[2][1]), btScalar(xf.R.m[2][2]));
    return btTransform(R, btVector3(btScalar(xf.p.x), btScalar(xf.p.y), btScalar(xf.p.z)));
}

// Hulls and cones carry Bullet's margin outside their points (0.04 m by
// default, 40% of a 0.1 m body): the scenes are built on the nominal geometry,
// so those two get a 4 mm margin, enough for Bullet's GJK, small against the
// bodies. Boxes, cylinders, spheres and capsules keep the margin inside.
const btScalar kOutsideMargin = btScalar(0.004);

btCollisionShape *make_shape(const mk_body_desc *d)
{
    const btScalar a = btScalar(d->size[0]), b = btScalar(d->size[1]), c = btScalar(d->size[2]);
    switch (d->kind) {
    case MK_BODY_BOX: return new btBoxShape(btVector3(a, b, c));
    case MK_BODY_SPHERE: return new btSphereShape(a);
    case MK_BODY_CAPSULE: return new btCapsuleShapeZ(a, 2 * b);
    case MK_BODY_CYLINDER: return new btCylinderShapeZ(btVector3(a, a, b));
    case MK_BODY_CONE: {
        btConeShapeZ *cone = new btConeShapeZ(a, 2 * b);
        cone->setMargin(kOutsideMargin);
        return cone;
    }
    case MK_BODY_HULL: {
        if (!d->points || d->num_points < 4)
            return nullptr;
        btConvexHullShape *h = new btConvexHullShape();
        for (int i = 0; i < d->num_points; ++i)
            h->addPoint(btVector3(btScalar(d->points[i].x), btScalar(d->points[i].y), btScalar(d->points[i].z)),
                        i + 1 == d->num_points);
        h->setMargin(kOutsideMargin);
        return h;
    }
    }
    return nullptr;
}

void add_ground(mk_world *w)
{
    BulletWorld *bw = self(w);
    bw->shapes.emplace_back(new btStaticPlaneShape(btVector3(0, 0, 1), 0));
    btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, bw->shapes.back().get());
    ci.m_friction = btScalar(bw->cfg.friction);
    bw->ground.reset(new btRigidBody(ci));
    bw->ground->setUserIndex(MK_PAIR_PLANE);
    bw->world->addRigidBody(bw->ground.get());
}

// A btBvhTriangleMeshShape ground: Bullet's own convex-concave algorithm in
// both runs (the minkowski adapter takes convex pairs only).
int add_ground_mesh(mk_world *w, const mk_vec3 *v, int nv, const int *idx, int nt)
{
    BulletWorld *bw = self(w);
    if (bw->ground || nv < 3 || nt < 1)
        return -1;
    bw->ground_vertices.resize(3 * size_t(nv));
    for (int i = 0; i < nv; ++i) {
        bw->ground_vertices[3 * size_t(i)] = btScalar(v[i].x);
        bw->ground_vertices[3 * size_t(i) + 1] = btScalar(v[i].y);
        bw->ground_vertices[3 * size_t(i) + 2] = btScalar(v[i].z);
    }
    bw->ground_indices.assign(idx, idx + 3 * size_t(nt));
    bw->ground_mesh.reset(new btTriangleIndexVertexArray(nt, bw->ground_indices.data(), 3 * int(sizeof(int)), nv,
                                                         bw->ground_vertices.data(), 3 * int(sizeof(btScalar))));
    bw->shapes.emplace_back(new btBvhTriangleMeshShape(bw->ground_mesh.get(), true));
    btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, bw->shapes.back().get());
    ci.m_friction = btScalar(bw->cfg.friction);
    bw->ground.reset(new btRigidBody(ci));
    bw->ground->setUserIndex(MK_PAIR_PLANE);
    bw->world->addRigidBody(bw->ground.get());
    return 0;
}

int add_body(mk_world *w, const mk_body_desc *d)
{
    BulletWorld *bw = self(w);
    btCollisionShape *s = make_shape(d);
    if (!s)
        return -1;
    bw->shapes.emplace_back(s);
    btVector3 inertia(0, 0, 0);
    if (d->mass > 0)
        s->calculateLocalInertia(btScalar(d->mass), inertia);
    bw->states.emplace_back(new btDefaultMotionState(to_bt(d->pose)));
    btRigidBody::btRigidBodyConstructionInfo ci(btScalar(d->mass), bw->states.back().get(), s, inertia);
    ci.m_friction = btScalar(bw->cfg.friction);
    bw->bodies.emplace_back(new btRigidBody(ci));
    bw->bodies.back()->setUserIndex(int(d->kind));
    bw->world->addRigidBody(bw->bodies.back().get());
    return int(bw->bodies.size()) - 1;
}

mk_step_stats step(mk_world *w)
{
    BulletWorld *bw = self(w);
    bw->dispatcher->seconds = 0;
    bw->dispatcher->pairs = 0;
    bw->world->stepSimulation(btScalar(bw->cfg.dt), 1, btScalar(bw->cfg.dt));
    mk_step_stats st;
    st.narrowphase_seconds = bw->dispatcher->seconds;
    st.contacts = 0;
    st.pairs = bw->dispatcher->pairs;
    for (int i = 0; i < bw->dispatcher->getNumManifolds(); ++i)
        st.contacts += bw->dispatcher->getManifoldByIndexInternal(i)->getNumContacts();
    return st;
}

mk_transform body_pose(const mk_world *w, int i)
{
    const btTransform &t = self(w)->bodies[size_t(i)]->getWorldTransform();
    mk_transform xf;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            xf.R.m[r][c] = t.getBasis()[r][c];
    xf.p = mk_vec3{t.getOrigin().x(), t.getOrigin().y(), t.getOrigin().z()};
    return xf;
}

void body_velocity(const mk_world *w, int i, mk_vec3 *lin, mk_vec3 *ang)
{
    const btRigidBody *b = self(w)->bodies[size_t(i)].get();
    const btVector3 &v = b->getLinearVelocity(), &a = b->getAngularVelocity();
    *lin = mk_vec3{v.x(), v.y(), v.z()};
    *ang = mk_vec3{a.x(), a.y(), a.z()};
}

unsigned long long minkowski_calls(const mk_world *w)
{
    const BulletWorld *bw = self(w);
    return bw->mk ? mk_bullet_get_stats(bw->mk).calls : 0;
}

void destroy(mk_world *w) { delete self(w); }

const mk_pair_times *pair_times(const mk_world *w) { return self(w)->by_pair.get(); }

const mk_world_ops kOps = {add_ground,      add_ground_mesh, add_body, step,     body_pose,
                           body_velocity,   minkowski_calls, destroy,  pair_times};

} // namespace

extern "C" mk_world *mk_bullet_world_create(const mk_world_config *cfg)
{
    if (!cfg)
        return nullptr;
    BulletWorld *bw = new BulletWorld;
    bw->base.ops = &kOps;
    bw->cfg = *cfg;
    bw->config.reset(new btDefaultCollisionConfiguration());
    bw->dispatcher.reset(new TimedDispatcher(bw->config.get()));
    if (cfg->by_pair) {
        bw->by_pair.reset(new mk_pair_times());
        bw->dispatcher->time_pairs(bw->by_pair.get());
    }
    if (cfg->narrowphase == MK_NARROWPHASE_MINKOWSKI) {
        mk_bullet_options o = mk_bullet_default_options();
        o.variant = cfg->variant;
        o.contact_model = cfg->growth ? MK_BULLET_MODEL_GROWTH : MK_BULLET_MODEL_SIGNED_DISTANCE;
        bw->mk = mk_bullet_install(bw->dispatcher.get(), &o);
        if (!bw->mk) {
            delete bw;
            return nullptr;
        }
    }
    bw->broadphase.reset(new btDbvtBroadphase());
    bw->solver.reset(new btSequentialImpulseConstraintSolver());
    bw->world.reset(new btDiscreteDynamicsWorld(bw->dispatcher.get(), bw->broadphase.get(), bw->solver.get(),
                                                bw->config.get()));
    bw->world->setGravity(btVector3(0, 0, btScalar(-cfg->gravity)));
    return &bw->base;
}
