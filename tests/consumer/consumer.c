/* Smallest real use of the installed library: two unit spheres 3 apart are 1 apart. */
#include <minkowski/minkowski.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    mk_shape a, b;
    mk_shape_sphere(&a, 1.0);
    mk_shape_sphere(&b, 1.0);
    mk_pair pair = {&a, mk_transform_identity(), &b, mk_transform_identity()};
    pair.xf_b.p.x = 3.0;
    mk_gjk_result r;
    mk_status st = mk_gjk_distance(&pair, NULL, NULL, &r);
    printf("minkowski %s: %s, distance %.6f\n", mk_version(), mk_status_string(st), r.distance);
    return st == MK_GJK_SEPARATED && fabs(r.distance - 1.0) < 1e-9 ? 0 : 1;
}
