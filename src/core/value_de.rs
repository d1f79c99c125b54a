//! Reading a `T` out of a `serde_json::Value`, with the path of the first error (`llm.config.model`,
//! `messages[2].role`). One deserializer instead of serde_json's value deserializer wrapped in
//! serde_path_to_error, whose wrapper doubled every visitor's code in the .wasm. Errors are
//! `serde_json::Error`s, so their messages read exactly as serde_json's.

use std::cell::RefCell;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Unexpected, Visitor};
use serde_json::{Error, Map, Value};

/// `T` from `value`; the error comes with the path of the value that failed (`.` for the root).
pub fn from_value_path<T: DeserializeOwned>(value: &Value) -> Result<T, (String, Error)> {
    let track = Track::default();
    T::deserialize(Reader { value, track: &track }).map_err(|error| track.failed(error))
}

/// An unknown-field error with the option that was probably meant (`super::unknown_field`).
#[cold]
fn helpful(error: Error) -> Error {
    match super::unknown_field::reworded(&error.to_string()) {
        Some(message) => de::Error::custom(message),
        None => error,
    }
}

/// `T` from `value`, as `serde_json::from_value` gives it (same messages, no path).
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, Error> {
    from_value_path(value).map_err(|(_, error)| error)
}

enum Segment<'de> {
    Key(&'de str),
    Index(usize),
}

/// The segments down to the value being read, and the path of the first error (the innermost).
#[derive(Default)]
struct Track<'de> {
    stack: RefCell<Vec<Segment<'de>>>,
    found: RefCell<Option<String>>,
}

impl<'de> Track<'de> {
    #[cold]
    fn trigger(&self, error: Error) -> Error {
        let mut found = self.found.borrow_mut();
        if found.is_none() {
            let mut path = String::new();
            for segment in self.stack.borrow().iter() {
                match segment {
                    Segment::Key(key) => {
                        if !path.is_empty() {
                            path.push('.');
                        }
                        path.push_str(key);
                    }
                    Segment::Index(index) => path.push_str(&format!("[{index}]")),
                }
            }
            *found = Some(if path.is_empty() { ".".to_owned() } else { path });
        }
        error
    }

    /// The path of the first error and `error` (reworded when it is an unknown field). Not generic: one
    /// copy for every type read.
    #[cold]
    #[inline(never)]
    fn failed(&self, error: Error) -> (String, Error) {
        (self.found.take().unwrap_or_else(|| ".".to_owned()), helpful(error))
    }

    #[inline(never)]
    fn push(&self, segment: Segment<'de>) {
        self.stack.borrow_mut().push(segment);
    }

    #[inline(never)]
    fn pop(&self) {
        self.stack.borrow_mut().pop();
    }

    /// Runs `read` with `segment` pushed.
    #[inline(always)]
    fn under<R>(&self, segment: Segment<'de>, read: impl FnOnce() -> R) -> R {
        self.push(segment);
        let result = read();
        self.pop();
        result
    }

    /// The error of a key that did not read, its path ending at the key.
    #[cold]
    fn key_failed(&self, key: &'de str, error: Error) -> Error {
        self.under(Segment::Key(key), || self.trigger(error))
    }
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

#[derive(Clone, Copy)]
struct Reader<'de, 't> {
    value: &'de Value,
    track: &'t Track<'de>,
}

impl<'de, 't> Reader<'de, 't> {
    fn at(self, value: &'de Value) -> Self {
        Reader { value, track: self.track }
    }

    fn any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(_) => self.number(visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.array(items, visitor),
            Value::Object(map) => self.object(map, visitor),
        }
    }

    /// The object a struct reads from, or the error for any other value.
    #[inline(never)]
    fn struct_map(self, expected: &dyn de::Expected) -> Result<&'de Map<String, Value>, Error> {
        match self.value {
            Value::Object(map) => Ok(map),
            _ => Err(self.track.trigger(self.wrong(expected))),
        }
    }

    /// The error for a value of the wrong JSON type.
    #[cold]
    fn wrong(self, expected: &dyn de::Expected) -> Error {
        de::Error::invalid_type(unexpected(self.value), expected)
    }

    fn number<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let Value::Number(n) = self.value else { return Err(self.wrong(&visitor)) };
        match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => visitor.visit_u64(u),
            (None, Some(i)) => visitor.visit_i64(i),
            _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
        }
    }

    fn array<V: Visitor<'de>>(self, items: &'de [Value], visitor: V) -> Result<V::Value, Error> {
        let mut seq = Seq { reader: self, items: items.iter(), index: 0 };
        let out = visitor.visit_seq(&mut seq)?;
        match seq.items.len() {
            0 => Ok(out),
            _ => Err(de::Error::invalid_length(items.len(), &"fewer elements in array")),
        }
    }

    /// The object's value as `visitor` reads it; an error comes with its path (so a struct's reader returns
    /// this result as it is, with no step of its own to add the path).
    fn object<V: Visitor<'de>>(self, map: &'de Map<String, Value>, visitor: V) -> Result<V::Value, Error> {
        let mut entries = Entries { reader: self, entries: map.iter(), value: None };
        let out = visitor.visit_map(&mut entries).map_err(|e| self.track.trigger(e))?;
        match entries.entries.len() {
            0 => Ok(out),
            _ => Err(self.track.trigger(de::Error::invalid_length(map.len(), &"fewer elements in map"))),
        }
    }

    fn enumeration<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let (variant, value) = self.variant()?;
        visitor.visit_enum(Variant { reader: self, variant, value })
    }

    /// The variant an enum's value names (`"name"` or `{"name": value}`) and its value. Not generic: one
    /// copy for every enum.
    #[inline(never)]
    fn variant(self) -> Result<(&'de str, Option<&'de Value>), Error> {
        match self.value {
            Value::Object(map) if map.len() == 1 => {
                map.iter().next().map(|(k, v)| (k.as_str(), Some(v))).ok_or_else(|| de::Error::custom("empty map"))
            }
            Value::Object(_) => Err(de::Error::invalid_value(Unexpected::Map, &"map with a single key")),
            Value::String(s) => Ok((s.as_str(), None)),
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }
}

