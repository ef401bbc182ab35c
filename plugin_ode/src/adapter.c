/* minkowski ODE adapter: collider overrides, geom classes for the shapes ODE
 * lacks, and the dConvex side table. A thin translator: ODE geom -> mk_shape,
 * pair -> mk_collide, manifold -> dContactGeom in ODE's conventions
 * (ENGINES.md). Process-global like ODE's own collider table. */
#include <minkowski/minkowski.h>
#include <minkowski/ode.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ ODE's stock colliders */

/* ODE's collider functions and its collider-table initialiser are C++ symbols
 * with external linkage (nm -D libode.so) and no C declaration: bound here by
 * their mangled names (Itanium C++ ABI: GCC and Clang). */
#define STOCK(name, mangled) extern int name(dGeomID, dGeomID, int, dContactGeom *, int) __asm__(mangled)
STOCK(stock_sphere_sphere, "_Z20dCollideSphereSphereP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_sphere_box, "_Z17dCollideSphereBoxP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_sphere_plane, "_Z19dCollideSpherePlaneP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_box_box, "_Z14dCollideBoxBoxP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_box_plane, "_Z16dCollideBoxPlaneP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_capsule_sphere, "_Z21dCollideCapsuleSphereP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_capsule_box, "_Z18dCollideCapsuleBoxP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_capsule_capsule, "_Z22dCollideCapsuleCapsuleP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_capsule_plane, "_Z20dCollideCapsulePlaneP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_cylinder_box, "_Z19dCollideCylinderBoxP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_cylinder_sphere, "_Z22dCollideCylinderSphereP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_cylinder_plane, "_Z21dCollideCylinderPlaneP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_cylinder_cylinder, "_Z24dCollideCylinderCylinderP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_capsule_cylinder, "_Z23dCollideCapsuleCylinderP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_convex_box, "_Z20dCollideConvexBoxCCDP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_convex_capsule, "_Z24dCollideConvexCapsuleCCDP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_convex_cylinder, "_Z25dCollideConvexCylinderCCDP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_convex_sphere, "_Z23dCollideConvexSphereCCDP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_convex_convex, "_Z23dCollideConvexConvexCCDP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_convex_plane, "_Z19dCollideConvexPlaneP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_ray_convex, "_Z17dCollideRayConvexP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_trimesh_box, "_Z11dCollideBTLP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_trimesh_capsule, "_Z12dCollideCCTLP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_cylinder_trimesh, "_Z23dCollideCylinderTrimeshP6dxGeomS0_iP12dContactGeomi");
STOCK(stock_convex_trimesh, "_Z21dCollideConvexTrimeshP6dxGeomS0_iP12dContactGeomi");
extern void stock_init_colliders(void) __asm__("_Z14dInitCollidersv");
extern void stock_finit_colliders(void) __asm__("_Z15dFinitCollidersv");

/* The stock routing of every pair among the six kinds the adapter takes over,
 * as ODE 0.16.2 built by Debian (libccd on) sets it up: fn(geom of `first`,
 * geom of `second`); `mpr` marks libccd's MPR (one contact), the others are
 * ODE's own analytic colliders. Box-cylinder is ODE's native collider there,
 * not libccd's; the ode suite checks this table against dCollide in a fresh
 * process. */
typedef struct stock_route {
    int first, second;
    dColliderFn *fn;
    int mpr;
} stock_route;

static const stock_route kStockRoutes[] = {
    {dSphereClass, dSphereClass, stock_sphere_sphere, 0},
    {dSphereClass, dBoxClass, stock_sphere_box, 0},
    {dSphereClass, dPlaneClass, stock_sphere_plane, 0},
    {dBoxClass, dBoxClass, stock_box_box, 0},
    {dBoxClass, dPlaneClass, stock_box_plane, 0},
    {dCapsuleClass, dSphereClass, stock_capsule_sphere, 0},
    {dCapsuleClass, dBoxClass, stock_capsule_box, 0},
    {dCapsuleClass, dCapsuleClass, stock_capsule_capsule, 0},
    {dCapsuleClass, dPlaneClass, stock_capsule_plane, 0},
    {dCylinderClass, dBoxClass, stock_cylinder_box, 0},
    {dCylinderClass, dSphereClass, stock_cylinder_sphere, 0},
    {dCylinderClass, dPlaneClass, stock_cylinder_plane, 0},
    {dCylinderClass, dCylinderClass, stock_cylinder_cylinder, 1},
    {dCapsuleClass, dCylinderClass, stock_capsule_cylinder, 1},
    {dConvexClass, dBoxClass, stock_convex_box, 1},
    {dConvexClass, dCapsuleClass, stock_convex_capsule, 1},
    {dConvexClass, dCylinderClass, stock_convex_cylinder, 1},
    {dConvexClass, dSphereClass, stock_convex_sphere, 1},
    {dConvexClass, dConvexClass, stock_convex_convex, 1},
    {dConvexClass, dPlaneClass, stock_convex_plane, 0},
};

/* The stock trimesh colliders MK_ODE_TRIMESH takes over (fn(geom of
 * `first`, geom of `second`), as dInitColliders sets them), by kind. */
static const stock_route kTrimeshRoutes[] = {
    {dTriMeshClass, dBoxClass, stock_trimesh_box, 0},
    {dTriMeshClass, dCapsuleClass, stock_trimesh_capsule, 0},
    {dCylinderClass, dTriMeshClass, stock_cylinder_trimesh, 0},
    {dConvexClass, dTriMeshClass, stock_convex_trimesh, 1}, /* libccd */
};

static const stock_route *stock_route_of(int class1, int class2, int *reverse)
{
    for (size_t i = 0; i < sizeof kStockRoutes / sizeof kStockRoutes[0]; ++i) {
        const stock_route *r = &kStockRoutes[i];
        if ((r->first == class1 && r->second == class2) || (r->first == class2 && r->second == class1)) {
            if (reverse)
                *reverse = r->first != class1;
            return r;
        }
    }
    if (reverse)
        *reverse = 0;
    return NULL;
}

dColliderFn *mk_ode_stock_collider(int class1, int class2, int *reverse)
{
    const stock_route *r = stock_route_of(class1, class2, reverse);
    return r ? r->fn : NULL;
}

/* Flips contacts [0, n) the way dCollide does for a reversed call. */
static void flip_contacts(dContactGeom *c, int n, int skip)
{
    for (int i = 0; i < n; ++i) {
        dContactGeom *g = (dContactGeom *)((char *)c + (size_t)i * (size_t)skip);
        g->normal[0] = -g->normal[0], g->normal[1] = -g->normal[1], g->normal[2] = -g->normal[2];
        dGeomID t = g->g1;
        g->g1 = g->g2, g->g2 = t;
        int s = g->side1;
        g->side1 = g->side2, g->side2 = s;
    }
}

/* The stock answer for (o1, o2) in ODE's conventions (g1 = o1). */
static int stock_collide(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip)
{
    int reverse = 0;
    dColliderFn *fn = mk_ode_stock_collider(dGeomGetClass(o1), dGeomGetClass(o2), &reverse);
    if (!fn)
        return 0;
    if (!reverse)
        return fn(o1, o2, flags, c, skip);
    int n = fn(o2, o1, flags, c, skip);
    flip_contacts(c, n, skip);
    return n;
}

/* ------------------------------------------------------------ state */

/* The last heightfield patch a minkowski geom met (heightfield_collider):
 * its cells' corners in the heightfield's frame and their mesh. */
typedef struct hf_patch {
    int count; /* corners */
    mk_mesh *mesh;
    mk_vec3 v[]; /* the corners, as mk_mesh_create_grid took them */
} hf_patch;

/* Class data of the minkowski geom classes. */
typedef struct geom_data {
    mk_shape shape;
    mk_hull *hull; /* owned (hull class) */
    int aabb_hint[6];
    hf_patch *patch; /* owned */
} geom_data;

/* Side-table entry of a registered dConvex. */
typedef struct convex_entry {
    dGeomID key; /* NULL: empty; TOMBSTONE: removed */
    mk_hull *hull;
    mk_shape shape;
    dReal *planes, *points; /* owned when made by mk_ode_create_convex */
    unsigned *polygons;
} convex_entry;

#define TOMBSTONE ((dGeomID)(uintptr_t)1)

/* Warm-start caches per geom pair: ODE has no per-pair object, so a table
 * keyed by the ordered pair, bounded: a pair looks for its entry, or room, in
 * PAIR_CACHE_WINDOW slots from its hash, and when all are taken the least
 * recently used of them goes (a miss is only a cold start). A warm start
 * changes answers in their last digits, so which pairs keep their caches must
 * not depend on where the geoms sit in memory: with a direct-mapped table,
 * two pairs whose addresses hashed to one slot evicted each other, and the
 * demo's ODE scenes came out differently from run to run (address space
 * randomisation). Now live pairs are evicted only when more than a window's
 * worth share a neighbourhood. */
#define PAIR_CACHE_SIZE 8192
#define PAIR_CACHE_WINDOW 16
typedef struct pair_cache {
    dGeomID a, b;
    unsigned long long used; /* G.use_clock at the last use (0: empty) */
    mk_shape sa, sb;       /* the shapes the caches were made for (stable addresses) */
    mk_collide_cache cc;   /* warm start, separation certificate, contact memory */
    mk_growth_cache growth;
} pair_cache;

/* A dTriMesh's triangles as an mk_mesh, per dTriMeshDataID (geoms sharing
 * data share it): read once through dGeomTriMeshGetTriangle (ODE has no
 * getter for the data itself; that gives world corners, taken back to the
 * geom's frame), rebuilt when the triangle count or the first or last
 * triangle no longer match (data rebuilt in place, or freed and another
 * made at its address). */
typedef struct mesh_entry {
    dTriMeshDataID data;
    int triangles;
    mk_vec3 probe[6]; /* the first and last triangles' corners, mesh frame */
    mk_mesh *mesh;
} mesh_entry;

/* The six stock kinds, in the order of the MK_ODE_* bits. */
#define NUM_KINDS 6
static const int kKindClass[NUM_KINDS] = {dBoxClass, dSphereClass, dCapsuleClass, dCylinderClass, dConvexClass,
                                          dPlaneClass};

static struct {
    int installed;
    int classes_made;
    int cone_class, ellipsoid_class, hull_class;
    unsigned char overridden[NUM_KINDS][NUM_KINDS]; /* stock cells install changed */
    int ray_convex_overridden;                      /* (dRayClass, dConvexClass) too */
    unsigned char trimesh_overridden[4];            /* kTrimeshRoutes' cells install changed */
    mk_ode_options options;
    mk_collide_settings settings;
    mk_ode_stats stats;
    convex_entry *table;
    size_t cap, used; /* used counts live entries + tombstones */
    pair_cache *pairs;
    unsigned long long use_clock;
    mesh_entry *meshes; /* dTriMesh data met so far */
    int num_meshes, mesh_cap;
} G;

static pair_cache *cache_for(dGeomID a, dGeomID b)
{
    if (!G.pairs) {
        G.pairs = calloc(PAIR_CACHE_SIZE, sizeof *G.pairs);
        if (!G.pairs)
            return NULL;
    }
    uintptr_t h = ((uintptr_t)a >> 4) * 0x9E3779B97F4A7C15ull ^ ((uintptr_t)b >> 4) * 0xC2B2AE3D27D4EB4Full;
    const size_t first = (h >> 17) & (PAIR_CACHE_SIZE - 1);
    pair_cache *victim = NULL;
    for (size_t k = 0; k < PAIR_CACHE_WINDOW; ++k) {
        pair_cache *c = &G.pairs[(first + k) & (PAIR_CACHE_SIZE - 1)];
        if (c->used && c->a == a && c->b == b) {
            c->used = ++G.use_clock;
            return c;
        }
        if (!victim || c->used < victim->used)
            victim = c; /* an empty slot (used 0) first, else the least recently used */
    }
    memset(victim, 0, sizeof *victim);
    victim->a = a, victim->b = b;
    victim->used = ++G.use_clock;
    return victim;
}

/* ------------------------------------------------------------ dConvex side table */

static size_t slot_of(dGeomID g, size_t cap) { return (size_t)(((uintptr_t)g >> 4) * 0x9E3779B97F4A7C15ull) & (cap - 1); }

static convex_entry *find_convex(dGeomID g)
{
    if (!G.cap)
        return NULL;
    for (size_t i = slot_of(g, G.cap), n = 0; n < G.cap; i = (i + 1) & (G.cap - 1), ++n) {
        if (G.table[i].key == g)
            return &G.table[i];
        if (!G.table[i].key)
            return NULL;
    }
    return NULL;
}

static void free_entry(convex_entry *e)
{
    mk_hull_destroy(e->hull);
    free(e->planes);
    free(e->points);
    free(e->polygons);
    memset(e, 0, sizeof *e);
}

/* Open addressing with linear probing; grows (dropping tombstones) at half load. */
static convex_entry *insert_convex(dGeomID g)
{
    convex_entry *e = find_convex(g);
    if (e) {
        free_entry(e);
        e->key = g;
        return e;
    }
    if ((G.used + 1) * 2 > G.cap) {
        size_t cap = G.cap ? G.cap * 2 : 64;
        convex_entry *t = calloc(cap, sizeof *t);
        if (!t)
            return NULL;
        size_t used = 0;
        for (size_t i = 0; i < G.cap; ++i) {
            if (!G.table[i].key || G.table[i].key == TOMBSTONE)
                continue;
            size_t j = slot_of(G.table[i].key, cap);
            while (t[j].key)
                j = (j + 1) & (cap - 1);
            t[j] = G.table[i];
            ++used;
        }
        free(G.table);
        G.table = t;
        G.cap = cap;
        G.used = used;
    }
    size_t i = slot_of(g, G.cap);
    while (G.table[i].key && G.table[i].key != TOMBSTONE)
        i = (i + 1) & (G.cap - 1);
    if (!G.table[i].key)
        ++G.used;
    memset(&G.table[i], 0, sizeof G.table[i]);
    G.table[i].key = g;
    return &G.table[i];
}

void mk_ode_forget_convex(dGeomID g)
{
    convex_entry *e = find_convex(g);
    if (e) {
        free_entry(e);
        e->key = TOMBSTONE;
    }
}

static mk_hull *hull_of(const dReal *points, int count)
{
    if (!points || count < 4)
        return NULL;
    mk_vec3 *p = malloc(sizeof(mk_vec3) * (size_t)count);
    if (!p)
        return NULL;
    for (int i = 0; i < count; ++i)
        p[i] = (mk_vec3){points[3 * i], points[3 * i + 1], points[3 * i + 2]};
    mk_hull *h = NULL;
    if (mk_hull_create(p, count, &h) != MK_OK)
        h = NULL;
    free(p);
    return h;
}

int mk_ode_register_convex(dGeomID g, const dReal *points, int count)
{
    if (!g || dGeomGetClass(g) != dConvexClass)
        return -1;
    mk_hull *h = hull_of(points, count);
    if (!h)
        return -1;
    convex_entry *e = insert_convex(g);
    if (!e) {
        mk_hull_destroy(h);
        return -1;
    }
    e->hull = h;
    mk_shape_hull(&e->shape, h, 0);
    return 0;
}

/* dConvex wants planes (n, d) with <n, x> = d, the points, and per face its
 * vertex count then its vertex indices, counter-clockwise seen from outside:
 * exactly Qhull's hull as mk_hull keeps it. */
dGeomID mk_ode_create_convex(dSpaceID space, const dReal *points, int count)
{
    mk_hull *h = hull_of(points, count);
    if (!h)
        return NULL;
    int nv = h->num_vertices, nf = h->num_faces, corners = h->face_start[nf];
    dReal *planes = malloc(sizeof(dReal) * 4 * (size_t)nf);
    dReal *pts = malloc(sizeof(dReal) * 3 * (size_t)nv);
    unsigned *polys = malloc(sizeof(unsigned) * (size_t)(nf + corners));
    if (!planes || !pts || !polys) {
        free(planes), free(pts), free(polys);
        mk_hull_destroy(h);
        return NULL;
    }
    for (int v = 0; v < nv; ++v) {
        pts[3 * v] = h->vertices[v].x, pts[3 * v + 1] = h->vertices[v].y, pts[3 * v + 2] = h->vertices[v].z;
    }
    size_t k = 0;
    for (int f = 0; f < nf; ++f) {
        planes[4 * f] = h->face_normals[f].x, planes[4 * f + 1] = h->face_normals[f].y;
        planes[4 * f + 2] = h->face_normals[f].z, planes[4 * f + 3] = h->face_offsets[f];
        polys[k++] = (unsigned)(h->face_start[f + 1] - h->face_start[f]);
        for (int j = h->face_start[f]; j < h->face_start[f + 1]; ++j)
            polys[k++] = (unsigned)h->face_vertices[j];
    }
    dGeomID g = dCreateConvex(space, planes, (unsigned)nf, pts, (unsigned)nv, polys);
    convex_entry *e = insert_convex(g);
    if (!e) {
        dGeomDestroy(g);
        free(planes), free(pts), free(polys);
        mk_hull_destroy(h);
        return NULL;
    }
    e->hull = h;
    e->planes = planes, e->points = pts, e->polygons = polys;
    mk_shape_hull(&e->shape, h, 0);
    return g;
}

/* ------------------------------------------------------------ geoms -> shapes */

static int is_ours(int cls)
{
    return G.classes_made && (cls == G.cone_class || cls == G.ellipsoid_class || cls == G.hull_class);
}

static mk_transform pose_of(dGeomID g)
{
    const dReal *p = dGeomGetPosition(g), *R = dGeomGetRotation(g);
    mk_transform xf;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            xf.R.m[r][c] = R[4 * r + c];
    xf.p = (mk_vec3){p[0], p[1], p[2]};
    return xf;
}

/* The box of a shape posed by xf along the axes of xf's frame: along each
 * axis, the shape's support in the local direction that axis maps to (a row
 * of R), plus the rounding radius. hints: 6 support hints, or NULL. */
static void shape_box(const mk_shape *s, mk_transform xf, int *hints, dReal box[6])
{
    for (int r = 0; r < 3; ++r) {
        const mk_vec3 row = {xf.R.m[r][0], xf.R.m[r][1], xf.R.m[r][2]};
        const mk_vec3 hi = mk_shape_support(s, row, hints ? &hints[2 * r + 1] : NULL);
        const mk_vec3 lo = mk_shape_support(s, (mk_vec3){-row.x, -row.y, -row.z}, hints ? &hints[2 * r] : NULL);
        const double p = r == 0 ? xf.p.x : r == 1 ? xf.p.y : xf.p.z;
        box[2 * r] = p + row.x * lo.x + row.y * lo.y + row.z * lo.z - s->radius;
        box[2 * r + 1] = p + row.x * hi.x + row.y * hi.y + row.z * hi.z + s->radius;
    }
}

/* The core shape of a geom (primitives are built in tmp), its pose, and its
 * local centre for the growth model. Returns 0 when the geom is not one the
 * adapter can translate, or its sizes are ones the core refuses and ODE
 * accepts (a zero side of a dBox, a zero radius, a zero length of a
 * dCylinder): no contact then, counted as a failure. Handing those to ODE's
 * own collider instead was tried: its cylinder-box collider asserts (aborts)
 * on a box with a zero side. */
static int shape_of(dGeomID g, mk_shape *tmp, mk_transform *xf, mk_vec3 *centre)
{
    int cls = dGeomGetClass(g);
    *centre = (mk_vec3){0, 0, 0};
    mk_status st = MK_INVALID_INPUT;
    switch (cls) {
    case dBoxClass: {
        /* mk_shape_box's checks inline (the commonest pair of all: the call
         * and its validation were 4% of a box-box contact) */
        dVector3 len;
        dGeomBoxGetLengths(g, len);
        const mk_vec3 h = {0.5 * len[0], 0.5 * len[1], 0.5 * len[2]};
        if (!(h.x > 0 && h.y > 0 && h.z > 0 && h.x < INFINITY && h.y < INFINITY && h.z < INFINITY))
            return 0;
        memset(tmp, 0, sizeof *tmp);
        tmp->type = MK_SHAPE_BOX;
        tmp->u.box.half_extents = h;
        st = MK_OK;
        break;
    }
    case dSphereClass: st = mk_shape_sphere(tmp, dGeomSphereGetRadius(g)); break;
    case dCapsuleClass: {
        dReal r, len;
        dGeomCapsuleGetParams(g, &r, &len);
        /* ODE allows length 0, a sphere (the core's capsule wants a positive length) */
        st = len == 0 ? mk_shape_sphere(tmp, r) : mk_shape_capsule(tmp, r, 0.5 * len);
        break;
    }
    case dCylinderClass: {
        dReal r, len;
        dGeomCylinderGetParams(g, &r, &len);
        st = mk_shape_cylinder(tmp, r, 0.5 * len, 0);
        break;
    }
    case dConvexClass: {
        const convex_entry *e = find_convex(g);
        if (!e)
            return 0;
        *tmp = e->shape;
        *centre = e->hull->centroid;
        st = MK_OK;
        break;
    }
    default: {
        if (!is_ours(cls))
            return 0;
        const geom_data *d = dGeomGetClassData(g);
        *tmp = d->shape;
        if (d->hull)
            *centre = d->hull->centroid;
        st = MK_OK;
        break;
    }
    }
    if (st != MK_OK)
        return 0;
    *xf = pose_of(g);
    return 1;
}

/* ------------------------------------------------------------ the collider */

/* Room for points in one collide call when ODE takes `max`: the patch's
 * 4 .. MK_MANIFOLD_MAX_PATCH_POINTS (emit_points writes at most max). */
static int patch_cap(int max)
{
    return max < MK_MANIFOLD_MAX_POINTS ? MK_MANIFOLD_MAX_POINTS
           : max > MK_MANIFOLD_MAX_PATCH_POINTS ? MK_MANIFOLD_MAX_PATCH_POINTS
                                                : max;
}

/* Contact i of the caller's array (`skip` bytes apart), filled in ODE's
 * fields; side1 = -1. */
static void put_contact(dContactGeom *c, int i, int skip, mk_vec3 pos, mk_vec3 normal, double depth, dGeomID o1,
                        dGeomID o2, int side2)
{
    dContactGeom *out = (dContactGeom *)((char *)c + (size_t)i * (size_t)skip);
    out->pos[0] = pos.x, out->pos[1] = pos.y, out->pos[2] = pos.z;
    out->normal[0] = normal.x, out->normal[1] = normal.y, out->normal[2] = normal.z;
    out->depth = depth;
    out->g1 = o1, out->g2 = o2;
    out->side1 = -1, out->side2 = side2;
}

/* Writes penetrating points (depth >= 0) as ODE contacts with normal
 * `sign * normal`, at most `max`, `skip` bytes apart. The points come in id
 * order; when more penetrate than fit, the deepest go first. */
static int emit_points(const mk_manifold_point *pts, int count, mk_vec3 normal, double sign, dGeomID o1, dGeomID o2,
                       int max, dContactGeom *c, int skip)
{
    int order[MK_MANIFOLD_MAX_PATCH_POINTS], m = 0;
    for (int i = 0; i < count && i < MK_MANIFOLD_MAX_PATCH_POINTS; ++i)
        if (pts[i].depth >= 0)
            order[m++] = i;
    if (m > max) /* deepest first (stable: equal depths keep id order) */
        for (int a = 1; a < m; ++a)
            for (int b = a; b > 0 && pts[order[b]].depth > pts[order[b - 1]].depth; --b) {
                int t = order[b];
                order[b] = order[b - 1];
                order[b - 1] = t;
            }
    int n = m < max ? m : max;
    const mk_vec3 n_ode = {sign * normal.x, sign * normal.y, sign * normal.z};
    for (int i = 0; i < n; ++i)
        put_contact(c, i, skip, pts[order[i]].position, n_ode, pts[order[i]].depth, o1, o2, -1);
    G.stats.contacts += (unsigned long long)n;
    return n;
}

static int fail(void)
{
    ++G.stats.failures;
    return 0;
}

/* A shape against a dPlane (the half-space <n, x> <= d). */
static int collide_plane(dGeomID o1, dGeomID o2, int max, dContactGeom *contact, int skip)
{
    const int plane_first = dGeomGetClass(o1) == dPlaneClass;
    dGeomID pg = plane_first ? o1 : o2, sg = plane_first ? o2 : o1;
    mk_shape s;
    mk_transform xf;
    mk_vec3 centre;
    if (!shape_of(sg, &s, &xf, &centre))
        return fail();
    dVector4 pl;
    dGeomPlaneGetParams(pg, pl);
    /* as many points as ODE takes, up to the patch's (a bevelled box's
     * octagon whole: no reduction to four) */
    mk_contact_patch_result m;
    if (mk_collide_plane_patch(&s, &xf, (mk_vec3){pl[0], pl[1], pl[2]}, pl[3], &G.settings, patch_cap(max), &m) >=
        MK_INVALID_INPUT)
        return fail();
    /* m.normal: shape -> half-space; ODE's: from g2 into g1. */
    return emit_points(m.points, m.count, m.normal, plane_first ? 1.0 : -1.0, o1, o2, max, contact, skip);
}

static int mk_collider(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact, int skip)
{
    if (skip < (int)sizeof(dContactGeom))
        return fail();
    int max = flags & 0xffff;
    if (max < 1)
        max = 1;
    const int c1 = dGeomGetClass(o1), c2 = dGeomGetClass(o2);
    /* A dConvex nobody registered: no geometry to read, the stock collider answers. */
    if ((c1 == dConvexClass && !find_convex(o1)) || (c2 == dConvexClass && !find_convex(o2))) {
        ++G.stats.stock_fallbacks;
        return stock_collide(o1, o2, flags, contact, skip);
    }
    ++G.stats.calls;
    if (c1 >= 0 && c1 < dGeomNumClasses)
        ++G.stats.calls_by_class[c1];
    if (c2 >= 0 && c2 < dGeomNumClasses && c2 != c1)
        ++G.stats.calls_by_class[c2];
    const int boolean = (flags & CONTACTS_UNIMPORTANT) != 0;
    if (boolean) {
        ++G.stats.boolean_calls;
        max = 1;
    }
    if (c1 == dPlaneClass || c2 == dPlaneClass)
        return collide_plane(o1, o2, max, contact, skip);

    mk_shape sa, sb;
    mk_vec3 ca, cb;
    mk_pair pair;
    if (!shape_of(o1, &sa, &pair.xf_a, &ca) || !shape_of(o2, &sb, &pair.xf_b, &cb))
        return fail();
    pair.a = &sa, pair.b = &sb;
    pair_cache *pc = cache_for(o1, o2);
    if (pc) {
        /* a geom resized since the caches were made: start them cold */
        if (memcmp(&pc->sa, &sa, sizeof sa) != 0 || memcmp(&pc->sb, &sb, sizeof sb) != 0) {
            memset(&pc->cc, 0, sizeof pc->cc);
            memset(&pc->growth, 0, sizeof pc->growth);
            pc->sa = sa, pc->sb = sb;
        }
        pair.a = &pc->sa, pair.b = &pc->sb;
    }
    mk_gjk_cache *gc = pc ? &pc->cc.gjk : NULL;
    /* Any contact will do: the Boolean query with early exit says whether there
     * is one; only then is a contact computed. */
    if (boolean) {
        mk_gjk_intersect_result ir;
        mk_status bs = mk_gjk_intersect(&pair, &G.settings.gjk, gc, &ir);
        if (bs >= MK_INVALID_INPUT)
            return fail();
        if (bs == MK_GJK_SEPARATED)
            return 0;
    }
    /* the patch in one pass when ODE takes more than four points */
    mk_contact_patch_result pr;
    mk_status st;
    if (G.options.contact_model == MK_ODE_MODEL_GROWTH) {
        mk_growth_input in = {pair, ca, cb, 0, 0};
        st = mk_collide_growth_patch(&in, &G.settings, pc ? &pc->growth : NULL, patch_cap(max), &pr);
        if (st == MK_GROWTH_DEGENERATE) /* no ball about a centre: signed distance instead */
            st = mk_collide_patch(&pair, &G.settings, pc ? &pc->cc : NULL, patch_cap(max), &pr);
    } else {
        st = mk_collide_patch(&pair, &G.settings, pc ? &pc->cc : NULL, patch_cap(max), &pr);
    }
    if (st >= MK_INVALID_INPUT)
        return fail();
    if (pr.count > MK_MANIFOLD_MAX_POINTS)
        ++G.stats.patches;
    return emit_points(pr.points, pr.count, pr.normal, -1.0, o1, o2, max, contact, skip); /* o1 -> o2 */
}

/* A dRay against one of minkowski's classes, as ODE answers a ray against
 * its own primitives (ray.cpp): one contact at the first point of the geom
 * along the ray within its length, depth = the distance from the ray's
 * start, normal = the geom's outward normal there (from g2 into g1 with the
 * ray as g1), g1 = the ray. A ray starting inside gets the point where it
 * leaves, the normal pointing inward (none with the ray's backface culling,
 * nor when the geom holds the whole ray): mk_ray_cast, then mk_ray_exit. */
static int ray_contact(dGeomID ray, dGeomID g, dContactGeom *contact)
{
    ++G.stats.calls;
    ++G.stats.calls_by_class[dRayClass];
    const int cls = dGeomGetClass(g);
    if (cls >= 0 && cls < dGeomNumClasses)
        ++G.stats.calls_by_class[cls];
    mk_shape s;
    mk_transform xf;
    mk_vec3 centre;
    if (!shape_of(g, &s, &xf, &centre))
        return fail();
    dVector3 start, dir;
    dGeomRayGet(ray, start, dir);
    const dReal len = dGeomRayGetLength(ray);
    const mk_vec3 o = {start[0], start[1], start[2]}, u = {dir[0], dir[1], dir[2]};
    mk_ray_result r;
    mk_status st = mk_ray_cast(&s, &xf, o, u, len, NULL, &r);
    double depth = r.t, sign = 1;
    if (st == MK_RAY_INSIDE) {
        if (dGeomRayGetBackfaceCull(ray))
            return 0;
        st = mk_ray_exit(&s, &xf, o, u, len, NULL, &r); /* where it leaves */
        if (st == MK_RAY_INSIDE)
            return 0; /* the geom holds the whole ray */
        depth = r.t;
        sign = -1;
    }
    if (st >= MK_INVALID_INPUT || st == MK_RAY_MAX_ITER)
        return fail();
    if (st != MK_RAY_HIT)
        return 0;
    put_contact(contact, 0, (int)sizeof *contact, r.point,
                (mk_vec3){sign * r.normal.x, sign * r.normal.y, sign * r.normal.z}, depth < 0 ? 0 : depth, ray, g,
                -1);
    ++G.stats.contacts;
    return 1;
}

/* dRay first: route_our_classes sets it for (dRayClass, ours), and dCollide
 * with our geom first calls it with the arguments swapped and flips the
 * contact (test_ode checks both orders). */
static int ray_collider(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact, int skip)
{
    (void)flags;
    if (skip < (int)sizeof(dContactGeom))
        return fail();
    return ray_contact(o1, o2, contact);
}

/* dRay against a stock dConvex (MK_ODE_RAY): a registered one through
 * mk_ray_cast, as the new classes; one the adapter was not told about keeps
 * ODE's collider. ODE 0.16.2's own ray-convex collider (Debian's build)
 * misses most rays through convexes with triangular faces: 4 hits of 166
 * rays that meet a posed 12-point hull (tests/ode:
 * rays_meet_registered_convexes); in scratch runs, none of 200 through a
 * 12-point hull at the origin, and none through an octahedron whose faces
 * are counter-clockwise as ODE checks them. Quads (a cube) it hits. */
static int ray_convex_collider(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact, int skip)
{
    if (skip < (int)sizeof(dContactGeom))
        return fail();
    if (!find_convex(o2)) {
        ++G.stats.stock_fallbacks;
        return stock_ray_convex(o1, o2, flags, contact, skip);
    }
    return ray_contact(o1, o2, contact);
}

/* ------------------------------------------------------------ dTriMesh */

/* Corners of triangle i of a trimesh in its own frame. */
static void mesh_triangle(dGeomID g, const mk_transform *xf, int i, mk_vec3 out[3])
{
    dVector3 v[3];
    dGeomTriMeshGetTriangle(g, i, &v[0], &v[1], &v[2]);
    for (int k = 0; k < 3; ++k)
        out[k] = mk_rotate_inv(&xf->R, (mk_vec3){v[k][0] - xf->p.x, v[k][1] - xf->p.y, v[k][2] - xf->p.z});
}

/* Whether the entry still shows the trimesh's data: the same triangle count
 * and, to the rounding of going through the pose, the same first and last
 * triangles. */
static int mesh_matches(const mesh_entry *e, dGeomID g, const mk_transform *xf, int triangles)
{
    if (e->triangles != triangles || !e->mesh)
        return 0;
    mk_vec3 now[6];
    mesh_triangle(g, xf, 0, now);
    mesh_triangle(g, xf, triangles - 1, now + 3);
    for (int k = 0; k < 6; ++k) {
        const mk_vec3 d = {now[k].x - e->probe[k].x, now[k].y - e->probe[k].y, now[k].z - e->probe[k].z};
        const double scale = 1 + fabs(xf->p.x) + fabs(xf->p.y) + fabs(xf->p.z) + fabs(now[k].x) + fabs(now[k].y) +
                             fabs(now[k].z);
        if (fabs(d.x) + fabs(d.y) + fabs(d.z) > 1e-9 * scale)
            return 0;
    }
    return 1;
}

/* The mk_mesh of a trimesh geom (built on first use), or NULL (no
 * triangle with area, no memory). */
static const mk_mesh *mesh_of(dGeomID g, const mk_transform *xf)
{
    const dTriMeshDataID data = dGeomTriMeshGetTriMeshDataID(g);
    const int triangles = dGeomTriMeshGetTriangleCount(g);
    if (!data || triangles < 1)
        return NULL;
    mesh_entry *e = NULL;
    for (int i = 0; i < G.num_meshes && !e; ++i)
        if (G.meshes[i].data == data)
            e = &G.meshes[i];
    if (e && mesh_matches(e, g, xf, triangles))
        return e->mesh;
    if (!e) {
        if (G.num_meshes == G.mesh_cap) {
            const int cap = G.mesh_cap ? 2 * G.mesh_cap : 8;
            mesh_entry *t = realloc(G.meshes, sizeof *t * (size_t)cap);
            if (!t)
                return NULL;
            G.meshes = t;
            G.mesh_cap = cap;
        }
        e = &G.meshes[G.num_meshes++];
        memset(e, 0, sizeof *e);
        e->data = data;
    }
    mk_mesh_destroy(e->mesh);
    e->mesh = NULL;
    e->triangles = triangles;
    mk_vec3 *v = malloc(sizeof *v * 3 * (size_t)triangles);
    int *idx = malloc(sizeof *idx * 3 * (size_t)triangles);
    if (v && idx) {
        for (int i = 0; i < triangles; ++i) {
            mesh_triangle(g, xf, i, &v[3 * i]);
            idx[3 * i] = 3 * i, idx[3 * i + 1] = 3 * i + 1, idx[3 * i + 2] = 3 * i + 2;
        }
        if (mk_mesh_create(v, 3 * triangles, idx, triangles, &e->mesh) != MK_OK)
            e->mesh = NULL;
        memcpy(e->probe, v, sizeof(mk_vec3) * 3);
        memcpy(e->probe + 3, &v[3 * (triangles - 1)], sizeof(mk_vec3) * 3);
    }
    free(v);
    free(idx);
    return e->mesh;
}

void mk_ode_forget_trimesh_data(dTriMeshDataID data)
{
    for (int i = 0; i < G.num_meshes; ++i)
        if (G.meshes[i].data == data) {
            mk_mesh_destroy(G.meshes[i].mesh);
            G.meshes[i] = G.meshes[--G.num_meshes];
            return;
        }
}

static void forget_meshes(void)
{
    for (int i = 0; i < G.num_meshes; ++i)
        mk_mesh_destroy(G.meshes[i].mesh);
    free(G.meshes);
    G.meshes = NULL;
    G.num_meshes = G.mesh_cap = 0;
}

/* Counts a call of one of minkowski's classes (o1) against a surface of
 * class `cls`; returns the number of contacts ODE takes (1 with
 * CONTACTS_UNIMPORTANT), at most MESH_CONTACTS_MAX, or 0 on a bad stride. */
#define MESH_CONTACTS_MAX 64
static int surface_call(dGeomID o1, int cls, int flags, int skip)
{
    if (skip < (int)sizeof(dContactGeom))
        return 0;
    ++G.stats.calls;
    ++G.stats.calls_by_class[cls];
    const int c1 = dGeomGetClass(o1);
    if (c1 >= 0 && c1 < dGeomNumClasses)
        ++G.stats.calls_by_class[c1];
    if (flags & CONTACTS_UNIMPORTANT) {
        ++G.stats.boolean_calls;
        return 1;
    }
    const int max = flags & 0xffff;
    return max < 1 ? 1 : max > MESH_CONTACTS_MAX ? MESH_CONTACTS_MAX : max;
}

/* A trimesh's per-triangle callback (dTriCallback) as the core's filter. */
typedef struct tri_filter {
    dTriCallback *callback;
    dGeomID trimesh, other;
} tri_filter;

static int tri_filter_call(void *user, int triangle)
{
    const tri_filter *f = user;
    return f->callback(f->trimesh, f->other, triangle) != 0;
}

/* Triangles listed on the stack for a trimesh's array callback; more take
 * the heap. */
#define MESH_LIST_LOCAL 256

/* o1 against the mesh `mesh` posed by mxf: mk_collide_mesh, the contacts
 * pushing o1 out (ODE's normal, from g2 into g1). With `trimesh` (the
 * dTriMesh o2 is): side2 = the triangle's index, and the trimesh's
 * callbacks as ODE's own trimesh colliders call them: the array callback
 * (dTriArrayCallback) once with the triangles the query will test (those
 * whose boxes meet the shape's) when there are any, then the per-triangle
 * callback (dTriCallback) before each of them is tested, a triangle it
 * answers 0 for left out. Without: side2 = -1. */
static int mesh_contacts(dGeomID o1, dGeomID trimesh, dGeomID o2, const mk_mesh *mesh, const mk_transform *mxf,
                         int max, dContactGeom *contact, int skip)
{
    mk_shape s;
    mk_transform xf;
    mk_vec3 centre;
    if (!shape_of(o1, &s, &xf, &centre))
        return fail();
    tri_filter filter = {NULL, trimesh, o1};
    if (trimesh) {
        dTriArrayCallback *array = dGeomTriMeshGetArrayCallback(trimesh);
        filter.callback = dGeomTriMeshGetCallback(trimesh);
        if (array) {
            int local[MESH_LIST_LOCAL], *list = local;
            int n = mk_mesh_overlaps(&s, &xf, mesh, mxf, &G.settings, local, MESH_LIST_LOCAL);
            if (n > MESH_LIST_LOCAL) {
                list = malloc(sizeof *list * (size_t)n);
                if (!list || mk_mesh_overlaps(&s, &xf, mesh, mxf, &G.settings, list, n) != n) {
                    free(list);
                    return fail();
                }
            }
            if (n < 0)
                return fail();
            if (n > 0)
                array(trimesh, o1, list, n);
            if (list != local)
                free(list);
        }
    }
    mk_mesh_contact c[MESH_CONTACTS_MAX];
    int n = 0;
    if (mk_collide_mesh_filtered(&s, &xf, mesh, mxf, &G.settings, filter.callback ? tri_filter_call : NULL, &filter,
                                 max, c, &n) >= MK_INVALID_INPUT)
        return fail();
    int written = 0;
    for (int i = 0; i < n; ++i) {
        if (c[i].depth < 0)
            continue;
        put_contact(contact, written++, skip, c[i].position, c[i].normal, c[i].depth, o1, o2,
                    trimesh ? c[i].triangle : -1);
    }
    G.stats.contacts += (unsigned long long)written;
    return written;
}

/* One of minkowski's classes, or with MK_ODE_TRIMESH a dBox, dCapsule,
 * dCylinder or registered dConvex (o1), against a dTriMesh (o2), side2 the
 * triangle's index as ODE's own trimesh colliders give it. A dConvex the
 * adapter was not told about keeps ODE's collider. */
static int mesh_collider(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact, int skip)
{
    if (dGeomGetClass(o1) == dConvexClass && !find_convex(o1)) { /* no geometry to read: ODE's collider */
        ++G.stats.stock_fallbacks;
        return stock_convex_trimesh(o1, o2, flags, contact, skip);
    }
    const int max = surface_call(o1, dTriMeshClass, flags, skip);
    if (!max)
        return fail();
    const mk_transform mxf = pose_of(o2);
    const mk_mesh *mesh = mesh_of(o2, &mxf);
    if (!mesh)
        return fail();
    return mesh_contacts(o1, o2, o2, mesh, &mxf, max, contact, skip);
}

/* ------------------------------------------------------------ dHeightfield */

/* ODE has no getter for a heightfield's samples, grid or placement. The
 * adapter reads ODE 0.16's own structures (heightfield.h: the first
 * fields of dxHeightfieldData; collision_kernel.h: dxGeom's type, data,
 * body and final_posr) and the samples through ODE's own
 * dxHeightfieldData::GetHeight(int, int) (scale, offset, wrapping and the
 * callback applied), and checks the reading at every use: the fields must
 * hold what ODE's SetData computes from them, bit for bit (half sizes,
 * spacings, their inverses, the aspect), and the geom's type, data and body
 * what the public getters say. A reading that fails the checks gives no
 * contact (counted in stats.failures). */
typedef struct hf_data_head {
    dReal width, depth, sample_width, sample_depth, zx_aspect, inv_sample_width, inv_sample_depth, half_width,
        half_depth, min_height, max_height, thickness, scale, offset;
    int width_samples, depth_samples, copy_data, wrap, height_mode;
} hf_data_head;

typedef struct geom_head {
    const void *vtable;
    int type, flags;
    void *data;
    dBodyID body;
    const void *body_next;
    const void *final_posr; /* NULL: not placeable (ODE takes it at the identity) */
} geom_head;

extern dReal stock_hf_sample(dHeightfieldDataID data, int x, int z) __asm__("_ZN17dxHeightfieldData9GetHeightEii");

/* Cells of one contact query at most (a shape spanning more gets none,
 * counted as a failure: 65,536 cells is 131,072 triangles). */
#define HF_MAX_CELLS 65536
/* Corners read on the stack; more take the heap. */
#define HF_LOCAL_CORNERS 256

static const hf_data_head *hf_data_of(dGeomID g)
{
    const hf_data_head *d = (const hf_data_head *)(const void *)dGeomHeightfieldGetHeightfieldData(g);
    if (!d)
        return NULL;
    const int ok = d->width_samples >= 2 && d->depth_samples >= 2 && d->width_samples <= (1 << 24) &&
                   d->depth_samples <= (1 << 24) && d->width > 0 && d->depth > 0 && isfinite(d->width) &&
                   isfinite(d->depth) && d->half_width == d->width / 2 && d->half_depth == d->depth / 2 &&
                   d->sample_width == d->width / (d->width_samples - 1.0) &&
                   d->sample_depth == d->depth / (d->depth_samples - 1.0) &&
                   d->inv_sample_width == 1 / d->sample_width && d->inv_sample_depth == 1 / d->sample_depth &&
                   d->zx_aspect == d->sample_depth / d->sample_width && (d->wrap == 0 || d->wrap == 1) &&
                   d->height_mode >= 0 && d->height_mode <= 4;
    return ok ? d : NULL;
}

static int hf_pose(dGeomID g, mk_transform *xf)
{
    const geom_head *h = (const geom_head *)(const void *)g;
    if (h->type != dHeightfieldClass || h->data != dGeomGetData(g) || h->body != dGeomGetBody(g))
        return 0;
    if (!h->final_posr) {
        *xf = mk_transform_identity();
        return 1;
    }
    *xf = pose_of(g);
    return (const void *)dGeomGetPosition(g) == h->final_posr;
}

/* One of minkowski's classes (o1) against a dHeightfield (o2): the cells
 * under the shape's box in the heightfield's frame (Y up; sample (i, j) at
 * (i w - W/2, h(i, j), j d - D/2)), one more ring of cells around them so
 * the patch's own border stays out of reach, cut as ODE cuts them (the
 * diagonal from (i + 1, j) to (i, j + 1)), as an mk_mesh for this call
 * (mk_mesh_create_grid: no welding or sorting). */
static int heightfield_collider(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact, int skip)
{
    const int max = surface_call(o1, dHeightfieldClass, flags, skip);
    if (!max)
        return fail();
    const hf_data_head *d = hf_data_of(o2);
    mk_transform hxf;
    mk_shape s;
    mk_transform xf;
    mk_vec3 centre;
    if (!d || !hf_pose(o2, &hxf) || !shape_of(o1, &s, &xf, &centre))
        return fail();
    mk_transform rel;
    rel.R = (mk_mat3){{{0}}};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k)
                rel.R.m[r][c] += hxf.R.m[k][r] * xf.R.m[k][c];
    rel.p = mk_rotate_inv(&hxf.R, (mk_vec3){xf.p.x - hxf.p.x, xf.p.y - hxf.p.y, xf.p.z - hxf.p.z});
    dReal box[6];
    shape_box(&s, rel, NULL, box);
    if (box[2] > d->max_height)
        return 0;
    const double fi0 = floor((box[0] + d->half_width) * d->inv_sample_width) - 1;
    const double fi1 = ceil((box[1] + d->half_width) * d->inv_sample_width) + 1;
    const double fj0 = floor((box[4] + d->half_depth) * d->inv_sample_depth) - 1;
    const double fj1 = ceil((box[5] + d->half_depth) * d->inv_sample_depth) + 1;
    if (!(fi1 - fi0 <= 4096 && fj1 - fj0 <= 4096 && fabs(fi0) < 1e9 && fabs(fj0) < 1e9 &&
          (fi1 - fi0) * (fj1 - fj0) <= HF_MAX_CELLS))
        return fail();
    int i0 = (int)fi0, i1 = (int)fi1, j0 = (int)fj0, j1 = (int)fj1;
    if (!d->wrap) {
        i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
        i1 = i1 > d->width_samples - 1 ? d->width_samples - 1 : i1;
        j1 = j1 > d->depth_samples - 1 ? d->depth_samples - 1 : j1;
        if (i0 >= i1 || j0 >= j1)
            return 0;
    }
    const int ni = i1 - i0 + 1, nj = j1 - j0 + 1, count = ni * nj;
    mk_vec3 local[HF_LOCAL_CORNERS];
    mk_vec3 *v = count <= HF_LOCAL_CORNERS ? local : malloc(sizeof *v * (size_t)count);
    if (!v)
        return fail();
    dHeightfieldDataID data = dGeomHeightfieldGetHeightfieldData(o2);
    for (int i = 0; i < ni; ++i)
        for (int j = 0; j < nj; ++j)
            v[i * nj + j] = (mk_vec3){(i0 + i) * d->sample_width - d->half_width, stock_hf_sample(data, i0 + i, j0 + j),
                                      (j0 + j) * d->sample_depth - d->half_depth};
    /* The geom's last patch answers again when its corners are these, bit
     * for bit (a body resting on the terrain): the samples are read on
     * every call, so a heightfield whose heights change (a callback's, or
     * samples changed in place) gets a new patch. */
    geom_data *gd = dGeomGetClassData(o1);
    hf_patch *p = gd->patch;
    if (!p || p->count != count || memcmp(p->v, v, sizeof *v * (size_t)count) != 0) {
        hf_patch *fresh = malloc(sizeof *fresh + sizeof *v * (size_t)count);
        mk_mesh *mesh = NULL;
        /* ODE's cut, counter-clockwise seen from +Y (mesh.h) */
        if (!fresh || mk_mesh_create_grid(v, ni, nj, &mesh) != MK_OK) {
            free(fresh);
            if (v != local)
                free(v);
            return fail();
        }
        fresh->count = count;
        fresh->mesh = mesh;
        memcpy(fresh->v, v, sizeof *v * (size_t)count);
        if (p)
            mk_mesh_destroy(p->mesh);
        free(p);
        gd->patch = p = fresh;
    }
    if (v != local)
        free(v);
    return mesh_contacts(o1, NULL, o2, p->mesh, &hxf, max, contact, skip);
}

