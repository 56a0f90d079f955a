//! Validation errors of shape constructors.

use core::fmt;

use nphase_math::{Point, Real};
use num_traits::Float;

/// Why a shape could not be built. Every variant names the shape type and the offending field.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeError {
    /// A parameter is NaN or infinite.
    NotFinite {
        /// The shape type (`"ball"`, `"cuboid"`, …).
        shape: &'static str,
        /// The parameter (`"radius"`, `"half_extents.y"`, `"points[3].x"` …).
        field: String,
    },
    /// A radius, half-height or half-extent is negative.
    Negative {
        /// The shape type.
        shape: &'static str,
        /// The parameter.
        field: String,
        /// Its value.
        value: f64,
    },
    /// A convex hull was requested from no points at all.
    EmptyPointCloud,
    /// The shape has no extent at all — it is a single point (a ball of radius 0, all hull
    /// points identical, …). The constructors accept such degenerate shapes; this is the error
    /// of [`Shape::require_extent`](crate::Shape::require_extent), for inputs where a point-sized
    /// shape is a mistake (scene files).
    ZeroSize {
        /// The shape type.
        shape: &'static str,
        /// The rule, naming the fields (``"`radius` must be positive (…)"``).
        rule: &'static str,
    },
    /// A length is larger than the precision's [`InputRange::max_length`]
    /// (docs/accuracy.md, "Input range").
    ///
    /// [`InputRange::max_length`]: nphase_math::InputRange::max_length
    TooLarge {
        /// The shape type.
        shape: &'static str,
        /// The parameter or coordinate.
        field: String,
        /// Its value.
        value: f64,
        /// The largest length of the precision.
        max: f64,
    },
    /// The shape's size — its largest length, `field` — is not zero but smaller than the
    /// precision's [`InputRange::min_length`] (docs/accuracy.md, "Input range").
    ///
    /// [`InputRange::min_length`]: nphase_math::InputRange::min_length
    TooSmall {
        /// The shape type.
        shape: &'static str,
        /// The largest parameter or coordinate.
        field: String,
        /// Its value (magnitude).
        value: f64,
        /// The smallest non-zero size of the precision.
        min: f64,
    },
    /// A round shape was given an inner shape that cannot be rounded (a round shape: merge the
    /// radii instead).
    InvalidInner {
        /// What is wrong with the inner shape.
        reason: &'static str,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::NotFinite { shape, field } => {
                write!(f, "{shape}: `{field}` must be finite (got NaN or infinity)")
            }
            ShapeError::Negative {
                shape,
                field,
                value,
            } => {
                write!(f, "{shape}: `{field}` must be non-negative (got {value})")
            }
            ShapeError::EmptyPointCloud => {
                write!(
                    f,
                    "convex: `points` must hold at least one point (got none)"
                )
            }
            ShapeError::ZeroSize { shape, rule } => write!(f, "{shape}: {rule}"),
            ShapeError::TooLarge {
                shape,
                field,
                value,
                max,
            } => write!(
                f,
                "{shape}: `{field}` = {value:e} is beyond the largest length of this precision \
                 ({max:e}; docs/accuracy.md, \"Input range\")"
            ),
            ShapeError::TooSmall {
                shape,
                field,
                value,
                min,
            } => write!(
                f,
                "{shape}: the shape's size (`{field}` = {value:e}) is below the smallest non-zero \
                 size of this precision ({min:e}; docs/accuracy.md, \"Input range\"): use 0 for a \
                 point-sized or flat shape, or scale the scene"
            ),
            ShapeError::InvalidInner { reason } => write!(f, "round: `inner` {reason}"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// Checks a shape's length parameters (radii, half-extents, half-heights, border radii): each
/// finite, non-negative and at most [`InputRange::max_length`]; and the shape's size, the
/// largest of them, zero or at least [`InputRange::min_length`] (docs/accuracy.md, "Input
/// range"). `fields` names each parameter as the error should.
///
/// [`InputRange::max_length`]: nphase_math::InputRange::max_length
/// [`InputRange::min_length`]: nphase_math::InputRange::min_length
pub(crate) fn check_lengths<T: Real>(
    shape: &'static str,
    fields: &[(&str, T)],
) -> Result<(), ShapeError> {
    for &(field, value) in fields {
        check_parameter(shape, field, value)?;
    }
    let largest = fields
        .iter()
        .copied()
        .reduce(|a, b| if b.1 > a.1 { b } else { a });
    match largest {
        Some((field, size)) => check_min(shape, field, size),
        None => Ok(()),
    }
}

/// Checks one length parameter: finite, non-negative and at most the largest length.
pub(crate) fn check_parameter<T: Real>(
    shape: &'static str,
    field: &str,
    value: T,
) -> Result<(), ShapeError> {
    check_finite(shape, field, value)?;
    if value < T::zero() {
        return Err(ShapeError::Negative {
            shape,
            field: field.to_owned(),
            value: value.as_decimal(),
        });
    }
    check_max(shape, || field.to_owned(), value)
}

/// Checks a shape's vertices (segment ends, triangle corners, hull points): every coordinate
/// finite and of magnitude at most [`InputRange::max_length`], and the largest magnitude zero
/// or at least [`InputRange::min_length`]. `field` names a vertex by its index (`"points[3]"`,
/// or `names[i]` when given: `"a"`, `"b"`), and the error names the coordinate (`"a.y"`).
///
/// [`InputRange::max_length`]: nphase_math::InputRange::max_length
/// [`InputRange::min_length`]: nphase_math::InputRange::min_length
pub(crate) fn check_vertices<T: Real>(
    shape: &'static str,
    field: impl Fn(usize) -> String,
    vertices: &[Point<T>],
) -> Result<(), ShapeError> {
    let axis = |k: usize| ["x", "y", "z"][k];
    let mut largest: Option<(usize, usize, T)> = None;
    for (i, p) in vertices.iter().enumerate() {
        for (k, &x) in p.coords.iter().enumerate() {
            // The field's name is formatted only for an error (formatting it up front was two
            // allocations a coordinate of every valid hull).
            let name = || format!("{}.{}", field(i), axis(k));
            if !Float::is_finite(x) {
                return Err(ShapeError::NotFinite {
                    shape,
                    field: name(),
                });
            }
            check_max(shape, name, x)?;
            if largest.is_none_or(|(_, _, m)| Float::abs(x) > m) {
                largest = Some((i, k, Float::abs(x)));
            }
        }
    }
    match largest {
        Some((i, k, m)) => check_min(shape, &format!("{}.{}", field(i), axis(k)), m),
        None => Ok(()),
    }
}

/// Checks that `value` is finite.
fn check_finite<T: Real>(shape: &'static str, field: &str, value: T) -> Result<(), ShapeError> {
    if Float::is_finite(value) {
        Ok(())
    } else {
        Err(ShapeError::NotFinite {
            shape,
            field: field.to_owned(),
        })
    }
}

/// Checks that `|value|` is at most the largest length; `field` names it, called only for the
/// error.
fn check_max<T: Real>(
    shape: &'static str,
    field: impl FnOnce() -> String,
    value: T,
) -> Result<(), ShapeError> {
    if T::RANGE.within_max(value) {
        Ok(())
    } else {
        Err(ShapeError::TooLarge {
            shape,
            field: field(),
            value: value.as_decimal(),
            max: T::RANGE.max_length.as_decimal(),
        })
    }
}

/// Checks that a shape's size (`size ≥ 0`, its largest length) is zero or at least the
/// smallest one.
pub(crate) fn check_min<T: Real>(
    shape: &'static str,
    field: &str,
    size: T,
) -> Result<(), ShapeError> {
    if size == T::zero() || size >= T::RANGE.min_length {
        Ok(())
    } else {
        Err(ShapeError::TooSmall {
            shape,
            field: field.to_owned(),
            value: size.as_decimal(),
            min: T::RANGE.min_length.as_decimal(),
        })
    }
}
