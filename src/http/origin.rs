//! The origin of a request's URL: where a liveness probe goes, and what the breaker remembers a host by.

/// `scheme://host[:port]` of `url`, lower case, without user info, path, query (where a key may sit) or
/// fragment; `url` itself when it has no `://`.
pub fn origin(url: &str) -> String {
    let Some(at) = url.find("://") else { return url.to_owned() };
    let rest = &url[at + 3..];
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    format!("{}://{}", url[..at].to_ascii_lowercase(), host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_scheme_host_and_port_only() {
        assert_eq!(origin("https://api.openai.com/v1/chat/completions"), "https://api.openai.com");
        assert_eq!(origin("http://127.0.0.1:11434/api/chat"), "http://127.0.0.1:11434");
        assert_eq!(origin("HTTPS://Host.Example:8443?key=secret#x"), "https://host.example:8443");
        assert_eq!(origin("https://user:pass@host.example/v1"), "https://host.example");
        assert_eq!(origin("https://host.example"), "https://host.example");
        assert_eq!(origin("not a url"), "not a url");
    }
}
