//! Inputs and checks shared by the fuzz targets: arbitrary shape descriptions and poses, built
//! in either precision, and the invariants every target asserts ("no panic, no NaN, nothing
//! lost": a finite input gives a finite answer, a bad one a typed error).

use arbitrary::{Arbitrary, Unstructured};
use nphase::math::nalgebra::{Quaternion, Translation3};
use nphase::math::{Isometry, Point, Real, Rotation, Vector};
use nphase::shapes::{Ball, Capsule, Cone, Cuboid, Cylinder, Segment, Shape, Triangle};

/// A number as the fuzzer gives it: mostly in a sane range (sizes 1e-4..1e4, coordinates up to
/// 1e6), sometimes special (0, −0, tiny, huge, NaN, ±∞), sometimes any bit pattern.
#[derive(Clone, Copy, Debug)]
pub struct Num(pub f64);

impl<'a> Arbitrary<'a> for Num {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let kind: u8 = u.arbitrary()?;
        Ok(Num(match kind % 16 {
            0 => 0.0,
            1 => -0.0,
            2 => f64::NAN,
            3 => f64::INFINITY,
            4 => f64::NEG_INFINITY,
            5 => f64::from_bits(u.arbitrary()?),
            6 => 1e-300,
            7 => 1e300,
            _ => {
                // A mantissa in [-1, 1) times 10^e with e in [-4, 6].
                let m = f64::from(u.arbitrary::<i16>()?) / 32768.0;
                let e = i32::from(u.int_in_range(0u8..=10)?) - 4;
                m * 10f64.powi(e)
            }
        }))
    }
}

/// A shape description with fuzzed parameters (possibly invalid).
#[derive(Clone, Debug, Arbitrary)]
pub enum ShapeSpec {
    /// `Ball::new(radius)`.
    Ball(Num),
    /// `Cuboid::new(half_extents)`.
    Cuboid([Num; 3]),
    /// `Capsule::new(half_height, radius)`.
    Capsule(Num, Num),
    /// `Cylinder::new(half_height, radius)`.
    Cylinder(Num, Num),
    /// `Cone::new(half_height, radius)`.
    Cone(Num, Num),
    /// `Segment::new(a, b)`.
    Segment([Num; 3], [Num; 3]),
    /// `Triangle::new(a, b, c)`.
    Triangle([Num; 3], [Num; 3], [Num; 3]),
    /// `Shape::convex(points)`.
    Convex(Vec<[Num; 3]>),
    /// `Shape::round(inner, border_radius)`.
    Round(Box<ShapeSpec>, Num),
}

fn point<T: Real>(p: &[Num; 3]) -> Point<T> {
    Point::new(T::lit(p[0].0), T::lit(p[1].0), T::lit(p[2].0))
}

impl ShapeSpec {
    /// Calls the constructor; an error must name a field and be one line.
    pub fn build<T: Real>(&self) -> Option<Shape<T>> {
        let result = match self {
            ShapeSpec::Ball(r) => Ball::new(T::lit(r.0)).map(Shape::Ball),
            ShapeSpec::Cuboid(h) => Cuboid::new(point::<T>(h).coords).map(Shape::Cuboid),
            ShapeSpec::Capsule(h, r) => Capsule::new(T::lit(h.0), T::lit(r.0)).map(Shape::Capsule),
            ShapeSpec::Cylinder(h, r) => {
                Cylinder::new(T::lit(h.0), T::lit(r.0)).map(Shape::Cylinder)
            }
            ShapeSpec::Cone(h, r) => Cone::new(T::lit(h.0), T::lit(r.0)).map(Shape::Cone),
            ShapeSpec::Segment(a, b) => Segment::new(point(a), point(b)).map(Shape::Segment),
            ShapeSpec::Triangle(a, b, c) => {
                Triangle::new(point(a), point(b), point(c)).map(Shape::Triangle)
            }
            ShapeSpec::Convex(points) => {
                let points: Vec<Point<T>> = points.iter().take(64).map(point).collect();
                Shape::convex(&points)
            }
            ShapeSpec::Round(inner, r) => match inner.build::<T>() {
                Some(inner) => Shape::round(inner, T::lit(r.0)),
                None => return None,
            },
        };
        match result {
            Ok(shape) => Some(shape),
            Err(e) => {
                let message = e.to_string();
                assert!(
                    !message.is_empty() && !message.contains('\n'),
                    "{message:?}"
                );
                None
            }
        }
    }
}

