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

/* ODE builds its collider table in dInitColliders (C++, exported). Uninstall
 * reruns it: the only way back to the stock routing, as ODE has no getter. */
extern void mk_ode_stock_init_colliders(void) __asm__("_Z14dInitCollidersv");
extern void mk_ode_stock_finit_colliders(void) __asm__("_Z15dFinitCollidersv");
/* The stock colliders of dConvex pairs (libccd MPR in Debian's build), used for
 * a dConvex whose geometry the adapter was never told. */
extern int mk_ode_stock_convex_box(dGeomID, dGeomID, int, dContactGeom *, int) __asm__(
    "_Z20dCollideConvexBoxCCDP6dxGeomS0_iP12dContactGeomi");
extern int mk_ode_stock_convex_sphere(dGeomID, dGeomID, int, dContactGeom *, int) __asm__(
    "_Z23dCollideConvexSphereCCDP6dxGeomS0_iP12dContactGeomi");
extern int mk_ode_stock_convex_capsule(dGeomID, dGeomID, int, dContactGeom *, int) __asm__(
    "_Z24dCollideConvexCapsuleCCDP6dxGeomS0_iP12dContactGeomi");
extern int mk_ode_stock_convex_cylinder(dGeomID, dGeomID, int, dContactGeom *, int) __asm__(
    "_Z25dCollideConvexCylinderCCDP6dxGeomS0_iP12dContactGeomi");
extern int mk_ode_stock_convex_convex(dGeomID, dGeomID, int, dContactGeom *, int) __asm__(
    "_Z23dCollideConvexConvexCCDP6dxGeomS0_iP12dContactGeomi");
extern int mk_ode_stock_convex_plane(dGeomID, dGeomID, int, dContactGeom *, int) __asm__(
    "_Z19dCollideConvexPlaneP6dxGeomS0_iP12dContactGeomi");

/* ------------------------------------------------------------ state */

typedef struct geom_data { /* class data of the minkowski geom classes */
    mk_shape shape;
    mk_hull *hull;
} geom_data;

typedef struct convex_entry {
    dGeomID key; /* NULL: empty; TOMBSTONE: removed */
    mk_hull *hull;
    mk_shape shape;
    dReal *planes, *points; /* owned when made by mk_ode_create_convex */
    unsigned *polygons;
} convex_entry;

#define TOMBSTONE ((dGeomID)(uintptr_t)1)

/* Warm-start caches per geom pair: ODE has no per-pair object, so a
 * direct-mapped table keyed by the ordered pair (a collision evicts: bounded
 * memory, a miss is only a cold start). */
#define PAIR_CACHE_SIZE 8192
typedef struct pair_cache {
    dGeomID a, b;
    mk_gjk_cache gjk;
    mk_growth_cache growth;
} pair_cache;

static struct {
    int installed;
    int classes_made;
    int cone_class, ellipsoid_class, hull_class;
    mk_ode_options options;
    mk_collide_settings settings;
    mk_ode_stats stats;
    convex_entry *table;
    size_t cap, used; /* used counts live + tombstones */
    pair_cache *pairs;
} G;

