/* The demos' engine-neutral world (demos/world.h) on ODE: a world, a hash space,
 * contact joints from dCollide, quick-step. Stock run: ODE's own colliders (hulls
 * are dConvex; a cone, which ODE lacks, is a dConvex of its apex and 32 base rim
 * points, a 32-sided pyramid inscribed in the cone). Minkowski run: mk_ode_install
 * (hulls stay dConvex, registered; cones are minkowski cone geoms, exact).
 *
 * The narrowphase time is the wall time of the dCollide calls alone: the near
 * callback of dSpaceCollide only records the pairs the broadphase found, then
 * one timed loop runs dCollide on all of them (no clock reads per pair), then
 * the contact joints are made. Broadphase and joint creation, the same work for
 * both runs, stay out of it, as Bullet's world times only its dispatcher. */
#define _POSIX_C_SOURCE 200809L
#include "world.h"

#include <minkowski/ode.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CONTACTS 8

typedef struct ode_world {
    mk_world base; /* first: mk_world * <-> ode_world * */
    mk_world_config cfg;
    dWorldID world;
    dSpaceID space;
    dJointGroupID joints;
    int count, cap;
    dBodyID *bodies; /* NULL for static bodies */
    dGeomID *geoms;
    dGeomID (*pending)[2]; /* this step's broadphase pairs */
    int num_pending, cap_pending;
    dContact *contacts;    /* MAX_CONTACTS per pending pair */
    int *counts;
    size_t cap_contacts;   /* in pairs */
    int minkowski;
    mk_pair_times *by_pair; /* cfg.by_pair: per-pair times (geom data: pair kind + 1) */
    dTriMeshDataID ground_data; /* a mesh ground: its data and arrays (ODE does not copy them) */
    double *ground_vertices;
    dTriIndex *ground_indices;
} ode_world;

static ode_world *self(mk_world *w) { return (ode_world *)w; }
static const ode_world *cself(const mk_world *w) { return (const ode_world *)w; }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void set_rotation(dMatrix3 R, const mk_mat3 *m)
{
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            R[4 * r + c] = m->m[r][c];
        R[4 * r + 3] = 0;
    }
}

/* The pair kind of a geom (world.h), kept in its data slot as kind + 1. */
static void set_kind(dGeomID g, int kind) { dGeomSetData(g, (void *)(intptr_t)(kind + 1)); }
static int kind_of(dGeomID g) { return (int)(intptr_t)dGeomGetData(g) - 1; }

static void add_ground(mk_world *w) { set_kind(dCreatePlane(self(w)->space, 0, 0, 1, 0), MK_PAIR_PLANE); }

/* A dTriMesh ground (timed with the plane's pair kind: the ground). ODE's
 * convex-trimesh collider wants the face angles preprocessed (it aborts
 * without them). */
static int add_ground_mesh(mk_world *mw, const mk_vec3 *v, int nv, const int *idx, int nt)
{
    ode_world *w = self(mw);
    if (w->ground_data || nv < 3 || nt < 1)
        return -1;
    w->ground_vertices = malloc(sizeof(double) * 3 * (size_t)nv);
    w->ground_indices = malloc(sizeof(dTriIndex) * 3 * (size_t)nt);
    if (!w->ground_vertices || !w->ground_indices)
        return -1;
    for (int i = 0; i < nv; ++i)
        w->ground_vertices[3 * i] = v[i].x, w->ground_vertices[3 * i + 1] = v[i].y, w->ground_vertices[3 * i + 2] = v[i].z;
    for (int i = 0; i < 3 * nt; ++i)
        w->ground_indices[i] = (dTriIndex)idx[i];
    w->ground_data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(w->ground_data, w->ground_vertices, 3 * sizeof(double), nv, w->ground_indices, 3 * nt,
                                3 * sizeof(dTriIndex));
    dGeomTriMeshDataPreprocess2(w->ground_data, 1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL);
    set_kind(dCreateTriMesh(w->space, w->ground_data, NULL, NULL, NULL), MK_PAIR_PLANE);
    return 0;
}

static dGeomID cone_as_convex(dSpaceID space, double r, double h)
{
    dReal pts[3 * 33];
    for (int i = 0; i < 32; ++i) {
        double a = 2 * 3.14159265358979323846 * i / 32;
        pts[3 * i] = r * cos(a), pts[3 * i + 1] = r * sin(a), pts[3 * i + 2] = -h;
    }
    pts[96] = 0, pts[97] = 0, pts[98] = h;
    return mk_ode_create_convex(space, pts, 33);
}