/// A pose with fuzzed translation and rotation (a quaternion, normalised when it can be).
#[derive(Clone, Copy, Debug, Arbitrary)]
pub struct PoseSpec {
    /// Translation.
    pub translation: [Num; 3],
    /// Quaternion `[x, y, z, w]`, normalised.
    pub rotation: [Num; 4],
}

impl PoseSpec {
    /// The pose in precision `T` (components may be non-finite).
    pub fn build<T: Real>(&self) -> Isometry<T> {
        let [x, y, z, w] = self.rotation.map(|n| T::lit(n.0));
        let q = Quaternion::new(w, x, y, z);
        // Rescaled by its largest component first: `|q|²` of a quaternion of 1e-23 underflows
        // in f32, and `new_normalize` would make a rotation that is not unit (which no caller
        // can hand nphase: it takes a `UnitQuaternion`).
        let largest = q.coords.amax();
        let rotation = if num_traits::Float::is_finite(largest) && largest > T::zero() {
            Rotation::new_normalize(q / largest)
        } else if q.coords.iter().all(|c| num_traits::Float::is_finite(*c)) {
            Rotation::identity()
        } else {
            // A non-finite quaternion is kept as is (one with a NaN beside finite components
            // normalises to NaN above): the queries must refuse it.
            Rotation::new_unchecked(q)
        };
        Isometry::from_parts(
            Translation3::from(Vector::new(
                T::lit(self.translation[0].0),
                T::lit(self.translation[1].0),
                T::lit(self.translation[2].0),
            )),
            rotation,
        )
    }

    /// Whether every component of the built pose is finite.
    pub fn is_finite<T: Real>(pose: &Isometry<T>) -> bool {
        pose.translation
            .vector
            .iter()
            .chain(pose.rotation.coords.iter())
            .all(|x| num_traits::Float::is_finite(*x))
    }

    /// Whether the built pose's translation is within the precision's input range
    /// (docs/accuracy.md): the queries and the pipeline refuse it otherwise.
    pub fn in_range<T: Real>(pose: &Isometry<T>) -> bool {
        T::RANGE.first_beyond(&pose.translation.vector).is_none()
    }
}

/// Whether every number is finite.
pub fn all_finite<T: Real>(xs: impl IntoIterator<Item = T>) -> bool {
    xs.into_iter().all(num_traits::Float::is_finite)
}

/// The largest magnitude among a shape description's numbers (∞ for a non-finite one): the
/// targets assert finite answers only within the supported range.
pub fn magnitude(spec: &ShapeSpec) -> f64 {
    let m = |n: &Num| {
        if n.0.is_finite() {
            n.0.abs()
        } else {
            f64::INFINITY
        }
    };
    let v = |p: &[Num; 3]| p.iter().map(m).fold(0.0, f64::max);
    match spec {
        ShapeSpec::Ball(r) => m(r),
        ShapeSpec::Cuboid(h) => v(h),
        ShapeSpec::Capsule(a, b) | ShapeSpec::Cylinder(a, b) | ShapeSpec::Cone(a, b) => {
            m(a).max(m(b))
        }
        ShapeSpec::Segment(a, b) => v(a).max(v(b)),
        ShapeSpec::Triangle(a, b, c) => v(a).max(v(b)).max(v(c)),
        ShapeSpec::Convex(points) => points.iter().take(64).map(v).fold(0.0, f64::max),
        ShapeSpec::Round(inner, r) => magnitude(inner).max(m(r)),
    }
}
