//! Exact penetration of two boxes by the separating-axis test (Gottschalk, Lin, Manocha 1996;
//! Ericson, *Real-Time Collision Detection* 4.4.1 and 5.2.1).
//!
//! For convex polytopes the penetration depth (the minimum translation that separates them) is
//! attained along a face normal of their Minkowski difference; for two boxes those are the three
//! face normals of each box and the nine cross products of their edge directions. The depth is
//! the smallest overlap of the two boxes' projections over these fifteen axes, which is what a
//! resting stack needs every frame — without EPA.
//!
//! * Everything is in A's frame (box A axis-aligned at the origin, B at `pos12`).
//! * Edge–edge axes of nearly parallel edges (`|e_i × f_j| < 1e-6`, or the f32 equivalent) are
//!   skipped: their directions are rounding noise, and the face axes cover those configurations.
//! * A face axis is preferred to an edge axis whose overlap is smaller by less than the accuracy
//!   target (relative to the smaller box, above the coordinates' rounding), so rounding cannot
//!   make the normal flicker between the two; of the edge axes within that of the shallowest,
//!   the first whose support edges cross along it is taken (rounding can order near-equal
//!   overlaps either way, and only a crossing pair's overlap is a face of the Minkowski
//!   difference).
//! * Witness points: for a face axis, the deepest vertex of the other box's incident face that
//!   lies over the reference face (after clipping the incident face against the reference
//!   face's side planes); for an edge–edge axis, the closest points of the two edges. Both lie
//!   on the surfaces and satisfy `point2 − point1 = −depth · normal`. The per-frame pipeline,
//!   whose manifold clips the incident face anyway, leaves a face axis's witness to it
//!   ([`Witnesses::ByManifold`]): the other box's support vertex and its image on the face's
//!   plane, so that the incident face is clipped once per frame, not twice.
//!
//! Cores of rounded boxes are handled by the caller: their radii add to the depth unchanged.
//!
//! Box–box pairs could take the general polytope test (`polytope_sat.rs`, which this one
//! agrees with); this closed form is kept because it is measurably cheaper on resting stacks
//! (fifteen projected radii, no bounds, no edge list, no cache): about 2.6k instructions per
//! pair against 9k (`benches/callgrind.sh pipeline resting_boxes`).

use nalgebra::Matrix3;
use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::Cuboid;
use num_traits::Float;

use super::polytope_sat::closest_parameters;
use super::{LocalContact, WinningFace, Witnesses};

