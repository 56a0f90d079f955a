//! Shared oracles for the GJK integration tests.
//!
//! Everything here is independent of the crate under test: exact closed-form distances, support
//! values and point-to-shape distances written from scratch in `f64` (Ericson, *Real-Time
//! Collision Detection*, ch. 5), and a checker that certifies a [`ClosestPoints`] against them.
//! The only things taken from the library are the shape constructors (to hand GJK its inputs).
//!
//! A [`Pair`] is the description of a query in `f64`: two [`Body`]s (a core plus a radius) and
//! B's pose in A's frame. [`Pair::through`] rounds every input through the precision under test,
//! so the oracle answers the question GJK was actually asked.

#![allow(dead_code)] // each test file uses a subset of the helpers

use nphase_gjk::{
    ClosestPoints, GjkInput, GjkOptions, GjkOutput, GjkStatus, SimplexCache, closest_points,
    intersection_test,
};
use nphase_math::nalgebra::{Quaternion, Translation3, UnitQuaternion, Vector2, Vector3};
use nphase_math::{Isometry, Point, Real, Vector};
use nphase_shapes::{Cone, Cuboid, Cylinder, Segment, SupportMap, Triangle};
use rand::Rng;

pub type V = Vector3<f64>;
pub type Iso = Isometry<f64>;

/// Whether `T` is `f64` (the tolerances of the design differ by precision).
pub fn is_f64<T: Real>() -> bool {
    T::TOLERANCES.epsilon.as_f64() < 1e-10
}

/// The accuracy the design holds GJK to, relative to `scale`: 1e-9 in f64 (1e-7 where a
/// cylinder or cone takes part: their support maps go through a square root and a normalisation
/// per call, and the curved surface makes GJK converge linearly), 1e-4 in f32.
pub fn rel_tol<T: Real>(curved: bool) -> f64 {
    match (is_f64::<T>(), curved) {
        (true, false) => 1e-9,
        (true, true) => 1e-7,
        (false, _) => 1e-4,
    }
}

/// Tolerance on `|normal| − 1`: a normalised vector is unit within a few ulps.
pub fn unit_tol<T: Real>() -> f64 {
    if is_f64::<T>() { 1e-12 } else { 1e-6 }
}

/// The core of a shape, in its local frame, for the oracle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Core {
    /// A point at the local origin (a ball's core).
    Point,
    /// A segment (a capsule's core, or a bare segment).
    Segment(V, V),
    /// A triangle.
    Triangle([V; 3]),
    /// A box centred on the origin with these half-extents.
    Cuboid(V),
    /// Parry's cylinder: axis y.
    Cylinder { half_height: f64, radius: f64 },
    /// Parry's cone: apex at +y, base at −y.
    Cone { half_height: f64, radius: f64 },
}

/// A core plus the radius GJK adds around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    pub core: Core,
    pub radius: f64,
}

impl Body {
    pub fn new(core: Core, radius: f64) -> Self {
        Body { core, radius }
    }

    pub fn bare(core: Core) -> Self {
        Body { core, radius: 0.0 }
    }

    pub fn is_curved(&self) -> bool {
        matches!(self.core, Core::Cylinder { .. } | Core::Cone { .. })
    }

    /// The vertices of a polytopal core (empty for curved cores).
    pub fn vertices(&self) -> Vec<V> {
        match self.core {
            Core::Point => vec![V::zeros()],
            Core::Segment(a, b) => vec![a, b],
            Core::Triangle(t) => t.to_vec(),
            Core::Cuboid(h) => (0..8)
                .map(|i| {
                    let s = |k: u32| if i & (1 << k) != 0 { -1.0 } else { 1.0 };
                    V::new(h.x * s(0), h.y * s(1), h.z * s(2))
                })
                .collect(),
            Core::Cylinder { .. } | Core::Cone { .. } => Vec::new(),
        }
    }

