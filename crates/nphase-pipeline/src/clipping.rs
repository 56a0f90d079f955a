//! Sutherland–Hodgman clipping of an incident feature against a reference feature's side
//! planes (Ericson, *Real-Time Collision Detection*, 8.3.4; Box2D's `b2ClipPolygons`), with the
//! features every output vertex lies on.
//!
//! Every vertex carries a [`Label`]: the reference feature and the incident feature it lies on.
//! Every edge of the polygon being clipped lies either on an incident edge (and the reference
//! face's plane region) or, once a side plane has cut it, along that side plane (on the
//! incident face). So:
//!
//! * an incident vertex that survives keeps `(reference feature, incident vertex)`;
//! * an incident edge crossing side plane `k` gives `(reference edge k, incident edge)`;
//! * an edge along side plane `j` crossing side plane `k` gives `(the reference vertex shared
//!   by j and k, incident face)` — a reference corner inside the incident polygon.
//!
//! The labels depend only on which features meet, not on the order the planes are applied
//! in, so a point keeps its label while the same features touch.

use nphase_math::{Point, Real, Vector};
use nphase_shapes::FeatureId;

/// The features a clipped point lies on: one of the reference shape, one of the incident one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Label {
    pub(crate) reference: FeatureId,
    pub(crate) incident: FeatureId,
}

/// What an edge of the polygon being clipped lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Along {
    /// An incident edge (inside the reference face's prism).
    Incident(FeatureId),
    /// Side plane number `k` (inside the incident face).
    Side(u8),
}

/// A vertex of the polygon being clipped, and the edge from it to the next vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ClipVertex<T: Real> {
    pub(crate) point: Point<T>,
    pub(crate) label: Label,
    pub(crate) edge: Along,
}

/// A side plane `{x : (x − origin)·normal ≤ 0}` (inside is the non-positive side): `feature` is
/// the reference feature a crossing of it lies on (the face's edge, or an edge's end vertex),
/// `ends` the reference vertices at its two ends (for the corner it shares with a neighbour).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SidePlane<T: Real> {
    pub(crate) origin: Point<T>,
    pub(crate) normal: Vector<T>,
    pub(crate) feature: FeatureId,
    pub(crate) ends: [u32; 2],
}

/// Clips `polygon` (a closed loop of ≥ 3 vertices, or a segment of 2) against every plane but
/// `skip` (an index: a plane the caller found the polygon to lie along), leaving the result in
/// `polygon`; `scratch` is a buffer of the same kind; `incident_face` is the incident
/// feature's own id (what points on side-plane edges lie on).
pub(crate) fn clip_against_planes<T: Real>(
    polygon: &mut Vec<ClipVertex<T>>,
    planes: &[SidePlane<T>],
    (incident_face, skip): (FeatureId, Option<usize>),
    scratch: &mut Vec<ClipVertex<T>>,
) {
    for (k, plane) in planes.iter().enumerate() {
        if polygon.is_empty() {
            return;
        }
        if skip == Some(k) {
            continue;
        }
        // A plane with every vertex inside leaves the polygon as it is.
        let Some(first_out) = polygon
            .iter()
            .position(|v| outside(height(plane, &v.point)))
        else {
            continue;
        };
        let cut = Cut {
            planes,
            k,
            incident_face,
        };
        if polygon.len() != 2 && cut_one_run(polygon, first_out, plane, &cut) {
            continue;
        }
        scratch.clear();
        if polygon.len() == 2 {
            clip_segment(polygon[0], polygon[1], plane, &cut, scratch);
        } else {
            clip_loop(polygon, plane, &cut, scratch);
        }
        core::mem::swap(polygon, scratch);
    }
}

