//! How deep a point lies inside a shape: a certified lower bound on its distance to the shape's
//! boundary, from the shape's closed form.
//!
//! What it is for: a point `x` of shape B that lies inside shape A at depth `h` (the ball of
//! radius `h` about `x` within A) bounds the pair's penetration from below — a translation of B
//! that separates the two carries `x` out of A, by at least `h` — so the signed distance is at
//! most `−h`: an *upper* bound on a penetrating pair's distance, which support queries (lower
//! bounds, each direction's gap) never give. The pipeline's verified `Still` reads it.
//!
//! # Derivation
//! The shape is its core grown by its radius ([`Shape::core`]). For the core, `σ(x)` is a
//! number with one of two meanings:
//! * `σ ≥ 0`: the ball of radius `σ` about `x` lies in the core;
//! * `σ < 0`: `x` lies within `−σ` of the core (`−∞`: nothing is known).
//!
//! Either way the ball of radius `σ + r` about `x` lies in the shape (where `σ + r > 0`): for
//! `σ ≥ 0` the core's ball grown by `r`; for `σ < 0` the ball of radius `r` about the core's
//! point `y` within `−σ` of `x` contains it (`|x − y| + σ + r ≤ r`). Per core:
//! * a point or a segment (a ball's and a capsule's cores): `σ = −|x − y|`, `y` the core's
//!   point nearest `x` — exact; a triangle likewise (the signed-volume projection);
//! * a solid given by faces (a box, a hull): the depth below each face's plane, the least of
//!   them; a hull's planes are its triangles' (the exact triangulation of its surface: every
//!   triangle is a piece of the boundary, so the distance to the boundary is the least distance
//!   to a triangle, at least the distance to its plane);
//! * a cylinder: the least of `r − |x_xz|` (the side) and `h − |x_y|` (the caps);
//! * a cone (apex `(0, h, 0)`, base disc of radius `r` at `y = −h`): the least of `x_y + h` (the
//!   base) and the distance to the slant line in `x`'s meridian half-plane, `(r (h − x_y) −
//!   2 h ρ) / √(r² + 4 h²)`, `ρ = |x_xz|` — a point of the slant surface at another azimuth
//!   is further (`ρ² + ρ'² − 2 ρ ρ' cos φ ≥ (ρ − ρ')²`).
//!
//! A solid's negative depth (outside a face) says how far `x` is beyond that face's plane, not
//! how far from the core: it claims nothing (`−∞`). Every term is rounded down by `8 ε` of the
//! magnitudes it is computed from (a few roundings each); a hull triangle's plane distance by
//! `16 ε (1 + |e₁| |e₂| / |e₁ × e₂|) |v₀ − x|`, which grows without bound on a sliver triangle,
//! whose plane is rounding — such a term claims nothing.

use nphase_math::{Point, Real, Vector, closest_point_to_origin, segment_distance2};
use num_traits::Float;

use crate::shape::{Core, Shape};
use crate::{Cone, ConvexPolyhedron, Cuboid, Cylinder};

impl<T: Real> Shape<T> {
    /// A certified lower bound on how deep `x` (the shape's local frame) lies inside the shape:
    /// the ball of that radius about `x` is within the shape, rounding included. Zero or less
    /// claims nothing (`x` outside or on the boundary, a flat shape, or the depth lost to
    /// rounding, or a point that is not finite). The module doc derives each shape's closed
    /// form.
    pub fn interior_depth(&self, x: &Point<T>) -> T {
        let (core, radius) = self.core();
        core.interior_depth_within(x, &Vector::zeros()) + radius
    }
}

impl<T: Real> Core<'_, T> {
    /// The core's `σ` of the module doc for every point within `err` of `x` (`err ≥ 0`, a bound
    /// on each coordinate's error, the core's frame): `σ(x)` lowered by how far that error can
    /// carry `x` toward the term that is least. Each term is a distance, which moves by at most
    /// as much as the point does along it: a box's faces by their axis's error, a cylinder's side
    /// by the error across its axis and its caps by the error along it, any other core's terms
    /// by `|err|`. The shape's depth is this plus its radius, as for
    /// [`Shape::interior_depth`] (which is this with no error); a point whose computed
    /// coordinates carry a transform's rounding is certified for where it truly lies.
    pub fn interior_depth_within(&self, x: &Point<T>, err: &Vector<T>) -> T {
        // `Float::min` passes over NaN: a NaN term would be no term.
        if !x.coords.iter().chain(err.iter()).all(|c| c.is_finite()) {
            return T::neg_infinity();
        }
        core_depth(self, x, err)
    }
}

/// A solid's `σ`: a negative depth below its faces claims nothing (the module doc).
fn beyond<T: Real>(sigma: T) -> T {
    if sigma >= T::zero() {
        sigma
    } else {
        T::neg_infinity()
    }
}

