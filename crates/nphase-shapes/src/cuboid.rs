//! The cuboid (box): `|x_i| ≤ half_extents_i` in its local frame.

use nphase_math::{Point, Real, Vector};
use num_traits::Float;

use crate::error::check_lengths;
use crate::{
    FACE_TIE_HOLD, FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap, SupportVertex,
    VertexId,
};

/// An axis-aligned box centred on the local origin.
///
/// Vertex `i` (0..8) has coordinate `x_k = −half_extents_k` where bit `k` of `i` is set, else
/// `+half_extents_k`. Face `2k` has outward normal `+e_k`, face `2k + 1` has `−e_k`. The edge
/// along axis `k` through vertex `i` is edge `4k + b_u + 2·b_v`, where `b_u`, `b_v` are the bits
/// of `i` for the other two axes `u = k + 1`, `v = k + 2` (mod 3): edges 0..4 run along x,
/// 4..8 along y, 8..12 along z ([`Cuboid::edge_id`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<T: Real> {
    half_extents: Vector<T>,
}

impl<T: Real> Cuboid<T> {
    /// A box with the given half-extents (each finite and ≥ 0, within the precision's
    /// input range; zero gives a flat box).
    pub fn new(half_extents: Vector<T>) -> Result<Self, ShapeError> {
        let [x, y, z] = [half_extents.x, half_extents.y, half_extents.z];
        check_lengths(
            "cuboid",
            &[
                ("half_extents.x", x),
                ("half_extents.y", y),
                ("half_extents.z", z),
            ],
        )?;
        Ok(Cuboid { half_extents })
    }

    /// The half-extents.
    pub fn half_extents(&self) -> Vector<T> {
        self.half_extents
    }

    /// Vertex `id` (0..8), numbered as in the type's doc.
    pub fn vertex(&self, id: u32) -> Point<T> {
        let h = self.half_extents;
        let sign = |bit: u32| {
            if id & (1 << bit) != 0 {
                -T::one()
            } else {
                T::one()
            }
        };
        Point::new(h.x * sign(0), h.y * sign(1), h.z * sign(2))
    }

    /// The id of the edge joining vertices `a` and `b` (0..8), which differ in exactly one bit
    /// (numbered as in the type's doc).
    pub const fn edge_id(a: u32, b: u32) -> u32 {
        debug_assert!((a ^ b).count_ones() == 1, "the two vertices share no edge");
        let k = (a ^ b).trailing_zeros();
        let (u, v) = ((k + 1) % 3, (k + 2) % 3);
        4 * k + (a >> u & 1) + 2 * (a >> v & 1)
    }

    /// The four vertex ids of face `face` (0..6), counter-clockwise seen from outside.
    pub const fn face_vertex_ids(face: u32) -> [u32; 4] {
        // Each face fixes one bit (its axis); the loop walks the other two bits in an order that
        // turns counter-clockwise about the outward normal: for +x (bit 0 clear) the loop is
        // (+y+z) → (−y+z) → (−y−z) → (+y−z) in (y, z), and so on cyclically.
        let axis = face / 2;
        let negative = face % 2 == 1;
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        let fixed = if negative { 1 << axis } else { 0 };
        let ccw = [
            fixed,
            fixed | 1 << u,
            fixed | 1 << u | 1 << v,
            fixed | 1 << v,
        ];
        if negative {
            [ccw[0], ccw[3], ccw[2], ccw[1]]
        } else {
            ccw
        }
    }

    /// The edge ids of face `face`'s loop: edge `k` joins vertices `k` and `k + 1` of
    /// [`Cuboid::face_vertex_ids`].
    pub const fn face_edge_ids(face: u32) -> [u32; 4] {
        let ids = Self::face_vertex_ids(face);
        [
            Self::edge_id(ids[0], ids[1]),
            Self::edge_id(ids[1], ids[2]),
            Self::edge_id(ids[2], ids[3]),
            Self::edge_id(ids[3], ids[0]),
        ]
    }
}

impl<T: Real> SupportMap<T> for Cuboid<T> {
    /// The vertex in the octant of `dir`. A zero component picks the side of its sign bit: `+0.0`
    /// the positive side, `−0.0` the negative one (so `s(−d) = −s(d)` holds for axis directions).
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        // `copysign` is the sign-bit rule itself, and the same point as `vertex(id)` below.
        Point::from(self.half_extents.zip_map(dir, Float::copysign))
    }

    fn local_support_vertex(&self, dir: &Vector<T>, _hint: VertexId) -> SupportVertex<T> {
        let id = dir.iter().enumerate().fold(0u32, |id, (k, d)| {
            id | (u32::from(Float::is_sign_negative(*d)) << k)
        });
        SupportVertex {
            point: self.local_support_point(dir),
            id: VertexId(id),
        }
    }

    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        (id.0 < 8).then(|| self.vertex(id.0))
    }
}

