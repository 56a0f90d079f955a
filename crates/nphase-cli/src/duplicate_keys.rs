//! The first key that a JSON object repeats, anywhere in a document, with where it is.
//!
//! serde_json's `Value` keeps the last of two equal keys and says nothing, and a typed
//! `Deserialize` refuses repeats only in the structs it derives: a scene read through `Value`
//! would take `"radius": 0.5, "radius": 0.7` for a radius of 0.7. One walk over the text with a
//! visitor that keeps the keys of each open object finds every repeat, at every depth, with its
//! path from the top (`bodies`, `1`, `rotation`) and serde_json's position of the second key.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// One step of a path into a JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The value of an object's key.
    Key(String),
    /// An element of an array.
    Index(usize),
}

/// A key that an object holds twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The path of the object from the top (empty: the top-level object).
    pub path: Vec<Step>,
    /// The repeated key.
    pub key: String,
    /// 1-based line of the second occurrence (just after the key).
    pub line: usize,
    /// 1-based column of the second occurrence.
    pub column: usize,
}

/// The first repeated key of `text` in document order, `None` if there is none. `text` must
/// be valid JSON: a syntax error is returned as it is.
pub fn find(text: &str) -> Result<Option<Duplicate>, serde_json::Error> {
    let mut state = State::default();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    match (Walk { state: &mut state }).deserialize(&mut deserializer) {
        Ok(()) => Ok(None),
        Err(e) => match state.found.take() {
            Some((path, key)) => Ok(Some(Duplicate {
                path,
                key,
                line: e.line(),
                column: e.column(),
            })),
            None => Err(e),
        },
    }
}

#[derive(Default)]
struct State {
    path: Vec<Step>,
    found: Option<(Vec<Step>, String)>,
}

/// Visits one value, descending into objects and arrays.
struct Walk<'a> {
    state: &'a mut State,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                self.state.found = Some((self.state.path.clone(), key));
                // The message is not shown; `find` reads the position and the path.
                return Err(de::Error::custom("duplicate key"));
            }
            self.state.path.push(Step::Key(key));
            map.next_value_seed(Walk {
                state: &mut *self.state,
            })?;
            self.state.path.pop();
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        for index in 0.. {
            self.state.path.push(Step::Index(index));
            let more = seq.next_element_seed(Walk {
                state: &mut *self.state,
            })?;
            self.state.path.pop();
            if more.is_none() {
                break;
            }
        }
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Step {
        Step::Key(k.to_owned())
    }

    #[test]
    fn finds_the_first_repeat_at_any_depth_with_its_path_and_position() {
        assert_eq!(
            find(r#"{"a": [1, {"b": null}], "c": "a"}"#).ok(),
            Some(None)
        );
        let d = find("{\"a\": 1,\n \"x\": [true, {\"k\": 1, \"k\": 2}], \"a\": 3}")
            .expect("valid JSON")
            .expect("a repeat");
        assert_eq!(d.path, [key("x"), Step::Index(1)]);
        assert_eq!(d.key, "k");
        assert_eq!((d.line, d.column), (2, 25), "just after the second key");
        let top = find(r#"{"a": 1, "a": 2}"#)
            .expect("valid")
            .expect("a repeat");
        assert_eq!((top.path, top.key.as_str()), (vec![], "a"));
        // Keys are compared after unescaping, as serde reads them.
        let escaped = find(r#"{"r": {"ab": 1, "a\u0062": 2}}"#).expect("valid");
        assert_eq!(
            escaped.map(|d| (d.path, d.key)),
            Some((vec![key("r")], "ab".into()))
        );
        // Equal keys in different objects are not repeats.
        assert_eq!(find(r#"[{"a": 1}, {"a": 2}]"#).ok(), Some(None));
        assert!(find("{\"a\": }").is_err(), "a syntax error is an error");
    }
}
