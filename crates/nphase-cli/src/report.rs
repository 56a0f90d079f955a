//! Result files: `nphase-query/1` and `nphase-contacts/1` records and writers.
//!
//! All coordinates are world space; normals are unit vectors from A toward B; `a`, `b` are body
//! ids. Every record carries its [`Quality`] — whether it is a converged answer or the best
//! estimate of a query that stopped early — and a query result its certified bounds on the
//! signed distance, so that a reader never takes an estimate for an exact answer. Numbers are written as the shortest decimal that reads back to the same `f64`; `f32`
//! results are first widened exactly, so they print as the `f64` of the same value
//! (`0.1f32` → `0.10000000149011612`). A non-finite number (which JSON cannot hold) is written
//! as `null`; [`QueryRecord::is_finite`] / [`ManifoldRecord::is_finite`] let callers warn.

use nphase_math::{Point, Real, Vector};
use nphase_pipeline::query::Contact;
use nphase_pipeline::{Collider, ContactManifold, ContactQuality};
use serde::Serialize;

/// The `format` tag of query results.
pub const QUERY_FORMAT: &str = "nphase-query/1";
/// The `format` tag of contact manifolds.
pub const CONTACTS_FORMAT: &str = "nphase-contacts/1";

/// How a result was obtained (`quality` in the files: `"converged"`, `"iteration_limit"`,
/// `"fallback"`), the library's [`ContactQuality`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    /// Exact to the tolerances of docs/accuracy.md (a closed form, or GJK/EPA converged).
    #[default]
    Converged,
    /// GJK or EPA stopped at its iteration cap: the best estimate (coincident curved shapes,
    /// whose deepest normals form a whole valley, end here).
    IterationLimit,
    /// GJK stalled or EPA met a degenerate polytope: the best estimate.
    Fallback,
}

impl From<ContactQuality> for Quality {
    fn from(q: ContactQuality) -> Self {
        match q {
            ContactQuality::Converged => Quality::Converged,
            ContactQuality::IterationLimit => Quality::IterationLimit,
            ContactQuality::Fallback => Quality::Fallback,
        }
    }
}

/// How many results of a document are of each [`Quality`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QualityCounts {
    /// Converged answers.
    pub converged: usize,
    /// Estimates of a query stopped on an iteration cap.
    pub iteration_limit: usize,
    /// Estimates of a query that fell back.
    pub fallback: usize,
}

impl QualityCounts {
    /// The counts of `qualities`.
    pub fn of(qualities: impl IntoIterator<Item = Quality>) -> Self {
        let mut counts = QualityCounts::default();
        for q in qualities {
            match q {
                Quality::Converged => counts.converged += 1,
                Quality::IterationLimit => counts.iteration_limit += 1,
                Quality::Fallback => counts.fallback += 1,
            }
        }
        counts
    }

    /// Results that are estimates rather than converged answers.
    pub fn estimates(&self) -> usize {
        self.iteration_limit + self.fallback
    }

    /// All results.
    pub fn total(&self) -> usize {
        self.converged + self.estimates()
    }

