//! `storage: {provider: "cloudflare-kv", binding: env.MEMORY_KV, config: {prefix?}}`: memories and history in
//! a Workers KV namespace. The binding is a live value (lifted out of the config before this is read).

use serde::Deserialize;
use serde_json::Value;

use super::{invalid, provider_options};
use crate::core::error::Result;

/// The key prefix used when the config names none.
pub const DEFAULT_KV_PREFIX: &str = "memwasm/";

/// `storage.config` for Workers KV, as given.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KvOptions {
    /// Every key starts with it, so several memories (apps, tenants) can share one namespace.
    pub prefix: Option<String>,
}

/// Reads `storage.config` for the `cloudflare-kv` provider: the key prefix.
pub fn kv_prefix(config: &Option<Value>) -> Result<String> {
    let options: KvOptions = provider_options(config, "storage.config")?;
    match options.prefix {
        None => Ok(DEFAULT_KV_PREFIX.to_owned()),
        Some(prefix) if prefix.len() > 256 => Err(invalid("storage.config.prefix", "must be at most 256 bytes")),
        Some(prefix) => Ok(prefix),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn prefix_defaults_and_errors_name_the_field() {
        assert_eq!(kv_prefix(&None).unwrap(), "memwasm/");
        assert_eq!(kv_prefix(&Some(json!({"prefix": "app1/"}))).unwrap(), "app1/");
        assert_eq!(kv_prefix(&Some(json!({"prefix": ""}))).unwrap(), "");
        let error = kv_prefix(&Some(json!({"prefix": 3}))).unwrap_err();
        assert!(error.to_string().contains("storage.config.prefix"), "{error}");
        assert!(kv_prefix(&Some(json!({"prefix": "x".repeat(300)}))).unwrap_err().to_string().contains("256"));
        let error = kv_prefix(&Some(json!({"namespace": "x"}))).unwrap_err();
        assert_eq!(error.code(), "INVALID_CONFIG");
        assert!(error.to_string().contains("unknown field `namespace`"), "{error}");
    }
}
