/* Convex hull suite: topology and geometry of mk_hull_create against what is
 * known independently (analytic solids, the input point set itself, Euler's
 * formula), hill-climbing support against the brute-force scan, and refusal of
 * degenerate or hostile point sets. */
#include <minkowski/shape.h>

#include "meshes.h"
#include "oracle.h"
#include "require.h"
#include "support.h"
#include "vec.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>


static mk_hull *make(const mk_vec3 *p, int n)
{
    mk_hull *h = NULL;
    mk_status st = mk_hull_create(p, n, &h);
    ck_assert_msg(st == MK_OK, "mk_hull_create: %s", mk_status_string(st));
    ck_assert_ptr_nonnull(h);
    return h;
}

/* The contact regions (shape.h, mk_hull.face_region): a face in a region
 * lies within the flat angle of the region's face, whose index is the
 * region's lowest; a region has more than one face or a face of more than
 * MK_HULL_CONTACT_CORNERS corners; its outline has 3 .. that many hull
 * vertices, convex and counter-clockwise seen from outside along the
 * region's normal, its first corner the highest along it (ties: the lower
 * vertex index); unless the outline was cut down to the budget, every
 * vertex of the region's faces lies within it (seen along the normal).
 * Returns the number of faces in regions. */
static int check_regions(const mk_hull *h)
{
    if (!h->face_region) {
        ck_assert_int_eq(h->num_regions, 0);
        return 0;
    }
    ck_assert_int_gt(h->num_regions, 0);
    const double cmin = cos(MK_HULL_FLAT_ANGLE) - 1e-15;
    int in_regions = 0;
    for (int r = 0; r < h->num_regions; ++r) {
        const int c = h->region_face[r], s = h->region_start[r], e = h->region_start[r + 1];
        REQUIRE(c >= 0 && c < h->num_faces && h->face_region[c] == r, "region %d: face %d", r, c);
        REQUIRE(e - s >= 3 && e - s <= MK_HULL_CONTACT_CORNERS, "region %d: %d corners", r, e - s);
        const mk_vec3 n = h->face_normals[c];
        int faces = 0, most = 0;
        double scale = 0;
        for (int f = 0; f < h->num_faces; ++f) {
            if (h->face_region[f] != r)
                continue;
            REQUIRE(f >= c, "region %d: face %d below its face %d", r, f, c);
            REQUIRE(v3_dot(h->face_normals[f], n) >= cmin, "region %d: face %d off its normal", r, f);
            ++faces;
            most = most > h->face_start[f + 1] - h->face_start[f] ? most : h->face_start[f + 1] - h->face_start[f];
        }
        REQUIRE(faces > 1 || most > MK_HULL_CONTACT_CORNERS, "region %d: one face of %d corners", r, most);
        in_regions += faces;
        for (int q = s; q < e; ++q) {
            const int v = h->region_vertices[q];
            REQUIRE(v >= 0 && v < h->num_vertices, "region %d: corner %d", r, v);
            scale = fmax(scale, v3_max_abs(h->vertices[v]));
            const double hq = v3_dot(h->vertices[v], n), h0 = v3_dot(h->vertices[h->region_vertices[s]], n);
            REQUIRE(hq < h0 || (hq == h0 && v >= h->region_vertices[s]), "region %d: corner %d above the first", r, v);
        }
        /* convex, counter-clockwise about n; the region's vertices inside */
        int all_inside = 1;
        for (int q = s; q < e; ++q) {
            const mk_vec3 a = h->vertices[h->region_vertices[q]];
            const mk_vec3 b = h->vertices[h->region_vertices[q + 1 < e ? q + 1 : s]];
            const mk_vec3 c2 = h->vertices[h->region_vertices[q + 2 < e ? q + 2 : s + (q + 2 - e)]];
            REQUIRE(v3_dot(v3_cross(v3_sub(b, a), v3_sub(c2, b)), n) > 0, "region %d: corner %d not convex", r, q - s);
            const mk_vec3 side = v3_cross(v3_sub(b, a), n); /* outward in the plane */
            for (int f = 0; f < h->num_faces; ++f) {
                if (h->face_region[f] != r)
                    continue;
                for (int j = h->face_start[f]; j < h->face_start[f + 1]; ++j)
                    all_inside &= v3_dot(side, v3_sub(h->vertices[h->face_vertices[j]], a)) <= 1e-12 * scale * scale;
            }
        }
        /* an outline holding fewer corners than the budget was not cut down */
        int region_vertices = 0;
        for (int v = 0; v < h->num_vertices; ++v) {
            int on = 0;
            for (int f = 0; f < h->num_faces && !on; ++f)
                if (h->face_region[f] == r)
                    for (int j = h->face_start[f]; j < h->face_start[f + 1] && !on; ++j)
                        on = h->face_vertices[j] == v;
            region_vertices += on;
        }
        if (e - s < MK_HULL_CONTACT_CORNERS || region_vertices <= MK_HULL_CONTACT_CORNERS)
            REQUIRE(all_inside, "region %d: a vertex outside its outline", r);
    }
    for (int f = 0; f < h->num_faces; ++f)
        REQUIRE(h->face_region[f] >= -1 && h->face_region[f] < h->num_regions, "face %d: region %d", f,
                h->face_region[f]);
    return in_regions;
}

