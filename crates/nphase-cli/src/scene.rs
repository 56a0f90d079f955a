//! Scene files (`nphase-scene/1`, see `scene-format.md`): reading, validation, motion.
//!
//! Two layers:
//!
//! * [`SceneDoc`] — the file as written: shape descriptions by name, body descriptions, the
//!   optional pair list, all in `f64`. [`SceneDoc::from_json`] checks the JSON and the structure
//!   (field names and types); [`SceneDoc::to_json`] writes it back (the demo uses this).
//! * [`Scene<T>`] — the validated scene in the engine's precision: built shapes, bodies with
//!   their pose and velocity, pairs as indices into the body list. [`Scene::from_doc`] applies the
//!   rules (finite numbers, non-negative sizes, no point-sized shape, known shapes, unique ids,
//!   existing pair bodies, no self pairs, a non-zero quaternion).
//!
//! Every refusal is a [`SceneError`] whose `Display` is one line naming the entry
//! (`shapes.rock`, `bodies[3] (id 7)`, `pairs[2]`) and the rule it breaks.
//!
//! ## Repeated keys
//! An object that holds a key twice is refused wherever it is (the top level, a shape, a
//! round shape's `inner`, a body, its `rotation` or `velocity`, …), naming the entry, the path
//! inside it and the key ([`crate::duplicate_keys`]); reading through `serde_json::Value` would
//! otherwise keep the last one silently. A shape name given twice is a duplicate shape.
//!
//! ## Conventions
//! Pairs in the file name body *ids*; [`Scene::pairs`] holds body *indices*. Poses are local →
//! world. Motion (multi-frame runs): frame `f` places a body at translation
//! `position + f·linear` and rotation `exp(f·angular) · rotation`, `angular` being a rotation
//! vector in world axes applied on the left ([`Body::pose_at`]).
//!
//! ## Numbers that overflow
//! JSON has no NaN or infinity, but a literal such as `1e999` overflows an `f64`. serde_json
//! refuses those with a position only; to name the entry instead, the reader first rewrites each
//! overflowing literal (outside strings) into a same-length marker string that the number
//! fields read back as ±infinity, so the usual "is not finite" rule reports it. Values finite in
//! `f64` but not in `f32` are caught the same way when building a `Scene<f32>`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use nphase_math::nalgebra::{Quaternion, Translation3};
use nphase_math::{Isometry, Point, Real, Rotation, Vector};
use nphase_pipeline::Collider;
use nphase_shapes::{Ball, Capsule, Cone, Cuboid, Cylinder, Segment, Shape, ShapeError, Triangle};
use num_traits::Float;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::broadphase::sweep_and_prune;
use crate::duplicate_keys::{self, Duplicate, Step};

/// The `format` tag of scene files.
pub const SCENE_FORMAT: &str = "nphase-scene/1";

/// The shape type names of scene files, in the order of `scene-format.md`.
pub const SHAPE_TYPES: [&str; 9] = [
    "cuboid", "ball", "capsule", "cylinder", "cone", "convex", "segment", "triangle", "round",
];

// ---------------------------------------------------------------------------------------------
// The document: what the file says.
// ---------------------------------------------------------------------------------------------

/// A scene file as written, before validation (all numbers `f64`, pairs by body id).
#[derive(Clone, Debug, PartialEq)]
pub struct SceneDoc {
    /// Contact prediction distance (`prediction`, default 0).
    pub prediction: f64,
    /// Named shapes, in file order. A file cannot name a shape twice ([`SceneDoc::from_json`]
    /// refuses it); a document built in code can, and [`Scene::from_doc`] refuses it.
    pub shapes: Vec<(String, ShapeDesc)>,
    /// Bodies, in file order.
    pub bodies: Vec<BodyDesc>,
    /// Explicit pairs of body ids; `None` asks for a broadphase.
    pub pairs: Option<Vec<[u64; 2]>>,
}

/// A shape description (`{"type": "ball", "radius": 0.5}` …). Axes follow parry3d: capsule,
/// cylinder and cone along local y, centred; the cone's apex at `+half_height`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ShapeDesc {
    /// A box.
    Cuboid {
        /// Half sizes along x, y, z.
        #[serde(deserialize_with = "lenient::deserialize")]
        half_extents: [f64; 3],
    },
    /// A ball.
    Ball {
        /// The radius.
        #[serde(deserialize_with = "lenient::deserialize")]
        radius: f64,
    },
    /// A capsule along y.
    Capsule {
        /// Half the length of the core segment.
        #[serde(deserialize_with = "lenient::deserialize")]
        half_height: f64,
        /// The radius.
        #[serde(deserialize_with = "lenient::deserialize")]
        radius: f64,
    },
    /// A cylinder along y.
    Cylinder {
        /// Half the height.
        #[serde(deserialize_with = "lenient::deserialize")]
        half_height: f64,
        /// The radius.
        #[serde(deserialize_with = "lenient::deserialize")]
        radius: f64,
    },
    /// A cone along y, apex up.
    Cone {
        /// Half the height.
        #[serde(deserialize_with = "lenient::deserialize")]
        half_height: f64,
        /// The base radius.
        #[serde(deserialize_with = "lenient::deserialize")]
        radius: f64,
    },
    /// The convex hull of a point cloud (at least one point).
    Convex {
        /// The points.
        #[serde(deserialize_with = "lenient::deserialize")]
        points: Vec<[f64; 3]>,
    },
    /// A segment.
    Segment {
        /// First endpoint.
        #[serde(deserialize_with = "lenient::deserialize")]
        a: [f64; 3],
        /// Second endpoint.
        #[serde(deserialize_with = "lenient::deserialize")]
        b: [f64; 3],
    },
    /// A triangle.
    Triangle {
        /// First vertex.
        #[serde(deserialize_with = "lenient::deserialize")]
        a: [f64; 3],
        /// Second vertex.
        #[serde(deserialize_with = "lenient::deserialize")]
        b: [f64; 3],
        /// Third vertex.
        #[serde(deserialize_with = "lenient::deserialize")]
        c: [f64; 3],
    },
    /// Another shape grown by a border radius.
    Round {
        /// The border radius.
        #[serde(deserialize_with = "lenient::deserialize")]
        border_radius: f64,
        /// The shape before rounding.
        inner: Box<ShapeDesc>,
    },
}

/// A body description.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDesc {
    /// Unique id; pairs and results name bodies by it.
    pub id: u64,
    /// The name of a shape in `shapes`.
    pub shape: String,
    /// World position of the shape's local origin.
    #[serde(deserialize_with = "lenient::deserialize")]
    pub position: [f64; 3],
    /// Orientation (identity when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<RotationDesc>,
    /// Per-frame motion (still when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub velocity: Option<VelocityDesc>,
}

