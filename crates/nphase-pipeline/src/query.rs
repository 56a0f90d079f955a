//! One-shot queries between two posed shapes, with parry3d's meanings.
//!
//! [`contact`], [`distance`], [`closest_points`] and [`intersection_test`] take world poses
//! (`pos1`, `pos2`: local → world) and answer in world space. They work in A's frame internally
//! (`pos12 = pos1⁻¹ · pos2`), so the accuracy does not depend on how far the pair is from the
//! world origin. Each call is independent (cold start); for per-frame use keep a
//! [`SimplexCache`] per pair and call [`query_pair`]
//! or use the [`NarrowPhase`](crate::NarrowPhase) pipeline.
//!
//! Their scratch space (EPA's polytope, the separating-axis test's buffers) is one
//! [`PairWorkspace`] per thread and precision, borrowed for the length of a query: a query
//! neither builds nor frees one (about 170 instructions of a 3 000-instruction cold box
//! query), and once a thread's workspace has grown to its largest query, queries allocate
//! nothing. The workspace carries nothing from one query to the next.
//!
//! Bad input (a NaN or infinite pose, a translation beyond the precision's input range, a
//! negative or non-finite prediction) is refused with a [`QueryError`] naming it;
//! shapes are validated when they are built (docs/accuracy.md, "Input range").

use core::any::Any;
use core::fmt;
use std::cell::RefCell;

use nphase_gjk::{GjkExit, GjkInput, SimplexCache};
use nphase_math::{Isometry, Point, Real, UnitVector};
use nphase_shapes::Shape;
use num_traits::Float;

use crate::{ContactQuality, PairWorkspace, query_pair};

/// A contact between two shapes, in world space (parry3d's `Contact`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<T: Real> {
    /// Witness point on shape 1's surface.
    pub point1: Point<T>,
    /// Witness point on shape 2's surface; `point2 − point1 ≈ dist · normal1`.
    pub point2: Point<T>,
    /// Unit normal on shape 1 pointing toward shape 2.
    pub normal1: UnitVector<T>,
    /// `−normal1`.
    pub normal2: UnitVector<T>,
    /// Signed distance: positive gap, or minus the penetration depth.
    pub dist: T,
    /// Certified lower bound on the true signed distance, up to rounding (see
    /// [`LocalContact::lower_bound`](crate::LocalContact::lower_bound)).
    pub lower_bound: T,
    /// Certified upper bound on the true signed distance, up to rounding.
    pub upper_bound: T,
    /// Whether the underlying query converged (see [`ContactQuality`]).
    pub quality: ContactQuality,
}

/// Why a query refused its input.
#[derive(Clone, Debug, PartialEq)]
pub enum QueryError {
    /// A pose has a NaN or infinite component (`"pos1"` or `"pos2"`).
    NonFinitePose(&'static str),
    /// A pose's translation has a component beyond the precision's largest length
    /// ([`InputRange::max_length`](nphase_math::InputRange::max_length), docs/accuracy.md).
    PoseOutOfRange {
        /// `"pos1"` or `"pos2"`.
        pose: &'static str,
        /// The offending component.
        value: f64,
        /// The largest length of the precision.
        max: f64,
    },
    /// The prediction distance (or `max_dist`) is NaN, infinite or negative.
    InvalidPrediction,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::NonFinitePose(which) => {
                write!(f, "{which} has a NaN or infinite component")
            }
            QueryError::PoseOutOfRange { pose, value, max } => write!(
                f,
                "{pose}: translation component {value:e} is beyond the largest length of this \
                 precision ({max:e}; docs/accuracy.md, \"Input range\")"
            ),
            QueryError::InvalidPrediction => {
                write!(f, "the prediction distance must be finite and non-negative")
            }
        }
    }
}

impl std::error::Error for QueryError {}

