//! The C interface of `shim/peer_shim.h` and the shapes in its form.

#![allow(dead_code)] // the extern blocks exist only with their peer's cfg

use nphase_cli::scene::ShapeDesc;

use crate::workloads::{Iso, Workload};

pub const BALL: i32 = 0;
pub const CUBOID: i32 = 1;
pub const CAPSULE: i32 = 2;
pub const CYLINDER: i32 = 3;
pub const CONE: i32 = 4;
pub const POINTS: i32 = 5;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PeerShape {
    pub kind: i32,
    pub npts: i32,
    pub p: [f64; 3],
    pub pts: *const f64,
    pub border: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PeerPose {
    pub rot: [f64; 9],
    pub t: [f64; 3],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PeerPair {
    pub a: u32,
    pub b: u32,
    pub pa: PeerPose,
    pub pb: PeerPose,
}

/// One answer, every engine's (see peer_shim.h): `status` 0 = `dist` and `normal` set,
/// 1 = separated without a distance (or beyond the prediction), 2 = failed.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PeerOut {
    pub dist: f64,
    pub normal: [f64; 3],
    pub status: i32,
    pub pad: i32,
}

pub const HIT: i32 = 0;
pub const SEPARATED: i32 = 1;
pub const FAILED: i32 = 2;

#[cfg(peer_ccd)]
unsafe extern "C" {
    pub fn peer_ccd_new(
        shapes: *const PeerShape,
        nshapes: usize,
        pairs: *const PeerPair,
        npairs: usize,
    ) -> *mut core::ffi::c_void;
    pub fn peer_ccd_run(
        handle: *mut core::ffi::c_void,
        method: i32,
        tolerance: f64,
        out: *mut PeerOut,
    );
    pub fn peer_ccd_free(handle: *mut core::ffi::c_void);
}

#[cfg(peer_bullet)]
unsafe extern "C" {
    pub fn peer_bullet_new(
        shapes: *const PeerShape,
        nshapes: usize,
        pairs: *const PeerPair,
        npairs: usize,
    ) -> *mut core::ffi::c_void;
    pub fn peer_bullet_run(handle: *mut core::ffi::c_void, out: *mut PeerOut);
    pub fn peer_bullet_free(handle: *mut core::ffi::c_void);
}

/// A workload in the shims' form; `points` owns what the shapes' `pts` point to.
pub struct CData {
    pub shapes: Vec<PeerShape>,
    pub pairs: Vec<PeerPair>,
    points: Vec<Vec<f64>>,
}

fn pose(p: &Iso) -> PeerPose {
    let m = p.rotation.to_rotation_matrix();
    let m = m.matrix();
    let mut rot = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            rot[3 * r + c] = m[(r, c)];
        }
    }
    let t = p.translation.vector;
    PeerPose {
        rot,
        t: [t.x, t.y, t.z],
    }
}

impl CData {
    pub fn new(w: &Workload) -> Self {
        let mut points = Vec::new();
        let shapes = w
            .shapes
            .iter()
            .map(|d| shape(d, 0.0, &mut points))
            .collect();
        let pairs = w
            .pairs
            .iter()
            .map(|p| PeerPair {
                a: p.a as u32,
                b: p.b as u32,
                pa: pose(&p.pa),
                pb: pose(&p.pb),
            })
            .collect();
        CData {
            shapes,
            pairs,
            points,
        }
    }
}

/// The shim's form of `d` grown by `border`; point lists go to `store` (a Vec's heap buffer
/// does not move when the outer Vec grows).
fn shape(d: &ShapeDesc, border: f64, store: &mut Vec<Vec<f64>>) -> PeerShape {
    let simple = |kind, p| PeerShape {
        kind,
        npts: 0,
        p,
        pts: core::ptr::null(),
        border,
    };
    let cloud = |pts: &[[f64; 3]], store: &mut Vec<Vec<f64>>| {
        let flat: Vec<f64> = pts.iter().flatten().copied().collect();
        let ptr = flat.as_ptr();
        store.push(flat);
        PeerShape {
            kind: POINTS,
            npts: pts.len() as i32,
            p: [0.0; 3],
            pts: ptr,
            border,
        }
    };
    match d {
        ShapeDesc::Ball { radius } => simple(BALL, [*radius, 0.0, 0.0]),
        ShapeDesc::Cuboid { half_extents } => simple(CUBOID, *half_extents),
        ShapeDesc::Capsule {
            half_height,
            radius,
        } => simple(CAPSULE, [*half_height, *radius, 0.0]),
        ShapeDesc::Cylinder {
            half_height,
            radius,
        } => simple(CYLINDER, [*half_height, *radius, 0.0]),
        ShapeDesc::Cone {
            half_height,
            radius,
        } => simple(CONE, [*half_height, *radius, 0.0]),
        ShapeDesc::Convex { points } => cloud(points, store),
        ShapeDesc::Triangle { a, b, c } => cloud(&[*a, *b, *c], store),
        ShapeDesc::Segment { a, b } => cloud(&[*a, *b], store),
        ShapeDesc::Round {
            border_radius,
            inner,
        } => shape(inner, border + border_radius, store),
    }
}