/// An orientation as written: exactly one of `axis_angle` or `quaternion`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "RawRotation")]
pub enum RotationDesc {
    /// A rotation vector: unit axis times the angle in radians.
    AxisAngle([f64; 3]),
    /// `[x, y, z, w]`, normalised on read (must not be zero).
    Quaternion([f64; 4]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRotation {
    #[serde(default, deserialize_with = "lenient::deserialize")]
    axis_angle: Option<[f64; 3]>,
    #[serde(default, deserialize_with = "lenient::deserialize")]
    quaternion: Option<[f64; 4]>,
}

impl TryFrom<RawRotation> for RotationDesc {
    type Error = &'static str;

    fn try_from(raw: RawRotation) -> Result<Self, Self::Error> {
        match (raw.axis_angle, raw.quaternion) {
            (Some(v), None) => Ok(RotationDesc::AxisAngle(v)),
            (None, Some(q)) => Ok(RotationDesc::Quaternion(q)),
            _ => Err("must hold exactly one of `axis_angle` or `quaternion`"),
        }
    }
}

/// Per-frame motion: both parts default to zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VelocityDesc {
    /// Translation per frame.
    #[serde(default, deserialize_with = "lenient::deserialize")]
    pub linear: [f64; 3],
    /// Rotation vector per frame, world axes.
    #[serde(default, deserialize_with = "lenient::deserialize")]
    pub angular: [f64; 3],
}

/// The top level as serde sees it once the format is known to be right.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScene {
    #[allow(dead_code, reason = "checked before this pass")]
    format: de::IgnoredAny,
    #[serde(default, deserialize_with = "lenient::deserialize")]
    prediction: Option<f64>,
    shapes: Entries,
    bodies: Vec<Value>,
    #[serde(default)]
    pairs: Option<Vec<Value>>,
}

