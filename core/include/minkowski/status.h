/* minkowski: the one status enum every query returns. */
#ifndef MINKOWSKI_STATUS_H
#define MINKOWSKI_STATUS_H

#include <minkowski/export.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mk_status {
    MK_OK = 0,
    /* Queries */
    MK_GJK_SEPARATED,     /* shapes apart; distance and bounds are certified */
    MK_GJK_INTERSECTING,  /* shapes overlap (or touch within the tolerance) */
    MK_GJK_MAX_ITER,      /* iteration bound hit; the best bounds so far are returned */
    /* EPA / signed distance (epa.h) */
    MK_PENETRATING,       /* shapes overlap; depth and its bounds are certified */
    MK_EPA_MAX_ITER,      /* EPA iteration bound hit; best depth bounds so far returned */
    MK_EPA_FACE_BUDGET,   /* EPA ran out of workspace faces; best depth bounds so far returned */
    /* Growth distance (growth.h) */
    MK_GROWTH_MAX_ITER,   /* growth-distance iteration bound hit; best bounds returned */
    MK_GROWTH_DEGENERATE, /* growth distance undefined: centre outside its shape, or no interior ball */
    /* Ray casts (ray.h) */
    MK_RAY_HIT,           /* the ray meets the shape within its length */
    MK_RAY_MISS,          /* it does not (certified by a separating plane or the length) */
    MK_RAY_INSIDE,        /* the ray starts inside the shape (or within the tolerance of it) */
    MK_RAY_MAX_ITER,      /* iteration bound hit; the ray is clear of the shape up to the returned t */
    /* Bad input: nothing computed, outputs hold finite placeholders */
    MK_INVALID_INPUT,     /* NULL, NaN/Inf, non-orthonormal rotation, bad setting */
    MK_INVALID_SIZE,      /* zero, negative or non-finite shape size */
    MK_DEGENERATE_HULL,   /* fewer than 4 non-coplanar points */
    MK_WORKSPACE_TOO_SMALL, /* caller scratch buffer smaller than the *_workspace_size() asked */
    MK_OUT_OF_MEMORY,
    MK_QHULL_ERROR
} mk_status;

/* Short English name of a status, never NULL. */
MK_API const char *mk_status_string(mk_status s);
/* "0.1.0" */
MK_API const char *mk_version(void);

#ifdef __cplusplus
}
#endif
#endif
