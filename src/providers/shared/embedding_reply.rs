//! Checks every embedder's reply the same way: one non-empty vector of numbers per input text, each
//! as long as the configured `dimensions`.

use serde_json::Value;

use crate::core::error::{MemoryError, Result};

/// A JSON array of numbers as a vector, or `None` when it is empty or holds anything else.
pub fn json_vector(value: &Value) -> Option<Vec<f32>> {
    let numbers = value.as_array()?;
    let vector: Option<Vec<f32>> = numbers.iter().map(|n| n.as_f64().map(|x| x as f32)).collect();
    vector.filter(|v| !v.is_empty())
}

/// `vectors` when there is one per input and each has `dimensions` entries (when configured).
pub fn checked_vectors(vectors: Vec<Vec<f32>>, inputs: usize, dimensions: Option<usize>) -> Result<Vec<Vec<f32>>> {
    if vectors.len() != inputs {
        return Err(MemoryError::EmbeddingResponse(format!("{} vectors for {inputs} inputs", vectors.len())));
    }
    if let Some(empty) = vectors.iter().position(Vec::is_empty) {
        return Err(MemoryError::EmbeddingResponse(format!("vector {empty} is empty")));
    }
    if let Some(expected) = dimensions {
        if let Some(wrong) = vectors.iter().find(|v| v.len() != expected) {
            return Err(MemoryError::DimensionMismatch { expected, actual: wrong.len() });
        }
    }
    Ok(vectors)
}

/// Reads `list` (a JSON array of number arrays) as vectors; `what` names the field in errors.
pub fn json_vectors(list: Option<&Value>, what: &str) -> Result<Vec<Vec<f32>>> {
    let bad = |why: String| MemoryError::EmbeddingResponse(why);
    let list = list.and_then(Value::as_array).ok_or_else(|| bad(format!("no {what} array in response")))?;
    list.iter()
        .enumerate()
        .map(|(i, v)| json_vector(v).ok_or_else(|| bad(format!("{what}[{i}] is not a non-empty array of numbers"))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_number_arrays_and_rejects_everything_else() {
        assert_eq!(json_vector(&json!([1, 0.5])), Some(vec![1.0, 0.5]));
        for bad in [json!([]), json!(["1"]), json!({"0": 1}), json!(null)] {
            assert_eq!(json_vector(&bad), None, "{bad}");
        }
        assert_eq!(json_vectors(Some(&json!([[1], [2]])), "x").unwrap(), vec![vec![1.0], vec![2.0]]);
        let error = json_vectors(Some(&json!([[1], "two"])), "embeddings").unwrap_err();
        assert!(error.to_string().contains("embeddings[1]"), "{error}");
        assert_eq!(json_vectors(None, "data").unwrap_err().code(), "EMBEDDING_RESPONSE");
    }

    #[test]
    fn checks_count_and_dimensions() {
        assert!(checked_vectors(vec![vec![1.0, 2.0]], 1, Some(2)).is_ok());
        assert_eq!(checked_vectors(vec![vec![1.0]], 2, None).unwrap_err().code(), "EMBEDDING_RESPONSE");
        assert_eq!(checked_vectors(vec![vec![]], 1, None).unwrap_err().code(), "EMBEDDING_RESPONSE");
        let error = checked_vectors(vec![vec![1.0, 2.0], vec![1.0]], 2, Some(2)).unwrap_err();
        assert_eq!(error, MemoryError::DimensionMismatch { expected: 2, actual: 1 });
    }
}
