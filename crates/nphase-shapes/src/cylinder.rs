//! The cylinder: a disc in the local xz plane swept along the local y axis.

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use crate::error::check_lengths;
use crate::feature::{RoundAxis, lean, unit_or_y};
use crate::{FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap};
use nphase_math::segment_distance2;

/// Number of vertices of the regular polygon that stands for a cylinder cap or a cone base in a
/// supporting feature. Its vertices lie on the rim (an inscribed polygon), so every contact
/// point built from it is on the surface; the polygon's edges fall short of the rim by at most
/// `radius · (1 − cos(π/16)) ≈ 0.019 · radius`.
pub const DISC_POLYGON_VERTICES: u32 = 16;

/// `(cos, sin)` of `2πk/16`, k = 0..16: the rim polygon's directions, so that a supporting
/// feature costs no trigonometry.
const DISC_DIRECTIONS: [(f64, f64); DISC_POLYGON_VERTICES as usize] = {
    // cos and sin of multiples of π/8, written out (const fns cannot call `cos`).
    const C1: f64 = 0.923_879_532_511_286_7; // cos(π/8)
    const C2: f64 = core::f64::consts::FRAC_1_SQRT_2; // cos(π/4)
    const C3: f64 = 0.382_683_432_365_089_8; // cos(3π/8)
    [
        (1.0, 0.0),
        (C1, C3),
        (C2, C2),
        (C3, C1),
        (0.0, 1.0),
        (-C3, C1),
        (-C2, C2),
        (-C1, C3),
        (-1.0, 0.0),
        (-C1, -C3),
        (-C2, -C2),
        (-C3, -C1),
        (0.0, -1.0),
        (C3, -C1),
        (C2, -C2),
        (C1, -C3),
    ]
};

/// All points with `x² + z² ≤ radius²` and `|y| ≤ half_height` (parry3d's `Cylinder`).
///
/// Feature ids (`N` = [`DISC_POLYGON_VERTICES`] = 16):
/// * faces: 0 the top cap (+y), 1 the bottom cap;
/// * vertices: the cap polygons' `0..N` (top) and `N..2N` (bottom), vertex `k` (or `N + k`) at
///   angle `2πk/N` from +x towards −z; the side line's ends `2N` (bottom) and `2N + 1` (top); a
///   lone rim point `2N + 2` (top rim) or `2N + 3` (bottom rim);
/// * edges: the top polygon's edge from vertex `k` to `k + 1` (mod N) is edge `k`, the bottom
///   one's edge `N + k`; the side line is edge `2N`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder<T: Real> {
    half_height: T,
    radius: T,
}

impl<T: Real> Cylinder<T> {
    /// A cylinder of the given half-height and radius (both finite, ≥ 0,
    /// within the precision's input range).
    pub fn new(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_lengths(
            "cylinder",
            &[("half_height", half_height), ("radius", radius)],
        )?;
        Ok(Cylinder {
            half_height,
            radius,
        })
    }

    /// Half the height along y.
    pub fn half_height(&self) -> T {
        self.half_height
    }

    /// The radius.
    pub fn radius(&self) -> T {
        self.radius
    }
}

impl<T: Real> SupportMap<T> for Cylinder<T> {
    /// The rim point in the azimuth of `dir` at the cap `dir` points to; the cap centre when
    /// `dir` is along the axis. When `dir.y` is zero its sign bit picks the cap: a zero `dir`
    /// gives the top cap centre, `(0, −0.0, 0)` the bottom one.
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        let radial = radial_unit(dir).map_or_else(Vector::zeros, |u| u * self.radius);
        Point::new(radial.x, Float::copysign(self.half_height, dir.y), radial.z)
    }

    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        self.local_support_point(dir.as_ref())
    }
}