/* Structural invariants every hull must satisfy, whatever its input:
 * - every input point lies inside every face plane (to round-off of its scale);
 * - every face vertex lies on its face plane and faces are counter-clockwise
 *   seen from outside (Newell normal along the stored normal);
 * - adjacency is symmetric and matches the face edges; V - E + F = 2;
 * - the centroid is inside by the inradius, vertices inside the bounding box;
 * - every hull vertex is one of the input points, bit for bit. */
static void check_invariants(const mk_hull *h, const mk_vec3 *p, int n)
{
    double scale = 0;
    for (int i = 0; i < n; ++i)
        scale = fmax(scale, v3_max_abs(p[i]));
    double eps = 1e-12 * (scale > 0 ? scale : 1);
    ck_assert_int_ge(h->num_vertices, 4);
    ck_assert_int_ge(h->num_faces, 4);
    for (int v = 0; v < h->num_vertices; ++v) {
        int found = 0;
        for (int i = 0; i < n && !found; ++i)
            found = h->vertices[v].x == p[i].x && h->vertices[v].y == p[i].y && h->vertices[v].z == p[i].z;
        REQUIRE(found, "hull vertex %d is not an input point", v);
    }
    for (int f = 0; f < h->num_faces; ++f) {
        mk_vec3 nf = h->face_normals[f];
        REQUIRE(fabs(v3_len(nf) - 1) < 1e-12, "face %d normal not unit", f);
        for (int i = 0; i < n; ++i)
            REQUIRE(v3_dot(nf, p[i]) <= h->face_offsets[f] + eps, "input point %d outside face %d by %g", i, f,
                          v3_dot(nf, p[i]) - h->face_offsets[f]);
        int s = h->face_start[f], e = h->face_start[f + 1];
        ck_assert_int_ge(e - s, 3);
        mk_vec3 newell = v3(0, 0, 0);
        for (int j = s; j < e; ++j) {
            mk_vec3 a = h->vertices[h->face_vertices[j]];
            mk_vec3 b = h->vertices[h->face_vertices[j + 1 < e ? j + 1 : s]];
            newell = v3_add(newell, v3_cross(a, b));
            REQUIRE(fabs(v3_dot(nf, a) - h->face_offsets[f]) <= 1e-9 * (scale > 0 ? scale : 1),
                          "face %d vertex off its plane by %g", f, v3_dot(nf, a) - h->face_offsets[f]);
        }
        REQUIRE(v3_dot(newell, nf) > 0, "face %d is clockwise", f);
    }
    /* adjacency: symmetric, no self loops, and E from faces = E from adjacency */
    int directed = h->adj_start[h->num_vertices];
    int corners = h->face_start[h->num_faces];
    ck_assert_int_eq(directed, corners);
    for (int v = 0; v < h->num_vertices; ++v) {
        REQUIRE(h->adj_start[v + 1] - h->adj_start[v] >= 3, "vertex %d of degree < 3", v);
        for (int k = h->adj_start[v]; k < h->adj_start[v + 1]; ++k) {
            int u = h->adj[k];
            REQUIRE(u != v, "vertex %d its own neighbour", v);
            int back = 0;
            for (int m = h->adj_start[u]; m < h->adj_start[u + 1]; ++m)
                back += h->adj[m] == v;
            REQUIRE(back == 1, "edge %d-%d listed %d times backwards", v, u, back);
        }
    }
    ck_assert_int_eq(h->num_vertices - directed / 2 + h->num_faces, 2);
    /* faces through each vertex: equal to the face lists inverted by brute
     * force (every face whose list holds v, in increasing index), one entry
     * per face corner, at least 3 faces per vertex */
    ck_assert_ptr_nonnull(h->vert_face_start);
    ck_assert_ptr_nonnull(h->vert_faces);
    ck_assert_int_eq(h->vert_face_start[0], 0);
    ck_assert_int_eq(h->vert_face_start[h->num_vertices], corners);
    for (int v = 0; v < h->num_vertices; ++v) {
        int k = h->vert_face_start[v], e = h->vert_face_start[v + 1];
        REQUIRE(e - k >= 3, "vertex %d on fewer than 3 faces", v);
        for (int f = 0; f < h->num_faces; ++f) {
            int holds = 0;
            for (int j = h->face_start[f]; j < h->face_start[f + 1]; ++j)
                holds += h->face_vertices[j] == v;
            REQUIRE(holds <= 1, "vertex %d twice in face %d", v, f);
            if (!holds)
                continue;
            REQUIRE(k < e, "vertex %d: face %d missing from its list", v, f);
            REQUIRE(h->vert_faces[k] == f, "vertex %d: listed face %d, expected %d", v, h->vert_faces[k], f);
            ++k;
        }
        REQUIRE(k == e, "vertex %d lists %d faces it is not on", v, e - k);
    }
    /* centroid and inradius */
    ck_assert(h->inradius > 0);
    for (int f = 0; f < h->num_faces; ++f)
        REQUIRE(h->face_offsets[f] - v3_dot(h->face_normals[f], h->centroid) >= h->inradius - eps,
                "face %d closer to the centroid than the inradius", f);
    for (int v = 0; v < h->num_vertices; ++v) {
        mk_vec3 q = h->vertices[v];
        REQUIRE(q.x >= h->aabb_min.x && q.y >= h->aabb_min.y && q.z >= h->aabb_min.z, "vertex %d below the box", v);
        REQUIRE(q.x <= h->aabb_max.x && q.y <= h->aabb_max.y && q.z <= h->aabb_max.z, "vertex %d above the box", v);
    }
    check_regions(h);
}

