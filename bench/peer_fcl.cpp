// mk_bench peer: FCL 0.7 (Debian libfcl-dev), narrowphase distance through
// fcl::detail::GJKSolver_libccd<double>::shapeDistance with the solver's
// defaults (distance tolerance 1e-6, at most 1000 iterations). Shapes are FCL's
// own: Box (full side lengths), Ellipsoid (semi-axes) and Convex (the mk_hull
// vertices and polygonal faces; FCL walks the vertex adjacency to find support
// points of hulls with more than 32 vertices and scans below that).
#include "bench.h"

#include <cmath>
#include <exception>
#include <memory>
#include <vector>

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/narrowphase/detail/gjk_solver_libccd.h>

namespace {

using Solver = fcl::detail::GJKSolver_libccd<double>;

struct FclCtx {
    const bench_set *set = nullptr;
    Solver solver;
    mk_shape_type type = MK_SHAPE_SPHERE;
    std::vector<std::unique_ptr<fcl::Box<double>>> boxes;
    std::vector<std::unique_ptr<fcl::Ellipsoid<double>>> ellipsoids;
    std::vector<std::unique_ptr<fcl::Convex<double>>> hulls;
    std::vector<fcl::Transform3<double>> xa, xb;
};

fcl::Transform3<double> to_fcl(const mk_transform &t)
{
    fcl::Transform3<double> x = fcl::Transform3<double>::Identity();
    fcl::Matrix3<double> R;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            R(r, c) = t.R.m[r][c];
    x.linear() = R;
    x.translation() = fcl::Vector3<double>(t.p.x, t.p.y, t.p.z);
    return x;
}

std::unique_ptr<fcl::Convex<double>> to_fcl_convex(const mk_hull *h)
{
    auto verts = std::make_shared<std::vector<fcl::Vector3<double>>>();
    verts->reserve(h->num_vertices);
    for (int i = 0; i < h->num_vertices; ++i)
        verts->emplace_back(h->vertices[i].x, h->vertices[i].y, h->vertices[i].z);
    auto faces = std::make_shared<std::vector<int>>();
    for (int f = 0; f < h->num_faces; ++f) {
        faces->push_back(h->face_start[f + 1] - h->face_start[f]);
        for (int k = h->face_start[f]; k < h->face_start[f + 1]; ++k)
            faces->push_back(h->face_vertices[k]);
    }
    return std::make_unique<fcl::Convex<double>>(verts, h->num_faces, faces);
}

void *fcl_make(const bench_set *set, const void *)
{
    try {
        auto x = std::make_unique<FclCtx>();
        x->set = set;
        const bench_pool *pool = set->pool;
        if (pool->count == 0)
            return nullptr;
        x->type = pool->shapes[0].type;
        for (int i = 0; i < pool->count; ++i) {
            const mk_shape &s = pool->shapes[i];
            if (s.type != x->type)
                return nullptr; // families are homogeneous
            switch (s.type) {
            case MK_SHAPE_BOX: {
                mk_vec3 h = s.u.box.half_extents;
                x->boxes.push_back(std::make_unique<fcl::Box<double>>(2 * h.x, 2 * h.y, 2 * h.z));
                break;
            }
            case MK_SHAPE_ELLIPSOID: {
                mk_vec3 r = s.u.ellipsoid.radii;
                x->ellipsoids.push_back(std::make_unique<fcl::Ellipsoid<double>>(r.x, r.y, r.z));
                break;
            }
            case MK_SHAPE_HULL:
                x->hulls.push_back(to_fcl_convex(s.u.hull.hull));
                break;
            default:
                return nullptr;
            }
        }
        for (int i = 0; i < set->count; ++i) {
            x->xa.push_back(to_fcl(set->p[i].pair.xf_a));
            x->xb.push_back(to_fcl(set->p[i].pair.xf_b));
        }
        return x.release();
    } catch (const std::exception &) {
        return nullptr;
    }
}

void fcl_release(void *ctx) { delete static_cast<FclCtx *>(ctx); }

// Returns whether FCL reports the shapes separated; *d gets its distance.
bool fcl_query(const FclCtx *x, int i, double *d)
{
    const bench_problem &p = x->set->p[i];
    switch (x->type) {
    case MK_SHAPE_BOX:
        return x->solver.shapeDistance(*x->boxes[p.ia], x->xa[i], *x->boxes[p.ib], x->xb[i], d);
    case MK_SHAPE_ELLIPSOID:
        return x->solver.shapeDistance(*x->ellipsoids[p.ia], x->xa[i], *x->ellipsoids[p.ib], x->xb[i], d);
    case MK_SHAPE_HULL:
        return x->solver.shapeDistance(*x->hulls[p.ia], x->xa[i], *x->hulls[p.ib], x->xb[i], d);
    default:
        *d = NAN;
        return false;
    }
}

double fcl_run(void *ctx, int i)
{
    double d = 0;
    try {
        fcl_query(static_cast<const FclCtx *>(ctx), i, &d);
    } catch (const std::exception &) {
        d = NAN;
    }
    return d;
}

void fcl_answer(void *ctx, int i, bench_answer *out)
{
    double d = NAN;
    bool separated = false, ok = true;
    try {
        separated = fcl_query(static_cast<const FclCtx *>(ctx), i, &d);
    } catch (const std::exception &) {
        ok = false;
    }
    out->ok = ok && (!separated || std::isfinite(d));
    out->overlap = !separated;
    out->distance = separated ? d : 0;
    out->depth = NAN;
    out->iterations = -1;
    out->lower = out->upper = NAN;
}

} // namespace

extern "C" const bench_query peer_fcl_distance = {"FCL GJK (libccd)", BENCH_DISTANCE, fcl_make, fcl_release,
                                                  fcl_run, fcl_answer, nullptr};
