//! Rounded shapes: a shape grown by a border radius (its Minkowski sum with a ball).

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use crate::error::{check_min, check_parameter};
use crate::feature::unit_or_y;
use crate::{FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap};

/// The shape `inner` grown by `border_radius` in every direction (parry3d's `RoundShape`). Its
/// core is `inner` (and `inner`'s own core, if it has a radius too), so queries on it are exact.
#[derive(Clone, Debug, PartialEq)]
pub struct Round<S, T: Real> {
    inner: S,
    border_radius: T,
}

impl<S: SupportMap<T>, T: Real> Round<S, T> {
    /// `inner` grown by `border_radius` (finite, ≥ 0, at most the precision's largest length).
    /// The rounded shape's size — the larger of the border radius and the inner shape's largest
    /// support coordinate along the axes — is zero or at least the smallest size
    /// (docs/accuracy.md, "Input range"): a tiny border on a shape of ordinary size is valid, a
    /// tiny ball made of a rounded point is not.
    pub fn new(inner: S, border_radius: T) -> Result<Self, ShapeError> {
        let reach = (0..3)
            .flat_map(|k| {
                let axis = Vector::ith(k, T::one());
                [axis, -axis]
            })
            .map(|d| Float::abs(inner.local_support_point(&d).coords.dot(&d)))
            .fold(T::zero(), Float::max);
        check_parameter("round", "border_radius", border_radius)?;
        if border_radius > T::zero() {
            let size = if border_radius >= reach {
                ("border_radius", border_radius)
            } else {
                ("inner", reach)
            };
            check_min("round", size.0, size.1)?;
        }
        Ok(Round {
            inner,
            border_radius,
        })
    }
}

impl<S, T: Real> Round<S, T> {
    /// The shape before rounding.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The border radius.
    pub fn border_radius(&self) -> T {
        self.border_radius
    }
}

impl<S: SupportMap<T>, T: Real> SupportMap<T> for Round<S, T> {
    /// The inner support point pushed out by the border radius along `dir` (zero `dir`: +y).
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        self.local_support_point_toward(&unit_or_y(dir))
    }

    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        self.inner.local_support_point_toward(dir) + dir.into_inner() * self.border_radius
    }
}

impl<S: FeatureMap<T>, T: Real> FeatureMap<T> for Round<S, T> {
    /// The inner shape's feature pushed out by the border radius
    /// ([`SupportFeature::push_out`]): the flat part of the rounded surface over a face, the
    /// rounded surface's line over an edge, its point over a vertex.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        self.inner.local_support_feature(dir, out);
        out.push_out(self.border_radius);
    }

    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        self.inner.local_support_feature_near(dir, previous, out);
        out.push_out(self.border_radius);
    }

    /// The inner shape's, less the border radius (signed: negative within it; an inner rounded
    /// shape's own radius is already taken off).
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        let core = self.inner.local_feature_distance(id, p)?;
        Some(core - self.border_radius)
    }
}
