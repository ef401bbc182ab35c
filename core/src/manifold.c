/* Contact manifolds: up to four points sharing one normal, from the normal and
 * signed distance of a distance or penetration query.
 *
 * Face contacts clip the incident feature against the side planes of the
 * reference face, one plane at a time (Sutherland and Hodgman, "Reentrant
 * polygon clipping", CACM 17(1), 1974); segments are clipped parametrically
 * (Liang and Barsky, "A new concept and method for line clipping", ACM TOG
 * 3(1), 1984). Curved pairs use line and point features. More than four points
 * are reduced by keeping the two farthest apart and the two that maximise the
 * signed area on either side of that diagonal (starting from the deepest point
 * instead when it would otherwise be lost by more than the depth tie).
 *
 * Everything runs in A's local frame ("the frame"): B's pose is taken relative
 * to A once, and results go back to world coordinates at the end. */
#include <stddef.h>
#include <string.h>
#include <minkowski/manifold.h>
#include "manifold_internal.h"
#include "pair_check.h"
#include "segment.h"
#include "support.h"

/* ---------------------------------------------------------------- tolerances */

/* A face is a reference face when its normal is within this angle (radians) of
 * the contact normal: EPA normals of face contacts are far closer than this,
 * edge-edge normals usually far away. */
#define MK_MF_FACE_ANGLE 0.05
/* An incident circular cap is used as a face (a ring of rim points) within
 * this angle of the reference normal; beyond it, its side line. */
#define MK_MF_CAP_ANGLE 0.1
/* Without a reference face, an edge or segment is a line feature when it is
 * within this angle of perpendicular to the normal, and two lines are parallel
 * within this angle of each other. */
#define MK_MF_LINE_ANGLE 0.05
#define MK_MF_PARALLEL_ANGLE 0.05
/* A hull's faces whose angles to the direction differ by less than
 * MK_MF_FACE_TIE_ANGLE (radians) are ties: the lower face index wins, so
 * that rounding in the normal does not make the ids flicker. Until
 * 2026-11-27 the tie was 1e-4 in the cosines, which near the normal is an
 * angle of 0.014 rad: a hull lying exactly on a face (a plane along its
 * normal) took a neighbouring face 3e-3 rad off when that face had the lower
 * index, whose other corners hover up to the angle times the face's size
 * above the plane; without a speculative distance one point was left (a
 * 240-point hull on its faces: 3.2% of the cases). A box's faces are 90
 * degrees apart: their cosine tie (MK_MF_FACE_TIE) can only decide between
 * faces neither of which is a face contact. B's face is the reference only
 * when it is better aligned than A's by more than MK_MF_REF_BIAS (about
 * 0.0045 rad when B's face is exact): hysteresis, so the reference and the
 * ids do not flicker. */
#define MK_MF_FACE_TIE_ANGLE 1e-5
#define MK_MF_FACE_TIE 1e-4
#define MK_MF_REF_BIAS 1e-5
/* Reduction ties: depths within MK_MF_TIE * scale, squared distances and areas
 * within MK_MF_TIE * scale^2 (scale = size of the smaller shape) are equal, and
 * the candidate with the smaller feature id wins. */
#define MK_MF_TIE 1e-4
/* The extra deepest rim point of a tilted ring is skipped when it falls within
 * this fraction of the sample spacing from a sample. */
#define MK_MF_RING_SNAP 1e-3
/* Tilt of the normal used to tell a stable support point from a sensitive one. */
#define MK_MF_TILT 1e-4
/* Rounding allowance on the speculative distance, relative to the larger shape,
 * so exactly touching points are kept. */
#define MK_MF_SLACK 1e-9
/* A face contact is kept only if its deepest point agrees with the caller's
 * signed distance (to MK_MF_DEPTH_CHECK x the smaller shape's size), or, when
 * the caller's normal is the face normal (to MK_MF_NORMAL_CHECK rad), reaches
 * the incident shape's deepest point along it (to MK_MF_FACE_CHECK x size); and
 * a point feature must lie over the face. Otherwise the contact is at the
 * face's border or edge against edge (the normal is near, not at, the face
 * normal) and the line / point path handles it. */
#define MK_MF_DEPTH_CHECK 1e-5
#define MK_MF_NORMAL_CHECK 1e-5
#define MK_MF_FACE_CHECK 1e-6
#define MK_MF_RING MK_MANIFOLD_RING_SAMPLES
#define MK_MF_TWO_PI 6.283185307179586476925286766559

/* Polygon capacity: a hull face, or a ring plus its extra deepest point. */
#define MK_MF_MAX_POLY (MK_MANIFOLD_MAX_FACE_VERTICES + 1)
/* Candidates: clipping an n-gon by m planes never holds more than n + m
 * vertices; an n-gon on a disc gives at most 2n points plus the rim samples. */
#define MK_MF_CLIP_CAP (2 * MK_MF_MAX_POLY + MK_MF_RING + 1)

/* Low byte of the id for contacts that are not face clips. */
#define MK_MF_ID_REF_VERTEX 0xFE
#define MK_MF_ID_INC_VERTEX 0xFF
#define MK_MF_ID_LINE_LINE 0xFD
#define MK_MF_ID_ANCHOR_A 0xFC
#define MK_MF_ID_ANCHOR_B 0xFB
#define MK_MF_ID_MIDPOINT 0xFA
#define MK_MF_ID_SAFETY 0xF9
#define MK_MF_ID_CIRCLE 0xE0 /* 0xE0, 0xE1: an incident edge crossing a reference circle */
/* Tag of a point inside a clipped segment (bits 15-8). */
#define MK_MF_TAG_SEGMENT 0x40

/* Feature codes of curved shapes (ids). */
enum { FEAT_CAP_TOP = 0, FEAT_CAP_BOTTOM = 1, FEAT_SIDE = 2, FEAT_RIM = 3 };

mk_manifold_settings mk_manifold_default_settings(void)
{
    mk_manifold_settings s;
    s.speculative_distance = 0;
    return s;
}

/* ---------------------------------------------------------------- pair in A's frame */

typedef struct posed {
    const mk_shape *s;
    mk_mat3 R; /* shape local -> frame */
    mk_vec3 p;
} posed;

typedef struct mf_ctx {
    posed a, b;
    mk_vec3 n;           /* unit input normal in the frame, A to B */
    mk_real core_distance; /* caller's signed distance between the cores */
    mk_real scale;       /* size of the smaller shape (tolerances) */
} mf_ctx;

static inline mk_vec3 to_frame(const posed *x, mk_vec3 local) { return v3_add(m3_mul(&x->R, local), x->p); }
static inline mk_vec3 dir_to_local(const posed *x, mk_vec3 d) { return m3_tmul(&x->R, d); }
static inline mk_vec3 dir_to_frame(const posed *x, mk_vec3 d) { return m3_mul(&x->R, d); }
/* Core support point along d (frame direction), in the frame. */
static inline mk_vec3 support_frame(const posed *x, mk_vec3 d)
{
    return to_frame(x, shape_support(x->s, dir_to_local(x, d), NULL));
}

static inline uint32_t make_id(int flip, int ref, int inc, int a, int b)
{
    return ((uint32_t)(flip ? 1u : 0u) << 31) | ((uint32_t)ref & 0x7Fu) << 24 | ((uint32_t)inc & 0xFFu) << 16 |
           ((uint32_t)a & 0xFFu) << 8 | ((uint32_t)b & 0xFFu);
}

/* ---------------------------------------------------------------- candidates */

/* A contact point before reduction, on the cores, in the frame. */
typedef struct cand {
    mk_vec3 pa, pb;
    mk_real sep; /* <pb - pa, manifold normal> */
    uint32_t id;
} cand;

typedef struct cand_list {
    int count;
    cand c[MK_MF_CLIP_CAP];
} cand_list;

static void push(cand_list *l, mk_vec3 pa, mk_vec3 pb, mk_real sep, uint32_t id)
{
    if (l->count >= MK_MF_CLIP_CAP)
        return;
    cand *c = &l->c[l->count++];
    c->pa = pa;
    c->pb = pb;
    c->sep = sep;
    c->id = id;
}

/* ---------------------------------------------------------------- faces */

typedef struct face_pick {
    int face;      /* shape's face index, -1 if none */
    mk_real align; /* <outward face normal, direction> */
    int vertex;    /* hull: the support vertex along the direction; -1 if not known */
} face_pick;

static int hull_has_faces(const mk_hull *h)
{
    return h->num_faces > 0 && h->face_start && h->face_vertices && h->face_normals;
}

static int face_contains(const mk_hull *h, int f, int v)
{
    for (int k = h->face_start[f]; k < h->face_start[f + 1]; ++k)
        if (h->face_vertices[k] == v)
            return 1;
    return 0;
}

/* A face usable as a polygon: MK_MANIFOLD_MAX_FACE_VERTICES bounds polygon. */
static inline int face_usable(const mk_hull *h, int f)
{
    int size = h->face_start[f + 1] - h->face_start[f];
    return size >= 3 && (size <= MK_MANIFOLD_MAX_FACE_VERTICES || (h->face_region && h->face_region[f] >= 0));
}

/* The lowest alignment (cosine) tied with the best one, `best`: the chord
 * |n - d| = sqrt(2 - 2 cos) of the angle, within MK_MF_FACE_TIE_ANGLE of the
 * best face's (unit d). */
static inline mk_real tie_floor(mk_real best)
{
    const mk_real chord = sqrt(best < 1 ? 2 - 2 * best : 0) + MK_MF_FACE_TIE_ANGLE;
    return 1 - 0.5 * chord * chord;
}

/* Takes face f into *r when its alignment with d is at least `floor`
 * (tie_floor of the best). */
static inline int take_if_tied(const mk_hull *h, int f, mk_vec3 d, mk_real floor, face_pick *r)
{
    mk_real a = v3_dot(h->face_normals[f], d);
    if (!(a >= floor))
        return 0;
    r->face = f;
    r->align = a;
    return 1;
}

/* hull_best_face through the hull's vertex-to-faces map: only the faces
 * incident to v, already in increasing index, two passes (the best
 * alignment, then the first face within the tie of it). */
static face_pick incident_best_face(const mk_hull *h, mk_vec3 d, int v)
{
    face_pick r = {-1, -2, -1};
    const int s = h->vert_face_start[v], e = h->vert_face_start[v + 1];
    mk_real best = -2;
    for (int k = s; k < e; ++k) {
        int f = h->vert_faces[k];
        if (!face_usable(h, f))
            continue;
        mk_real a = v3_dot(h->face_normals[f], d);
        if (a > best)
            best = a;
    }
    const mk_real floor = tie_floor(best);
    for (int k = s; k < e && best > -2; ++k)
        if (face_usable(h, h->vert_faces[k]) && take_if_tied(h, h->vert_faces[k], d, floor, &r))
            break;
    return r;
}

/* hull_best_face for hulls without the map (hand-built ones): every face's
 * vertex list is searched for v. The faces through v with their alignments
 * are kept in index order (a vertex on more faces than fit is rare, and then
 * the extra faces are scanned again). */
static face_pick scanned_best_face(const mk_hull *h, mk_vec3 d, int v)
{
    face_pick r = {-1, -2, -1};
    enum { KEEP = 32 };
    int kept_face[KEEP], kept = 0, overflow = 0;
    mk_real kept_align[KEEP];
    mk_real best = -2;
    for (int f = 0; f < h->num_faces; ++f) {
        if (!face_usable(h, f) || !face_contains(h, f, v))
            continue;
        mk_real a = v3_dot(h->face_normals[f], d);
        if (a > best)
            best = a;
        if (kept < KEEP) {
            kept_face[kept] = f;
            kept_align[kept++] = a;
        } else {
            overflow = 1;
        }
    }
    const mk_real floor = tie_floor(best);
    for (int k = 0; k < kept && best > -2; ++k)
        if (kept_align[k] >= floor) {
            r.face = kept_face[k];
            r.align = kept_align[k];
            return r;
        }
    for (int f = kept ? kept_face[kept - 1] + 1 : 0; overflow && f < h->num_faces; ++f)
        if (face_usable(h, f) && face_contains(h, f, v) && take_if_tied(h, f, d, floor, &r))
            break;
    return r;
}

/* Face of a hull best aligned with d (local), among the faces through the
 * support vertex along d (the most aligned face overall need not touch the
 * support plane). Near-ties go to the lower index. Hulls from mk_hull_create
 * list the faces through each vertex; hand-built ones may not (shape.h). */
/* Contract in manifold_internal.h. */
int mk_manifold_hull_face(const mk_hull *h, mk_vec3 d, int v, mk_real *align)
{
    *align = -2;
    if (!hull_has_faces(h) || v < 0 || v >= h->num_vertices)
        return -1;
    const face_pick r = h->vert_face_start && h->vert_faces ? incident_best_face(h, d, v) : scanned_best_face(h, d, v);
    *align = r.align;
    return r.face;
}

static face_pick hull_best_face(const mk_hull *h, mk_vec3 d)
{
    face_pick r = {-1, -2, -1};
    if (!hull_has_faces(h))
        return r;
    int v = h->num_vertices <= MK_HULL_LINEAR_SCAN_MAX ? mk_hull_support_linear(h, d)
                                                       : mk_hull_support_climb(h, d, -1);
    r = h->vert_face_start && h->vert_faces ? incident_best_face(h, d, v) : scanned_best_face(h, d, v);
    r.vertex = v;
    return r;
}

/* Box face index: 2 * axis + (1 if the face looks along -axis). */
static face_pick box_best_face(mk_vec3 d)
{
    mk_real m = v3_max_abs(d);
    face_pick r = {-1, -2, -1};
    for (int i = 0; i < 3; ++i) {
        mk_real c = v3_comp(d, i);
        if (fabs(c) >= m - MK_MF_FACE_TIE) {
            r.face = 2 * i + (c < 0);
            r.align = fabs(c);
            break;
        }
    }
    return r;
}

/* A face in the frame, counter-clockwise seen from outside. Vertex tags are
 * small stable numbers used in feature ids (box vertex bits, hull local index,
 * ring sample index). */
typedef struct polygon {
    int count;
    int face;      /* face index / feature code */
    mk_vec3 normal; /* outward unit normal, frame */
    mk_vec3 v[MK_MF_MAX_POLY];
    uint8_t tag[MK_MF_MAX_POLY];
} polygon;

/* Feature code (ids) of a user shape's face, and the tilts that find it. */
#define MK_MF_USER_FACE 0x20
#define MK_MF_USER_TILTS 8

/* A user shape's face along the frame direction dir, from its support alone:
 * tilted by MK_MF_TILT towards eight azimuths around dir, the support visits
 * the corners of a face normal to dir (within the tilt) in counter-clockwise
 * order seen from outside, each of them staying put when the tilt halves (a
 * curved surface's support moves with the tilt; a needle ellipsoid's side,
 * radius of curvature 69 against a length of 0.6, spreads as a face would).
 * Three or more corners in one plane, spread over more than a curved
 * surface's support moves: the polygon of those corners (a face with more
 * corners than the tilts find is cut down to those found: points clipped to
 * it lie on the face). Returns 0 otherwise. Without faces a user box against
 * a smaller box's face had its contact at one of its corners, off the
 * smaller box. */