/* A cube given as its 8 corners, 30 interior points, every corner twice and
 * mid-face points (coplanar, not vertices): 8 vertices, 6 square faces with
 * axis normals, degree 3, centroid at the centre, inradius = half-size. */
START_TEST(cube_with_interior_duplicates_and_coplanar_points)
{
    mk_vec3 p[64];
    int n = 0;
    for (int i = 0; i < 8; ++i)
        p[n++] = v3(i & 1 ? 2.5 : 0.5, i & 2 ? 1 : -1, i & 4 ? 3 : 1);
    for (int i = 0; i < 8; ++i)
        p[n++] = p[i];
    or_rng r = or_test_rng(7);
    for (int i = 0; i < 30; ++i)
        p[n++] = v3(1.5 + 0.9 * (or_uniform(&r, 0, 1) - 0.5), 0.9 * (or_uniform(&r, 0, 1) - 0.5), 2 + 0.9 * (or_uniform(&r, 0, 1) - 0.5));
    p[n++] = v3(1.5, 0, 1);
    p[n++] = v3(1.5, 0, 3);
    p[n++] = v3(0.5, 0, 2);
    p[n++] = v3(2.5, 0.3, 2.2);
    mk_hull *h = make(p, n);
    ck_assert_int_eq(h->num_vertices, 8);
    ck_assert_int_eq(h->num_faces, 6);
    for (int f = 0; f < 6; ++f) {
        ck_assert_int_eq(h->face_start[f + 1] - h->face_start[f], 4);
        mk_vec3 nf = h->face_normals[f];
        ck_assert_double_eq_tol(v3_max_abs(nf), 1, 1e-15);
    }
    for (int v = 0; v < 8; ++v)
        ck_assert_int_eq(h->adj_start[v + 1] - h->adj_start[v], 3);
    ck_assert_double_eq_tol(h->centroid.x, 1.5, 1e-14);
    ck_assert_double_eq_tol(h->centroid.y, 0, 1e-14);
    ck_assert_double_eq_tol(h->centroid.z, 2, 1e-14);
    ck_assert_double_eq_tol(h->inradius, 1, 1e-14);
    ck_assert_double_eq(h->aabb_min.x, 0.5);
    ck_assert_double_eq(h->aabb_max.z, 3);
    check_invariants(h, p, n);
    mk_hull_destroy(h);
}
END_TEST

/* Regular tetrahedron with edge length L: 4 triangles, centroid = mean of the
 * corners, inradius L / sqrt(24). A corner-cut (asymmetric) tetrahedron checks
 * the volume centroid = mean of the 4 corners (true for any tetrahedron). */
START_TEST(tetrahedra_analytic)
{
    mk_vec3 reg[4] = {v3(1, 1, 1), v3(1, -1, -1), v3(-1, 1, -1), v3(-1, -1, 1)};
    mk_hull *h = make(reg, 4);
    ck_assert_int_eq(h->num_vertices, 4);
    ck_assert_int_eq(h->num_faces, 4);
    double L = sqrt(8.0);
    ck_assert_double_eq_tol(h->inradius, L / sqrt(24.0), 1e-14);
    ck_assert_double_eq_tol(v3_len(h->centroid), 0, 1e-14);
    check_invariants(h, reg, 4);
    mk_hull_destroy(h);
    mk_vec3 t[4] = {v3(0, 0, 0), v3(3, 0, 0), v3(0, 1, 0), v3(0.2, 0.1, 5)};
    h = make(t, 4);
    mk_vec3 mean = v3_scale(v3_add(v3_add(t[0], t[1]), v3_add(t[2], t[3])), 0.25);
    ck_assert_double_eq_tol(v3_len(v3_sub(h->centroid, mean)), 0, 1e-14);
    check_invariants(h, t, 4);
    mk_hull_destroy(h);
}
END_TEST

/* Points on a sphere are all extreme: every one becomes a vertex. Random balls
 * keep only some. Invariants hold for 12..1000 points and at 1e-6 and 1e6 scale. */