static pair_cache *cache_for(dGeomID a, dGeomID b)
{
    if (!G.pairs) {
        G.pairs = calloc(PAIR_CACHE_SIZE, sizeof *G.pairs);
        if (!G.pairs)
            return NULL;
    }
    uintptr_t h = ((uintptr_t)a >> 4) * 0x9E3779B97F4A7C15ull ^ ((uintptr_t)b >> 4) * 0xC2B2AE3D27D4EB4Full;
    pair_cache *c = &G.pairs[(h >> 17) & (PAIR_CACHE_SIZE - 1)];
    if (c->a != a || c->b != b) {
        memset(c, 0, sizeof *c);
        c->a = a, c->b = b;
    }
    return c;
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

static convex_entry *insert_convex(dGeomID g)
{
    convex_entry *e = find_convex(g);
    if (e) {
        free_entry(e);
        e->key = g;
        return e;
    }
    if ((G.used + 1) * 2 > G.cap) { /* grow (and drop tombstones) at half load */
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

/* The core shape of a geom (tmp holds primitives), its pose and its centre
 * for the growth model (local). Returns 0 when the geom is not translatable. */
static int shape_of(dGeomID g, mk_shape *tmp, const mk_shape **out, mk_transform *xf, mk_vec3 *centre)
{
    int cls = dGeomGetClass(g);
    *centre = (mk_vec3){0, 0, 0};
    mk_status st = MK_INVALID_INPUT;
    switch (cls) {
    case dBoxClass: {
        dVector3 len;
        dGeomBoxGetLengths(g, len);
        st = mk_shape_box(tmp, (mk_vec3){0.5 * len[0], 0.5 * len[1], 0.5 * len[2]}, 0);
        break;
    }
    case dSphereClass: st = mk_shape_sphere(tmp, dGeomSphereGetRadius(g)); break;
    case dCapsuleClass: {
        dReal r, len;
        dGeomCapsuleGetParams(g, &r, &len);
        st = mk_shape_capsule(tmp, r, 0.5 * len);
        break;
    }
    case dCylinderClass: {
        dReal r, len;
        dGeomCylinderGetParams(g, &r, &len);
        st = mk_shape_cylinder(tmp, r, 0.5 * len, 0);
        break;
    }
    case dConvexClass: {
        convex_entry *e = find_convex(g);
        if (!e)
            return 0;
        *tmp = e->shape;
        *centre = e->hull->centroid;
        st = MK_OK;
        break;
    }
    default:
        if (!is_ours(cls))
            return 0;
        const geom_data *d = dGeomGetClassData(g);
        *tmp = d->shape;
        if (d->hull)
            *centre = d->hull->centroid;
        st = MK_OK;
        break;
    }
    if (st != MK_OK)
        return 0;
    *out = tmp;
    const dReal *p = dGeomGetPosition(g), *R = dGeomGetRotation(g);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            xf->R.m[r][c] = R[4 * r + c];
    xf->p = (mk_vec3){p[0], p[1], p[2]};
    return 1;
}

/* ------------------------------------------------------------ the collider */

/* Writes the manifold's penetrating points (depth >= 0) as ODE contacts with
 * normal `sign * m->normal`. */
static int emit(const mk_manifold *m, double sign, dGeomID o1, dGeomID o2, int max, dContactGeom *c, int skip)
{
    int n = 0;
    for (int i = 0; i < m->count && n < max; ++i) {
        const mk_manifold_point *p = &m->points[i];
        if (!(p->depth >= 0))
            continue;
        dContactGeom *out = (dContactGeom *)((char *)c + (size_t)n * (size_t)skip);
        out->pos[0] = p->position.x, out->pos[1] = p->position.y, out->pos[2] = p->position.z;
        out->normal[0] = sign * m->normal.x, out->normal[1] = sign * m->normal.y, out->normal[2] = sign * m->normal.z;
        out->depth = p->depth;
        out->g1 = o1, out->g2 = o2;
        out->side1 = out->side2 = -1;
        ++n;
    }
    G.stats.contacts += (unsigned long long)n;
    return n;
}

/* Calls a stock dConvex collider that wants the dConvex first; flips the
 * contacts back when the dConvex was o2 (what ODE's own reversal does). */
static int stock_convex(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip)
{
    int c1 = dGeomGetClass(o1), c2 = dGeomGetClass(o2);
    int swap = c1 != dConvexClass;
    dGeomID cv = swap ? o2 : o1, other = swap ? o1 : o2;
    int oc = swap ? c1 : c2;
    int (*fn)(dGeomID, dGeomID, int, dContactGeom *, int) = NULL;
    switch (oc) {
    case dBoxClass: fn = mk_ode_stock_convex_box; break;
    case dSphereClass: fn = mk_ode_stock_convex_sphere; break;
    case dCapsuleClass: fn = mk_ode_stock_convex_capsule; break;
    case dCylinderClass: fn = mk_ode_stock_convex_cylinder; break;
    case dConvexClass: fn = mk_ode_stock_convex_convex; break;
    case dPlaneClass: fn = mk_ode_stock_convex_plane; break;
    default: return 0;
    }
    int n = fn(cv, other, flags, c, skip);
    if (swap) {
        for (int i = 0; i < n; ++i) {
            dContactGeom *g = (dContactGeom *)((char *)c + (size_t)i * (size_t)skip);
            g->normal[0] = -g->normal[0], g->normal[1] = -g->normal[1], g->normal[2] = -g->normal[2];
            dGeomID t = g->g1;
            g->g1 = g->g2, g->g2 = t;
            int s = g->side1;
            g->side1 = g->side2, g->side2 = s;
        }
    }
    return n;
}

static int mk_collider(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact, int skip)
{
    int max = flags & 0xffff;
    if (max < 1)
        max = 1;
    int c1 = dGeomGetClass(o1), c2 = dGeomGetClass(o2);
    /* A dConvex nobody registered: the stock collider answers. */
    if ((c1 == dConvexClass && !find_convex(o1)) || (c2 == dConvexClass && !find_convex(o2)))
        return stock_convex(o1, o2, flags, contact, skip);

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
    mk_manifold m;
    mk_shape ta, tb;
    const mk_shape *sa, *sb;
    mk_vec3 ca, cb;
    mk_transform xa, xb;

    if (c1 == dPlaneClass || c2 == dPlaneClass) {
        int plane_first = c1 == dPlaneClass;
        dGeomID pg = plane_first ? o1 : o2, sg = plane_first ? o2 : o1;
        if (!shape_of(sg, &ta, &sa, &xa, &ca)) {
            ++G.stats.failures;
            return 0;
        }
        dVector4 pl;
        dGeomPlaneGetParams(pg, pl);
        mk_status st = mk_collide_plane(sa, &xa, (mk_vec3){pl[0], pl[1], pl[2]}, pl[3], &G.settings, &m);
        if (st >= MK_INVALID_INPUT) {
            ++G.stats.failures;
            return 0;
        }
        /* m.normal: shape -> half-space. ODE: from g2 into g1. */
        return emit(&m, plane_first ? 1.0 : -1.0, o1, o2, max, contact, skip);
    }

    if (!shape_of(o1, &ta, &sa, &xa, &ca) || !shape_of(o2, &tb, &sb, &xb, &cb)) {
        ++G.stats.failures;
        return 0;
    }
    mk_pair pair = {sa, xa, sb, xb};
    pair_cache *pc = cache_for(o1, o2);
    mk_gjk_cache *gc = pc ? &pc->gjk : NULL;
    if (boolean) {
        mk_gjk_intersect_result ir;
        mk_status bs = mk_gjk_intersect(&pair, &G.settings.gjk, gc, &ir);
        if (bs >= MK_INVALID_INPUT) {
            ++G.stats.failures;
            return 0;
        }
        if (bs == MK_GJK_SEPARATED)
            return 0;
    }
    mk_status st = MK_INVALID_INPUT;
    if (G.options.contact_model == MK_ODE_MODEL_GROWTH) {
        mk_growth_input in = {pair, ca, cb, 0, 0};
        st = mk_collide_growth(&in, &G.settings, pc ? &pc->growth : NULL, &m);
        if (st == MK_GROWTH_DEGENERATE) /* no ball about a centre: signed distance instead */
            st = mk_collide(&pair, &G.settings, gc, &m);
    } else {
        st = mk_collide(&pair, &G.settings, gc, &m);
    }
    if (st >= MK_INVALID_INPUT) {
        ++G.stats.failures;
        return 0;
    }
    return emit(&m, -1.0, o1, o2, max, contact, skip); /* m.normal: o1 -> o2 */
}

/* ------------------------------------------------------------ geom classes */

static dColliderFn *class_collider(int num)
{
    switch (num) {
    case dBoxClass:
    case dSphereClass:
    case dCapsuleClass:
    case dCylinderClass:
    case dConvexClass:
    case dPlaneClass: return mk_collider;
    default: return is_ours(num) ? mk_collider : NULL;
    }
}

static void class_aabb(dGeomID g, dReal aabb[6])
{
    const geom_data *d = dGeomGetClassData(g);
    mk_vec3 lo, hi;
    mk_shape_local_aabb(&d->shape, &lo, &hi);
    mk_vec3 c = {0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y), 0.5 * (lo.z + hi.z)};
    mk_vec3 e = {0.5 * (hi.x - lo.x), 0.5 * (hi.y - lo.y), 0.5 * (hi.z - lo.z)};
    const dReal *p = dGeomGetPosition(g), *R = dGeomGetRotation(g);
    for (int r = 0; r < 3; ++r) {
        double mid = p[r] + R[4 * r] * c.x + R[4 * r + 1] * c.y + R[4 * r + 2] * c.z;
        double ext = fabs(R[4 * r]) * e.x + fabs(R[4 * r + 1]) * e.y + fabs(R[4 * r + 2]) * e.z;
        aabb[2 * r] = mid - ext;
        aabb[2 * r + 1] = mid + ext;
    }
}

static void class_dtor(dGeomID g)
{
    geom_data *d = dGeomGetClassData(g);
    mk_hull_destroy(d->hull);
    d->hull = NULL;
}

static int make_classes(void)
{
    if (G.classes_made)
        return 0;
    dGeomClass c = {(int)sizeof(geom_data), class_collider, class_aabb, NULL, class_dtor};
    G.cone_class = dCreateGeomClass(&c);
    G.ellipsoid_class = dCreateGeomClass(&c);
    G.hull_class = dCreateGeomClass(&c);
    G.classes_made = 1;
    return 0;
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
    d->shape = *s;
    d->hull = hull;
    if (hull)
        d->shape.u.hull.hull = hull;
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
    mk_hull *h = hull_of(points, count);
    mk_shape s;
    if (!h || mk_shape_hull(&s, h, 0) != MK_OK) {
        mk_hull_destroy(h);
        return NULL;
    }
    dGeomID g = make_geom(G.hull_class, space, &s, h);
    if (!g)
        mk_hull_destroy(h);
    return g;
}

/* ------------------------------------------------------------ install */

mk_ode_options mk_ode_default_options(void)
{
    mk_ode_options o;
    o.variant = MK_GJK_NESTEROV;
    o.normalize_dir = 0;
    o.tolerance = 1e-8;
    o.pairs = MK_ODE_ALL;
    o.contact_model = MK_ODE_MODEL_SIGNED_DISTANCE;
    return o;
}

static const int kStock[] = {dBoxClass, dSphereClass, dCapsuleClass, dCylinderClass, dConvexClass, dPlaneClass};
static const unsigned kStockBit[] = {MK_ODE_BOX, MK_ODE_SPHERE, MK_ODE_CAPSULE, MK_ODE_CYLINDER, MK_ODE_CONVEX,
                                     MK_ODE_PLANE};

/* Our classes collide with every class we translate, through mk_collider. */
static void route_our_classes(void)
{
    const int ours[] = {G.cone_class, G.ellipsoid_class, G.hull_class};
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 6; ++k)
            dSetColliderOverride(ours[i], kStock[k], mk_collider);
        for (int j = 0; j < 3; ++j)
            dSetColliderOverride(ours[i], ours[j], mk_collider);
    }
}

