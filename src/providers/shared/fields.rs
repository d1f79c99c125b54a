//! Checks shared by the providers' option structs; every error names its field.

use crate::core::config::invalid;
use crate::core::error::Result;

/// An http(s) URL: `value`, else `default`.
pub(crate) fn http_url(field: &str, value: Option<String>, default: &str) -> Result<String> {
    let url = value.unwrap_or_else(|| default.to_owned());
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(invalid(field, format!("must be an http(s) URL, got \"{url}\"")));
    }
    Ok(url)
}

/// A non-empty string that must be given.
pub(crate) fn required(field: &str, value: Option<String>, why: &str) -> Result<String> {
    match value {
        Some(text) if !text.trim().is_empty() => Ok(text),
        Some(_) => Err(invalid(field, "must not be empty")),
        None => Err(invalid(field, format!("is required ({why})"))),
    }
}

/// A sampling temperature in `0..=max`, default 0.
pub(crate) fn temperature(field: &str, value: Option<f64>, max: f64) -> Result<f64> {
    let temperature = value.unwrap_or(0.0);
    if !(0.0..=max).contains(&temperature) {
        return Err(invalid(field, format!("must be between 0 and {max}")));
    }
    Ok(temperature)
}

/// A reply length of at least 1, default 2000.
pub(crate) fn max_tokens(field: &str, value: Option<u32>) -> Result<u32> {
    match value {
        Some(0) => Err(invalid(field, "must be at least 1")),
        other => Ok(other.unwrap_or(2000)),
    }
}

/// Nucleus sampling's `topP`, in `0..=1`, when given.
pub(crate) fn top_p(field: &str, value: Option<f64>) -> Result<Option<f64>> {
    match value {
        Some(p) if !(0.0..=1.0).contains(&p) => Err(invalid(field, format!("must be between 0 and 1, got {p}"))),
        other => Ok(other),
    }
}

/// `topK`, the number of likeliest tokens sampled from: at least 1, when given.
pub(crate) fn top_k(field: &str, value: Option<u32>) -> Result<Option<u32>> {
    match value {
        Some(0) => Err(invalid(field, "must be at least 1")),
        other => Ok(other),
    }
}

/// The base URL given as `url` (mem0's name) or `baseUrl`, else `default`; both given is an error.
pub(crate) fn url_or_base(
    section: &str,
    url: Option<String>,
    base_url: Option<String>,
    default: &str,
) -> Result<String> {
    let field = |name: &str| format!("{section}.config.{name}");
    match (url, base_url) {
        (Some(_), Some(_)) => Err(invalid(&field("url"), "give url (mem0's name) or baseUrl, not both")),
        (Some(url), None) => http_url(&field("url"), Some(url), default),
        (None, base_url) => http_url(&field("baseUrl"), base_url, default),
    }
}

/// A vector length in `1..=65536`, when given.
pub(crate) fn dimensions(field: &str, value: Option<u32>) -> Result<Option<usize>> {
    match value {
        Some(d) if !(1..=65_536).contains(&d) => Err(invalid(field, format!("must be between 1 and 65536, got {d}"))),
        other => Ok(other.map(|d| d as usize)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_check_names_its_field() {
        assert_eq!(http_url("f.url", None, "http://x").unwrap(), "http://x");
        assert!(http_url("f.url", Some("ftp://x".into()), "http://x").unwrap_err().to_string().contains("f.url"));
        assert!(required("f.model", None, "no default").unwrap_err().to_string().contains("f.model: is required"));
        assert!(required("f.model", Some(" ".into()), "").is_err());
        assert_eq!(temperature("f.t", None, 1.0).unwrap(), 0.0);
        assert!(temperature("f.t", Some(1.5), 1.0).is_err());
        assert_eq!(max_tokens("f.m", None).unwrap(), 2000);
        assert!(max_tokens("f.m", Some(0)).is_err());
        assert_eq!(dimensions("f.d", Some(3)).unwrap(), Some(3));
        assert_eq!((top_p("f.p", Some(0.9)).unwrap(), top_k("f.k", Some(40)).unwrap()), (Some(0.9), Some(40)));
        assert!(top_p("f.p", Some(1.5)).unwrap_err().to_string().contains("f.p"));
        assert!(top_k("f.k", Some(0)).unwrap_err().to_string().contains("f.k"));
        assert_eq!(url_or_base("llm", Some("http://u".into()), None, "http://d").unwrap(), "http://u");
        assert_eq!(url_or_base("llm", None, None, "http://d").unwrap(), "http://d");
        assert!(url_or_base("llm", Some("http://u".into()), Some("http://b".into()), "").is_err());
        assert!(dimensions("f.d", Some(0)).unwrap_err().to_string().contains("f.d"));
    }
}