    /// `max_{x ∈ body} x·n` (local frame; `n` need not be unit).
    pub fn support_value(&self, n: &V) -> f64 {
        let core = match self.core {
            Core::Point | Core::Segment(..) | Core::Triangle(_) | Core::Cuboid(_) => self
                .vertices()
                .iter()
                .map(|v| v.dot(n))
                .fold(f64::NEG_INFINITY, f64::max),
            Core::Cylinder {
                half_height,
                radius,
            } => radius * n.x.hypot(n.z) + half_height * n.y.abs(),
            Core::Cone {
                half_height,
                radius,
            } => {
                let apex = half_height * n.y;
                let rim = -half_height * n.y + radius * n.x.hypot(n.z);
                apex.max(rim)
            }
        };
        core + self.radius * n.norm()
    }

    /// Signed distance from the local point `p` to the body's surface (negative inside). Flat
    /// cores (point, segment, triangle) have no inside: their distance is ≥ 0 before the radius
    /// is taken off.
    pub fn signed_distance(&self, p: &V) -> f64 {
        let core = match self.core {
            Core::Point => p.norm(),
            Core::Segment(a, b) => point_segment_distance(p, &a, &b),
            Core::Triangle([a, b, c]) => point_triangle_distance(p, &a, &b, &c),
            Core::Cuboid(h) => point_box_signed_distance(p, &h),
            Core::Cylinder {
                half_height,
                radius,
            } => {
                let q = (p.x.hypot(p.z) - radius, p.y.abs() - half_height);
                let outside = q.0.max(0.0).hypot(q.1.max(0.0));
                outside + q.0.max(q.1).min(0.0)
            }
            Core::Cone {
                half_height,
                radius,
            } => point_cone_signed_distance(p.x.hypot(p.z), p.y, half_height, radius),
        };
        core - self.radius
    }

    /// Half the diagonal of the local bounding box (radius included): the `scale` of the design.
    pub fn half_diagonal(&self) -> f64 {
        let r = V::repeat(self.radius);
        let half = match self.core {
            Core::Cylinder {
                half_height,
                radius,
            }
            | Core::Cone {
                half_height,
                radius,
            } => V::new(radius, half_height, radius),
            _ => {
                let vs = self.vertices();
                let (mut lo, mut hi) = (vs[0], vs[0]);
                for v in &vs {
                    lo = lo.inf(v);
                    hi = hi.sup(v);
                }
                (hi - lo) * 0.5
            }
        };
        (half + r).norm()
    }

    /// The nphase core shape, in precision `T`.
    pub fn build<T: Real>(&self) -> Box<dyn SupportMap<T>> {
        let v = |x: &V| Point::from(to_t::<T>(x));
        let t = T::lit;
        match self.core {
            Core::Point => {
                let o = Point::origin();
                Box::new(Segment::new(o, o).expect("finite"))
            }
            Core::Segment(a, b) => Box::new(Segment::new(v(&a), v(&b)).expect("finite")),
            Core::Triangle([a, b, c]) => {
                Box::new(Triangle::new(v(&a), v(&b), v(&c)).expect("finite"))
            }
            Core::Cuboid(h) => Box::new(Cuboid::new(to_t::<T>(&h)).expect("valid half-extents")),
            Core::Cylinder {
                half_height,
                radius,
            } => Box::new(Cylinder::new(t(half_height), t(radius)).expect("valid cylinder")),
            Core::Cone {
                half_height,
                radius,
            } => Box::new(Cone::new(t(half_height), t(radius)).expect("valid cone")),
        }
    }

    /// This body with every parameter rounded to `T` (and widened back).
    pub fn through<T: Real>(&self) -> Body {
        let r = |x: f64| T::lit(x).as_f64();
        let rv = |x: &V| x.map(r);
        let core = match self.core {
            Core::Point => Core::Point,
            Core::Segment(a, b) => Core::Segment(rv(&a), rv(&b)),
            Core::Triangle(t) => Core::Triangle(t.map(|x| rv(&x))),
            Core::Cuboid(h) => Core::Cuboid(rv(&h)),
            Core::Cylinder {
                half_height,
                radius,
            } => Core::Cylinder {
                half_height: r(half_height),
                radius: r(radius),
            },
            Core::Cone {
                half_height,
                radius,
            } => Core::Cone {
                half_height: r(half_height),
                radius: r(radius),
            },
        };
        Body {
            core,
            radius: r(self.radius),
        }
    }
}

/// A query: body A at the origin of its frame, body B at `pos12`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    pub a: Body,
    pub b: Body,
    pub pos12: Iso,
}