/// Each face's vertex and edge ids ([`Cuboid::face_vertex_ids`], [`Cuboid::face_edge_ids`]),
/// by face: a supporting face is filled from the table.
const FACE_LOOPS: [([u32; 4], [u32; 4]); 6] = {
    let mut loops = [([0; 4], [0; 4]); 6];
    let mut face = 0;
    while face < 6 {
        loops[face] = (
            Cuboid::<f64>::face_vertex_ids(face as u32),
            Cuboid::<f64>::face_edge_ids(face as u32),
        );
        face += 1;
    }
    loops
};

impl<T: Real> FeatureMap<T> for Cuboid<T> {
    /// The face whose normal is closest to `dir` (the largest `|dir_k|`, lowest axis on ties).
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        // The face only depends on the largest component and its sign: no need to normalise
        // (a zero or non-finite `dir` falls back to +y like every shape).
        let valid = dir.iter().all(|x| Float::is_finite(*x)) && dir.amax() > T::zero();
        let dir = if valid { *dir } else { Vector::y() };
        let axis = dir.iamax();
        let negative = Float::is_sign_negative(dir[axis]);
        self.face_feature(2 * axis as u32 + u32::from(negative), out);
    }

    /// The face [`local_support_feature`](FeatureMap::local_support_feature) reports, except
    /// that `previous`, a face of this box, is kept up to
    /// [`FACE_TIE_HOLD`] past the tie with the closest — its component along `dir` positive
    /// and short of the largest by at most `FACE_TIE_HOLD × √2 × |dir|` (`√2` being
    /// `|n_b − n_p|` for two faces of a box; about 1.4° past the tie of two faces, 45° from
    /// each): a box resting on its edge, where the two faces through the edge tie, keeps
    /// reporting one of them under the pose noise.
    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        if let Some(FeatureId::Face(face @ 0..6)) = previous {
            let axis = face as usize / 2;
            let along = if face % 2 == 1 { -dir[axis] } else { dir[axis] };
            let slack = T::lit(FACE_TIE_HOLD * core::f64::consts::SQRT_2) * dir.norm();
            if along > T::zero() && along >= dir.amax() - slack {
                self.face_feature(face, out);
                return;
            }
        }
        self.local_support_feature(dir, out);
    }

    /// Vertices, edges and faces where they are (numbered as in the type's doc): per axis, the
    /// distance past the feature's extent along it, or to its coordinate where it has one.
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        let h = self.half_extents;
        // Along axis k: to the coordinate ±h_k (`negative`: −), or past the extent (`None`).
        let gap = |k: usize, negative: Option<bool>| match negative {
            Some(negative) => p[k] - if negative { -h[k] } else { h[k] },
            None => Float::max(Float::abs(p[k]) - h[k], T::zero()),
        };
        let mut negative = [None; 3];
        match id {
            FeatureId::Vertex(i @ 0..8) => negative = [0, 1, 2].map(|k| Some(i & (1 << k) != 0)),
            FeatureId::Edge(e @ 0..12) => {
                let k = e as usize / 4;
                negative[(k + 1) % 3] = Some(e & 1 != 0);
                negative[(k + 2) % 3] = Some(e & 2 != 0);
            }
            FeatureId::Face(f @ 0..6) => negative[f as usize / 2] = Some(f % 2 == 1),
            _ => return None,
        }
        let [x, y, z] = [0, 1, 2].map(|k| gap(k, negative[k]));
        Some(Float::sqrt(x * x + y * y + z * z))
    }
}

impl<T: Real> Cuboid<T> {
    /// Face `face` (0..6, module doc) as a supporting feature.
    fn face_feature(&self, face: u32, out: &mut SupportFeature<T>) {
        let (axis, negative) = (face as usize / 2, face % 2 == 1);
        let mut normal = Vector::zeros();
        normal[axis] = if negative { -T::one() } else { T::one() };
        out.reset(
            FeatureId::Face(face),
            nphase_math::UnitVector::new_unchecked(normal),
        );
        let (ids, edges) = &FACE_LOOPS[face as usize];
        out.set_polygon(ids.map(|id| self.vertex(id)), ids, edges);
    }
}