/// The point of `incident` (a closed loop of ≥ 3 vertices, or a segment) furthest along `down`
/// among what is left of it after clipping to `planes` pushed out by `slack` (their normals
/// are normalised in place): the deepest point of an incident feature over a reference face,
/// the witness of a separating-axis contact measured on that face. `None` when nothing is
/// left (rounding on a feature that only grazes the face's prism).
pub(crate) fn deepest_inside<T: Real>(
    incident: &[Point<T>],
    planes: &mut [SidePlane<T>],
    slack: T,
    down: &Vector<T>,
    polygon: &mut Vec<ClipVertex<T>>,
    scratch: &mut Vec<ClipVertex<T>>,
) -> Option<Point<T>> {
    let label = Label {
        reference: FeatureId::Face(0),
        incident: FeatureId::Face(0),
    };
    polygon.clear();
    polygon.extend(incident.iter().map(|&point| ClipVertex {
        point,
        label,
        edge: Along::Incident(FeatureId::Face(0)),
    }));
    for plane in planes.iter_mut() {
        let len = plane.normal.norm();
        if len > T::zero() {
            plane.normal /= len;
            plane.origin += plane.normal * slack;
        }
    }
    clip_against_planes(polygon, planes, (FeatureId::Face(0), None), scratch);
    polygon
        .iter()
        .map(|v| v.point)
        .fold(None, |deepest: Option<Point<T>>, p| match deepest {
            Some(d) if d.coords.dot(down) >= p.coords.dot(down) => Some(d),
            _ => Some(p),
        })
}

/// The plane being applied, with what its crossings need to be labelled.
struct Cut<'a, T: Real> {
    planes: &'a [SidePlane<T>],
    k: usize,
    incident_face: FeatureId,
}

impl<T: Real> Cut<'_, T> {
    /// The label of the point where an edge lying on `along` crosses this plane.
    fn crossing_label(&self, along: Along) -> Label {
        let plane = &self.planes[self.k];
        match along {
            Along::Incident(edge) => Label {
                reference: plane.feature,
                incident: edge,
            },
            Along::Side(j) => {
                let other = &self.planes[usize::from(j)];
                let corner = if other.ends[1] == plane.ends[0] {
                    Some(other.ends[1])
                } else if other.ends[0] == plane.ends[1] {
                    Some(other.ends[0])
                } else {
                    None
                };
                Label {
                    reference: corner.map_or(plane.feature, FeatureId::Vertex),
                    incident: self.incident_face,
                }
            }
        }
    }
}

/// The usual cut of a loop, in place: the vertices outside the plane are one run, taken round
/// the loop (it may hold the loop's last vertex and its first), and some vertex is inside
/// (`start`, the first vertex outside, is given). [`clip_loop`] would keep the vertices inside
/// in their order, the crossing entering the plane before them where the run holds the loop's
/// first vertex, the crossing leaving it after them, and the entering one after that where the
/// run does not: so does this, without copying the loop. Returns `false`, leaving the loop as it
/// is, for any other case.
fn cut_one_run<T: Real>(
    polygon: &mut Vec<ClipVertex<T>>,
    start: usize,
    plane: &SidePlane<T>,
    cut: &Cut<'_, T>,
) -> bool {
    let n = polygon.len();
    let d = |i: usize| height(plane, &polygon[i].point);
    // From vertex `from` on, the first vertex outside the plane or the first inside (`out`),
    // `n` for none, with the height of the vertex before it (`before`: that of vertex
    // `from − 1`) and its own (for `n`, vertex 0's: the loop closes there). Each vertex's
    // height is measured once on this walk, and the crossings reuse them.
    let find = |from: usize, out: bool, before: T| {
        let mut previous = before;
        for i in from..n {
            let di = d(i);
            if outside(di) == out {
                return (i, previous, di);
            }
            previous = di;
        }
        (n, previous, d(0))
    };
    let wrap = |i: usize| if i == n { 0 } else { i };
    if start == 0 {
        // The run holds the first vertex: the vertices inside are `first_in..end`, and the
        // vertices from `end` on are the run's other part.
        let (first_in, d_last_out, d_first_in) = find(1, false, d(0));
        if first_in == n {
            return false;
        }
        let (end, d_last_in, d_end) = find(first_in + 1, true, d_first_in);
        if (end + 1..n).any(|i| !outside(d(i))) {
            return false;
        }
        let enter = crossing(
            &polygon[first_in - 1],
            &polygon[first_in],
            d_last_out,
            d_first_in,
            cut,
        );
        let mut leave = crossing(
            &polygon[end - 1],
            &polygon[wrap(end)],
            d_last_in,
            d_end,
            cut,
        );
        leave.edge = Along::Side(cut.k as u8);
        // The slot before the vertices inside takes the entering crossing, the one after them
        // the leaving crossing (a slot made for it at the loop's end), and the run goes.
        polygon[first_in - 1] = enter;
        if end == n {
            polygon.push(leave);
        } else {
            polygon[end] = leave;
            polygon.truncate(end + 1);
        }
        polygon.drain(..first_in - 1);
        return true;
    }
    // The run is `start..end` (`end` = n: it holds the last vertex), the rest inside.
    let (d_before, d_start) = (d(start - 1), d(start));
    let (end, d_last_out, d_end) = find(start + 1, false, d_start);
    if (end + 1..n).any(|i| outside(d(i))) {
        return false;
    }
    let mut leave = crossing(&polygon[start - 1], &polygon[start], d_before, d_start, cut);
    leave.edge = Along::Side(cut.k as u8);
    let enter = crossing(
        &polygon[end - 1],
        &polygon[wrap(end)],
        d_last_out,
        d_end,
        cut,
    );
    // The run's first slot takes the leaving crossing, the next one the entering crossing (a
    // slot made for it where the run is one vertex), and the rest of the run goes.
    polygon[start] = leave;
    if end == start + 1 {
        polygon.insert(end, enter);
    } else {
        polygon[start + 1] = enter;
        polygon.drain(start + 2..end);
    }
    true
}

