//! Unknown-option errors that help: serde's "unknown field `userID`, expected one of …" (every option,
//! aliases included) becomes "did you mean `userId`?" when one option is close (same letters but for case
//! and `_`/`-`, or a typo or two away), else a short list of the options without their snake_case twins.

/// `message` reworded when it is serde's unknown-field error; `None` otherwise.
pub fn reworded(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, expected) = rest.split_once("`, expected ")?;
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    Some(match closest(field, &known) {
        Some(name) => format!("unknown field `{field}`, did you mean `{name}`?"),
        None => format!("unknown field `{field}`; the known ones are {}", brief(&known).join(", ")),
    })
}

/// The known name closest to `field`, if one is close enough to be what was meant.
pub fn closest<'a>(field: &str, known: &[&'a str]) -> Option<&'a str> {
    let wanted = folded(field);
    let scored = known.iter().map(|name| (distance(&wanted, &folded(name)), *name));
    let (score, name) = scored.min_by_key(|(score, _)| *score)?;
    let allowed = if wanted.len() >= 6 { 2 } else { 1 };
    (score <= allowed).then_some(name)
}

/// `known` quoted, without the snake_case twin of a camelCase name (`user_id` beside `userId`).
fn brief(known: &[&str]) -> Vec<String> {
    let twin = |name: &str| name.contains('_') && known.iter().any(|o| *o != name && folded(o) == folded(name));
    known.iter().filter(|name| !twin(name)).map(|name| format!("`{name}`")).collect()
}

/// Lower case, without `_` and `-`: `user_ID` and `userId` fold alike.
fn folded(name: &str) -> Vec<char> {
    name.chars().filter(|c| *c != '_' && *c != '-').map(|c| c.to_ascii_lowercase()).collect()
}

/// Edit distance (insertions, deletions, substitutions, adjacent swaps).
fn distance(a: &[char], b: &[char]) -> usize {
    let mut rows = vec![(0..=b.len()).collect::<Vec<_>>(); a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADD: &str = "unknown field `userID`, expected one of `userId`, `user_id`, `agentId`, `agent_id`, \
                       `runId`, `run_id`, `metadata`, `infer`";

    #[test]
    fn a_close_option_is_suggested_alone() {
        assert_eq!(reworded(ADD).unwrap(), "unknown field `userID`, did you mean `userId`?");
        let typo = "unknown field `metdata`, expected one of `userId`, `metadata`";
        assert!(reworded(typo).unwrap().ends_with("did you mean `metadata`?"));
        assert_eq!(closest("user_Id", &["userId", "user_id"]), Some("userId"));
        assert_eq!(closest("agnetId", &["userId", "agentId"]), Some("agentId"), "a swap is one typo");
        assert_eq!(closest("dbname", &["dbName", "version"]), Some("dbName"));
    }

    #[test]
    fn with_nothing_close_the_options_are_listed_briefly() {
        let message = reworded(&ADD.replace("userID", "colour")).unwrap();
        assert_eq!(
            message,
            "unknown field `colour`; the known ones are `userId`, `agentId`, `runId`, `metadata`, `infer`"
        );
        assert_eq!(closest("ttl", &["tag"]), None, "short names need a closer match");
    }

    #[test]
    fn other_messages_are_left_alone() {
        assert_eq!(reworded("invalid type: integer `5`, expected a string"), None);
        assert_eq!(reworded("unknown field `x`, there are no fields"), None);
    }
}