/// The penetration of box `a` (at the origin) and box `b` (at `pos12`), or `None` when a
/// separating axis shows they are apart (GJK then measures the distance). Touching boxes
/// (overlap 0) are penetrating with depth 0.
///
/// With [`Witnesses::ByManifold`], a face axis's witnesses are the other box's support vertex
/// and its image on the face's plane, and the face is returned with them (the manifold's
/// clipping finds the deepest point over the face: see [`SupportHints::witness_on_plane`]);
/// otherwise, and for an edge axis, the witnesses are exact and the face `None`.
///
/// [`SupportHints::witness_on_plane`]: super::SupportHints::witness_on_plane
pub(crate) fn cuboid_penetration<T: Real>(
    a: &Cuboid<T>,
    b: &Cuboid<T>,
    pos12: &Isometry<T>,
    witnesses: Witnesses,
) -> Option<(LocalContact<T>, Option<WinningFace>)> {
    let ha = a.half_extents();
    let hb = b.half_extents();
    let r: Matrix3<T> = *pos12.rotation.to_rotation_matrix().matrix();
    let t = pos12.translation.vector;
    let axes_b = [
        r.column(0).into_owned(),
        r.column(1).into_owned(),
        r.column(2).into_owned(),
    ];
    // Projected radius of each box along a unit axis (A's axes are the standard basis).
    let radius_a =
        |l: &Vector<T>| ha.x * Float::abs(l.x) + ha.y * Float::abs(l.y) + ha.z * Float::abs(l.z);
    let radius_b = |l: &Vector<T>| {
        hb.x * Float::abs(axes_b[0].dot(l))
            + hb.y * Float::abs(axes_b[1].dot(l))
            + hb.z * Float::abs(axes_b[2].dot(l))
    };
    let overlap = |l: &Vector<T>| radius_a(l) + radius_b(l) - Float::abs(t.dot(l));

    // The accuracy of docs/accuracy.md is relative to the smaller box, above the rounding of
    // the coordinates (B's offset included), as in `polytope_sat.rs`: relative to the larger
    // box a small one's face axis could win against an edge axis shallower by more than its
    // accuracy, and its clipped witness lie that far past its face (f32, a 1 cm box under a
    // 100 m one: 1.1e-3 past it).
    let (small, large) = (
        Float::min(ha.norm(), hb.norm()),
        Float::max(ha.norm(), hb.norm()),
    );
    let tie = T::TOLERANCES.length(T::TOLERANCES.accuracy, small, small + large + t.norm());
    let mut best = Axis {
        overlap: T::infinity(),
        axis: Vector::x(),
        kind: AxisKind::FaceA(0),
    };
    for i in 0..3 {
        let l = Vector::ith(i, T::one());
        best.consider(overlap(&l), l, AxisKind::FaceA(i));
    }
    for (j, l) in axes_b.iter().enumerate() {
        best.consider(overlap(l), *l, AxisKind::FaceB(j));
    }
    if best.overlap < T::zero() {
        return None;
    }
    // The edge axes: the unit `e_i × f_j`, unless the edges are parallel.
    let parallel = Float::sqrt(T::TOLERANCES.degenerate);
    let edge_axes = || {
        (0..3)
            .flat_map(|i| (0..3).map(move |j| (i, j)))
            .filter_map(|(i, j)| {
                let l = Vector::<T>::ith(i, T::one()).cross(&axes_b[j]);
                let len = l.norm();
                (len >= parallel).then(|| (l / len, AxisKind::Edges(i, j)))
            })
    };
    let mut shallowest = Axis {
        overlap: T::infinity(),
        axis: Vector::x(),
        kind: AxisKind::Edges(0, 0),
    };
    for (l, kind) in edge_axes() {
        shallowest.consider(overlap(&l), l, kind);
    }
    // The witnesses of the edge axis taken, where its support edges were found to cross.
    let mut crossing = None;
    if shallowest.overlap < best.overlap - tie {
        // An edge axis beats the faces by more than the tie. Of the edge axes within the tie
        // of the shallowest (which rounding may have put in either order), the shallowest
        // whose two support edges really cross along it is taken: only there is the overlap a
        // face of the Minkowski difference, with witnesses on the edges `depth · n` apart. Two
        // axes 2.1e-5 apart at coordinates of 170 (f32, a 1 cm box at a 250 m box's edge)
        // came out in the wrong order, and the first's witnesses were 1.4e-4 off the normal.
        let crosses = |l: &Vector<T>| {
            let n = if t.dot(l) < T::zero() { -l } else { *l };
            let (p1, p2) = edge_witnesses(&ha, &hb, &axes_b, &t, &n);
            let gap = p2 - p1;
            ((gap - n * gap.dot(&n)).norm() <= tie).then_some((p1, p2))
        };
        best = shallowest;
        crossing = crosses(&best.axis);
        if crossing.is_none() {
            let mut near = Axis {
                overlap: T::infinity(),
                ..best
            };
            for (l, kind) in edge_axes() {
                let o = overlap(&l);
                if o <= best.overlap + tie
                    && kind != best.kind
                    && o < near.overlap
                    && let Some(pair) = crosses(&l)
                {
                    near.consider(o, l, kind);
                    crossing = Some(pair);
                }
            }
            if near.overlap < T::infinity() {
                best = near;
            }
        }
    }
    if best.overlap < T::zero() {
        return None;
    }

    // Orient the axis from A toward B.
    let normal = if t.dot(&best.axis) < T::zero() {
        -best.axis
    } else {
        best.axis
    };
    let depth = best.overlap;
    // The support vertex of a box (half-extents `h`, axes `axes`, centre `c`) along `dir`.
    let support = |h: &Vector<T>, axes: &[Vector<T>; 3], c: &Vector<T>, dir: &Vector<T>| {
        axes.iter().enumerate().fold(*c, |p, (k, axis)| {
            if axis.dot(dir) < T::zero() {
                p - axis * h[k]
            } else {
                p + axis * h[k]
            }
        })
    };
    let exact = |point1, point2| {
        LocalContact::exact(point1, point2, UnitVector::new_unchecked(normal), -depth)
    };
    if witnesses == Witnesses::ByManifold {
        let axes_a = [Vector::x(), Vector::y(), Vector::z()];
        match best.kind {
            AxisKind::FaceA(_) => {
                let on_b = Point::from(support(&hb, &axes_b, &t, &-normal));
                return Some((exact(on_b + normal * depth, on_b), Some(WinningFace::A)));
            }
            AxisKind::FaceB(_) => {
                let on_a = Point::from(support(&ha, &axes_a, &Vector::zeros(), &normal));
                return Some((exact(on_a, on_a - normal * depth), Some(WinningFace::B)));
            }
            AxisKind::Edges(..) => {}
        }
    }
    let (point1, point2) = match best.kind {
        AxisKind::FaceA(i) => {
            match deepest_incident_vertex(&hb, &axes_b, &t, (&ha, i), &normal, tie) {
                Some((on_b, _)) => (on_b + normal * depth, on_b),
                None => edge_witnesses(&ha, &hb, &axes_b, &t, &normal),
            }
        }
        AxisKind::FaceB(j) => {
            // The same with the roles swapped: work in B's frame, where B is axis-aligned.
            let inv = pos12.inverse();
            let r_inv = *inv.rotation.to_rotation_matrix().matrix();
            let axes_a = [
                r_inv.column(0).into_owned(),
                r_inv.column(1).into_owned(),
                r_inv.column(2).into_owned(),
            ];
            let normal_b = inv.rotation * -normal;
            let incident = deepest_incident_vertex(
                &ha,
                &axes_a,
                &inv.translation.vector,
                (&hb, j),
                &normal_b,
                tie,
            );
            match incident {
                Some((on_a_in_b, (k, side))) => {
                    // Back in A's frame the point is put on A's incident face exactly (an axis
                    // plane there) and within its bounds: the round trip through B's frame
                    // rounds at B's coordinates (f32, a 1 cm box 200 m from a large box's
                    // centre: 1.2e-4 off A's face).
                    let mut on_a = pos12 * on_a_in_b;
                    for m in 0..3 {
                        on_a[m] = Float::min(Float::max(on_a[m], -ha[m]), ha[m]);
                    }
                    on_a[k] = side * ha[k];
                    (on_a, on_a - normal * depth)
                }
                None => edge_witnesses(&ha, &hb, &axes_b, &t, &normal),
            }
        }
        AxisKind::Edges(..) => {
            crossing.unwrap_or_else(|| edge_witnesses(&ha, &hb, &axes_b, &t, &normal))
        }
    };
    Some((exact(point1, point2), None))
}