static int user_polygon(const posed *x, mk_vec3 dir, polygon *pg)
{
    const mk_shape *s = x->s;
    const mk_vec3 u = v3_normalize_or(dir_to_local(x, dir), v3(0, 0, 1));
    mk_vec3 t1, t2;
    v3_across(u, &t1, &t2);
    const mk_real ext = shape_half_size(s), same = 1e-9 * ext;
    mk_vec3 p[MK_MF_USER_TILTS];
    uint8_t tag[MK_MF_USER_TILTS];
    int n = 0;
    for (int k = 0; k < MK_MF_USER_TILTS; ++k) {
        const mk_real ang = MK_MF_TWO_PI * k / MK_MF_USER_TILTS;
        const mk_vec3 t = v3_add(v3_scale(t1, cos(ang)), v3_scale(t2, sin(ang)));
        const mk_vec3 q = shape_support(s, v3_madd(u, MK_MF_TILT, t), NULL);
        if (!(v3_len(v3_sub(shape_support(s, v3_madd(u, 0.5 * MK_MF_TILT, t), NULL), q)) <= same))
            return 0;
        if (n == 0 || v3_len(v3_sub(q, p[n - 1])) > same) {
            p[n] = q;
            tag[n++] = (uint8_t)k;
        }
    }
    if (n > 1 && v3_len(v3_sub(p[n - 1], p[0])) <= same)
        --n;
    if (n < 3)
        return 0;
    mk_real spread = 0;
    mk_vec3 nrm = v3(0, 0, 0);
    for (int i = 0; i < n; ++i) {
        spread = fmax(spread, v3_len(v3_sub(p[i], p[0])));
        nrm = v3_add(nrm, v3_cross(p[i], p[(i + 1) % n]));
    }
    nrm = v3_normalize_or(nrm, v3(0, 0, 0));
    if (!(spread > 16 * MK_MF_TILT * ext) || !(v3_dot(nrm, u) > cos(MK_MF_FACE_ANGLE)))
        return 0;
    /* One plane (to rounding): corners of neighbouring faces a hair apart in
     * angle (a thin user hull's top) are no face, and points clipped to
     * their average plane missed the surface (by 1.2e-9 at a size of 2e-3,
     * a pair of witnesses closer than the certified distance). */
    for (int i = 1; i < n; ++i)
        if (!(fabs(v3_dot(nrm, v3_sub(p[i], p[0]))) <= same))
            return 0;
    for (int i = 0; i < n; ++i) {
        pg->v[i] = to_frame(x, p[i]);
        pg->tag[i] = tag[i];
    }
    pg->normal = dir_to_frame(x, nrm);
    pg->count = n;
    pg->face = MK_MF_USER_FACE;
    return 1;
}

/* Flat face of x best aligned with the frame direction dir (unit). Curved
 * shapes offer their circular caps. */
static face_pick best_face(const posed *x, mk_vec3 dir)
{
    mk_vec3 d = dir_to_local(x, dir);
    face_pick none = {-1, -2, -1};
    switch (x->s->type) {
    case MK_SHAPE_BOX:
        return box_best_face(d);
    case MK_SHAPE_HULL:
        return hull_best_face(x->s->u.hull.hull, d);
    case MK_SHAPE_CYLINDER: {
        face_pick r = {d.z >= 0 ? FEAT_CAP_TOP : FEAT_CAP_BOTTOM, fabs(d.z), -1};
        return r;
    }
    case MK_SHAPE_CONE: {
        face_pick r = {FEAT_CAP_BOTTOM, -d.z, -1};
        return d.z < 0 ? r : none;
    }
    case MK_SHAPE_USER: {
        polygon pg;
        face_pick r = {MK_MF_USER_FACE, 0, -1};
        if (!user_polygon(x, dir, &pg))
            return none;
        r.align = v3_dot(pg.normal, v3_normalize_or(dir, v3(0, 0, 0)));
        return r;
    }
    default:
        return none;
    }
}

/* ---------------------------------------------------------------- polygons */

/* The count, face code and corner tags of box face `face` (box_polygon's
 * corners, whatever the box's size and pose). */
static void box_face_tags(int face, polygon *pg)
{
    const int i = face / 2, j = (i + 1) % 3, k = (i + 2) % 3;
    const int plus = face % 2 == 0;
    const int bi = plus ? 1 << i : 0, bj = 1 << j, bk = 1 << k;
    pg->tag[0] = (uint8_t)bi;
    pg->tag[2] = (uint8_t)(bi | bj | bk);
    pg->tag[1] = (uint8_t)(bi | (plus ? bj : bk));
    pg->tag[3] = (uint8_t)(bi | (plus ? bk : bj));
    pg->count = 4;
    pg->face = face;
}

static void box_polygon(const posed *x, int face, polygon *pg)
{
    const mk_vec3 h = x->s->u.box.half_extents;
    const int i = face / 2, j = (i + 1) % 3, k = (i + 2) % 3;
    const mk_real s = face % 2 ? -1 : 1;
    const mk_real hh[3] = {h.x, h.y, h.z};
    /* The face centre and its half edges in the frame (columns of R): four
     * corners c +- u +- w, counter-clockwise seen from outside (e_j x e_k =
     * e_i): (-,-), (+,-), (+,+), (-,+) on a +axis face, (-,-), (-,+), (+,+),
     * (+,-) on a -axis face. Tags: bit a set when the corner's local
     * coordinate a is positive. */
    const mk_vec3 ci = v3(x->R.m[0][i], x->R.m[1][i], x->R.m[2][i]);
    const mk_vec3 u = v3_scale(v3(x->R.m[0][j], x->R.m[1][j], x->R.m[2][j]), hh[j]);
    const mk_vec3 w = v3_scale(v3(x->R.m[0][k], x->R.m[1][k], x->R.m[2][k]), hh[k]);
    const mk_vec3 c = v3_madd(x->p, s * hh[i], ci);
    const mk_vec3 lo = v3_sub(c, v3_add(u, w)), hi = v3_add(c, v3_add(u, w));
    const mk_vec3 pm = v3_add(c, v3_sub(u, w)), mp = v3_sub(c, v3_sub(u, w)); /* (+,-), (-,+) */
    pg->v[0] = lo;
    pg->v[2] = hi;
    pg->v[1] = s > 0 ? pm : mp;
    pg->v[3] = s > 0 ? mp : pm;
    box_face_tags(face, pg);
    pg->normal = v3_scale(ci, s);
}

/* A hull face's contact polygon: its flat region's outline, or a large
 * face's (mk_hull.face_region: a tessellated mesh's face is many facets
 * microradians apart, and one facet as the face left a box-shaped hull of
 * that kind standing on three points of one small triangle, rocking on the
 * ground; a cylinder's cap of 65 or more corners was no face at all, two
 * points), else the face itself. */
static int hull_polygon(const posed *x, int face, polygon *pg)
{
    const mk_hull *h = x->s->u.hull.hull;
    /* the corners' indices and the face whose normal and code the polygon takes */
    int size, code;
    const int *ids = mk_manifold_contact_face(h, face, &size, &code);
    if (size < 3 || size > MK_MANIFOLD_MAX_FACE_VERTICES)
        return 0;
    for (int q = 0; q < size; ++q) {
        pg->v[q] = to_frame(x, h->vertices[ids[q]]);
        pg->tag[q] = (uint8_t)q;
    }
    pg->normal = dir_to_frame(x, h->face_normals[code]);
    pg->count = size;
    pg->face = code;
    return 1;
}

/* cos and sin of the rim sample angles k 2 pi / MK_MF_RING: the values
 * libm's cos and sin give for k * (MK_MF_TWO_PI / MK_MF_RING), written out
 * (17 significant digits, exact) so that a ring costs no trigonometry; 17
 * sincos calls were a fifth of a cylinder-on-plane call. */
_Static_assert(MK_MF_RING == 16, "the rim table holds 16 samples");
static const mk_real kRingCosSin[MK_MF_RING][2] = {
    {1.0, 0.0},
    {0.9238795325112867, 0.3826834323650898},
    {0.7071067811865476, 0.7071067811865475},
    {0.38268343236508984, 0.9238795325112867},
    {6.123233995736766e-17, 1.0},
    {-0.3826834323650897, 0.9238795325112867},
    {-0.7071067811865475, 0.7071067811865476},
    {-0.9238795325112867, 0.3826834323650899},
    {-1.0, 1.2246467991473532e-16},
    {-0.9238795325112868, -0.38268343236508967},
    {-0.7071067811865477, -0.7071067811865475},
    {-0.38268343236509034, -0.9238795325112865},
    {-1.8369701987210297e-16, -1.0},
    {0.38268343236509, -0.9238795325112866},
    {0.7071067811865474, -0.7071067811865477},
    {0.9238795325112865, -0.3826834323650904},
};

/* Circle of radius r in the plane z = zc with outward normal (0, 0, s): a
 * regular polygon with MK_MF_RING vertices on the rim (tags = sample index).
 * When deep (local direction) tilts away from the axis, the rim point farthest
 * along it is inserted too (tag MK_MF_RING), so a tilted cap keeps its exact
 * deepest point. */
static void ring_polygon(const posed *x, mk_real r, mk_real zc, mk_real s, int face, const mk_vec3 *deep,
                         polygon *pg)
{
    const mk_real step = MK_MF_TWO_PI / MK_MF_RING;
    mk_real cs[MK_MF_RING + 1], sn[MK_MF_RING + 1];
    uint8_t tag[MK_MF_RING + 1];
    int extra_after = -1;
    mk_real extra = 0;
    if (deep) {
        mk_real dxy = sqrt(deep->x * deep->x + deep->y * deep->y);
        if (dxy > 1e-9 * v3_len(*deep)) {
            extra = atan2(deep->y, deep->x);
            if (extra < 0)
                extra += MK_MF_TWO_PI;
            mk_real f = extra / step;
            int k0 = (int)floor(f);
            if (k0 < 0)
                k0 = 0;
            if (k0 > MK_MF_RING - 1)
                k0 = MK_MF_RING - 1;
            mk_real frac = f - k0;
            if (frac > MK_MF_RING_SNAP && frac < 1 - MK_MF_RING_SNAP)
                extra_after = k0;
        }
    }
    int m = 0;
    for (int k = 0; k < MK_MF_RING; ++k) {
        cs[m] = kRingCosSin[k][0];
        sn[m] = kRingCosSin[k][1];
        tag[m++] = (uint8_t)k;
        if (k == extra_after) {
            cs[m] = cos(extra);
            sn[m] = sin(extra);
            tag[m++] = (uint8_t)MK_MF_RING;
        }
    }
    /* Increasing angle is counter-clockwise seen from +z; a cap facing -z runs
     * the other way, still starting at sample 0. */
    for (int q = 0; q < m; ++q) {
        int src = s > 0 ? q : (m - q) % m;
        pg->v[q] = to_frame(x, v3(r * cs[src], r * sn[src], zc));
        pg->tag[q] = tag[src];
    }
    pg->normal = dir_to_frame(x, v3(0, 0, s));
    pg->count = m;
    pg->face = face;
}

/* Polygon of face `face` of x. deep: for a ring, the local direction toward
 * the reference face, whose deepest rim point is added (NULL: none). */
static int build_polygon(const posed *x, int face, const mk_vec3 *deep, polygon *pg)
{
    const mk_shape *s = x->s;
    switch (s->type) {
    case MK_SHAPE_BOX:
        box_polygon(x, face, pg);
        return 1;
    case MK_SHAPE_HULL:
        return hull_polygon(x, face, pg);
    case MK_SHAPE_CYLINDER: {
        mk_real h = s->u.cylinder.half_height;
        mk_real sg = face == FEAT_CAP_TOP ? 1 : -1;
        ring_polygon(x, s->u.cylinder.radius, sg * h, sg, face, deep, pg);
        return 1;
    }
    case MK_SHAPE_CONE:
        ring_polygon(x, s->u.cone.radius, -s->u.cone.half_height, -1, FEAT_CAP_BOTTOM, deep, pg);
        return 1;
    default:
        return 0;
    }
}

/* Outward side plane of edge q of a polygon: <sn, p> <= off inside. */
static void side_plane(const polygon *pg, int q, mk_vec3 *sn, mk_real *off)
{
    mk_vec3 a = pg->v[q], b = pg->v[(q + 1) % pg->count];
    *sn = v3_normalize_or(v3_cross(v3_sub(b, a), pg->normal), v3(0, 0, 0));
    *off = v3_dot(*sn, a);
}

/* ---------------------------------------------------------------- line and point features */

typedef struct line_feature {
    int count;         /* 1: a point, 2: a segment */
    int flat;          /* the point stands for a face (the support is not unique) */
    int corner;        /* a user shape's point is one corner of a face (its tilted supports spread) */
    mk_vec3 v[2];      /* frame */
    uint8_t tag[2];
    int code;          /* feature code (ids) */
} line_feature;

static void set_point(const posed *x, mk_vec3 local, int code, int tag, line_feature *lf)
{
    lf->count = 1;
    lf->flat = lf->corner = 0;
    lf->v[0] = to_frame(x, local);
    lf->tag[0] = (uint8_t)tag;
    lf->code = code;
}

static void set_segment(const posed *x, mk_vec3 l0, mk_vec3 l1, int code, int t0, int t1, line_feature *lf)
{
    lf->count = 2;
    lf->flat = lf->corner = 0;
    lf->v[0] = to_frame(x, l0);
    lf->v[1] = to_frame(x, l1);
    lf->tag[0] = (uint8_t)t0;
    lf->tag[1] = (uint8_t)t1;
    lf->code = code;
}

/* Side line of a cylinder at the azimuth of d (local). */
static void cylinder_side(const posed *x, mk_vec3 d, line_feature *lf)
{
    mk_real r = x->s->u.cylinder.radius, h = x->s->u.cylinder.half_height, cx, cy;
    disc_support(r, d.x, d.y, &cx, &cy);
    set_segment(x, v3(cx, cy, -h), v3(cx, cy, h), FEAT_SIDE, 0, 1, lf);
}

/* Generator of a cone (apex to the base rim) at the azimuth of d (local). */
static void cone_side(const posed *x, mk_vec3 d, line_feature *lf)
{
    mk_real r = x->s->u.cone.radius, h = x->s->u.cone.half_height, cx, cy;
    disc_support(r, d.x, d.y, &cx, &cy);
    set_segment(x, v3(0, 0, h), v3(cx, cy, -h), FEAT_SIDE, 0, 1, lf);
}

static void capsule_segment(const posed *x, line_feature *lf)
{
    mk_real h = x->s->u.capsule.half_height;
    set_segment(x, v3(0, 0, -h), v3(0, 0, h), FEAT_SIDE, 0, 1, lf);
}

/* Box feature along d (local) when no face is aligned: the edge nearly
 * perpendicular to d, else the support corner. */
