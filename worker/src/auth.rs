//! Bearer tokens → callers. `MEMORY_TOKENS` (a secret) is a JSON object mapping each token to either a
//! tenant name (`"acme"`: a tenant-wide admin token with no user, the format before users existed) or
//! `{"tenant": "acme", "user": "u-1", "admin": false}` (`user` optional, `admin` default false). A grant with
//! neither a user nor `admin` (`{"tenant": "acme"}`, or a blank user) is the least privileged caller, a
//! reader: it reads the system's entries and owns nothing, so it changes nothing. Every key
//! a tenant's requests touch lives under `t/<tenant>/`, so tenants never see each other's data. A token
//! comes as `Authorization: Bearer <token>`, or as mem0's `Authorization: Token <token>` (the same tokens).
//! A key may be `sha256:<hex digest of the token>` instead of the token, so the secret holds no token; every
//! comparison is between SHA-256 digests, in constant time.

use std::collections::{BTreeSet, HashMap};

use memwasm::core::kv::keys::encode;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use worker::{Env, Request};

use crate::error::ApiError;
use crate::settings::text;

/// Who a request comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub tenant: String,
    /// The user its memory entries are tagged with; `None` for an admin writes system entries, and makes
    /// any other caller a reader.
    pub user: Option<String>,
    /// Sees and changes every entry of the tenant, and may use the tenant-wide routes.
    pub admin: bool,
}

impl Caller {
    /// True for a reader: neither a user nor an admin. Owning nothing (system entries are the admins'),
    /// it may read but never write.
    pub fn is_reader(&self) -> bool {
        !self.admin && self.user.is_none()
    }

    /// True when the caller may change an entry owned by `owner` (`None`: a system entry): an admin any
    /// entry, a user their own, a reader none.
    pub fn may_change(&self, owner: Option<&str>) -> bool {
        self.admin || self.user.as_deref().is_some_and(|user| owner == Some(user))
    }
}

/// One value of `MEMORY_TOKENS`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Grant {
    Tenant(String),
    Full(FullGrant),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FullGrant {
    tenant: String,
    #[serde(default)]
    user: Option<String>,
    #[serde(default)]
    admin: bool,
}

impl Grant {
    fn caller(self) -> Caller {
        match self {
            Grant::Tenant(tenant) => Caller { tenant, user: None, admin: true },
            Grant::Full(FullGrant { tenant, user, admin }) => {
                Caller { tenant, user: user.filter(|user| !user.trim().is_empty()), admin }
            }
        }
    }
}

/// The SHA-256 digest of `text`.
fn sha256(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// The digest a `MEMORY_TOKENS` key stands for: `sha256:<64 hex digits>` is a token's digest (so the secret
/// need not hold the token itself), any other key is a token, digested here.
fn key_digest(key: &str) -> Option<[u8; 32]> {
    let Some(hex) = key.strip_prefix("sha256:") else { return Some(sha256(key)) };
    let bytes = hex.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let nibble = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut digest = [0u8; 32];
    for (i, pair) in bytes.chunks(2).enumerate() {
        digest[i] = nibble(pair[0])? << 4 | nibble(pair[1])?;
    }
    Some(digest)
}

/// Equal digests, compared without stopping at the first difference.
fn same(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// Every token with its caller, as `MEMORY_TOKENS` says.
fn grants(env: &Env) -> Result<Vec<(String, Caller)>, ApiError> {
    let config_error = |why: &str| ApiError::new(500, "INVALID_CONFIG", format!("MEMORY_TOKENS: {why}"));
    let shape = "a JSON object of token -> tenant, or token -> {\"tenant\", \"user\"?, \"admin\"?}";
    let tokens = text(env, "MEMORY_TOKENS").ok_or_else(|| config_error(&format!("not set ({shape})")))?;
    let tokens: HashMap<String, Grant> =
        serde_json::from_str(&tokens).map_err(|_| config_error(&format!("must be {shape}")))?;
    if tokens.keys().any(|key| key.starts_with("sha256:") && key_digest(key).is_none()) {
        return Err(config_error("a \"sha256:\" key must be followed by the token's SHA-256 digest in 64 hex digits"));
    }
    Ok(tokens.into_iter().map(|(token, grant)| (token, grant.caller())).collect())
}

/// The schemes a token may come with: `Bearer`, and mem0's `Token`.
const SCHEMES: [&str; 2] = ["bearer", "token"];

/// The caller whose token authorises `request`.
pub fn caller(request: &Request, env: &Env) -> Result<Caller, ApiError> {
    let grants = grants(env)?;
    let header = request.headers().get("authorization").ok().flatten().unwrap_or_default();
    let (scheme, presented) = header.trim().split_once(' ').unwrap_or_default();
    if !SCHEMES.iter().any(|known| scheme.eq_ignore_ascii_case(known)) || presented.trim().is_empty() {
        return Err(ApiError::unauthorized());
    }
    let presented = sha256(presented.trim());
    let mut found = None;
    for (key, caller) in grants {
        if key_digest(&key).is_some_and(|digest| same(&digest, &presented)) && !caller.tenant.is_empty() {
            found = Some(caller);
        }
    }
    found.ok_or_else(ApiError::unauthorized)
}

/// Every tenant some token names (what the scheduled decay walks).
pub fn tenants(env: &Env) -> Result<BTreeSet<String>, ApiError> {
    Ok(grants(env)?.into_iter().map(|(_, caller)| caller.tenant).filter(|tenant| !tenant.is_empty()).collect())
}

/// The KV key prefix of a tenant.
pub fn tenant_prefix(tenant: &str) -> String {
    format!("t/{}/", encode(tenant))
}