START_TEST(random_clouds_invariants_and_scales)
{
    or_rng r = or_test_rng(0x4855);
    const int sizes[] = {12, 60, 240, 1000};
    const double scales[] = {1e-6, 1, 1e6};
    mk_vec3 *p = malloc(sizeof(mk_vec3) * 1000);
    for (int si = 0; si < 4; ++si)
        for (int sc = 0; sc < 3; ++sc)
            for (int sphere = 0; sphere < 2; ++sphere) {
                int n = sizes[si];
                for (int i = 0; i < n; ++i)
                    p[i] = v3_scale(sphere ? or_unit(&r) : or_in_ball(&r, 1), scales[sc]);
                mk_hull *h = make(p, n);
                if (sphere)
                    ck_assert_int_eq(h->num_vertices, n);
                check_invariants(h, p, n);
                mk_hull_destroy(h);
            }
    free(p);
}
END_TEST

/* The start table (shape.h): each cell's climbing start is extreme along the
 * cell's centre direction, which maps back to the cell; a cell that is
 * certain (one vertex) or keeps a candidate list answers with a vertex
 * extreme along `samples` random directions anywhere in the cell, corners
 * included. Counts the certain and the listed cells. */
static void check_start_table(const mk_hull *h, or_rng *r, int samples, int *certain, int *listed)
{
    const int R = h->start_res;
    ck_assert_int_eq(R == 0, h->num_vertices <= MK_HULL_LINEAR_SCAN_MAX);
    *certain = *listed = 0;
    for (int cell = 0; cell < 6 * R * R; ++cell) {
        int face = cell / (R * R), iu = cell / R % R, iv = cell % R;
        double m = face & 1 ? -1 : 1;
        const int e = h->start_vertex[cell];
        for (int smp = 0; smp < samples; ++smp) {
            double u = -1 + (2.0 * iu + 1) / R, w = -1 + (2.0 * iv + 1) / R;
            if (smp > 0) {
                u = -1 + 2.0 * (iu + (smp == 1 ? 0 : smp == 2 ? 1 : or_uniform(r, 0, 1))) / R;
                w = -1 + 2.0 * (iv + (smp == 1 ? 1 : smp == 2 ? 0 : or_uniform(r, 0, 1))) / R;
            }
            mk_vec3 q = face < 2 ? v3(m, u, w) : face < 4 ? v3(w, m, u) : v3(u, w, m);
            if (smp == 0)
                REQUIRE(hull_start_index(q, R) == cell, "cell %d: centre maps to %d", cell, hull_start_index(q, R));
            if (e >= 0 && smp > 0)
                break; /* only the centre is promised */
            int t = e >= 0 ? e : hull_entry_vertex(h, q, e);
            REQUIRE(t >= 0 && t < h->num_vertices, "cell %d entry %d: vertex %d out of range", cell, e, t);
            REQUIRE(v3_dot(h->vertices[t], q) >= v3_dot(h->vertices[mk_hull_support_linear(h, q)], q),
                    "cell %d entry %d sample %d: vertex %d not extreme", cell, e, smp, t);
        }
        *certain += e < 0 && !(~(unsigned)e & 1);
        *listed += e < 0 && (~(unsigned)e & 1);
    }
}

/* Hill-climbing from any hint, and cold (hint -1: from the table of extreme
 * vertices), reaches a vertex whose support value equals the brute-force
 * maximum, on hulls from 8 to 1000 vertices and tie-heavy boxes; every table
 * entry is extreme along its direction. */
START_TEST(climb_equals_linear)
{
    or_rng r = or_test_rng(0xc11b);
    mk_vec3 *p = malloc(sizeof(mk_vec3) * 1000);
    const int sizes[] = {8, 20, 64, 256, 1000};
    long checks = 0;
    for (int si = 0; si < 5; ++si)
        for (int rep = 0; rep < 4; ++rep) {
            int n = sizes[si];
            for (int i = 0; i < n; ++i)
                p[i] = rep & 1 ? or_unit(&r) : v3(or_uniform(&r, 0, 1), 3 * or_uniform(&r, 0, 1), 0.2 * or_uniform(&r, 0, 1));
            mk_hull *h = make(p, n);
            int hint = 0;
            for (int k = 0; k < 2000; ++k) {
                mk_vec3 d = k % 10 == 0 ? v3((double)(k % 3) - 1, (double)(k % 5) - 2, 0) : or_unit(&r);
                if (v3_len2(d) == 0)
                    d = v3(0, 0, 1);
                int lin = mk_hull_support_linear(h, d);
                int start = k % 3 == 0 ? -1 : k % 3 == 1 ? hint : (int)(or_uniform(&r, 0, 1) * h->num_vertices);
                int cl = mk_hull_support_climb(h, d, start);
                ck_assert_msg(v3_dot(h->vertices[cl], d) >= v3_dot(h->vertices[lin], d) - 1e-15,
                              "climb %d (%.17g) < linear %d (%.17g)", cl, v3_dot(h->vertices[cl], d), lin,
                              v3_dot(h->vertices[lin], d));
                hint = cl;
                ++checks;
            }
            int certain, listed;
            check_start_table(h, &r, 8, &certain, &listed);
            if (h->start_res > 0) { /* every hull here has wide normal cones, and cells that straddle two */
                ck_assert_int_gt(certain, 0);
                ck_assert_int_gt(listed, 0);
            }
            /* hostile hints and directions give a valid vertex */
            ck_assert_int_eq(mk_hull_support_climb(h, v3(1, 0, 0), -5) >= 0, 1);
            ck_assert_int_lt(mk_hull_support_climb(h, v3(0, 0, 0), -1), h->num_vertices);
            ck_assert_int_lt(mk_hull_support_climb(h, v3(NAN, 1, 0), -1), h->num_vertices);
            ck_assert_int_lt(mk_hull_support_climb(h, v3(1, 0, 0), 1 << 30), h->num_vertices);
            mk_hull_destroy(h);
        }
    ck_assert_int_eq(checks, 5 * 4 * 2000);
    free(p);
}
END_TEST

