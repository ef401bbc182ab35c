/* Smallest real use of the installed ODE adapter: a unit box resting 1 mm deep
 * on another, turned 0.2 rad, gets a face patch (more than ODE-MPR's one point)
 * from minkowski, with ODE's conventions (depth > 0, normal from g2 into g1). */
#include <minkowski/ode.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    dInitODE2(0);
    int ok = mk_ode_install(NULL) == 0;
    dGeomID a = dCreateBox(0, 1, 1, 1), b = dCreateBox(0, 1, 1, 1);
    dGeomSetPosition(b, 0, 0, 0.999);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, 0.2);
    dGeomSetRotation(b, R);
    dContactGeom c[8];
    int n = dCollide(b, a, 8, c, sizeof c[0]);
    mk_ode_stats s = mk_ode_get_stats();
    printf("minkowski ODE adapter: %d contacts, depth %.6f, normal z %.3f, %llu minkowski calls\n", n,
           n > 0 ? (double)c[0].depth : -1.0, n > 0 ? (double)c[0].normal[2] : 0.0, s.calls);
    ok = ok && n >= 4 && s.calls == 1 && fabs((double)c[0].depth - 0.001) < 1e-6 && c[0].normal[2] > 0.999;
    dGeomDestroy(a);
    dGeomDestroy(b);
    mk_ode_uninstall();
    mk_ode_shutdown();
    dCloseODE();
    return ok ? 0 : 1;
}
