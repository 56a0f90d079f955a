/* The plain-C interface between the Rust benchmark (src/ffi.rs) and the peer shims
 * (ccd_shim.c, bullet_shim.cpp). Our own code: it declares the data the Rust side hands
 * over (shapes, world poses, pairs) and the answer it reads back. */
#ifndef NPHASE_PEER_SHIM_H
#define NPHASE_PEER_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shape kinds. Capsule, cylinder and cone are aligned with local y (cone apex at
 * +half_height, base at -half_height), as in nphase and parry. */
enum {
    PEER_BALL = 0,     /* p[0] = radius */
    PEER_CUBOID = 1,   /* p[0..3] = half extents */
    PEER_CAPSULE = 2,  /* p[0] = half height of the core segment, p[1] = radius */
    PEER_CYLINDER = 3, /* p[0] = half height, p[1] = radius */
    PEER_CONE = 4,     /* p[0] = half height, p[1] = base radius */
    PEER_POINTS = 5    /* convex hull of pts[0 .. 3*npts] (also triangles and segments) */
};

typedef struct {
    int32_t kind;
    int32_t npts;
    double p[3];
    const double *pts; /* xyz xyz ..., owned by the caller, alive while the handle is */
    double border;     /* rounded shapes: the shape grown by this radius (0 = sharp) */
} peer_shape;

/* A world pose: x_world = rot * x_local + t, rot row-major. */
typedef struct {
    double rot[9];
    double t[3];
} peer_pose;

/* One pair: shape indices and the world poses of A and B. */
typedef struct {
    uint32_t a, b;
    peer_pose pa, pb;
} peer_pair;

/* status: 0 = dist and normal are set; 1 = separated, no distance computed (libccd);
 * 2 = the query failed. normal: unit, world, on A pointing toward B (nphase's normal1);
 * dist: signed distance, negative = penetration depth. */
typedef struct {
    double dist;
    double normal[3];
    int32_t status;
    int32_t pad;
} peer_out;

/* libccd (ccd_shim.c). method 0 = ccdGJKPenetration (GJK + EPA), 1 = ccdMPRPenetration;
 * tolerance: ccd_t's epa_tolerance (method 0) or mpr_tolerance (method 1); libccd's default
 * is 1e-4 for both. */
void *peer_ccd_new(const peer_shape *shapes, size_t nshapes, const peer_pair *pairs,
                   size_t npairs);
void peer_ccd_run(void *handle, int32_t method, double tolerance, peer_out *out);
void peer_ccd_free(void *handle);

/* Bullet (bullet_shim.cpp): btGjkEpaSolver2::SignedDistance. */
void *peer_bullet_new(const peer_shape *shapes, size_t nshapes, const peer_pair *pairs,
                      size_t npairs);
void peer_bullet_run(void *handle, peer_out *out);
void peer_bullet_free(void *handle);

#ifdef __cplusplus
}
#endif

#endif
