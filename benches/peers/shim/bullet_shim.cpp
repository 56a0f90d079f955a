// Bullet side of the peers benchmark: our shapes as Bullet convex shapes, and the loop that
// runs btGjkEpaSolver2::SignedDistance over every pair. Our own code; it links against the
// few Bullet files build.rs compiles from $BULLET_SRC with BT_USE_DOUBLE_PRECISION.
//
// SignedDistance works on the shapes without their collision margins (GJK for the distance,
// EPA when the cores overlap). Every shape gets margin 0, except where Bullet's core is the
// shape's skeleton: a btSphereShape is its centre and a btCapsuleShape its segment, the
// radius being the margin. Those radii, and the border radius of rounded shapes, are
// subtracted from the core distance (exact for a shape grown by a ball).
#include <cmath>
#include <vector>

#include "BulletCollision/CollisionShapes/btBoxShape.h"
#include "BulletCollision/CollisionShapes/btCapsuleShape.h"
#include "BulletCollision/CollisionShapes/btConeShape.h"
#include "BulletCollision/CollisionShapes/btConvexHullShape.h"
#include "BulletCollision/CollisionShapes/btCylinderShape.h"
#include "BulletCollision/CollisionShapes/btSphereShape.h"
#include "BulletCollision/NarrowPhaseCollision/btGjkEpa2.h"

#include "peer_shim.h"

namespace {

struct BtPair {
    const btConvexShape *a;
    const btConvexShape *b;
    btTransform ta, tb;
    btScalar radii; // subtracted from the core distance
};

struct BtHandle {
    std::vector<btConvexShape *> shapes;
    std::vector<btScalar> radius;
    std::vector<BtPair> pairs;
};

btTransform transform(const peer_pose &p) {
    const double *r = p.rot;
    btMatrix3x3 m(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]);
    return btTransform(m, btVector3(p.t[0], p.t[1], p.t[2]));
}

btConvexShape *make(const peer_shape &s, btScalar &radius) {
    radius = s.border;
    btConvexShape *out = nullptr;
    switch (s.kind) {
    case PEER_BALL:
        out = new btSphereShape(s.p[0]);
        radius += s.p[0];
        return out;
    case PEER_CAPSULE:
        out = new btCapsuleShape(s.p[1], 2.0 * s.p[0]);
        radius += s.p[1];
        return out;
    case PEER_CUBOID:
        out = new btBoxShape(btVector3(s.p[0], s.p[1], s.p[2]));
        break;
    case PEER_CYLINDER:
        out = new btCylinderShape(btVector3(s.p[1], s.p[0], s.p[1]));
        break;
    case PEER_CONE:
        out = new btConeShape(s.p[1], 2.0 * s.p[0]);
        break;
    default:
        out = new btConvexHullShape(s.pts, s.npts, 3 * sizeof(double));
        break;
    }
    out->setMargin(0.0);
    return out;
}

} // namespace

extern "C" void *peer_bullet_new(const peer_shape *shapes, size_t nshapes,
                                 const peer_pair *pairs, size_t npairs) {
    BtHandle *h = new BtHandle;
    h->shapes.resize(nshapes);
    h->radius.resize(nshapes);
    for (size_t i = 0; i < nshapes; ++i) h->shapes[i] = make(shapes[i], h->radius[i]);
    h->pairs.resize(npairs);
    for (size_t i = 0; i < npairs; ++i) {
        BtPair &p = h->pairs[i];
        p.a = h->shapes[pairs[i].a];
        p.b = h->shapes[pairs[i].b];
        p.ta = transform(pairs[i].pa);
        p.tb = transform(pairs[i].pb);
        p.radii = h->radius[pairs[i].a] + h->radius[pairs[i].b];
    }
    return h;
}

extern "C" void peer_bullet_run(void *handle, peer_out *out) {
    BtHandle *h = static_cast<BtHandle *>(handle);
    for (size_t i = 0; i < h->pairs.size(); ++i) {
        const BtPair &p = h->pairs[i];
        // Initial search direction, in A's frame: centre of A minus centre of B (a point of
        // the Minkowski difference A - B that GJK works on).
        btVector3 guess = (p.ta.getOrigin() - p.tb.getOrigin()) * p.ta.getBasis(); // basis^T * v
        btGjkEpaSolver2::sResults r;
        peer_out &o = out[i];
        if (btGjkEpaSolver2::SignedDistance(p.a, p.ta, p.b, p.tb, guess, r)) {
            // r.normal is in A's frame and points from B to A.
            btVector3 n = -(p.ta.getBasis() * r.normal);
            o.status = 0;
            o.dist = r.distance - p.radii;
            o.normal[0] = n.x();
            o.normal[1] = n.y();
            o.normal[2] = n.z();
        } else {
            o.status = 2;
            o.dist = NAN;
        }
    }
}

extern "C" void peer_bullet_free(void *handle) {
    BtHandle *h = static_cast<BtHandle *>(handle);
    for (btConvexShape *s : h->shapes) delete s;
    delete h;
}
