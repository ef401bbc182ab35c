// The double-precision Bullet adapter is compiled with bullet-float64's flags:
// its btScalar matches the one this test sees, and it answers a pair.
#include <minkowski/bullet.h>

#include <btBulletCollisionCommon.h>

#include <check.h>
#include <cstdlib>

struct Count : btCollisionWorld::ContactResultCallback {
    int points = 0;
    btScalar distance = 1;
    btScalar addSingleResult(btManifoldPoint &cp, const btCollisionObjectWrapper *, int, int,
                             const btCollisionObjectWrapper *, int, int) override
    {
        ++points;
        distance = cp.getDistance();
        return 0;
    }
};

START_TEST(precision_matches_double)
{
    ck_assert_int_eq(int(sizeof(btScalar)), 8);
    ck_assert_int_eq(mk_bullet_scalar_size(), 8);
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btCollisionWorld world(&dispatcher, &broadphase, &config);
    mk_bullet_context *ctx = mk_bullet_install(&dispatcher, nullptr);
    ck_assert_ptr_nonnull(ctx);
    btBoxShape box(btVector3(0.1, 0.1, 0.1));
    btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
    btCollisionObject a, b;
    a.setCollisionShape(&box);
    a.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0.09)));
    b.setCollisionShape(&plane);
    Count cb;
    world.contactPairTest(&a, &b, cb);
    ck_assert_int_gt(cb.points, 0);
    ck_assert_double_eq_tol(double(cb.distance), -0.01, 1e-9);
    ck_assert_int_eq(int(mk_bullet_get_stats(ctx).calls), 1);
    mk_bullet_uninstall(ctx);
}
END_TEST

int main()
{
    Suite *s = suite_create("bullet64");
    TCase *tc = tcase_create("adapter");
    tcase_add_test(tc, precision_matches_double);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
