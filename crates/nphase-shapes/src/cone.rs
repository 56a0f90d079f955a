//! The cone: apex on +y, base disc on −y.

use nphase_math::{Point, Real, UnitVector, Vector};

use crate::cylinder::{DISC_POLYGON_VERTICES, disc_polygon, disc_vertex, radial_unit};
use crate::error::check_lengths;
use crate::feature::{RoundAxis, lean, unit_or_y};
use crate::{
    FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap, SupportVertex, VertexId,
};
use nphase_math::segment_distance2;
use num_traits::Float;

/// The convex hull of the apex `(0, half_height, 0)` and the base disc of `radius` at
/// `y = −half_height` (parry3d's `Cone`).
///
/// Feature ids (`N` = [`DISC_POLYGON_VERTICES`] = 16):
/// * face 0 is the base;
/// * vertices: 0 the apex; the base polygon's `1..=N`, vertex `1 + k` at angle `2πk/N` from +x
///   towards −z; `N + 1` the rim end of a slant line;
/// * edges: 0 the slant line from the apex to the rim point in the query's azimuth; the base
///   polygon's edge from vertex `1 + k` to `1 + (k + 1) mod N` is edge `1 + k`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone<T: Real> {
    half_height: T,
    radius: T,
}

impl<T: Real> Cone<T> {
    /// A cone of the given half-height and base radius (both finite, ≥ 0,
    /// within the precision's input range).
    pub fn new(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_lengths("cone", &[("half_height", half_height), ("radius", radius)])?;
        Ok(Cone {
            half_height,
            radius,
        })
    }

    /// Half the height along y.
    pub fn half_height(&self) -> T {
        self.half_height
    }

    /// The base radius.
    pub fn radius(&self) -> T {
        self.radius
    }

    fn apex(&self) -> Point<T> {
        Point::new(T::zero(), self.half_height, T::zero())
    }

    /// The base rim point in the azimuth of `dir` (the base centre when `dir` is along y).
    fn rim_point(&self, dir: &Vector<T>) -> Point<T> {
        let radial = radial_unit(dir).map_or_else(Vector::zeros, |u| u * self.radius);
        Point::new(radial.x, -self.half_height, radial.z)
    }
}

impl<T: Real> SupportMap<T> for Cone<T> {
    /// The apex or the rim point in the azimuth of `dir`, whichever is further; the apex on a
    /// tie (so a zero `dir` gives the apex).
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        self.local_support_vertex(dir, VertexId::NONE).point
    }

    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        self.local_support_point(dir.as_ref())
    }

    fn local_support_vertex(&self, dir: &Vector<T>, _hint: VertexId) -> SupportVertex<T> {
        let apex = self.apex();
        let rim = self.rim_point(dir);
        // `apex · dir` is `half_height · dir.y` (the zero terms change at most a zero's sign).
        if self.half_height * dir.y >= rim.coords.dot(dir) {
            SupportVertex {
                point: apex,
                id: VertexId(0),
            }
        } else {
            SupportVertex {
                point: rim,
                id: VertexId::NONE,
            }
        }
    }

    /// Only the apex (vertex 0) is a vertex.
    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        (id.0 == 0).then(|| self.apex())
    }
}

impl<T: Real> FeatureMap<T> for Cone<T> {
    /// Of the base (normal −y) and the slant line in the azimuth of `dir` (normal along
    /// `(2h·radial, r)`), the one whose normal is closer to `dir`: the base polygon or the
    /// slant line from the apex to the rim (a needle, radius 0, is always its axis). The
    /// caller keeps the parts within its prediction distance.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        self.feature(dir, 0.0, out);
    }

    /// `−y` where the base is the feature, without building its polygon.
    fn local_support_face_normal(
        &self,
        dir: &Vector<T>,
        _scratch: &mut SupportFeature<T>,
    ) -> Option<UnitVector<T>> {
        let dir = unit_or_y(dir);
        let u = radial_unit(&dir).unwrap_or_else(Vector::x);
        self.base(&dir, &u, 0.0).then(|| -Vector::y_axis())
    }

    /// The switch between base and slant leans toward the part `previous` names.
    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        self.feature(
            dir,
            lean(previous, FeatureId::Face(0), FeatureId::Edge(0)),
            out,
        );
    }

    /// The apex, and the base polygon's vertices and edges, where they are; the slant line
    /// (edge 0) is the slant surface, its rim end (vertex `N + 1`) the base's rim circle; the
    /// base (face 0) its disc.
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        let n = DISC_POLYGON_VERTICES;
        let (h, r) = (self.half_height, self.radius);
        let radial = Float::hypot(p.x, p.z);
        let base = |k: u32| disc_vertex(r, -h, k % n);
        match id {
            FeatureId::Vertex(0) => Some((p - self.apex()).norm()),
            FeatureId::Vertex(v) if v <= n => Some((p - base(v - 1)).norm()),
            FeatureId::Vertex(v) if v == n + 1 => Some(Float::hypot(radial - r, p.y + h)),
            // The slant surface is the slant line turned about y: the distance within p's
            // half-plane through the axis, from (radial, y) to the line from apex to rim.
            FeatureId::Edge(0) => Some(Float::sqrt(segment_distance2(
                &Point::new(T::zero(), h, T::zero()),
                &Point::new(r, -h, T::zero()),
                &Point::new(radial, p.y, T::zero()),
            ))),
            FeatureId::Edge(e) if e <= n => {
                Some(Float::sqrt(segment_distance2(&base(e - 1), &base(e), p)))
            }
            FeatureId::Face(0) => Some(Float::hypot(Float::max(radial - r, T::zero()), p.y + h)),
            _ => None,
        }
    }
}