/// A JSON object's entries in file order, duplicates kept.
struct Entries(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of named shapes")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Value>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

impl SceneDoc {
    /// Reads a scene file: JSON syntax, the `format` tag, and the structure of every entry.
    /// The rules that need the whole scene (references, ids, sizes) are [`Scene::from_doc`]'s.
    pub fn from_json(text: &str) -> Result<SceneDoc, SceneError> {
        let text = mark_overflowing_numbers(text);
        let value: Value = serde_json::from_str(&text).map_err(json_error)?;
        let Value::Object(top) = &value else {
            return Err(SceneError::NotAnObject);
        };
        match top.get("format") {
            Some(Value::String(s)) if s == SCENE_FORMAT => {}
            Some(Value::String(s)) => {
                return Err(SceneError::Format {
                    found: Some(s.clone()),
                });
            }
            Some(other) => {
                return Err(SceneError::Format {
                    found: Some(other.to_string()),
                });
            }
            None => return Err(SceneError::Format { found: None }),
        }
        if let Some(duplicate) = duplicate_keys::find(&text).map_err(json_error)? {
            return Err(duplicate_error(duplicate, &value));
        }
        // A second, typed pass over the text: it refuses unknown and duplicate top-level
        // fields with their position, and keeps the shapes in file order with duplicates.
        let raw: RawScene = serde_json::from_str(&text).map_err(|e| SceneError::Invalid {
            entry: Entry::Scene,
            message: e.to_string(),
        })?;

        let mut shapes = Vec::with_capacity(raw.shapes.0.len());
        for (name, value) in raw.shapes.0 {
            let entry = Entry::Shape(name.clone());
            check_shape_types(&value, &entry)?;
            let desc = ShapeDesc::deserialize(&value).map_err(|e| SceneError::Invalid {
                entry,
                message: locate_field_error(&value).unwrap_or_else(|| e.to_string()),
            })?;
            shapes.push((name, desc));
        }
        let mut bodies = Vec::with_capacity(raw.bodies.len());
        for (index, value) in raw.bodies.into_iter().enumerate() {
            let id = value.get("id").and_then(Value::as_u64);
            let desc = BodyDesc::deserialize(&value).map_err(|e| SceneError::Invalid {
                entry: Entry::Body { index, id },
                message: locate_field_error(&value).unwrap_or_else(|| e.to_string()),
            })?;
            bodies.push(desc);
        }
        let pairs = match raw.pairs {
            None => None,
            Some(values) => Some(
                values
                    .into_iter()
                    .enumerate()
                    .map(|(index, value)| {
                        <[u64; 2]>::deserialize(value).map_err(|e| SceneError::Invalid {
                            entry: Entry::Pair(index),
                            message: format!("expected [a, b], two body ids ({e})"),
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        Ok(SceneDoc {
            prediction: raw.prediction.unwrap_or(0.0),
            shapes,
            bodies,
            pairs,
        })
    }

    /// The scene as `nphase-scene/1` JSON: one shape, body or pair per line, numbers in
    /// shortest round-trip form.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        out.push_str("{\n");
        out.push_str(&format!("  \"format\": \"{SCENE_FORMAT}\",\n"));
        out.push_str(&format!("  \"prediction\": {},\n", json(&self.prediction)));
        out.push_str("  \"shapes\": {");
        for (i, (name, shape)) in self.shapes.iter().enumerate() {
            let sep = if i == 0 { "\n" } else { ",\n" };
            out.push_str(&format!("{sep}    {}: {}", json(name), json(shape)));
        }
        out.push_str(if self.shapes.is_empty() {
            "},\n"
        } else {
            "\n  },\n"
        });
        out.push_str("  \"bodies\": [");
        for (i, body) in self.bodies.iter().enumerate() {
            let sep = if i == 0 { "\n" } else { ",\n" };
            out.push_str(&format!("{sep}    {}", json(body)));
        }
        out.push_str(if self.bodies.is_empty() { "]" } else { "\n  ]" });
        if let Some(pairs) = &self.pairs {
            out.push_str(",\n  \"pairs\": [");
            for (i, pair) in pairs.iter().enumerate() {
                let sep = if i == 0 { "\n" } else { ",\n" };
                out.push_str(&format!("{sep}    {}", json(pair)));
            }
            out.push_str(if pairs.is_empty() { "]" } else { "\n  ]" });
        }
        out.push_str("\n}\n");
        out
    }
}

/// The refusal of a repeated key: the entry its object belongs to, and the path inside it.
fn duplicate_error(d: Duplicate, value: &Value) -> SceneError {
    let (entry, inner): (Entry, &[Step]) = match d.path.as_slice() {
        [Step::Key(k)] if k == "shapes" => {
            return SceneError::DuplicateShape {
                entry: Entry::Shape(d.key),
            };
        }
        [Step::Key(k), Step::Key(name), inner @ ..] if k == "shapes" => {
            (Entry::Shape(name.clone()), inner)
        }
        [Step::Key(k), Step::Index(index), inner @ ..] if k == "bodies" => {
            // The id is only named when it is not the repeated key itself.
            let id = if inner.is_empty() && d.key == "id" {
                None
            } else {
                value["bodies"][*index]["id"].as_u64()
            };
            (Entry::Body { index: *index, id }, inner)
        }
        [Step::Key(k), Step::Index(index), inner @ ..] if k == "pairs" => {
            (Entry::Pair(*index), inner)
        }
        path => (Entry::Scene, path),
    };
    let mut within = String::new();
    for step in inner {
        match step {
            Step::Key(k) if within.is_empty() => within.push_str(k),
            Step::Key(k) => {
                within.push('.');
                within.push_str(k);
            }
            Step::Index(i) => within.push_str(&format!("[{i}]")),
        }
    }
    SceneError::DuplicateKey {
        entry,
        within,
        key: d.key,
        line: d.line,
        column: d.column,
    }
}

/// Compact JSON of a value whose serialisation cannot fail (plain data, string keys).
fn json<S: Serialize>(value: &S) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

/// Refuses a missing, non-string or unknown `type` (here and in `round`'s `inner`) with a
/// message of our own; serde's would list every variant.
fn check_shape_types(value: &Value, entry: &Entry) -> Result<(), SceneError> {
    let invalid = |message: String| SceneError::Invalid {
        entry: entry.clone(),
        message,
    };
    let Value::Object(fields) = value else {
        return Err(invalid(format!(
            "expected a shape object, found {}",
            kind_of(value)
        )));
    };
    let type_name = match fields.get("type") {
        None => return Err(invalid("missing field `type`".to_owned())),
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err(invalid(format!(
                "`type` must be a string, found {}",
                kind_of(other)
            )));
        }
    };
    if !SHAPE_TYPES.contains(&type_name.as_str()) {
        return Err(SceneError::UnknownShapeType {
            entry: entry.clone(),
            type_name: type_name.clone(),
        });
    }
    match (type_name.as_str(), fields.get("inner")) {
        ("round", Some(inner)) => check_shape_types(inner, entry),
        _ => Ok(()),
    }
}

/// serde's messages do not say which field failed; this finds it. For an object, the first
/// field (in file order, descending into `inner`, `rotation` and `velocity`) whose value does
/// not read as its field's type, as `field.sub: message`. `None` when every field reads (the
/// object-level message — a missing or unknown field — is then the right one).
fn locate_field_error(value: &Value) -> Option<String> {
    let Value::Object(fields) = value else {
        return None;
    };
    for (key, v) in fields {
        if matches!(key.as_str(), "inner" | "rotation" | "velocity")
            && let Some(inner) = locate_field_error(v)
        {
            return Some(format!("{key}.{inner}"));
        }
        let error = match key.as_str() {
            "id" => u64::deserialize(v).err(),
            "shape" | "type" => String::deserialize(v).err(),
            "position" | "half_extents" | "a" | "b" | "c" | "axis_angle" | "linear" | "angular" => {
                <[lenient::Num; 3]>::deserialize(v).err()
            }
            "quaternion" => <[lenient::Num; 4]>::deserialize(v).err(),
            "radius" | "half_height" | "border_radius" => lenient::Num::deserialize(v).err(),
            "points" => Vec::<[lenient::Num; 3]>::deserialize(v).err(),
            "rotation" => RotationDesc::deserialize(v).err(),
            "velocity" => VelocityDesc::deserialize(v).err(),
            "inner" => ShapeDesc::deserialize(v).err(),
            _ => None,
        };
        if let Some(e) = error {
            return Some(format!("{key}: {e}"));
        }
    }
    None
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn json_error(e: serde_json::Error) -> SceneError {
    let (line, column) = (e.line(), e.column());
    let full = e.to_string();
    let message = full
        .strip_suffix(&format!(" at line {line} column {column}"))
        .unwrap_or(&full)
        .to_owned();
    SceneError::Json {
        line,
        column,
        message,
    }
}

// ---------------------------------------------------------------------------------------------
// Errors.
// ---------------------------------------------------------------------------------------------

/// The entry of a scene file an error is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The document as a whole (top-level structure).
    Scene,
    /// The `prediction` field.
    Prediction,
    /// `shapes.<name>`.
    Shape(String),
    /// `bodies[index]`, with its id when it could be read.
    Body {
        /// Position in the `bodies` list.
        index: usize,
        /// The body's id, if readable.
        id: Option<u64>,
    },
    /// `pairs[index]`.
    Pair(usize),
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Scene => f.write_str("scene"),
            Entry::Prediction => f.write_str("prediction"),
            Entry::Shape(name) => write!(f, "shapes.{}", quoted_if_needed(name)),
            Entry::Body {
                index,
                id: Some(id),
            } => write!(f, "bodies[{index}] (id {id})"),
            Entry::Body { index, id: None } => write!(f, "bodies[{index}]"),
            Entry::Pair(index) => write!(f, "pairs[{index}]"),
        }
    }
}

/// A name as it can stand in a one-line message: plain when it is an identifier, otherwise
/// quoted with escapes (so a newline in a name cannot split the message).
fn quoted_if_needed(name: &str) -> Cow<'_, str> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(format!("{name:?}"))
    }
}

/// Why a scene was refused. `Display` is one line: the entry, then the rule.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    /// The text is not valid JSON.
    Json {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// serde_json's description.
        message: String,
    },
    /// The top level is not a JSON object.
    NotAnObject,
    /// `format` is missing or is not `nphase-scene/1`.
    Format {
        /// What the file holds instead (JSON text for non-strings).
        found: Option<String>,
    },
    /// A field is missing, unknown, or of the wrong type (serde's message).
    Invalid {
        /// Where.
        entry: Entry,
        /// What is wrong.
        message: String,
    },
    /// A shape's `type` is not one of [`SHAPE_TYPES`].
    UnknownShapeType {
        /// The shape.
        entry: Entry,
        /// The type as written.
        type_name: String,
    },
    /// An object holds a key twice (anywhere but the `shapes` object, where it is a
    /// [`DuplicateShape`](SceneError::DuplicateShape)).
    DuplicateKey {
        /// The entry the object belongs to ([`Entry::Scene`] for the top level).
        entry: Entry,
        /// The object's path inside the entry (`rotation`, `inner`); empty for the entry itself.
        within: String,
        /// The repeated key.
        key: String,
        /// 1-based line of its second occurrence.
        line: usize,
        /// 1-based column of its second occurrence.
        column: usize,
    },
    /// Two shapes share a name.
    DuplicateShape {
        /// The second definition.
        entry: Entry,
    },
    /// A shape constructor refused its parameters.
    Shape {
        /// The shape.
        entry: Entry,
        /// The constructor's reason (it names the field).
        error: ShapeError,
    },
    /// A number is infinite (an overflowing literal) or does not fit the precision.
    NotFinite {
        /// Where.
        entry: Entry,
        /// The field (`position.y`, `velocity.angular.x`).
        field: String,
    },
    /// A length (a position or linear velocity component) is beyond the precision's largest
    /// length (docs/accuracy.md, "Input range").
    OutOfRange {
        /// Where.
        entry: Entry,
        /// The field (`position.x`, `velocity.linear.y`).
        field: String,
        /// Its value.
        value: f64,
        /// The largest length of the precision.
        max: f64,
    },
    /// `prediction` is negative.
    NegativePrediction {
        /// Its value.
        value: f64,
    },
    /// An `axis_angle` whose angle is too large to evaluate (its norm overflows).
    AngleTooLarge {
        /// The body.
        entry: Entry,
    },
    /// A quaternion of norm zero.
    ZeroQuaternion {
        /// The body.
        entry: Entry,
    },
    /// A body names a shape that is not defined.
    UnknownShape {
        /// The body.
        entry: Entry,
        /// The name as written.
        shape: String,
    },
    /// A body id used before.
    DuplicateBodyId {
        /// The second body with that id.
        entry: Entry,
    },
    /// A pair names a body id that no body has.
    MissingBody {
        /// The pair.
        entry: Entry,
        /// The id.
        id: u64,
    },
    /// A pair of a body with itself.
    SelfPair {
        /// The pair.
        entry: Entry,
    },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Json {
                line,
                column,
                message,
            } => {
                write!(
                    f,
                    "malformed JSON at line {line}, column {column}: {}",
                    one_line(message)
                )
            }
            SceneError::NotAnObject => f.write_str("scene: the top level must be a JSON object"),
            SceneError::Format { found: Some(found) } => {
                write!(f, "format: expected \"{SCENE_FORMAT}\", found {found:?}")
            }
            SceneError::Format { found: None } => {
                write!(
                    f,
                    "format: missing field `format` (expected \"{SCENE_FORMAT}\")"
                )
            }
            SceneError::Invalid { entry, message } => {
                write!(f, "{entry}: {}", one_line(message))
            }
            SceneError::UnknownShapeType { entry, type_name } => write!(
                f,
                "{entry}: unknown type {type_name:?} (expected one of {})",
                SHAPE_TYPES.join(", ")
            ),
            SceneError::DuplicateKey {
                entry,
                within,
                key,
                line,
                column,
            } => {
                let within = if within.is_empty() {
                    String::new()
                } else {
                    format!("{within}: ")
                };
                let message =
                    format!("{within}duplicate field `{key}` at line {line} column {column}");
                write!(f, "{entry}: {}", one_line(&message))
            }
            SceneError::DuplicateShape { entry } => write!(f, "{entry}: duplicate shape name"),
            SceneError::Shape { entry, error } => write!(f, "{entry}: {error}"),
            SceneError::NotFinite { entry, field } => write!(f, "{entry}: {field} is not finite"),
            SceneError::OutOfRange {
                entry,
                field,
                value,
                max,
            } => write!(
                f,
                "{entry}: {field} = {value:e} is beyond the largest length of this precision \
                 ({max:e}; docs/accuracy.md, \"Input range\")"
            ),
            SceneError::NegativePrediction { value } => {
                write!(f, "prediction: must be non-negative (got {value})")
            }
            SceneError::AngleTooLarge { entry } => {
                write!(
                    f,
                    "{entry}: rotation.axis_angle is too large to make a rotation"
                )
            }
            SceneError::ZeroQuaternion { entry } => {
                write!(
                    f,
                    "{entry}: rotation.quaternion has norm zero (it cannot be normalised)"
                )
            }
            SceneError::UnknownShape { entry, shape } => {
                write!(f, "{entry}: unknown shape {shape:?}")
            }
            SceneError::DuplicateBodyId { entry } => write!(f, "{entry}: duplicate body id"),
            SceneError::MissingBody { entry, id } => write!(f, "{entry}: body {id} does not exist"),
            SceneError::SelfPair { entry } => write!(f, "{entry}: a body cannot pair with itself"),
        }
    }
}