/* Start tables of hulls that are hard on them: a prism whose two caps are
 * 96-gons (their normals are single directions, shared by 96 vertices, more
 * than a cell's list holds), a needle 1000 times longer than wide, and a
 * random cloud at 1e-6 and 1e6 scales: every entry still answers as
 * check_start_table demands, and support equals the scan. */
START_TEST(start_table_on_hard_hulls)
{
    or_rng r = or_test_rng(0x57a7);
    enum { N = 192 };
    mk_vec3 p[N];
    for (int kind = 0; kind < 4; ++kind) {
        for (int i = 0; i < N; ++i) {
            if (kind == 0) { /* prism: two caps of 96 points on a circle */
                double a = 6.283185307179586 * (i % 96) / 96.0;
                p[i] = v3(cos(a), sin(a), i < 96 ? -0.3 : 0.3);
            } else {
                mk_vec3 u = or_unit(&r);
                double s = kind == 2 ? 1e-6 : kind == 3 ? 1e6 : 1;
                p[i] = kind == 1 ? v3(1e3 * u.x, u.y, u.z) : v3(s * u.x, s * u.y, s * u.z);
            }
        }
        mk_hull *h = make(p, N);
        ck_assert_int_gt(h->num_vertices, MK_HULL_LINEAR_SCAN_MAX);
        int certain, listed;
        check_start_table(h, &r, 8, &certain, &listed);
        ck_assert_int_gt(certain + listed, 0);
        for (int k = 0; k < 2000; ++k) {
            mk_vec3 d = k % 4 == 0 ? v3(0, 0, k % 8 == 0 ? 1 : -1) : or_unit(&r); /* the caps' normals too */
            int lin = mk_hull_support_linear(h, d), cl = mk_hull_support_climb(h, d, -1);
            REQUIRE(v3_dot(h->vertices[cl], d) >= v3_dot(h->vertices[lin], d), "kind %d: %.17g < %.17g", kind,
                    v3_dot(h->vertices[cl], d), v3_dot(h->vertices[lin], d));
        }
        mk_hull_destroy(h);
    }
}
END_TEST

/* Point sets without volume, too few points, NULL and non-finite coordinates
 * are refused with a status and *out = NULL; nothing crashes or prints. */
START_TEST(degenerate_and_hostile_inputs)
{
    mk_hull *h = (mk_hull *)1;
    mk_vec3 p[40];
    ck_assert_int_eq(mk_hull_create(NULL, 8, &h), MK_INVALID_INPUT);
    ck_assert_ptr_null(h);
    ck_assert_int_eq(mk_hull_create(p, 4, NULL), MK_INVALID_INPUT);
    p[0] = v3(0, 0, 0), p[1] = v3(1, 0, 0), p[2] = v3(0, 1, 0), p[3] = v3(0, 0, 1);
    ck_assert_int_eq(mk_hull_create(p, 3, &h), MK_DEGENERATE_HULL);
    ck_assert_int_eq(mk_hull_create(p, -1, &h), MK_INVALID_INPUT);
    ck_assert_int_eq(mk_hull_create(p, 0, &h), MK_DEGENERATE_HULL);
    or_rng r = or_test_rng(99);
    /* coplanar (tilted plane), collinear, coincident */
    for (int i = 0; i < 40; ++i) {
        double u = or_uniform(&r, 0, 1), v = or_uniform(&r, 0, 1);
        p[i] = v3(u, v, 0.3 * u - 0.7 * v + 2);
    }
    ck_assert_int_eq(mk_hull_create(p, 40, &h), MK_DEGENERATE_HULL);
    ck_assert_ptr_null(h);
    for (int i = 0; i < 40; ++i)
        p[i] = v3_scale(v3(1, 2, 3), or_uniform(&r, 0, 1));
    ck_assert_int_eq(mk_hull_create(p, 40, &h), MK_DEGENERATE_HULL);
    for (int i = 0; i < 40; ++i)
        p[i] = v3(4, 5, 6);
    ck_assert_int_eq(mk_hull_create(p, 40, &h), MK_DEGENERATE_HULL);
    /* nearly flat: 1e-13 relative thickness is flat, 1e-6 is a (thin) solid */
    for (int i = 0; i < 40; ++i) {
        double u = or_uniform(&r, 0, 1), v = or_uniform(&r, 0, 1);
        p[i] = v3(u, v, (i & 1) * 1e-13);
    }
    ck_assert_int_eq(mk_hull_create(p, 40, &h), MK_DEGENERATE_HULL);
    for (int i = 0; i < 40; ++i)
        p[i].z = (i & 1) * 1e-6;
    h = make(p, 40);
    check_invariants(h, p, 40);
    mk_hull_destroy(h);
    /* NaN and infinity anywhere */
    for (int i = 0; i < 40; ++i)
        p[i] = or_in_ball(&r, 1);
    p[17].y = NAN;
    ck_assert_int_eq(mk_hull_create(p, 40, &h), MK_INVALID_INPUT);
    p[17].y = INFINITY;
    ck_assert_int_eq(mk_hull_create(p, 40, &h), MK_INVALID_INPUT);
    ck_assert_ptr_null(h);
    mk_hull_destroy(NULL);
}
END_TEST