static int add_body(mk_world *mw, const mk_body_desc *d)
{
    ode_world *w = self(mw);
    const double a = d->size[0], b = d->size[1], c = d->size[2];
    dGeomID g = NULL;
    dMass m;
    dMassSetZero(&m);
    const double mass = d->mass > 0 ? d->mass : 1;
    switch (d->kind) {
    case MK_BODY_BOX:
        g = dCreateBox(w->space, 2 * a, 2 * b, 2 * c);
        dMassSetBoxTotal(&m, mass, 2 * a, 2 * b, 2 * c);
        break;
    case MK_BODY_SPHERE:
        g = dCreateSphere(w->space, a);
        dMassSetSphereTotal(&m, mass, a);
        break;
    case MK_BODY_CAPSULE:
        g = dCreateCapsule(w->space, a, 2 * b);
        dMassSetCapsuleTotal(&m, mass, 3, a, 2 * b);
        break;
    case MK_BODY_CYLINDER:
        g = dCreateCylinder(w->space, a, 2 * b);
        dMassSetCylinderTotal(&m, mass, 3, a, 2 * b);
        break;
    case MK_BODY_CONE:
        g = w->minkowski ? mk_ode_create_cone(w->space, a, 2 * b) : cone_as_convex(w->space, a, b);
        dMassSetCylinderTotal(&m, mass, 3, a, 2 * b);
        break;
    case MK_BODY_HULL: {
        if (!d->points || d->num_points < 4)
            return -1;
        dReal *p = malloc(sizeof(dReal) * 3 * (size_t)d->num_points);
        if (!p)
            return -1;
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int i = 0; i < d->num_points; ++i) {
            const double q[3] = {d->points[i].x, d->points[i].y, d->points[i].z};
            for (int k = 0; k < 3; ++k) {
                p[3 * i + k] = q[k];
                lo[k] = fmin(lo[k], q[k]);
                hi[k] = fmax(hi[k], q[k]);
            }
        }
        g = mk_ode_create_convex(w->space, p, d->num_points);
        free(p);
        dMassSetBoxTotal(&m, mass, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
        break;
    }
    }
    if (!g)
        return -1;
    set_kind(g, (int)d->kind);
    if (w->count == w->cap) {
        int cap = w->cap ? 2 * w->cap : 64;
        dBodyID *nb = realloc(w->bodies, sizeof(dBodyID) * (size_t)cap);
        if (nb)
            w->bodies = nb;
        dGeomID *ng = realloc(w->geoms, sizeof(dGeomID) * (size_t)cap);
        if (ng)
            w->geoms = ng;
        if (!nb || !ng)
            return -1;
        w->cap = cap;
    }
    dMatrix3 R;
    set_rotation(R, &d->pose.R);
    dBodyID body = NULL;
    if (d->mass > 0) {
        body = dBodyCreate(w->world);
        dBodySetMass(body, &m);
        dGeomSetBody(g, body);
        dBodySetPosition(body, d->pose.p.x, d->pose.p.y, d->pose.p.z);
        dBodySetRotation(body, R);
    } else {
        dGeomSetPosition(g, d->pose.p.x, d->pose.p.y, d->pose.p.z);
        dGeomSetRotation(g, R);
    }
    w->bodies[w->count] = body;
    w->geoms[w->count] = g;
    return w->count++;
}

/* Broadphase pair: recorded for the timed narrowphase loop. */
static void near_callback(void *data, dGeomID o1, dGeomID o2)
{
    ode_world *w = data;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (!b1 && !b2)
        return;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return;
    if (w->num_pending == w->cap_pending) {
        int cap = w->cap_pending ? 2 * w->cap_pending : 256;
        dGeomID(*p)[2] = realloc(w->pending, sizeof *p * (size_t)cap);
        if (!p)
            return; /* out of memory: the pair gets no contact this step */
        w->pending = p;
        w->cap_pending = cap;
    }
    w->pending[w->num_pending][0] = o1;
    w->pending[w->num_pending][1] = o2;
    ++w->num_pending;
}

static int reserve_contacts(ode_world *w, size_t pairs)
{
    if (pairs <= w->cap_contacts)
        return 1;
    size_t cap = w->cap_contacts ? w->cap_contacts : 256;
    while (cap < pairs)
        cap *= 2;
    dContact *c = realloc(w->contacts, sizeof *c * MAX_CONTACTS * cap);
    if (c)
        w->contacts = c;
    int *n = realloc(w->counts, sizeof *n * cap);
    if (n)
        w->counts = n;
    if (!c || !n)
        return 0;
    w->cap_contacts = cap;
    return 1;
}

static mk_step_stats step(mk_world *mw)
{
    ode_world *w = self(mw);
    mk_step_stats st = {0, 0, 0};
    w->num_pending = 0;
    dSpaceCollide(w->space, w, near_callback);
    const int np = reserve_contacts(w, (size_t)w->num_pending) ? w->num_pending : 0;
    const double t0 = now();
    for (int i = 0; i < np; ++i) {
        const double ti = w->by_pair ? now() : 0; /* --by-pair: every call timed on its own */
        w->counts[i] = dCollide(w->pending[i][0], w->pending[i][1], MAX_CONTACTS, &w->contacts[i * MAX_CONTACTS].geom,
                                (int)sizeof(dContact));
        if (w->by_pair)
            mk_pair_times_add(w->by_pair, kind_of(w->pending[i][0]), kind_of(w->pending[i][1]), now() - ti,
                              w->counts[i]);
    }
    st.narrowphase_seconds = now() - t0;
    st.pairs = np;
    for (int i = 0; i < np; ++i) {
        dBodyID b1 = dGeomGetBody(w->pending[i][0]), b2 = dGeomGetBody(w->pending[i][1]);
        for (int k = 0; k < w->counts[i]; ++k) {
            dContact *c = &w->contacts[i * MAX_CONTACTS + k];
            c->surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
            c->surface.mu = w->cfg.friction;
            c->surface.soft_erp = 0.2;
            c->surface.soft_cfm = 1e-5;
            dJointID j = dJointCreateContact(w->world, w->joints, c);
            dJointAttach(j, b1, b2);
        }
        st.contacts += w->counts[i];
    }
    dWorldQuickStep(w->world, w->cfg.dt);
    dJointGroupEmpty(w->joints);
    return st;
}

