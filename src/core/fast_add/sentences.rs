//! The conversation's sentences, the fast pipeline's stand-ins for facts not extracted yet.

use crate::core::model::types::Message;

/// At most this many texts are embedded for one conversation; longer ones are grouped into runs of sentences.
pub(crate) const MAX_TEXTS: usize = 24;

/// The sentences of the non-system messages, in order; a conversation of more than `MAX_TEXTS` sentences
/// comes back as `MAX_TEXTS` runs of consecutive sentences, so every part of it is still embedded.
pub(crate) fn conversation_texts(messages: &[Message]) -> Vec<String> {
    let sentences: Vec<String> =
        messages.iter().filter(|m| m.role != "system").flat_map(|m| split_sentences(&m.content)).collect();
    if sentences.len() <= MAX_TEXTS {
        return sentences;
    }
    let run = sentences.len().div_ceil(MAX_TEXTS);
    sentences.chunks(run).map(|chunk| chunk.join(" ")).collect()
}

/// `text` cut after sentence-ending punctuation (Latin and CJK) and at line breaks; pieces without a letter
/// or digit are dropped.
pub(crate) fn split_sentences(text: &str) -> Vec<String> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next_is_space = chars.peek().is_none_or(|(_, next)| next.is_whitespace());
        let ends = matches!(c, '\n' | '。' | '！' | '？') || (matches!(c, '.' | '!' | '?' | ';') && next_is_space);
        if ends {
            push_sentence(&mut sentences, &text[start..at + c.len_utf8()]);
            start = at + c.len_utf8();
        }
    }
    push_sentence(&mut sentences, &text[start..]);
    sentences
}

fn push_sentence(sentences: &mut Vec<String>, piece: &str) {
    let piece = piece.trim();
    if piece.chars().any(char::is_alphanumeric) {
        sentences.push(piece.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(role: &str, content: &str) -> Message {
        Message::new(role, content)
    }

    #[test]
    fn sentences_split_at_their_ends_only() {
        let text = "I moved to Berlin. It costs $3.50 a coffee!Really? Yes\nnew line; more. . 東京に住んでいます。はい";
        assert_eq!(
            split_sentences(text),
            [
                "I moved to Berlin.",
                "It costs $3.50 a coffee!Really?",
                "Yes",
                "new line;",
                "more.",
                "東京に住んでいます。",
                "はい"
            ]
        );
        assert!(split_sentences("  ... !!").is_empty());
    }

    #[test]
    fn system_messages_are_left_out_and_long_conversations_are_grouped() {
        let short = [said("system", "Be kind."), said("user", "Hi. I like tea."), said("assistant", "Noted.")];
        assert_eq!(conversation_texts(&short), ["Hi.", "I like tea.", "Noted."]);
        let long: Vec<Message> = (0..60).map(|i| said("user", &format!("Sentence {i}."))).collect();
        let texts = conversation_texts(&long);
        assert!(texts.len() <= MAX_TEXTS);
        assert_eq!(texts.join(" "), (0..60).map(|i| format!("Sentence {i}.")).collect::<Vec<_>>().join(" "));
    }
}
