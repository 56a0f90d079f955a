//! Growing GJK's final simplex into EPA's start tetrahedron, or recognising a flat `D`.
//!
//! GJK hands over 4 vertices when the simplex encloses the origin, but only 1–3 when it stopped
//! because the cores touch. The missing vertices are found with support queries along
//! directions that leave the current span: the six axis directions for a point, four
//! perpendiculars for a segment, both normals for a triangle. A candidate counts only if it
//! leaves the span by more than [`Tolerances::degenerate`] × size. When no direction does, the
//! Minkowski difference itself is flat (two coplanar triangles, crossing segments, …): the
//! shapes touch and the caller reports depth 0 with a normal perpendicular to the flat set.
//!
//! [`Tolerances::degenerate`]: nphase_math::Tolerances::degenerate

use arrayvec::ArrayVec;
use nphase_gjk::{MinkowskiDifference, Simplex, SimplexVertex};
use nphase_math::{Real, UnitVector, Vector};
use nphase_shapes::{SupportMap, VertexId};
use num_traits::Float;

/// How EPA starts.
pub(crate) enum Start<T: Real> {
    /// A full-dimensional tetrahedron (any orientation).
    Tetrahedron([SimplexVertex<T>; 4]),
    /// `D` is flat: `vertices` span it, `normal` is perpendicular to it, from A toward B.
    Flat {
        vertices: ArrayVec<SimplexVertex<T>, 3>,
        normal: UnitVector<T>,
    },
}

/// Grows `simplex` into a tetrahedron of points of `D`; `toward_b` (B's centre in A's frame)
/// orients the normal of a flat `D`. Counts support calls in `support_calls`.
pub(crate) fn initial_polytope<A, B, T>(
    md: &MinkowskiDifference<'_, A, B, T>,
    simplex: &Simplex<T>,
    toward_b: &Vector<T>,
    support_calls: &mut u32,
) -> Start<T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let mut points: ArrayVec<SimplexVertex<T>, 4> = simplex.vertices().iter().copied().collect();
    let mut size = points
        .iter()
        .fold(T::zero(), |m, v| Float::max(m, v.w.norm()));
    let mut support = |dir: &Vector<T>, size: &mut T| {
        *support_calls += 1;
        let w = md.support(dir, VertexId::NONE, VertexId::NONE);
        *size = Float::max(*size, w.w.norm());
        w
    };
    let eps = |size: T| T::TOLERANCES.degenerate * size;

    if points.len() == 4 {
        let [p0, p1, p2, p3] = [points[0].w, points[1].w, points[2].w, points[3].w];
        let volume = (p1 - p0).dot(&(p2 - p0).cross(&(p3 - p0)));
        if Float::abs(volume) <= eps(size) * size * size {
            points.pop();
        }
    }
    if points.is_empty() {
        points.push(support(&-toward_b, &mut size));
    }

    if points.len() == 1 {
        let p0 = points[0].w;
        for dir in [
            Vector::x(),
            -Vector::x(),
            Vector::y(),
            -Vector::y(),
            Vector::z(),
            -Vector::z(),
        ] {
            let w = support(&dir, &mut size);
            if (w.w - p0).norm() > eps(size) {
                points.push(w);
                break;
            }
        }
        if points.len() == 1 {
            let normal = nphase_math::normalize_robust(&-p0)
                .or_else(|| nphase_math::normalize_robust(toward_b))
                .unwrap_or_else(Vector::y_axis);
            return flat(&points, normal);
        }
    }

    if points.len() == 2 {
        let (p0, p1) = (points[0].w, points[1].w);
        let axis = nphase_math::normalize_robust(&(p1 - p0)).unwrap_or_else(Vector::x_axis);
        let (u, v) = nphase_math::orthonormal_basis(&axis);
        for dir in [u, -u, v, -v] {
            let w = support(&dir, &mut size);
            if (w.w - p0).cross(&axis).norm() > eps(size) {
                points.push(w);
                break;
            }
        }
        if points.len() == 2 {
            // D is a segment: the normal points from its closest point to the origin toward the
            // origin's side (the separation direction), or across it toward B when it passes
            // through the origin.
            let closest = nphase_math::closest_point_to_origin(&[p0, p1]).point;
            // Toward B across the axis; projected twice, and taken only when it is more than
            // rounding: the computed axis is unit only to an ulp, so one projection of B's
            // offset along it leaves a residual along the axis that, where B's centre lies on
            // D's line, is all there is — normalised, a normal *along* the segment, whose
            // support is half its length (found by fuzzing the rapier adapter: two collinear
            // segments touching reported 0.062 deep, "converged").
            let across = toward_b - axis.into_inner() * toward_b.dot(&axis);
            let across = across - axis.into_inner() * across.dot(&axis);
            // The closest point carries a rounding error of ~ε·|p0| along the segment, which is
            // a large angle when it is tiny next to the segment (a point touching a long
            // segment, f32): its component along the axis is removed, so the normal is
            // perpendicular to D and the support along it is the true separation (found by
            // fuzzing: a 1.4e-4 gap against a 96-long segment came out as a depth of 1.2).
            let closest = closest - axis.into_inner() * closest.dot(&axis);
            let normal = nphase_math::normalize_robust(&-closest)
                .filter(|_| nphase_math::norm_robust(&closest) > eps(size))
                .or_else(|| {
                    nphase_math::normalize_robust(&across)
                        .filter(|_| nphase_math::norm_robust(&across) > eps(size))
                })
                .unwrap_or(UnitVector::new_unchecked(u));
            return flat(&points, normal);
        }
    }

    if points.len() == 3 {
        let [p0, p1, p2] = [points[0].w, points[1].w, points[2].w];
        let n = nphase_math::normalize_robust(&(p1 - p0).cross(&(p2 - p0)))
            .unwrap_or_else(|| nphase_math::any_unit_perpendicular(&(p1 - p0)));
        let above = support(&n, &mut size);
        let below = support(&-n, &mut size);
        let height_above = (above.w - p0).dot(&n);
        let height_below = -(below.w - p0).dot(&n);
        if Float::max(height_above, height_below) <= eps(size) {
            let normal = if n.dot(toward_b) < T::zero() { -n } else { n };
            return flat(&points, normal);
        }
        points.push(if height_above >= height_below {
            above
        } else {
            below
        });
    }

    match points.into_inner() {
        Ok(tetrahedron) => Start::Tetrahedron(tetrahedron),
        Err(points) => flat(&points, Vector::y_axis()),
    }
}

fn flat<T: Real>(points: &[SimplexVertex<T>], normal: UnitVector<T>) -> Start<T> {
    Start::Flat {
        vertices: points.iter().take(3).copied().collect(),
        normal,
    }
}
