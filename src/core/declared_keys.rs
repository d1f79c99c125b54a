//! What the tests holding the TypeScript declarations (`src/js/*.d.ts`) to the Rust types share: the keys
//! serde reads into a type (recorded from its derive), and the declarations' side: the members of an
//! interface (those it extends included) or of any type expression, resolved through `export type` aliases.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::Path;

use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::Value;

pub type Keys = BTreeSet<String>;

/// The declaration files of the npm package's options and results (`generated.d.ts` holds names only).
pub const DECLARATION_FILES: [&str; 3] = ["src/js/types.d.ts", "src/js/tiers.d.ts", "src/js/sync.d.ts"];

/// A deserializer that records the field names (aliases included) a struct asks for, and reads nothing.
struct FieldRecorder<'a>(&'a RefCell<Vec<&'static str>>);

impl<'de> de::Deserializer<'de> for FieldRecorder<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.borrow_mut().extend_from_slice(fields);
        Err(de::Error::custom("fields recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// The keys serde reads into `T`: the fields its derive passes to `deserialize_struct`.
pub fn struct_keys<T: DeserializeOwned>() -> Keys {
    let fields = RefCell::new(Vec::new());
    let _ = T::deserialize(FieldRecorder(&fields));
    fields.into_inner().into_iter().map(str::to_owned).collect()
}

/// The names serde's unknown-field error for `value` lists ("expected one of `a`, `b`").
pub fn expected_keys<T: DeserializeOwned>(value: Value) -> Keys {
    let error = serde_json::from_value::<T>(value).err().expect("an unknown field is refused").to_string();
    let expected = error.split_once(", expected ").expect("an unknown-field error").1;
    expected.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

/// "`label`: only Rust has […]" and "only TypeScript has […]", leaving out the keys `intended` accepts.
pub fn differences(label: &str, rust: &Keys, ts: &Keys, intended: impl Fn(&str) -> bool) -> Vec<String> {
    let only = |side: &str, one: &Keys, other: &Keys| {
        let keys: Vec<&str> = one.difference(other).map(String::as_str).filter(|key| !intended(key)).collect();
        (!keys.is_empty()).then(|| format!("{label}: only {side} has {keys:?}"))
    };
    only("Rust", rust, ts).into_iter().chain(only("TypeScript", ts, rust)).collect()
}

/// The declaration `files`, read from the crate's root, without their comments.
pub fn declarations(files: &[&str]) -> String {
    let read = |file: &&str| std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    without_comments(&files.iter().map(read).collect::<Vec<_>>().join("\n"))
}

/// `text` without its `/* … */` comments and its lines that start with `//`.
pub fn without_comments(text: &str) -> String {
    let mut kept = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        kept.push_str(&rest[..start]);
        rest = rest[start..].split_once("*/").map_or("", |(_, after)| after);
    }
    kept.push_str(rest);
    kept.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// What a type expression holds, as far as keys go.
#[derive(Debug, PartialEq)]
pub enum Shape {
    /// An object type: its members, (key, type); `name` is the interface's, or the expression.
    Object { name: String, members: Vec<(String, String)> },
    /// `T[]` or `Array<T>`: the type of the elements.
    List(String),
    /// `Record<K, T>`: the type of the values.
    Map(String),
    /// `A | B | …` of more than one type besides `null` / `undefined` / `void`.
    OneOf(Vec<String>),
    /// A type without declared keys: a primitive, a literal (or a union of them), an index signature, a
    /// function, another generic, an intersection.
    Opaque,
}

/// The shape of the type expression `ty` in `source` (`Promise<T>` is `T`); an error names a type that
/// `source` does not declare.
pub fn shape(source: &str, ty: &str) -> Result<Shape, String> {
    let ty = ty.trim();
    if let Some(inner) = ty.strip_prefix("Promise<").and_then(|rest| rest.strip_suffix('>')) {
        return shape(source, inner);
    }
    let alternatives: Vec<&str> =
        split_top(ty, &['|']).into_iter().map(str::trim).filter(|alt| !alt.is_empty()).collect();
    let kept: Vec<&str> =
        alternatives.iter().copied().filter(|alt| !["null", "undefined", "void"].contains(alt)).collect();
    match kept.as_slice() {
        [] => return Ok(Shape::Opaque),
        [one] if *one != ty => return shape(source, one),
        [_] => {}
        many => {
            let shapes = many.iter().map(|alt| shape(source, alt)).collect::<Result<Vec<_>, _>>()?;
            let opaque = shapes.iter().all(|one| *one == Shape::Opaque);
            return Ok(if opaque {
                Shape::Opaque
            } else {
                Shape::OneOf(many.iter().map(|alt| alt.to_string()).collect())
            });
        }
    }
    if let Some(element) = ty.strip_suffix("[]").or_else(|| ty.strip_prefix("Array<").and_then(|r| r.strip_suffix('>')))
    {
        return Ok(Shape::List(element.to_owned()));
    }
    if let Some(inner) = ty.strip_prefix("Record<").and_then(|rest| rest.strip_suffix('>')) {
        return Ok(Shape::Map(split_top(inner, &[',']).last().unwrap_or(&"").trim().to_owned()));
    }
    if let Some(inner) = ty.strip_prefix('(').and_then(|rest| rest.strip_suffix(')')) {
        return shape(source, inner);
    }
    if let Some(body) = ty.strip_prefix('{') {
        let open = split_top(body, &[';', ',']).iter().any(|piece| piece.trim_start().starts_with('['));
        return Ok(if open { Shape::Opaque } else { Shape::Object { name: ty.to_owned(), members: members(body) } });
    }
    let name =
        ty.starts_with(|c: char| c.is_ascii_alphabetic()) && ty.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !name {
        return Ok(Shape::Opaque);
    }
    if let Some(members) = interface_members(source, ty)? {
        return Ok(Shape::Object { name: ty.to_owned(), members });
    }
    if let Some(aliased) = alias(source, ty) {
        return shape(source, aliased);
    }
    match ty {
        "string" | "number" | "boolean" | "unknown" | "any" | "bigint" | "never" => Ok(Shape::Opaque),
        _ => Err(format!("the declarations have no type {ty}")),
    }
}

/// The keys the object type `ty` declares (`ty` may name an interface or an alias, or be `{ … }`).
pub fn declared_keys(source: &str, ty: &str) -> Keys {
    match shape(source, ty) {
        Ok(Shape::Object { members, .. }) => members.into_iter().map(|(key, _)| key).collect(),
        other => panic!("{ty} is not an object type: {other:?}"),
    }
}

/// The type the object type `ty` gives its member `key`.
pub fn member_type(source: &str, ty: &str, key: &str) -> String {
    let Ok(Shape::Object { members, .. }) = shape(source, ty) else { panic!("{ty} is not an object type") };
    members.into_iter().find(|(name, _)| name == key).unwrap_or_else(|| panic!("{ty} has no member {key}")).1
}

/// The members of `export interface name` in `source`, those of the interfaces it extends first; `None`
/// when there is no such interface.
fn interface_members(source: &str, name: &str) -> Result<Option<Vec<(String, String)>>, String> {
    let head = format!("export interface {name}");
    let Some(start) = source
        .match_indices(&head)
        .map(|(at, _)| at + head.len())
        .find(|after| source[*after..].starts_with([' ', '\n']))
    else {
        return Ok(None);
    };
    let (header, body) = source[start..].split_once('{').expect("an interface body");
    let mut all = Vec::new();
    if let Some((_, parents)) = header.split_once("extends") {
        for parent in split_top(parents, &[',']) {
            match shape(source, parent)? {
                Shape::Object { members, .. } => all.extend(members),
                _ => return Err(format!("{name} extends {parent}, which is not an interface")),
            }
        }
    }
    all.extend(members(body));
    Ok(Some(all))
}

/// The text of `export type name = …;`.
fn alias<'a>(source: &'a str, name: &str) -> Option<&'a str> {
    let head = format!("export type {name} =");
    let start = source.find(&head)? + head.len();
    split_top(&source[start..], &[';']).into_iter().next()
}

/// The members (key, type) of an object type's body (the text after its `{`), up to its closing `}`. Methods
/// and index signatures have no key and are left out.
fn members(body: &str) -> Vec<(String, String)> {
    let end = closing(body).unwrap_or(body.len());
    split_top(&body[..end], &[';', ',']).into_iter().filter_map(member).collect()
}

/// The key and type of a member (`apiKey?: string`): its leading name, when a `:` (or `?:`) follows it.
fn member(text: &str) -> Option<(String, String)> {
    let text = text.trim();
    let text = text.strip_prefix("readonly ").unwrap_or(text);
    let end = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    let rest = text[end..].trim_start();
    let ty = rest.strip_prefix("?:").or_else(|| rest.strip_prefix(':'))?;
    (end > 0).then(|| (text[..end].to_owned(), ty.trim().to_owned()))
}

/// Where the bracket closing the text's start is: the first `}` `)` `]` `>` outside any bracket it opens.
fn closing(text: &str) -> Option<usize> {
    let mut depth = 0;
    for (at, c) in text.char_indices() {
        match bracket(text, at, c) {
            1 => depth += 1,
            -1 if depth == 0 => return Some(at),
            -1 => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `text` cut at each of `separators` outside brackets (`{}`, `()`, `[]`, `<>`), up to a bracket it did not open.
fn split_top<'a>(text: &'a str, separators: &[char]) -> Vec<&'a str> {
    let text = &text[..closing(text).unwrap_or(text.len())];
    let (mut pieces, mut depth, mut from) = (Vec::new(), 0, 0);
    for (at, c) in text.char_indices() {
        match bracket(text, at, c) {
            1 => depth += 1,
            -1 => depth -= 1,
            _ if depth == 0 && separators.contains(&c) => {
                pieces.push(&text[from..at]);
                from = at + c.len_utf8();
            }
            _ => {}
        }
    }
    pieces.push(&text[from..]);
    pieces
}

/// 1 for an opening bracket at `at`, -1 for a closing one (the `>` of `=>` is none), else 0.
fn bracket(text: &str, at: usize, c: char) -> i32 {
    match c {
        '{' | '(' | '[' | '<' => 1,
        '>' if text[..at].ends_with('=') => 0,
        '}' | ')' | ']' | '>' => -1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "export interface A {\n  /** b: not a key; c: nor this */\n  a?: number;\n  run(x: string): void;\n}\n\
         export interface B\n  extends A {\n  b: { inner: string, more?: Record<string, number> };\n  c?: Item[] | null;\n}\n\
         export type Item = { id: string; f: (x: number) => void };\nexport type Either = A | Item;\n";

    #[test]
    fn interface_keys_include_the_extended_ones_and_skip_comments_and_methods() {
        let source = without_comments(SOURCE);
        assert_eq!(declared_keys(&source, "B").into_iter().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(declared_keys(&source, &member_type(&source, "B", "b")).len(), 2);
    }

    #[test]
    fn a_type_expression_resolves_through_aliases_lists_and_unions() {
        let source = without_comments(SOURCE);
        assert_eq!(shape(&source, "Promise<Item[] | null>"), Ok(Shape::List("Item".into())));
        assert_eq!(declared_keys(&source, "Item").into_iter().collect::<Vec<_>>(), ["f", "id"]);
        assert_eq!(shape(&source, "Either"), Ok(Shape::OneOf(vec!["A".into(), "Item".into()])));
        assert_eq!(shape(&source, "Record<string, Item>"), Ok(Shape::Map("Item".into())));
        assert_eq!(shape(&source, "Partial<Item>"), Ok(Shape::Opaque));
        assert_eq!(shape(&source, "\"x\" | \"y\" | 3"), Ok(Shape::Opaque));
        assert_eq!(shape(&source, "{ [key: string]: Item }"), Ok(Shape::Opaque));
        assert_eq!(shape(&source, "Missing"), Err("the declarations have no type Missing".into()));
    }
}
