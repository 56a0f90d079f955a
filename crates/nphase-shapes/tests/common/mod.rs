//! Oracles shared by the integration tests of nphase-shapes, written independently of the code
//! under test:
//!
//! * [`Spec`] — shape parameters in `f64`; [`Spec::rounded`] rounds them to the test's precision
//!   so that the `f64` oracles describe *exactly* the shape that [`Spec::build`] makes;
//! * exact signed-distance functions ([`Spec::sdf`]) and support values ([`Spec::support_value`]);
//! * surface samplers ([`Spec::samples`]) as a core point set plus a radius (a ball is a point
//!   grown by its radius), so the sampled maximum of `x·d` over a rounded shape is separable;
//! * random directions, poses and tolerances.
//!
//! Each test binary uses part of this module.
#![allow(dead_code)]

use nphase_math::nalgebra::Vector2;
use nphase_math::{Isometry, Point, Real, Rotation, Vector};
use nphase_shapes::{
    Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, Segment, Shape, Triangle,
};
use rand::Rng;
use rand_pcg::Pcg64;

/// A vector of the `f64` oracles.
pub type V = Vector<f64>;

/// The parameters of a shape, in `f64`.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    Ball {
        radius: f64,
    },
    Cuboid {
        half_extents: V,
    },
    Capsule {
        half_height: f64,
        radius: f64,
    },
    Cylinder {
        half_height: f64,
        radius: f64,
    },
    Cone {
        half_height: f64,
        radius: f64,
    },
    Segment {
        a: V,
        b: V,
    },
    Triangle {
        a: V,
        b: V,
        c: V,
    },
    /// The convex hull of `points` (the oracles use the cloud, never the hull's own data).
    Convex {
        points: Vec<V>,
    },
    Round {
        inner: Box<Spec>,
        border_radius: f64,
    },
}

/// Rounds `x` to precision `T` and widens it back (exact).
pub fn round_to<T: Real>(x: f64) -> f64 {
    T::lit(x).as_f64()
}

/// `v` in precision `T`.
pub fn to_t<T: Real>(v: &V) -> Vector<T> {
    v.map(T::lit)
}

/// `v` widened to `f64` (exact).
pub fn to_f64<T: Real>(v: &Vector<T>) -> V {
    v.map(T::as_f64)
}