/// Whether `acos a ≤ acos b + lean × FEATURE_HYSTERESIS` (`a`, `b` in `[−1, 1]`, `lean` ±1),
/// compared through cosines rather than two `acos` a call: with `β = acos b` and `c` the
/// signed hysteresis, `cos (β + c) = b cos c − √(1 − b²) sin c` (`sin β ≥ 0`), and the cosine
/// falls on `[0, π]`, so where `β + c` lies in it the angles compare as their cosines the
/// other way; past `π` (`b ≤ −cos c`, leaning toward the base) every angle is within, below
/// `0` (`b > cos c`, leaning away) none is.
fn leans_within<T: Real>(a: T, b: T, lean: f64) -> bool {
    let (cos, sin) = (T::lit(HYSTERESIS_COS), T::lit(HYSTERESIS_SIN));
    let sin_beta = Float::sqrt(Float::max(T::one() - b * b, T::zero()));
    if lean > 0.0 {
        b <= -cos || a >= b * cos - sin_beta * sin
    } else {
        b <= cos && a >= b * cos + sin_beta * sin
    }
}

/// `cos` and `sin` of `FEATURE_HYSTERESIS`, as `f64` computes them (a test holds them to it
/// bit for bit).
const HYSTERESIS_COS: f64 = 0.9848134698792882;
const HYSTERESIS_SIN: f64 = 0.17361575258114187;

impl<T: Real> Cone<T> {
    /// The supporting feature, the base chosen while its normal's angle to `dir` is at most
    /// the slant normal's plus `lean × FEATURE_HYSTERESIS`.
    fn feature(&self, dir: &Vector<T>, lean: f64, out: &mut SupportFeature<T>) {
        let dir = unit_or_y(dir);
        let n = DISC_POLYGON_VERTICES;
        let u = radial_unit(&dir).unwrap_or_else(Vector::x);
        if self.base(&dir, &u, lean) {
            out.reset(FeatureId::Face(0), -Vector::y_axis());
            disc_polygon(self.radius, -self.half_height, false, 1, out);
        } else {
            out.reset(FeatureId::Edge(0), dir);
            out.push_with_edge(self.apex(), 0, 0);
            let rim = Point::new(u.x * self.radius, -self.half_height, u.z * self.radius);
            out.push(rim, n + 1);
            out.round_axis = Some(RoundAxis::y());
        }
    }

    /// Whether the feature along the unit `dir` (`u`: its azimuth, +x when `dir` is along y)
    /// is the base, chosen while its normal's angle to `dir` is at most the slant normal's plus
    /// `lean × FEATURE_HYSTERESIS` (a base of radius 0 is none).
    fn base(&self, dir: &UnitVector<T>, u: &Vector<T>, lean: f64) -> bool {
        // In the azimuth u, the slant's outward normal is perpendicular to the line from apex
        // (0, h) to rim (r, −h) in (radial, y) coordinates, i.e. along (2h, r).
        let two_h = self.half_height + self.half_height;
        let slant_normal = nphase_math::normalize_robust(&(u * two_h + Vector::y() * self.radius));
        let base = match slant_normal {
            Some(s) if lean == 0.0 => -dir.y >= s.dot(dir),
            Some(s) => {
                let clamp = |c: T| Float::min(Float::max(c, -T::one()), T::one());
                leans_within(clamp(-dir.y), clamp(s.dot(dir)), lean)
            }
            None => true,
        };
        base && self.radius > T::zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature::FEATURE_HYSTERESIS;

    /// The constants are the hysteresis's cosine and sine, bit for bit.
    #[test]
    fn hysteresis_constants_are_its_cosine_and_sine() {
        assert_eq!(HYSTERESIS_COS.to_bits(), FEATURE_HYSTERESIS.cos().to_bits());
        assert_eq!(HYSTERESIS_SIN.to_bits(), FEATURE_HYSTERESIS.sin().to_bits());
    }

    /// The cosine comparison decides as the angles do, wherever they are not within rounding
    /// of a tie: a grid over both cosines and both leans, in f64.
    #[test]
    fn leaning_by_cosines_is_leaning_by_angles() {
        let steps = 400;
        for i in 0..=steps {
            for j in 0..=steps {
                let a = -1.0 + 2.0 * f64::from(i) / f64::from(steps);
                let b = -1.0 + 2.0 * f64::from(j) / f64::from(steps);
                for lean in [1.0, -1.0] {
                    let by_angle = a.acos() - (b.acos() + lean * FEATURE_HYSTERESIS);
                    if by_angle.abs() < 1e-9 {
                        continue;
                    }
                    assert_eq!(
                        leans_within(a, b, lean),
                        by_angle <= 0.0,
                        "a {a}, b {b}, lean {lean}"
                    );
                }
            }
        }
    }
}
