//! Vectors, rotations and poses between parry3d 0.31's glam types and nphase's nalgebra types.
//!
//! parry3d 0.31 (and rapier3d 0.36) store points as `glam::Vec3` and poses as `glamx::Pose3`
//! (a `glam::Quat` rotation, then a translation: `p ↦ rotation · p + translation`); nphase uses
//! nalgebra's `Point3`/`Vector3` and `Isometry3`, which mean the same transformation.
//!
//! The one trap is the quaternion's component order: glam stores `x, y, z, w` (and
//! `Quat::from_xyzw` takes them in that order) while nalgebra's `Quaternion::new` takes `w`
//! first. Both then hold the same unit quaternion `w + xi + yj + zk`.
//!
//! A rotation is renormalised on the way to nalgebra: nalgebra's `UnitQuaternion` assumes unit
//! length, and a glam quaternion that drifted by `δ` from unit length would scale every
//! transformed vector by `1 + 2δ` (rapier renormalises, but user poses need not be). The
//! conversions are otherwise exact (no arithmetic on the components).

use nalgebra::{Quaternion, Translation3, UnitQuaternion};
use nphase_math::{Isometry, Point, Vector};
use parry3d_031::math::{Pose, Rotation, Vector as GlamVector};

/// A glam vector as an nalgebra vector.
pub fn vector_to_na(v: GlamVector) -> Vector<f32> {
    Vector::new(v.x, v.y, v.z)
}

/// A glam vector, read as a point, as an nalgebra point.
pub fn point_to_na(v: GlamVector) -> Point<f32> {
    Point::new(v.x, v.y, v.z)
}

/// An nalgebra vector as a glam vector.
pub fn vector_from_na(v: &Vector<f32>) -> GlamVector {
    GlamVector::new(v.x, v.y, v.z)
}

/// An nalgebra point as a glam vector (parry 0.31 has no separate point type).
pub fn point_from_na(p: &Point<f32>) -> GlamVector {
    GlamVector::new(p.x, p.y, p.z)
}

/// A glam rotation as an nalgebra unit quaternion (renormalised; see the module doc). A zero
/// or non-finite quaternion gives a non-finite result, which [`pose_is_finite`] reports.
pub fn rotation_to_na(q: Rotation) -> UnitQuaternion<f32> {
    UnitQuaternion::new_normalize(Quaternion::new(q.w, q.x, q.y, q.z))
}

/// An nalgebra unit quaternion as a glam rotation.
pub fn rotation_from_na(q: &UnitQuaternion<f32>) -> Rotation {
    Rotation::from_xyzw(q.i, q.j, q.k, q.w)
}

/// A parry pose (local → parent) as an nalgebra isometry with the same meaning.
pub fn pose_to_na(pose: &Pose) -> Isometry<f32> {
    Isometry::from_parts(
        Translation3::from(vector_to_na(pose.translation)),
        rotation_to_na(pose.rotation),
    )
}

/// An nalgebra isometry as a parry pose with the same meaning.
pub fn pose_from_na(iso: &Isometry<f32>) -> Pose {
    Pose::from_parts(
        vector_from_na(&iso.translation.vector),
        rotation_from_na(&iso.rotation),
    )
}

/// Whether every component of a parry pose (translation and quaternion) is finite.
pub fn pose_is_finite(pose: &Pose) -> bool {
    pose.translation.is_finite() && pose.rotation.is_finite()
}

/// Whether a parry pose is one nphase answers: finite, and every translation component within
/// f32's input range (`f32::RANGE.max_length`, docs/accuracy.md "Input range").
pub fn pose_in_range(pose: &Pose) -> bool {
    let max = <f32 as nphase_math::Real>::RANGE.max_length;
    pose_is_finite(pose) && pose.translation.abs().max_element() <= max
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// The component-order trap: a quarter turn about +z maps +x to +y in both libraries.
    #[test]
    fn quarter_turn_about_z_agrees() {
        let q = Rotation::from_rotation_z(core::f32::consts::FRAC_PI_2);
        let na = rotation_to_na(q);
        let x = na * Vector::x();
        assert!((x - Vector::y()).norm() < 1e-6, "{x}");
    }

    /// Random poses transform random points identically (within f32 rounding of the
    /// quaternion products, 1e-5 of the point's size), and survive the round trip.
    #[test]
    fn random_poses_transform_alike() {
        let mut rng = Pcg64::seed_from_u64(3);
        for _ in 0..1000 {
            let axis = GlamVector::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let pose = Pose::new(
                GlamVector::new(
                    rng.random_range(-10.0..10.0),
                    rng.random_range(-10.0..10.0),
                    rng.random_range(-10.0..10.0),
                ),
                axis * rng.random_range(0.0..3.0),
            );
            let p = GlamVector::new(
                rng.random_range(-5.0..5.0),
                rng.random_range(-5.0..5.0),
                rng.random_range(-5.0..5.0),
            );
            let iso = pose_to_na(&pose);
            let by_glam = pose * p;
            let by_na = iso * point_to_na(p);
            let scale = 20.0;
            assert!((vector_to_na(by_glam) - by_na.coords).norm() < 1e-5 * scale);
            let back = pose_from_na(&iso);
            assert!((back.translation - pose.translation).length() == 0.0);
            assert!(back.rotation.dot(pose.rotation).abs() > 1.0 - 1e-6);
        }
    }

    #[test]
    fn non_finite_pose_is_reported() {
        let mut pose = Pose::identity();
        assert!(pose_is_finite(&pose));
        pose.translation.y = f32::NAN;
        assert!(!pose_is_finite(&pose));
    }
}