impl Pair {
    pub fn new(a: Body, b: Body, pos12: Iso) -> Self {
        Pair { a, b, pos12 }
    }

    /// The same query seen from B (A at `pos12⁻¹` in B's frame).
    pub fn swapped(&self) -> Pair {
        Pair {
            a: self.b,
            b: self.a,
            pos12: self.pos12.inverse(),
        }
    }

    /// The larger half-diagonal of the two local bounding boxes (the design's `scale`), floored
    /// by the largest distance of a core vertex from its local origin: a zero-length segment off
    /// its origin has an empty box, yet its coordinates carry rounding like any other.
    pub fn scale(&self) -> f64 {
        let reach = |b: &Body| b.vertices().iter().map(|v| v.norm()).fold(0.0, f64::max);
        self.a
            .half_diagonal()
            .max(self.b.half_diagonal())
            .max(reach(&self.a))
            .max(reach(&self.b))
    }

    pub fn is_curved(&self) -> bool {
        self.a.is_curved() || self.b.is_curved()
    }

    /// The separation of the two bodies along the unit axis `n` (A's frame, A → B):
    /// `min_{b∈B} b·n − max_{a∈A} a·n`, a lower bound on their signed distance, equal to it for
    /// the optimal axis.
    pub fn support_gap(&self, n: &V) -> f64 {
        let local = self.pos12.rotation.inverse_transform_vector(n);
        let min_b = -self.b.support_value(&-local) + self.pos12.translation.vector.dot(n);
        min_b - self.a.support_value(n)
    }

    /// Signed distance of A's point `p` (A's frame) to B's surface.
    pub fn b_signed_distance(&self, p: &V) -> f64 {
        self.b
            .signed_distance(&self.pos12.inverse_transform_point(&Point::from(*p)).coords)
    }

    /// B's polytope vertices in A's frame.
    pub fn b_vertices(&self) -> Vec<V> {
        self.b
            .vertices()
            .iter()
            .map(|v| (self.pos12 * Point::from(*v)).coords)
            .collect()
    }

    /// The pair with every input rounded through precision `T`.
    pub fn through<T: Real>(&self) -> Pair {
        Pair {
            a: self.a.through::<T>(),
            b: self.b.through::<T>(),
            pos12: iso_to_f64(&iso_to_t::<T>(&self.pos12)),
        }
    }

    /// Runs `closest_points` in precision `T`.
    pub fn gjk<T: Real>(
        &self,
        options: GjkOptions,
        max_dist: f64,
        cache: &mut SimplexCache<T>,
    ) -> GjkOutput<T> {
        self.gjk_at(&iso_to_t::<T>(&self.pos12), options, max_dist, cache)
    }

    /// Runs `closest_points` in precision `T` with `pos12` given in that precision (for poses
    /// computed in it, e.g. from world poses); `self.pos12` is ignored.
    pub fn gjk_at<T: Real>(
        &self,
        pos12: &Isometry<T>,
        options: GjkOptions,
        max_dist: f64,
        cache: &mut SimplexCache<T>,
    ) -> GjkOutput<T> {
        let (a, b) = (self.a.build::<T>(), self.b.build::<T>());
        let input = GjkInput::new(&*a, &*b, *pos12)
            .with_radii(T::lit(self.a.radius), T::lit(self.b.radius))
            .with_max_dist(T::lit(max_dist))
            .with_options(options);
        closest_points(&input, cache)
    }

    /// Runs `intersection_test` in precision `T` at `pos12` (in that precision).
    pub fn intersects_at<T: Real>(
        &self,
        pos12: &Isometry<T>,
        options: GjkOptions,
        cache: &mut SimplexCache<T>,
    ) -> bool {
        let (a, b) = (self.a.build::<T>(), self.b.build::<T>());
        let input = GjkInput::new(&*a, &*b, *pos12)
            .with_radii(T::lit(self.a.radius), T::lit(self.b.radius))
            .with_options(options);
        intersection_test(&input, cache).intersecting
    }

    /// Runs a cold `intersection_test` in precision `T`.
    pub fn intersects<T: Real>(&self) -> bool {
        let mut cache = SimplexCache::EMPTY;
        self.intersects_at(
            &iso_to_t::<T>(&self.pos12),
            GjkOptions::default(),
            &mut cache,
        )
    }