/* ------------------------------------------------------------ geom classes */

static dColliderFn *class_collider(int num)
{
    for (int k = 0; k < NUM_KINDS; ++k)
        if (num == kKindClass[k])
            return mk_collider;
    return is_ours(num) ? mk_collider : NULL;
}

/* Exact world box: along each world axis, the shape's support in the local
 * direction that axis maps to (a row of R), plus the rounding radius. */
static void class_aabb(dGeomID g, dReal aabb[6])
{
    geom_data *d = dGeomGetClassData(g);
    shape_box(&d->shape, pose_of(g), d->aabb_hint, aabb);
}

static void class_dtor(dGeomID g)
{
    geom_data *d = dGeomGetClassData(g);
    mk_hull_destroy(d->hull);
    d->hull = NULL;
    if (d->patch)
        mk_mesh_destroy(d->patch->mesh);
    free(d->patch);
    d->patch = NULL;
}

static void make_classes(void)
{
    if (G.classes_made)
        return;
    dGeomClass c = {(int)sizeof(geom_data), class_collider, class_aabb, NULL, class_dtor};
    G.cone_class = dCreateGeomClass(&c);
    G.ellipsoid_class = dCreateGeomClass(&c);
    G.hull_class = dCreateGeomClass(&c);
    G.classes_made = 1;
}

