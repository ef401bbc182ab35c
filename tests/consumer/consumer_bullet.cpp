// Smallest real use of the installed Bullet adapter: a box dropped on a box
// comes to rest in a world whose dispatcher answers through minkowski (the
// adapter's statistics count the calls and the contacts handed to Bullet).
#include <btBulletDynamicsCommon.h>
#include <minkowski/bullet.h>
#include <cmath>
#include <cstdio>

int main()
{
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    mk_bullet_context *mk = mk_bullet_install(&dispatcher, nullptr);
    bool ok = mk != nullptr && mk_bullet_scalar_size() == int(sizeof(btScalar));
    double z = 0;
    unsigned long long calls = 0, contacts = 0;
    {
        btDbvtBroadphase broadphase;
        btSequentialImpulseConstraintSolver solver;
        btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
        world.setGravity(btVector3(0, 0, -9.81));
        btBoxShape ground_shape(btVector3(5, 5, 0.5)), box_shape(btVector3(0.5, 0.5, 0.5));
        btRigidBody ground(0, nullptr, &ground_shape);
        ground.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, -0.5)));
        btVector3 inertia(0, 0, 0);
        box_shape.calculateLocalInertia(1, inertia);
        btRigidBody box(1, nullptr, &box_shape, inertia);
        box.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 1)));
        world.addRigidBody(&ground);
        world.addRigidBody(&box);
        for (int i = 0; i < 240; ++i)
            world.stepSimulation(btScalar(1) / 60, 1, btScalar(1) / 60);
        z = double(box.getWorldTransform().getOrigin().z());
        world.removeRigidBody(&box);
        world.removeRigidBody(&ground);
        mk_bullet_stats s = mk_bullet_get_stats(mk);
        calls = s.calls;
        contacts = s.contacts;
    }
    std::printf("minkowski Bullet adapter (btScalar of %d bytes): box at rest at z = %.4f, %llu calls, %llu contacts\n",
                int(sizeof(btScalar)), z, calls, contacts);
    mk_bullet_uninstall(mk);
    // Resting on the ground's top face (z = 0) within Bullet's margins.
    ok = ok && calls > 0 && contacts > 0 && std::fabs(z - 0.5) < 0.02;
    return ok ? 0 : 1;
}
