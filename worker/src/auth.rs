//! Bearer tokens → tenants. `MEMORY_TOKENS` (a secret) is a JSON object mapping each token to its tenant;
//! every key a tenant's requests touch lives under `t/<tenant>/`, so tenants never see each other's data.

use std::collections::HashMap;

use memwasm::core::kv::keys::encode;
use worker::{Env, Request};

use crate::error::ApiError;
use crate::settings::text;

/// Equal strings, compared without stopping at the first difference.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// The tenant whose token authorises `request`.
pub fn tenant(request: &Request, env: &Env) -> Result<String, ApiError> {
    let config_error = |why: &str| ApiError::new(500, "INVALID_CONFIG", format!("MEMORY_TOKENS: {why}"));
    let tokens = text(env, "MEMORY_TOKENS").ok_or_else(|| config_error("not set (a JSON object: token -> tenant)"))?;
    let tokens: HashMap<String, String> =
        serde_json::from_str(&tokens).map_err(|_| config_error("must be a JSON object of token -> tenant strings"))?;
    let header = request.headers().get("authorization").ok().flatten().unwrap_or_default();
    let (scheme, presented) = header.trim().split_once(' ').unwrap_or_default();
    if !scheme.eq_ignore_ascii_case("bearer") || presented.trim().is_empty() {
        return Err(ApiError::unauthorized());
    }
    let mut found = None;
    for (token, tenant) in &tokens {
        if same(token, presented.trim()) && !tenant.is_empty() {
            found = Some(tenant.clone());
        }
    }
    found.ok_or_else(ApiError::unauthorized)
}

/// The KV key prefix of a tenant.
pub fn tenant_prefix(tenant: &str) -> String {
    format!("t/{}/", encode(tenant))
}