fn clip_loop<T: Real>(
    polygon: &[ClipVertex<T>],
    plane: &SidePlane<T>,
    cut: &Cut<'_, T>,
    out: &mut Vec<ClipVertex<T>>,
) {
    let Some(first) = polygon.first() else {
        return;
    };
    let d_first = height(plane, &first.point);
    let last = polygon.len() - 1;
    let mut d_current = d_first;
    for (i, current) in polygon.iter().enumerate() {
        // Each vertex's height once: the edge from the last vertex closes the loop.
        let (j, d_next) = if i == last {
            (0, d_first)
        } else {
            (i + 1, height(plane, &polygon[i + 1].point))
        };
        let (inside, next_inside) = (d_current <= T::zero(), d_next <= T::zero());
        if inside {
            out.push(*current);
        }
        if inside != next_inside {
            let mut x = crossing(current, &polygon[j], d_current, d_next, cut);
            if inside {
                // Leaving: the polygon continues along the plane.
                x.edge = Along::Side(cut.k as u8);
            }
            // (Entering: the rest of the edge is kept, on the same edge.)
            out.push(x);
        }
        d_current = d_next;
    }
}

fn clip_segment<T: Real>(
    a: ClipVertex<T>,
    b: ClipVertex<T>,
    plane: &SidePlane<T>,
    cut: &Cut<'_, T>,
    out: &mut Vec<ClipVertex<T>>,
) {
    let (da, db) = (height(plane, &a.point), height(plane, &b.point));
    match (da <= T::zero(), db <= T::zero()) {
        (true, true) => out.extend([a, b]),
        (true, false) => out.extend([a, crossing(&a, &b, da, db, cut)]),
        (false, true) => out.extend([crossing(&a, &b, da, db, cut), b]),
        (false, false) => {}
    }
}

fn height<T: Real>(plane: &SidePlane<T>, p: &Point<T>) -> T {
    (p - plane.origin).dot(&plane.normal)
}

/// Whether a vertex at height `d` is outside the plane (`!(d ≤ 0)`: a NaN height too, as
/// [`clip_loop`] has it).
fn outside<T: Real>(d: T) -> bool {
    !(d <= T::zero())
}

