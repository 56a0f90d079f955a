//! Adapters both ways between nphase's and parry3d's `SupportMap` (features `parry` for
//! parry3d / f32 and `parry-f64` for parry3d-f64 / f64).
//!
//! * Every parry3d convex shape implements [`SupportMap<f32>`](crate::SupportMap) (resp. `f64`),
//!   so it runs through nphase's GJK and EPA. parry's ball and round shapes return NaN for a zero
//!   direction and lose accuracy for tiny or huge ones; the adapter normalises the direction
//!   robustly (rescaled first) and substitutes +y for a zero one, as nphase's own shapes do.
//! * Every nphase shape implements parry3d's `SupportMap`, so it runs through parry's queries
//!   (`query::gjk::closest_points`, `query::epa`, …). Both libraries use nalgebra 0.34, so the
//!   vector and point types are the same and nothing is converted.

/// `impl nphase SupportMap<$real>` for parry shapes `$ty` (from crate `$parry`).
macro_rules! parry_into_nphase {
    ($parry:ident, $real:ty; $($ty:ty),*) => {$(
        impl $crate::SupportMap<$real> for $ty {
            fn local_support_point(&self, dir: &nphase_math::Vector<$real>) -> nphase_math::Point<$real> {
                // Only the direction of `dir` matters, and parry's ball and round shapes
                // normalise through `|dir|²`, which underflows for tiny directions (NaN, or a
                // point off the surface when it is subnormal) and overflows for huge ones: hand
                // parry a unit direction, rescaled first (+y for a zero one, as nphase does).
                let dir = nphase_math::normalize_robust(dir).unwrap_or_else(nphase_math::Vector::y_axis);
                $parry::shape::SupportMap::local_support_point_toward(self, &dir)
            }
            fn local_support_point_toward(
                &self,
                dir: &nphase_math::UnitVector<$real>,
            ) -> nphase_math::Point<$real> {
                $parry::shape::SupportMap::local_support_point_toward(self, dir)
            }
        }
    )*};
}

/// `impl parry SupportMap` for nphase shapes `$ty` of scalar `$real`.
macro_rules! nphase_into_parry {
    ($parry:ident, $real:ty; $($ty:ty),*) => {$(
        impl $parry::shape::SupportMap for $ty {
            fn local_support_point(&self, dir: &nphase_math::Vector<$real>) -> nphase_math::Point<$real> {
                $crate::SupportMap::local_support_point(self, dir)
            }
            fn local_support_point_toward(
                &self,
                dir: &nphase_math::UnitVector<$real>,
            ) -> nphase_math::Point<$real> {
                $crate::SupportMap::local_support_point_toward(self, dir)
            }
        }
    )*};
}

/// Both directions for one parry crate and its scalar.
macro_rules! interop {
    ($parry:ident, $real:ty) => {
        use crate::{
            Ball, Capsule, Cone, ConvexPolyhedron, Core, Cuboid, Cylinder, Round, Segment, Shape,
            Triangle,
        };
        use $parry::shape as ps;

        parry_into_nphase!(
            $parry, $real;
            ps::Ball, ps::Cuboid, ps::Capsule, ps::Cylinder, ps::Cone, ps::Segment, ps::Triangle,
            ps::ConvexPolyhedron
        );
        parry_into_nphase!($parry, $real; ps::RoundShape<ps::Cuboid>, ps::RoundShape<ps::Cylinder>,
            ps::RoundShape<ps::Cone>, ps::RoundShape<ps::ConvexPolyhedron>, ps::RoundShape<ps::Triangle>);
        nphase_into_parry!(
            $parry, $real;
            Ball<$real>, Cuboid<$real>, Capsule<$real>, Cylinder<$real>, Cone<$real>,
            Segment<$real>, Triangle<$real>, ConvexPolyhedron<$real>, Shape<$real>, Core<'_, $real>
        );

        impl<S: crate::SupportMap<$real>> ps::SupportMap for Round<S, $real> {
            fn local_support_point(&self, dir: &nphase_math::Vector<$real>) -> nphase_math::Point<$real> {
                crate::SupportMap::local_support_point(self, dir)
            }
            fn local_support_point_toward(
                &self,
                dir: &nphase_math::UnitVector<$real>,
            ) -> nphase_math::Point<$real> {
                crate::SupportMap::local_support_point_toward(self, dir)
            }
        }
    };
}

#[cfg(feature = "parry")]
mod f32_parry3d {
    interop!(parry3d, f32);
}

#[cfg(feature = "parry-f64")]
mod f64_parry3d {
    interop!(parry3d_f64, f64);
}
