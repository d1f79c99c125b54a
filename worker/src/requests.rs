//! What comes in: JSON bodies (unknown fields are errors that name them) and query strings, both snake_case.

use std::collections::HashMap;

use memwasm::core::options::{AddOptions, QueryOptions};
use memwasm::core::scope::Scope;
use memwasm::core::types::Metadata;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::error::ApiError;

/// `POST /v1/memories/`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddBody {
    pub messages: Value,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub metadata: Option<Metadata>,
    pub filters: Option<Value>,
    pub prompt: Option<String>,
    pub infer: Option<bool>,
}

impl AddBody {
    pub fn options(&self) -> AddOptions {
        AddOptions {
            user_id: self.user_id.clone(),
            agent_id: self.agent_id.clone(),
            run_id: self.run_id.clone(),
            metadata: self.metadata.clone(),
            filters: self.filters.clone(),
            prompt: self.prompt.clone(),
            infer: self.infer,
        }
    }
}

/// Search, list and delete-all parameters: a `POST /v1/memories/search/` body or a query string.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct QueryBody {
    /// The search text (`q` in query strings).
    #[serde(alias = "q")]
    pub query: Option<String>,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub limit: Option<f64>,
    pub filters: Option<Value>,
    pub threshold: Option<f64>,
}

impl QueryBody {
    pub fn options(&self) -> QueryOptions {
        QueryOptions {
            user_id: self.user_id.clone(),
            agent_id: self.agent_id.clone(),
            run_id: self.run_id.clone(),
            limit: self.limit,
            filters: self.filters.clone(),
            threshold: self.threshold,
        }
    }

    pub fn scope(&self) -> Scope {
        Scope { user_id: self.user_id.clone(), agent_id: self.agent_id.clone(), run_id: self.run_id.clone() }
    }

    /// Reads a query string: `limit` and `threshold` are numbers, `filters` is JSON; other names are ignored.
    pub fn from_query(pairs: HashMap<String, String>) -> Result<Self, ApiError> {
        let number = |name: &str| -> Result<Option<f64>, ApiError> {
            pairs
                .get(name)
                .map(|text| {
                    text.trim().parse::<f64>().map_err(|_| {
                        ApiError::new(400, "INVALID_INPUT", format!("{name} must be a number, got {text:?}"))
                    })
                })
                .transpose()
        };
        let filters = match pairs.get("filters") {
            None => None,
            Some(text) => Some(
                serde_json::from_str(text).map_err(|e| ApiError::invalid_json(format!("filters parameter: {e}")))?,
            ),
        };
        Ok(Self {
            query: pairs.get("q").or_else(|| pairs.get("query")).cloned(),
            user_id: pairs.get("user_id").cloned(),
            agent_id: pairs.get("agent_id").cloned(),
            run_id: pairs.get("run_id").cloned(),
            limit: number("limit")?,
            filters,
            threshold: number("threshold")?,
        })
    }
}

/// `PUT /v1/memories/:id/`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateBody {
    pub text: String,
}

/// Reads a JSON body as `T`: malformed JSON is `INVALID_JSON`, a wrong shape `INVALID_INPUT` naming the field.
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let value: Value = serde_json::from_slice(body).map_err(ApiError::invalid_json)?;
    if !value.is_object() {
        return Err(ApiError::new(400, "INVALID_INPUT", "the body must be a JSON object"));
    }
    serde_json::from_value(value).map_err(|e| ApiError::new(400, "INVALID_INPUT", format!("body: {e}")))
}