/* The first index of the largest <v_i, d>, one vertex at a time (strict >:
 * the lowest index on ties; a NaN first product keeps vertex 0). */
static int first_max(const mk_hull *h, mk_vec3 d)
{
    int best = 0;
    double bs = h->vertices[0].x * d.x + h->vertices[0].y * d.y + h->vertices[0].z * d.z;
    for (int i = 1; i < h->num_vertices; ++i) {
        double s = h->vertices[i].x * d.x + h->vertices[i].y * d.y + h->vertices[i].z * d.z;
        if (s > bs) {
            bs = s;
            best = i;
        }
    }
    return best;
}

/* mk_hull_support_linear (two vertices at a time where SSE2 is there) is the
 * same vertex as the one-at-a-time scan: odd and even vertex counts, random
 * directions, directions that tie whole faces and edges of lattice hulls (the
 * lowest index must win), and non-finite or overflowing directions. */
START_TEST(support_linear_first_maximum)
{
    or_rng r = or_test_rng(0x5ca9);
    mk_vec3 p[300];
    long ties = 0;
    for (int rep = 0; rep < 60; ++rep) {
        int n = 4 + rep * 5 % 97, lattice = rep % 3 == 0;
        for (int i = 0; i < n; ++i)
            p[i] = lattice ? v3(i % 3 - 1, i / 3 % 3 - 1, i / 9 % 3 - 1) : or_in_ball(&r, 2);
        if (lattice)
            n = n < 27 ? n : 27;
        mk_hull *h = NULL;
        if (mk_hull_create(p, n, &h) != MK_OK)
            continue;
        for (int k = 0; k < 400; ++k) {
            mk_vec3 d = or_unit(&r);
            if (k % 4 == 1) /* lattice-aligned: faces and edges tie */
                d = v3((double)(k / 4 % 3) - 1, (double)(k / 12 % 3) - 1, (double)(k / 36 % 3) - 1);
            if (k % 4 == 2) /* a hull edge's perpendicular: its two ends tie */
                d = v3_cross(v3_sub(h->vertices[k % h->num_vertices], h->centroid),
                             v3_sub(h->vertices[h->adj[h->adj_start[k % h->num_vertices]]], h->centroid));
            int want = first_max(h, d), got = mk_hull_support_linear(h, d);
            ck_assert_msg(got == want, "%d vertices, case %d: %d, expected %d", h->num_vertices, k, got, want);
            double top = v3_dot(h->vertices[want], d);
            for (int i = want + 1; i < h->num_vertices; ++i)
                ties += v3_dot(h->vertices[i], d) == top;
        }
        const mk_vec3 bad[] = {v3(NAN, 0, 1), v3(0, NAN, NAN), v3(INFINITY, 0, 0), v3(-INFINITY, INFINITY, 1),
                               v3(1e308, -1e308, 1e308), v3(0, 0, 0)};
        for (int k = 0; k < 6; ++k)
            ck_assert_int_eq(mk_hull_support_linear(h, bad[k]), first_max(h, bad[k]));
        mk_hull_destroy(h);
    }
    ck_assert_msg(ties > 100, "only %ld tied vertices: the tie rule was not exercised", ties);
}
END_TEST

/* A hull in a (rounded) shape: its core support agrees with the brute-force
 * vertex scan, and mk_shape_hull refuses a NULL hull. */
START_TEST(hull_shape_support)
{
    or_rng r = or_test_rng(5);
    mk_vec3 p[200];
    for (int i = 0; i < 200; ++i)
        p[i] = or_unit(&r);
    mk_hull *h = make(p, 200);
    mk_shape s;
    ck_assert_int_eq(mk_shape_hull(&s, h, 0.1), MK_OK);
    int hint = 0;
    for (int k = 0; k < 1000; ++k) {
        mk_vec3 d = or_unit(&r);
        mk_vec3 sp = mk_shape_support(&s, d, &hint);
        double best = -INFINITY;
        for (int i = 0; i < 200; ++i)
            best = fmax(best, v3_dot(p[i], d));
        ck_assert_double_eq_tol(v3_dot(sp, d), best, 1e-15);
    }
    ck_assert_int_ne(mk_shape_hull(&s, NULL, 0), MK_OK);
    mk_hull_destroy(h);
}
END_TEST