int mk_ode_cone_class(void) { return G.classes_made ? G.cone_class : -1; }
int mk_ode_ellipsoid_class(void) { return G.classes_made ? G.ellipsoid_class : -1; }
int mk_ode_hull_class(void) { return G.classes_made ? G.hull_class : -1; }

static dGeomID make_geom(int cls, dSpaceID space, const mk_shape *s, mk_hull *hull)
{
    if (!G.classes_made)
        return NULL;
    dGeomID g = dCreateGeom(cls);
    geom_data *d = dGeomGetClassData(g);
    memset(d, 0, sizeof *d);
    d->shape = *s;
    d->hull = hull;
    if (space)
        dSpaceAdd(space, g);
    return g;
}

dGeomID mk_ode_create_cone(dSpaceID space, dReal radius, dReal length)
{
    mk_shape s;
    if (mk_shape_cone(&s, radius, 0.5 * length, 0) != MK_OK)
        return NULL;
    return make_geom(G.cone_class, space, &s, NULL);
}

dGeomID mk_ode_create_ellipsoid(dSpaceID space, dReal a, dReal b, dReal c)
{
    mk_shape s;
    if (mk_shape_ellipsoid(&s, (mk_vec3){a, b, c}) != MK_OK)
        return NULL;
    return make_geom(G.ellipsoid_class, space, &s, NULL);
}

