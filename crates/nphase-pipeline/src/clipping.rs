//! Sutherland–Hodgman clipping of an incident feature against a reference feature's side
//! planes (Ericson, *Real-Time Collision Detection*, 8.3.4; Box2D's `b2ClipPolygons`).
//!
//! Every vertex carries an id; a vertex that survives keeps it, a vertex created where an
//! incident edge crosses a side plane gets an id mixed from the side plane's index and the
//! edge's end ids, so contact ids stay the same while the same features touch.

use nphase_math::{Point, Real, Vector};

/// A vertex of the polygon being clipped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ClipVertex<T: Real> {
    pub(crate) point: Point<T>,
    pub(crate) id: u32,
}

/// A side plane `{x : (x − origin)·normal ≤ 0}` (inside is the non-positive side) with an id.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SidePlane<T: Real> {
    pub(crate) origin: Point<T>,
    pub(crate) normal: Vector<T>,
    pub(crate) id: u32,
}

/// Clips `polygon` (a closed loop of ≥ 3 vertices, or a segment of 2) against every plane,
/// leaving the result in `polygon`; `scratch` is a buffer of the same kind.
pub(crate) fn clip_against_planes<T: Real>(
    polygon: &mut Vec<ClipVertex<T>>,
    planes: &[SidePlane<T>],
    scratch: &mut Vec<ClipVertex<T>>,
) {
    for plane in planes {
        if polygon.is_empty() {
            return;
        }
        scratch.clear();
        if polygon.len() == 2 {
            clip_segment(polygon[0], polygon[1], plane, scratch);
        } else {
            clip_loop(polygon, plane, scratch);
        }
        core::mem::swap(polygon, scratch);
    }
}

fn clip_loop<T: Real>(
    polygon: &[ClipVertex<T>],
    plane: &SidePlane<T>,
    out: &mut Vec<ClipVertex<T>>,
) {
    let n = polygon.len();
    for i in 0..n {
        let current = polygon[i];
        let next = polygon[(i + 1) % n];
        let d_current = height(plane, &current.point);
        let d_next = height(plane, &next.point);
        if d_current <= T::zero() {
            out.push(current);
        }
        if (d_current <= T::zero()) != (d_next <= T::zero()) {
            out.push(crossing(current, next, d_current, d_next, plane.id));
        }
    }
}

fn clip_segment<T: Real>(
    a: ClipVertex<T>,
    b: ClipVertex<T>,
    plane: &SidePlane<T>,
    out: &mut Vec<ClipVertex<T>>,
) {
    let (da, db) = (height(plane, &a.point), height(plane, &b.point));
    match (da <= T::zero(), db <= T::zero()) {
        (true, true) => out.extend([a, b]),
        (true, false) => out.extend([a, crossing(a, b, da, db, plane.id)]),
        (false, true) => out.extend([crossing(a, b, da, db, plane.id), b]),
        (false, false) => {}
    }
}

fn height<T: Real>(plane: &SidePlane<T>, p: &Point<T>) -> T {
    (p - plane.origin).dot(&plane.normal)
}

/// The point where edge `a → b` crosses the plane (`da`, `db` its heights, of opposite signs).
fn crossing<T: Real>(
    a: ClipVertex<T>,
    b: ClipVertex<T>,
    da: T,
    db: T,
    plane_id: u32,
) -> ClipVertex<T> {
    let t = da / (da - db);
    // Order the edge's ids so the crossing keeps its id whichever way the edge is walked.
    let (lo, hi) = if a.id <= b.id {
        (a.id, b.id)
    } else {
        (b.id, a.id)
    };
    ClipVertex {
        point: a.point + (b.point - a.point) * t,
        id: mix(mix(plane_id, lo), hi) | 0x8000_0000,
    }
}

/// Mixes two ids into one (a multiply–xorshift step); deterministic on every platform.
pub(crate) fn mix(a: u32, b: u32) -> u32 {
    let x = (u64::from(a) << 32 | u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let x = (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (x ^ (x >> 32)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(half: f64, z: f64) -> Vec<ClipVertex<f64>> {
        [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
            .iter()
            .enumerate()
            .map(|(i, (x, y))| ClipVertex {
                point: Point::new(x * half, y * half, z),
                id: i as u32,
            })
            .collect()
    }

    fn planes_of_unit_square() -> Vec<SidePlane<f64>> {
        [Vector::x(), -Vector::x(), Vector::y(), -Vector::y()]
            .iter()
            .enumerate()
            .map(|(i, n)| SidePlane {
                origin: Point::from(*n),
                normal: *n,
                id: i as u32,
            })
            .collect()
    }

    #[test]
    fn a_big_square_clipped_to_a_small_one_keeps_the_small_ones_corners() {
        let mut poly = square(2.0, 0.0);
        clip_against_planes(&mut poly, &planes_of_unit_square(), &mut Vec::new());
        // Each plane cuts two corners off; what is left is exactly the small square.
        assert_eq!(poly.len(), 4);
        for v in &poly {
            assert!((v.point.x.abs() - 1.0).abs() < 1e-12 && (v.point.y.abs() - 1.0).abs() < 1e-12);
            assert!(v.id & 0x8000_0000 != 0, "every corner is a crossing");
        }
    }

    #[test]
    fn a_square_inside_is_untouched_and_keeps_its_ids() {
        let mut poly = square(0.5, 0.0);
        clip_against_planes(&mut poly, &planes_of_unit_square(), &mut Vec::new());
        assert_eq!(poly, square(0.5, 0.0));
    }

    #[test]
    fn a_segment_is_clipped_to_its_overlap() {
        let a = ClipVertex {
            point: Point::new(-3.0, 0.2, 0.0),
            id: 7,
        };
        let b = ClipVertex {
            point: Point::new(0.5, 0.2, 0.0),
            id: 9,
        };
        let mut seg = vec![a, b];
        clip_against_planes(&mut seg, &planes_of_unit_square(), &mut Vec::new());
        assert_eq!(seg.len(), 2);
        assert!((seg[0].point.x + 1.0).abs() < 1e-12);
        assert_eq!(seg[1], b);
        // Walking the edge the other way gives the same crossing id.
        let mut reversed = vec![b, a];
        clip_against_planes(&mut reversed, &planes_of_unit_square(), &mut Vec::new());
        assert_eq!(reversed[1].id, seg[0].id);
    }

    #[test]
    fn everything_outside_is_removed() {
        let mut poly = square(0.5, 0.0);
        for v in &mut poly {
            v.point.x += 5.0;
        }
        clip_against_planes(&mut poly, &planes_of_unit_square(), &mut Vec::new());
        assert!(poly.is_empty());
    }
}
