//! The `Shape` enum the pipeline dispatches on, and the core + radius decomposition.

use std::sync::Arc;

use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use num_traits::Float;

use crate::{
    Aabb, Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, FeatureId, FeatureMap, Round,
    Segment, ShapeError, SupportFeature, SupportMap, SupportVertex, Triangle, VertexId,
};

/// Any nphase shape. Cheap to clone: the convex polyhedron and rounded shapes are shared
/// behind an `Arc`.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape<T: Real> {
    /// A ball.
    Ball(Ball<T>),
    /// A box.
    Cuboid(Cuboid<T>),
    /// A capsule along y.
    Capsule(Capsule<T>),
    /// A cylinder along y.
    Cylinder(Cylinder<T>),
    /// A cone along y, apex up.
    Cone(Cone<T>),
    /// A segment.
    Segment(Segment<T>),
    /// A triangle.
    Triangle(Triangle<T>),
    /// The convex hull of a point cloud.
    Convex(Arc<ConvexPolyhedron<T>>),
    /// Another shape grown by a border radius.
    Round(Arc<Round<Shape<T>, T>>),
}

/// The type of a [`Shape`], for dispatch tables, statistics and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// [`Shape::Ball`].
    Ball,
    /// [`Shape::Cuboid`].
    Cuboid,
    /// [`Shape::Capsule`].
    Capsule,
    /// [`Shape::Cylinder`].
    Cylinder,
    /// [`Shape::Cone`].
    Cone,
    /// [`Shape::Segment`].
    Segment,
    /// [`Shape::Triangle`].
    Triangle,
    /// [`Shape::Convex`].
    Convex,
    /// [`Shape::Round`].
    Round,
}

impl ShapeKind {
    /// The name used in scene files (`"ball"`, `"cuboid"`, …).
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Ball => "ball",
            ShapeKind::Cuboid => "cuboid",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Cylinder => "cylinder",
            ShapeKind::Cone => "cone",
            ShapeKind::Segment => "segment",
            ShapeKind::Triangle => "triangle",
            ShapeKind::Convex => "convex",
            ShapeKind::Round => "round",
        }
    }
}

/// The core of a shape: the shape with its rounding radius taken off (see [`Shape::core`]).
/// GJK and EPA run on cores, and the radius is added back to their answer, which makes balls,
/// capsules and rounded shapes exact instead of approximated by their curved support function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Core<'a, T: Real> {
    /// The local origin (the core of a ball).
    Point,
    /// A segment (the core of a capsule).
    Segment(Segment<T>),
    /// A box.
    Cuboid(Cuboid<T>),
    /// A cylinder.
    Cylinder(Cylinder<T>),
    /// A cone.
    Cone(Cone<T>),
    /// A triangle.
    Triangle(Triangle<T>),
    /// A convex polyhedron.
    Convex(&'a ConvexPolyhedron<T>),
}