/// The contact between two shapes if their signed distance is at most `prediction`.
///
/// Shapes that penetrate or touch always get a contact (never a silent `None`, even when the
/// penetration query fails to converge: the best estimate is returned with its
/// [`ContactQuality`]).
///
/// ```
/// use nphase_math::{Isometry, Vector};
/// use nphase_pipeline::query::contact;
/// use nphase_shapes::{Cuboid, Shape};
///
/// let cube = Shape::Cuboid(Cuboid::new(Vector::<f64>::new(0.5, 0.5, 0.5)).expect("valid"));
/// let c = contact(&Isometry::identity(), &cube, &Isometry::translation(0.9, 0.0, 0.0), &cube, 0.0)
///     .expect("finite input")
///     .expect("overlapping");
/// assert!((c.dist + 0.1).abs() < 1e-12);
/// assert!((c.normal1.x - 1.0).abs() < 1e-12);
/// ```
pub fn contact<T: Real>(
    pos1: &Isometry<T>,
    shape1: &Shape<T>,
    pos2: &Isometry<T>,
    shape2: &Shape<T>,
    prediction: T,
) -> Result<Option<Contact<T>>, QueryError> {
    check_prediction(prediction)?;
    let pos12 = relative_pose(pos1, pos2)?;
    let outcome = with_scratch(|workspace| {
        query_pair(
            shape1,
            shape2,
            &pos12,
            prediction,
            &mut SimplexCache::EMPTY.clone(),
            workspace,
        )
    });
    Ok(outcome.contact.map(|c| {
        let normal1 = pos1.rotation * c.normal;
        Contact {
            point1: pos1 * c.point1,
            point2: pos1 * c.point2,
            normal1,
            normal2: -normal1,
            dist: c.dist,
            lower_bound: c.lower_bound,
            upper_bound: c.upper_bound,
            quality: c.quality,
        }
    }))
}

/// The signed distance between two shapes: the gap when apart, minus the penetration depth
/// when overlapping.
pub fn distance<T: Real>(
    pos1: &Isometry<T>,
    shape1: &Shape<T>,
    pos2: &Isometry<T>,
    shape2: &Shape<T>,
) -> Result<T, QueryError> {
    let pos12 = relative_pose(pos1, pos2)?;
    let outcome = with_scratch(|workspace| {
        query_pair(
            shape1,
            shape2,
            &pos12,
            T::infinity(),
            &mut SimplexCache::EMPTY.clone(),
            workspace,
        )
    });
    Ok(outcome.contact.map_or_else(T::infinity, |c| c.dist))
}

/// The closest points of two shapes (parry3d's `ClosestPoints`), in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClosestPoints<T: Real> {
    /// The shapes touch or overlap.
    Intersecting,
    /// The shapes are apart by at most `max_dist`.
    WithinMargin(Point<T>, Point<T>),
    /// The shapes are further apart than `max_dist`.
    Disjoint,
}

/// The closest points of two shapes if they are apart by at most `max_dist`.
pub fn closest_points<T: Real>(
    pos1: &Isometry<T>,
    shape1: &Shape<T>,
    pos2: &Isometry<T>,
    shape2: &Shape<T>,
    max_dist: T,
) -> Result<ClosestPoints<T>, QueryError> {
    check_prediction(max_dist)?;
    Ok(match contact(pos1, shape1, pos2, shape2, max_dist)? {
        None => ClosestPoints::Disjoint,
        Some(c) if c.dist <= T::zero() => ClosestPoints::Intersecting,
        Some(c) => ClosestPoints::WithinMargin(c.point1, c.point2),
    })
}

/// Whether two shapes touch or overlap (signed distance ≤ 0).
pub fn intersection_test<T: Real>(
    pos1: &Isometry<T>,
    shape1: &Shape<T>,
    pos2: &Isometry<T>,
    shape2: &Shape<T>,
) -> Result<bool, QueryError> {
    let pos12 = relative_pose(pos1, pos2)?;
    let (core1, radius1) = shape1.core();
    let (core2, radius2) = shape2.core();
    let input = GjkInput::new(&core1, &core2, pos12)
        .with_radii(radius1, radius2)
        .with_shape_sizes(
            crate::collide::shape_size(&core1, radius1),
            crate::collide::shape_size(&core2, radius2),
        );
    let mut cache = SimplexCache::EMPTY;
    let out = nphase_gjk::intersection_test(&input, &mut cache);
    match out.stats.exit {
        // GJK decided on a separating axis, an enclosing simplex or a converged distance.
        GjkExit::DualityGap
        | GjkExit::MaxDist
        | GjkExit::OriginEnclosed
        | GjkExit::Touching
        | GjkExit::OverlapProven => Ok(out.intersecting),
        // Stalled or capped: its estimate's sign is not certain, so the full query (EPA from
        // the stalled simplex) settles it.
        GjkExit::NoProgress | GjkExit::RepeatedVertex | GjkExit::IterationCap => {
            let outcome = with_scratch(|workspace| {
                query_pair(shape1, shape2, &pos12, T::zero(), &mut cache, workspace)
            });
            Ok(outcome.contact.is_some_and(|c| c.dist <= T::zero()))
        }
    }
}