int mk_ode_install(const mk_ode_options *options)
{
    mk_ode_options o = options ? *options : mk_ode_default_options();
    if (o.variant < MK_GJK_VANILLA || o.variant > MK_GJK_NESTEROV || !(o.tolerance >= 0) ||
        !isfinite(o.tolerance) ||
        (o.contact_model != MK_ODE_MODEL_SIGNED_DISTANCE && o.contact_model != MK_ODE_MODEL_GROWTH))
        return -1;
    make_classes();
    G.options = o;
    G.settings = mk_collide_default_settings();
    G.settings.gjk.variant = o.variant;
    G.settings.gjk.normalize_dir = o.normalize_dir;
    G.settings.gjk.tolerance = o.tolerance;
    G.settings.gjk.init = MK_GJK_INIT_CACHE;
    for (int i = 0; i < 6; ++i)
        for (int j = i; j < 6; ++j) {
            if (!(o.pairs & kStockBit[i]) || !(o.pairs & kStockBit[j]))
                continue;
            if (kStock[i] == dPlaneClass && kStock[j] == dPlaneClass)
                continue;
            /* plane pairs need the plane bit and the other kind's bit */
            dSetColliderOverride(kStock[i], kStock[j], mk_collider);
        }
    route_our_classes();
    G.installed = 1;
    return 0;
}

void mk_ode_uninstall(void)
{
    if (!G.installed)
        return;
    mk_ode_stock_finit_colliders();
    mk_ode_stock_init_colliders();
    route_our_classes();
    free(G.pairs); /* geoms may be recycled at the same addresses later */
    G.pairs = NULL;
    G.installed = 0;
}

mk_ode_stats mk_ode_get_stats(void) { return G.stats; }
void mk_ode_reset_stats(void) { memset(&G.stats, 0, sizeof G.stats); }
