/* mk_bench peer: ODE 0.16 (Debian libode-dev) rays, for the ray section:
 * dCollide of a dRay with a dBox (ODE's analytic ray-box collider) or with a
 * dConvex made of the same hull (ODE's ray-convex collider: the hull's face
 * planes, from mk_hull). ODE 0.16.2's ray-convex collider misses most rays
 * through hulls with triangular faces (ode.h); its rows show that in the
 * wrong-verdict column. One geom per ray, posed outside the timed calls;
 * the timed call sets the ray and collides, as a sensor does each step. */
#include "bench_c.h"

#include <ode/ode.h>
#include <stdlib.h>

typedef struct ode_ray_ctx {
    int n;
    dGeomID ray;
    dGeomID *geoms;
    dReal **planes, **points; /* per pool hull (dConvex keeps the caller's arrays) */
    unsigned **polys;
    int pool_count;
} ode_ray_ctx;

/* The hull about its centroid c (ODE wants the convex's origin inside it: a
 * hull of 12 random points on an ellipsoid misses its centre now and then),
 * posed at p + R c by the caller: the same solid. */
static void convex_arrays(const mk_hull *h, dReal **planes, dReal **points, unsigned **polys)
{
    const mk_vec3 c = h->centroid;
    const int nf = h->num_faces, nv = h->num_vertices;
    *planes = malloc(sizeof(dReal) * 4 * (size_t)nf);
    *points = malloc(sizeof(dReal) * 3 * (size_t)nv);
    *polys = malloc(sizeof(unsigned) * (size_t)(nf + h->face_start[nf]));
    if (!*planes || !*points || !*polys)
        return;
    for (int f = 0, k = 0; f < nf; ++f) {
        (*planes)[4 * f] = h->face_normals[f].x, (*planes)[4 * f + 1] = h->face_normals[f].y;
        (*planes)[4 * f + 2] = h->face_normals[f].z;
        (*planes)[4 * f + 3] = h->face_offsets[f] - b3_dot(h->face_normals[f], c);
        (*polys)[k++] = (unsigned)(h->face_start[f + 1] - h->face_start[f]);
        for (int i = h->face_start[f]; i < h->face_start[f + 1]; ++i)
            (*polys)[k++] = (unsigned)h->face_vertices[i];
    }
    for (int v = 0; v < nv; ++v)
        (*points)[3 * v] = h->vertices[v].x - c.x, (*points)[3 * v + 1] = h->vertices[v].y - c.y,
        (*points)[3 * v + 2] = h->vertices[v].z - c.z;
}

/* Poses a geom whose origin is at `centre` in the shape's frame (a hull's
 * centroid, for convex_arrays; 0 otherwise): the shape posed by xf. */
static void pose_geom(dGeomID g, const mk_transform *xf, mk_vec3 centre)
{
    dMatrix3 R;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            R[4 * r + c] = xf->R.m[r][c];
        R[4 * r + 3] = 0;
    }
    dGeomSetRotation(g, R);
    const mk_vec3 c = mk_transform_point(xf, centre);
    dGeomSetPosition(g, c.x, c.y, c.z);
}

void peer_ode_ray_release(void *ctx)
{
    ode_ray_ctx *x = ctx;
    if (!x)
        return;
    for (int i = 0; i < x->n; ++i)
        if (x->geoms && x->geoms[i])
            dGeomDestroy(x->geoms[i]);
    if (x->ray)
        dGeomDestroy(x->ray);
    for (int i = 0; i < x->pool_count; ++i) {
        if (x->planes)
            free(x->planes[i]);
        if (x->points)
            free(x->points[i]);
        if (x->polys)
            free(x->polys[i]);
    }
    free(x->planes), free(x->points), free(x->polys), free(x->geoms);
    free(x);
    dCloseODE();
}

void *peer_ode_ray_make(const bench_pool *pool, int n, const int *shape, const mk_transform *xf)
{
    if (pool->fam == FAM_ELLIPSOID)
        return NULL; /* ODE has no ellipsoid */
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    ode_ray_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->n = n;
    x->pool_count = pool->count;
    x->geoms = calloc((size_t)n, sizeof *x->geoms);
    x->planes = calloc((size_t)pool->count, sizeof *x->planes);
    x->points = calloc((size_t)pool->count, sizeof *x->points);
    x->polys = calloc((size_t)pool->count, sizeof *x->polys);
    x->ray = dCreateRay(0, 1);
    if (!x->geoms || !x->planes || !x->points || !x->polys) {
        peer_ode_ray_release(x);
        return NULL;
    }
    for (int i = 0; i < n; ++i) {
        const mk_shape *s = &pool->shapes[shape[i]];
        if (s->type == MK_SHAPE_BOX) {
            const mk_vec3 h = s->u.box.half_extents;
            x->geoms[i] = dCreateBox(0, 2 * h.x, 2 * h.y, 2 * h.z);
        } else {
            const int k = shape[i];
            if (!x->planes[k])
                convex_arrays(s->u.hull.hull, &x->planes[k], &x->points[k], &x->polys[k]);
            if (!x->planes[k] || !x->points[k] || !x->polys[k]) {
                peer_ode_ray_release(x);
                return NULL;
            }
            const mk_hull *h = s->u.hull.hull;
            x->geoms[i] = dCreateConvex(0, x->planes[k], (unsigned)h->num_faces, x->points[k],
                                        (unsigned)h->num_vertices, x->polys[k]);
        }
        pose_geom(x->geoms[i], &xf[i], s->type == MK_SHAPE_HULL ? s->u.hull.hull->centroid : b3(0, 0, 0));
    }
    return x;
}