    /// `3 of 12 results did not converge (iteration limit 2, fallback 1)`, or
    /// `all 12 results converged`, for `noun` = `results`.
    pub fn summary(&self, noun: &str) -> String {
        if self.estimates() == 0 {
            format!("all {} {noun} converged", self.total())
        } else {
            format!(
                "{} of {} {noun} did not converge (iteration limit {}, fallback {})",
                self.estimates(),
                self.total(),
                self.iteration_limit,
                self.fallback
            )
        }
    }
}

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
    /// Whether `dist` is a converged answer or an estimate.
    pub quality: Quality,
    /// Certified lower bound on the true signed distance (up to rounding).
    pub lower_bound: f64,
    /// Certified upper bound on the true signed distance (up to rounding); equal to
    /// `lower_bound` and `dist` for the closed forms.
    pub upper_bound: f64,
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
    /// Whether the pair's query converged or its manifold comes from an estimate.
    pub quality: Quality,
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
    /// The contact id: A's feature code in the high 32 bits, B's in the low 32 bits
    /// (`ContactId::pack`).
    pub id: u64,
    /// The feature of A that made the point, as text (`"face 2"`, `"edge 5"`, `"vertex 0"`).
    pub feature_a: String,
    /// The feature of B that made the point.
    pub feature_b: String,
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
            quality: contact.quality.into(),
            lower_bound: contact.lower_bound.as_f64(),
            upper_bound: contact.upper_bound.as_f64(),
        }
    }

    /// Whether every number is finite (JSON would get `null` otherwise).
    pub fn is_finite(&self) -> bool {
        finite(&[self.dist, self.lower_bound, self.upper_bound])
            && finite(&self.normal)
            && finite(&self.point_a)
            && finite(&self.point_b)
    }
}

impl ManifoldRecord {
    /// The world-space record of a pipeline manifold between colliders `a` and `b` (its points
    /// are in their local frames) whose query ended with `quality`, or `None` when it has no
    /// points.
    pub fn from_manifold<T: Real>(
        a: &Collider<T>,
        b: &Collider<T>,
        manifold: &ContactManifold<T>,
        quality: ContactQuality,
    ) -> Option<Self> {
        if manifold.points.is_empty() {
            return None;
        }
        Some(ManifoldRecord {
            a: a.id,
            b: b.id,
            normal: vector(&manifold.world_normal(&a.pose)),
            quality: quality.into(),
            points: manifold
                .points
                .iter()
                .map(|p| PointRecord {
                    point_a: point(&(a.pose * p.local_point1)),
                    point_b: point(&(b.pose * p.local_point2)),
                    dist: p.dist.as_f64(),
                    id: p.id.pack(),
                    feature_a: p.id.a().to_string(),
                    feature_b: p.id.b().to_string(),
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
            quality: Quality::Converged,
            lower_bound: -0.2,
            upper_bound: -0.2,
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
    fn each_quality_is_written_with_its_documented_name_and_the_bounds() {
        use nphase_math::{Point, UnitVector};
        let cases = [
            (ContactQuality::Converged, "converged"),
            (ContactQuality::IterationLimit, "iteration_limit"),
            (ContactQuality::Fallback, "fallback"),
        ];
        for (quality, name) in cases {
            let contact = Contact::<f32> {
                point1: Point::new(0.0, 0.5, 0.0),
                point2: Point::new(0.0, 0.25, 0.0),
                normal1: UnitVector::new_normalize(Vector::y()),
                normal2: UnitVector::new_normalize(-Vector::y()),
                dist: -0.25,
                lower_bound: -0.5,
                upper_bound: -0.125,
                quality,
            };
            let record = QueryRecord::from_contact(3, 4, &contact);
            let v: serde_json::Value =
                serde_json::from_str(&query_json(&[record])).expect("valid JSON");
            let r = &v["results"][0];
            assert_eq!(r["quality"], name);
            assert_eq!(r["lower_bound"], -0.5);
            assert_eq!(r["upper_bound"], -0.125);
            assert_eq!(r["dist"], -0.25);
        }
    }

    #[test]
    fn counts_say_how_many_results_are_estimates() {
        let q = [
            Quality::Converged,
            Quality::IterationLimit,
            Quality::Converged,
            Quality::Fallback,
            Quality::IterationLimit,
        ];
        let counts = QualityCounts::of(q);
        assert_eq!(
            (counts.converged, counts.iteration_limit, counts.fallback),
            (2, 2, 1)
        );
        assert_eq!(
            counts.summary("results"),
            "3 of 5 results did not converge (iteration limit 2, fallback 1)"
        );
        assert_eq!(
            QualityCounts::of([Quality::Converged; 4]).summary("manifolds"),
            "all 4 manifolds converged"
        );
    }
}