impl<T: Real> FeatureMap<T> for Cylinder<T> {
    /// The cap polygon when `dir` is at least as close to the axis as to the side
    /// (`|dir.y| ≥ |(dir.x, dir.z)|`, within 45° of ±y), else the side line in the azimuth of
    /// `dir`; a flat cylinder (half-height 0) always gives its cap, a line (radius 0) its
    /// segment. The caller keeps the parts within its prediction distance.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        self.feature(dir, 0.0, out);
    }

    /// `±y` where the cap is the feature, without building its polygon.
    fn local_support_face_normal(
        &self,
        dir: &Vector<T>,
        _scratch: &mut SupportFeature<T>,
    ) -> Option<UnitVector<T>> {
        let dir = unit_or_y(dir);
        self.cap(&dir, radial_unit(&dir).as_ref(), 0.0)
            .map(cap_normal)
    }

    /// The switch at 45° leans toward the cap when `previous` was this cap, toward the side
    /// when it was the side line.
    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        let cap = FeatureId::Face(u32::from(Float::is_sign_negative(dir.y)));
        let side = FeatureId::Edge(2 * DISC_POLYGON_VERTICES);
        self.feature(dir, lean(previous, cap, side), out);
    }

    /// Cap polygons' vertices and edges where they are; the side line (edge `2N`) is the side
    /// surface, its ends and the lone rim points (vertices `2N..=2N + 3`) their rim circle; a
    /// cap (face) its disc.
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        let n = DISC_POLYGON_VERTICES;
        let (h, r) = (self.half_height, self.radius);
        let radial = Float::hypot(p.x, p.z);
        let cap_y = |top: bool| if top { h } else { -h };
        // Vertex k of the cap polygons: the top one's for k < N, else the bottom one's.
        let vertex = |k: u32| disc_vertex(r, cap_y(k < n), k % n);
        match id {
            FeatureId::Vertex(v) if v < 2 * n => Some((p - vertex(v)).norm()),
            FeatureId::Vertex(v) if v < 2 * n + 4 => {
                let top = v == 2 * n + 1 || v == 2 * n + 2;
                Some(Float::hypot(radial - r, p.y - cap_y(top)))
            }
            FeatureId::Edge(e) if e < 2 * n => {
                let first = e - e % n;
                let to = vertex(first + (e % n + 1) % n);
                Some(Float::sqrt(segment_distance2(&vertex(e), &to, p)))
            }
            FeatureId::Edge(e) if e == 2 * n => Some(Float::hypot(
                radial - r,
                Float::max(Float::abs(p.y) - h, T::zero()),
            )),
            FeatureId::Face(f) if f < 2 => Some(Float::hypot(
                Float::max(radial - r, T::zero()),
                p.y - cap_y(f == 0),
            )),
            _ => None,
        }
    }
}

impl<T: Real> Cylinder<T> {
    /// The supporting feature with the cap/side switch at `45° + lean × FEATURE_HYSTERESIS`
    /// from the axis.
    fn feature(&self, dir: &Vector<T>, lean: f64, out: &mut SupportFeature<T>) {
        let dir = unit_or_y(dir);
        let radial = radial_unit(&dir);
        let n = DISC_POLYGON_VERTICES;
        if let Some(top) = self.cap(&dir, radial.as_ref(), lean) {
            out.reset(FeatureId::Face(u32::from(!top)), cap_normal(top));
            let h = Float::copysign(self.half_height, if top { T::one() } else { -T::one() });
            disc_polygon(self.radius, h, top, if top { 0 } else { n }, out);
        } else {
            let radial = radial.map_or_else(Vector::zeros, |u| u * self.radius);
            out.reset(FeatureId::Edge(2 * n), dir);
            out.push_with_edge(
                Point::new(radial.x, -self.half_height, radial.z),
                2 * n,
                2 * n,
            );
            out.push(Point::new(radial.x, self.half_height, radial.z), 2 * n + 1);
            out.round_axis = Some(RoundAxis::y());
        }
    }

