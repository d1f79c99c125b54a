//! Reading the two agentic replies robustly (fences, `<think>`, prose around the JSON, camelCase keys): the
//! judgement and the refined queries.

use crate::core::case::CaseExt;
use serde_json::Value;

use crate::core::error::MemoryError;
use crate::core::llm_json::extract_json;

/// The most refined queries a second round runs.
pub const MAX_REFINED: usize = 3;

fn unusable(why: impl Into<String>) -> MemoryError {
    MemoryError::LlmResponse(why.into())
}

/// What the judgement said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    pub sufficient: bool,
    pub missing: Vec<String>,
}

fn strings(value: Option<&Value>) -> Vec<String> {
    let items = value.and_then(Value::as_array).into_iter().flatten();
    items.filter_map(Value::as_str).map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect()
}

/// The judgement: a boolean `sufficient` (or `"true"` / `"false"`) is required.
pub fn parse_judgement(reply: &str) -> Result<Judgement, MemoryError> {
    let Some(Value::Object(object)) = extract_json(reply) else {
        return Err(unusable("no JSON object found in the judgement"));
    };
    let flag = ["sufficient", "is_sufficient", "isSufficient"].iter().find_map(|key| object.get(*key));
    let sufficient = match flag {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(text)) if text.trim().eq_ignore_ascii_case("true") => true,
        Some(Value::String(text)) if text.trim().eq_ignore_ascii_case("false") => false,
        _ => return Err(unusable("the judgement has no boolean \"sufficient\"")),
    };
    let missing = ["missing_information", "missingInformation", "missing"].iter().find_map(|key| object.get(*key));
    Ok(Judgement { sufficient, missing: strings(missing) })
}

/// The refined queries: `{"queries": [..]}` or a bare array; blank ones, repeats and the original query
/// (case aside) are dropped, and at most 3 are kept.
pub fn parse_queries(reply: &str, original: &str) -> Result<Vec<String>, MemoryError> {
    let list = match extract_json(reply) {
        Some(Value::Object(object)) => {
            object.get("queries").cloned().ok_or_else(|| unusable("the reply has no \"queries\" array"))?
        }
        Some(array @ Value::Array(_)) => array,
        _ => return Err(unusable("no JSON found in the refined queries")),
    };
    if !list.is_array() {
        return Err(unusable("\"queries\" is not an array"));
    }
    let mut queries: Vec<String> = Vec::new();
    let key = |text: &str| text.trim().lowercased();
    for query in strings(Some(&list)) {
        if key(&query) != key(original) && !queries.iter().any(|q| key(q) == key(&query)) {
            queries.push(query);
        }
    }
    queries.truncate(MAX_REFINED);
    Ok(queries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judgements_are_read_robustly() {
        let fenced = "<think>hm</think>```json\n{\"sufficient\": false, \"reasoning\": \"x\", \"missing_information\": [\"the date\", \" \"]}\n```";
        assert_eq!(parse_judgement(fenced).unwrap(), Judgement { sufficient: false, missing: vec!["the date".into()] });
        assert!(parse_judgement(r#"Sure: {"isSufficient": "TRUE"}"#).unwrap().sufficient);
        for bad in [r#"{"reasoning": "x"}"#, "yes", r#"{"sufficient": 1}"#] {
            assert_eq!(parse_judgement(bad).unwrap_err().code(), "LLM_RESPONSE", "{bad}");
        }
    }

    #[test]
    fn refined_queries_drop_repeats_and_keep_three() {
        let reply = r#"{"queries": ["Launch date", "launch date", "coffee", " ", "Who reviews?", "budget", "extra"]}"#;
        assert_eq!(parse_queries(reply, "COFFEE").unwrap(), ["Launch date", "Who reviews?", "budget"]);
        assert_eq!(parse_queries(r#"["a", "b"]"#, "q").unwrap(), ["a", "b"]);
        assert!(parse_queries(r#"{"queries": []}"#, "q").unwrap().is_empty());
        for bad in [r#"{"query": "a"}"#, r#"{"queries": "a"}"#, "none"] {
            assert_eq!(parse_queries(bad, "q").unwrap_err().code(), "LLM_RESPONSE", "{bad}");
        }
    }
}
