/* libccd side of the peers benchmark: support and centre callbacks for our shapes, and the
 * loop that runs ccdGJKPenetration or ccdMPRPenetration over every pair. Our own code; it
 * links against libccd (built in double precision by build.rs from $LIBCCD_SRC). */
#include <math.h>
#include <stdlib.h>

#include <ccd/ccd.h>

#include "peer_shim.h"

/* A posed shape, the object libccd hands back to the callbacks. */
typedef struct {
    const peer_shape *s;
    double r[9]; /* row-major, local -> world */
    double t[3];
} ccd_obj;

typedef struct {
    ccd_obj *objs; /* 2 per pair: A, B */
    size_t npairs;
} ccd_handle;

static double sgn_half(double x, double h) { return x >= 0.0 ? h : -h; }

/* Support point in local coordinates along the local direction d (not necessarily unit). */
static void local_support(const peer_shape *s, const double d[3], double out[3]) {
    double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double u[3] = {1.0, 0.0, 0.0};
    if (n > 0.0) {
        u[0] = d[0] / n;
        u[1] = d[1] / n;
        u[2] = d[2] / n;
    }
    switch (s->kind) {
    case PEER_BALL:
        out[0] = s->p[0] * u[0];
        out[1] = s->p[0] * u[1];
        out[2] = s->p[0] * u[2];
        break;
    case PEER_CUBOID:
        out[0] = sgn_half(d[0], s->p[0]);
        out[1] = sgn_half(d[1], s->p[1]);
        out[2] = sgn_half(d[2], s->p[2]);
        break;
    case PEER_CAPSULE:
        out[0] = s->p[1] * u[0];
        out[1] = sgn_half(d[1], s->p[0]) + s->p[1] * u[1];
        out[2] = s->p[1] * u[2];
        break;
    case PEER_CYLINDER: {
        double rho = sqrt(d[0] * d[0] + d[2] * d[2]);
        out[1] = sgn_half(d[1], s->p[0]);
        if (rho > 0.0) {
            out[0] = s->p[1] * d[0] / rho;
            out[2] = s->p[1] * d[2] / rho;
        } else {
            out[0] = 0.0;
            out[2] = 0.0;
        }
        break;
    }
    case PEER_CONE: {
        double hh = s->p[0], r = s->p[1];
        double rho = sqrt(d[0] * d[0] + d[2] * d[2]);
        double apex = d[1] * hh;
        double rim = r * rho - d[1] * hh;
        if (apex >= rim) {
            out[0] = 0.0;
            out[1] = hh;
            out[2] = 0.0;
        } else {
            out[0] = rho > 0.0 ? r * d[0] / rho : 0.0;
            out[1] = -hh;
            out[2] = rho > 0.0 ? r * d[2] / rho : 0.0;
        }
        break;
    }
    default: { /* PEER_POINTS: linear scan */
        const double *p = s->pts;
        int best = 0;
        double best_dot = p[0] * d[0] + p[1] * d[1] + p[2] * d[2];
        for (int i = 1; i < s->npts; ++i) {
            double dot = p[3 * i] * d[0] + p[3 * i + 1] * d[1] + p[3 * i + 2] * d[2];
            if (dot > best_dot) {
                best_dot = dot;
                best = i;
            }
        }
        out[0] = p[3 * best];
        out[1] = p[3 * best + 1];
        out[2] = p[3 * best + 2];
        break;
    }
    }
    if (s->border > 0.0) {
        out[0] += s->border * u[0];
        out[1] += s->border * u[1];
        out[2] += s->border * u[2];
    }
}