thread_local! {
    /// This thread's scratch workspaces of the one-shot queries, one per precision (see the
    /// module doc).
    static SCRATCH: (RefCell<PairWorkspace<f32>>, RefCell<PairWorkspace<f64>>) =
        Default::default();
}

/// Runs `f` with this thread's scratch workspace of precision `T`; with a fresh one where
/// that is not available (a precision other than `f32` and `f64`, a query running inside
/// another on the same thread, or a thread whose locals are being torn down — none of which
/// happens in this crate).
fn with_scratch<T: Real, R>(mut f: impl FnMut(&mut PairWorkspace<T>) -> R) -> R {
    let scratch = SCRATCH.try_with(|(w32, w64)| {
        let cell = (w32 as &dyn Any)
            .downcast_ref::<RefCell<PairWorkspace<T>>>()
            .or_else(|| (w64 as &dyn Any).downcast_ref())?;
        let mut workspace = cell.try_borrow_mut().ok()?;
        Some(f(&mut workspace))
    });
    match scratch {
        Ok(Some(answer)) => answer,
        _ => f(&mut PairWorkspace::new()),
    }
}

/// `pos1⁻¹ · pos2`, refusing non-finite poses and translations beyond the input range.
pub(crate) fn relative_pose<T: Real>(
    pos1: &Isometry<T>,
    pos2: &Isometry<T>,
) -> Result<Isometry<T>, QueryError> {
    for (pose, name) in [(pos1, "pos1"), (pos2, "pos2")] {
        if !pose_is_finite(pose) {
            return Err(QueryError::NonFinitePose(name));
        }
        if let Some(value) = translation_beyond_range(pose) {
            return Err(QueryError::PoseOutOfRange {
                pose: name,
                value: value.as_decimal(),
                max: T::RANGE.max_length.as_decimal(),
            });
        }
    }
    Ok(pos1.inv_mul(pos2))
}

/// Whether every component of a pose (translation and quaternion) is finite.
pub(crate) fn pose_is_finite<T: Real>(pose: &Isometry<T>) -> bool {
    pose.translation
        .vector
        .iter()
        .chain(pose.rotation.coords.iter())
        .all(|x| Float::is_finite(*x))
}

/// The first translation component of a (finite) pose beyond [`Real::RANGE`]'s largest
/// length, if any.
pub(crate) fn translation_beyond_range<T: Real>(pose: &Isometry<T>) -> Option<T> {
    let t = &pose.translation.vector;
    T::RANGE.first_beyond(t).map(|k| t[k])
}

fn check_prediction<T: Real>(prediction: T) -> Result<(), QueryError> {
    if Float::is_finite(prediction) && prediction >= T::zero() {
        Ok(())
    } else {
        Err(QueryError::InvalidPrediction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each precision gets its own scratch workspace, kept from one query to the next on the
    /// thread; a query inside another (the scratch already borrowed) gets a fresh one instead
    /// of a panic.
    #[test]
    fn scratch_is_per_precision_kept_and_never_borrowed_twice() {
        let address = |ws: &mut PairWorkspace<f64>| core::ptr::from_mut(ws) as usize;
        let (first, second) = (with_scratch(address), with_scratch(address));
        assert_eq!(first, second, "the thread's f64 scratch is kept");
        let single = with_scratch(|ws: &mut PairWorkspace<f32>| core::ptr::from_mut(ws) as usize);
        assert_ne!(single, first, "f32 has a scratch of its own");
        let (outer, inner) =
            with_scratch(|ws: &mut PairWorkspace<f64>| (address(ws), with_scratch(address)));
        assert_eq!(outer, first);
        assert_ne!(inner, outer, "a nested query gets a fresh workspace");
    }
}