static void box_line_or_point(const posed *x, mk_vec3 d, line_feature *lf)
{
    const mk_vec3 h = x->s->u.box.half_extents;
    const mk_real hh[3] = {h.x, h.y, h.z}, dd[3] = {d.x, d.y, d.z};
    mk_real c[3];
    int bits = 0;
    for (int i = 0; i < 3; ++i) {
        c[i] = copysign(hh[i], dd[i]);
        bits |= (c[i] > 0) << i;
    }
    int i = 0;
    for (int q = 1; q < 3; ++q)
        if (fabs(dd[q]) < fabs(dd[i]))
            i = q;
    if (fabs(dd[i]) <= sin(MK_MF_LINE_ANGLE) * v3_len(d)) {
        mk_real lo[3] = {c[0], c[1], c[2]}, hi[3] = {c[0], c[1], c[2]};
        lo[i] = -hh[i];
        hi[i] = hh[i];
        int b0 = bits & ~(1 << i), b1 = bits | (1 << i);
        int j = (i + 1) % 3, k = (i + 2) % 3;
        int code = 8 + 4 * i + ((bits >> j) & 1) + 2 * ((bits >> k) & 1);
        set_segment(x, v3(lo[0], lo[1], lo[2]), v3(hi[0], hi[1], hi[2]), code, b0, b1, lf);
    } else {
        set_point(x, v3(c[0], c[1], c[2]), 24 + bits, bits, lf);
    }
}

/* Hull feature along d (local) when no face is aligned: the edge from the
 * support vertex most nearly perpendicular to d, else the vertex. v: the
 * support vertex along d when hull_best_face found it, else -1. */
static void hull_line_or_point(const posed *x, mk_vec3 d, int v, line_feature *lf)
{
    const mk_hull *h = x->s->u.hull.hull;
    if (v < 0 || v >= h->num_vertices)
        v = h->num_vertices <= MK_HULL_LINEAR_SCAN_MAX ? mk_hull_support_linear(h, d) : mk_hull_support_climb(h, d, -1);
    mk_real dl = v3_len(d), best = 2;
    int w = -1;
    for (int k = h->adj_start[v]; k < h->adj_start[v + 1]; ++k) {
        mk_vec3 e = v3_sub(h->vertices[h->adj[k]], h->vertices[v]);
        mk_real le = v3_len(e);
        if (!(le > 0))
            continue;
        mk_real c = fabs(v3_dot(e, d)) / (le * dl);
        if (c < best) {
            best = c;
            w = h->adj[k];
        }
    }
    if (w >= 0 && best <= sin(MK_MF_LINE_ANGLE)) {
        int lo = v < w ? v : w, hi = v < w ? w : v;
        set_segment(x, h->vertices[lo], h->vertices[hi], lo, lo & 0x7F, hi & 0x7F, lf);
    } else {
        set_point(x, h->vertices[v], v, v & 0x7F, lf);
    }
}

/* A user shape's feature along local d, from its support alone: tilted by
 * MK_MF_TILT both ways along two axes across d, the support of an edge lands
 * on its two ends (two distinct points, apart by far more than a curved
 * surface's support moves under such a tilt): that segment; otherwise (a
 * point, a face, a curved surface) the support point, as before. Without it
 * the point one tie-break picked stood for the whole edge: a user box's edge
 * crossing a cone's side line 1049 from its end got its contact there, 643
 * outside the cone (found by the core's fuzzer). */
static void user_line_or_point(const posed *x, mk_vec3 d, line_feature *lf)
{
    const mk_shape *s = x->s;
    const mk_vec3 u = v3_normalize_or(d, v3(0, 0, 1));
    mk_vec3 t1, t2;
    v3_across(u, &t1, &t2);
    const mk_vec3 tilts[4] = {t1, v3_neg(t1), t2, v3_neg(t2)};
    mk_vec3 p[4];
    for (int k = 0; k < 4; ++k)
        p[k] = shape_support(s, v3_madd(u, MK_MF_TILT, tilts[k]), NULL);
    /* distinct points among the four (equal: within rounding of the size) */
    const mk_real ext = shape_half_size(s), same = 1e-9 * ext;
    int first = 0, second = -1, distinct = 1;
    for (int k = 1; k < 4; ++k) {
        if (v3_len(v3_sub(p[k], p[first])) <= same)
            continue;
        if (second >= 0 && v3_len(v3_sub(p[k], p[second])) <= same)
            continue;
        if (second < 0)
            second = k;
        ++distinct;
    }
    mk_real spread = 0;
    for (int k = 1; k < 4; ++k)
        spread = fmax(spread, v3_len(v3_sub(p[k], p[first])));
    if (distinct == 2 && spread > 16 * MK_MF_TILT * ext) {
        set_segment(x, p[first], p[second], 0, 0, 1, lf);
        return;
    }
    set_point(x, shape_support(s, d, NULL), 0, 0, lf);
    /* Three or four far apart: a face (its corners), whose support point is
     * one corner by a tie-break, or a curved surface that is nearly flat (a
     * needle's side, its radius of curvature 110 times its length). The
     * corners stay put when the tilt halves, a curved surface's supports
     * move with it. Against a point the sensitivity test in line_contacts
     * still decides (it anchors the less sensitive: a vertex, or the smaller
     * of two faces), against a line the line does. */
    if (!(distinct >= 3 && spread > 16 * MK_MF_TILT * ext))
        return;
    for (int k = 0; k < 4; ++k)
        if (v3_len(v3_sub(shape_support(s, v3_madd(u, 0.5 * MK_MF_TILT, tilts[k]), NULL), p[k])) > same)
            return;
    lf->corner = 1;
}

/* Feature of x along the frame direction dir when the face path did not apply:
 * a line (edge, segment, side line) nearly perpendicular to dir, else the
 * support point, marked flat when it stands for a face normal to dir. f is
 * best_face(x, dir), which the face path already computed. */
static void line_or_point(const posed *x, mk_vec3 dir, face_pick f, line_feature *lf)
{
    const mk_shape *s = x->s;
    mk_vec3 d = dir_to_local(x, dir);
    const mk_real sl = sin(MK_MF_LINE_ANGLE);
    /* Exactly facing dir, the support is a whole face (a box corner or a
     * cap's centre stands for it); tilted further, it is a unique point. */
    if (f.face >= 0 && f.align >= cos(MK_MF_NORMAL_CHECK)) {
        set_point(x, shape_support(s, d, NULL), f.face, 0xFF, lf);
        lf->flat = 1;
        return;
    }
    switch (s->type) {
    case MK_SHAPE_BOX:
        box_line_or_point(x, d, lf);
        return;
    case MK_SHAPE_HULL:
        hull_line_or_point(x, d, f.vertex, lf);
        return;
    case MK_SHAPE_CAPSULE:
        if (fabs(d.z) <= sl) {
            capsule_segment(x, lf);
            return;
        }
        set_point(x, shape_support(s, d, NULL), d.z >= 0 ? FEAT_CAP_TOP : FEAT_CAP_BOTTOM, 0, lf);
        return;
    case MK_SHAPE_CYLINDER:
        if (fabs(d.z) <= sl) {
            cylinder_side(x, d, lf);
            return;
        }
        set_point(x, shape_support(s, d, NULL), FEAT_RIM, 0, lf);
        return;
    case MK_SHAPE_SPHERE:
    case MK_SHAPE_ELLIPSOID: /* a unique point, whatever the tilted supports do */
        set_point(x, shape_support(s, d, NULL), 0, 0, lf);
        return;
    case MK_SHAPE_CONE: {
        /* Outward normal of the lateral surface at the azimuth of d. */
        mk_real r = s->u.cone.radius, h2 = 2 * s->u.cone.half_height;
        mk_real dxy = sqrt(d.x * d.x + d.y * d.y);
        mk_real c = (h2 * dxy + r * d.z) / sqrt(h2 * h2 + r * r);
        if (dxy > 0 && c >= cos(MK_MF_LINE_ANGLE)) {
            cone_side(x, d, lf);
            return;
        }
        set_point(x, shape_support(s, d, NULL), FEAT_RIM, 0, lf);
        return;
    }
    default:
        user_line_or_point(x, d, lf);
        return;
    }
}

/* ---------------------------------------------------------------- face contacts */

typedef enum feat_kind { KIND_POINT, KIND_LINE, KIND_POLY } feat_kind;

/* Feature of x facing a reference face of outward normal ref_n (frame): its
 * face most opposed to ref_n, a capsule segment, a cylinder / cone side line or
 * a point. Chosen generously: points beyond the speculative distance are
 * dropped later, and every point kept is an exact point of x. */
static feat_kind incident_feature(const posed *x, mk_vec3 ref_n, polygon *pg, line_feature *lf)
{
    const mk_shape *s = x->s;
    mk_vec3 toward = v3_neg(ref_n);
    mk_vec3 d = dir_to_local(x, toward);
    const mk_real cap = cos(MK_MF_CAP_ANGLE);
    switch (s->type) {
    case MK_SHAPE_BOX:
    case MK_SHAPE_HULL: {
        face_pick f = best_face(x, toward);
        if (f.face >= 0 && build_polygon(x, f.face, NULL, pg))
            return KIND_POLY;
        break;
    }
    case MK_SHAPE_CYLINDER:
        if (fabs(d.z) >= cap) {
            build_polygon(x, d.z >= 0 ? FEAT_CAP_TOP : FEAT_CAP_BOTTOM, &d, pg);
            return KIND_POLY;
        }
        cylinder_side(x, d, lf);
        return KIND_LINE;
    case MK_SHAPE_CONE:
        if (-d.z >= cap) {
            build_polygon(x, FEAT_CAP_BOTTOM, &d, pg);
            return KIND_POLY;
        }
        cone_side(x, d, lf);
        return KIND_LINE;
    case MK_SHAPE_CAPSULE:
        capsule_segment(x, lf);
        return KIND_LINE;
    case MK_SHAPE_USER:
        if (user_polygon(x, toward, pg))
            return KIND_POLY;
        user_line_or_point(x, d, lf);
        return lf->count == 2 ? KIND_LINE : KIND_POINT;
    default:
        break;
    }
    set_point(x, shape_support(s, d, NULL), 0, 0, lf);
    return KIND_POINT;
}

/* One vertex of a polygon being clipped. */
typedef struct clip_vertex {
    mk_vec3 p;
    uint8_t a, b; /* feature tag of the point (id bits 15-0) */
    uint8_t edge; /* edge to the next vertex: incident vertex tag, or 0x80 | clip plane index */
} clip_vertex;

/* Tag of the point where an edge lying on clip plane i meets clip plane j:
 * for adjacent planes, the reference vertex they share. */
static void plane_corner_tag(const polygon *ref, int i, int j, uint8_t *a, uint8_t *b)
{
    int m = ref->count;
    if (j == (i + 1) % m) {
        *a = (uint8_t)(0x80 | ref->tag[j]);
        *b = MK_MF_ID_REF_VERTEX;
    } else if (i == (j + 1) % m) {
        *a = (uint8_t)(0x80 | ref->tag[i]);
        *b = MK_MF_ID_REF_VERTEX;
    } else {
        *a = (uint8_t)(0x80 | ref->tag[i]);
        *b = (uint8_t)(ref->tag[j] & 0x7F);
    }
}

/* Keep the part of in[0..n) with dist[q] <= 0 (one Sutherland-Hodgman pass
 * against side plane j of the reference; dist[q]: in[q]'s signed distance to
 * the plane, at any positive scale). Returns the new count (<= n + 1).
 * Inlined into its two callers (the box pair's clip: 59 of its 5,762
 * instructions, 2-3% of its time). */
static inline __attribute__((always_inline)) int clip_pass(const clip_vertex *in, const mk_real *dist, int n, int j,
                                                           const polygon *ref, clip_vertex *out)
{
    int m = 0;
    for (int q = 0; q < n; ++q) {
        const int q1 = q + 1 == n ? 0 : q + 1;
        const clip_vertex *va = &in[q], *vb = &in[q1];
        const mk_real da = dist[q], db = dist[q1];
        if (da <= 0) {
            out[m] = *va;
            if (da == 0 && db > 0)
                out[m].edge = (uint8_t)(0x80 | j); /* leaves along plane j */
            ++m;
        }
        if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
            clip_vertex *c = &out[m++];
            c->p = v3_lerp(va->p, vb->p, da / (da - db));
            if (va->edge & 0x80) {
                plane_corner_tag(ref, va->edge & 0x7F, j, &c->a, &c->b);
            } else {
                c->a = va->edge;
                c->b = (uint8_t)(ref->tag[j] & 0x7F);
            }
            /* Leaving: the boundary now runs along plane j; entering: along the
             * edge it came in on. */
            c->edge = da < 0 ? (uint8_t)(0x80 | j) : va->edge;
        }
    }
    return m;
}

/* Reference point on the reference plane for an incident point p; pushes the
 * pair (A first) with its separation along the reference normal. */
static void push_face_point(cand_list *l, mk_vec3 ref_n, mk_real ref_off, int flip, mk_vec3 p, uint32_t id)
{
    mk_real sep = v3_dot(ref_n, p) - ref_off;
    mk_vec3 q = v3_madd(p, -sep, ref_n);
    if (flip)
        push(l, p, q, sep, id);
    else
        push(l, q, p, sep, id);
}

static void clip_polygon_on_face(const polygon *ref, const polygon *inc, int flip, cand_list *l)
{
    clip_vertex buf[2][MK_MF_CLIP_CAP];
    int n = inc->count, cur = 0;
    for (int q = 0; q < n; ++q) {
        buf[0][q].p = inc->v[q];
        buf[0][q].a = inc->tag[q];
        buf[0][q].b = MK_MF_ID_INC_VERTEX;
        buf[0][q].edge = inc->tag[q];
    }
    for (int j = 0; j < ref->count && n > 0; ++j) {
        /* The side plane unnormalised: the pass only tests signs and takes
         * ratios of the distances, which the scale does not change. */
        const mk_vec3 a = ref->v[j], b = ref->v[j + 1 == ref->count ? 0 : j + 1];
        const mk_vec3 sn = v3_cross(v3_sub(b, a), ref->normal);
        const mk_real off = v3_dot(sn, a);
        if (n + 1 > MK_MF_CLIP_CAP)
            return; /* cannot happen: n <= inc->count + j */
        mk_real dist[MK_MF_CLIP_CAP];
        for (int q = 0; q < n; ++q)
            dist[q] = v3_dot(sn, buf[cur][q].p) - off;
        n = clip_pass(buf[cur], dist, n, j, ref, buf[1 - cur]);
        cur = 1 - cur;
    }
    mk_real ref_off = v3_dot(ref->normal, ref->v[0]);
    for (int q = 0; q < n; ++q) {
        const clip_vertex *cv = &buf[cur][q];
        push_face_point(l, ref->normal, ref_off, flip, cv->p, make_id(flip, ref->face, inc->face, cv->a, cv->b));
    }
}