/// Which kind of axis gave the smallest overlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AxisKind {
    /// Face normal `i` of A.
    FaceA(usize),
    /// Face normal `j` of B.
    FaceB(usize),
    /// Cross product of A's edge direction `i` and B's edge direction `j`.
    Edges(usize, usize),
}

/// The best axis so far.
struct Axis<T: Real> {
    overlap: T,
    axis: Vector<T>,
    kind: AxisKind,
}

impl<T: Real> Axis<T> {
    /// Takes `axis` if its overlap is smaller (the first of equal ones stays).
    fn consider(&mut self, overlap: T, axis: Vector<T>, kind: AxisKind) {
        if overlap < self.overlap {
            *self = Axis {
                overlap,
                axis,
                kind,
            };
        }
    }
}

/// The deepest point of box `other`'s incident face (its face most opposed to `normal`) over the
/// reference box's face `i`: the incident face (half-extents `ho`, axes `axes_o`, centre `c`, all
/// in the reference box's frame, where the reference box has half-extents `hr`) is clipped to
/// the face's prism `|p_m| ≤ hr_m + slack` (m ≠ i; `slack` the pair's tie, so that rounding
/// does not cut off a vertex on a side plane), and the clipped vertex furthest along `−normal`
/// is returned, with the incident face (`k` and the side, ±1, of `other`'s axis `k`). At the
/// penetration depth the deepest points of `other` lie over the face, so this point is as deep
/// as the overlap. `None` when the clipped polygon is empty (rounding).
fn deepest_incident_vertex<T: Real>(
    ho: &Vector<T>,
    axes_o: &[Vector<T>; 3],
    c: &Vector<T>,
    (hr, i): (&Vector<T>, usize),
    normal: &Vector<T>,
    slack: T,
) -> Option<(Point<T>, (usize, T))> {
    let (k, _) = axes_o
        .iter()
        .enumerate()
        .map(|(k, axis)| (k, Float::abs(axis.dot(normal))))
        .fold((0, T::neg_infinity()), |best, cur| {
            if cur.1 > best.1 { cur } else { best }
        });
    let sign = if axes_o[k].dot(normal) > T::zero() {
        -T::one()
    } else {
        T::one()
    };
    let face_center = c + axes_o[k] * (sign * ho[k]);
    let (u, v) = ((k + 1) % 3, (k + 2) % 3);
    // Sutherland–Hodgman between two buffers (a convex quad cut by four planes keeps at most
    // eight vertices; a ninth, possible only from rounding, is dropped).
    let mut buffers = [[Vector::zeros(); 8]; 2];
    for (slot, (su, sv)) in buffers[0]
        .iter_mut()
        .zip([(1, 1), (-1, 1), (-1, -1), (1, -1)])
    {
        *slot = face_center
            + axes_o[u] * (T::lit(f64::from(su)) * ho[u])
            + axes_o[v] * (T::lit(f64::from(sv)) * ho[v]);
    }
    let (mut current, mut len) = (0, 4);
    for m in (0..3).filter(|&m| m != i) {
        for side in [T::one(), -T::one()] {
            // Keep side·p_m ≤ hr_m: each vertex's height once; a plane with every vertex
            // inside leaves the polygon as it is.
            let [first, second] = &mut buffers;
            let (polygon, clipped) = if current == 0 {
                (&first[..len], second)
            } else {
                (&second[..len], first)
            };
            let mut heights = [T::zero(); 8];
            for (h, p) in heights.iter_mut().zip(polygon) {
                *h = side * p[m] - hr[m] - slack;
            }
            let heights = &heights[..len];
            if heights.iter().all(|&h| h <= T::zero()) {
                continue;
            }
            let mut kept = 0;
            let mut keep = |p: Vector<T>| {
                if kept < clipped.len() {
                    clipped[kept] = p;
                    kept += 1;
                }
            };
            for (n, (p, &hp)) in polygon.iter().zip(heights).enumerate() {
                let next = if n + 1 == len { 0 } else { n + 1 };
                let hq = heights[next];
                if hp <= T::zero() {
                    keep(*p);
                }
                if (hp <= T::zero()) != (hq <= T::zero()) {
                    let q = polygon[next];
                    keep(p + (q - p) * (hp / (hp - hq)));
                }
            }
            if kept == 0 {
                return None;
            }
            (current, len) = (1 - current, kept);
        }
    }
    let polygon = &buffers[current][..len];
    let deepest = polygon.iter().fold(polygon[0], |best, p| {
        if p.dot(normal) < best.dot(normal) {
            *p
        } else {
            best
        }
    });
    Some((Point::from(deepest), (k, sign)))
}

