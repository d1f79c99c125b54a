//! A request body as serde_json can read it: serde_json refuses JSON nested deeper than 128 levels, so the
//! containers nested deeper than `CUT` levels are replaced by `null` before it parses. A tool's arguments may
//! nest 64 levels (`check::too_deep`), so a call with a cut gets the same coded tool error as the stdio
//! server gives, at its own id, where it used to get an HTTP 400 parse error.

/// Levels of the body kept: a batch, the message, `params` and `arguments` above the 64 levels arguments may
/// have, and well under serde_json's 128.
const CUT: usize = 100;

/// `body` with every array or object that opens deeper than `CUT` levels written as `null`. Strings are
/// copied as they are; malformed JSON stays malformed.
pub fn flatten(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut depth = 0usize;
    // The depth of the container being skipped, while one is.
    let mut skipping: Option<usize> = None;
    let (mut in_string, mut escaped) = (false, false);
    for &byte in body {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    depth += 1;
                    if depth > CUT && skipping.is_none() {
                        skipping = Some(depth);
                        out.extend_from_slice(b"null");
                    }
                }
                b'}' | b']' => {
                    let closes_skipped = skipping == Some(depth);
                    depth = depth.saturating_sub(1);
                    if closes_skipped {
                        skipping = None;
                        continue;
                    }
                }
                _ => {}
            }
        }
        if skipping.is_none() {
            out.push(byte);
        }
    }
    out
}
