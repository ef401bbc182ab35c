/* minkowski: umbrella header. */
#ifndef MINKOWSKI_MINKOWSKI_H
#define MINKOWSKI_MINKOWSKI_H
#include <minkowski/export.h>
#include <minkowski/status.h>
#include <minkowski/math.h>
#include <minkowski/shape.h>
#include <minkowski/gjk.h>
#include <minkowski/manifold.h>
#include <minkowski/epa.h>
#include <minkowski/collide.h>
#include <minkowski/growth.h>
#include <minkowski/ray.h>
#include <minkowski/mesh.h>
#endif