impl<T: Real> Shape<T> {
    /// Its type.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Ball(_) => ShapeKind::Ball,
            Shape::Cuboid(_) => ShapeKind::Cuboid,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Cylinder(_) => ShapeKind::Cylinder,
            Shape::Cone(_) => ShapeKind::Cone,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Triangle(_) => ShapeKind::Triangle,
            Shape::Convex(_) => ShapeKind::Convex,
            Shape::Round(_) => ShapeKind::Round,
        }
    }

    /// The convex hull of `points` (see [`ConvexPolyhedron::from_points`]).
    pub fn convex(points: &[Point<T>]) -> Result<Self, ShapeError> {
        Ok(Shape::Convex(Arc::new(ConvexPolyhedron::from_points(
            points,
        )?)))
    }

    /// `inner` grown by `border_radius` (finite, ≥ 0).
    pub fn round(inner: Shape<T>, border_radius: T) -> Result<Self, ShapeError> {
        Ok(Shape::Round(Arc::new(Round::new(inner, border_radius)?)))
    }

    /// Refuses a shape that is a single point: a ball of radius 0, a box, capsule, cylinder or
    /// cone whose sizes are all 0, a segment whose ends coincide, a triangle whose vertices all
    /// coincide, a hull of identical points, or a rounded one of these with a border radius of
    /// 0.
    ///
    /// The constructors accept these (zero sizes are valid degenerate geometry, and every query
    /// answers them); this check is for inputs where a point-sized shape can only be a mistake,
    /// such as scene files. Flat and thin shapes (a box with one zero half-extent, a capsule of
    /// radius 0) have an extent and pass.
    ///
    /// ```
    /// use nphase_shapes::{Ball, Shape, ShapeError};
    ///
    /// let point = Shape::Ball(Ball::new(0.0).expect("a zero radius is valid"));
    /// assert!(matches!(point.require_extent(), Err(ShapeError::ZeroSize { shape: "ball", .. })));
    /// assert!(Shape::Ball(Ball::new(0.5).expect("valid")).require_extent().is_ok());
    /// ```
    pub fn require_extent(&self) -> Result<(), ShapeError> {
        let zero = |x: T| x == T::zero();
        let refuse =
            |shape: &'static str, rule: &'static str| Err(ShapeError::ZeroSize { shape, rule });
        match self {
            Shape::Ball(b) if zero(b.radius()) => refuse(
                "ball",
                "`radius` must be positive (a ball of radius 0 is a point)",
            ),
            Shape::Cuboid(c) if c.half_extents().iter().all(|x| zero(*x)) => refuse(
                "cuboid",
                "`half_extents` must not all be 0 (the box would be a point)",
            ),
            Shape::Capsule(c) if zero(c.half_height()) && zero(c.radius()) => refuse(
                "capsule",
                "`half_height` and `radius` must not both be 0 (the capsule would be a point)",
            ),
            Shape::Cylinder(c) if zero(c.half_height()) && zero(c.radius()) => refuse(
                "cylinder",
                "`half_height` and `radius` must not both be 0 (the cylinder would be a point)",
            ),
            Shape::Cone(c) if zero(c.half_height()) && zero(c.radius()) => refuse(
                "cone",
                "`half_height` and `radius` must not both be 0 (the cone would be a point)",
            ),
            Shape::Segment(s) if s.a() == s.b() => refuse(
                "segment",
                "`a` and `b` must differ (the segment would be a point)",
            ),
            Shape::Triangle(t) if t.a() == t.b() && t.b() == t.c() => refuse(
                "triangle",
                "`a`, `b` and `c` must not all coincide (the triangle would be a point)",
            ),
            Shape::Convex(c) if c.dimension() == 0 => refuse(
                "convex",
                "`points` must not all coincide (the hull would be a point)",
            ),
            Shape::Round(r) if zero(r.border_radius()) => r.inner().require_extent(),
            _ => Ok(()),
        }
    }

    /// The core + radius decomposition: the shape is exactly the set of points within `radius`
    /// of `core` (both in the shape's local frame). A ball is a point with its radius, a capsule
    /// its segment with its radius, a rounded shape its inner shape's core with the radii added;
    /// every other shape is its own core with radius zero.
    pub fn core(&self) -> (Core<'_, T>, T) {
        match self {
            Shape::Ball(b) => (Core::Point, b.radius()),
            Shape::Cuboid(c) => (Core::Cuboid(*c), T::zero()),
            Shape::Capsule(c) => (Core::Segment(c.segment()), c.radius()),
            Shape::Cylinder(c) => (Core::Cylinder(*c), T::zero()),
            Shape::Cone(c) => (Core::Cone(*c), T::zero()),
            Shape::Segment(s) => (Core::Segment(*s), T::zero()),
            Shape::Triangle(t) => (Core::Triangle(*t), T::zero()),
            Shape::Convex(c) => (Core::Convex(c), T::zero()),
            Shape::Round(r) => {
                let (core, radius) = r.inner().core();
                (core, radius + r.border_radius())
            }
        }
    }

    /// The bounding box in the shape's local frame (a few lookups, no support queries).
    pub fn local_aabb(&self) -> Aabb<T> {
        let (core, radius) = self.core();
        core.local_aabb().loosened(radius)
    }

    /// An upper bound on the distance of a point of the shape (its surface included) from its
    /// origin: the far corner of its local bounding box (the reach that bounds how far a turn
    /// about the origin moves the shape's points).
    pub fn bounding_radius(&self) -> T {
        let aabb = self.local_aabb();
        aabb.center().coords.norm() + aabb.half_diagonal()
    }

    /// The tight world bounding box of the shape placed at `pose` (local → world).
    pub fn aabb(&self, pose: &Isometry<T>) -> Aabb<T> {
        let (core, radius) = self.core();
        core.aabb(pose).loosened(radius)
    }
}

