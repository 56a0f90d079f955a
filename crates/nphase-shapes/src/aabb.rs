//! Axis-aligned bounding boxes.

use nphase_math::{Point, Real, Vector};
use num_traits::Float;

/// An axis-aligned box `mins ≤ x ≤ maxs` (componentwise), in whatever frame its producer names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb<T: Real> {
    /// The minimum corner.
    pub mins: Point<T>,
    /// The maximum corner.
    pub maxs: Point<T>,
}

impl<T: Real> Aabb<T> {
    /// The box with the given corners (`mins ≤ maxs` componentwise).
    pub fn new(mins: Point<T>, maxs: Point<T>) -> Self {
        Aabb { mins, maxs }
    }

    /// The smallest box holding all `points`; `None` for no points.
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Point<T>>) -> Option<Self> {
        let mut points = points.into_iter();
        let first = *points.next()?;
        Some(points.fold(Aabb::new(first, first), |b, p| Aabb {
            mins: b.mins.inf(p),
            maxs: b.maxs.sup(p),
        }))
    }

    /// The centre.
    pub fn center(&self) -> Point<T> {
        Point::from((self.mins.coords + self.maxs.coords) * T::lit(0.5))
    }

    /// Half the size along each axis.
    pub fn half_extents(&self) -> Vector<T> {
        (self.maxs - self.mins) * T::lit(0.5)
    }

    /// Half the length of the diagonal — the size measure tolerances are relative to (the
    /// oracle's `scale` is the larger of the two shapes' local half-diagonals).
    pub fn half_diagonal(&self) -> T {
        self.half_extents().norm()
    }

    /// This box grown by `margin` on every side.
    pub fn loosened(&self, margin: T) -> Self {
        let m = Vector::repeat(margin);
        Aabb {
            mins: self.mins - m,
            maxs: self.maxs + m,
        }
    }

    /// Whether the two boxes overlap or touch.
    pub fn intersects(&self, other: &Self) -> bool {
        (0..3).all(|i| self.mins[i] <= other.maxs[i] && other.mins[i] <= self.maxs[i])
    }

    /// The smallest box holding both.
    pub fn merged(&self, other: &Self) -> Self {
        Aabb {
            mins: self.mins.inf(&other.mins),
            maxs: self.maxs.sup(&other.maxs),
        }
    }

    /// Whether every coordinate is finite.
    pub fn is_finite(&self) -> bool {
        self.mins
            .iter()
            .chain(self.maxs.iter())
            .all(|x| Float::is_finite(*x))
    }
}