/* Clip segment lf against the side planes of ref (Liang-Barsky). */
static void clip_segment_on_face(const polygon *ref, const line_feature *lf, int flip, cand_list *l)
{
    mk_vec3 s0 = lf->v[0], s1 = lf->v[1];
    mk_real t0 = 0, t1 = 1;
    int j0 = -1, j1 = -1;
    for (int j = 0; j < ref->count; ++j) {
        mk_vec3 sn;
        mk_real off;
        side_plane(ref, j, &sn, &off);
        mk_real d0 = v3_dot(sn, s0) - off, d1 = v3_dot(sn, s1) - off;
        if (d0 > 0 && d1 > 0)
            return;
        if (d0 > 0) {
            mk_real t = d0 / (d0 - d1);
            if (t > t0) {
                t0 = t;
                j0 = j;
            }
        } else if (d1 > 0) {
            mk_real t = d0 / (d0 - d1);
            if (t < t1) {
                t1 = t;
                j1 = j;
            }
        }
    }
    if (t0 > t1)
        return;
    mk_real ref_off = v3_dot(ref->normal, ref->v[0]);
    uint8_t a0 = j0 < 0 ? lf->tag[0] : MK_MF_TAG_SEGMENT, b0 = j0 < 0 ? MK_MF_ID_INC_VERTEX : ref->tag[j0] & 0x7F;
    uint8_t a1 = j1 < 0 ? lf->tag[1] : MK_MF_TAG_SEGMENT, b1 = j1 < 0 ? MK_MF_ID_INC_VERTEX : ref->tag[j1] & 0x7F;
    mk_vec3 seg = v3_sub(s1, s0);
    if ((t1 - t0) * v3_len(seg) <= 1e-12 * (1 + v3_max_abs(s0))) {
        push_face_point(l, ref->normal, ref_off, flip, v3_madd(s0, 0.5 * (t0 + t1), seg),
                        make_id(flip, ref->face, lf->code, a0, b0));
        return;
    }
    push_face_point(l, ref->normal, ref_off, flip, v3_madd(s0, t0, seg), make_id(flip, ref->face, lf->code, a0, b0));
    push_face_point(l, ref->normal, ref_off, flip, v3_madd(s0, t1, seg), make_id(flip, ref->face, lf->code, a1, b1));
}

/* 1 when point p lies over the polygon (inside every side plane, to tol). */
static int over_polygon(const polygon *pg, mk_vec3 p, mk_real tol)
{
    for (int j = 0; j < pg->count; ++j) {
        mk_vec3 sn;
        mk_real off;
        side_plane(pg, j, &sn, &off);
        if (v3_dot(sn, p) - off > tol)
            return 0;
    }
    return 1;
}

/* A circular cap as a reference face, clipped against exactly (a polygon
 * inscribed in it would lose contacts near the rim). Rim sample k sits at
 * c + r (cos a_k e1 + sin a_k e2), the same points (and tags) as ring_polygon. */
typedef struct disc {
    mk_vec3 c, normal, e1, e2; /* frame; e1, e2 = the shape's local x, y */
    mk_real r;
    int face;
} disc;

static void build_disc(const posed *x, int face, disc *d)
{
    const mk_shape *s = x->s;
    mk_real h = s->type == MK_SHAPE_CYLINDER ? s->u.cylinder.half_height : s->u.cone.half_height;
    mk_real sg = face == FEAT_CAP_TOP ? 1 : -1;
    d->r = s->type == MK_SHAPE_CYLINDER ? s->u.cylinder.radius : s->u.cone.radius;
    d->c = to_frame(x, v3(0, 0, sg * h));
    d->normal = dir_to_frame(x, v3(0, 0, sg));
    d->e1 = dir_to_frame(x, v3(1, 0, 0));
    d->e2 = dir_to_frame(x, v3(0, 1, 0));
    d->face = face;
}

/* In-plane coordinates of p (projected along the disc normal). */
static inline void disc_uv(const disc *d, mk_vec3 p, mk_real *u, mk_real *v)
{
    mk_vec3 w = v3_sub(p, d->c);
    *u = v3_dot(w, d->e1);
    *v = v3_dot(w, d->e2);
}

/* Parameters t0 <= t1 where p + t q crosses the circle; 0 if it does not. */
static int circle_crossings(mk_real pu, mk_real pv, mk_real qu, mk_real qv, mk_real r, mk_real *t0, mk_real *t1)
{
    mk_real a = qu * qu + qv * qv, b = 2 * (pu * qu + pv * qv), cc = pu * pu + pv * pv - r * r;
    mk_real disc = b * b - 4 * a * cc;
    if (!(a > 0) || !(disc > 0))
        return 0;
    mk_real sq = sqrt(disc);
    /* the two roots without cancellation */
    mk_real qq = -0.5 * (b + (b >= 0 ? sq : -sq));
    mk_real ra = qq / a, rb = qq != 0 ? cc / qq : ra;
    *t0 = ra < rb ? ra : rb;
    *t1 = ra < rb ? rb : ra;
    return 1;
}

/* Incident polygon on a reference disc: its vertices inside the circle, its
 * edges' crossings with the circle, the rim samples under it, and the rim
 * point where the incident plane dips deepest (if under it). */
static void clip_polygon_on_disc(const disc *d, const polygon *inc, int flip, cand_list *l)
{
    const int n = inc->count;
    const mk_real off = v3_dot(d->normal, d->c), r2 = d->r * d->r;
    mk_real u[MK_MF_MAX_POLY], v[MK_MF_MAX_POLY];
    for (int q = 0; q < n; ++q)
        disc_uv(d, inc->v[q], &u[q], &v[q]);
    for (int q = 0; q < n; ++q) {
        if (u[q] * u[q] + v[q] * v[q] <= r2)
            push_face_point(l, d->normal, off, flip, inc->v[q],
                            make_id(flip, d->face, inc->face, inc->tag[q], MK_MF_ID_INC_VERTEX));
        int q1 = (q + 1) % n;
        mk_real t[2];
        if (!circle_crossings(u[q], v[q], u[q1] - u[q], v[q1] - v[q], d->r, &t[0], &t[1]))
            continue;
        for (int k = 0; k < 2; ++k)
            if (t[k] > 0 && t[k] < 1)
                push_face_point(l, d->normal, off, flip, v3_lerp(inc->v[q], inc->v[q1], t[k]),
                                make_id(flip, d->face, inc->face, inc->tag[q], MK_MF_ID_CIRCLE + k));
    }
    /* Points of the disc under the incident plane: lifted along the normal. */
    mk_real dn = v3_dot(inc->normal, d->normal);
    if (fabs(dn) < 1e-9)
        return;
    mk_real area = 0;
    for (int q = 0; q < n; ++q)
        area += u[q] * v[(q + 1) % n] - u[(q + 1) % n] * v[q];
    const mk_real orient = area >= 0 ? 1 : -1, inc_off = v3_dot(inc->normal, inc->v[0]);
    for (int k = 0; k <= MK_MF_RING; ++k) {
        mk_real su, sv;
        if (k < MK_MF_RING) {
            su = d->r * kRingCosSin[k][0];
            sv = d->r * kRingCosSin[k][1];
        } else {
            /* the height over the disc falls fastest along -g */
            mk_real gu = v3_dot(inc->normal, d->e1), gv = v3_dot(inc->normal, d->e2);
            mk_real gl = sqrt(gu * gu + gv * gv);
            if (!(gl > 1e-9))
                break;
            su = d->r * gu / gl * (dn > 0 ? -1 : 1);
            sv = d->r * gv / gl * (dn > 0 ? -1 : 1);
        }
        int inside = 1;
        for (int q = 0; q < n && inside; ++q) {
            int q1 = (q + 1) % n;
            inside = orient * ((u[q1] - u[q]) * (sv - v[q]) - (v[q1] - v[q]) * (su - u[q])) >= 0;
        }
        if (!inside)
            continue;
        mk_vec3 s0 = v3_madd(v3_madd(d->c, su, d->e1), sv, d->e2);
        mk_vec3 p = v3_madd(s0, (inc_off - v3_dot(inc->normal, s0)) / dn, d->normal);
        push_face_point(l, d->normal, off, flip, p,
                        make_id(flip, d->face, inc->face, 0x80 | k, MK_MF_ID_REF_VERTEX));
    }
}

/* Segment on a reference disc: the part over the circle. */
static void clip_segment_on_disc(const disc *d, const line_feature *lf, int flip, cand_list *l)
{
    const mk_real off = v3_dot(d->normal, d->c);
    mk_vec3 seg = v3_sub(lf->v[1], lf->v[0]);
    mk_real pu, pv, qu, qv;
    disc_uv(d, lf->v[0], &pu, &pv);
    qu = v3_dot(seg, d->e1);
    qv = v3_dot(seg, d->e2);
    mk_real t0 = 0, t1 = 1, c0, c1;
    int cut0 = 0, cut1 = 0;
    if (circle_crossings(pu, pv, qu, qv, d->r, &c0, &c1)) {
        if (c0 > t0) {
            t0 = c0;
            cut0 = 1;
        }
        if (c1 < t1) {
            t1 = c1;
            cut1 = 1;
        }
        if (t0 > t1)
            return;
    } else if (pu * pu + pv * pv > d->r * d->r) {
        return; /* misses the circle (or runs along the normal outside it) */
    }
    uint8_t a0 = cut0 ? MK_MF_TAG_SEGMENT : lf->tag[0], b0 = cut0 ? MK_MF_ID_CIRCLE : MK_MF_ID_INC_VERTEX;
    uint8_t a1 = cut1 ? MK_MF_TAG_SEGMENT : lf->tag[1], b1 = cut1 ? MK_MF_ID_CIRCLE + 1 : MK_MF_ID_INC_VERTEX;
    push_face_point(l, d->normal, off, flip, v3_madd(lf->v[0], t0, seg), make_id(flip, d->face, lf->code, a0, b0));
    if ((t1 - t0) * v3_len(seg) > 1e-12 * (1 + v3_max_abs(lf->v[0])))
        push_face_point(l, d->normal, off, flip, v3_madd(lf->v[0], t1, seg), make_id(flip, d->face, lf->code, a1, b1));
}

/* Does the clip hold the contact? Its deepest point must match the caller's
 * signed distance: shallower means the clip misses the real contact (at the
 * face's border), deeper means the contact is not on this face (edge against
 * edge with a normal near the face normal). When the caller's normal is the
 * face normal, reaching the incident shape's deepest point along it is enough
 * (a rough signed distance then does not matter).
 *
 * fold: how far the polygons' surfaces may stand off their planes (a hull's
 * flat region, region_thickness; 0 for a plain face), which the
 * separations may then be off by. */
static int face_contact_complete(const mf_ctx *c, const posed *is, mk_vec3 ref_n, mk_real ref_off, mk_vec3 n_out,
                                 const cand_list *l, mk_real fold)
{
    if (l->count == 0)
        return 0;
    mk_real min_sep = l->c[0].sep;
    for (int q = 1; q < l->count; ++q)
        if (l->c[q].sep < min_sep)
            min_sep = l->c[q].sep;
    if (fabs(min_sep - c->core_distance) <= MK_MF_DEPTH_CHECK * c->scale + fold)
        return 1;
    if (v3_dot(n_out, c->n) < cos(MK_MF_NORMAL_CHECK))
        return 0;
    mk_vec3 deepest = support_frame(is, v3_neg(ref_n));
    mk_real sep_support = v3_dot(ref_n, deepest) - ref_off;
    return min_sep <= sep_support + MK_MF_FACE_CHECK * c->scale + fold;
}

/* The spread along its normal of the vertices of every facet in the flat
 * region of hull face `code` (mk_hull.face_region): the region's surface,
 * and every point clipped on its outline's chords, lies within it of the
 * polygon's plane. 0 when x is no hull or the face is no region's. The
 * facets of a region lie within MK_HULL_FLAT_ANGLE of its normal, so this
 * is at most that angle times the region's width: micrometres on a mesh's
 * flat face, up to 1e-4 of its width on a region of facets near the flat
 * angle (two random hulls face to face at MK_TEST_SCALE=30, seed 378, a
 * fold of 5.4e-5 rad: both clips were 1.1e-5 and 1.9e-5 m off the depth,
 * beyond the 6e-6 check, and the pair got one line point for its face). */
static mk_real region_thickness(const posed *x, int code)
{
    if (x->s->type != MK_SHAPE_HULL)
        return 0;
    const mk_hull *h = x->s->u.hull.hull;
    if (!h->face_region || code < 0 || code >= h->num_faces || h->face_region[code] < 0)
        return 0;
    const int r = h->face_region[code];
    const mk_vec3 n = h->face_normals[h->region_face[r]];
    mk_real lo = INFINITY, hi = -INFINITY;
    for (int f = 0; f < h->num_faces; ++f) {
        if (h->face_region[f] != r)
            continue;
        for (int k = h->face_start[f]; k < h->face_start[f + 1]; ++k) {
            const mk_real t = v3_dot(h->vertices[h->face_vertices[k]], n);
            lo = t < lo ? t : lo;
            hi = t > hi ? t : hi;
        }
    }
    return hi > lo ? hi - lo : 0;
}

/* A hull's face tied (tie_floor) with its best aligned one along the frame
 * direction dir whose centre lies nearest, across dir, to the frame point
 * target; -1 when the hull has no usable face. The faces of a nearly flat
 * region (facets within the tie of one another) are all tied: the one under
 * the other shape's face is the incident face, wherever the support vertex
 * happened to lie. */
static int hull_face_near(const posed *x, mk_vec3 dir, mk_vec3 target)
{
    const mk_hull *h = x->s->u.hull.hull;
    if (!hull_has_faces(h))
        return -1;
    const mk_vec3 d = dir_to_local(x, dir), t = dir_to_local(x, v3_sub(target, x->p));
    mk_real best = -2;
    for (int f = 0; f < h->num_faces; ++f)
        if (face_usable(h, f))
            best = fmax(best, v3_dot(h->face_normals[f], d));
    if (!(best > -2))
        return -1;
    const mk_real floor = tie_floor(best);
    int pick = -1;
    mk_real pick_d2 = INFINITY;
    for (int f = 0; f < h->num_faces; ++f) {
        if (!face_usable(h, f) || !(v3_dot(h->face_normals[f], d) >= floor))
            continue;
        mk_vec3 cf = v3(0, 0, 0);
        const int n = h->face_start[f + 1] - h->face_start[f];
        for (int k = h->face_start[f]; k < h->face_start[f + 1]; ++k)
            cf = v3_add(cf, h->vertices[h->face_vertices[k]]);
        const mk_vec3 off = v3_sub(v3_scale(cf, 1.0 / n), t);
        const mk_real along = v3_dot(off, d), d2 = v3_len2(off) - along * along;
        if (d2 < pick_d2) {
            pick_d2 = d2;
            pick = f;
        }
    }
    return pick;
}

/* Face contacts on one reference face: A's (flip 0) or B's (flip 1). With
 * near_ref, a hull's incident face is the one of its faces tied with the
 * best that lies under the reference face's centre (hull_face_near). */