/// The point where edge `a → b` (on `a.edge`) crosses the plane (`da`, `db` its heights, of
/// opposite signs); it continues along the same edge.
fn crossing<T: Real>(
    a: &ClipVertex<T>,
    b: &ClipVertex<T>,
    da: T,
    db: T,
    cut: &Cut<'_, T>,
) -> ClipVertex<T> {
    let t = da / (da - db);
    ClipVertex {
        point: a.point + (b.point - a.point) * t,
        label: cut.crossing_label(a.edge),
        edge: a.edge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INCIDENT: FeatureId = FeatureId::Face(9);

    /// A square of half-side `half` at height z, vertex ids 0..4, edge ids 10..14.
    fn square(half: f64, z: f64) -> Vec<ClipVertex<f64>> {
        [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
            .iter()
            .enumerate()
            .map(|(i, (x, y))| ClipVertex {
                point: Point::new(x * half, y * half, z),
                label: Label {
                    reference: FeatureId::Face(0),
                    incident: FeatureId::Vertex(i as u32),
                },
                edge: Along::Incident(FeatureId::Edge(10 + i as u32)),
            })
            .collect()
    }

    /// The side planes of the unit square: plane k is reference edge 20 + k, from corner
    /// 30 + k to corner 30 + (k + 1) % 4 (walking +x, +y, −x, −y sides).
    fn planes_of_unit_square() -> Vec<SidePlane<f64>> {
        [Vector::x(), Vector::y(), -Vector::x(), -Vector::y()]
            .iter()
            .enumerate()
            .map(|(k, n)| SidePlane {
                origin: Point::from(*n),
                normal: *n,
                feature: FeatureId::Edge(20 + k as u32),
                ends: [30 + k as u32, 30 + (k as u32 + 1) % 4],
            })
            .collect()
    }

    #[test]
    fn a_big_square_clipped_to_a_small_one_has_the_small_ones_corners() {
        let mut poly = square(2.0, 0.0);
        clip_against_planes(
            &mut poly,
            &planes_of_unit_square(),
            (INCIDENT, None),
            &mut Vec::new(),
        );
        // What is left is exactly the small square: its four corners, each labelled with the
        // reference corner (inside the incident face).
        assert_eq!(poly.len(), 4);
        let mut corners: Vec<FeatureId> = poly.iter().map(|v| v.label.reference).collect();
        corners.sort();
        let expected: Vec<FeatureId> = (30..34).map(FeatureId::Vertex).collect();
        assert_eq!(corners, expected);
        for v in &poly {
            assert!((v.point.x.abs() - 1.0).abs() < 1e-12 && (v.point.y.abs() - 1.0).abs() < 1e-12);
            assert_eq!(v.label.incident, INCIDENT);
        }
    }

    #[test]
    fn a_square_inside_is_untouched_and_keeps_its_labels() {
        let mut poly = square(0.5, 0.0);
        clip_against_planes(
            &mut poly,
            &planes_of_unit_square(),
            (INCIDENT, None),
            &mut Vec::new(),
        );
        assert_eq!(poly, square(0.5, 0.0));
    }

    /// A square turned by 45° across the unit square: eight crossings of an incident edge with
    /// a side plane, each labelled (reference edge, incident edge) — the same labels whichever
    /// plane is applied first.
    #[test]
    fn crossings_name_the_two_edges_whatever_the_plane_order() {
        let diamond = |r: f64| -> Vec<ClipVertex<f64>> {
            (0..4)
                .map(|i| {
                    let a = std::f64::consts::FRAC_PI_2 * f64::from(i);
                    ClipVertex {
                        point: Point::new(r * a.cos(), r * a.sin(), 0.0),
                        label: Label {
                            reference: FeatureId::Face(0),
                            incident: FeatureId::Vertex(i),
                        },
                        edge: Along::Incident(FeatureId::Edge(10 + i)),
                    }
                })
                .collect()
        };
        let labels = |planes: &[SidePlane<f64>]| {
            let mut poly = diamond(1.3);
            clip_against_planes(&mut poly, planes, (INCIDENT, None), &mut Vec::new());
            let mut l: Vec<(FeatureId, FeatureId)> = poly
                .iter()
                .map(|v| (v.label.reference, v.label.incident))
                .collect();
            l.sort();
            l
        };
        let planes = planes_of_unit_square();
        let forward = labels(&planes);
        assert_eq!(forward.len(), 8);
        for (r, i) in &forward {
            assert!(matches!((r, i), (FeatureId::Edge(_), FeatureId::Edge(_))));
        }
        let mut rotated = planes.clone();
        rotated.rotate_left(2);
        assert_eq!(labels(&rotated), forward);
    }

    #[test]
    fn a_segment_is_clipped_to_its_overlap() {
        let a = ClipVertex {
            point: Point::new(-3.0, 0.2, 0.0),
            label: Label {
                reference: FeatureId::Face(0),
                incident: FeatureId::Vertex(7),
            },
            edge: Along::Incident(FeatureId::Edge(3)),
        };
        let b = ClipVertex {
            point: Point::new(0.5, 0.2, 0.0),
            label: Label {
                reference: FeatureId::Face(0),
                incident: FeatureId::Vertex(9),
            },
            edge: Along::Incident(FeatureId::Edge(3)),
        };
        let mut seg = vec![a, b];
        clip_against_planes(
            &mut seg,
            &planes_of_unit_square(),
            (INCIDENT, None),
            &mut Vec::new(),
        );
        assert_eq!(seg.len(), 2);
        assert!((seg[0].point.x + 1.0).abs() < 1e-12);
        assert_eq!(
            seg[0].label,
            Label {
                reference: FeatureId::Edge(22),
                incident: FeatureId::Edge(3)
            }
        );
        assert_eq!(seg[1], b);
    }

    /// A segment along the square's +y side, just outside it, with that plane skipped: clipped
    /// to the ±x sides only, whichever order the planes come in; without the skip, gone.
    #[test]
    fn a_skipped_plane_does_not_cut() {
        let segment = [(-3.0, 7), (0.5, 9)]
            .map(|(x, id)| ClipVertex {
                point: Point::new(x, 1.0 + 1e-9, 0.0),
                label: Label {
                    reference: FeatureId::Face(0),
                    incident: FeatureId::Vertex(id),
                },
                edge: Along::Incident(FeatureId::Edge(3)),
            })
            .to_vec();
        let planes = planes_of_unit_square();
        let mut reversed = planes.clone();
        reversed.reverse();
        for (planes, skip) in [(&planes, 1), (&reversed, 2)] {
            let mut seg = segment.clone();
            clip_against_planes(&mut seg, planes, (INCIDENT, Some(skip)), &mut Vec::new());
            assert_eq!(seg.len(), 2);
            assert!((seg[0].point.x + 1.0).abs() < 1e-12 && seg[1] == segment[1]);
            assert_eq!(seg[0].label.reference, FeatureId::Edge(22));
        }
        let mut seg = segment.clone();
        clip_against_planes(&mut seg, &planes, (INCIDENT, None), &mut Vec::new());
        assert!(seg.is_empty());
    }

    #[test]
    fn everything_outside_is_removed() {
        let mut poly = square(0.5, 0.0);
        for v in &mut poly {
            v.point.x += 5.0;
        }
        clip_against_planes(
            &mut poly,
            &planes_of_unit_square(),
            (INCIDENT, None),
            &mut Vec::new(),
        );
        assert!(poly.is_empty());
    }

    /// The in-place cut (`cut_one_run`) is the copying walk's (`clip_loop`) answer bit for
    /// bit: random convex loops (16-gons of jittered radius, turned, in f32 as the towers'
    /// caps are) against planes through random points near their rims, in random directions.
    /// The sample must take the in-place path often, a run holding the loop's first or last
    /// vertex too, and leave it often (a plane missing the loop).
    #[test]
    fn the_in_place_cut_is_the_walks_answer() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        let (mut in_place, trials) = (0, 4000);
        for _ in 0..trials {
            let turn = rng.random_range(0.0..core::f32::consts::TAU);
            let polygon: Vec<ClipVertex<f32>> = (0..16)
                .map(|i| {
                    let angle = turn + i as f32 * core::f32::consts::TAU / 16.0;
                    let r = rng.random_range(0.99f32..1.0);
                    ClipVertex {
                        point: Point::new(r * angle.cos(), 0.0, -r * angle.sin()),
                        label: Label {
                            reference: FeatureId::Face(0),
                            incident: FeatureId::Vertex(i),
                        },
                        edge: Along::Incident(FeatureId::Edge(i)),
                    }
                })
                .collect();
            let at = rng.random_range(0.0..core::f32::consts::TAU);
            let reach = rng.random_range(0.8f32..1.1);
            let tilt = at + rng.random_range(-0.5f32..0.5);
            let planes = [SidePlane {
                origin: Point::new(reach * at.cos(), 0.0, -reach * at.sin()),
                normal: Vector::new(tilt.cos(), rng.random_range(-0.1..0.1), -tilt.sin()),
                feature: FeatureId::Edge(40),
                ends: [50, 51],
            }];
            let cut = Cut {
                planes: &planes,
                k: 0,
                incident_face: INCIDENT,
            };
            let Some(first_out) = polygon
                .iter()
                .position(|v| outside(height(&planes[0], &v.point)))
            else {
                continue;
            };
            let mut walked = Vec::new();
            clip_loop(&polygon, &planes[0], &cut, &mut walked);
            let mut cut_here = polygon.clone();
            if cut_one_run(&mut cut_here, first_out, &planes[0], &cut) {
                in_place += 1;
                assert_eq!(cut_here, walked);
            } else {
                assert_eq!(cut_here, polygon);
            }
        }
        assert!(
            (trials / 3..trials * 9 / 10).contains(&in_place),
            "in place {in_place} of {trials}"
        );
    }
}