dGeomID mk_ode_create_hull(dSpaceID space, const dReal *points, int count)
{
    if (!G.classes_made)
        return NULL;
    mk_hull *h = hull_of(points, count);
    mk_shape s;
    if (!h || mk_shape_hull(&s, h, 0) != MK_OK) {
        mk_hull_destroy(h);
        return NULL;
    }
    return make_geom(G.hull_class, space, &s, h);
}

/* ------------------------------------------------------------ install */

mk_ode_options mk_ode_default_options(void)
{
    mk_ode_options o;
    o.variant = MK_GJK_VANILLA;
    o.normalize_dir = 0;
    o.tolerance = 1e-8;
    o.pairs = MK_ODE_ALL;
    o.contact_model = MK_ODE_MODEL_SIGNED_DISTANCE;
    o.keep_native = 0;
    return o;
}

/* Our classes collide with the six stock kinds and with each other through
 * mk_collider, with dRay through ray_collider, with dTriMesh through
 * mesh_collider and with dHeightfield through heightfield_collider,
 * installed or not (ODE has nothing else for them). */
static void route_our_classes(void)
{
    const int ours[] = {G.cone_class, G.ellipsoid_class, G.hull_class};
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < NUM_KINDS; ++k)
            dSetColliderOverride(ours[i], kKindClass[k], mk_collider);
        for (int j = 0; j < 3; ++j)
            dSetColliderOverride(ours[i], ours[j], mk_collider);
        dSetColliderOverride(dRayClass, ours[i], ray_collider);
        dSetColliderOverride(ours[i], dTriMeshClass, mesh_collider);
        dSetColliderOverride(ours[i], dHeightfieldClass, heightfield_collider);
    }
}

