//! The request headers MCP 2026-07-28 mirrors from the body (`MCP-Protocol-Version`, `Mcp-Method`, and
//! `Mcp-Name` for `tools/call`), checked against it: one missing or different is a `HeaderMismatch` (-32020).
//! A value that cannot travel as plain ASCII comes as `=?base64?…?=` and is compared decoded.

use worker::Headers;

use super::rpc::{RpcError, HEADER_MISMATCH};

/// The first way `headers` disagree with the request (`version`, `method`, and `name` for a tool call).
pub fn mismatch(headers: &Headers, version: &str, method: &str, name: Option<&str>) -> Option<RpcError> {
    let mirrored = [("MCP-Protocol-Version", Some(version)), ("Mcp-Method", Some(method)), ("Mcp-Name", name)];
    mirrored.into_iter().find_map(|(header, body)| {
        let body = body?;
        let sent = headers.get(header).ok().flatten();
        let why = match sent.as_deref().map(decoded) {
            None => format!("Header mismatch: the request has no {header} header (its body says {body:?})"),
            Some(Some(sent)) if sent == body => return None,
            Some(Some(sent)) => {
                format!("Header mismatch: {header} header value {sent:?} does not match body value {body:?}")
            }
            Some(None) => format!("Header mismatch: {header} header is not valid base64 between =?base64? and ?="),
        };
        Some(RpcError::new(HEADER_MISMATCH, "HEADER_MISMATCH", why))
    })
}

/// A header value as the body holds it: `=?base64?…?=` decoded (`None` when that is not UTF-8 base64).
fn decoded(value: &str) -> Option<String> {
    match value.strip_prefix("=?base64?").and_then(|rest| rest.strip_suffix("?=")) {
        Some(encoded) => String::from_utf8(base64(encoded)?).ok(),
        None => Some(value.to_owned()),
    }
}

/// Standard base64 (padding optional) decoded; `None` for any other character.
fn base64(text: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(text.len() * 3 / 4);
    let (mut bits, mut held) = (0u32, 0u32);
    for c in text.trim_end_matches('=').bytes() {
        let sextet = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(sextet);
        held += 6;
        if held >= 8 {
            held -= 8;
            bytes.push((bits >> held) as u8);
            bits &= (1 << held) - 1;
        }
    }
    Some(bytes)
}