impl Spec {
    /// The name of the shape type, for messages and per-kind statistics.
    pub fn kind(&self) -> &'static str {
        match self {
            Spec::Ball { .. } => "ball",
            Spec::Cuboid { .. } => "cuboid",
            Spec::Capsule { .. } => "capsule",
            Spec::Cylinder { .. } => "cylinder",
            Spec::Cone { .. } => "cone",
            Spec::Segment { .. } => "segment",
            Spec::Triangle { .. } => "triangle",
            Spec::Convex { .. } => "convex",
            Spec::Round { .. } => "round",
        }
    }

    /// The same spec with every parameter rounded to precision `T`: the `f64` oracles of the
    /// result describe exactly the shape [`build::<T>`](Spec::build) makes.
    pub fn rounded<T: Real>(&self) -> Spec {
        let v = |v: &V| v.map(round_to::<T>);
        let s = round_to::<T>;
        match self {
            Spec::Ball { radius } => Spec::Ball { radius: s(*radius) },
            Spec::Cuboid { half_extents } => Spec::Cuboid {
                half_extents: v(half_extents),
            },
            Spec::Capsule {
                half_height,
                radius,
            } => Spec::Capsule {
                half_height: s(*half_height),
                radius: s(*radius),
            },
            Spec::Cylinder {
                half_height,
                radius,
            } => Spec::Cylinder {
                half_height: s(*half_height),
                radius: s(*radius),
            },
            Spec::Cone {
                half_height,
                radius,
            } => Spec::Cone {
                half_height: s(*half_height),
                radius: s(*radius),
            },
            Spec::Segment { a, b } => Spec::Segment { a: v(a), b: v(b) },
            Spec::Triangle { a, b, c } => Spec::Triangle {
                a: v(a),
                b: v(b),
                c: v(c),
            },
            Spec::Convex { points } => Spec::Convex {
                points: points.iter().map(v).collect(),
            },
            Spec::Round {
                inner,
                border_radius,
            } => Spec::Round {
                inner: Box::new(inner.rounded::<T>()),
                border_radius: s(*border_radius),
            },
        }
    }

    /// The shape in precision `T` (call on a [`rounded`](Spec::rounded) spec for exact oracles).
    pub fn build<T: Real>(&self) -> Shape<T> {
        let p = |v: &V| Point::from(to_t::<T>(v));
        let s = T::lit;
        let valid = "the generators only make valid parameters";
        match self {
            Spec::Ball { radius } => Shape::Ball(Ball::new(s(*radius)).expect(valid)),
            Spec::Cuboid { half_extents } => {
                Shape::Cuboid(Cuboid::new(to_t(half_extents)).expect(valid))
            }
            Spec::Capsule {
                half_height,
                radius,
            } => Shape::Capsule(Capsule::new(s(*half_height), s(*radius)).expect(valid)),
            Spec::Cylinder {
                half_height,
                radius,
            } => Shape::Cylinder(Cylinder::new(s(*half_height), s(*radius)).expect(valid)),
            Spec::Cone {
                half_height,
                radius,
            } => Shape::Cone(Cone::new(s(*half_height), s(*radius)).expect(valid)),
            Spec::Segment { a, b } => Shape::Segment(Segment::new(p(a), p(b)).expect(valid)),
            Spec::Triangle { a, b, c } => {
                Shape::Triangle(Triangle::new(p(a), p(b), p(c)).expect(valid))
            }
            Spec::Convex { points } => {
                let cloud: Vec<Point<T>> = points.iter().map(p).collect();
                Shape::Convex(ConvexPolyhedron::from_points(&cloud).expect(valid).into())
            }
            Spec::Round {
                inner,
                border_radius,
            } => Shape::round(inner.build(), s(*border_radius)).expect(valid),
        }
    }

    /// The local bounding box `(mins, maxs)`, from the parameters.
    pub fn local_aabb(&self) -> (V, V) {
        let sym = |h: V| (-h, h);
        let of_points = |pts: &[V]| {
            pts.iter()
                .skip(1)
                .fold((pts[0], pts[0]), |(lo, hi), p| (lo.inf(p), hi.sup(p)))
        };
        match self {
            Spec::Ball { radius } => sym(V::repeat(*radius)),
            Spec::Cuboid { half_extents } => sym(*half_extents),
            Spec::Capsule {
                half_height,
                radius,
            } => sym(V::new(*radius, half_height + radius, *radius)),
            Spec::Cylinder {
                half_height,
                radius,
            }
            | Spec::Cone {
                half_height,
                radius,
            } => sym(V::new(*radius, *half_height, *radius)),
            Spec::Segment { a, b } => of_points(&[*a, *b]),
            Spec::Triangle { a, b, c } => of_points(&[*a, *b, *c]),
            Spec::Convex { points } => of_points(points),
            Spec::Round {
                inner,
                border_radius,
            } => {
                let (lo, hi) = inner.local_aabb();
                let r = V::repeat(*border_radius);
                (lo - r, hi + r)
            }
        }
    }

    /// The size every tolerance is relative to: the local bounding box's half-diagonal (as in
    /// docs/accuracy.md), floored so that a point-sized shape still gets a non-zero slack.
    pub fn scale(&self) -> f64 {
        let (lo, hi) = self.local_aabb();
        let centre = (lo + hi) * 0.5;
        // The support point is measured from the local origin, so a shape far from it (a
        // segment or hull placed off-centre) rounds like one of its distance from the origin.
        (0.5 * (hi - lo).norm() + centre.norm()).max(1e-30)
    }

    /// The support value `max_{x ∈ S} x·d` (analytic; `d` need not be unit).
    pub fn support_value(&self, d: &V) -> f64 {
        match self {
            Spec::Ball { radius } => radius * d.norm(),
            Spec::Cuboid { half_extents } => half_extents.dot(&d.abs()),
            Spec::Capsule {
                half_height,
                radius,
            } => half_height * d.y.abs() + radius * d.norm(),
            Spec::Cylinder {
                half_height,
                radius,
            } => half_height * d.y.abs() + radius * d.x.hypot(d.z),
            Spec::Cone {
                half_height,
                radius,
            } => (half_height * d.y).max(-half_height * d.y + radius * d.x.hypot(d.z)),
            Spec::Segment { a, b } => a.dot(d).max(b.dot(d)),
            Spec::Triangle { a, b, c } => a.dot(d).max(b.dot(d)).max(c.dot(d)),
            Spec::Convex { points } => points
                .iter()
                .map(|p| p.dot(d))
                .fold(f64::NEG_INFINITY, f64::max),
            Spec::Round {
                inner,
                border_radius,
            } => inner.support_value(d) + border_radius * d.norm(),
        }
    }

    /// The exact signed distance from `p` to the surface (negative inside; flat and 1-D shapes
    /// have no inside). `None` for hulls, which the tests check against their point cloud.
    pub fn sdf(&self, p: &V) -> Option<f64> {
        Some(match self {
            Spec::Ball { radius } => p.norm() - radius,
            Spec::Cuboid { half_extents } => {
                let q = p.abs() - half_extents;
                q.sup(&V::zeros()).norm() + q.max().min(0.0)
            }
            Spec::Capsule {
                half_height,
                radius,
            } => {
                let top = V::new(0.0, *half_height, 0.0);
                distance_to_segment(p, &-top, &top) - radius
            }
            Spec::Cylinder {
                half_height,
                radius,
            } => {
                let dx = p.x.hypot(p.z) - radius;
                let dy = p.y.abs() - half_height;
                dx.max(dy).min(0.0) + dx.max(0.0).hypot(dy.max(0.0))
            }
            Spec::Cone {
                half_height,
                radius,
            } => cone_profile_sdf(p.x.hypot(p.z), p.y, *half_height, *radius),
            Spec::Segment { a, b } => distance_to_segment(p, a, b),
            Spec::Triangle { a, b, c } => (p - closest_on_triangle(p, a, b, c)).norm(),
            Spec::Convex { .. } => return None,
            Spec::Round {
                inner,
                border_radius,
            } => inner.sdf(p)? - border_radius,
        })
    }

    /// How far the support point `s` (along `d`) is from the surface.
    ///
    /// With an exact signed distance this is `|sdf(s)|`. For a hull (possibly rounded) it is the
    /// distance from `s − radius·unit(d)` to the nearest point of the cloud: the support point
    /// of a rounded hull is a hull vertex pushed out by the radius along `d`, and that point is
    /// on the rounded surface exactly when the vertex maximises `x·d` — which the tests check
    /// separately against the whole cloud.
    pub fn surface_error(&self, s: &V, d: &V) -> f64 {
        if let Some(distance) = self.sdf(s) {
            return distance.abs();
        }
        let (core, radius) = self.core_points();
        let unit = unit(d);
        let inner = s - unit * radius;
        core.iter()
            .map(|p| (inner - p).norm())
            .fold(f64::INFINITY, f64::min)
    }

    /// The hull's cloud and the radius around it (for [`Spec::Convex`] and rounded hulls).
    fn core_points(&self) -> (Vec<V>, f64) {
        match self {
            Spec::Convex { points } => (points.clone(), 0.0),
            Spec::Round {
                inner,
                border_radius,
            } => {
                let (pts, r) = inner.core_points();
                (pts, r + border_radius)
            }
            _ => (Vec::new(), 0.0),
        }
    }

    /// Samples of the shape: a set of core points and a radius; the shape is the set of points
    /// within the radius of the core's convex hull, so `max x·d` over it is the core samples'
    /// maximum plus `radius·|d|`. The samples are dense on the core's curves and faces (rims
    /// every 0.25°, edges and faces by random points), so a support point that misses the true
    /// maximiser by more than the sampling gap is caught.
    pub fn samples(&self, rng: &mut Pcg64) -> Samples {
        let mut core = Vec::new();
        let radius = self.fill_samples(rng, &mut core);
        Samples { core, radius }
    }

    fn fill_samples(&self, rng: &mut Pcg64, out: &mut Vec<V>) -> f64 {
        let unit01 = |rng: &mut Pcg64| rng.random_range(0.0..=1.0);
        match self {
            Spec::Ball { radius } => {
                out.push(V::zeros());
                *radius
            }
            Spec::Capsule {
                half_height,
                radius,
            } => {
                let top = V::new(0.0, *half_height, 0.0);
                sample_segment(rng, &-top, &top, out);
                *radius
            }
            Spec::Cuboid { half_extents: h } => {
                for i in 0..8u32 {
                    out.push(V::from_fn(
                        |k, _| if i >> k & 1 == 0 { h[k] } else { -h[k] },
                    ));
                }
                for _ in 0..600 {
                    // A random point on a random face or edge (one or two coordinates pinned).
                    let mut p = V::from_fn(|k, _| h[k] * (2.0 * unit01(rng) - 1.0));
                    let pinned = rng.random_range(1..=2);
                    for _ in 0..pinned {
                        let k = rng.random_range(0..3);
                        p[k] = if rng.random_bool(0.5) { h[k] } else { -h[k] };
                    }
                    out.push(p);
                }
                0.0
            }
            Spec::Cylinder {
                half_height,
                radius,
            } => {
                for k in 0..1440 {
                    let angle = std::f64::consts::TAU * f64::from(k) / 1440.0;
                    let rim = V::new(radius * angle.cos(), 0.0, radius * angle.sin());
                    out.push(rim + V::y() * *half_height);
                    out.push(rim - V::y() * *half_height);
                }
                for _ in 0..400 {
                    let angle = std::f64::consts::TAU * unit01(rng);
                    let rho = radius * unit01(rng).sqrt();
                    let y = half_height * (2.0 * unit01(rng) - 1.0);
                    out.push(V::new(rho * angle.cos(), y, rho * angle.sin()));
                }
                0.0
            }
            Spec::Cone {
                half_height,
                radius,
            } => {
                out.push(V::new(0.0, *half_height, 0.0));
                for k in 0..1440 {
                    let angle = std::f64::consts::TAU * f64::from(k) / 1440.0;
                    out.push(V::new(
                        radius * angle.cos(),
                        -half_height,
                        radius * angle.sin(),
                    ));
                }
                for _ in 0..400 {
                    // A random point on the slant surface or the base.
                    let angle = std::f64::consts::TAU * unit01(rng);
                    let t = unit01(rng);
                    let (rho, y) = if rng.random_bool(0.5) {
                        (radius * t, half_height - 2.0 * half_height * t)
                    } else {
                        (radius * t.sqrt(), -half_height)
                    };
                    out.push(V::new(rho * angle.cos(), y, rho * angle.sin()));
                }
                0.0
            }
            Spec::Segment { a, b } => {
                sample_segment(rng, a, b, out);
                0.0
            }
            Spec::Triangle { a, b, c } => {
                out.extend([*a, *b, *c]);
                for _ in 0..300 {
                    let (mut u, mut v) = (unit01(rng), unit01(rng));
                    if u + v > 1.0 {
                        (u, v) = (1.0 - u, 1.0 - v);
                    }
                    if rng.random_bool(0.3) {
                        v = 0.0; // on an edge
                    }
                    let corners = [*a, *b, *c];
                    let i = rng.random_range(0..3);
                    let (p, q, r) = (corners[i], corners[(i + 1) % 3], corners[(i + 2) % 3]);
                    out.push(p + (q - p) * u + (r - p) * v);
                }
                0.0
            }
            Spec::Convex { points } => {
                out.extend(points.iter().copied());
                0.0
            }
            Spec::Round {
                inner,
                border_radius,
            } => inner.fill_samples(rng, out) + border_radius,
        }
    }
}