int peer_ode_ray(void *ctx, int i, mk_vec3 o, mk_vec3 u, double len, double *t)
{
    ode_ray_ctx *x = ctx;
    dGeomRaySet(x->ray, o.x, o.y, o.z, u.x, u.y, u.z);
    dGeomRaySetLength(x->ray, len);
    dContactGeom c;
    *t = 0;
    if (dCollide(x->ray, x->geoms[i], 1, &c, sizeof c) != 1)
        return 0;
    *t = c.depth;
    return 1;
}

/* ------------------------------------------------------------ trimesh (the mesh section) */

typedef struct ode_mesh_ctx {
    dTriMeshDataID data;
    dGeomID floor, geom;
    dReal *v;
    dTriIndex *idx;
    dReal *planes, *points; /* the current dConvex's arrays */
    unsigned *polys;
    mk_vec3 centre; /* the current geom's origin in the shape's frame (a hull's centroid) */
} ode_mesh_ctx;

static void drop_mesh_geom(ode_mesh_ctx *x)
{
    if (x->geom)
        dGeomDestroy(x->geom);
    free(x->planes), free(x->points), free(x->polys);
    x->geom = NULL, x->planes = x->points = NULL, x->polys = NULL;
}

void peer_ode_mesh_release(void *ctx)
{
    ode_mesh_ctx *x = ctx;
    if (!x)
        return;
    drop_mesh_geom(x);
    if (x->floor)
        dGeomDestroy(x->floor);
    if (x->data)
        dGeomTriMeshDataDestroy(x->data);
    free(x->v), free(x->idx);
    free(x);
    dCloseODE();
}

void *peer_ode_mesh_make(const mk_vec3 *v, int nv, const int *idx, int nt)
{
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    ode_mesh_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->v = malloc(sizeof(dReal) * 3 * (size_t)nv);
    x->idx = malloc(sizeof(dTriIndex) * 3 * (size_t)nt);
    if (!x->v || !x->idx) {
        peer_ode_mesh_release(x);
        return NULL;
    }
    for (int i = 0; i < nv; ++i)
        x->v[3 * i] = v[i].x, x->v[3 * i + 1] = v[i].y, x->v[3 * i + 2] = v[i].z;
    for (int i = 0; i < 3 * nt; ++i)
        x->idx[i] = (dTriIndex)idx[i];
    x->data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(x->data, x->v, 3 * sizeof(dReal), nv, x->idx, 3 * nt, 3 * sizeof(dTriIndex));
    /* its convex-trimesh collider wants the face angles (ODE aborts without them) */
    dGeomTriMeshDataPreprocess2(x->data, 1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL);
    x->floor = dCreateTriMesh(0, x->data, NULL, NULL, NULL);
    return x;
}

int peer_ode_mesh_shape(void *ctx, const mk_shape *s)
{
    ode_mesh_ctx *x = ctx;
    drop_mesh_geom(x);
    x->centre = b3(0, 0, 0);
    if (s->type == MK_SHAPE_SPHERE) {
        x->geom = dCreateSphere(0, s->radius);
    } else if (s->type == MK_SHAPE_BOX) {
        const mk_vec3 h = s->u.box.half_extents;
        x->geom = dCreateBox(0, 2 * h.x, 2 * h.y, 2 * h.z);
    } else if (s->type == MK_SHAPE_CAPSULE) {
        x->geom = dCreateCapsule(0, s->radius, 2 * s->u.capsule.half_height);
    } else if (s->type == MK_SHAPE_CYLINDER && s->radius == 0) {
        x->geom = dCreateCylinder(0, s->u.cylinder.radius, 2 * s->u.cylinder.half_height);
    } else if (s->type == MK_SHAPE_HULL) {
        const mk_hull *h = s->u.hull.hull;
        convex_arrays(h, &x->planes, &x->points, &x->polys);
        if (!x->planes || !x->points || !x->polys)
            return 0;
        x->geom = dCreateConvex(0, x->planes, (unsigned)h->num_faces, x->points, (unsigned)h->num_vertices, x->polys);
        x->centre = h->centroid;
    }
    return x->geom != NULL;
}

int peer_ode_mesh_collide(void *ctx, const mk_transform *xf, int max, double *depth, mk_vec3 *normal)
{
    ode_mesh_ctx *x = ctx;
    pose_geom(x->geom, xf, x->centre);
    dContactGeom cg[64];
    const int n = dCollide(x->geom, x->floor, max < 64 ? max : 64, cg, sizeof cg[0]);
    for (int k = 0; k < n; ++k) {
        depth[k] = cg[k].depth;
        normal[k] = b3(cg[k].normal[0], cg[k].normal[1], cg[k].normal[2]); /* from g2 (the floor) into g1 */
    }
    return n;
}