    /// Runs a cold, plain `closest_points` in precision `T`.
    pub fn gjk_cold<T: Real>(&self) -> GjkOutput<T> {
        let mut cache = SimplexCache::EMPTY;
        self.gjk(GjkOptions::default(), f64::INFINITY, &mut cache)
    }

    /// Certifies a separated result (see the design's accuracy section): the normal is unit, the
    /// witness points lie on the two surfaces, `point2 − point1 = distance·normal`, the bounds
    /// bracket the distance, the support gap along the normal equals the distance (so the normal
    /// is a minimiser and, with the witnesses, the distance is certified from both sides), and
    /// the distance matches `expected` when given. All within `rel · scale`.
    pub fn check<T: Real>(
        &self,
        cp: &ClosestPoints<T>,
        expected: Option<f64>,
        rel: f64,
    ) -> Result<(), String> {
        let tol = rel * self.scale();
        let d = cp.distance.as_f64();
        let n = to_f64(cp.normal.as_ref());
        let p1 = to_f64(&cp.point1.coords);
        let p2 = to_f64(&cp.point2.coords);
        let (lower, upper) = (cp.lower_bound.as_f64(), cp.upper_bound.as_f64());
        let mut errors = Vec::new();
        if (n.norm() - 1.0).abs() > unit_tol::<T>() {
            errors.push(format!("normal not unit: |n| − 1 = {:e}", n.norm() - 1.0));
        }
        if let Some(e) = expected
            && (d - e).abs() > tol
        {
            errors.push(format!(
                "distance {d:e} vs expected {e:e} (error {:e})",
                d - e
            ));
        }
        let s1 = self.a.signed_distance(&p1);
        if s1.abs() > tol {
            errors.push(format!("point1 {p1:?} is {s1:e} off A's surface"));
        }
        let s2 = self.b_signed_distance(&p2);
        if s2.abs() > tol {
            errors.push(format!("point2 {p2:?} is {s2:e} off B's surface"));
        }
        let mismatch = (p2 - p1 - n * d).norm();
        if mismatch > tol {
            errors.push(format!(
                "|point2 − point1 − distance·normal| = {mismatch:e}"
            ));
        }
        if !(lower <= d + tol && d <= upper + tol) {
            errors.push(format!(
                "bounds [{lower:e}, {upper:e}] do not bracket {d:e}"
            ));
        }
        let gap = self.support_gap(&n.normalize());
        if (gap - d).abs() > tol {
            errors.push(format!(
                "support gap along the normal {gap:e} vs distance {d:e}"
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!("{} (tol {tol:e})", errors.join("; ")))
        }
    }
}

pub fn to_t<T: Real>(v: &V) -> Vector<T> {
    v.map(T::lit)
}

pub fn to_f64<T: Real>(v: &Vector<T>) -> V {
    v.map(|x| x.as_f64())
}

pub fn iso_to_t<T: Real>(iso: &Iso) -> Isometry<T> {
    let q = iso.rotation.into_inner().coords.map(T::lit);
    Isometry::from_parts(
        Translation3::from(to_t::<T>(&iso.translation.vector)),
        UnitQuaternion::new_normalize(Quaternion::from(q)),
    )
}

pub fn iso_to_f64<T: Real>(iso: &Isometry<T>) -> Iso {
    let q = iso.rotation.into_inner().coords.map(|x| x.as_f64());
    Iso::from_parts(
        Translation3::from(to_f64(&iso.translation.vector)),
        UnitQuaternion::new_normalize(Quaternion::from(q)),
    )
}

// ---------------------------------------------------------------------------------------------
// Closed-form distances (Ericson, Real-Time Collision Detection, §5.1).

/// Distance from `p` to the segment `[a, b]` (a zero-length segment is a point).
pub fn point_segment_distance(p: &V, a: &V, b: &V) -> f64 {
    let ab = b - a;
    let len2 = ab.norm_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(&ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t - p).norm()
}

/// Distance from `p` to the triangle `abc` (Ericson §5.1.5 by regions; degenerate triangles
/// fall back to their edges).
pub fn point_triangle_distance(p: &V, a: &V, b: &V, c: &V) -> f64 {
    let edges = point_segment_distance(p, a, b)
        .min(point_segment_distance(p, b, c))
        .min(point_segment_distance(p, c, a));
    let (e1, e2) = (b - a, c - a);
    let n = e1.cross(&e2);
    let n2 = n.norm_squared();
    if n2 <= 1e-24 * e1.norm_squared() * e2.norm_squared() {
        return edges;
    }
    let ap = p - a;
    // Barycentric coordinates of p's projection on the plane.
    let u = ap.cross(&e2).dot(&n) / n2;
    let v = e1.cross(&ap).dot(&n) / n2;
    if u >= 0.0 && v >= 0.0 && u + v <= 1.0 {
        (ap.dot(&n) / n2.sqrt()).abs()
    } else {
        edges
    }
}

/// Signed distance from `p` to the box `|x_i| ≤ h_i`.
pub fn point_box_signed_distance(p: &V, h: &V) -> f64 {
    let q = p.abs() - h;
    let outside = q.sup(&V::zeros()).norm();
    outside + q.max().min(0.0)
}

/// Signed distance to parry's cone (apex `(0, h)`, base radius `r` at `y = −h`) of a point at
/// radial distance `rho ≥ 0` and height `y`: the 2D signed distance to the triangle
/// `(0, h), (r, −h), (0, −h)` of the meridian half-plane, whose axis side is no boundary.
pub fn point_cone_signed_distance(rho: f64, y: f64, h: f64, r: f64) -> f64 {
    let q = Vector2::new(rho, y);
    let apex = Vector2::new(0.0, h);
    let rim = Vector2::new(r, -h);
    let base = Vector2::new(0.0, -h);
    let seg = |a: Vector2<f64>, b: Vector2<f64>| {
        let ab = b - a;
        let t = ((q - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
        (a + ab * t - q).norm()
    };
    let boundary = seg(apex, rim).min(seg(rim, base));
    // Inside: above the base and on the axis side of the slant line.
    let slant_side = (rim - apex).perp(&(q - apex)); // ≤ 0 on the axis side
    let inside = y >= -h && slant_side <= 0.0;
    if inside { -boundary } else { boundary }
}

/// Distance between segments `[p1, q1]` and `[p2, q2]`: the smaller of the four
/// endpoint-to-segment distances and the interior stationary point of Ericson §5.1.9 (when it
/// lies inside both segments). Every candidate is a realised pair of points and the true
/// minimum is one of them, so near-parallel and degenerate segments come out right.
pub fn segment_segment_distance(p1: &V, q1: &V, p2: &V, q2: &V) -> f64 {
    let mut best = point_segment_distance(p1, p2, q2)
        .min(point_segment_distance(q1, p2, q2))
        .min(point_segment_distance(p2, p1, q1))
        .min(point_segment_distance(q2, p1, q1));
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let (a, e, b) = (d1.norm_squared(), d2.norm_squared(), d1.dot(&d2));
    let (c, f) = (d1.dot(&r), d2.dot(&r));
    let denom = a * e - b * b;
    if denom > 0.0 {
        let s = (b * f - c * e) / denom;
        let t = (a * f - b * c) / denom;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            best = best.min((p1 + d1 * s - p2 - d2 * t).norm());
        }
    }
    best
}

// ---------------------------------------------------------------------------------------------
// Random inputs.

pub fn uniform(rng: &mut impl Rng, lo: f64, hi: f64) -> f64 {
    rng.random_range(lo..hi)
}

pub fn random_vector(rng: &mut impl Rng, half: f64) -> V {
    V::new(
        rng.random_range(-half..half),
        rng.random_range(-half..half),
        rng.random_range(-half..half),
    )
}

/// A uniformly distributed unit vector.
pub fn random_unit(rng: &mut impl Rng) -> V {
    loop {
        let v = random_vector(rng, 1.0);
        let n2 = v.norm_squared();
        if n2 > 1e-4 && n2 <= 1.0 {
            return v / n2.sqrt();
        }
    }
}

/// A uniformly distributed rotation (normalised Gaussian-free quaternion by rejection).
pub fn random_rotation(rng: &mut impl Rng) -> UnitQuaternion<f64> {
    loop {
        let q = Quaternion::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let n2 = q.norm_squared();
        if n2 > 1e-4 && n2 <= 1.0 {
            return UnitQuaternion::new_normalize(q);
        }
    }
}

pub fn random_pose(rng: &mut impl Rng, half: f64) -> Iso {
    Iso::from_parts(
        Translation3::from(random_vector(rng, half)),
        random_rotation(rng),
    )
}

/// A random polytopal or curved core with sizes in `[lo, hi]`.
pub fn random_cuboid(rng: &mut impl Rng, lo: f64, hi: f64) -> Core {
    Core::Cuboid(V::new(
        uniform(rng, lo, hi),
        uniform(rng, lo, hi),
        uniform(rng, lo, hi),
    ))
}

pub fn random_segment(rng: &mut impl Rng, half: f64) -> Core {
    Core::Segment(random_vector(rng, half), random_vector(rng, half))
}

/// A triangle whose smallest angle is not tiny (degenerate triangles get their own tests).
pub fn random_triangle(rng: &mut impl Rng, half: f64) -> Core {
    loop {
        let t = [
            random_vector(rng, half),
            random_vector(rng, half),
            random_vector(rng, half),
        ];
        let area2 = (t[1] - t[0]).cross(&(t[2] - t[0])).norm();
        let longest = (t[1] - t[0])
            .norm_squared()
            .max((t[2] - t[1]).norm_squared())
            .max((t[0] - t[2]).norm_squared());
        if area2 > 0.05 * longest {
            return Core::Triangle(t);
        }
    }
}

/// A random body of any kind (ball, capsule, cuboid, triangle, cylinder, cone), rounded or not.
pub fn random_any_body(rng: &mut impl Rng) -> Body {
    let r = uniform(rng, 0.05, 0.5);
    match rng.random_range(0..8) {
        0 => Body::new(Core::Point, r),
        1 => {
            let h = uniform(rng, 0.0, 1.0);
            Body::new(Core::Segment(V::new(0.0, -h, 0.0), V::new(0.0, h, 0.0)), r)
        }
        2 => Body::new(random_cuboid(rng, 0.05, 0.8), r),
        3 => Body::bare(random_cuboid(rng, 0.1, 1.0)),
        4 => Body::bare(random_triangle(rng, 1.0)),
        5 => Body::new(random_triangle(rng, 0.8), r),
        6 => Body::bare(Core::Cylinder {
            half_height: uniform(rng, 0.1, 1.0),
            radius: uniform(rng, 0.1, 1.0),
        }),
        _ => Body::bare(Core::Cone {
            half_height: uniform(rng, 0.1, 1.0),
            radius: uniform(rng, 0.1, 1.0),
        }),
    }
}

/// Mean of a slice (0 for an empty one).
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// The largest fraction of a randomized test's cases that may end `Stalled`.
///
/// `Stalled { estimate }` is GJK's honest failure variant: the duality gap stayed open
/// (rounding on nearly parallel features a tiny distance apart, the documented case) and the
/// pipeline hands the simplex to EPA. It is no wrong answer if its estimate is honest, so the
/// tests accept a stall whose bounds bracket the true distance and whose witnesses lie on the
/// surfaces ([`Failures::stall`]) — but only as an exception: more than this fraction of stalls
/// fails the test (GJK at 5ea5f01 stalled on 65% of f32 box–box face contacts 1e-3 apart).
/// The budget is 2% because GJK still stalls on ~1.5% of far-apart pairs with a cylinder or cone
/// at a duality gap ~1e-12, 1e5 times below the design's tolerance (handed over to EPA by the
/// pair query). Each test prints its stall count; `regressions.rs` pins the known cases.
pub const STALL_BUDGET: f64 = 0.02;

/// The stall budget of curved pairs a hair's breadth apart in f64. There GJK's simplex samples
/// a curved rim twice within ~1e-7 (a sliver triangle) and the last lateral improvement is below
/// what `|v|²` resolves: ~12% end `Stalled` with honest bounds. That is the documented hand-over,
/// not a wrong answer: the pair query then runs EPA from the stalled simplex, whose face normals
/// settle the answer (`tests/conformance.rs` holds those pairs to docs/accuracy.md's tolerances).
pub const NEAR_TOUCHING_CURVED_STALL_BUDGET: f64 = 0.15;

/// Collects failures of a randomized test so that one run reports how many cases fail and
/// shows the first few, instead of stopping at the first.
#[derive(Default)]
pub struct Failures {
    pub count: usize,
    pub shown: Vec<String>,
    /// Honest `Stalled` results accepted (see [`STALL_BUDGET`]).
    pub stalls: usize,
}

impl Failures {
    /// Accepts a `Stalled` estimate (counted against [`STALL_BUDGET`]) if it is honest: its
    /// bounds are ordered and bracket `truth` (when known) and its witness points lie on the
    /// surfaces, all within `tol`.
    pub fn stall<T: Real>(
        &mut self,
        estimate: &ClosestPoints<T>,
        rounded: &Pair,
        truth: Option<f64>,
        tol: f64,
        context: impl FnOnce() -> String,
    ) {
        let (d, lower, upper) = (
            estimate.distance.as_f64(),
            estimate.lower_bound.as_f64(),
            estimate.upper_bound.as_f64(),
        );
        let (p1, p2) = (
            to_f64(&estimate.point1.coords),
            to_f64(&estimate.point2.coords),
        );
        let mut problems = Vec::new();
        if !(lower <= d + tol && d <= upper + tol) {
            problems.push(format!(
                "distance {d:e} outside its bounds [{lower:e}, {upper:e}]"
            ));
        }
        if let Some(t) = truth
            && (t < lower - tol || t > upper + tol)
        {
            problems.push(format!("bounds [{lower:e}, {upper:e}] miss the true {t:e}"));
        }
        let (s1, s2) = (
            rounded.a.signed_distance(&p1),
            rounded.b_signed_distance(&p2),
        );
        if s1.abs() > tol || s2.abs() > tol {
            problems.push(format!("witnesses {s1:e}, {s2:e} off the surfaces"));
        }
        if problems.is_empty() {
            self.stalls += 1;
        } else {
            self.push(format!(
                "dishonest Stalled: {}\n    on {}",
                problems.join("; "),
                context()
            ));
        }
    }

    pub fn push(&mut self, message: String) {
        self.count += 1;
        if self.shown.len() < 8 {
            self.shown.push(message);
        }
    }

    pub fn check(&mut self, result: Result<(), String>, context: impl FnOnce() -> String) {
        if let Err(e) = result {
            self.push(format!("{e}\n    on {}", context()));
        }
    }

    /// Panics with the failures, if any, out of `total` cases, or if the stalls exceed
    /// [`STALL_BUDGET`].
    pub fn assert_none(&self, what: &str, total: usize) {
        self.assert_none_within(what, total, STALL_BUDGET);
    }

    /// [`assert_none`](Self::assert_none) with a stall budget of its own.
    pub fn assert_none_within(&self, what: &str, total: usize, budget: f64) {
        if self.stalls > 0 {
            println!(
                "{what}: {} of {total} cases Stalled (honestly)",
                self.stalls
            );
        }
        assert!(
            self.stalls as f64 <= budget * total as f64,
            "{what}: {} of {total} cases Stalled, over the budget of {budget}",
            self.stalls
        );
        assert!(
            self.count == 0,
            "{what}: {} of {total} cases failed; first ones:\n{}",
            self.count,
            self.shown.join("\n")
        );
    }
}

/// The closest points of a `Separated` result, or a description of the status.
pub fn separated<T: Real>(out: &GjkOutput<T>) -> Result<&ClosestPoints<T>, String> {
    match &out.status {
        GjkStatus::Separated(c) => Ok(c),
        other => Err(format!(
            "expected Separated, got {} ({:?})",
            status_name(other),
            out.stats
        )),
    }
}

/// A short name of a status (without its data).
pub fn status_name<T: Real>(status: &GjkStatus<T>) -> String {
    use GjkStatus::*;
    match status {
        Separated(c) => format!("Separated(distance {:e})", c.distance.as_f64()),
        BeyondMaxDist(s) => format!("BeyondMaxDist(lower {:e})", s.lower_bound.as_f64()),
        Intersecting => "Intersecting".to_string(),
        IterationLimit(c) => format!("IterationLimit(distance {:e})", c.distance.as_f64()),
        Stalled { estimate, .. } => format!("Stalled(distance {:e})", estimate.distance.as_f64()),
    }
}
