//! `serde` for the shapes (feature `serde`).
//!
//! A shape is written as its parameters — `{"radius": 0.5}` for a ball, the hull's vertices for
//! a convex polyhedron — and read back through its constructor, so a file cannot smuggle in a
//! shape the constructors refuse (a negative radius, a NaN): it is an error naming the field,
//! like the constructor's. A hull is rebuilt from its vertices, which gives back the same
//! vertex, edge and face numbering (the hull of its own vertices, in their order), so feature
//! ids and caches saved with it stay valid. [`Shape`] is externally tagged by its kind's name
//! (`{"cuboid": {"half_extents": [0.5, 0.5, 0.5]}}`); [`FeatureId`] derives its serde.

use std::sync::Arc;

use nphase_math::{Point, Real};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{
    Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, Round, Segment, Shape, Triangle,
};

/// A scalar that serde reads and writes (f32, f64).
pub trait SerdeReal: Real + Serialize + DeserializeOwned {}
impl<T: Real + Serialize + DeserializeOwned> SerdeReal for T {}

fn point<T: Real>(p: &Point<T>) -> [T; 3] {
    [p.x, p.y, p.z]
}

fn from_array<T: Real>(a: [T; 3]) -> Point<T> {
    Point::new(a[0], a[1], a[2])
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Radius<T> {
    radius: T,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HalfExtents<T> {
    half_extents: [T; 3],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeightRadius<T> {
    half_height: T,
    radius: T,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ends<T> {
    a: [T; 3],
    b: [T; 3],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Corners<T> {
    a: [T; 3],
    b: [T; 3],
    c: [T; 3],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Points<T> {
    points: Vec<[T; 3]>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "T: SerdeReal")]
struct Rounded<T: Real> {
    inner: Shape<T>,
    border_radius: T,
}

/// Serialize through a representation, deserialize through it and a fallible constructor.
macro_rules! serde_via {
    ($ty:ident, $repr:ident, |$s:ident| $to:expr, |$r:ident| $from:expr) => {
        impl<T: SerdeReal> Serialize for $ty<T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let $s = self;
                $to.serialize(serializer)
            }
        }

        impl<'de, T: SerdeReal> Deserialize<'de> for $ty<T> {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let $r = $repr::<T>::deserialize(deserializer)?;
                $from.map_err(D::Error::custom)
            }
        }
    };
}

serde_via!(Ball, Radius, |s| Radius { radius: s.radius() }, |r| {
    Ball::new(r.radius)
});
serde_via!(
    Cuboid,
    HalfExtents,
    |s| HalfExtents {
        half_extents: s.half_extents().into()
    },
    |r| Cuboid::new(r.half_extents.into())
);
serde_via!(
    Capsule,
    HeightRadius,
    |s| HeightRadius {
        half_height: s.half_height(),
        radius: s.radius()
    },
    |r| Capsule::new(r.half_height, r.radius)
);
serde_via!(
    Cylinder,
    HeightRadius,
    |s| HeightRadius {
        half_height: s.half_height(),
        radius: s.radius()
    },
    |r| Cylinder::new(r.half_height, r.radius)
);
serde_via!(
    Cone,
    HeightRadius,
    |s| HeightRadius {
        half_height: s.half_height(),
        radius: s.radius()
    },
    |r| Cone::new(r.half_height, r.radius)
);
serde_via!(
    Segment,
    Ends,
    |s| Ends {
        a: point(&s.a()),
        b: point(&s.b())
    },
    |r| Segment::new(from_array(r.a), from_array(r.b))
);
serde_via!(
    Triangle,
    Corners,
    |s| {
        let [a, b, c] = s.vertices();
        Corners {
            a: point(a),
            b: point(b),
            c: point(c),
        }
    },
    |r| Triangle::new(from_array(r.a), from_array(r.b), from_array(r.c))
);
serde_via!(
    ConvexPolyhedron,
    Points,
    |s| Points {
        points: s.vertices().iter().map(point).collect()
    },
    |r| {
        let points: Vec<Point<T>> = r.points.into_iter().map(from_array).collect();
        ConvexPolyhedron::from_points(&points)
    }
);

impl<T: SerdeReal> Serialize for Round<Shape<T>, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The representation owns its inner shape: a clone, cheap (hulls are shared).
        Rounded {
            inner: self.inner().clone(),
            border_radius: self.border_radius(),
        }
        .serialize(serializer)
    }
}