static void support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *vec) {
    const ccd_obj *o = (const ccd_obj *)obj;
    const double *r = o->r;
    const double *w = dir->v;
    double d[3], s[3];
    /* local direction = rot^T * dir */
    d[0] = r[0] * w[0] + r[3] * w[1] + r[6] * w[2];
    d[1] = r[1] * w[0] + r[4] * w[1] + r[7] * w[2];
    d[2] = r[2] * w[0] + r[5] * w[1] + r[8] * w[2];
    local_support(o->s, d, s);
    vec->v[0] = r[0] * s[0] + r[1] * s[1] + r[2] * s[2] + o->t[0];
    vec->v[1] = r[3] * s[0] + r[4] * s[1] + r[5] * s[2] + o->t[1];
    vec->v[2] = r[6] * s[0] + r[7] * s[1] + r[8] * s[2] + o->t[2];
}

static void center(const void *obj, ccd_vec3_t *c) {
    const ccd_obj *o = (const ccd_obj *)obj;
    c->v[0] = o->t[0];
    c->v[1] = o->t[1];
    c->v[2] = o->t[2];
}

/* First search direction: from A's centre to B's (libccd's default is +x). */
static void first_dir(const void *o1, const void *o2, ccd_vec3_t *dir) {
    const ccd_obj *a = (const ccd_obj *)o1, *b = (const ccd_obj *)o2;
    double d[3] = {b->t[0] - a->t[0], b->t[1] - a->t[1], b->t[2] - a->t[2]};
    if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > 1e-24) {
        dir->v[0] = d[0];
        dir->v[1] = d[1];
        dir->v[2] = d[2];
    } else {
        dir->v[0] = 1.0;
        dir->v[1] = 0.0;
        dir->v[2] = 0.0;
    }
}

static void set_obj(ccd_obj *o, const peer_shape *s, const peer_pose *p) {
    o->s = s;
    for (int i = 0; i < 9; ++i) o->r[i] = p->rot[i];
    for (int i = 0; i < 3; ++i) o->t[i] = p->t[i];
}

void *peer_ccd_new(const peer_shape *shapes, size_t nshapes, const peer_pair *pairs,
                   size_t npairs) {
    (void)nshapes;
    ccd_handle *h = (ccd_handle *)malloc(sizeof(ccd_handle));
    h->objs = (ccd_obj *)malloc(sizeof(ccd_obj) * 2 * (npairs ? npairs : 1));
    h->npairs = npairs;
    for (size_t i = 0; i < npairs; ++i) {
        set_obj(&h->objs[2 * i], &shapes[pairs[i].a], &pairs[i].pa);
        set_obj(&h->objs[2 * i + 1], &shapes[pairs[i].b], &pairs[i].pb);
    }
    return h;
}

void peer_ccd_run(void *handle, int32_t method, double tolerance, peer_out *out) {
    ccd_handle *h = (ccd_handle *)handle;
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.first_dir = first_dir;
    ccd.support1 = support;
    ccd.support2 = support;
    ccd.center1 = center;
    ccd.center2 = center;
    /* libccd's default is unlimited; a bound keeps a degenerate pair from hanging the run
     * (it bounds GJK and MPR; libccd's EPA loop has no bound). */
    ccd.max_iterations = 1000;
    if (method == 0)
        ccd.epa_tolerance = tolerance;
    else
        ccd.mpr_tolerance = tolerance;
    for (size_t i = 0; i < h->npairs; ++i) {
        ccd_real_t depth = 0.0;
        ccd_vec3_t dir, pos;
        const ccd_obj *a = &h->objs[2 * i], *b = &h->objs[2 * i + 1];
        int r = method == 0 ? ccdGJKPenetration(a, b, &ccd, &depth, &dir, &pos)
                            : ccdMPRPenetration(a, b, &ccd, &depth, &dir, &pos);
        peer_out *o = &out[i];
        if (r == 0) {
            o->status = 0;
            o->dist = -depth;
            o->normal[0] = dir.v[0];
            o->normal[1] = dir.v[1];
            o->normal[2] = dir.v[2];
        } else if (r == -1) {
            o->status = 1;
            o->dist = INFINITY;
        } else {
            o->status = 2;
            o->dist = NAN;
        }
    }
}

void peer_ccd_free(void *handle) {
    ccd_handle *h = (ccd_handle *)handle;
    free(h->objs);
    free(h);
}