int mk_ode_install(const mk_ode_options *options)
{
    mk_ode_options o = options ? *options : mk_ode_default_options();
    if (o.variant < MK_GJK_VANILLA || o.variant > MK_GJK_NESTEROV || !(o.tolerance >= 0) ||
        !isfinite(o.tolerance) ||
        (o.contact_model != MK_ODE_MODEL_SIGNED_DISTANCE && o.contact_model != MK_ODE_MODEL_GROWTH))
        return -1;
    if (G.installed) /* a second install replaces the first (the pairs mask may differ) */
        mk_ode_uninstall();
    make_classes();
    G.options = o;
    G.settings = mk_collide_default_settings();
    G.settings.gjk.variant = o.variant;
    G.settings.gjk.normalize_dir = o.normalize_dir ? 1 : 0;
    G.settings.gjk.tolerance = o.tolerance;
    G.settings.gjk.init = MK_GJK_INIT_SIMPLEX;
    memset(G.overridden, 0, sizeof G.overridden);
    /* A pair is taken over when both kinds are in the mask (plane pairs need
     * the plane bit and the other kind's), and with keep_native only if ODE
     * answers it with libccd's MPR. */
    for (int i = 0; i < NUM_KINDS; ++i)
        for (int j = i; j < NUM_KINDS; ++j) {
            if (!(o.pairs & (1u << i)) || !(o.pairs & (1u << j)) || kKindClass[i] == dPlaneClass)
                continue;
            if (o.keep_native && !stock_route_of(kKindClass[i], kKindClass[j], NULL)->mpr)
                continue;
            dSetColliderOverride(kKindClass[i], kKindClass[j], mk_collider);
            G.overridden[i][j] = 1;
        }
    memset(G.trimesh_overridden, 0, sizeof G.trimesh_overridden);
    if (o.pairs & MK_ODE_TRIMESH)
        for (int r = 0; r < 4; ++r) {
            const stock_route *t = &kTrimeshRoutes[r];
            const int cls = t->first == dTriMeshClass ? t->second : t->first;
            int bit = 0;
            for (int k = 0; k < NUM_KINDS; ++k)
                if (kKindClass[k] == cls)
                    bit = 1 << k;
            if (!(o.pairs & (unsigned)bit) || (o.keep_native && !t->mpr))
                continue;
            dSetColliderOverride(cls, dTriMeshClass, mesh_collider);
            G.trimesh_overridden[r] = 1;
        }
    G.ray_convex_overridden = 0;
    if ((o.pairs & MK_ODE_RAY) && !o.keep_native) {
        dSetColliderOverride(dRayClass, dConvexClass, ray_convex_collider);
        G.ray_convex_overridden = 1;
    }
    route_our_classes();
    G.installed = 1;
    return 0;
}