fn sample_segment(rng: &mut Pcg64, a: &V, b: &V, out: &mut Vec<V>) {
    out.extend([*a, *b]);
    for _ in 0..32 {
        out.push(a + (b - a) * rng.random_range(0.0..=1.0));
    }
}

/// Samples of a shape: `core` points grown by `radius` (see [`Spec::samples`]).
pub struct Samples {
    pub core: Vec<V>,
    pub radius: f64,
}

impl Samples {
    /// The largest `x·d` over the samples, with the radius part taken over a dense sphere
    /// (`sphere_max`, the sampled maximum of `u·d` over unit vectors `u`).
    pub fn max_dot(&self, d: &V, sphere_max: f64) -> f64 {
        let core = self
            .core
            .iter()
            .map(|p| p.dot(d))
            .fold(f64::NEG_INFINITY, f64::max);
        core + self.radius * sphere_max
    }

    /// Points of the shape (on or near its surface): core samples each pushed out by the radius
    /// along one of `sphere`'s directions.
    pub fn points<'a>(&'a self, sphere: &'a [V]) -> impl Iterator<Item = V> + 'a {
        self.core
            .iter()
            .enumerate()
            .map(move |(i, p)| p + sphere[i * 7919 % sphere.len()] * self.radius)
    }
}

/// `n` points of the Fibonacci lattice on the unit sphere: every unit vector is within
/// `≈ 2/√n` radians of one of them.
pub fn fibonacci_sphere(n: usize) -> Vec<V> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let rho = (1.0 - y * y).sqrt();
            let angle = golden * i as f64;
            V::new(rho * angle.cos(), y, rho * angle.sin())
        })
        .collect()
}

