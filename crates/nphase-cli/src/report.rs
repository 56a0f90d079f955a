//! Result files: `nphase-query/1` and `nphase-contacts/1` records and writers, and an atomic
//! file write.
//!
//! All coordinates are world space; normals are unit vectors from A toward B; `a`, `b` are body
//! ids. Numbers are written as the shortest decimal that reads back to the same `f64`; `f32`
//! results are first widened exactly, so they print as the `f64` of the same value
//! (`0.1f32` → `0.10000000149011612`). A non-finite number (which JSON cannot hold) is written
//! as `null`; [`QueryRecord::is_finite`] / [`ManifoldRecord::is_finite`] let callers warn.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use nphase_math::{Point, Real, Vector};
use nphase_pipeline::query::Contact;
use nphase_pipeline::{Collider, ContactManifold};
use serde::Serialize;

/// The `format` tag of query results.
pub const QUERY_FORMAT: &str = "nphase-query/1";
/// The `format` tag of contact manifolds.
pub const CONTACTS_FORMAT: &str = "nphase-contacts/1";

/// One exact query result (one per pair, in pair order).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryRecord {
    /// Body id of A.
    pub a: u64,
    /// Body id of B.
    pub b: u64,
    /// Whether the shapes touch or overlap (`dist ≤ 0`).
    pub intersecting: bool,
    /// Signed distance: the gap, or minus the penetration depth.
    pub dist: f64,
    /// Unit normal from A toward B, world frame.
    pub normal: [f64; 3],
    /// Witness point on A's surface, world frame.
    pub point_a: [f64; 3],
    /// Witness point on B's surface, world frame; `point_b − point_a ≈ dist · normal`.
    pub point_b: [f64; 3],
}

/// One contact manifold (one per pair that has points, in pair order).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ManifoldRecord {
    /// Body id of A.
    pub a: u64,
    /// Body id of B.
    pub b: u64,
    /// Unit normal from A toward B, world frame.
    pub normal: [f64; 3],
    /// One to four points.
    pub points: Vec<PointRecord>,
}

/// One point of a [`ManifoldRecord`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PointRecord {
    /// The point on A's surface, world frame.
    pub point_a: [f64; 3],
    /// The point on B's surface, world frame.
    pub point_b: [f64; 3],
    /// Signed distance along the normal (negative = penetrating).
    pub dist: f64,
    /// Feature-pair id, stable while the same features touch.
    pub id: u32,
}

fn vector<T: Real>(v: &Vector<T>) -> [f64; 3] {
    [v.x.as_f64(), v.y.as_f64(), v.z.as_f64()]
}

fn point<T: Real>(p: &Point<T>) -> [f64; 3] {
    vector(&p.coords)
}

fn finite(values: &[f64]) -> bool {
    values.iter().all(|x| x.is_finite())
}

impl QueryRecord {
    /// The record of a world-space contact between bodies `a` and `b`.
    pub fn from_contact<T: Real>(a: u64, b: u64, contact: &Contact<T>) -> Self {
        let dist = contact.dist.as_f64();
        QueryRecord {
            a,
            b,
            intersecting: dist <= 0.0,
            dist,
            normal: vector(&contact.normal1),
            point_a: point(&contact.point1),
            point_b: point(&contact.point2),
        }
    }

    /// The record of a contact already mapped to world space in f64.
    pub fn from_world(
        a: u64,
        b: u64,
        dist: f64,
        normal: &Vector<f64>,
        point_a: &Point<f64>,
        point_b: &Point<f64>,
    ) -> Self {
        QueryRecord {
            a,
            b,
            intersecting: dist <= 0.0,
            dist,
            normal: [normal.x, normal.y, normal.z],
            point_a: [point_a.x, point_a.y, point_a.z],
            point_b: [point_b.x, point_b.y, point_b.z],
        }
    }

    /// Whether every number is finite (JSON would get `null` otherwise).
    pub fn is_finite(&self) -> bool {
        finite(&[self.dist])
            && finite(&self.normal)
            && finite(&self.point_a)
            && finite(&self.point_b)
    }
}