impl<'de, T: SerdeReal> Deserialize<'de> for Round<Shape<T>, T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let r = Rounded::<T>::deserialize(deserializer)?;
        Round::new(r.inner, r.border_radius).map_err(D::Error::custom)
    }
}

/// [`Shape`], tagged by kind.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", bound = "T: SerdeReal")]
enum Tagged<T: Real> {
    Ball(Ball<T>),
    Cuboid(Cuboid<T>),
    Capsule(Capsule<T>),
    Cylinder(Cylinder<T>),
    Cone(Cone<T>),
    Segment(Segment<T>),
    Triangle(Triangle<T>),
    Convex(Arc<ConvexPolyhedron<T>>),
    Round(Arc<Round<Shape<T>, T>>),
}

impl<T: SerdeReal> Serialize for Shape<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tagged = match self.clone() {
            Shape::Ball(s) => Tagged::Ball(s),
            Shape::Cuboid(s) => Tagged::Cuboid(s),
            Shape::Capsule(s) => Tagged::Capsule(s),
            Shape::Cylinder(s) => Tagged::Cylinder(s),
            Shape::Cone(s) => Tagged::Cone(s),
            Shape::Segment(s) => Tagged::Segment(s),
            Shape::Triangle(s) => Tagged::Triangle(s),
            Shape::Convex(s) => Tagged::Convex(s),
            Shape::Round(s) => Tagged::Round(s),
        };
        tagged.serialize(serializer)
    }
}

impl<'de, T: SerdeReal> Deserialize<'de> for Shape<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match Tagged::<T>::deserialize(deserializer)? {
            Tagged::Ball(s) => Shape::Ball(s),
            Tagged::Cuboid(s) => Shape::Cuboid(s),
            Tagged::Capsule(s) => Shape::Capsule(s),
            Tagged::Cylinder(s) => Shape::Cylinder(s),
            Tagged::Cone(s) => Shape::Cone(s),
            Tagged::Segment(s) => Shape::Segment(s),
            Tagged::Triangle(s) => Shape::Triangle(s),
            Tagged::Convex(s) => Shape::Convex(s),
            Tagged::Round(s) => Shape::Round(s),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FeatureId;

    /// Every kind round-trips (a hull with the same numbering), and bad parameters are refused
    /// by name.
    #[test]
    fn shapes_round_trip_and_bad_parameters_are_refused() {
        let cloud: Vec<Point<f64>> = (0..30)
            .map(|k| {
                let a = f64::from(k) * 2.399;
                let y = 1.0 - 2.0 * f64::from(k) / 29.0;
                let r = (1.0 - y * y).sqrt();
                Point::new(r * a.cos(), y, r * a.sin())
            })
            .collect();
        let hull = Shape::convex(&cloud).expect("a hull");
        let shapes = [
            Shape::Ball(Ball::new(0.5).expect("valid")),
            Shape::Cuboid(Cuboid::new([0.5, 0.25, 1.0].into()).expect("valid")),
            Shape::Capsule(Capsule::new(0.5, 0.2).expect("valid")),
            Shape::Cylinder(Cylinder::new(0.5, 0.2).expect("valid")),
            Shape::Cone(Cone::new(0.5, 0.2).expect("valid")),
            Shape::Segment(
                Segment::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 2.0, 3.0)).expect("valid"),
            ),
            Shape::Triangle(
                Triangle::new(
                    Point::new(0.0, 0.0, 0.0),
                    Point::new(1.0, 0.0, 0.0),
                    Point::new(0.0, 1.0, 0.0),
                )
                .expect("valid"),
            ),
            hull.clone(),
            Shape::round(hull, 0.1).expect("valid"),
        ];
        for shape in &shapes {
            let text = serde_json::to_string(shape).expect("serializes");
            let back: Shape<f64> = serde_json::from_str(&text).expect("deserializes");
            assert_eq!(&back, shape, "{text}");
        }
        let refused = serde_json::from_str::<Shape<f64>>(r#"{"ball": {"radius": -1.0}}"#)
            .expect_err("a negative radius");
        assert!(refused.to_string().contains("radius"), "{refused}");
        let unknown = serde_json::from_str::<Shape<f64>>(r#"{"ball": {"radius": 1, "r": 2}}"#);
        assert!(unknown.is_err());
        let id: FeatureId =
            serde_json::from_str(&serde_json::to_string(&FeatureId::Edge(7)).expect("ok"))
                .expect("ok");
        assert_eq!(id, FeatureId::Edge(7));
    }
}