impl<T: Real> Core<'_, T> {
    /// The bounding box of the core in its local frame; for a convex polyhedron from its
    /// extreme vertices, without support queries.
    pub fn local_aabb(&self) -> Aabb<T> {
        let centred = |half: Vector<T>| Aabb::new(Point::from(-half), Point::from(half));
        match self {
            Core::Point => centred(Vector::zeros()),
            Core::Cuboid(c) => centred(c.half_extents()),
            Core::Cylinder(c) => centred(Vector::new(c.radius(), c.half_height(), c.radius())),
            Core::Cone(c) => centred(Vector::new(c.radius(), c.half_height(), c.radius())),
            Core::Convex(c) => c.local_aabb(),
            Core::Segment(s) => Aabb::new(s.a().inf(&s.b()), s.a().sup(&s.b())),
            Core::Triangle(t) => {
                let [a, b, c] = t.vertices();
                Aabb::new(a.inf(b).inf(c), a.sup(b).sup(c))
            }
        }
    }

    /// The tight world bounding box of the core placed at `pose`.
    pub fn aabb(&self, pose: &Isometry<T>) -> Aabb<T> {
        let center = Point::from(pose.translation.vector);
        match self {
            Core::Point => Aabb::new(center, center),
            Core::Segment(s) => {
                let ends = [pose * s.a(), pose * s.b()];
                Aabb::new(ends[0].inf(&ends[1]), ends[0].sup(&ends[1]))
            }
            Core::Triangle(t) => {
                let v = t.vertices().map(|p| pose * p);
                Aabb::new(v[0].inf(&v[1]).inf(&v[2]), v[0].sup(&v[1]).sup(&v[2]))
            }
            Core::Cuboid(c) => {
                let half = pose.rotation.to_rotation_matrix().matrix().abs() * c.half_extents();
                Aabb::new(center - half, center + half)
            }
            Core::Cylinder(c) => {
                // Each world axis sees the axis segment (±h·a_i) plus the disc's extent
                // r·√(1 − a_i²), where a is the world direction of the local y axis.
                let axis = pose.rotation * Vector::y();
                let half = axis.abs() * c.half_height() + disc_extent(&axis, c.radius());
                Aabb::new(center - half, center + half)
            }
            Core::Cone(c) => {
                let axis = pose.rotation * Vector::y();
                let apex = center + axis * c.half_height();
                let base = center - axis * c.half_height();
                let disc = disc_extent(&axis, c.radius());
                Aabb::new(apex.inf(&(base - disc)), apex.sup(&(base + disc)))
            }
            Core::Convex(_) => {
                // Six support queries along the world axes, expressed in the local frame.
                let mut mins = center;
                let mut maxs = center;
                for i in 0..3 {
                    let local_axis = pose
                        .rotation
                        .inverse_transform_vector(&Vector::ith(i, T::one()));
                    maxs[i] += self
                        .local_support_point(&local_axis)
                        .coords
                        .dot(&local_axis);
                    mins[i] -= self
                        .local_support_point(&-local_axis)
                        .coords
                        .dot(&-local_axis);
                }
                Aabb::new(mins, maxs)
            }
        }
    }
}

/// Half-extent along each world axis of a disc of `radius` whose unit normal is `axis`.
fn disc_extent<T: Real>(axis: &Vector<T>, radius: T) -> Vector<T> {
    axis.map(|a| radius * Float::sqrt(Float::max(T::one() - a * a, T::zero())))
}

impl<T: Real> SupportMap<T> for Core<'_, T> {
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        match self {
            Core::Point => Point::origin(),
            Core::Segment(s) => s.local_support_point(dir),
            Core::Cuboid(c) => c.local_support_point(dir),
            Core::Cylinder(c) => c.local_support_point(dir),
            Core::Cone(c) => c.local_support_point(dir),
            Core::Triangle(t) => t.local_support_point(dir),
            Core::Convex(c) => c.local_support_point(dir),
        }
    }

    fn local_support_vertex(&self, dir: &Vector<T>, hint: VertexId) -> SupportVertex<T> {
        match self {
            Core::Point => SupportVertex {
                point: Point::origin(),
                id: VertexId(0),
            },
            Core::Segment(s) => s.local_support_vertex(dir, hint),
            Core::Cuboid(c) => c.local_support_vertex(dir, hint),
            Core::Cylinder(c) => c.local_support_vertex(dir, hint),
            Core::Cone(c) => c.local_support_vertex(dir, hint),
            Core::Triangle(t) => t.local_support_vertex(dir, hint),
            Core::Convex(c) => c.local_support_vertex(dir, hint),
        }
    }

    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        match self {
            Core::Point => (id.0 == 0).then(Point::origin),
            Core::Segment(s) => s.local_vertex(id),
            Core::Cuboid(c) => c.local_vertex(id),
            Core::Cylinder(_) => None,
            Core::Cone(c) => c.local_vertex(id),
            Core::Triangle(t) => t.local_vertex(id),
            Core::Convex(c) => c.local_vertex(id),
        }
    }
}

impl<T: Real> FeatureMap<T> for Core<'_, T> {
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        match self {
            Core::Point => {
                out.reset(FeatureId::Vertex(0), crate::feature::unit_or_y(dir));
                out.push(Point::origin(), 0);
            }
            Core::Segment(s) => s.local_support_feature(dir, out),
            Core::Cuboid(c) => c.local_support_feature(dir, out),
            Core::Cylinder(c) => c.local_support_feature(dir, out),
            Core::Cone(c) => c.local_support_feature(dir, out),
            Core::Triangle(t) => t.local_support_feature(dir, out),
            Core::Convex(c) => c.local_support_feature(dir, out),
        }
    }

    fn local_support_face_normal(
        &self,
        dir: &Vector<T>,
        scratch: &mut SupportFeature<T>,
    ) -> Option<UnitVector<T>> {
        match self {
            Core::Cylinder(c) => c.local_support_face_normal(dir, scratch),
            Core::Cone(c) => c.local_support_face_normal(dir, scratch),
            _ => crate::feature::built_face_normal(self, dir, scratch),
        }
    }
}

