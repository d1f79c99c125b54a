//! `vectorStore: {provider: "chroma", config: {url, tenant?, database?, collectionName, apiKey?, timeoutMs?}}`.
//! mem0's shape names the server as its Chroma client does, `host` (default `localhost`), `port` (default
//! 8000) and `ssl`, or `path` (a URL): any of them stands for `url`.

use serde::Deserialize;

use crate::core::config::{invalid, provider_options, ProviderConfig};
use crate::core::error::Result;

/// Chroma's own defaults for a server without multi-tenancy.
pub const DEFAULT_TENANT: &str = "default_tenant";
pub const DEFAULT_DATABASE: &str = "default_database";
/// How long one request may take before it counts as a network failure (and is retried).
pub const DEFAULT_TIMEOUT_MS: u32 = 10_000;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ChromaOptions {
    url: Option<String>,
    /// mem0's (the chromadb client's) parts of `url`.
    host: Option<String>,
    port: Option<u16>,
    ssl: Option<bool>,
    path: Option<String>,
    tenant: Option<String>,
    database: Option<String>,
    collection_name: Option<String>,
    api_key: Option<String>,
    timeout_ms: Option<u32>,
    /// mem0's vector length, checked against the embedder's like the in-memory store's.
    dimension: Option<u32>,
}

/// A checked Chroma config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChromaSettings {
    /// The server's base URL, without a trailing slash (e.g. `http://127.0.0.1:8000`).
    pub url: String,
    pub tenant: String,
    pub database: String,
    pub collection: String,
    /// Sent as `x-chroma-token` (Chroma's token auth and Chroma Cloud).
    pub api_key: Option<String>,
    pub timeout_ms: u32,
    pub dimension: Option<usize>,
}

/// Chroma's rule for collection names: 3–512 of `[a-zA-Z0-9._-]`, starting and ending alphanumeric.
fn valid_collection(name: &str) -> bool {
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    (3..=512).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        && alnum(name.chars().next())
        && alnum(name.chars().last())
}

/// The server's URL: `url`, or mem0's `path`, or one made of `host`, `port` and `ssl` (one way, not two).
fn server_url(options: &ChromaOptions) -> Result<Option<String>> {
    let parts = options.host.is_some() || options.port.is_some() || options.ssl.is_some();
    match (&options.url, &options.path) {
        (Some(_), Some(_)) => Err(invalid("vectorStore.config.path", "give url or path (mem0's name), not both")),
        (Some(url), None) | (None, Some(url)) if !parts => Ok(Some(url.clone())),
        (Some(_), None) | (None, Some(_)) => {
            Err(invalid("vectorStore.config.host", "give the server as url (or path), or as host, port and ssl"))
        }
        (None, None) if parts => {
            let scheme = if options.ssl == Some(true) { "https" } else { "http" };
            let host = options.host.as_deref().unwrap_or("localhost");
            Ok(Some(format!("{scheme}://{host}:{}", options.port.unwrap_or(8000))))
        }
        (None, None) => Ok(None),
    }
}

/// Reads `vectorStore` when its provider is `chroma`.
pub fn chroma_settings(store: &ProviderConfig) -> Result<ChromaSettings> {
    let field = "vectorStore.config";
    let options: ChromaOptions = provider_options(&store.config, field)?;
    let url = server_url(&options)?.map(|url| url.trim().trim_end_matches('/').to_owned()).unwrap_or_default();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(invalid("vectorStore.config.url", "is required: the Chroma server's http(s) URL"));
    }
    let collection = options.collection_name.unwrap_or_default();
    if !valid_collection(&collection) {
        let why = "is required: 3-512 characters of a-z A-Z 0-9 . _ -, starting and ending with a letter or digit";
        return Err(invalid("vectorStore.config.collectionName", why));
    }
    let name = |value: Option<String>, field: &str, default: &str| match value {
        Some(text) if text.trim().is_empty() => Err(invalid(field, "must not be empty")),
        Some(text) => Ok(text),
        None => Ok(default.to_owned()),
    };
    if options.timeout_ms == Some(0) {
        return Err(invalid("vectorStore.config.timeoutMs", "must be at least 1"));
    }
    if options.dimension == Some(0) {
        return Err(invalid("vectorStore.config.dimension", "must be at least 1"));
    }
    Ok(ChromaSettings {
        url,
        tenant: name(options.tenant, "vectorStore.config.tenant", DEFAULT_TENANT)?,
        database: name(options.database, "vectorStore.config.database", DEFAULT_DATABASE)?,
        collection,
        api_key: options.api_key.filter(|key| !key.is_empty()),
        timeout_ms: options.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
        dimension: options.dimension.map(|d| d as usize),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    fn settings(config: Value) -> Result<ChromaSettings> {
        chroma_settings(&ProviderConfig { provider: "chroma".into(), config: Some(config), dimensions: None })
    }

    #[test]
    fn fills_chroma_defaults() {
        let read = settings(json!({"url": "http://127.0.0.1:8000/", "collectionName": "memories"})).unwrap();
        assert_eq!(read.url, "http://127.0.0.1:8000");
        assert_eq!((read.tenant.as_str(), read.database.as_str()), (DEFAULT_TENANT, DEFAULT_DATABASE));
        assert_eq!((read.timeout_ms, read.api_key), (DEFAULT_TIMEOUT_MS, None));
    }

    #[test]
    fn bad_configs_name_the_field() {
        let field = |config: Value| {
            let error = settings(config).unwrap_err();
            assert_eq!(error.code(), "INVALID_CONFIG");
            error.to_string()
        };
        assert!(field(json!({"collectionName": "memories"})).contains("vectorStore.config.url"));
        assert!(field(json!({"url": "ftp://x", "collectionName": "memories"})).contains("url"));
        assert!(field(json!({"url": "http://x"})).contains("collectionName"));
        for name in ["ab", "-abc", "abc-", "a b c", "ab/c"] {
            assert!(field(json!({"url": "http://x", "collectionName": name})).contains("collectionName"), "{name}");
        }
        assert!(field(json!({"url": "http://x", "collectionName": "abc", "tenant": " "})).contains("tenant"));
        assert!(field(json!({"url": "http://x", "collectionName": "abc", "timeoutMs": 0})).contains("timeoutMs"));
        assert!(
            field(json!({"url": "http://x", "collectionName": "abc", "port": 1})).contains("vectorStore.config.host")
        );
        assert!(field(json!({"url": "http://x", "path": "http://y", "collectionName": "abc"})).contains("path"));
        assert!(field(json!({"host": "h", "port": 70000, "collectionName": "abc"})).contains("port"));
    }

    #[test]
    fn mem0s_host_port_ssl_and_path_make_the_url() {
        let url = |config: Value| settings(config).unwrap().url;
        assert_eq!(
            url(json!({"host": "localhost", "port": 8000, "collectionName": "memories"})),
            "http://localhost:8000"
        );
        assert_eq!(url(json!({"host": "c.example", "ssl": true, "collectionName": "abc"})), "https://c.example:8000");
        assert_eq!(url(json!({"port": 9000, "collectionName": "abc"})), "http://localhost:9000");
        assert_eq!(url(json!({"path": "http://c:1/", "collectionName": "abc"})), "http://c:1");
    }
}