impl std::error::Error for SceneError {}

/// `text` with control characters escaped (`\n` → `\\n`): serde's messages quote field names
/// and values from the file as written, and a name holding a newline (`"poi\nts"` in JSON)
/// would otherwise split the one-line message (found by fuzzing the scene reader).
fn one_line(text: &str) -> Cow<'_, str> {
    if text.chars().any(char::is_control) {
        Cow::Owned(
            text.chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

// ---------------------------------------------------------------------------------------------
// The validated scene.
// ---------------------------------------------------------------------------------------------

/// A validated scene in precision `T`.
#[derive(Clone, Debug)]
pub struct Scene<T: Real> {
    /// Contact prediction distance (finite, ≥ 0).
    pub prediction: T,
    /// The named shapes, in file order.
    pub shapes: Vec<(String, Shape<T>)>,
    /// The bodies, in file order.
    pub bodies: Vec<Body<T>>,
    /// Explicit pairs as indices into `bodies` (`a ≠ b`), in file order; `None`: broadphase.
    pub pairs: Option<Vec<(usize, usize)>>,
}

/// A body of a [`Scene`].
#[derive(Clone, Debug, PartialEq)]
pub struct Body<T: Real> {
    /// Its unique id.
    pub id: u64,
    /// Index of its shape in [`Scene::shapes`].
    pub shape: usize,
    /// Position at frame 0.
    pub position: Vector<T>,
    /// Orientation at frame 0.
    pub rotation: Rotation<T>,
    /// Per-frame motion, if any.
    pub velocity: Option<Velocity<T>>,
    /// The frame-0 pose exactly as the file gives it (f64). One-shot queries place pairs
    /// relative to each other with it, so an f32 run keeps its accuracy far from the origin
    /// (at 1e4, f32 world coordinates are only good to 1e-3).
    pub exact_pose: Isometry<f64>,
}

/// Per-frame motion of a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Velocity<T: Real> {
    /// Translation per frame, world frame.
    pub linear: Vector<T>,
    /// Rotation vector per frame, world axes (applied on the left).
    pub angular: Vector<T>,
}

impl<T: Real> Body<T> {
    /// The pose (local → world) at frame 0.
    pub fn pose(&self) -> Isometry<T> {
        Isometry::from_parts(Translation3::from(self.position), self.rotation)
    }

    /// The pose at frame `frame`: translation `position + f·linear`, rotation
    /// `exp(f·angular) · rotation`.
    pub fn pose_at(&self, frame: u64) -> Isometry<T> {
        match &self.velocity {
            None => self.pose(),
            Some(v) => {
                let f = T::lit(frame as f64);
                let translation = self.position + v.linear * f;
                let rotation = Rotation::from_scaled_axis(v.angular * f) * self.rotation;
                Isometry::from_parts(Translation3::from(translation), rotation)
            }
        }
    }
}

impl<T: Real> Scene<T> {
    /// Reads and validates a scene file.
    pub fn from_json(text: &str) -> Result<Self, SceneError> {
        Self::from_doc(&SceneDoc::from_json(text)?)
    }

    /// Validates a document and builds its shapes in precision `T`.
    pub fn from_doc(doc: &SceneDoc) -> Result<Self, SceneError> {
        let prediction = to_real::<T>(doc.prediction).ok_or(SceneError::NotFinite {
            entry: Entry::Prediction,
            field: "value".to_owned(),
        })?;
        if doc.prediction < 0.0 {
            return Err(SceneError::NegativePrediction {
                value: doc.prediction,
            });
        }

        let mut shapes = Vec::with_capacity(doc.shapes.len());
        let mut shape_index = HashMap::with_capacity(doc.shapes.len());
        for (name, desc) in &doc.shapes {
            let entry = Entry::Shape(name.clone());
            if shape_index.insert(name.as_str(), shapes.len()).is_some() {
                return Err(SceneError::DuplicateShape { entry });
            }
            // A point-sized shape (a ball of radius 0, a hull of identical points) is valid
            // geometry for the library but a mistake in a scene.
            let shape = build_shape::<T>(desc)
                .and_then(|shape| shape.require_extent().map(|()| shape))
                .map_err(|error| SceneError::Shape { entry, error })?;
            shapes.push((name.clone(), shape));
        }

        let mut bodies = Vec::with_capacity(doc.bodies.len());
        let mut body_index = HashMap::with_capacity(doc.bodies.len());
        for (index, desc) in doc.bodies.iter().enumerate() {
            let entry = Entry::Body {
                index,
                id: Some(desc.id),
            };
            if body_index.insert(desc.id, index).is_some() {
                return Err(SceneError::DuplicateBodyId { entry });
            }
            bodies.push(build_body(desc, &shape_index, entry)?);
        }

        let pairs = match &doc.pairs {
            None => None,
            Some(pairs) => Some(
                pairs
                    .iter()
                    .enumerate()
                    .map(|(i, &[a, b])| {
                        let entry = Entry::Pair(i);
                        let find = |id: u64| {
                            body_index
                                .get(&id)
                                .copied()
                                .ok_or_else(|| SceneError::MissingBody {
                                    entry: entry.clone(),
                                    id,
                                })
                        };
                        let (ia, ib) = (find(a)?, find(b)?);
                        if ia == ib {
                            return Err(SceneError::SelfPair { entry });
                        }
                        Ok((ia, ib))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };

        Ok(Scene {
            prediction,
            shapes,
            bodies,
            pairs,
        })
    }

    /// The shape of body `index`.
    pub fn shape_of(&self, body: &Body<T>) -> &Shape<T> {
        &self.shapes[body.shape].1
    }

    /// One collider per body, posed at frame `frame`.
    pub fn colliders_at(&self, frame: u64) -> Vec<Collider<T>> {
        self.bodies
            .iter()
            .map(|b| Collider {
                id: b.id,
                shape: self.shape_of(b).clone(),
                pose: b.pose_at(frame),
            })
            .collect()
    }

    /// Moves `colliders` (as made by [`Scene::colliders_at`]) to frame `frame`.
    pub fn pose_colliders(&self, frame: u64, colliders: &mut [Collider<T>]) {
        for (c, b) in colliders.iter_mut().zip(&self.bodies) {
            if frame == 0 || b.velocity.is_some() {
                c.pose = b.pose_at(frame);
            }
        }
    }

    /// The pairs to query for colliders posed as given: the explicit pairs, or the broadphase's
    /// (AABB overlap loosened by the prediction distance, ordered by body index, `a < b`).
    pub fn pairs_for<'a>(&'a self, colliders: &[Collider<T>]) -> Cow<'a, [(usize, usize)]> {
        match &self.pairs {
            Some(pairs) => Cow::Borrowed(pairs),
            None => {
                let aabbs: Vec<_> = colliders
                    .iter()
                    .map(|c| c.shape.aabb(&c.pose).loosened(self.prediction))
                    .collect();
                Cow::Owned(sweep_and_prune(&aabbs))
            }
        }
    }
}

/// `x` in precision `T`, if it is finite there.
fn to_real<T: Real>(x: f64) -> Option<T> {
    let t = T::lit(x);
    Float::is_finite(t).then_some(t)
}

/// A vector in precision `T`, or the name of its first non-finite component.
fn to_vector<T: Real>(v: &[f64; 3], field: &str, entry: &Entry) -> Result<Vector<T>, SceneError> {
    let mut out = Vector::zeros();
    for (i, axis) in ["x", "y", "z"].iter().enumerate() {
        out[i] = to_real(v[i]).ok_or_else(|| SceneError::NotFinite {
            entry: entry.clone(),
            field: format!("{field}.{axis}"),
        })?;
    }
    Ok(out)
}

/// Refuses the first component of `v` (a position, a linear velocity) beyond the precision's
/// largest length, naming it `field.x`.
fn in_range<T: Real>(v: &Vector<T>, field: &str, entry: &Entry) -> Result<(), SceneError> {
    let Some(k) = T::RANGE.first_beyond(v) else {
        return Ok(());
    };
    Err(SceneError::OutOfRange {
        entry: entry.clone(),
        field: format!("{field}.{}", ["x", "y", "z"][k]),
        value: v[k].as_decimal(),
        max: T::RANGE.max_length.as_decimal(),
    })
}

fn point<T: Real>(p: &[f64; 3]) -> Point<T> {
    Point::new(T::lit(p[0]), T::lit(p[1]), T::lit(p[2]))
}

/// Builds a shape; non-finite values (in `T`) are refused by the constructors, naming the field.
fn build_shape<T: Real>(desc: &ShapeDesc) -> Result<Shape<T>, ShapeError> {
    Ok(match desc {
        ShapeDesc::Cuboid { half_extents } => {
            Shape::Cuboid(Cuboid::new(point::<T>(half_extents).coords)?)
        }
        ShapeDesc::Ball { radius } => Shape::Ball(Ball::new(T::lit(*radius))?),
        ShapeDesc::Capsule {
            half_height,
            radius,
        } => Shape::Capsule(Capsule::new(T::lit(*half_height), T::lit(*radius))?),
        ShapeDesc::Cylinder {
            half_height,
            radius,
        } => Shape::Cylinder(Cylinder::new(T::lit(*half_height), T::lit(*radius))?),
        ShapeDesc::Cone {
            half_height,
            radius,
        } => Shape::Cone(Cone::new(T::lit(*half_height), T::lit(*radius))?),
        ShapeDesc::Convex { points } => {
            Shape::convex(&points.iter().map(point).collect::<Vec<_>>())?
        }
        ShapeDesc::Segment { a, b } => Shape::Segment(Segment::new(point(a), point(b))?),
        ShapeDesc::Triangle { a, b, c } => {
            Shape::Triangle(Triangle::new(point(a), point(b), point(c))?)
        }
        ShapeDesc::Round {
            border_radius,
            inner,
        } => Shape::round(build_shape(inner)?, T::lit(*border_radius))?,
    })
}

fn build_body<T: Real>(
    desc: &BodyDesc,
    shape_index: &HashMap<&str, usize>,
    entry: Entry,
) -> Result<Body<T>, SceneError> {
    let shape = *shape_index
        .get(desc.shape.as_str())
        .ok_or_else(|| SceneError::UnknownShape {
            entry: entry.clone(),
            shape: desc.shape.clone(),
        })?;
    let position = to_vector(&desc.position, "position", &entry)?;
    in_range(&position, "position", &entry)?;
    let position64 = to_vector::<f64>(&desc.position, "position", &entry)?;
    let rotation64 = match &desc.rotation {
        None => Rotation::identity(),
        Some(RotationDesc::AxisAngle(v)) => {
            let v = to_vector::<f64>(v, "rotation.axis_angle", &entry)?;
            let r = Rotation::from_scaled_axis(v);
            // An angle whose norm overflows (components near 1e308) has no sine or cosine.
            if !r.coords.iter().all(|x| x.is_finite()) {
                return Err(SceneError::AngleTooLarge { entry });
            }
            r
        }
        Some(RotationDesc::Quaternion(q)) => {
            for (value, axis) in q.iter().zip(["x", "y", "z", "w"]) {
                if !value.is_finite() {
                    return Err(SceneError::NotFinite {
                        entry,
                        field: format!("rotation.quaternion.{axis}"),
                    });
                }
            }
            // Scale by the largest component first so that tiny or huge (finite) quaternions
            // normalise without underflow or overflow.
            let largest = q.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            if largest == 0.0 {
                return Err(SceneError::ZeroQuaternion { entry });
            }
            let [x, y, z, w] = q.map(|c| c / largest);
            Rotation::new_normalize(Quaternion::new(w, x, y, z))
        }
    };
    let rotation = cast_rotation::<T>(&rotation64);
    let exact_pose = Isometry::from_parts(Translation3::from(position64), rotation64);
    let velocity = match &desc.velocity {
        None => None,
        Some(v) => {
            let linear = to_vector(&v.linear, "velocity.linear", &entry)?;
            in_range(&linear, "velocity.linear", &entry)?;
            Some(Velocity {
                linear,
                angular: to_vector(&v.angular, "velocity.angular", &entry)?,
            })
        }
    };
    Ok(Body {
        id: desc.id,
        shape,
        position,
        rotation,
        velocity,
        exact_pose,
    })
}

/// An `f64` rotation in precision `T`, renormalised there.
fn cast_rotation<T: Real>(r: &Rotation<f64>) -> Rotation<T> {
    Rotation::new_normalize(Quaternion::from(r.quaternion().coords.map(T::lit)))
}

// ---------------------------------------------------------------------------------------------
// Overflowing literals.
// ---------------------------------------------------------------------------------------------

/// Rewrites every number literal outside strings that overflows an `f64` (`1e999`, `-1e400`)
/// into a marker string of the same length (`"+~" `), which [`lenient`] reads as ±infinity.
/// Line and column numbers of later errors are unchanged.
fn mark_overflowing_numbers(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if c == b'-' || c.is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && matches!(bytes[i], b'0'..=b'9' | b'+' | b'-' | b'.' | b'e' | b'E')
            {
                i += 1;
            }
            let token = &text[start..i];
            if token.parse::<f64>().is_ok_and(f64::is_infinite) {
                let marker = if token.starts_with('-') {
                    lenient::NEG_OVERFLOW
                } else {
                    lenient::POS_OVERFLOW
                };
                let s = out.get_or_insert_with(|| String::with_capacity(text.len()));
                s.push_str(&text[copied..start]);
                s.push_str(marker);
                // Overflowing literals have at least five characters ("2e308"); the marker
                // has four.
                s.extend(core::iter::repeat_n(
                    ' ',
                    token.len().saturating_sub(marker.len()),
                ));
                copied = i;
            }
            continue;
        }
        i += 1;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut s) => {
            s.push_str(&text[copied..]);
            Cow::Owned(s)
        }
    }
}

