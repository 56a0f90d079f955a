//! Validation errors of shape constructors.

use core::fmt;

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
            ShapeError::InvalidInner { reason } => write!(f, "round: `inner` {reason}"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// Checks that `value` is finite and non-negative.
#[allow(dead_code)] // for the primitive shapes' constructors
pub(crate) fn check_size<T: nphase_math::Real>(
    shape: &'static str,
    field: &str,
    value: T,
) -> Result<(), ShapeError> {
    check_finite(shape, field, value)?;
    if value < T::zero() {
        return Err(ShapeError::Negative {
            shape,
            field: field.to_owned(),
            value: value.as_f64(),
        });
    }
    Ok(())
}

/// Checks that `value` is finite.
#[allow(dead_code)] // for the primitive shapes' constructors
pub(crate) fn check_finite<T: nphase_math::Real>(
    shape: &'static str,
    field: &str,
    value: T,
) -> Result<(), ShapeError> {
    if num_traits::Float::is_finite(value) {
        Ok(())
    } else {
        Err(ShapeError::NotFinite {
            shape,
            field: field.to_owned(),
        })
    }
}

/// Checks that every component of a point or vector is finite; `field` names it (`"a"`,
/// `"points[3]"`) and the component is appended (`"a.y"`).
pub(crate) fn check_finite_vector<T: nphase_math::Real>(
    shape: &'static str,
    field: &str,
    v: &nphase_math::Vector<T>,
) -> Result<(), ShapeError> {
    match ["x", "y", "z"]
        .iter()
        .zip(v.iter())
        .find(|(_, value)| !num_traits::Float::is_finite(**value))
    {
        Some((axis, _)) => Err(ShapeError::NotFinite {
            shape,
            field: format!("{field}.{axis}"),
        }),
        None => Ok(()),
    }
}
