//! JS values as JSON (`serde_json::Value`), read without recursion. Whatever an app passes in (options,
//! metadata, messages, a model binding's reply) is walked with a stack of its own, so a value nested
//! 10,000 levels deep, or one that contains itself, is a refusal naming where it went wrong instead of a
//! stack overflow, which in wasm would throw outside the promise and leave the module's memory unusable.
//! Every JS call it makes is one that reports a throw (a `Proxy` trap, a getter) as an error.

use js_sys::Array;
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;

use crate::core::limits::{MAX_VALUE_DEPTH, MAX_VALUE_NODES};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn entries_of(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = from)]
    fn array_from(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = ArrayBuffer, js_name = isView)]
    fn is_view(value: &JsValue) -> bool;
}

/// Where a refusal happened (`options.metadata.a[3]`) and why.
pub type Refusal = (String, String);

/// One array or object being read: its key in its parent, what is read of it so far and what is left.
struct Open {
    key: Key,
    built: Built,
    left: std::vec::IntoIter<(Key, JsValue)>,
}

enum Built {
    Array(Vec<Value>),
    Object(Map<String, Value>),
}

#[derive(Clone)]
enum Key {
    Root,
    Index(usize),
    Name(String),
}

/// What one JS value is: JSON already, or a container whose entries are still to read.
enum Shape {
    Leaf(Value),
    Array(Vec<(Key, JsValue)>),
    Object(Vec<(Key, JsValue)>),
}

/// `value` as JSON; `name` starts the path of a refusal. `undefined` reads as `null`, as `NaN` and
/// `Infinity` do not: they, BigInts, functions, symbols and iterables other than arrays and `Map`s are
/// refused, and so is nesting deeper than `MAX_VALUE_DEPTH` (a value that contains itself is one).
pub fn json_of(value: &JsValue, name: &str) -> Result<Value, Refusal> {
    let mut stack: Vec<Open> = Vec::new();
    let mut next = Some((Key::Root, value.clone()));
    let mut read = 0usize;
    loop {
        if let Some((key, value)) = next.take() {
            read += 1;
            if read > MAX_VALUE_NODES {
                return Err((name.to_owned(), format!("holds more than {MAX_VALUE_NODES} values")));
            }
            let shape = shape(&value).map_err(|why| (path_of(name, &stack, &key), why))?;
            let (built, entries) = match shape {
                Shape::Leaf(json) => match deliver(&mut stack, key, json) {
                    Some(done) => return Ok(done),
                    None => continue,
                },
                Shape::Array(items) => (Built::Array(Vec::with_capacity(items.len())), items),
                Shape::Object(entries) => (Built::Object(Map::new()), entries),
            };
            if stack.len() >= MAX_VALUE_DEPTH {
                let why = format!("is nested deeper than {MAX_VALUE_DEPTH} levels (or contains itself)");
                return Err((path_of(name, &stack, &key), why));
            }
            stack.push(Open { key, built, left: entries.into_iter() });
        }
        let Some(top) = stack.last_mut() else { return Ok(Value::Null) };
        match top.left.next() {
            Some(entry) => next = Some(entry),
            None => {
                let Some(open) = stack.pop() else { return Ok(Value::Null) };
                let json = match open.built {
                    Built::Array(items) => Value::Array(items),
                    Built::Object(map) => Value::Object(map),
                };
                if let Some(done) = deliver(&mut stack, open.key, json) {
                    return Ok(done);
                }
            }
        }
    }
}

/// Puts `json` into the container on top of the stack, or returns it when it is the whole value.
fn deliver(stack: &mut [Open], key: Key, json: Value) -> Option<Value> {
    let Some(top) = stack.last_mut() else { return Some(json) };
    match (&mut top.built, key) {
        (Built::Array(items), _) => items.push(json),
        (Built::Object(map), Key::Name(name)) => {
            map.insert(name, json);
        }
        (Built::Object(_), _) => {}
    }
    None
}

/// `options.metadata.tags[2]` for the value at `key` below the open containers.
fn path_of(name: &str, stack: &[Open], key: &Key) -> String {
    let mut path = name.to_owned();
    for key in stack.iter().map(|open| &open.key).chain([key]) {
        match key {
            Key::Root => {}
            Key::Index(index) => path.push_str(&format!("[{index}]")),
            Key::Name(name) => {
                path.push('.');
                path.push_str(name);
            }
        }
    }
    path
}

/// Reads one JS value: a JSON scalar, or the entries of an array, plain object or `Map`.
fn shape(value: &JsValue) -> Result<Shape, String> {
    if value.is_null() || value.is_undefined() {
        return Ok(Shape::Leaf(Value::Null));
    }
    if let Some(flag) = value.as_bool() {
        return Ok(Shape::Leaf(Value::Bool(flag)));
    }
    if let Some(number) = value.as_f64() {
        return number_of(number).map(Shape::Leaf);
    }
    if let Some(text) = value.as_string() {
        return Ok(Shape::Leaf(Value::String(text)));
    }
    if value.is_bigint() {
        return Err("is a BigInt; pass a number or a string".into());
    }
    if value.is_function() || value.is_symbol() || !value.is_object() {
        return Err("must be plain JSON data (no functions, symbols or BigInts)".into());
    }
    let thrown = |error: JsValue| format!("could not be read: {}", describe(&error));
    if Array::is_array(value) {
        let items = array_from(value).map_err(thrown)?;
        return Ok(Shape::Array(items.iter().enumerate().map(|(at, item)| (Key::Index(at), item)).collect()));
    }
    let map = value.is_instance_of::<js_sys::Map>();
    if !map && (is_view(value) || js_sys::Reflect::has(value, &js_sys::Symbol::iterator()).unwrap_or(false)) {
        return Err("must be plain JSON data (an array or a plain object, not a typed array, Set or iterable)".into());
    }
    let pairs = if map { array_from(value) } else { entries_of(value) }.map_err(thrown)?;
    let mut entries = Vec::with_capacity(pairs.length() as usize);
    for pair in pairs.iter() {
        let pair: Array = pair.unchecked_into();
        let key = pair.get(0).as_string().ok_or("is a Map with a key that is not a string")?;
        entries.push((Key::Name(key), pair.get(1)));
    }
    Ok(Shape::Object(entries))
}

/// A JS number as JSON: whole numbers JS represents exactly stay integers; `NaN` and `±Infinity` are refused.
fn number_of(number: f64) -> Result<Value, String> {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    if !number.is_finite() {
        return Err("must be a finite number (NaN and Infinity are not)".into());
    }
    if number.fract() == 0.0 && number.abs() <= SAFE {
        return Ok(Value::Number(Number::from(number as i64)));
    }
    Number::from_f64(number).map(Value::Number).ok_or_else(|| "must be a finite number".into())
}

/// A short text for whatever a getter or `Proxy` trap threw.
fn describe(error: &JsValue) -> String {
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => error.as_string().unwrap_or_else(|| "a thrown value".into()),
    }
}