/// The closest points of the two boxes' edges that support them along `normal` (A's along
/// `normal`, B's along `−normal`), for an edge–edge axis or as the fallback of a face axis.
fn edge_witnesses<T: Real>(
    ha: &Vector<T>,
    hb: &Vector<T>,
    axes_b: &[Vector<T>; 3],
    t: &Vector<T>,
    normal: &Vector<T>,
) -> (Point<T>, Point<T>) {
    // The support edge of a box along `dir`: of the three axis directions, the one most
    // perpendicular to `dir`, through the support vertex.
    let support_edge =
        |h: &Vector<T>, axes: &[Vector<T>; 3], center: &Vector<T>, dir: &Vector<T>| {
            let (k, _) = axes
                .iter()
                .enumerate()
                .map(|(k, a)| (k, Float::abs(a.dot(dir))))
                .fold(
                    (0, T::infinity()),
                    |best, cur| if cur.1 < best.1 { cur } else { best },
                );
            let mut mid = *center;
            for (m, a) in axes.iter().enumerate() {
                if m != k {
                    let s = if a.dot(dir) >= T::zero() {
                        T::one()
                    } else {
                        -T::one()
                    };
                    mid += a * (s * h[m]);
                }
            }
            (mid - axes[k] * h[k], mid + axes[k] * h[k])
        };
    let axes_a = [Vector::x(), Vector::y(), Vector::z()];
    let (p0, p1) = support_edge(ha, &axes_a, &Vector::zeros(), normal);
    let (q0, q1) = support_edge(hb, axes_b, t, &-normal);
    let (p0, d1) = near_part(&p0, &(p1 - p0), &q0, &(q1 - q0));
    let (q0, d2) = near_part(&q0, &(q1 - q0), &p0, &d1);
    let (s, u) = closest_parameters(&p0, &d1, &q0, &d2);
    (Point::from(p0 + d1 * s), Point::from(q0 + d2 * u))
}