/// Number fields that also accept the overflow markers of [`mark_overflowing_numbers`].
mod lenient {
    use core::fmt;

    use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, Visitor};

    /// The marker of a literal that overflows to +infinity (a JSON string, with quotes).
    pub(super) const POS_OVERFLOW: &str = "\"+~\"";
    /// The marker of a literal that overflows to −infinity.
    pub(super) const NEG_OVERFLOW: &str = "\"-~\"";

    /// A number, or an overflow marker read as ±infinity.
    pub(super) struct Num(f64);

    impl<'de> Deserialize<'de> for Num {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct NumVisitor;
            impl Visitor<'_> for NumVisitor {
                type Value = Num;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a number")
                }
                fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
                    Ok(Num(v))
                }
                fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
                    Ok(Num(v as f64))
                }
                fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
                    Ok(Num(v as f64))
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<Num, E> {
                    if v == POS_OVERFLOW.trim_matches('"') {
                        Ok(Num(f64::INFINITY))
                    } else if v == NEG_OVERFLOW.trim_matches('"') {
                        Ok(Num(f64::NEG_INFINITY))
                    } else {
                        Err(E::invalid_type(de::Unexpected::Str(v), &self))
                    }
                }
            }
            deserializer.deserialize_any(NumVisitor)
        }
    }

    /// Values made of [`Num`]s.
    pub(super) trait Lenient: Sized {
        type Raw: DeserializeOwned;
        fn from_raw(raw: Self::Raw) -> Self;
    }

    impl Lenient for f64 {
        type Raw = Num;
        fn from_raw(raw: Num) -> f64 {
            raw.0
        }
    }

    impl<const N: usize> Lenient for [f64; N]
    where
        [Num; N]: DeserializeOwned,
    {
        type Raw = [Num; N];
        fn from_raw(raw: [Num; N]) -> Self {
            raw.map(|n| n.0)
        }
    }

    impl<L: Lenient> Lenient for Vec<L> {
        type Raw = Vec<L::Raw>;
        fn from_raw(raw: Self::Raw) -> Self {
            raw.into_iter().map(L::from_raw).collect()
        }
    }

    impl<L: Lenient> Lenient for Option<L> {
        type Raw = Option<L::Raw>;
        fn from_raw(raw: Self::Raw) -> Self {
            raw.map(L::from_raw)
        }
    }

    /// `deserialize_with` target for number fields.
    pub(super) fn deserialize<'de, D: Deserializer<'de>, L: Lenient>(
        deserializer: D,
    ) -> Result<L, D::Error> {
        L::Raw::deserialize(deserializer).map(L::from_raw)
    }
}