static int face_contacts_on(const mf_ctx *c, int flip, face_pick fa, face_pick fb, int near_ref, cand_list *l,
                            mk_vec3 *n_out)
{
    const posed *rs = flip ? &c->b : &c->a, *is = flip ? &c->a : &c->b;
    const int face = flip ? fb.face : fa.face;
    const int is_disc = rs->s->type == MK_SHAPE_CYLINDER || rs->s->type == MK_SHAPE_CONE;
    polygon ref, inc;
    disc dk = {0};
    line_feature lf;
    mk_vec3 ref_n;
    mk_real ref_off;
    if (is_disc) {
        build_disc(rs, face, &dk);
        ref_n = dk.normal;
        ref_off = v3_dot(dk.normal, dk.c);
    } else {
        if (rs->s->type == MK_SHAPE_USER ? !user_polygon(rs, flip ? v3_neg(c->n) : c->n, &ref)
                                         : !build_polygon(rs, face, NULL, &ref))
            return 0;
        ref_n = ref.normal;
        ref_off = v3_dot(ref.normal, ref.v[0]);
    }
    *n_out = flip ? v3_neg(ref_n) : ref_n;
    const mk_real tol = MK_MF_FACE_CHECK * c->scale;
    feat_kind kind;
    if (near_ref) {
        mk_vec3 centre = v3(0, 0, 0);
        for (int q = 0; q < ref.count; ++q)
            centre = v3_add(centre, ref.v[q]);
        const int f = hull_face_near(is, v3_neg(ref_n), v3_scale(centre, 1.0 / ref.count));
        if (f < 0 || !build_polygon(is, f, NULL, &inc))
            return 0;
        kind = KIND_POLY;
    } else {
        kind = incident_feature(is, ref_n, &inc, &lf);
    }
    switch (kind) {
    case KIND_POLY:
        if (is_disc)
            clip_polygon_on_disc(&dk, &inc, flip, l);
        else
            clip_polygon_on_face(&ref, &inc, flip, l);
        break;
    case KIND_LINE:
        if (is_disc)
            clip_segment_on_disc(&dk, &lf, flip, l);
        else
            clip_segment_on_face(&ref, &lf, flip, l);
        break;
    case KIND_POINT: {
        mk_real u, v;
        if (is_disc)
            disc_uv(&dk, lf.v[0], &u, &v);
        if (is_disc ? u * u + v * v > (dk.r + tol) * (dk.r + tol) : !over_polygon(&ref, lf.v[0], tol))
            return 0;
        push_face_point(l, ref_n, ref_off, flip, lf.v[0],
                        make_id(flip, is_disc ? face : ref.face, lf.code, lf.tag[0], MK_MF_ID_INC_VERTEX));
        break;
    }
    }
    if (face_contact_complete(c, is, ref_n, ref_off, *n_out, l, 0))
        return 1;
    /* Off by no more than a flat region's fold: the clip holds the contact
     * to the region's own flatness (measured only here: most clips pass). */
    const mk_real ref_fold = is_disc ? 0 : region_thickness(rs, ref.face);
    const mk_real inc_fold = kind == KIND_POLY ? region_thickness(is, inc.face) : 0;
    return ref_fold + inc_fold > 0 && face_contact_complete(c, is, ref_n, ref_off, *n_out, l, ref_fold + inc_fold);
}

/* Face contacts when A or B has a face aligned with the normal (the preferred
 * reference face first, then the other shape's). Returns 0 when
 * neither has one or the face does not hold the contact. *n_out: the reference
 * normal oriented A to B. fa, fb: the best faces of A along n and of B along
 * -n (computed first, whatever the outcome; the line path reuses them). */
static int face_contacts(const mf_ctx *c, cand_list *l, mk_vec3 *n_out, face_pick *fa_out, face_pick *fb_out)
{
    face_pick fa = best_face(&c->a, c->n), fb = best_face(&c->b, v3_neg(c->n));
    *fa_out = fa;
    *fb_out = fb;
    const mk_real cmin = cos(MK_MF_FACE_ANGLE);
    int use_a = fa.face >= 0 && fa.align >= cmin, use_b = fb.face >= 0 && fb.align >= cmin;
    if (!use_a && !use_b)
        return 0;
    int flip = use_b && (!use_a || fb.align > fa.align + MK_MF_REF_BIAS);
    if (face_contacts_on(c, flip, fa, fb, 0, l, n_out) && l->count > 0)
        return 1;
    /* The other shape's face, when it has one: the preferred face can be off
     * the normal by an angle that, times a depth far beyond the shapes'
     * sizes (a box tunnelled deep into a much larger one), misses the depth,
     * while the other lies along the normal and holds the contact. */
    const int other = flip ? use_a : use_b;
    if (other) {
        l->count = 0;
        if (face_contacts_on(c, !flip, fa, fb, 0, l, n_out) && l->count > 0)
            return 1;
    }
    /* A hull whose lowest region is nearly flat (facets within the face tie
     * of one another): the faces through its support vertex may all lie
     * beside the other shape's face, and the clip is empty. Its face under
     * the reference face's centre instead (two 240-point hulls face to face,
     * B's support vertex on a facet 2.9e-6 rad off its face under A's: one
     * point instead of A's triangle; test hull_faces_face_to_face). The
     * hull's contact regions (mk_hull.face_region) now join such facets when
     * it is built; this stays for hulls without them (hand-built ones) and
     * tied faces just beyond the flat angle. */
    for (int k = 0; k < 1 + other; ++k) {
        const int fl = k ? !flip : flip;
        const mk_shape_type inc = (fl ? c->a : c->b).s->type, ref = (fl ? c->b : c->a).s->type;
        if (inc != MK_SHAPE_HULL || ref == MK_SHAPE_CYLINDER || ref == MK_SHAPE_CONE)
            continue; /* a hull's faces under a polygon (a cap is a disc) */
        l->count = 0;
        if (face_contacts_on(c, fl, fa, fb, 1, l, n_out) && l->count > 0)
            return 1;
    }
    l->count = 0;
    return 0;
}

/* ---------------------------------------------------------------- line and point contacts */

static mk_vec3 closest_on_segment(mk_vec3 p, mk_vec3 q0, mk_vec3 v)
{
    mk_real e = v3_dot(v, v);
    mk_real t = e > 0 ? fmin(fmax(v3_dot(v3_sub(p, q0), v) / e, 0), 1) : 0;
    return v3_madd(q0, t, v);
}

/* Two line features: the ends of their overlap when parallel, else their
 * closest points. Returns 0 (nothing pushed) for crossing lines whose closest
 * points miss the caller's depth: a line stands for an edge or side tilted by
 * up to MK_MF_LINE_ANGLE from the contact plane, and where two such cross,
 * the deepest point is the support, at an end of the tilted one (two
 * cylinders' sides crossing at 0.047 rad: 0.1244 deep at the closest points
 * against 0.1321 along the normal, found by the ODE adapter's fuzzer with the
 * growth contact model, whose manifold is not completed by a witness point).
 * any_depth: the closest points whatever their depth. */
static int line_line(const mf_ctx *c, const line_feature *la, const line_feature *lb, int any_depth, cand_list *l)
{
    mk_vec3 u = v3_sub(la->v[1], la->v[0]), v = v3_sub(lb->v[1], lb->v[0]);
    mk_real lu = v3_len(u), lv = v3_len(v);
    int ia = la->code, ib = lb->code;
    const mk_real cross = lu > 0 && lv > 0 ? v3_len(v3_cross(u, v)) : 0;
    if (lu > 0 && lv > 0 && cross <= sin(MK_MF_PARALLEL_ANGLE) * lu * lv) {
        /* Overlap of B's projection on A's segment, in A's parameter. */
        mk_real tb0 = v3_dot(v3_sub(lb->v[0], la->v[0]), u) / (lu * lu);
        mk_real tb1 = v3_dot(v3_sub(lb->v[1], la->v[0]), u) / (lu * lu);
        int swap = tb0 > tb1;
        mk_real blo = swap ? tb1 : tb0, bhi = swap ? tb0 : tb1;
        mk_real lo = blo > 0 ? blo : 0, hi = bhi < 1 ? bhi : 1;
        int tag_lo = blo > 0 ? 2 + swap : 0, tag_hi = bhi < 1 ? 3 - swap : 1;
        /* Two lines a little apart in angle drift apart across the normal
         * along the overlap (sin of the angle times its length) while their
         * separation along the common normal stays that of the crossing:
         * an end drifted farther than the contact reaches (the cores'
         * overlap and the radii) is not in contact, though it would be
         * given the crossing's depth (a box's edge 0.49 long across a
         * ridge's crest at 0.036 rad, 7 mm deep: one end's corner 5.6 mm
         * outside the ridge). The crossing alone then (below). */
        const mk_real drift = cross / lv * (hi - lo);
        const mk_real reach = fmax(-c->core_distance, 0) + c->a.s->radius + c->b.s->radius + MK_MF_TIE * c->scale;
        if (hi - lo > 1e-9 && drift <= reach) {
            mk_real ts[2] = {lo, hi};
            int tags[2] = {tag_lo, tag_hi};
            for (int k = 0; k < 2; ++k) {
                mk_vec3 pa = v3_madd(la->v[0], ts[k], u);
                mk_vec3 pb = closest_on_segment(pa, lb->v[0], v);
                push(l, pa, pb, v3_dot(v3_sub(pb, pa), c->n), make_id(0, ia, ib, tags[k], MK_MF_ID_LINE_LINE));
            }
            return 1;
        }
    }
    mk_real s, t;
    closest_on_segments(la->v[0], u, lb->v[0], v, &s, &t);
    mk_vec3 pa = v3_madd(la->v[0], s, u), pb = v3_madd(lb->v[0], t, v);
    const mk_real sep = v3_dot(v3_sub(pb, pa), c->n);
    if (!any_depth && sep > c->core_distance + MK_MF_DEPTH_CHECK * c->scale)
        return 0;
    push(l, pa, pb, sep, make_id(0, ia, ib, 4, MK_MF_ID_LINE_LINE));
    return 1;
}

/* How far the support of x moves when dir (unit) tilts by MK_MF_TILT (the
 * most of four tilts): zero for a vertex, large for a rim point seen almost
 * along its axis, whose position then follows the normal's error. */
static mk_real support_sensitivity(const posed *x, mk_vec3 dir)
{
    mk_vec3 t1 = v3_normalize_or(v3_cross(dir, fabs(dir.x) < 0.6 ? v3(1, 0, 0) : v3(0, 1, 0)), v3(0, 0, 1));
    mk_vec3 t2 = v3_cross(dir, t1);
    mk_vec3 s0 = support_frame(x, dir);
    /* Both ways along each axis: a flat face whose corner s0 already is the
     * one a one-sided tilt picks would look like a stable point. */
    const mk_vec3 tilts[4] = {t1, t2, v3_neg(t1), v3_neg(t2)};
    mk_real m = 0;
    for (int k = 0; k < 4; ++k) {
        const mk_real moved = v3_len(v3_sub(support_frame(x, v3_madd(dir, MK_MF_TILT, tilts[k])), s0));
        m = moved > m ? moved : m;
    }
    return m;
}

/* Which shape's support along n (frame, A to B) is the point to anchor a
 * contact on: 1 for A, 2 for B when its support moves less than half the
 * other's under a tilt, 0 when neither does. */
static int steadier_of(mk_real sa, mk_real sb) { return sa < 0.5 * sb ? 1 : sb < 0.5 * sa ? 2 : 0; }
static int steadier_support(const mf_ctx *c, mk_vec3 n)
{
    return steadier_of(support_sensitivity(&c->a, n), support_sensitivity(&c->b, v3_neg(n)));
}

/* Whether the point f (frame, on x's support plane) lies beside x, a line
 * feature's shape: farther from the line's point `on` nearest it than x
 * (its rounding radius included) reaches from there in that direction, by
 * more than tol. */
static int beside_line(const posed *x, mk_vec3 on, mk_vec3 f, mk_real tol)
{
    const mk_vec3 d = v3_sub(f, on);
    const mk_real len = v3_len(d);
    if (!(len > tol))
        return 0;
    const mk_vec3 u = v3_scale(d, 1 / len);
    return len > v3_dot(u, v3_sub(support_frame(x, u), on)) + x->s->radius + tol;
}

/* The same for a face of x facing dir whose support point s stands for it
 * (a flat feature), the foot f on its plane: the face's rim point toward f
 * (x's support along dir tilted by MK_MF_TILT that way) in *on, when f lies
 * beside x from there. A box 5e-5 across, its face on the top of a user
 * hull 9e-3 wide and 3e-8 thick whose support was a corner 4e-3 away: the
 * point lay 4e-3 off the box (the core's fuzzer). */
static int face_rim_toward(const posed *x, mk_vec3 dir, mk_vec3 s, mk_vec3 f, mk_real tol, mk_vec3 *on)
{
    const mk_vec3 d = v3_sub(f, s);
    const mk_real len = v3_len(d);
    if (!(len > tol))
        return 0;
    *on = support_frame(x, v3_madd(dir, MK_MF_TILT / len, d));
    return beside_line(x, *on, f, tol);
}

/* The point of a line feature lf of x that anchors it against a face's point
 * q (a corner the face's support picked): the line's support along dir (its
 * deeper end when tilted), unless a tilt of dir by MK_MF_TILT moves that by
 * more than half the line (a tie: every point of the line is as deep, to
 * within the tilt), then the line's point nearest q. A needle 1.4 long
 * (a user shape, its side a face 3e-5 wide whose support was a corner at
 * its end) touching the end of a user hull's edge 170 long: the edge's
 * support was its far end, and the contact point lay 171 off the needle
 * (the core's fuzzer). */
static void line_anchor(const posed *x, mk_vec3 dir, mk_vec3 q, line_feature *lf)
{
    const mk_vec3 v = v3_sub(lf->v[1], lf->v[0]);
    if (support_sensitivity(x, dir) > 0.5 * v3_len(v)) {
        lf->v[0] = closest_on_segment(q, lf->v[0], v);
        lf->count = 1;
        lf->flat = lf->corner = 0;
        lf->tag[0] = 0;
        return;
    }
    set_point(x, shape_support(x->s, dir_to_local(x, dir), NULL), lf->code, 0, lf);
}

/* The pair a point p (an anchor: one shape's unique support) makes with
 * the other shape x, whose feature of along -dir is a line or a point (dir:
 * frame, from p's shape to x), in *pp (p's side) and *px (x's), and their
 * separation along dir. The separation is x's support plane's; against a
 * line the line's nearest point is used instead when the support lies
 * deeper than it by more than the depth check: a normal a hair off the
 * perpendicular of a long line puts the support at the line's far end (a
 * capsule end on the side of a cylinder 1e4 long, the normal 3e-4 rad off
 * from a warm start: 0.56 to 104 deep where the overlap is 0.53; the ODE
 * adapter's fuzzer). Where p's foot on x's support plane lies beside x (a
 * line: farther from it than x reaches that way, beside_line; a face: past
 * its rim, face_rim_toward), the pair is x's point nearest the foot and its
 * own foot on p's plane: the anchor, though the deepest point, is not over
 * x's feature (a rod 1,000 long through the middle of a rounded user box
 * 1,500 across, its face 1e-3 rad off the normal: the box's support, a
 * corner 800 beside the rod, put the point 742 off the rod; the core's
 * fuzzer). */
static mk_real anchor_pair(const mf_ctx *c, const posed *x, const line_feature *of, mk_vec3 p, mk_vec3 dir, mk_vec3 *pp,
                           mk_vec3 *px)
{
    const mk_real beside = MK_MF_DEPTH_CHECK * c->scale;
    const mk_real sep = v3_dot(v3_sub(support_frame(x, v3_neg(dir)), p), dir);
    *pp = p;
    *px = v3_madd(p, sep, dir);
    mk_vec3 on;
    if (of->count == 2) {
        const mk_vec3 v = v3_sub(of->v[1], of->v[0]);
        const mk_vec3 q = closest_on_segment(p, of->v[0], v);
        const mk_real sq = v3_dot(v3_sub(q, p), dir);
        if (sq > sep + beside) {
            *px = q;
            return sq;
        }
        on = closest_on_segment(*px, of->v[0], v);
        if (!beside_line(x, on, *px, beside))
            return sep;
    } else if (!(of->flat && face_rim_toward(x, v3_neg(dir), of->v[0], *px, beside, &on))) {
        return sep;
    }
    *px = on;
    *pp = v3_madd(on, -sep, dir);
    return sep;
}