/// `σ` of the module doc for `core`, rounded down, for every point within `err` of `x`
/// ([`Core::interior_depth_within`]).
fn core_depth<T: Real>(core: &Core<'_, T>, x: &Point<T>, err: &Vector<T>) -> T {
    // A box's and a cylinder's terms move by their axes' errors; any other core's by `|err|`.
    let spread = || err.norm();
    match core {
        Core::Point => {
            let d = x.coords.norm();
            -d - down(d) - spread()
        }
        Core::Segment(s) => {
            let d = Float::sqrt(segment_distance2(&s.a(), &s.b(), x));
            -d - down(d + s.a().coords.norm() + s.b().coords.norm() + x.coords.norm()) - spread()
        }
        Core::Triangle(t) => {
            let [a, b, c] = t.vertices();
            let d = closest_point_to_origin(&[a - x, b - x, c - x]).point.norm();
            let size = a.coords.norm() + b.coords.norm() + c.coords.norm() + x.coords.norm();
            -d - down(size) - spread()
        }
        Core::Cuboid(c) => beyond(cuboid_depth(c, x, err)),
        Core::Cylinder(c) => beyond(cylinder_depth(c, x, err)),
        Core::Cone(c) => beyond(cone_depth(c, x)) - spread(),
        Core::Convex(h) => beyond(hull_depth(h, x)) - spread(),
    }
}

/// `8 ε` of `magnitude`: a few roundings of a term computed from quantities of that size.
fn down<T: Real>(magnitude: T) -> T {
    T::lit(8.0) * T::TOLERANCES.epsilon * magnitude
}

/// `err`: each coordinate's error bound ([`Core::interior_depth_within`]; zero for an exact `x`).
fn cuboid_depth<T: Real>(c: &Cuboid<T>, x: &Point<T>, err: &Vector<T>) -> T {
    let he = c.half_extents();
    (0..3)
        .map(|k| {
            let (h, a) = (he[k], Float::abs(x[k]));
            h - a - down(h + a) - err[k]
        })
        .fold(T::infinity(), Float::min)
}

/// `err` as for [`cuboid_depth`].
fn cylinder_depth<T: Real>(c: &Cylinder<T>, x: &Point<T>, err: &Vector<T>) -> T {
    let (h, r) = (c.half_height(), c.radius());
    let rho = Float::hypot(x.x, x.z);
    let y = Float::abs(x.y);
    Float::min(
        r - rho - down(r + rho) - Float::hypot(err.x, err.z),
        h - y - down(h + y) - err.y,
    )
}

fn cone_depth<T: Real>(c: &Cone<T>, x: &Point<T>) -> T {
    let (h, r) = (c.half_height(), c.radius());
    let slant = Float::hypot(r, h + h);
    if !(slant > T::zero()) {
        return T::neg_infinity();
    }
    let rho = Float::hypot(x.x, x.z);
    let base = x.y + h - down(h + Float::abs(x.y));
    // `r / slant ≤ 1` and `2 h / slant ≤ 1`: the quotient's terms are at most `h + |x_y|` and `ρ`.
    let side = (r * (h - x.y) - (h + h) * rho) / slant - down(h + Float::abs(x.y) + rho);
    Float::min(base, side)
}