#[cfg(test)]
mod tests {
    use core::f64::consts::FRAC_PI_2;

    use super::*;

    /// The example of `scene-format.md`.
    const SPEC_EXAMPLE: &str = r#"{
      "format": "nphase-scene/1",
      "prediction": 0.0,
      "shapes": {
        "crate":  { "type": "cuboid",   "half_extents": [0.5, 0.5, 0.5] },
        "ball":   { "type": "ball",     "radius": 0.5 },
        "pill":   { "type": "capsule",  "half_height": 0.5, "radius": 0.2 },
        "can":    { "type": "cylinder", "half_height": 0.5, "radius": 0.3 },
        "spike":  { "type": "cone",     "half_height": 0.5, "radius": 0.3 },
        "rock":   { "type": "convex",   "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]] },
        "stick":  { "type": "segment",  "a": [0,0,0], "b": [1,0,0] },
        "shard":  { "type": "triangle", "a": [0,0,0], "b": [1,0,0], "c": [0,1,0] },
        "pebble": { "type": "round",    "border_radius": 0.05, "inner": { "type": "cuboid", "half_extents": [0.2,0.2,0.2] } }
      },
      "bodies": [
        { "id": 0, "shape": "crate", "position": [0, 0, 0] },
        { "id": 1, "shape": "ball",  "position": [0, 1.2, 0], "rotation": { "axis_angle": [0, 0, 0.3] } },
        { "id": 2, "shape": "pill",  "position": [2, 0, 0],   "rotation": { "quaternion": [0, 0, 0, 1] } }
      ],
      "pairs": [[0, 1], [0, 2]]
    }"#;

