//! The admin-only routes over the caller's whole tenant: stats, decay, share.

use std::collections::BTreeSet;

use memwasm::core::fusion::Method;
use memwasm::core::lifecycle::decay::DecayOptions;
use memwasm::core::lifecycle::glob::Glob;
use memwasm::core::model::scope::Scope;
use memwasm::core::read::Read;
use memwasm::platform::compose::Engine;
use serde::Serialize;
use serde_json::{json, Value};

use super::bodies::{optional, DecayBody, ShareBody};
use super::namespace::CANDIDATES;
use super::route::agent_id;
use super::wire::Done;
use crate::error::ApiError;
use crate::requests::parse;
use crate::sweep::sweep;

/// `GET /api/v1/memory/stats`: the design's `total_entries` and `total_agents` count the agent key/value
/// entries; `pg_enabled` / `pgvector_enabled` are false (memory lives in Durable Objects or KV, with the
/// library's own vector index); the rest describe the whole tenant.
#[derive(Serialize)]
pub struct StatsBody {
    /// Live key/value entries of the tenant.
    total_entries: usize,
    /// Distinct agent ids holding entries.
    total_agents: usize,
    /// Distinct user ids owning entries.
    total_users: usize,
    /// No Postgres here.
    pg_enabled: bool,
    /// No pgvector here: vector search is the library's in-memory index.
    pgvector_enabled: bool,
    /// Every live memory of the tenant: entries, `/v1/memories/` facts and conversation memories.
    all_memories: usize,
    pinned: usize,
    /// Expired, not purged yet.
    expired: usize,
    /// Live memories per memory type.
    by_type: Value,
    /// An embedder is configured (`vector-search` by text works).
    vector_search_enabled: bool,
}

/// Counts over the caller's tenant.
pub async fn stats(engine: &Engine) -> Result<StatsBody, ApiError> {
    let stats = engine.lifecycle().stats(&Scope::default()).await?;
    let holding = || stats.by_scope.iter().filter(|s| s.keyed > 0);
    let agents: BTreeSet<&str> = holding().filter_map(|s| s.scope.agent_id.as_deref()).collect();
    let users: BTreeSet<&str> = holding().filter_map(|s| s.scope.user_id.as_deref()).collect();
    Ok(StatsBody {
        total_entries: stats.keyed,
        total_agents: agents.len(),
        total_users: users.len(),
        pg_enabled: false,
        pgvector_enabled: false,
        all_memories: stats.total_entries,
        pinned: stats.pinned,
        expired: stats.expired,
        by_type: json!(stats.by_type),
        vector_search_enabled: engine.effective_method(None) != Method::Keyword,
    })
}

/// `{status, forgotten, decayed, purged}`.
#[derive(Serialize)]
pub struct DecayDone {
    status: &'static str,
    forgotten: usize,
    decayed: usize,
    purged: usize,
}

/// `POST /api/v1/memory/decay` (`{half_life_days?, forget_below?}`, defaults from the vars): purges the
/// tenant's expired memories and decays its key/value entries.
pub async fn decay(engine: &Engine, body: &[u8], defaults: DecayOptions) -> Result<DecayDone, ApiError> {
    let given: DecayBody = optional(body)?;
    let options = DecayOptions {
        half_life_days: given.half_life_days.or(defaults.half_life_days),
        forget_below: given.forget_below.or(defaults.forget_below),
        memory_types: None,
    };
    let swept = sweep(engine, options).await?;
    Ok(DecayDone { status: "ok", forgotten: swept.forgotten, decayed: swept.decayed, purged: swept.purged })
}

/// `POST /api/v1/memory/share` (`{from, to, pattern}`): copies the entries of agent `from` whose key
/// matches the glob to agent `to`, each keeping its owner (an entry there with the same key and owner is
/// replaced).
pub async fn share(engine: &Engine, body: &[u8]) -> Result<Done, ApiError> {
    let body: ShareBody = parse(body)?;
    let (from, to) = (agent_id("from", &body.from)?, agent_id("to", &body.to)?);
    if from == to {
        return Err(ApiError::invalid("from and to must name different agents"));
    }
    Glob::parse(&body.pattern)?;
    let source = Scope { agent_id: Some(from.clone()), ..Scope::default() };
    let page = engine.get_all(&Read::of(source, CANDIDATES)).await?;
    let owners: BTreeSet<Option<String>> = page
        .results
        .into_iter()
        .filter(|item| item.lifecycle.key.is_some() && item.scope.run_id.is_none())
        .map(|item| item.scope.user_id)
        .collect();
    let mut copied = 0;
    for owner in owners {
        let scope = |agent: &str| Scope { user_id: owner.clone(), agent_id: Some(agent.to_owned()), run_id: None };
        copied += engine.lifecycle().share(&scope(&from), &scope(&to), &body.pattern).await?;
    }
    Ok(Done { copied: Some(copied), ..Done::ok() })
}