fn hull_depth<T: Real>(hull: &ConvexPolyhedron<T>, x: &Point<T>) -> T {
    if hull.dimension() < 3 {
        return T::neg_infinity();
    }
    let v = hull.vertices();
    hull.triangles()
        .iter()
        .map(|&[i, j, k]| {
            let v0 = v[i as usize];
            let (e1, e2) = (v[j as usize] - v0, v[k as usize] - v0);
            let n = e1.cross(&e2);
            let area2 = n.norm();
            let to = v0 - x;
            let reach = to.norm();
            let spread = e1.norm() * e2.norm();
            if !(area2 > T::zero()) {
                return T::neg_infinity();
            }
            n.dot(&to) / area2 - T::lit(2.0) * down(reach + spread / area2 * reach)
        })
        .fold(T::infinity(), Float::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ball, Capsule, Segment, SupportMap, Triangle};
    use nphase_math::Vector;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    fn p(x: f64, y: f64, z: f64) -> Point<f64> {
        Point::new(x, y, z)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12
    }

    #[test]
    fn closed_forms_at_known_points() {
        let ball = Shape::Ball(Ball::new(0.5).expect("valid"));
        assert!(close(ball.interior_depth(&p(0.1, 0.0, 0.0)), 0.4));
        let capsule = Shape::Capsule(Capsule::new(1.0, 0.5).expect("valid"));
        assert!(close(
            capsule.interior_depth(&p(0.2, 1.3, 0.0)),
            0.5 - 0.2f64.hypot(0.3)
        ));
        assert!(close(capsule.interior_depth(&p(0.0, -0.4, 0.3)), 0.2));
        let cuboid = Shape::Cuboid(Cuboid::new(Vector::new(1.0, 2.0, 3.0)).expect("valid"));
        assert!(close(cuboid.interior_depth(&p(0.5, -1.9, 0.0)), 0.1));
        let cylinder = Shape::Cylinder(Cylinder::new(1.0, 0.5).expect("valid"));
        assert!(close(cylinder.interior_depth(&p(0.3, 0.0, 0.0)), 0.2));
        assert!(close(cylinder.interior_depth(&p(0.0, -0.95, 0.1)), 0.05));
        // Apex (0, 1, 0), base radius 1 at y = −1: the slant line x = (1 − y) / 2, at distance
        // `(1 − y − 2 ρ) / √5` from a point at height y and radius ρ.
        let cone = Shape::Cone(Cone::new(1.0, 1.0).expect("valid"));
        assert!(close(
            cone.interior_depth(&p(0.0, 0.0, 0.0)),
            1.0 / 5f64.sqrt()
        ));
        assert!(close(cone.interior_depth(&p(0.0, -0.9, 0.1)), 0.1));
        let rounded = Shape::round(cuboid.clone(), 0.25).expect("valid");
        assert!(close(rounded.interior_depth(&p(0.5, -1.9, 0.0)), 0.35));
        let corners: Vec<_> = (0..8)
            .map(|k| {
                p(
                    f64::from(k & 1) * 2.0 - 1.0,
                    f64::from((k >> 1) & 1) * 4.0 - 2.0,
                    f64::from(k >> 2) * 6.0 - 3.0,
                )
            })
            .collect();
        let hull = Shape::convex(&corners).expect("valid");
        assert!(close(hull.interior_depth(&p(0.5, -1.9, 0.0)), 0.1));
        let segment =
            Shape::Segment(Segment::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0)).expect("valid"));
        let thick = Shape::round(segment.clone(), 0.5).expect("valid");
        assert!(close(thick.interior_depth(&p(1.3, 0.0, 0.0)), 0.2));
        let triangle = Shape::Triangle(
            Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)).expect("valid"),
        );
        let plate = Shape::round(triangle.clone(), 0.5).expect("valid");
        assert!(close(plate.interior_depth(&p(0.2, 0.2, 0.3)), 0.2));
    }

    #[test]
    fn outside_and_flat_claim_nothing() {
        let cuboid = Shape::Cuboid(Cuboid::new(Vector::new(1.0, 1.0, 1.0)).expect("valid"));
        for x in [p(1.5, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, -1.0, 0.5)] {
            assert!(cuboid.interior_depth(&x) <= 0.0);
        }
        let cone = Shape::Cone(Cone::new(1.0, 1.0).expect("valid"));
        assert!(cone.interior_depth(&p(0.6, 0.0, 0.0)) <= 0.0);
        assert!(cone.interior_depth(&p(0.0, -1.2, 0.0)) <= 0.0);
        let segment =
            Shape::Segment(Segment::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0)).expect("valid"));
        assert!(segment.interior_depth(&p(0.5, 0.0, 0.0)) <= 0.0);
        for x in [p(f64::NAN, 0.0, 0.0), p(0.0, f64::INFINITY, 0.0)] {
            assert!(cuboid.interior_depth(&x) < 0.0);
            assert!(Shape::Ball(Ball::new(1.0).expect("valid")).interior_depth(&x) < 0.0);
        }
        let flat =
            Shape::convex(&[p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)]).expect("valid");
        assert!(flat.interior_depth(&p(0.2, 0.2, 0.0)) <= 0.0);
    }

    /// The ball of the reported depth about `x` is in the shape: every direction's support
    /// plane is at least that far beyond `x` (the condition is also sufficient, over all
    /// directions), for random shapes of every kind, in f64 and f32.
    #[test]
    fn the_reported_ball_is_inside_every_support_plane() {
        fn check<T: Real>(seed: u64, slack: f64) {
            let mut rng = Pcg64::seed_from_u64(seed);
            let mut claimed = 0;
            for case in 0..3000 {
                let shape = random_shape::<T>(&mut rng, case % 9);
                let x = Point::new(
                    T::lit(rng.random_range(-0.5..0.5)),
                    T::lit(rng.random_range(-0.5..0.5)),
                    T::lit(rng.random_range(-0.5..0.5)),
                );
                let depth = shape.interior_depth(&x);
                assert!(!depth.is_nan(), "case {case}");
                if depth <= T::zero() {
                    continue;
                }
                claimed += 1;
                for _ in 0..200 {
                    let u = Vector::new(
                        T::lit(rng.random_range(-1.0..1.0)),
                        T::lit(rng.random_range(-1.0..1.0)),
                        T::lit(rng.random_range(-1.0..1.0)),
                    );
                    let Some(u) = nphase_math::normalize_robust(&u) else {
                        continue;
                    };
                    let s = shape.local_support_point(&u);
                    let beyond = (s - x).dot(&u);
                    assert!(
                        beyond >= depth - T::lit(slack),
                        "case {case}: {shape:?} at {x:?}: depth {depth:?}, plane {beyond:?}"
                    );
                }
            }
            assert!(claimed > 1500, "{claimed}");
        }
        check::<f64>(1, 1e-13);
        check::<f32>(2, 2e-6);
    }

    /// The depth within an error box holds for every point of the box (its corners included):
    /// the ball it reports about each lies inside every support plane; with no error it is
    /// [`Shape::interior_depth`], bit for bit.
    #[test]
    fn the_depth_within_an_error_holds_across_the_error_box() {
        fn check<T: Real>(seed: u64, slack: f64) {
            let mut rng = Pcg64::seed_from_u64(seed);
            let mut claimed = 0;
            for case in 0..2000 {
                let shape = random_shape::<T>(&mut rng, case % 9);
                let (core, radius) = shape.core();
                let coordinate =
                    |rng: &mut Pcg64, scale: f64| T::lit(rng.random_range(-scale..scale));
                let mut draw = |scale: f64| {
                    Vector::new(
                        coordinate(&mut rng, scale),
                        coordinate(&mut rng, scale),
                        coordinate(&mut rng, scale),
                    )
                };
                let x = Point::from(draw(0.5));
                let err = draw(0.05).abs();
                let exact = core.interior_depth_within(&x, &Vector::zeros()) + radius;
                assert_eq!(
                    exact.as_f64().to_bits(),
                    shape.interior_depth(&x).as_f64().to_bits(),
                    "case {case}"
                );
                let depth = core.interior_depth_within(&x, &err) + radius;
                assert!(!depth.is_nan(), "case {case}");
                if depth <= T::zero() {
                    continue;
                }
                claimed += 1;
                for k in 0..100 {
                    // The box's eight corners first, then points inside it.
                    let signs = Vector::new(k & 1, (k >> 1) & 1, (k >> 2) & 1)
                        .map(|b| if b == 1 { T::one() } else { -T::one() });
                    let shift = if k < 8 {
                        Vector::repeat(T::one())
                    } else {
                        draw(1.0).abs()
                    };
                    let y = x + err.component_mul(&signs).component_mul(&shift);
                    let u = draw(1.0);
                    let Some(u) = nphase_math::normalize_robust(&u) else {
                        continue;
                    };
                    let beyond = (shape.local_support_point(&u) - y).dot(&u);
                    assert!(
                        beyond >= depth - T::lit(slack),
                        "case {case}: {shape:?} at {y:?}: depth {depth:?}, plane {beyond:?}"
                    );
                }
            }
            assert!(claimed > 500, "{claimed}");
        }
        check::<f64>(3, 1e-13);
        check::<f32>(4, 2e-6);
    }

    fn random_shape<T: Real>(rng: &mut Pcg64, kind: usize) -> Shape<T> {
        let mut s = || T::lit(rng.random_range(0.2..1.0));
        match kind {
            0 => Shape::Ball(Ball::new(s()).expect("valid")),
            1 => Shape::Cuboid(Cuboid::new(Vector::new(s(), s(), s())).expect("valid")),
            2 => Shape::Capsule(Capsule::new(s(), s()).expect("valid")),
            3 => Shape::Cylinder(Cylinder::new(s(), s()).expect("valid")),
            4 => Shape::Cone(Cone::new(s(), s()).expect("valid")),
            5 | 6 => {
                let points: Vec<_> = (0..12)
                    .map(|_| Point::new(s() - T::lit(0.6), s() - T::lit(0.6), s() - T::lit(0.6)))
                    .collect();
                let hull = Shape::convex(&points).expect("valid");
                if kind == 6 {
                    Shape::round(hull, s() * T::lit(0.3)).expect("valid")
                } else {
                    hull
                }
            }
            7 => {
                let inner = Shape::Cylinder(Cylinder::new(s(), s()).expect("valid"));
                Shape::round(inner, s() * T::lit(0.2)).expect("valid")
            }
            _ => {
                let (a, b, c) = (
                    Point::new(s(), T::zero(), s()),
                    Point::new(-s(), s(), T::zero()),
                    Point::new(T::zero(), -s(), -s()),
                );
                let inner = Shape::Triangle(Triangle::new(a, b, c).expect("valid"));
                Shape::round(inner, s()).expect("valid")
            }
        }
    }
}