/* Box recognition (mk_hull.box): boxes of random extents (1e-6 .. 1e6 scales)
 * turned and moved in the hull's frame, with interior and duplicated points,
 * are recognised, their half extents found (as a set, to 1e-12) and every
 * vertex is a corner of box_pose's box; shapes close to boxes are not: a
 * sheared box, a box with one corner moved by 1e-6 of its size, a bevelled
 * box, a cube with a shallow pyramid on one face, a prism. */
START_TEST(box_recognition)
{
    or_rng r = or_test_rng(0xb0e5);
    for (int i = 0; i < or_scaled(300); ++i) {
        const double scale = i % 3 == 0 ? 1e-6 : (i % 3 == 1 ? 1 : 1e6);
        const double h[3] = {scale * or_uniform(&r, 0.01, 1), scale * or_uniform(&r, 0.01, 1),
                             scale * or_uniform(&r, 0.01, 1)};
        const mk_transform x = or_pose(&r, v3_scale(or_in_ball(&r, 1), scale));
        mk_vec3 p[20];
        int n = 0;
        for (int k = 0; k < 8; ++k)
            p[n++] = xf_apply(&x, v3(k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]));
        for (int k = 0; k < 6; ++k) /* interior points, and duplicates of corners */
            p[n++] = k < 3 ? xf_apply(&x, v3(or_uniform(&r, -0.9, 0.9) * h[0], or_uniform(&r, -0.9, 0.9) * h[1],
                                               or_uniform(&r, -0.9, 0.9) * h[2]))
                           : p[or_int(&r, 8)];
        mk_hull *hull = make(p, n);
        REQUIRE(hull->box == 1, "box %d (scale %g) not recognised", i, scale);
        mk_shape s;
        ck_assert_int_eq(mk_shape_hull(&s, hull, 0), MK_OK);
        REQUIRE(mk_is_valid_transform(&hull->box_pose), "box %d: pose", i);
        double got[3] = {hull->box_half_extents.x, hull->box_half_extents.y, hull->box_half_extents.z};
        double want[3] = {h[0], h[1], h[2]};
        for (int a = 0; a < 3; ++a) /* sort both (three elements) */
            for (int b = a + 1; b < 3; ++b) {
                if (got[b] < got[a]) {
                    double t = got[a];
                    got[a] = got[b], got[b] = t;
                }
                if (want[b] < want[a]) {
                    double t = want[a];
                    want[a] = want[b], want[b] = t;
                }
            }
        for (int a = 0; a < 3; ++a)
            REQUIRE(fabs(got[a] - want[a]) <= 1e-12 * scale, "box %d: half extent %.17g, want %.17g", i, got[a],
                    want[a]);
        const mk_vec3 he = hull->box_half_extents;
        for (int v = 0; v < hull->num_vertices; ++v) {
            int corner = 0;
            for (int k = 0; k < 8 && !corner; ++k) {
                const mk_vec3 c = xf_apply(&hull->box_pose, v3(k & 1 ? he.x : -he.x, k & 2 ? he.y : -he.y,
                                                               k & 4 ? he.z : -he.z));
                corner = v3_len(v3_sub(c, hull->vertices[v])) <= 1e-12 * scale;
            }
            REQUIRE(corner, "box %d: vertex %d is no corner of the recognised box", i, v);
        }
        mk_hull_destroy(hull);
    }

    /* Near boxes that are not boxes. */
    mk_vec3 p[24];
    for (int kind = 0; kind < 5; ++kind) {
        int n = 0;
        for (int k = 0; k < 8; ++k)
            p[n++] = v3(k & 1 ? 0.5 : -0.5, k & 2 ? 0.3 : -0.3, k & 4 ? 0.2 : -0.2);
        if (kind == 0) /* sheared */
            for (int k = 0; k < 8; ++k)
                p[k].x += 0.01 * p[k].z;
        else if (kind == 1) /* one corner moved */
            p[7].x += 1e-6;
        else if (kind == 2) /* a pyramid on the +x face */
            p[n++] = v3(0.501, 0, 0);
        else if (kind == 3) { /* bevelled corner */
            p[7] = v3(0.49, 0.3, 0.2);
            p[n++] = v3(0.5, 0.29, 0.2);
            p[n++] = v3(0.5, 0.3, 0.19);
        } else { /* triangular prism */
            n = 0;
            for (int k = 0; k < 3; ++k)
                for (int z = 0; z < 2; ++z)
                    p[n++] = v3(cos(2.0943951023931953 * k), sin(2.0943951023931953 * k), z ? 0.5 : -0.5);
        }
        mk_hull *hull = make(p, n);
        ck_assert_msg(hull->box == 0, "near-box kind %d taken for a box", kind);
        mk_hull_destroy(hull);
    }
}
END_TEST