/* The pair p (on A), q (on B) replaced by their midpoint moved half their
 * separation along n each way. */
static void push_midpoint(cand_list *l, mk_vec3 p, mk_vec3 q, mk_vec3 n, uint32_t id)
{
    const mk_real sep = v3_dot(v3_sub(q, p), n);
    const mk_vec3 mid = v3_scale(v3_add(p, q), 0.5);
    push(l, v3_madd(mid, -0.5 * sep, n), v3_madd(mid, 0.5 * sep, n), sep, id);
}

/* The closest pair, across the unit n, of the segment s0 + s su (s in [0, 1])
 * and the outline of polygon pg: returns the squared distance across n, the
 * segment's parameter *bs, the edge *bj of pg and its parameter *bt. */
static mk_real closest_across(const polygon *pg, mk_vec3 s0, mk_vec3 su, mk_vec3 n, mk_real *bs, mk_real *bt, int *bj)
{
    const mk_vec3 s0p = v3_madd(s0, -v3_dot(s0, n), n), sup = v3_madd(su, -v3_dot(su, n), n);
    mk_real best = INFINITY;
    *bs = *bt = 0, *bj = 0;
    for (int j = 0; j < pg->count; ++j) {
        const mk_vec3 a = pg->v[j], e = v3_sub(pg->v[(j + 1) % pg->count], a);
        const mk_vec3 ap = v3_madd(a, -v3_dot(a, n), n), ep = v3_madd(e, -v3_dot(e, n), n);
        mk_real s, t;
        closest_on_segments(s0p, sup, ap, ep, &s, &t);
        const mk_real d = v3_len2(v3_sub(v3_madd(s0p, s, sup), v3_madd(ap, t, ep)));
        if (d < best) {
            best = d, *bs = s, *bt = t, *bj = j;
        }
    }
    return best;
}

static inline mk_vec3 on_edge(const polygon *pg, int j, mk_real t)
{
    return v3_madd(pg->v[j], t, v3_sub(pg->v[(j + 1) % pg->count], pg->v[j]));
}

/* The segment lf beside the face polygon pg of the other shape (flip: the
 * face is B's), seen along the normal n (frame, A to B): the closest pair of
 * points across n, one on the segment, one on the polygon's boundary, each
 * on its shape. */
static void line_beside_face(const polygon *pg, const line_feature *lf, int flip, mk_vec3 n, cand_list *l)
{
    const mk_vec3 su = v3_sub(lf->v[1], lf->v[0]);
    mk_real bs, bt;
    int bj;
    closest_across(pg, lf->v[0], su, n, &bs, &bt, &bj);
    const mk_vec3 on_line = v3_madd(lf->v[0], bs, su), on_face = on_edge(pg, bj, bt);
    const mk_vec3 pa = flip ? on_line : on_face, pb = flip ? on_face : on_line;
    push(l, pa, pb, v3_dot(v3_sub(pb, pa), n), make_id(flip, pg->face, lf->code, pg->tag[bj], MK_MF_ID_LINE_LINE));
}

/* The polygon of face f of x (dir: the direction it faces, for user shapes). */
static int face_polygon(const posed *x, face_pick f, mk_vec3 dir, polygon *pg)
{
    return f.face >= 0 && (x->s->type == MK_SHAPE_USER ? user_polygon(x, dir, pg) : build_polygon(x, f.face, NULL, pg));
}

/* The part of the segment lf over the face f of x (flip: x is B) that faces
 * along the frame direction dir, pushed with the face's polygon in *pg.
 * Returns the number of points pushed, -1 when x has no polygon for the
 * face. */
static int segment_over_face(const posed *x, face_pick f, mk_vec3 dir, const line_feature *lf, int flip, polygon *pg,
                             cand_list *l)
{
    if (!face_polygon(x, f, dir, pg))
        return -1;
    const int before = l->count;
    clip_segment_on_face(pg, lf, flip, l);
    return l->count - before;
}

/* The segment lf against the face f of x (flip: x is B) that faces along the
 * frame direction dir: its part over the face, else (the segment passes
 * beside it) the closest pair across the normal n. 0 when x has no polygon
 * for the face. */
static int line_over_face(const posed *x, face_pick f, mk_vec3 dir, const line_feature *lf, int flip, mk_vec3 n,
                          cand_list *l)
{
    polygon pg;
    const int added = segment_over_face(x, f, dir, lf, flip, &pg, l);
    if (added < 0)
        return 0;
    if (added == 0)
        line_beside_face(&pg, lf, flip, n, l);
    return 1;
}

/* The part of the segment lf (on `other`) over the face f of x (flip: x is
 * B) that faces along the frame direction dir, kept only when it reaches
 * other's deepest point towards the face's plane (to the face check): the
 * face's plane then is where the two shapes meet, whatever the normal's
 * error. 0 (nothing kept) otherwise. */
static int line_reaching_face(const mf_ctx *c, const posed *x, const posed *other, face_pick f, mk_vec3 dir,
                              const line_feature *lf, int flip, cand_list *l)
{
    polygon pg;
    const int before = l->count;
    if (segment_over_face(x, f, dir, lf, flip, &pg, l) <= 0)
        return 0;
    mk_real min_sep = l->c[before].sep;
    for (int q = before + 1; q < l->count; ++q)
        min_sep = fmin(min_sep, l->c[q].sep);
    const mk_vec3 deepest = support_frame(other, v3_neg(pg.normal));
    const mk_real reach = v3_dot(pg.normal, v3_sub(deepest, pg.v[0]));
    if (!(min_sep <= reach + MK_MF_FACE_CHECK * c->scale)) {
        l->count = before;
        return 0;
    }
    /* separations along the caller's normal, which the contact keeps (the
     * face may be tilted from it by up to the face angle) */
    for (int q = before; q < l->count; ++q)
        l->c[q].sep = v3_dot(v3_sub(l->c[q].pb, l->c[q].pa), c->n);
    return 1;
}

/* Two faces along the normal that the face path turned down (their clip was
 * empty: outlines that only touch, or a cap's inscribed polygon missing a
 * thin overlap): the closest pair of their outlines across the normal, one
 * point on each face. */
static int faces_beside(const mf_ctx *c, face_pick fa, face_pick fb, cand_list *l)
{
    polygon pa, pb;
    if (!face_polygon(&c->a, fa, c->n, &pa) || !face_polygon(&c->b, fb, v3_neg(c->n), &pb) || pa.count < 2 ||
        pb.count < 2)
        return 0;
    mk_real best = INFINITY, bs = 0, bt = 0;
    int bi = 0, bj = 0;
    for (int i = 0; i < pb.count; ++i) {
        mk_real s, t;
        int j;
        const mk_real d = closest_across(&pa, pb.v[i], v3_sub(pb.v[(i + 1) % pb.count], pb.v[i]), c->n, &s, &t, &j);
        if (d < best)
            best = d, bs = s, bt = t, bi = i, bj = j;
    }
    const mk_vec3 qa = on_edge(&pa, bj, bt), qb = on_edge(&pb, bi, bs);
    push(l, qa, qb, v3_dot(v3_sub(qb, qa), c->n), make_id(0, pa.face, pb.face, pa.tag[bj], MK_MF_ID_LINE_LINE));
    return 1;
}

/* Contacts without a reference face: line against line, else a single point
 * anchored on the shape whose feature is a unique point (of two points, the
 * one less sensitive to the normal). face_a, face_b: best_face of A along n
 * and of B along -n, from face_contacts. */
static void line_contacts(const mf_ctx *c, face_pick face_a, face_pick face_b, cand_list *l)
{
    line_feature fa, fb;
    line_or_point(&c->a, c->n, face_a, &fa);
    line_or_point(&c->b, v3_neg(c->n), face_b, &fb);
    const mk_vec3 n = c->n;
    mk_real sens_a = -1, sens_b = -1; /* the supports' sensitivities, once measured */
    if (fa.count == 2 && fb.count == 2) {
        if (line_line(c, &fa, &fb, 0, l))
            return;
        /* Crossing lines that miss the depth: each shape's support point,
         * unless both supports are ties along their lines (a tilt of the
         * normal by MK_MF_TILT moves each by more than half its line, so
         * either point, or their midpoint, is an arbitrary one): then the
         * lines' closest pair, shallower than the caller's distance by what
         * the normal's error tilts the lines. A box's edge across a cone's
         * side line 3.6e-4 deep, EPA's normal 1.1e-5 rad off: 6.5e-9 short,
         * beyond the depth check's 3.8e-9, and the midpoint of the supports
         * lay 2.6e-4 off the box; a box's edge 2.9e-2 long across a cone's
         * side 0.14 long, both ties: the box's end anchored the contact, 6e-3
         * off the cone (the core's fuzzer). */
        sens_a = support_sensitivity(&c->a, n);
        sens_b = support_sensitivity(&c->b, v3_neg(n));
        if (sens_a > 0.5 * v3_len(v3_sub(fa.v[1], fa.v[0])) && sens_b > 0.5 * v3_len(v3_sub(fb.v[1], fb.v[0])) &&
            line_line(c, &fa, &fb, 1, l))
            return;
        set_point(&c->a, shape_support(c->a.s, dir_to_local(&c->a, n), NULL), fa.code, 0, &fa);
        set_point(&c->b, shape_support(c->b.s, dir_to_local(&c->b, v3_neg(n)), NULL), fb.code, 0, &fb);
    }
    /* A line against a face (along the normal within MK_MF_NORMAL_CHECK, or
     * a user shape's face corner) that the face path turned down: the line's
     * part over the face, else the closest pair across the normal. The face
     * path turns such a pair down when along this normal the line's far end
     * dips deeper off the face (a capsule 2.2 long holding a flake of a box
     * 1e-3 across, the normal 1e-5 off from a warm start: the capsule's end
     * 1.1e-5 deeper); the support points then stood for the pair: the
     * capsule's end, 1.1 off the flake, and where a capsule's side touched a
     * box of 3e-5 beside its axis, the capsule's end, 10.8 off the box (the
     * core's fuzzer). */
    if (fa.count == 2 && fb.count == 1 && (fb.flat || fb.corner) &&
        line_over_face(&c->b, face_b, v3_neg(n), &fa, 1, n, l))
        return;
    if (fb.count == 2 && fa.count == 1 && (fa.flat || fa.corner) && line_over_face(&c->a, face_a, n, &fb, 0, n, l))
        return;
    /* Two faces (a thin disk and a cone's base, coplanar, their circles nearly
     * tangent: the inscribed polygons' clip was empty, and the midpoint of
     * the faces' support points, arbitrary points of the faces, lay 3.6 off
     * the disk; the core's fuzzer): the closest pair of their outlines. */
    if (fa.count == 1 && fa.flat && fb.count == 1 && fb.flat && faces_beside(c, face_a, face_b, l))
        return;
    /* A line against a point that is a corner of a face within the face
     * angle (the normal a hair further off the face than MK_MF_NORMAL_CHECK
     * makes the support one point of the face's outline, which the normal's
     * error moves anywhere along it): the line's part over that face when it
     * holds the line's deepest point towards the face. A tetrahedron 3e-6
     * across, 3e-3 from a cylinder's cap, the normal 1.3e-5 rad off the axis:
     * the rim point, 2.3e-2 from the tetrahedron, anchored the contact there
     * (the core's fuzzer). */
    const mk_real face_cos = cos(MK_MF_FACE_ANGLE);
    if (fa.count == 2 && fb.count == 1 && !fb.flat && !fb.corner && face_b.face >= 0 && face_b.align >= face_cos &&
        line_reaching_face(c, &c->b, &c->a, face_b, v3_neg(n), &fa, 1, l))
        return;
    if (fb.count == 2 && fa.count == 1 && !fa.flat && !fa.corner && face_a.face >= 0 && face_a.align >= face_cos &&
        line_reaching_face(c, &c->a, &c->b, face_a, n, &fb, 0, l))
        return;
    int point_a = fa.count == 1 && !fa.flat, point_b = fb.count == 1 && !fb.flat;
    /* A line against a face without a polygon (a user shape's face whose
     * corners the tilts found but no polygon made): the line's shape holds
     * the contact, at its support point; the face's support is a corner
     * anywhere on the face (a cylinder lying deep inside a user box got its
     * point at the box's corner, 1.4e6 off the cylinder). */
    if (fa.count == 2 && fb.count == 1 && (fb.flat || fb.corner)) {
        line_anchor(&c->a, n, fb.v[0], &fa);
        point_a = 1, point_b = 0;
    } else if (fb.count == 2 && fa.count == 1 && (fa.flat || fa.corner)) {
        line_anchor(&c->b, v3_neg(n), fa.v[0], &fb);
        point_a = 0, point_b = 1;
    }
    if (point_a && point_b) {
        const int steady = sens_a >= 0 ? steadier_of(sens_a, sens_b) : steadier_support(c, n);
        if (steady == 1)
            point_b = 0;
        else if (steady == 2)
            point_a = 0;
    }
    /* One anchor: its pair with the other shape (anchor_pair). */
    if (point_a && !point_b) {
        mk_vec3 pa, pb;
        const mk_real sep = anchor_pair(c, &c->b, &fb, fa.v[0], n, &pa, &pb);
        push(l, pa, pb, sep, make_id(0, fa.code, fb.code, fa.tag[0], MK_MF_ID_ANCHOR_A));
    } else if (point_b && !point_a) {
        mk_vec3 pa, pb;
        const mk_real sep = anchor_pair(c, &c->a, &fa, fb.v[0], v3_neg(n), &pb, &pa);
        push(l, pa, pb, sep, make_id(0, fa.code, fb.code, fb.tag[0], MK_MF_ID_ANCHOR_B));
    } else {
        /* two equally sensitive points; or a face against a face or line (the
         * face path found no contact on it): the midpoint of the supports */
        push_midpoint(l, fa.v[0], fb.v[0], n, make_id(0, fa.code, fb.code, fa.tag[0], MK_MF_ID_MIDPOINT));
    }
}

/* Last resort when every point was dropped although the caller reports a
 * contact: the support point of the shape whose support along the normal is
 * a unique point (steadier_support, as for the anchors of line_contacts),
 * paired with its foot on the other's support plane; the midpoint of the
 * supports when neither is (or both are). The separation is the supports'
 * either way. A cylinder's bottom rim touching a cone's side (unit scale,
 * the caller's signed distance -4e-11): the crossing side lines gave a
 * point 2e-7 apart, beyond reach, and the midpoint of the rim point and the
 * cone's support (an end of the generator, a tie) lay 0.15 off the cylinder
 * (the core's fuzzer). */
static void safety_point(const mf_ctx *c, cand_list *l)
{
    const mk_vec3 sa = support_frame(&c->a, c->n), sb = support_frame(&c->b, v3_neg(c->n));
    const mk_real sep = v3_dot(v3_sub(sb, sa), c->n);
    const uint32_t id = make_id(0, 0x7F, 0xFF, 0xFF, MK_MF_ID_SAFETY);
    switch (steadier_support(c, c->n)) {
    case 1: push(l, sa, v3_madd(sa, sep, c->n), sep, id); break;
    case 2: push(l, v3_madd(sb, -sep, c->n), sb, sep, id); break;
    default: push_midpoint(l, sa, sb, c->n, id); break;
    }
}

