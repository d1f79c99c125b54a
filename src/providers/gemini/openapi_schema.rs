//! JSON Schemas in the OpenAPI subset Gemini's `responseSchema` reads.

use crate::core::case::CaseExt;
use serde_json::Value;

/// `schema` in the OpenAPI subset Gemini's `responseSchema` reads: type names in upper case.
pub fn openapi_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| match (key.as_str(), value) {
                    ("type", Value::String(name)) => (key.clone(), Value::String(name.uppercased())),
                    ("properties", Value::Object(properties)) => (
                        key.clone(),
                        Value::Object(properties.iter().map(|(k, v)| (k.clone(), openapi_schema(v))).collect()),
                    ),
                    (_, value) => (key.clone(), openapi_schema(value)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(openapi_schema).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::core::reply_schema::decisions;

    #[test]
    fn openapi_schema_upper_cases_types_only() {
        let schema = openapi_schema(&decisions().schema);
        assert_eq!(schema["type"], "OBJECT");
        let operation = &schema["properties"]["memory"]["items"];
        assert_eq!(
            operation["properties"]["event"],
            json!({"type": "STRING", "enum": ["ADD", "UPDATE", "DELETE", "NONE"]})
        );
        assert_eq!(
            operation["properties"]["text"]["type"], "STRING",
            "a property named like a keyword stays a property"
        );
    }
}