impl ManifoldRecord {
    /// The world-space record of a pipeline manifold between colliders `a` and `b` (its points
    /// are in their local frames), or `None` when it has no points.
    pub fn from_manifold<T: Real>(
        a: &Collider<T>,
        b: &Collider<T>,
        manifold: &ContactManifold<T>,
    ) -> Option<Self> {
        if manifold.points.is_empty() {
            return None;
        }
        Some(ManifoldRecord {
            a: a.id,
            b: b.id,
            normal: vector(&manifold.world_normal(&a.pose)),
            points: manifold
                .points
                .iter()
                .map(|p| PointRecord {
                    point_a: point(&(a.pose * p.local_point1)),
                    point_b: point(&(b.pose * p.local_point2)),
                    dist: p.dist.as_f64(),
                    id: p.id,
                })
                .collect(),
        })
    }

    /// Whether every number is finite (JSON would get `null` otherwise).
    pub fn is_finite(&self) -> bool {
        finite(&self.normal)
            && self
                .points
                .iter()
                .all(|p| finite(&[p.dist]) && finite(&p.point_a) && finite(&p.point_b))
    }
}

/// The `nphase-query/1` document: one result per line.
pub fn query_json(results: &[QueryRecord]) -> String {
    document(QUERY_FORMAT, "results", results)
}

/// The `nphase-contacts/1` document: one manifold per line.
pub fn contacts_json(manifolds: &[ManifoldRecord]) -> String {
    document(CONTACTS_FORMAT, "manifolds", manifolds)
}

fn document<R: Serialize>(format: &str, key: &str, records: &[R]) -> String {
    let mut out = format!("{{\n  \"format\": \"{format}\",\n  \"{key}\": [");
    for (i, record) in records.iter().enumerate() {
        out.push_str(if i == 0 { "\n    " } else { ",\n    " });
        // Plain structs of numbers, bools and vectors: serialising cannot fail.
        out.push_str(&serde_json::to_string(record).unwrap_or_else(|_| "null".to_owned()));
    }
    out.push_str(if records.is_empty() {
        "]\n}\n"
    } else {
        "\n  ]\n}\n"
    });
    out
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to
/// disk, then renamed over `path`. On any error `path` is untouched (and no temporary is left).
/// A new file gets mode 0644 on Unix; an existing one keeps its permissions.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory",
        ));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".nphase-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot create a file in {}: {}", dir.display(), e.kind()),
            )
        })?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    let permissions = match fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(p) = permissions {
        tmp.as_file().set_permissions(p)?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(unix)]
fn default_permissions() -> Option<fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<fs::Permissions> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_valid_json_with_shortest_numbers() {
        let r = QueryRecord {
            a: 0,
            b: 7,
            intersecting: true,
            dist: -0.2,
            normal: [0.0, 1.0, 0.0],
            point_a: [0.1, 0.5, f64::from(0.1f32)],
            point_b: [0.0, 0.3, 0.0],
        };
        let text = query_json(&[r.clone(), r]);
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(v["format"], QUERY_FORMAT);
        assert_eq!(v["results"].as_array().map(Vec::len), Some(2));
        assert!(text.contains("\"dist\":-0.2,"), "{text}");
        assert!(
            text.contains("0.10000000149011612"),
            "f32 widened exactly: {text}"
        );
        let empty: serde_json::Value =
            serde_json::from_str(&contacts_json(&[])).expect("valid JSON");
        assert_eq!(empty["manifolds"], serde_json::json!([]));
    }

    #[test]
    fn atomic_write_replaces_and_refuses_cleanly() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("out.json");
        write_atomic(&path, b"one").expect("write");
        write_atomic(&path, b"two").expect("overwrite");
        assert_eq!(fs::read(&path).expect("read"), b"two");
        assert!(write_atomic(&dir.path().join("missing/out.json"), b"x").is_err());
        assert!(write_atomic(dir.path(), b"x").is_err());
        let names: Vec<_> = fs::read_dir(dir.path()).expect("list").collect();
        assert_eq!(names.len(), 1, "no temporary left behind");
    }
}