/* ---------------------------------------------------------------- reduction */

static mk_vec3 cand_pos(const cand *c) { return v3_scale(v3_add(c->pa, c->pb), 0.5); }

/* Index of the candidate whose value sign * val[q] is within tie of m, the
 * largest (or floor_value when larger), with the smallest id; -1 when m does
 * not exceed floor_value. The callers find m in the loop that fills val. */
static int pick_tied(const cand *c, const mk_real *val, mk_real sign, int n, mk_real m, mk_real tie,
                     mk_real floor_value)
{
    if (!(m > floor_value))
        return -1;
    int best = -1;
    for (int q = 0; q < n; ++q)
        if (sign * val[q] >= m - tie && (best < 0 || c[q].id < c[best].id))
            best = q;
    return best;
}

/* The candidates' positions (mid-points) in coordinates across the normal n:
 * x = <p, t1>, y = <p, t2> with (t1, t2, n) orthonormal and right-handed. The
 * reduction compares in-plane distances and signed areas only, which these
 * give in two dimensions. */
typedef struct flat {
    mk_real x[MK_MF_CLIP_CAP], y[MK_MF_CLIP_CAP];
} flat;

static void flatten(const cand_list *l, mk_vec3 n, flat *f)
{
    mk_vec3 t1, t2;
    v3_across(n, &t1, &t2);
    for (int q = 0; q < l->count; ++q) {
        const mk_vec3 p = cand_pos(&l->c[q]);
        f->x[q] = v3_dot(p, t1);
        f->y[q] = v3_dot(p, t2);
    }
}

static inline mk_real flat_d2(const flat *f, int q, int r)
{
    const mk_real dx = f->x[q] - f->x[r], dy = f->y[q] - f->y[r];
    return dx * dx + dy * dy;
}

/* Completes a spread over the patch from the diagonal (i0, i1) (i1 < 0: the
 * candidate farthest from i0): the largest positive and negative signed areas
 * against that diagonal. Returns the count; idx receives candidate indices. */
static int spread_from(const cand_list *l, const flat *f, mk_real tie_area, int i0, int i1,
                       int idx[MK_MANIFOLD_MAX_PATCH_POINTS])
{
    mk_real val[MK_MF_CLIP_CAP];
    const int cnt = l->count;
    const cand *c = l->c;
    int k = 0;
    idx[k++] = i0;
    if (cnt < 2) /* i0 is the only candidate (and compilers then see val written) */
        return k;
    if (i1 < 0) {
        mk_real m = tie_area;
        for (int q = 0; q < cnt; ++q) {
            val[q] = flat_d2(f, q, i0);
            m = val[q] > m ? val[q] : m;
        }
        i1 = pick_tied(c, val, 1, cnt, m, tie_area, tie_area);
        if (i1 < 0)
            return k;
    }
    idx[k++] = i1;
    const mk_real x0 = f->x[i0], y0 = f->y[i0], dx = f->x[i1] - x0, dy = f->y[i1] - y0;
    mk_real left = tie_area, right = tie_area; /* the largest areas on either side */
    for (int q = 0; q < cnt; ++q) {
        val[q] = dx * (f->y[q] - y0) - dy * (f->x[q] - x0);
        left = val[q] > left ? val[q] : left;
        right = -val[q] > right ? -val[q] : right;
    }
    int i2 = pick_tied(c, val, 1, cnt, left, tie_area, tie_area);
    int i3 = pick_tied(c, val, -1, cnt, right, tie_area, tie_area);
    if (i2 >= 0)
        idx[k++] = i2;
    if (i3 >= 0)
        idx[k++] = i3;
    return k;
}

/* The two candidates farthest apart in the contact plane (the patch's
 * diameter); pairs within tie_area of the longest go to the smaller ids. *i0
 * gets the end with the smaller id. Returns 0 when all candidates coincide. */
static int diameter(const cand_list *l, const flat *f, mk_real tie_area, int *i0, int *i1)
{
    /* Up to 32 candidates (every box and ring patch) one pass keeps the
     * pairs within the tie of the longest so far, in order: every pair within
     * the tie of the longest of all is among them (the longest so far never
     * exceeds it), and the second pass reads only those; more candidates, the
     * distances again. */
    enum { LISTED = 32 };
    mk_real ld[LISTED * (LISTED - 1) / 2];
    uint8_t lq[LISTED * (LISTED - 1) / 2], lr[LISTED * (LISTED - 1) / 2];
    const int cnt = l->count, listed = cnt <= LISTED;
    const cand *c = l->c;
    mk_real m = tie_area;
    int nl = 0;
    for (int q = 0; q < cnt; ++q)
        for (int r = q + 1; r < cnt; ++r) {
            const mk_real d = flat_d2(f, q, r);
            m = d > m ? d : m;
            if (listed && d >= m - tie_area) {
                ld[nl] = d;
                lq[nl] = (uint8_t)q;
                lr[nl] = (uint8_t)r;
                ++nl;
            }
        }
    if (!(m > tie_area))
        return 0;
    uint32_t lo = UINT32_MAX, hi = UINT32_MAX;
    const int pairs = listed ? nl : cnt * (cnt - 1) / 2;
    for (int e = 0, q = 0, r = 0; e < pairs; ++e) {
        mk_real d;
        if (listed) {
            d = ld[e], q = lq[e], r = lr[e];
        } else { /* the next pair in order: (0, 1), (0, 2), .. (1, 2), .. */
            if (++r >= cnt) {
                ++q;
                r = q + 1;
            }
            d = flat_d2(f, q, r);
        }
        if (!(d >= m - tie_area))
            continue;
        int a = c[q].id <= c[r].id ? q : r, b = a == q ? r : q;
        if (c[a].id < lo || (c[a].id == lo && c[b].id < hi)) {
            lo = c[a].id, hi = c[b].id;
            *i0 = a, *i1 = b;
        }
    }
    return 1;
}

/* Pick at most cap (>= 4) of n > cap candidates: the patch's diameter and the two
 * points spanning the largest area on either side of it, a choice made by the
 * patch's shape alone, which does not move while the bodies rock by a hair
 * (starting from the deepest point did: under tilt noise the deepest vertex
 * of a yawed box-on-box octagon hops from corner to corner, and the chosen
 * four with it). Only when some candidate is deeper than every chosen one by
 * more than the depth tie does the spread start from the deepest instead (the
 * farthest from it, then the areas), so the deepest point is kept to within
 * the tie. Beyond four, farthest-point insertion. */
static int reduce(const cand_list *l, mk_vec3 n, mk_real scale, int cap, int idx[MK_MANIFOLD_MAX_PATCH_POINTS])
{
    mk_real val[MK_MF_CLIP_CAP];
    const int cnt = l->count;
    const cand *c = l->c;
    const mk_real tie_len = MK_MF_TIE * scale, tie_area = MK_MF_TIE * scale * scale;
    flat f;
    flatten(l, n, &f);
    int i0 = 0, i1 = -1, k = 1;
    idx[0] = 0;
    if (diameter(l, &f, tie_area, &i0, &i1))
        k = spread_from(l, &f, tie_area, i0, i1, idx);
    mk_real chosen = -INFINITY, deepest = -INFINITY;
    /* (v > m ? v : m is fmax from m = -inf on, without libm's call) */
    for (int q = 0; q < k; ++q)
        chosen = -c[idx[q]].sep > chosen ? -c[idx[q]].sep : chosen;
    for (int q = 0; q < cnt; ++q) {
        val[q] = -c[q].sep;
        deepest = val[q] > deepest ? val[q] : deepest;
    }
    if (deepest > chosen + tie_len) {
        int id = pick_tied(c, val, 1, cnt, deepest, tie_len, -INFINITY);
        k = spread_from(l, &f, tie_area, id < 0 ? 0 : id, -1, idx);
    }
    if (k >= cap)
        return k;
    /* Beyond four: each next point the farthest from those chosen (val[q]:
     * squared distance from q to the nearest chosen point, kept up to date). */
    for (int q = 0; q < cnt; ++q)
        val[q] = INFINITY;
    for (int added = 0; added < k - 1; ++added)
        for (int q = 0; q < cnt; ++q) {
            mk_real d = flat_d2(&f, q, idx[added]);
            val[q] = d < val[q] ? d : val[q];
        }
    while (k < cap) { /* bounded: k grows each pass or the loop ends */
        /* the newest point's distances, then the farthest candidate */
        const int newest = idx[k - 1];
        mk_real m = tie_area;
        for (int q = 0; q < cnt; ++q) {
            mk_real d = flat_d2(&f, q, newest);
            val[q] = d < val[q] ? d : val[q];
            m = val[q] > m ? val[q] : m;
        }
        const int next = pick_tied(c, val, 1, cnt, m, tie_area, tie_area);
        if (next < 0)
            break;
        idx[k++] = next;
    }
    return k;
}

/* Sorts the chosen points by feature id: one order for one set, whichever
 * way it was found (solvers that sweep contacts in order, as ODE's does,
 * then see the same problem from step to step). */
static void sort_by_id(const cand_list *l, int *idx, int count)
{
    /* Insertion by shifting (stable): the pairwise swap this replaced was
     * compiled into overlapping 4- and 8-byte moves whose store forwarding
     * stalled, a third of a box-on-box patch's time. */
    for (int a = 1; a < count; ++a) {
        const int t = idx[a];
        const uint32_t id = l->c[t].id;
        int b = a;
        while (b > 0 && l->c[idx[b - 1]].id > id) {
            idx[b] = idx[b - 1];
            --b;
        }
        idx[b] = t;
    }
}

/* The points kept: all candidates when they fit in cap, else the reduction's
 * choice; in id order. Returns the count. */
static int choose(const cand_list *l, mk_vec3 n, mk_real scale, int cap, int idx[MK_MANIFOLD_MAX_PATCH_POINTS])
{
    int count;
    if (l->count <= cap) {
        count = l->count;
        for (int q = 0; q < count; ++q)
            idx[q] = q;
    } else {
        count = reduce(l, n, scale, cap, idx);
    }
    sort_by_id(l, idx, count);
    return count;
}

/* The chosen candidates idx[0 .. count) as manifold points, taken from the
 * frame to the world by xa (NULL: the frame is the world). 0 when a point is
 * not finite. */