/// The part of the segment `p0 + s d` (s ∈ [0, 1]) that can hold its closest point to the
/// segment `q0 + u e`: for the best `u` the best `s` is the projection of `q0 + u e` onto the
/// line, clamped to the segment, which lies within `|e| / |d|` of the projection of `q0` — so
/// the parameters within twice that (clamped) keep it. Solving on that part instead of the
/// whole edge keeps the solve's rounding to the short edge's scale: a 1 cm box's edge against
/// a 200 m box's (f32), whose closest points otherwise came out 1.3e-4 off their common normal.
fn near_part<T: Real>(
    p0: &Vector<T>,
    d: &Vector<T>,
    q0: &Vector<T>,
    e: &Vector<T>,
) -> (Vector<T>, Vector<T>) {
    let len2 = d.norm_squared();
    let reach = T::lit(2.0) * e.norm() / Float::sqrt(len2);
    if !(len2 > T::zero()) || !(reach < T::one()) {
        return (*p0, *d);
    }
    let k = (q0 - p0).dot(d) / len2;
    let clamp = |x: T| Float::min(Float::max(x, T::zero()), T::one());
    let (lo, hi) = (clamp(k - reach), clamp(k + reach));
    (p0 + d * lo, d * (hi - lo))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PairWorkspace, query_pair};
    use nphase_gjk::SimplexCache;
    use nphase_math::nalgebra::{Quaternion, UnitQuaternion, convert};
    use nphase_shapes::{Shape, SupportMap};
    use rand::{Rng, SeedableRng};

    fn random_box<T: Real>(rng: &mut impl Rng, sizes: std::ops::Range<f64>) -> Cuboid<T> {
        let h = Vector::new(
            rng.random_range(sizes.clone()),
            rng.random_range(sizes.clone()),
            rng.random_range(sizes),
        );
        Cuboid::new(h.map(T::lit)).expect("valid")
    }

    fn random_rotation(rng: &mut impl Rng) -> Vector<f64> {
        let axis = Vector::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let angle = if rng.random_bool(0.3) {
            0.0
        } else {
            rng.random_range(0.0..3.0)
        };
        axis.normalize() * angle
    }

    /// The box as a convex hull of its corners: the general path (the polytope separating-axis
    /// test, or GJK and EPA), which shares no code with this file.
    fn as_hull<T: Real>(b: &Cuboid<T>) -> Shape<T> {
        let h = b.half_extents();
        let corners: Vec<Point<T>> = (0..8)
            .map(|k| {
                let sign = |bit: usize| if k & bit == 0 { -T::one() } else { T::one() };
                Point::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z)
            })
            .collect();
        Shape::convex(&corners).expect("a box's corners span a hull")
    }

    /// Checks the SAT answer for `(a, b, pos12)` against the general path on the same boxes as
    /// hulls: same depth, and a normal along which the support gap is that depth (a valid
    /// minimiser even where the general path picked another of several), witnesses on the
    /// surfaces — each inside its box and the first on A's support plane — with
    /// `p2 − p1 = −depth·n`. All within `tol`. `true` when both say the boxes overlap.
    fn agrees<T: Real>(a: &Cuboid<T>, b: &Cuboid<T>, pos12: &Isometry<T>, tol: f64) -> bool {
        let mut cache = SimplexCache::EMPTY;
        let general = query_pair(
            &as_hull(a),
            &as_hull(b),
            pos12,
            T::zero(),
            &mut cache,
            &mut PairWorkspace::new(),
        )
        .contact;
        let sat = cuboid_penetration(a, b, pos12, Witnesses::Exact).map(|(c, _)| c);
        let context = || format!("a {a:?} b {b:?} pos12 {pos12:?}");
        match (sat, general) {
            (None, None) => false,
            (None, Some(c)) => {
                assert!(
                    c.dist.as_f64() > -tol,
                    "SAT says apart, hulls {c:?}: {}",
                    context()
                );
                false
            }
            (Some(s), None) => {
                assert!(
                    s.dist.as_f64() > -tol,
                    "hulls say apart, SAT {s:?}: {}",
                    context()
                );
                false
            }
            (Some(s), Some(c)) => {
                assert!(
                    (s.dist.as_f64() - c.dist.as_f64()).abs() <= tol,
                    "depth {} vs the hulls' {}: {}",
                    s.dist,
                    c.dist,
                    context()
                );
                // The answer is checked in f64 on the same boxes and pose (the f32 values
                // exactly), so that the checks add no rounding of their own.
                let f64_vector = |v: &Vector<T>| v.map(|x| x.as_f64());
                let (ha, hb) = (f64_vector(&a.half_extents()), f64_vector(&b.half_extents()));
                let rotation = UnitQuaternion::new_normalize(Quaternion::from(
                    pos12.rotation.coords.map(|x| x.as_f64()),
                ));
                let pose =
                    Isometry::from_parts(f64_vector(&pos12.translation.vector).into(), rotation);
                let (a, b) = (
                    Cuboid::new(ha).expect("valid"),
                    Cuboid::new(hb).expect("valid"),
                );
                let n = f64_vector(&s.normal.into_inner());
                let (p1, p2) = (s.point1.map(|x| x.as_f64()), s.point2.map(|x| x.as_f64()));
                let dist = s.dist.as_f64();
                let gap = a.local_support_point(&n).coords.dot(&n)
                    + b.support_point(&pose, &-n).coords.dot(&-n);
                assert!(
                    (gap + dist).abs() <= tol,
                    "normal {n:?}: gap {gap} vs {}: {}",
                    -dist,
                    context()
                );
                let mismatch = ((p2 - p1) - n * dist).norm();
                assert!(
                    mismatch <= tol,
                    "witness pair off by {mismatch:e}: {s:?}: {}",
                    context()
                );
                let on_a = a.local_support_point(&n).coords.dot(&n) - p1.coords.dot(&n);
                assert!(
                    on_a.abs() <= tol,
                    "point1 off A's support plane by {on_a}: {}",
                    context()
                );
                let outside = |h: &Vector<f64>, p: &Point<f64>| {
                    (0..3).fold(0.0, |m: f64, k| m.max(p[k].abs() - h[k]))
                };
                let (out1, out2) = (
                    outside(&ha, &p1),
                    outside(&hb, &pose.inverse_transform_point(&p2)),
                );
                assert!(
                    out1 <= tol && out2 <= tol,
                    "witnesses {out1:e}, {out2:e} outside their boxes: {s:?}: {}",
                    context()
                );
                true
            }
        }
    }

    /// Random boxes of comparable sizes at random poses.
    fn agrees_on_random_boxes<T: Real>(seed: u64, tol_rel: f64) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut penetrating = 0;
        for _ in 0..3000 {
            let a = random_box::<T>(&mut rng, 0.1..1.5);
            let b = random_box::<T>(&mut rng, 0.1..1.5);
            let t = Vector::new(
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
            );
            let pos12 = Isometry::new(t.map(T::lit), random_rotation(&mut rng).map(T::lit));
            let size = (a.half_extents().norm() + b.half_extents().norm()).as_f64();
            penetrating += usize::from(agrees(&a, &b, &pos12, tol_rel * size));
        }
        assert!(penetrating > 500, "only {penetrating} penetrating pairs");
    }

    #[test]
    fn sat_agrees_with_the_general_path_on_random_boxes() {
        agrees_on_random_boxes::<f64>(1, 1e-9);
        agrees_on_random_boxes::<f32>(2, 1e-4);
    }

    /// A box of 0.005–0.05 against one of 20–200, either as A, placed at a random point of the
    /// large box's surface (a face, an edge or a corner) and turned at random, from sunk by its
    /// own size to apart: held to docs/accuracy.md's small-on-large tolerance, `tol_small` of the
    /// small box plus `tol_rel` of the scale (the disparity sets' tolerances). The tie between a
    /// face axis and an edge axis, and the clipping's slack, were relative to the two boxes'
    /// sizes: a witness 1.1e-3 past a 1 cm box's face in f32 (the oracle's fresh disparity set,
    /// seed 102, pair 832).
    fn agrees_small_on_large<T: Real>(seed: u64, (tol_small, tol_rel): (f64, f64)) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut penetrating = 0;
        for k in 0..3000 {
            let small = random_box::<T>(&mut rng, 0.005..0.05);
            let large = random_box::<T>(&mut rng, 20.0..200.0);
            let h = large.half_extents().map(|x| x.as_f64());
            // A point of the large box's surface: a random point of a random face, with one
            // or two more coordinates snapped to their bound (an edge, a corner) now and then.
            let mut on = Vector::new(
                rng.random_range(-h.x..h.x),
                rng.random_range(-h.y..h.y),
                rng.random_range(-h.z..h.z),
            );
            for m in 0..rng.random_range(1..4) {
                let axis = (k + m) % 3;
                on[axis] = if rng.random_bool(0.5) {
                    h[axis]
                } else {
                    -h[axis]
                };
            }
            let offset = Vector::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ) * small.half_extents().norm().as_f64();
            let large_pose = Isometry::new(Vector::zeros(), random_rotation(&mut rng));
            let small_pose = Isometry::new(large_pose * (on + offset), random_rotation(&mut rng));
            let size = small.half_extents().norm().as_f64();
            let scale = h.norm();
            let tol = tol_small * size + tol_rel * scale;
            let convert = |iso: &Isometry<f64>| {
                Isometry::from_parts(
                    iso.translation.vector.map(T::lit).into(),
                    convert(iso.rotation),
                )
            };
            let (a, b, pos12) = if k % 2 == 0 {
                (small, large, small_pose.inv_mul(&large_pose))
            } else {
                (large, small, large_pose.inv_mul(&small_pose))
            };
            penetrating += usize::from(agrees(&a, &b, &convert(&pos12), tol));
        }
        assert!(penetrating > 500, "only {penetrating} penetrating pairs");
    }

    #[test]
    fn sat_agrees_with_the_general_path_small_on_large() {
        agrees_small_on_large::<f64>(3, (1e-9, 1e-12));
        agrees_small_on_large::<f32>(4, (1e-4, 5e-7));
    }
}