    /// A scene of balls named `b` at the given positions, with extra top-level JSON.
    fn balls(positions: &[[f64; 3]], extra: &str) -> String {
        let bodies: Vec<String> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                format!(
                    r#"{{"id": {i}, "shape": "b", "position": [{}, {}, {}]}}"#,
                    p[0], p[1], p[2]
                )
            })
            .collect();
        format!(
            r#"{{"format": "nphase-scene/1", "shapes": {{"b": {{"type": "ball", "radius": 0.5}}}},
                "bodies": [{}]{extra}}}"#,
            bodies.join(", ")
        )
    }

    fn error_of(text: &str) -> String {
        match Scene::<f64>::from_json(text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn reads_the_format_example_in_both_precisions() {
        let scene = Scene::<f64>::from_json(SPEC_EXAMPLE).expect("the spec example is valid");
        assert_eq!(scene.shapes.len(), 9);
        assert_eq!(scene.bodies.len(), 3);
        assert_eq!(scene.pairs, Some(vec![(0, 1), (0, 2)]));
        assert_eq!(scene.prediction, 0.0);
        let kinds: Vec<_> = scene.shapes.iter().map(|(_, s)| s.kind().name()).collect();
        assert_eq!(kinds, SHAPE_TYPES.to_vec());
        // axis_angle [0, 0, 0.3]: 0.3 rad about z.
        let r = scene.bodies[1].rotation;
        assert!((r.angle() - 0.3).abs() < 1e-15);
        assert!((r.axis().map_or(0.0, |a| a.z) - 1.0).abs() < 1e-15);
        assert_eq!(scene.bodies[2].rotation, Rotation::identity());
        let single = Scene::<f32>::from_json(SPEC_EXAMPLE).expect("valid in f32 too");
        assert_eq!(single.bodies[1].position, Vector::new(0.0, 1.2f32, 0.0));
    }

    #[test]
    fn quaternions_are_normalised_on_read() {
        let with_rotation = |q: &str| {
            let text = balls(&[[0.0; 3]], "").replace(
                r#""position": [0, 0, 0]}"#,
                &format!(r#""position": [0, 0, 0], "rotation": {{"quaternion": {q}}}}}"#),
            );
            Scene::<f64>::from_json(&text).map(|s| s.bodies[0].rotation)
        };
        let r = with_rotation("[0, 0, 0, 2]").expect("valid");
        assert!(r.angle().abs() < 1e-15);
        // [1, 0, 0, 1]/√2: a quarter turn about x, taking y to z.
        let r = with_rotation("[1, 0, 0, 1]").expect("valid");
        assert!((r * Vector::y() - Vector::z()).norm() < 1e-15);
        // Tiny and huge (finite) quaternions normalise without underflow or overflow.
        let r = with_rotation("[1e-300, 0, 0, 1e-300]").expect("valid");
        assert!((r * Vector::y() - Vector::z()).norm() < 1e-15);
        let r = with_rotation("[1e300, 0, 0, 1e300]").expect("valid");
        assert!((r * Vector::y() - Vector::z()).norm() < 1e-15);
        assert_eq!(
            with_rotation("[0, 0, 0, 0]").map(|_| ()),
            Err(SceneError::ZeroQuaternion {
                entry: Entry::Body {
                    index: 0,
                    id: Some(0)
                }
            })
        );
    }

    #[test]
    fn error_messages_name_the_entry_and_the_rule() {
        let cases: &[(String, &str)] = &[
            (
                balls(&[[0.0, 7.0, 0.0]], "").replace("7", "1e999"),
                "bodies[0] (id 0): position.y is not finite",
            ),
            (
                balls(&[[0.0, 0.0, -7.0]], "").replace("-7", "-1e999"),
                "bodies[0] (id 0): position.z is not finite",
            ),
            (
                balls(
                    &[[0.0; 3], [1.0, 0.0, 0.0]],
                    r#", "pairs": [[0, 1], [1, 9]]"#,
                ),
                "pairs[1]: body 9 does not exist",
            ),
            (
                balls(&[[0.0; 3]], r#", "pairs": [[0, 0]]"#),
                "pairs[0]: a body cannot pair with itself",
            ),
            (
                balls(&[[0.0; 3]], r#", "prediction": -0.5"#),
                "prediction: must be non-negative (got -0.5)",
            ),
            (
                balls(&[[0.0; 3]], "")
                    .replace(r#""type": "ball", "radius": 0.5"#, r#""type": "sphere""#),
                "shapes.b: unknown type \"sphere\"",
            ),
            (
                balls(&[[0.0; 3]], "").replace(r#""radius": 0.5"#, r#""radius": -1"#),
                "shapes.b: ball: `radius` must be non-negative (got -1)",
            ),
            (
                balls(&[[0.0; 3]], "").replace(r#", "radius": 0.5"#, ""),
                "shapes.b: missing field `radius`",
            ),
            (
                balls(&[[0.0; 3]], "").replace(
                    r#""type": "ball", "radius": 0.5"#,
                    r#""type": "convex", "points": []"#,
                ),
                "shapes.b: convex: `points` must hold at least one point (got none)",
            ),
            (
                balls(&[[0.0; 3]], "").replace(r#""shape": "b""#, r#""shape": "crate2""#),
                "bodies[0] (id 0): unknown shape \"crate2\"",
            ),
            (
                balls(&[[0.0; 3], [0.0; 3]], "").replace(r#""id": 1"#, r#""id": 0"#),
                "bodies[1] (id 0): duplicate body id",
            ),
            (
                balls(&[[0.0; 3]], "").replace(r#""position": [0, 0, 0]"#, r#""position": [0, 0]"#),
                "bodies[0] (id 0): position: invalid length 2",
            ),
            (
                balls(&[[0.0; 3]], "").replace(r#""nphase-scene/1""#, r#""nphase-query/1""#),
                "format: expected \"nphase-scene/1\", found \"nphase-query/1\"",
            ),
            (
                "{\"format\": \"nphase-scene/1\",\n \"shapes\": {]}".to_owned(),
                "malformed JSON at line 2, column",
            ),
            (
                "[]".to_owned(),
                "scene: the top level must be a JSON object",
            ),
            (balls(&[], r#", "pair": []"#), "scene: unknown field `pair`"),
            (
                balls(&[[0.0; 3]], "").replace(
                    r#""position": [0, 0, 0]}"#,
                    r#""position": [0, 0, 0], "rotation": {"axis_angle": [1e308, 1e308, 0]}}"#,
                ),
                "bodies[0] (id 0): rotation.axis_angle is too large to make a rotation",
            ),
            (
                balls(&[[0.0; 3]], "").replace(
                    r#""type": "ball", "radius": 0.5"#,
                    r#""type": "round", "border_radius": 0.1, "inner": {"type": "round",
                       "border_radius": 0.1, "inner": {"type": "ball", "radius": 1, "radius": 2}}"#,
                ),
                "shapes.b: inner.inner: duplicate field `radius` at line ",
            ),
            (
                balls(&[[0.0; 3]], r#", "pairs": [[0, 0], {"a": 1, "a": 2}]"#),
                "pairs[1]: duplicate field `a` at line ",
            ),
            (
                balls(&[[0.0; 3]], r#", "extra": [{"k": 1, "k": 2}]"#),
                "scene: extra[0]: duplicate field `k` at line ",
            ),
        ];
        for (text, expected) in cases {
            let message = error_of(text);
            assert!(
                message.starts_with(expected),
                "{message:?} should start with {expected:?}"
            );
            assert!(!message.contains('\n'), "one line: {message:?}");
        }
    }

    #[test]
    fn overflow_markers_keep_positions_and_leave_strings_alone() {
        // A syntax error after an overflowing literal is reported at the same column.
        let broken = r#"{"format": 1e999 , ]"#;
        match SceneDoc::from_json(broken) {
            Err(SceneError::Json {
                line: 1, column, ..
            }) => {
                let plain: Result<Value, _> =
                    serde_json::from_str(&broken.replace("1e999", "1e000"));
                assert_eq!(plain.map_err(|e| e.column()).err(), Some(column));
            }
            other => panic!("{other:?}"),
        }
        // "1e999" as a name is a string, not a number.
        let text = balls(&[[0.0; 3]], "").replace(r#""b""#, r#""1e999""#);
        let scene = Scene::<f64>::from_json(&text).expect("names are not numbers");
        assert_eq!(scene.shapes[0].0, "1e999");
        assert_eq!(
            mark_overflowing_numbers("[1e999, -2e400,\"1e999\"]"),
            r#"["+~" , "-~"  ,"1e999"]"#
        );
    }

    #[test]
    fn values_too_large_for_f32_are_refused_in_f32_only() {
        // Within f64's input range (1e60), beyond f32's representable range.
        let text = balls(&[[1e50, 0.0, 0.0]], "");
        assert!(Scene::<f64>::from_json(&text).is_ok());
        assert_eq!(
            Scene::<f32>::from_json(&text).map(|_| ()),
            Err(SceneError::NotFinite {
                entry: Entry::Body {
                    index: 0,
                    id: Some(0)
                },
                field: "position.x".to_owned()
            })
        );
    }

    #[test]
    fn pairs_name_ids_and_keep_file_order() {
        let text = balls(
            &[[0.0; 3], [3.0, 0.0, 0.0], [6.0, 0.0, 0.0]],
            r#", "pairs": [[0, 10], [1, 0]]"#,
        )
        .replace(r#""id": 0"#, r#""id": 10"#)
        .replace(r#""id": 2"#, r#""id": 0"#);
        let scene = Scene::<f64>::from_json(&text).expect("valid");
        assert_eq!(scene.pairs, Some(vec![(2, 0), (1, 2)]));
    }

    #[test]
    fn broadphase_pairs_overlapping_boxes_loosened_by_the_prediction() {
        // Balls of radius 0.5: 0–1 overlap, 1–2 are 0.1 apart, 2–3 are 2 apart.
        let positions = [
            [0.0, 0.0, 0.0],
            [0.9, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [5.0, 0.0, 0.0],
        ];
        let scene = Scene::<f64>::from_json(&balls(&positions, "")).expect("valid");
        let colliders = scene.colliders_at(0);
        assert_eq!(scene.pairs_for(&colliders).into_owned(), vec![(0, 1)]);
        let loose =
            Scene::<f64>::from_json(&balls(&positions, r#", "prediction": 0.06"#)).expect("valid");
        assert_eq!(
            loose.pairs_for(&colliders).into_owned(),
            vec![(0, 1), (1, 2)]
        );
    }

    #[test]
    fn motion_translates_linearly_and_rotates_on_the_left() {
        let position = Vector::new(1.0, 2.0, 3.0);
        let rotation = Rotation::from_scaled_axis(Vector::new(FRAC_PI_2, 0.0, 0.0));
        let body = Body {
            id: 0,
            shape: 0,
            position,
            rotation,
            exact_pose: Isometry::from_parts(Translation3::from(position), rotation),
            velocity: Some(Velocity {
                linear: Vector::new(0.5, 0.0, -1.0),
                angular: Vector::new(0.0, 0.0, FRAC_PI_2 / 3.0),
            }),
        };
        assert_eq!(body.pose_at(0), body.pose());
        let pose = body.pose_at(3);
        assert!((pose.translation.vector - Vector::new(2.5, 2.0, 0.0)).norm() < 1e-15);
        // Frame 3: a quarter turn about world z after the base quarter turn about x. Local z
        // goes to −y (base), then to +x (world z turn): the left product. The right product
        // would take local z to −y.
        let z = pose.rotation * Vector::z();
        assert!((z - Vector::x()).norm() < 1e-14, "{z}");
        let y = pose.rotation * Vector::y();
        assert!((y - Vector::z()).norm() < 1e-14, "{y}");
        let still = Body {
            velocity: None,
            ..body
        };
        assert_eq!(still.pose_at(1000), still.pose());
    }

    #[test]
    fn documents_round_trip_through_json() {
        let doc = SceneDoc::from_json(SPEC_EXAMPLE).expect("valid");
        let again = SceneDoc::from_json(&doc.to_json()).expect("written scene reads back");
        assert_eq!(again, doc);
    }
}