static int write_points(const cand_list *l, const int *idx, int count, const mk_transform *xa,
                        mk_manifold_point *pts)
{
    /* The pose by value: the stores through pts could alias *xa, which would
     * reload it for every point. */
    const mk_transform x = xa ? *xa : mk_transform_identity();
    for (int q = 0; q < count; ++q) {
        const cand *cq = &l->c[idx[q]];
        mk_manifold_point *mp = &pts[q];
        mp->point_a = xa ? xf_apply(&x, cq->pa) : cq->pa;
        mp->point_b = xa ? xf_apply(&x, cq->pb) : cq->pb;
        mp->position = v3_scale(v3_add(mp->point_a, mp->point_b), 0.5);
        mp->separation = cq->sep;
        mp->depth = -cq->sep;
        mp->id = cq->id;
        if (!v3_finite(mp->position) || !isfinite(mp->separation))
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- entry point */

/* Rounded shapes: the core points moved to the surfaces (radius ra on A's
 * side, rb on B's, along the manifold normal n), those beyond `keep` dropped.
 * Returns the count kept. */
static int to_surfaces(cand_list *l, mk_vec3 n, mk_real ra, mk_real rb, mk_real keep)
{
    int kept = 0;
    if (ra == 0 && rb == 0) { /* sharp cores: only the far points go */
        for (int q = 0; q < l->count; ++q)
            if (l->c[q].sep <= keep) {
                if (kept != q)
                    l->c[kept] = l->c[q];
                ++kept;
            }
        l->count = kept;
        return kept;
    }
    for (int q = 0; q < l->count; ++q) {
        cand cq = l->c[q];
        cq.pa = v3_madd(cq.pa, ra, n);
        cq.pb = v3_madd(cq.pb, -rb, n);
        cq.sep -= ra + rb;
        if (cq.sep <= keep)
            l->c[kept++] = cq;
    }
    l->count = kept;
    return kept;
}

static mk_status validate(const mk_pair *pair, mk_vec3 normal, mk_real signed_distance,
                          const mk_manifold_settings *st)
{
    mk_status pv = pair_check(pair);
    if (pv != MK_OK)
        return pv;
    mk_real nl = v3_len(normal);
    if (!v3_finite(normal) || !isfinite(nl) || !(nl > 1e-12))
        return MK_INVALID_INPUT;
    if (!isfinite(signed_distance) || !isfinite(st->speculative_distance))
        return MK_INVALID_INPUT;
    return MK_OK;
}

/* Shared by both entry points: up to cap points into pts, the world normal
 * into *n_world, the count into *count_out (0 with any error status). */
static mk_status contact_points(const mk_pair *pair, mk_vec3 normal, mk_real signed_distance,
                                const mk_manifold_settings *settings, int cap, mk_vec3 *n_world,
                                mk_manifold_point *pts, int *count_out)
{
    *count_out = 0;
    *n_world = v3(0, 0, 1);
    mk_manifold_settings st = settings ? *settings : mk_manifold_default_settings();
    mk_status v = validate(pair, normal, signed_distance, &st);
    if (v != MK_OK)
        return v;

    /* The pair in A's frame. */
    const mk_transform *xa = &pair->xf_a;
    mf_ctx c;
    c.a.s = pair->a;
    c.a.R = mk_transform_identity().R;
    c.a.p = v3(0, 0, 0);
    c.b.s = pair->b;
    c.b.R = m3_tmul_m3(&xa->R, &pair->xf_b.R);
    c.b.p = m3_tmul(&xa->R, v3_sub(pair->xf_b.p, xa->p));
    c.n = v3_normalize_or(m3_tmul(&xa->R, normal), v3(0, 0, 1));
    mk_real ea = shape_half_size(pair->a), eb = shape_half_size(pair->b);
    c.scale = ea < eb ? ea : eb;
    c.core_distance = signed_distance + pair->a->radius + pair->b->radius;
    const mk_real keep = st.speculative_distance + MK_MF_SLACK * (ea > eb ? ea : eb);
    *n_world = m3_mul(&xa->R, c.n);
    if (signed_distance > keep)
        return MK_OK;

    /* Points on the cores: face clipping, else lines and points. */
    cand_list l;
    l.count = 0;
    mk_vec3 n_out = c.n;
    face_pick fa, fb;
    const int lines = !face_contacts(&c, &l, &n_out, &fa, &fb) || l.count == 0;
    if (lines) {
        n_out = c.n;
        l.count = 0;
        line_contacts(&c, fa, fb, &l);
    }

    /* Rounded shapes: move to the surfaces, then drop the far points. A face
     * within the face angle of the normal whose points all lie beyond reach
     * along its own normal (two boxes touching edge to edge, the face 1.3
     * degrees off the normal: its points 0.0054 apart, the pair touching)
     * gives way to the lines and points along the caller's normal. */
    const mk_real ra = pair->a->radius, rb = pair->b->radius;
    int kept = to_surfaces(&l, n_out, ra, rb, keep);
    if (kept == 0 && !lines) {
        n_out = c.n;
        l.count = 0;
        line_contacts(&c, fa, fb, &l);
        kept = to_surfaces(&l, n_out, ra, rb, keep);
    }
    if (kept == 0) {
        n_out = c.n;
        l.count = 0;
        safety_point(&c, &l);
        l.c[0].pa = v3_madd(l.c[0].pa, ra, n_out);
        l.c[0].pb = v3_madd(l.c[0].pb, -rb, n_out);
        l.c[0].sep -= ra + rb;
    }

    int idx[MK_MANIFOLD_MAX_PATCH_POINTS];
    const int count = choose(&l, n_out, c.scale, cap, idx);
    if (!write_points(&l, idx, count, xa, pts)) {
        *n_world = v3(0, 0, 1);
        return MK_INVALID_INPUT; /* a user support returned a non-finite point */
    }
    *n_world = m3_mul(&xa->R, n_out);
    *count_out = count;
    return MK_OK;
}

mk_status mk_contact_manifold(const mk_pair *pair, mk_vec3 normal, mk_real signed_distance,
                              const mk_manifold_settings *settings, mk_manifold *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    /* Points go straight into out (zeroed once); an error may leave some
     * written, so they are zeroed again: unused points are always zero. */
    memset(out, 0, sizeof *out);
    mk_status st = contact_points(pair, normal, signed_distance, settings, MK_MANIFOLD_MAX_POINTS, &out->normal,
                                  out->points, &out->count);
    if (st != MK_OK)
        memset(out->points, 0, sizeof out->points);
    return st;
}

mk_status mk_contact_patch(const mk_pair *pair, mk_vec3 normal, mk_real signed_distance,
                           const mk_manifold_settings *settings, int max_points, mk_contact_patch_result *out)
{
    if (!out)
        return MK_INVALID_INPUT;
    memset(out, 0, sizeof *out);
    out->normal = v3(0, 0, 1);
    if (max_points < MK_MANIFOLD_MAX_POINTS || max_points > MK_MANIFOLD_MAX_PATCH_POINTS)
        return MK_INVALID_INPUT;
    return contact_points(pair, normal, signed_distance, settings, max_points, &out->normal, out->points,
                          &out->count);
}

/* ---------------------------------------------------------------- box on box */

/* shape_extent of a box. */
static inline mk_real box_extent(const mk_shape *s)
{
    return v3_max_abs(s->u.box.half_extents) + s->radius;
}

/* Side plane j of box face `face` (box_polygon's edge j) as a coordinate
 * bound in the box's own frame: inside when sigma * p[coord] <= h[coord].
 * Edge j runs from corner j to corner j + 1; its outward side normal
 * (edge x face normal) is -e_k, e_j, e_k, -e_j on a +axis face and -e_j,
 * e_k, e_j, -e_k on a -axis face (i the face's axis, j = i + 1, k = i + 2). */
static void box_side_bound(int face, int edge, int *coord, mk_real *sigma)
{
    const int i = face / 2, j = (i + 1) % 3, k = (i + 2) % 3;
    *coord = (edge % 2 == 0) == (face % 2 == 0) ? k : j;
    *sigma = edge == 1 || edge == 2 ? 1 : -1;
}

/* One reference face of the box pair (A's face fa.face, or with flip B's
 * face fb.face): face_contacts_on for two boxes, step by step (incident face,
 * Sutherland-Hodgman passes in edge order, face_contact_complete, radii,
 * choose), with the clip in the reference box's coordinates; B posed by Rb,
 * pb and the unit normal n in A's frame. 1 with the points written, else 0. */
static int box_box_on(const mk_pair *pair, const mk_mat3 Rb, mk_vec3 pb, mk_vec3 n, int flip, face_pick fa,
                      face_pick fb, mk_real signed_distance, mk_real keep, int cap, mk_vec3 *n_world,
                      mk_manifold_point *pts, int *count_out)
{
    const mk_transform *xa = &pair->xf_a;
    const mk_shape *sa = pair->a, *sb = pair->b;
    const mk_real ea = box_extent(sa), eb = box_extent(sb);
    const mk_shape *rs = flip ? sb : sa, *is = flip ? sa : sb;
    const int face = flip ? fb.face : fa.face;
    /* The incident box in the reference box's coordinates: rotation M, centre t. */
    posed inc_pose = {is, Rb, pb};
    if (flip) {
        for (int r = 0; r < 3; ++r)
            for (int q = 0; q < 3; ++q)
                inc_pose.R.m[r][q] = Rb.m[q][r];
        inc_pose.p = v3_neg(m3_tmul(&Rb, pb));
    }
    const int ri = face / 2;
    const mk_real rsg = face % 2 ? -1 : 1;
    const mk_vec3 rh = rs->u.box.half_extents;
    const mk_real rhh[3] = {rh.x, rh.y, rh.z};
    /* The incident face: the incident box's face most opposed to the reference
     * normal rsg e_ri (incident_feature), corners and tags as box_polygon's. */
    const mk_vec3 toward = v3_scale(v3(ri == 0, ri == 1, ri == 2), -rsg);
    const face_pick fi = box_best_face(m3_tmul(&inc_pose.R, toward));
    polygon inc, ref;
    box_polygon(&inc_pose, fi.face, &inc);
    box_face_tags(face, &ref); /* the ids' tags (the corners are not used) */

    /* Clip against the reference face's side planes, in box_polygon's edge
     * order (so the tags, and the ids, are face_contacts'). */
    clip_vertex buf[2][MK_MF_CLIP_CAP];
    int nv = inc.count, cur = 0;
    for (int q = 0; q < nv; ++q) {
        buf[0][q].p = inc.v[q];
        buf[0][q].a = inc.tag[q];
        buf[0][q].b = MK_MF_ID_INC_VERTEX;
        buf[0][q].edge = inc.tag[q];
    }
    for (int j = 0; j < 4 && nv > 0; ++j) {
        int coord;
        mk_real sigma;
        box_side_bound(face, j, &coord, &sigma);
        mk_real dist[MK_MF_CLIP_CAP];
        const mk_real bound = rhh[coord];
        const clip_vertex *in = buf[cur];
        /* one loop per coordinate: no choice of the component per vertex */
        if (coord == 0)
            for (int q = 0; q < nv; ++q)
                dist[q] = sigma * in[q].p.x - bound;
        else if (coord == 1)
            for (int q = 0; q < nv; ++q)
                dist[q] = sigma * in[q].p.y - bound;
        else
            for (int q = 0; q < nv; ++q)
                dist[q] = sigma * in[q].p.z - bound;
        nv = clip_pass(buf[cur], dist, nv, j, &ref, buf[1 - cur]);
        cur = 1 - cur;
    }
    if (nv == 0)
        return 0;

    /* Points: height over the reference face, its foot on the face, both to
     * the frame; the incident point belongs to A when flipped. */
    cand_list l;
    l.count = 0;
    for (int q = 0; q < nv; ++q) {
        mk_vec3 p = buf[cur][q].p, foot = p;
        const mk_real sep = rsg * v3_comp(p, ri) - rhh[ri];
        if (ri == 0)
            foot.x = rsg * rh.x;
        else if (ri == 1)
            foot.y = rsg * rh.y;
        else
            foot.z = rsg * rh.z;
        if (flip) {
            p = v3_add(m3_mul(&Rb, p), pb);
            foot = v3_add(m3_mul(&Rb, foot), pb);
            push(&l, p, foot, sep, make_id(1, face, fi.face, buf[cur][q].a, buf[cur][q].b));
        } else {
            push(&l, foot, p, sep, make_id(0, face, fi.face, buf[cur][q].a, buf[cur][q].b));
        }
    }
    mk_vec3 ref_n = v3_scale(v3(ri == 0, ri == 1, ri == 2), rsg);
    if (flip)
        ref_n = m3_mul(&Rb, ref_n);
    const mk_vec3 n_out = flip ? v3_neg(ref_n) : ref_n;

    /* face_contact_complete decides as for the general path (the pair posed
     * in A's frame); otherwise the general path decides. */
    const mk_real ra = sa->radius, rb = sb->radius;
    const mf_ctx c = {{sa, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {0, 0, 0}}, {sb, Rb, pb}, n,
                      signed_distance + ra + rb, ea < eb ? ea : eb};
    const mk_real ref_off = rhh[ri] + (flip ? v3_dot(ref_n, pb) : 0);
    if (!face_contact_complete(&c, flip ? &c.a : &c.b, ref_n, ref_off, n_out, &l, 0))
        return 0;
    const mk_real scale = c.scale;

    /* Rounded boxes: to the surfaces, then the far points dropped. */
    if (to_surfaces(&l, n_out, ra, rb, keep) == 0)
        return 0;
    int idx[MK_MANIFOLD_MAX_PATCH_POINTS];
    const int count = choose(&l, n_out, scale, cap, idx);
    if (!write_points(&l, idx, count, xa, pts))
        return 0;
    *n_world = m3_mul(&xa->R, n_out);
    *count_out = count;
    return 1;
}

/* Contract in manifold_internal.h. face_contacts for two boxes: the
 * reference choice, then box_box_on, and the other box's face when the
 * preferred one does not hold the contact. */
int mk_manifold_box_box(const mk_pair *pair, mk_vec3 normal, mk_real signed_distance, mk_real spec, int cap,
                        mk_vec3 *n_world, mk_manifold_point *pts, int *count_out)
{
    *count_out = 0;
    const mk_transform *xa = &pair->xf_a;
    if (!v3_finite(normal) || !isfinite(signed_distance) || !isfinite(spec))
        return 0;
    /* B in A's frame (the frame), and the normal there. */
    const mk_mat3 Rb = m3_tmul_m3(&xa->R, &pair->xf_b.R);
    const mk_vec3 pb = m3_tmul(&xa->R, v3_sub(pair->xf_b.p, xa->p));
    const mk_vec3 n = v3_normalize_or(m3_tmul(&xa->R, normal), v3(0, 0, 0));
    if (!(v3_len2(n) > 0))
        return 0;
    const mk_real ea = box_extent(pair->a), eb = box_extent(pair->b);
    const mk_real keep = spec + MK_MF_SLACK * (ea > eb ? ea : eb);
    if (signed_distance > keep) { /* apart beyond reach: no points (contact_points) */
        *n_world = m3_mul(&xa->R, n);
        return 1;
    }
    /* face_contacts' reference choice. */
    const face_pick fa = box_best_face(n), fb = box_best_face(m3_tmul(&Rb, v3_neg(n)));
    const mk_real cmin = cos(MK_MF_FACE_ANGLE);
    const int use_a = fa.face >= 0 && fa.align >= cmin, use_b = fb.face >= 0 && fb.align >= cmin;
    if (!use_a && !use_b)
        return 0;
    const int flip = use_b && (!use_a || fb.align > fa.align + MK_MF_REF_BIAS);
    if (box_box_on(pair, Rb, pb, n, flip, fa, fb, signed_distance, keep, cap, n_world, pts, count_out))
        return 1;
    /* As face_contacts: the other box's face when it has one (B on A's top,
     * tilted and larger, its lowest corner beyond A's face: A's face missed
     * that depth by more than the check, B's held the contact; seen at
     * MK_TEST_SCALE=100 in box_fast_path_matches_general). */
    if (!(flip ? use_a : use_b))
        return 0;
    return box_box_on(pair, Rb, pb, n, !flip, fa, fb, signed_distance, keep, cap, n_world, pts, count_out);
}

/* ---------------------------------------------------------------- half-space */

/* Reference code of the half-space in feature ids (faces of shapes are < 0x7E). */
#define MK_MF_HALFSPACE_REF 0x7E

/* Candidate from core point p (world) at core height h above the plane. */
static void push_halfspace(cand_list *l, mk_vec3 p, mk_real h, mk_vec3 n, mk_real r, mk_real keep, uint32_t id)
{
    const mk_real sep = h - r;
    if (sep <= keep)
        push(l, v3_madd(p, -r, n), v3_madd(p, -h, n), sep, id);
}

/* The half-space is a reference face without sides: the shape's incident
 * feature (the one face_contacts would clip against a face of normal n) is
 * kept whole; only the speculative distance drops points. */
mk_status mk_manifold_halfspace(const mk_shape *shape, const mk_transform *xf, mk_vec3 n, mk_real c, mk_real spec,
                                mk_vec3 low_local, int low_vertex, int cap, mk_manifold_point *pts, int *count_out)
{
    *count_out = 0;
    const posed x = {shape, xf->R, xf->p};
    const mk_real r = shape->radius, scale = shape_half_size(shape);
    const mk_real keep = spec + MK_MF_SLACK * scale;
    cand_list l;
    l.count = 0;
    polygon pg;
    line_feature lf;
    mk_real lowest = INFINITY;
    feat_kind kind;
    if (shape->type == MK_SHAPE_HULL && low_vertex >= 0 && low_vertex < shape->u.hull.hull->num_vertices) {
        /* incident_feature's choice from the caller's support vertex (the
         * same vertex its own support along -n would find): the best face
         * through it, else the vertex. */
        mk_real align;
        const int f = mk_manifold_hull_face(shape->u.hull.hull, dir_to_local(&x, v3_neg(n)), low_vertex, &align);
        kind = f >= 0 && build_polygon(&x, f, NULL, &pg) ? KIND_POLY : KIND_POINT;
        if (kind == KIND_POINT)
            set_point(&x, low_local, 0, 0, &lf);
    } else if (shape->type == MK_SHAPE_BOX) {
        /* incident_feature's box face, without its dispatch */
        const face_pick f = box_best_face(dir_to_local(&x, v3_neg(n)));
        if (f.face >= 0) {
            box_polygon(&x, f.face, &pg);
            kind = KIND_POLY;
        } else {
            kind = incident_feature(&x, n, &pg, &lf);
        }
    } else {
        kind = incident_feature(&x, n, &pg, &lf);
    }
    /* The feature's points, each with its height above the plane. */
    const int nf = kind == KIND_POLY ? pg.count : lf.count;
    const mk_vec3 *fv = kind == KIND_POLY ? pg.v : lf.v;
    const uint8_t *ft = kind == KIND_POLY ? pg.tag : lf.tag;
    const int code = kind == KIND_POLY ? pg.face : lf.code;
    for (int q = 0; q < nf; ++q) {
        const mk_real h = v3_dot(n, fv[q]) - c;
        lowest = h < lowest ? h : lowest; /* fmin(lowest, h), NaN included, without libm's call */
        push_halfspace(&l, fv[q], h, n, r, keep, make_id(1, MK_MF_HALFSPACE_REF, code, ft[q], MK_MF_ID_INC_VERTEX));
    }
    /* The lowest point joins when the feature does not reach it (a hull
     * whose most opposed face misses its support vertex; a large hull face
     * used as a point). */
    const mk_vec3 low = to_frame(&x, low_local);
    const mk_real h_low = v3_dot(n, low) - c;
    if (!(lowest <= h_low + MK_MF_FACE_CHECK * scale) || l.count == 0)
        push(&l, v3_madd(low, -r, n), v3_madd(low, -h_low, n), h_low - r,
             make_id(1, MK_MF_HALFSPACE_REF, 0xFF, 0xFF, MK_MF_ID_SAFETY));
    int idx[MK_MANIFOLD_MAX_PATCH_POINTS];
    const int count = choose(&l, v3_neg(n), scale, cap, idx);
    if (!write_points(&l, idx, count, NULL, pts))
        return MK_INVALID_INPUT;
    *count_out = count;
    return MK_OK;
}