    /// Whether the feature along the unit `dir` (`radial`: its [`radial_unit`]) is a cap, with
    /// the switch at `45° + lean × FEATURE_HYSTERESIS` from the axis, and if so whether it is
    /// the top cap.
    fn cap(&self, dir: &UnitVector<T>, radial: Option<&Vector<T>>, lean: f64) -> Option<bool> {
        let slope = T::lit(cap_slope(lean));
        let cap = match radial {
            None => true,
            Some(_) => Float::abs(dir.y) * slope >= Float::hypot(dir.x, dir.z),
        };
        ((cap && self.radius > T::zero()) || self.half_height == T::zero())
            .then_some(!Float::is_sign_negative(dir.y))
    }
}

/// `tan(45° + lean × FEATURE_HYSTERESIS)` for the three leans [`lean`] gives (1, 0, −1), as
/// `f64::tan` computes them (a test holds them to it bit for bit): the slope `|dir.y| /
/// |(dir.x, dir.z)|` of the cap/side switch, without a `tan` per call.
fn cap_slope(lean: f64) -> f64 {
    if lean > 0.0 {
        1.428047931790053
    } else if lean < 0.0 {
        0.7002566074560981
    } else {
        0.9999999999999999
    }
}

/// The outward normal of the top cap (`top`) or of the bottom one.
fn cap_normal<T: Real>(top: bool) -> UnitVector<T> {
    if top {
        Vector::y_axis()
    } else {
        -Vector::y_axis()
    }
}

/// The unit direction of `(dir.x, 0, dir.z)`, or `None` when `dir` is along the y axis.
pub(crate) fn radial_unit<T: Real>(dir: &Vector<T>) -> Option<Vector<T>> {
    nphase_math::normalize_robust(&Vector::new(dir.x, T::zero(), dir.z)).map(|u| u.into_inner())
}

/// Appends the regular [`DISC_POLYGON_VERTICES`]-gon of `radius` at height `y`, counter-clockwise
/// about +y when `up` (else about −y): vertex ids `first_id + k` for the vertex at angle
/// `2πk/N` (from +x towards −z), and edge ids `first_id + k` for the edge from vertex `k` to
/// vertex `k + 1` (mod N), whichever way the loop walks it.
pub(crate) fn disc_polygon<T: Real>(
    radius: T,
    y: T,
    up: bool,
    first_id: u32,
    out: &mut SupportFeature<T>,
) {
    const N: usize = DISC_POLYGON_VERTICES as usize;
    let n = DISC_POLYGON_VERTICES;
    // Increasing angle turns counter-clockwise about +y; walk it backwards for −y, where the
    // edge from vertex k leads to vertex k − 1, edge k − 1. Filled whole and appended at once:
    // every manifold and face snap of a cap builds one.
    let (mut vertex_ids, mut edge_ids) = ([0; N], [0; N]);
    let vertices: [Point<T>; N] = core::array::from_fn(|i| {
        let i = i as u32;
        let (k, edge) = if up {
            (i, i)
        } else {
            let k = (n - i) % n;
            (k, (k + n - 1) % n)
        };
        vertex_ids[i as usize] = first_id + k;
        edge_ids[i as usize] = first_id + edge;
        disc_vertex(radius, y, k)
    });
    out.set_polygon(vertices, &vertex_ids, &edge_ids);
}

/// Vertex `k` (`< N`) of the regular [`DISC_POLYGON_VERTICES`]-gon of `radius` at height `y`:
/// at angle `2πk/N` from +x towards −z.
pub(crate) fn disc_vertex<T: Real>(radius: T, y: T, k: u32) -> Point<T> {
    let (c, s) = DISC_DIRECTIONS[k as usize];
    Point::new(radius * T::lit(c), y, -radius * T::lit(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature::FEATURE_HYSTERESIS;

    /// The switch's slopes are the `tan` they stand for, bit for bit.
    #[test]
    fn cap_slopes_are_the_tangents_of_the_switch() {
        for lean in [1.0, 0.0, -1.0] {
            let tan = (core::f64::consts::FRAC_PI_4 + lean * FEATURE_HYSTERESIS).tan();
            assert_eq!(cap_slope(lean).to_bits(), tan.to_bits(), "lean {lean}");
        }
    }
}