/* Puts back the stock collider of every cell install changed, one by one. */
static void restore_cells(void)
{
    if (G.ray_convex_overridden)
        dSetColliderOverride(dRayClass, dConvexClass, stock_ray_convex);
    for (int r = 0; r < 4; ++r)
        if (G.trimesh_overridden[r])
            dSetColliderOverride(kTrimeshRoutes[r].first, kTrimeshRoutes[r].second, kTrimeshRoutes[r].fn);
    for (int i = 0; i < NUM_KINDS; ++i)
        for (int j = i; j < NUM_KINDS; ++j) {
            if (!G.overridden[i][j])
                continue;
            int reverse = 0;
            dColliderFn *fn = mk_ode_stock_collider(kKindClass[i], kKindClass[j], &reverse);
            if (reverse)
                dSetColliderOverride(kKindClass[j], kKindClass[i], fn);
            else
                dSetColliderOverride(kKindClass[i], kKindClass[j], fn);
        }
}

void mk_ode_uninstall(void)
{
    if (!G.installed)
        return;
    if (G.cone_class == dFirstUserClass) {
        /* No geom class older than ours: ODE's own initialiser rebuilds its
         * stock table exactly (including the argument order of same-class
         * pairs, which dSetColliderOverride cannot set), then our classes get
         * their routes back. */
        stock_finit_colliders();
        stock_init_colliders();
        route_our_classes();
    } else {
        /* Another library's classes came first: rebuilding would drop their
         * routes, so only the cells install changed are put back. */
        restore_cells();
    }
    memset(G.overridden, 0, sizeof G.overridden);
    memset(G.trimesh_overridden, 0, sizeof G.trimesh_overridden);
    G.ray_convex_overridden = 0;
    free(G.pairs); /* geoms may be recycled at the same addresses later */
    G.pairs = NULL;
    G.installed = 0;
}

void mk_ode_shutdown(void)
{
    mk_ode_uninstall();
    for (size_t i = 0; i < G.cap; ++i)
        if (G.table[i].key && G.table[i].key != TOMBSTONE)
            free_entry(&G.table[i]);
    free(G.table);
    G.table = NULL;
    G.cap = G.used = 0;
    forget_meshes();
    G.classes_made = 0;
    G.cone_class = G.ellipsoid_class = G.hull_class = -1;
    memset(&G.stats, 0, sizeof G.stats);
}

mk_ode_stats mk_ode_get_stats(void) { return G.stats; }
void mk_ode_reset_stats(void) { memset(&G.stats, 0, sizeof G.stats); }
