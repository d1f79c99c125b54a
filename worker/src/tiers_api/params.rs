//! What the tier routes take: a JSON body or a query string, read into the library's strict `TierOptions`
//! (snake_case names only; a key the route does not use is refused by name), plus the `messages` of `flush`
//! and `context` (a string or `[{role, content}]`, as for add).

use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::Message;
use memwasm::core::pipeline_options::parse_messages;
use memwasm::core::tiers::{TierCall, TierOptions};
use memwasm::MemoryError;
use serde_json::Value;

use crate::error::ApiError;
use crate::query::{Kinds, Query};
use crate::requests::{object, shaped};

/// The library's names of the numeric options, and the wire's.
const NAMES: [(&str, &str); 3] =
    [("maxTokens", "max_tokens"), ("keepLast", "keep_last"), ("lookbackDays", "lookback_days")];

/// A library error, its message naming the options as the wire does (`max_tokens`, not `maxTokens`).
pub fn wire_error(error: MemoryError) -> ApiError {
    let mut api = ApiError::from(error);
    for (camel, snake) in NAMES {
        api.message = api.message.replace(camel, snake);
    }
    api
}

/// The options of one tier call, checked for it, and their scope.
pub struct Tier {
    pub scope: Scope,
    pub options: TierOptions,
}

impl Tier {
    fn checked(options: TierOptions, call: TierCall) -> Result<Self, ApiError> {
        Ok(Self { scope: options.scope_for(call).map_err(wire_error)?, options })
    }

    /// `max_tokens`, required.
    pub fn max_tokens(&self) -> Result<usize, ApiError> {
        self.options.max_tokens().map_err(wire_error)
    }
}

/// A JSON body of options for `call`.
pub fn options_body(body: &[u8], call: TierCall) -> Result<Tier, ApiError> {
    Tier::checked(shaped("body", Value::Object(object(body)?))?, call)
}

/// A JSON body of `messages` and options for `call`.
pub fn messages_body(body: &[u8], call: TierCall) -> Result<(Vec<Message>, Tier), ApiError> {
    let mut fields = object(body)?;
    let raw = fields.remove("messages").ok_or_else(|| ApiError::invalid("body: missing field `messages`"))?;
    let tier = Tier::checked(shaped("body", Value::Object(fields))?, call)?;
    Ok((parse_messages(&raw)?, tier))
}

/// A query string of options for `call`: the numeric ones as numbers, the rest as strings.
pub fn query(query: &Query, call: TierCall) -> Result<Tier, ApiError> {
    let kinds = Kinds { numbers: &NAMES.map(|(_, snake)| snake), ..Kinds::default() };
    Tier::checked(shaped("query", Value::Object(query.fields(&kinds)?))?, call)
}