/* Contact regions of mesh-like hulls: a cube given as a 7 x 7 grid on each
 * face, moved by up to 1e-7 and rounded to single precision (each face many
 * facets), has a region per face, holding its facets, each outline holding
 * the four corners (the points nearest them; slivers along the edges may
 * pair into regions of their own); a 100-sided prism (a cylinder's mesh)
 * has its two caps as regions of 64 corners, its sides as faces; hulls of
 * random clouds on a sphere, whose facets are far from coplanar, have few
 * (under 1% of their faces). */
START_TEST(contact_regions_of_meshes)
{
    mk_vec3 p[MESH_CUBE_MAX(6)];
    or_rng r = or_test_rng(0x5e9);
    int n = mesh_cube(6, 0x5e9, p);
    mk_hull *h = make(p, n);
    check_invariants(h, p, n);
    REQUIRE(h->num_faces > 6, "%d faces: the mesh cube's faces should be facets", h->num_faces);
    /* one region per face (others pair slivers along the edges) */
    check_regions(h);
    int face_regions = 0, axes = 0;
    for (int rg = 0; rg < h->num_regions; ++rg) {
        const mk_vec3 nrm = h->face_normals[h->region_face[rg]];
        if (v3_max_abs(nrm) > cos(1e-5)) {
            ++face_regions;
            const int ax = fabs(nrm.x) > 0.9 ? 0 : fabs(nrm.y) > 0.9 ? 1 : 2;
            axes |= 1 << (2 * ax + (v3_comp(nrm, ax) < 0));
        }
    }
    ck_assert_int_eq(face_regions, 6);
    ck_assert_int_eq(axes, 63);
    /* every facet of a face is in its region (the slivers along the edges,
     * their normals between two faces', are faces of their own) */
    for (int f = 0; f < h->num_faces; ++f) {
        const mk_vec3 nf = h->face_normals[f];
        if (v3_max_abs(nf) > cos(1e-5))
            REQUIRE(h->face_region[f] >= 0, "face %d (normal %g %g %g) in no region", f, nf.x, nf.y, nf.z);
    }
    for (int rg = 0; rg < h->num_regions; ++rg) {
        const mk_vec3 nrm = h->face_normals[h->region_face[rg]];
        if (!(v3_max_abs(nrm) > cos(1e-5)))
            continue;
        for (int c = 0; c < 4; ++c) {
            /* corner c of the cube face the region's normal points to */
            const int ax = fabs(nrm.x) > 0.9 ? 0 : fabs(nrm.y) > 0.9 ? 1 : 2;
            double q[3];
            q[ax] = v3_comp(nrm, ax) > 0 ? 0.1 : -0.1;
            q[(ax + 1) % 3] = c & 1 ? 0.1 : -0.1;
            q[(ax + 2) % 3] = c & 2 ? 0.1 : -0.1;
            int nearest = 0;
            for (int v = 1; v < h->num_vertices; ++v)
                if (v3_len(v3_sub(h->vertices[v], v3(q[0], q[1], q[2]))) <
                    v3_len(v3_sub(h->vertices[nearest], v3(q[0], q[1], q[2]))))
                    nearest = v;
            int found = 0;
            for (int k = h->region_start[rg]; k < h->region_start[rg + 1]; ++k)
                found |= h->region_vertices[k] == nearest;
            REQUIRE(found, "region %d: corner %d (vertex %d) not in its outline", rg, c, nearest);
        }
    }
    mk_hull_destroy(h);

    n = mesh_prism(100, p);
    h = make(p, n);
    check_invariants(h, p, n);
    ck_assert_int_eq(h->num_regions, 2);
    ck_assert_int_eq(check_regions(h), 2);
    for (int rg = 0; rg < 2; ++rg)
        ck_assert_int_eq(h->region_start[rg + 1] - h->region_start[rg], MK_HULL_CONTACT_CORNERS);
    mk_hull_destroy(h);

    int faces = 0, in_regions = 0;
    for (int t = 0; t < 20; ++t) {
        n = 12 + or_int(&r, 229);
        for (int i = 0; i < n; ++i)
            p[i] = or_unit(&r);
        h = make(p, n);
        faces += h->num_faces;
        in_regions += check_regions(h);
        mk_hull_destroy(h);
    }
    /* two facets of a sphere's hull can meet within 1e-4 rad, rarely */
    REQUIRE(in_regions * 100 <= faces, "%d of %d faces of random clouds' hulls in regions", in_regions, faces);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hull");
    TCase *tc = tcase_create("hull");
    tcase_set_timeout(tc, 300 * or_test_scale()); /* a soak (MK_TEST_SCALE) runs that much longer */
    tcase_add_test(tc, cube_with_interior_duplicates_and_coplanar_points);
    tcase_add_test(tc, tetrahedra_analytic);
    tcase_add_test(tc, random_clouds_invariants_and_scales);
    tcase_add_test(tc, climb_equals_linear);
    tcase_add_test(tc, start_table_on_hard_hulls);
    tcase_add_test(tc, degenerate_and_hostile_inputs);
    tcase_add_test(tc, hull_shape_support);
    tcase_add_test(tc, support_linear_first_maximum);
    tcase_add_test(tc, box_recognition);
    tcase_add_test(tc, contact_regions_of_meshes);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