/// The number types all read as `deserialize_f64` does (serde_json's value deserializer does the same).
macro_rules! forward_numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.deserialize_f64(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Reader<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.any(visitor).map_err(|e| self.track.trigger(e))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
        .map_err(|e| self.track.trigger(e))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self).map_err(|e| self.track.trigger(e))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.enumeration(visitor).map_err(|e| self.track.trigger(e))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Bool(b) => visitor.visit_bool(*b),
            _ => Err(self.wrong(&visitor)),
        }
        .map_err(|e| self.track.trigger(e))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.number(visitor).map_err(|e| self.track.trigger(e))
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::String(s) => visitor.visit_borrowed_str(s),
            _ => Err(self.wrong(&visitor)),
        }
        .map_err(|e| self.track.trigger(e))
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            _ => Err(self.wrong(&visitor)),
        }
        .map_err(|e| self.track.trigger(e))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(items) => self.array(items, visitor),
            _ => Err(self.wrong(&visitor)),
        }
        .map_err(|e| self.track.trigger(e))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) => self.object(map, visitor),
            _ => Err(self.wrong(&visitor)),
        }
        .map_err(|e| self.track.trigger(e))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        // Objects only: serde_json also reads a struct from an array of its fields in order, which no
        // JS caller means and which doubled the code of every struct's reader.
        let map = self.struct_map(&visitor)?;
        self.object(map, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    serde::forward_to_deserialize_any! { bytes byte_buf }

    forward_numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32
    }
}

struct Seq<'de, 't> {
    reader: Reader<'de, 't>,
    items: std::slice::Iter<'de, Value>,
    index: usize,
}

impl<'de, 't> Seq<'de, 't> {
    /// The reader of the next item, its index pushed on the path (the caller pops it).
    #[inline(never)]
    fn enter(&mut self) -> Option<Reader<'de, 't>> {
        let item = self.items.next()?;
        self.reader.track.push(Segment::Index(self.index));
        self.index += 1;
        Some(self.reader.at(item))
    }
}

impl<'de> de::SeqAccess<'de> for Seq<'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(reader) = self.enter() else { return Ok(None) };
        let out = seed.deserialize(reader);
        self.reader.track.pop();
        out.map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Entries<'de, 't> {
    reader: Reader<'de, 't>,
    entries: serde_json::map::Iter<'de>,
    value: Option<(&'de str, &'de Value)>,
}

impl<'de, 't> Entries<'de, 't> {
    /// The next key, its value kept for `enter`.
    #[inline(never)]
    fn advance(&mut self) -> Option<&'de str> {
        let (key, value) = self.entries.next()?;
        self.value = Some((key, value));
        Some(key)
    }

    /// The reader of the kept value, its key pushed on the path (the caller pops it).
    #[inline(never)]
    fn enter(&mut self) -> Result<Reader<'de, 't>, Error> {
        let Some((key, value)) = self.value.take() else { return Err(de::Error::custom("value is missing")) };
        self.reader.track.push(Segment::Key(key));
        Ok(self.reader.at(value))
    }
}

impl<'de> de::MapAccess<'de> for Entries<'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some(key) = self.advance() else { return Ok(None) };
        match seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(key)) {
            Ok(read) => Ok(Some(read)),
            Err(error) => Err(self.reader.track.key_failed(key, error)),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let reader = self.enter()?;
        let out = seed.deserialize(reader);
        self.reader.track.pop();
        out
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct Variant<'de, 't> {
    reader: Reader<'de, 't>,
    variant: &'de str,
    value: Option<&'de Value>,
}

impl<'de, 't> de::EnumAccess<'de> for Variant<'de, 't> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let name = de::value::BorrowedStrDeserializer::<Error>::new(self.variant);
        Ok((seed.deserialize(name)?, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        self.inside(|reader, value| match value {
            Some(value) => de::Deserialize::deserialize(reader.at(value)),
            None => Ok(()),
        })
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        self.inside(|reader, value| match value {
            Some(value) => seed.deserialize(reader.at(value)),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &"newtype variant")),
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.nested(visitor, "tuple variant")
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        self.nested(visitor, "struct variant")
    }
}

impl<'de, 't> Variant<'de, 't> {
    /// Runs `read` with the variant on the path, as serde_path_to_error does.
    fn inside<R>(self, read: impl FnOnce(Reader<'de, 't>, Option<&'de Value>) -> Result<R, Error>) -> Result<R, Error> {
        let track = self.reader.track;
        track.under(Segment::Key(self.variant), || read(self.reader, self.value).map_err(|e| track.trigger(e)))
    }

    fn nested<V: Visitor<'de>>(self, visitor: V, what: &'static str) -> Result<V::Value, Error> {
        self.inside(|reader, value| match value {
            Some(Value::Array(items)) if items.is_empty() => visitor.visit_unit(),
            Some(value @ (Value::Array(_) | Value::Object(_))) => reader.at(value).any(visitor),
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &what)),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &what)),
        })
    }
}

#[cfg(test)]
#[path = "value_de_tests.rs"]
mod tests;