/// The sampled maximum of `u·d` over `sphere` (`d` unit: at most 1).
pub fn sphere_max(sphere: &[V], d: &V) -> f64 {
    sphere
        .iter()
        .map(|u| u.dot(d))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// `v` normalised, robustly for tiny and huge `v` (rescaled by its largest component first);
/// `+y` for zero.
pub fn unit(v: &V) -> V {
    let m = v.amax();
    if m > 0.0 && m.is_finite() {
        (v / m).normalize()
    } else {
        V::y()
    }
}

pub fn distance_to_segment(p: &V, a: &V, b: &V) -> f64 {
    let ab = b - a;
    let len2 = ab.norm_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(&ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).norm()
}

/// Signed distance to a cone in its meridian half-plane: `(rho, y)` with `rho ≥ 0`, profile the
/// triangle `(0, h)`, `(r, −h)`, `(0, −h)`. The distance to a solid of revolution is the
/// distance in the half-plane to its profile; the profile's edge on the axis is not part of the
/// surface, so only the slant and the base count.
pub fn cone_profile_sdf(rho: f64, y: f64, h: f64, r: f64) -> f64 {
    let q = Vector2::new(rho, y);
    let seg = |a: [f64; 2], b: [f64; 2]| {
        let (a, b) = (Vector2::from(a), Vector2::from(b));
        let ab = b - a;
        let len2 = ab.norm_squared();
        let t = if len2 > 0.0 {
            ((q - a).dot(&ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (q - (a + ab * t)).norm()
    };
    let m = seg([0.0, h], [r, -h]).min(seg([0.0, -h], [r, -h]));
    // Inside: above the base and on the axis' side of the slant line from (0, h) to (r, −h).
    let inside = y > -h && r * (y - h) + 2.0 * h * rho < 0.0;
    if inside { -m } else { m }
}

/// The point of triangle `abc` closest to `p` (Ericson, *Real-Time Collision Detection* 5.1.5).
pub fn closest_on_triangle(p: &V, a: &V, b: &V, c: &V) -> V {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 > 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 > 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 && (d4 - d3) + (d5 - d6) > 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let sum = va + vb + vc;
    if sum > 0.0 {
        a + ab * (vb / sum) + ac * (vc / sum)
    } else {
        // Degenerate (collinear or coincident vertices): the closest point of the three edges.
        let mut best = *a;
        for (s, t) in [(a, b), (b, c), (c, a)] {
            let st = t - s;
            let len2 = st.norm_squared();
            let u = if len2 > 0.0 {
                ((p - s).dot(&st) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let q = s + st * u;
            if (p - q).norm() < (p - best).norm() {
                best = q;
            }
        }
        best
    }
}

/// A uniformly random unit vector.
pub fn random_unit(rng: &mut Pcg64) -> V {
    loop {
        let v = V::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            break v / n;
        }
    }
}

/// A random rotation and a translation of up to `reach` on each axis.
pub fn random_pose<T: Real>(rng: &mut Pcg64, reach: f64) -> Isometry<T> {
    let axis_angle = random_unit(rng) * rng.random_range(0.0..std::f64::consts::PI);
    let rotation = Rotation::from_scaled_axis(to_t::<T>(&axis_angle));
    let translation = V::from_fn(|_, _| rng.random_range(-reach..reach));
    Isometry::from_parts(to_t::<T>(&translation).into(), rotation)
}

/// The slack of a support or surface test in precision `T` for a shape of size `scale`: the
/// support point is a few roundings (a normalisation, a product by the radius, a sum) of
/// numbers of size ≤ `scale`, so 64 ε · scale leaves a margin of ~10 over the worst case seen
/// (1e-14 relative in f64, 8e-6 in f32, well inside docs/accuracy.md's 1e-9 and 1e-4).
pub fn tolerance<T: Real>(scale: f64) -> f64 {
    64.0 * T::TOLERANCES.epsilon.as_f64() * scale
}

/// The precision's name, for messages.
pub fn precision<T: Real>() -> &'static str {
    if T::TOLERANCES.epsilon.as_f64() > 1e-10 {
        "f32"
    } else {
        "f64"
    }
}

/// A deterministic random generator for the seeded tests.
pub fn rng(seed: u64) -> Pcg64 {
    use rand::SeedableRng;
    Pcg64::seed_from_u64(seed)
}

/// The shape types the randomized tests cover (`round` is each of the others grown by a
/// border radius).
pub const KINDS: [&str; 9] = [
    "ball", "cuboid", "capsule", "cylinder", "cone", "segment", "triangle", "convex", "round",
];

/// proptest strategies for [`Spec`]s of each kind.
pub mod strategies {
    use super::{Spec, V, random_unit};
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// A length: mostly log-uniform in [0.03, 10], sometimes exactly zero (degenerate shapes:
    /// flat boxes, a capsule that is a ball, a cone that is a disc or a segment).
    pub fn length() -> BoxedStrategy<f64> {
        prop_oneof![
            9 => (-1.5f64..1.0).prop_map(|e| 10f64.powf(e)),
            1 => Just(0.0),
        ]
        .boxed()
    }

    /// A point in the cube `[-3, 3]³`.
    pub fn point() -> BoxedStrategy<V> {
        [-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0]
            .prop_map(V::from)
            .boxed()
    }

    /// Shapes of type `kind` (one of [`KINDS`](super::KINDS)).
    pub fn spec(kind: &str) -> BoxedStrategy<Spec> {
        match kind {
            "ball" => length().prop_map(|radius| Spec::Ball { radius }).boxed(),
            "cuboid" => [length(), length(), length()]
                .prop_map(|h| Spec::Cuboid {
                    half_extents: V::from(h),
                })
                .boxed(),
            "capsule" => (length(), length())
                .prop_map(|(half_height, radius)| Spec::Capsule {
                    half_height,
                    radius,
                })
                .boxed(),
            "cylinder" => (length(), length())
                .prop_map(|(half_height, radius)| Spec::Cylinder {
                    half_height,
                    radius,
                })
                .boxed(),
            "cone" => (length(), length())
                .prop_map(|(half_height, radius)| Spec::Cone {
                    half_height,
                    radius,
                })
                .boxed(),
            "segment" => prop_oneof![
                9 => (point(), point()).prop_map(|(a, b)| Spec::Segment { a, b }),
                1 => point().prop_map(|a| Spec::Segment { a, b: a }),
            ]
            .boxed(),
            "triangle" => prop_oneof![
                8 => (point(), point(), point()).prop_map(|(a, b, c)| Spec::Triangle { a, b, c }),
                // Collinear and coincident vertices (the triangle is a segment or a point).
                1 => (point(), point(), 0.0f64..1.0)
                    .prop_map(|(a, b, t)| Spec::Triangle { a, b, c: a + (b - a) * t }),
                1 => point().prop_map(|a| Spec::Triangle { a, b: a, c: a }),
            ]
            .boxed(),
            "convex" => prop_oneof![
                // A few points in a box: small hulls, answered by a linear scan.
                3 => prop::collection::vec(point(), 4..24)
                    .prop_map(|points| Spec::Convex { points }),
                // Many points on a sphere: every one a vertex, answered by hill climbing.
                2 => (any::<u64>(), 32usize..80, 0.1f64..5.0, point()).prop_map(
                    |(seed, n, radius, centre)| {
                        let mut rng = super::rng(seed);
                        let points = (0..n).map(|_| centre + random_unit(&mut rng) * radius).collect();
                        Spec::Convex { points }
                    }
                ),
                // A flat cloud (a polygon hull) and tiny clouds (a point, a segment, a triangle).
                1 => prop::collection::vec([-3.0f64..3.0, -3.0f64..3.0], 3..12).prop_map(|xy| {
                    Spec::Convex { points: xy.iter().map(|p| V::new(p[0], p[1], 0.5)).collect() }
                }),
                1 => prop::collection::vec(point(), 1..4).prop_map(|points| Spec::Convex { points }),
            ]
            .boxed(),
            "round" => (
                prop::sample::select(&super::KINDS[..8]).prop_flat_map(spec),
                length(),
            )
                .prop_map(|(inner, border_radius)| Spec::Round {
                    inner: Box::new(inner),
                    border_radius,
                })
                .boxed(),
            other => panic!("unknown shape kind {other}"),
        }
    }

    /// `n` shapes of type `kind`, drawn deterministically (for the seeded, non-proptest tests).
    pub fn sample(kind: &str, n: usize) -> Vec<Spec> {
        let mut runner = TestRunner::deterministic();
        let strategy = spec(kind);
        (0..n)
            .map(|_| {
                strategy
                    .new_tree(&mut runner)
                    .expect("the spec strategies never reject")
                    .current()
            })
            .collect()
    }
}
