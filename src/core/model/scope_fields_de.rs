//! Reading an options type's `scope: ScopeFields` beside its own keys. serde's `flatten` would lose the
//! errors' paths (`userId: invalid type …`) and the list of known keys of an unknown-key error, so an
//! options type derives its own keys with `#[serde(remote = "Self", deny_unknown_fields)]` and a
//! `#[serde(skip)] scope`, and `scoped_options!` gives it a `Deserialize` that takes the scope keys out of
//! the map first. Errors read as serde's derive writes them: an unknown key lists the scope keys, then the
//! type's own.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};

use super::scope_fields::{ScopeFields, ScopeForm};

/// Implements `Deserialize` for an options type with a `scope: ScopeFields` field of form `$form`.
macro_rules! scoped_options {
    ($name:ident, $form:expr) => {
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let mut scope = $crate::core::model::scope_fields::ScopeFields { form: $form, ..Default::default() };
                let mut options =
                    $name::deserialize($crate::core::model::scope_fields_de::Split::new(deserializer, &mut scope))?;
                options.scope = scope;
                Ok(options)
            }
        }
    };
}
pub(crate) use scoped_options;

/// A deserializer that hands a struct's visitor its map without the scope keys, which go to `scope`.
pub struct Split<'s, D> {
    inner: D,
    scope: &'s mut ScopeFields,
}

impl<'s, D> Split<'s, D> {
    pub fn new(inner: D, scope: &'s mut ScopeFields) -> Self {
        Self { inner, scope }
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Split<'_, D> {
    type Error = D::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_struct(name, fields, Outer { visitor, fields, scope: self.scope })
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.deserialize_struct("", &[], visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// The struct's visitor, given the map through `Entries`.
struct Outer<'s, V> {
    visitor: V,
    fields: &'static [&'static str],
    scope: &'s mut ScopeFields,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Outer<'_, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        self.visitor.expecting(formatter)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let seen = [false; 4];
        self.visitor.visit_map(Entries { map, fields: self.fields, scope: self.scope, seen })
    }
}

/// The map without its scope keys: each is read into `scope` as it comes.
struct Entries<'s, A> {
    map: A,
    fields: &'static [&'static str],
    scope: &'s mut ScopeFields,
    seen: [bool; 4],
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Entries<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        match self.next_own_key()? {
            None => Ok(None),
            Some(key) => seed.deserialize(key.into_deserializer()).map(Some),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

impl<'de, A: MapAccess<'de>> Entries<'_, A> {
    /// The next of the struct's own keys, the scope keys before it read into `scope`. Shared by every
    /// options type: the struct's key reader only turns a name that is known to be its own into its field.
    #[inline(never)]
    fn next_own_key(&mut self) -> Result<Option<String>, A::Error> {
        loop {
            let key = KeySeed { form: self.scope.form, fields: self.fields };
            match self.map.next_key_seed(key)? {
                None => return Ok(None),
                Some(Key::Own(name)) => return Ok(Some(name)),
                Some(Key::Scope(index)) => {
                    let name = self.scope.form.keys()[index & !1];
                    if std::mem::replace(&mut self.seen[index / 2], true) {
                        return Err(de::Error::duplicate_field(name));
                    }
                    let value: Option<String> = self.map.next_value()?;
                    *self.scope.slot(name).expect("a scope key") = value;
                }
            }
        }
    }
}

enum Key {
    /// The index of a scope key in `ScopeForm::keys`.
    Scope(usize),
    /// One of the struct's own keys.
    Own(String),
}

/// Reads a key: a scope key, or one of the struct's own (`fields`); any other is serde's unknown-field
/// error.
struct KeySeed {
    form: ScopeForm,
    fields: &'static [&'static str],
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        if let Some(index) = self.form.keys().iter().position(|name| *name == key) {
            return Ok(Key::Scope(index));
        }
        match self.fields.contains(&key) {
            true => Ok(Key::Own(key.to_owned())),
            false => Err(E::custom(unknown(key, self.form, self.fields))),
        }
    }
}

/// serde's unknown-field message, listing the scope keys then the struct's own.
#[cold]
fn unknown(key: &str, form: ScopeForm, fields: &[&str]) -> String {
    let known: Vec<String> = form.keys().iter().chain(fields).map(|name| format!("`{name}`")).collect();
    format!("unknown field `{key}`, expected one of {}", known.join(", "))
}

#[cfg(test)]
#[path = "scope_fields_de_tests.rs"]
mod tests;
