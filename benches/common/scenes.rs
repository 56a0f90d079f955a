//! Workloads of the pipeline benches (`pipeline`, `coherence`) as scene documents, and their
//! shapes built for the baselines: parry3d 0.25 (nalgebra) and parry3d 0.31 (glam, what rapier
//! 0.36 runs). Frames are precomputed from the documents' velocities and run forwards and
//! backwards ([`frame_at`]), so every frame is coherent with the one before.

use nphase_cli::scene::{ShapeDesc, VelocityDesc};
use parry3d::shape::SharedShape as Shape025;
use parry3d_031::shape::SharedShape as Shape031;

/// The frame to run at step `i` of a run over `frames` precomputed frames: forwards then
/// backwards (0, 1, …, n−1, n−2, …, 0, 1, …), always coherent.
pub fn frame_at(i: u64, frames: u64) -> usize {
    if frames < 2 {
        return 0;
    }
    let period = 2 * (frames - 1);
    let k = i % period;
    (if k < frames { k } else { period - k }) as usize
}

/// A velocity of `step` units and `step` radians per frame along directions drawn from
/// `next` (uniform in [−1, 1) per call).
pub fn motion(step: f64, mut next: impl FnMut() -> f64) -> VelocityDesc {
    let mut unit = || {
        let v = [next(), next(), next()];
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt().max(1e-9);
        v.map(|x| x / n * step)
    };
    VelocityDesc {
        linear: unit(),
        angular: unit(),
    }
}

/// `pub fn $name(desc: &ShapeDesc) -> $shape`: the shape in one parry version (f32), whose
/// point type (`$point::new(x, y, z)`) is the version's own.
macro_rules! parry_shape {
    ($(#[$doc:meta])* $name:ident, $shape:ty, $point:ty) => {
        $(#[$doc])*
        pub fn $name(desc: &ShapeDesc) -> $shape {
            let p = |a: &[f64; 3]| <$point>::new(a[0] as f32, a[1] as f32, a[2] as f32);
            let points = |ps: &[[f64; 3]]| ps.iter().map(p).collect::<Vec<_>>();
            let f = |x: f64| x as f32;
            match desc {
                ShapeDesc::Cuboid { half_extents: h } => <$shape>::cuboid(f(h[0]), f(h[1]), f(h[2])),
                ShapeDesc::Ball { radius } => <$shape>::ball(f(*radius)),
                ShapeDesc::Capsule { half_height, radius } => {
                    <$shape>::capsule_y(f(*half_height), f(*radius))
                }
                ShapeDesc::Cylinder { half_height, radius } => {
                    <$shape>::cylinder(f(*half_height), f(*radius))
                }
                ShapeDesc::Cone { half_height, radius } => {
                    <$shape>::cone(f(*half_height), f(*radius))
                }
                ShapeDesc::Convex { points: ps } => {
                    <$shape>::convex_hull(&points(ps)).expect("a hull")
                }
                ShapeDesc::Segment { a, b } => <$shape>::segment(p(a), p(b)),
                ShapeDesc::Triangle { a, b, c } => <$shape>::triangle(p(a), p(b), p(c)),
                ShapeDesc::Round { border_radius, inner } => {
                    let r = f(*border_radius);
                    match inner.as_ref() {
                        ShapeDesc::Cuboid { half_extents: h } => {
                            <$shape>::round_cuboid(f(h[0]), f(h[1]), f(h[2]), r)
                        }
                        ShapeDesc::Cylinder { half_height, radius } => {
                            <$shape>::round_cylinder(f(*half_height), f(*radius), r)
                        }
                        ShapeDesc::Convex { points: ps } => {
                            <$shape>::round_convex_hull(&points(ps), r).expect("a hull")
                        }
                        other => panic!("no parry round shape for {other:?}"),
                    }
                }
            }
        }
    };
}

parry_shape!(
    /// The shape in parry3d 0.25 (f32, nalgebra).
    parry025,
    Shape025,
    parry3d::math::Point<f32>
);
parry_shape!(
    /// The shape in parry3d 0.31 (f32, glam).
    parry031,
    Shape031,
    parry3d_031::math::Vector
);