static mk_transform body_pose(const mk_world *mw, int i)
{
    const ode_world *w = cself(mw);
    const dReal *p, *R;
    if (w->bodies[i]) {
        p = dBodyGetPosition(w->bodies[i]);
        R = dBodyGetRotation(w->bodies[i]);
    } else {
        p = dGeomGetPosition(w->geoms[i]);
        R = dGeomGetRotation(w->geoms[i]);
    }
    mk_transform xf;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            xf.R.m[r][c] = R[4 * r + c];
    xf.p = (mk_vec3){p[0], p[1], p[2]};
    return xf;
}

static void body_velocity(const mk_world *mw, int i, mk_vec3 *lin, mk_vec3 *ang)
{
    const ode_world *w = cself(mw);
    *lin = *ang = (mk_vec3){0, 0, 0};
    if (!w->bodies[i])
        return;
    const dReal *v = dBodyGetLinearVel(w->bodies[i]), *a = dBodyGetAngularVel(w->bodies[i]);
    *lin = (mk_vec3){v[0], v[1], v[2]};
    *ang = (mk_vec3){a[0], a[1], a[2]};
}

static unsigned long long minkowski_calls(const mk_world *mw)
{
    return cself(mw)->minkowski ? mk_ode_get_stats().calls : 0;
}

static void destroy(mk_world *mw)
{
    ode_world *w = self(mw);
    for (int i = 0; i < w->count; ++i)
        if (dGeomGetClass(w->geoms[i]) == dConvexClass)
            mk_ode_forget_convex(w->geoms[i]);
    dJointGroupDestroy(w->joints);
    dSpaceDestroy(w->space); /* destroys the geoms too (cleanup mode on) */
    dWorldDestroy(w->world);
    if (w->ground_data) {
        mk_ode_forget_trimesh_data(w->ground_data);
        dGeomTriMeshDataDestroy(w->ground_data);
    }
    free(w->ground_vertices);
    free(w->ground_indices);
    if (w->minkowski)
        mk_ode_uninstall();
    free(w->bodies);
    free(w->geoms);
    free(w->pending);
    free(w->contacts);
    free(w->counts);
    free(w->by_pair);
    free(w);
}

static const mk_pair_times *pair_times(const mk_world *w) { return cself(w)->by_pair; }

static const mk_world_ops kOps = {add_ground, add_ground_mesh, add_body, step,      body_pose, body_velocity,
                                  minkowski_calls, destroy,  pair_times};

mk_world *mk_ode_world_create(const mk_world_config *cfg)
{
    static int initialised = 0;
    if (!cfg)
        return NULL;
    if (!initialised) {
        dInitODE2(0);
        dAllocateODEDataForThread(dAllocateMaskAll);
        initialised = 1;
    }
    ode_world *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->base.ops = &kOps;
    w->cfg = *cfg;
    w->minkowski = cfg->narrowphase == MK_NARROWPHASE_MINKOWSKI;
    if (cfg->by_pair && !(w->by_pair = calloc(1, sizeof *w->by_pair))) {
        free(w);
        return NULL;
    }
    if (w->minkowski) {
        mk_ode_options o = mk_ode_default_options();
        o.variant = cfg->variant;
        o.contact_model = cfg->growth ? MK_ODE_MODEL_GROWTH : MK_ODE_MODEL_SIGNED_DISTANCE;
        if (mk_ode_install(&o) != 0) {
            free(w->by_pair);
            free(w);
            return NULL;
        }
        mk_ode_reset_stats();
    }
    /* QuickStep reorders its constraints with ODE's process-wide random
     * generator: without a reset every run started from the state the runs
     * before it left (one contact more anywhere earlier, and stock's falling
     * dConvex stack fell another way: at rest after 3.33 s or never, 52.1 or
     * 53.2 mm). Each world starts from ODE's initial seed. */
    dRandSetSeed(0);
    w->world = dWorldCreate();
    w->space = dHashSpaceCreate(0);
    w->joints = dJointGroupCreate(0);
    dWorldSetGravity(w->world, 0, 0, -cfg->gravity);
    dWorldSetERP(w->world, 0.2);
    dWorldSetCFM(w->world, 1e-5);
    dWorldSetQuickStepNumIterations(w->world, 20);
    dWorldSetContactSurfaceLayer(w->world, 0.001);
    dWorldSetContactMaxCorrectingVel(w->world, 10);
    dWorldSetAutoDisableFlag(w->world, 1);
    return &w->base;
}