impl<T: Real> SupportMap<T> for Shape<T> {
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        match self {
            Shape::Ball(s) => s.local_support_point(dir),
            Shape::Cuboid(s) => s.local_support_point(dir),
            Shape::Capsule(s) => s.local_support_point(dir),
            Shape::Cylinder(s) => s.local_support_point(dir),
            Shape::Cone(s) => s.local_support_point(dir),
            Shape::Segment(s) => s.local_support_point(dir),
            Shape::Triangle(s) => s.local_support_point(dir),
            Shape::Convex(s) => s.local_support_point(dir),
            Shape::Round(s) => s.local_support_point(dir),
        }
    }

    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        match self {
            Shape::Ball(s) => s.local_support_point_toward(dir),
            Shape::Capsule(s) => s.local_support_point_toward(dir),
            Shape::Round(s) => s.local_support_point_toward(dir),
            _ => self.local_support_point(dir.as_ref()),
        }
    }

    fn local_support_vertex(&self, dir: &Vector<T>, hint: VertexId) -> SupportVertex<T> {
        match self {
            Shape::Cuboid(s) => s.local_support_vertex(dir, hint),
            Shape::Cone(s) => s.local_support_vertex(dir, hint),
            Shape::Segment(s) => s.local_support_vertex(dir, hint),
            Shape::Triangle(s) => s.local_support_vertex(dir, hint),
            Shape::Convex(s) => s.local_support_vertex(dir, hint),
            _ => SupportVertex {
                point: self.local_support_point(dir),
                id: VertexId::NONE,
            },
        }
    }

    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        match self {
            Shape::Cuboid(s) => s.local_vertex(id),
            Shape::Cone(s) => s.local_vertex(id),
            Shape::Segment(s) => s.local_vertex(id),
            Shape::Triangle(s) => s.local_vertex(id),
            Shape::Convex(s) => s.local_vertex(id),
            _ => None,
        }
    }
}

impl<T: Real> FeatureMap<T> for Shape<T> {
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        match self {
            Shape::Ball(s) => s.local_support_feature(dir, out),
            Shape::Cuboid(s) => s.local_support_feature(dir, out),
            Shape::Capsule(s) => s.local_support_feature(dir, out),
            Shape::Cylinder(s) => s.local_support_feature(dir, out),
            Shape::Cone(s) => s.local_support_feature(dir, out),
            Shape::Segment(s) => s.local_support_feature(dir, out),
            Shape::Triangle(s) => s.local_support_feature(dir, out),
            Shape::Convex(s) => s.local_support_feature(dir, out),
            Shape::Round(s) => s.local_support_feature(dir, out),
        }
    }

    fn local_support_face_normal(
        &self,
        dir: &Vector<T>,
        scratch: &mut SupportFeature<T>,
    ) -> Option<UnitVector<T>> {
        match self {
            Shape::Cylinder(s) => s.local_support_face_normal(dir, scratch),
            Shape::Cone(s) => s.local_support_face_normal(dir, scratch),
            _ => crate::feature::built_face_normal(self, dir, scratch),
        }
    }

    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        match self {
            Shape::Cuboid(s) => s.local_support_feature_near(dir, previous, out),
            Shape::Capsule(s) => s.local_support_feature_near(dir, previous, out),
            Shape::Cylinder(s) => s.local_support_feature_near(dir, previous, out),
            Shape::Cone(s) => s.local_support_feature_near(dir, previous, out),
            Shape::Segment(s) => s.local_support_feature_near(dir, previous, out),
            Shape::Round(s) => s.local_support_feature_near(dir, previous, out),
            Shape::Convex(s) => s.local_support_feature_near(dir, previous, out),
            _ => self.local_support_feature(dir, out),
        }
    }

    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        match self {
            Shape::Cuboid(s) => s.local_feature_distance(id, p),
            Shape::Capsule(s) => s.local_feature_distance(id, p),
            Shape::Cylinder(s) => s.local_feature_distance(id, p),
            Shape::Cone(s) => s.local_feature_distance(id, p),
            Shape::Segment(s) => s.local_feature_distance(id, p),
            Shape::Triangle(s) => s.local_feature_distance(id, p),
            Shape::Convex(s) => s.local_feature_distance(id, p),
            Shape::Round(s) => s.local_feature_distance(id, p),
            Shape::Ball(_) => None,
        }
    }
}
