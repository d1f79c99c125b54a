//! The memory tiers over REST, under `/v1/tiers/`: tenant-wide tokens only, snake_case JSON, scope ids
//! (`user_id`, `agent_id`, `run_id`) in the body or the query string. A key a route does not use is
//! refused by name (`INVALID_INPUT`); no scope is `SCOPE_REQUIRED`; model failures are 429 / 502.
//!
//! | route | body / query | answer |
//! |---|---|---|
//! | `POST /v1/tiers/flush` | `{messages, scope}` | 202 `{queued, date}` once journaled and queued; the add runs after the answer |
//! | `POST /v1/tiers/context` | `{messages, max_tokens, keep_last?, scope}` | `{messages, summary, summarized, total_tokens}` |
//! | `GET /v1/tiers/journal` | `?scope&date=YYYY-MM-DD` (default today, UTC) | `{date, markdown}`; 404 when none |
//! | `GET /v1/tiers/journals` | `?scope&since=YYYY-MM-DD` | `{results: [{date, turns, markdown, hash, consolidated}]}` |
//! | `POST /v1/tiers/dream` | `{scope, lookback_days?}` | `{dreamed, journals, profile, results, warnings, reason}` |
//! | `GET /v1/tiers/profile` | `?scope` | `{markdown, updated_at}`; 404 before the first dream |
//! | `GET /v1/tiers/diary` | `?scope` | `{results: [{at, journals, reason, profile_changed, events}]}` |
//! | `GET /v1/tiers/inject` | `?scope&max_tokens=…` | `{text, total_tokens, profile, memories: [item]}` |

mod flush;
mod params;
pub mod route;
pub mod wire;

use memwasm::core::tiers::{day_of, ContextWindow, TierCall};
use serde::Serialize;
use worker::Response;

use self::params::{messages_body, options_body, query, wire_error};
use self::route::TiersRoute;
use self::wire::{Day, Diary, Dream, Injected, Journal, Profile};
use crate::error::ApiError;
use crate::visit::Visit;
use crate::wire::Results;

fn json<T: Serialize>(value: &T) -> Result<Response, ApiError> {
    Ok(Response::from_json(value)?)
}

/// Answers `route`, a request under `/v1/tiers/` (admitted and read by the desk; `None`: no route of the
/// family); the config's background settings configure the flush's writer.
pub async fn handle(visit: &Visit<'_>, route: Option<TiersRoute>) -> Result<Response, ApiError> {
    let (engine, _, background) = visit.engine_with_background()?;
    let (pairs, body) = (&visit.query, visit.body.as_slice());
    let Some(route) = route else {
        let segments: Vec<&str> = visit.path.split('/').filter(|s| !s.is_empty()).skip(2).collect();
        return Err(ApiError::not_found(format!("route {} /v1/tiers/{}", visit.method, segments.join("/"))));
    };
    match route {
        TiersRoute::Flush => flush::flush(engine, background, visit.later, body).await,
        TiersRoute::Context => {
            let (messages, tier) = messages_body(body, TierCall::Context)?;
            let keep_last = tier.options.keep_last().map_err(wire_error)?;
            let window = ContextWindow { max_tokens: tier.max_tokens()?, keep_last, scope: tier.scope };
            json(&wire::Context::from(engine.tiers().context_push(&window, messages).await?))
        }
        TiersRoute::Journal => {
            let tier = query(pairs, TierCall::Journal)?;
            let date = tier.options.date().map_err(wire_error)?.unwrap_or_else(|| day_of(engine.now_ms()));
            match engine.tiers().journal(&tier.scope, Some(&date)).await? {
                Some(markdown) => json(&Journal { date, markdown }),
                None => Err(ApiError::not_found(format!("a journal of {date} for this scope"))),
            }
        }
        TiersRoute::Journals => {
            let tier = query(pairs, TierCall::Journals)?;
            let since = tier.options.since().map_err(wire_error)?;
            let days = engine.tiers().journals(&tier.scope, since.as_deref()).await?;
            json(&Results { results: days.into_iter().map(Day::from).collect() })
        }
        TiersRoute::Dream => {
            let tier = options_body(body, TierCall::Dream)?;
            let lookback_days = tier.options.lookback_days().map_err(wire_error)?;
            json(&Dream::from(engine.tiers().dream(&tier.scope, lookback_days).await?))
        }
        TiersRoute::Profile => match engine.tiers().core_profile(&query(pairs, TierCall::CoreProfile)?.scope).await? {
            Some(profile) => json(&Profile::from(profile)),
            None => Err(ApiError::not_found("a core profile for this scope")),
        },
        TiersRoute::Diary => {
            let entries = engine.tiers().dream_diary(&query(pairs, TierCall::CoreProfile)?.scope).await?;
            json(&Results { results: entries.into_iter().map(Diary::from).collect() })
        }
        TiersRoute::Inject => {
            let tier = query(pairs, TierCall::Inject)?;
            json(&Injected::from(engine.tiers().format_for_injection(&tier.scope, tier.max_tokens()?).await?))
        }
    }
}
