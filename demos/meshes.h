/* Point sets as they come from meshes, shared by the demo and the tests. */
#ifndef MK_DEMOS_MESHES_H
#define MK_DEMOS_MESHES_H

#include <math.h>
#include <minkowski/shape.h>

/* Points mesh_cube writes at most for a grid. */
#define MESH_CUBE_MAX(grid) (6 * ((grid) + 1) * ((grid) + 1))

/* q moved by up to 1e-7 per coordinate (the next three draws of *state)
 * and rounded to single precision, into *out. The rounding goes through a
 * volatile float: gcc 12.2's SLP vectorizer (-O3) dropped the rounding of
 * such (float) casts of x and y, even into a float array, and -O3 and -O2
 * builds made different points. */
static inline void mesh_point(const double q[3], unsigned long long *state, mk_vec3 *out)
{
    double c[3];
    for (int k = 0; k < 3; ++k) {
        *state = *state * 6364136223846793005ull + 1442695040888963407ull;
        volatile float f = (float)(q[k] + 2e-7 * ((double)(*state >> 11) / 9007199254740992.0 - 0.5));
        c[k] = f;
    }
    out->x = c[0];
    out->y = c[1];
    out->z = c[2];
}

/* A 0.2 m cube about the origin as it comes from a mesh: a (grid + 1) x
 * (grid + 1) grid of points on every face (edges and corners once), every
 * coordinate moved by up to 1e-7 (a fixed sequence from seed) and rounded
 * to single precision, so that each face is many facets microradians apart.
 * Returns the point count. */
static inline int mesh_cube(int grid, unsigned long long seed, mk_vec3 *pts)
{
    int n = 0;
    unsigned long long state = seed;
    for (int ax = 0; ax < 3; ++ax)
        for (int sg = -1; sg <= 1; sg += 2)
            for (int i = 0; i <= grid; ++i)
                for (int j = 0; j <= grid; ++j) {
                    double p[3];
                    p[ax] = sg * 0.1;
                    p[(ax + 1) % 3] = -0.1 + 0.2 * i / grid;
                    p[(ax + 2) % 3] = -0.1 + 0.2 * j / grid;
                    int dup = 0;
                    for (int q = 0; q < n && !dup; ++q)
                        dup = fabs(pts[q].x - p[0]) < 1e-6 && fabs(pts[q].y - p[1]) < 1e-6 &&
                              fabs(pts[q].z - p[2]) < 1e-6;
                    if (!dup)
                        mesh_point(p, &state, &pts[n++]);
                }
    return n;
}

/* A 4 m x 4 m slab 0.2 thick, its top at z = 0, as it comes from a mesh: a
 * (grid + 1)^2 grid of points on the top, the bottom's rim, coordinates
 * moved and rounded as mesh_cube's. Returns the point count (at most
 * MESH_SLAB_MAX(grid)). */
#define MESH_SLAB_MAX(grid) (2 * ((grid) + 1) * ((grid) + 1))
static inline int mesh_slab(int grid, unsigned long long seed, mk_vec3 *pts)
{
    int n = 0;
    unsigned long long state = seed;
    for (int top = 0; top < 2; ++top)
        for (int i = 0; i <= grid; ++i)
            for (int j = 0; j <= grid; ++j) {
                if (!top && i > 0 && i < grid && j > 0 && j < grid)
                    continue; /* the bottom: its rim only */
                const double q[3] = {-2 + 4.0 * i / grid, -2 + 4.0 * j / grid, top ? 0 : -0.2};
                mesh_point(q, &state, &pts[n++]);
            }
    return n;
}

/* The 2 * sides corners of a prism (a cylinder's mesh) of radius 0.1 and
 * height 0.1 about the origin, axis z. Returns the point count. */
static inline int mesh_prism(int sides, mk_vec3 *pts)
{
    int n = 0;
    for (int k = 0; k < sides; ++k) {
        const double a = 2 * 3.141592653589793 * k / sides;
        for (int top = 0; top < 2; ++top) {
            pts[n].x = 0.1 * cos(a);
            pts[n].y = 0.1 * sin(a);
            pts[n].z = top ? 0.05 : -0.05;
            ++n;
        }
    }
    return n;
}

#endif
