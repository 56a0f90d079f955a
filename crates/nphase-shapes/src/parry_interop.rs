//! Adapters both ways between nphase's and parry3d's `SupportMap` (features `parry` for
//! parry3d / f32 and `parry-f64` for parry3d-f64 / f64).
//!
//! * Every parry3d convex shape implements [`SupportMap<f32>`](crate::SupportMap) (resp. `f64`),
//!   so it runs through nphase's GJK and EPA. parry's ball and round shapes return NaN for a zero
//!   direction; the adapter substitutes +y there, as nphase's own shapes do.
//! * Every nphase shape implements parry3d's `SupportMap`, so it runs through parry's queries
//!   (`query::gjk::closest_points`, `query::epa`, …). Both libraries use nalgebra 0.34, so the
//!   vector and point types are the same and nothing is converted.

macro_rules! interop {
    ($parry:ident, $real:ty) => {
        use nphase_math::{Point, UnitVector, Vector};
        use $parry::shape as ps;

        use crate::feature::unit_or_y;
        use crate::{
            Ball, Capsule, Cone, ConvexPolyhedron, Core, Cuboid, Cylinder, Round, Segment,
            Shape, SupportMap, Triangle,
        };

        /// A direction parry can take: a zero vector is replaced by +y.
        fn nonzero(dir: &Vector<$real>) -> Vector<$real> {
            if dir.norm_squared() > 0.0 {
                *dir
            } else {
                unit_or_y(dir).into_inner()
            }
        }

        macro_rules! parry_into_nphase {
            ($($ty:ty),*) => {$(
                impl SupportMap<$real> for $ty {
                    fn local_support_point(&self, dir: &Vector<$real>) -> Point<$real> {
                        ps::SupportMap::local_support_point(self, &nonzero(dir))
                    }
                    fn local_support_point_toward(&self, dir: &UnitVector<$real>) -> Point<$real> {
                        ps::SupportMap::local_support_point_toward(self, dir)
                    }
                }
            )*};
        }

        parry_into_nphase!(
            ps::Ball,
            ps::Cuboid,
            ps::Capsule,
            ps::Cylinder,
            ps::Cone,
            ps::Segment,
            ps::Triangle,
            ps::ConvexPolyhedron
        );

        impl<S: ps::SupportMap> SupportMap<$real> for ps::RoundShape<S> {
            fn local_support_point(&self, dir: &Vector<$real>) -> Point<$real> {
                ps::SupportMap::local_support_point(self, &nonzero(dir))
            }
            fn local_support_point_toward(&self, dir: &UnitVector<$real>) -> Point<$real> {
                ps::SupportMap::local_support_point_toward(self, dir)
            }
        }

        macro_rules! nphase_into_parry {
            ($($ty:ty),*) => {$(
                impl ps::SupportMap for $ty {
                    fn local_support_point(&self, dir: &Vector<$real>) -> Point<$real> {
                        SupportMap::local_support_point(self, dir)
                    }
                    fn local_support_point_toward(&self, dir: &UnitVector<$real>) -> Point<$real> {
                        SupportMap::local_support_point_toward(self, dir)
                    }
                }
            )*};
        }

        nphase_into_parry!(
            Ball<$real>,
            Cuboid<$real>,
            Capsule<$real>,
            Cylinder<$real>,
            Cone<$real>,
            Segment<$real>,
            Triangle<$real>,
            ConvexPolyhedron<$real>,
            Shape<$real>,
            Core<'_, $real>
        );

        impl<S: SupportMap<$real>> ps::SupportMap for Round<S, $real> {
            fn local_support_point(&self, dir: &Vector<$real>) -> Point<$real> {
                SupportMap::local_support_point(self, dir)
            }
            fn local_support_point_toward(&self, dir: &UnitVector<$real>) -> Point<$real> {
                SupportMap::local_support_point_toward(self, dir)
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
