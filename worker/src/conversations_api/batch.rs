//! `POST /api/v1/memories/batch[?validate_only=true][&scene=group_chat][&flush=true]`: a GroupChatFormat
//! file (see `batch_format`), as a `run_memorize.py` batch import feeds one. The whole file is checked first;
//! a file with any problem is refused (400, every problem in `errors`) and nothing is written. With
//! `validate_only` (also `validateOnly`) a valid file is reported and nothing is written. Otherwise the
//! metadata is saved for the group and the messages are stored one by one in file order, exactly as
//! `POST /api/v1/memories` would; `flush=true` then closes the group's buffer.

use memwasm::core::conversations::{MessageOutcome, Scene, Status};
use memwasm::core::model::types::AddWarning;
use memwasm::platform::compose::Engine;
use serde::Serialize;
use serde_json::json;
use worker::Response;

use super::batch_check::validate;
use super::envelope::{ok, Failure};
use super::items::{pending, PendingOut};
use super::store::{episodes, saved, EpisodeOut, SavedMemory};
use crate::query::Query;

/// `result` of a batch that ran.
#[derive(Serialize)]
struct Ran {
    group_id: String,
    /// Messages in the file.
    message_count: usize,
    /// Messages stored (the rest were duplicates of messages the group had already received).
    stored: usize,
    duplicates: usize,
    saved_memories: Vec<SavedMemory>,
    count: usize,
    status_info: Status,
    episodes: Vec<EpisodeOut>,
    pending_messages: Vec<PendingOut>,
    warnings: Vec<AddWarning>,
}

/// A `true` / `false` query parameter (absent: false).
fn flag(query: &Query, names: &[&str]) -> Result<bool, Failure> {
    match names.iter().find_map(|name| query.get(name)).map(str::trim) {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(Failure::invalid(format!("{} must be true or false, got {other:?}", names[0]))),
    }
}

/// The query parameters: `(validate_only, scene, flush)`.
fn options(query: &Query) -> Result<(bool, Option<Scene>, bool), Failure> {
    const ALLOWED: &[&str] = &["validate_only", "validateOnly", "scene", "flush"];
    if let Some(name) = query.names().find(|name| !ALLOWED.contains(name)) {
        return Err(Failure::invalid(format!("unknown parameter `{name}` (takes validate_only, scene, flush)")));
    }
    let scene = match query.get("scene") {
        None => None,
        Some(text) => Some(
            serde_json::from_value(json!(text))
                .map_err(|_| Failure::invalid(format!("scene must be group_chat or assistant, got {text:?}")))?,
        ),
    };
    Ok((flag(query, &["validate_only", "validateOnly"])?, scene, flag(query, &["flush"])?))
}

/// Adds `outcome` to the running totals.
fn absorb(ran: &mut Ran, outcome: MessageOutcome) {
    ran.count += outcome.count;
    if outcome.status == Status::Extracted {
        ran.status_info = Status::Extracted;
    }
    ran.saved_memories.extend(saved(outcome.memories));
    ran.episodes.extend(episodes(outcome.episodes));
    ran.pending_messages = pending(outcome.pending_messages);
    ran.warnings.extend(outcome.warnings);
}

/// `POST /api/v1/memories/batch`.
pub async fn batch(engine: &Engine, query: &Query, body: &[u8]) -> Result<Response, Failure> {
    let (validate_only, scene, flush) = options(query)?;
    let plan = validate(body, scene).map_err(|problems| {
        let message = format!("the GroupChatFormat file has {} problem(s); nothing was written", problems.len());
        Failure { errors: Some(json!(problems)), ..Failure::invalid(message) }
    })?;
    let message_count = plan.messages.len();
    if validate_only {
        let message = format!("Validation passed: {message_count} messages; nothing was written");
        let result = json!({"valid": true, "group_id": plan.group_id, "message_count": message_count, "errors": []});
        return ok(&message, result);
    }
    engine.conversations().save_conversation_meta(plan.meta).await?;
    let mut ran = Ran {
        group_id: plan.group_id.clone(),
        message_count,
        stored: 0,
        duplicates: 0,
        saved_memories: Vec::new(),
        count: 0,
        status_info: Status::Accumulated,
        episodes: Vec::new(),
        pending_messages: Vec::new(),
        warnings: Vec::new(),
    };
    for (index, input) in plan.messages.into_iter().enumerate() {
        let outcome = engine.conversations().add_message(input).await.map_err(|error| {
            let failure = Failure::from(error);
            let message =
                format!("conversation_list[{index}]: {} (the messages before it were stored)", failure.message);
            Failure { message, ..failure }
        })?;
        match outcome.duplicate {
            true => ran.duplicates += 1,
            false => ran.stored += 1,
        }
        absorb(&mut ran, outcome);
    }
    if flush {
        absorb(&mut ran, engine.conversations().flush_group(&plan.group_id).await?);
    }
    let message =
        format!("Stored {} messages ({} duplicates), extracted {} memories", ran.stored, ran.duplicates, ran.count);
    ok(&message, ran)
}
