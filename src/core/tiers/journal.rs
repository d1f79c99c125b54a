//! The daily journal tier: every flushed turn is appended to its scope's record for the day
//! (UTC), kept as a side record beside the memories; read back as Markdown. `dream` consolidates journals.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::dream_state::DreamState;
use super::{scope_of_key, JOURNAL, PENDING_DREAM};
use crate::core::error::Result;
use crate::core::identity::content_hash;
use crate::core::model::scope::Scope;
use crate::core::model::types::Message;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::prompt_fence::{fence, Place};
use crate::core::prompts::speaker_label;
use crate::core::side_records::SideWrite;
use crate::core::storage::Storage;
use crate::core::tiers::Tiers;
use crate::core::time::iso_from_millis;
use crate::core::vector_store::VectorStore;

/// One flush's turns, as journaled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalTurns {
    /// When they were flushed (ISO 8601).
    pub at: String,
    pub messages: Vec<Message>,
}

/// A scope's journal for one day, as stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JournalRecord {
    pub scope: Scope,
    pub date: String,
    pub entries: Vec<JournalTurns>,
}

/// One day as `journals()` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JournalDay {
    pub date: String,
    /// Messages journaled that day.
    pub turns: usize,
    pub markdown: String,
    /// The MD5 of `markdown`: what `dream` remembers having consolidated.
    pub hash: String,
    /// True when `dream` consolidated the journal as it is now.
    pub consolidated: bool,
}

/// The key of `scope`'s journal for `date`.
pub fn journal_key(scope: &Scope, date: &str) -> String {
    format!("{}\u{1e}{date}", scope.key())
}

/// The day (`YYYY-MM-DD`, UTC) of `millis`.
pub fn day_of(millis: i64) -> String {
    iso_from_millis(millis)[..10].to_owned()
}

impl JournalRecord {
    /// The journal as Markdown: a heading for the day, one section per flush, one line per message (who
    /// said it and its text, each kept on it: the dream prompt shows this text).
    pub fn markdown(&self) -> String {
        let mut text = format!("# Journal {}\n", fence(&self.date, Place::Line));
        for entry in &self.entries {
            let time = fence(entry.at.get(11..19).unwrap_or(&entry.at), Place::Line);
            text.push_str(&format!("\n## {time} UTC\n"));
            for message in &entry.messages {
                let (who, content) = (speaker_label(message), fence(&message.content, Place::Line));
                text.push_str(&format!("- **{who}:** {content}\n"));
            }
        }
        text
    }

    fn turns(&self) -> usize {
        self.entries.iter().map(|entry| entry.messages.len()).sum()
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Tiers<'_, L, E, S, V> {
    /// The writes that append `messages` to `scope`'s journal for today and mark the scope as having
    /// something new to dream about.
    pub(crate) async fn journal_writes(&self, scope: &Scope, messages: &[Message]) -> Result<Vec<SideWrite>> {
        let at = self.now_iso();
        let date = at[..10].to_owned();
        let key = journal_key(scope, &date);
        let mut record = match self.side_record(JOURNAL, &key).await? {
            Some(value) => crate::core::value_de::from_value(&value).unwrap_or_default(),
            None => JournalRecord::default(),
        };
        (record.scope, record.date) = (scope.clone(), date);
        record.entries.push(JournalTurns { at, messages: messages.to_vec() });
        let pending = serde_json::to_value(scope).unwrap_or(Value::Null);
        Ok(vec![
            SideWrite::put(JOURNAL, &key, serde_json::to_value(&record).unwrap_or(Value::Null)),
            SideWrite::put(PENDING_DREAM, &scope.key(), pending),
        ])
    }

    /// `scope`'s journals from `since` (every day without), oldest first.
    pub async fn journal_records(&self, scope: &Scope, since: Option<&str>) -> Result<Vec<JournalRecord>> {
        let prefix = format!("{}\u{1e}", scope.key());
        let records = self.side_records(JOURNAL).await?;
        let days = records.into_iter().filter(|record| record.key.starts_with(&prefix));
        let parsed = days.filter_map(|record| crate::core::value_de::from_value::<JournalRecord>(&record.value).ok());
        Ok(parsed.filter(|record| since.is_none_or(|since| record.date.as_str() >= since)).collect())
    }

    /// `scope`'s journal for `date` (today without) as Markdown; `None` when nothing was journaled that day.
    pub async fn journal(&self, scope: &Scope, date: Option<&str>) -> Result<Option<String>> {
        let date = date.map(str::to_owned).unwrap_or_else(|| day_of(self.now_ms()));
        let record = self.side_record(JOURNAL, &journal_key(scope, &date)).await?;
        Ok(record
            .and_then(|value| crate::core::value_de::from_value::<JournalRecord>(&value).ok())
            .map(|r| r.markdown()))
    }

    /// `scope`'s journals from `since`, oldest first, each with whether `dream` has consolidated it.
    pub async fn journals(&self, scope: &Scope, since: Option<&str>) -> Result<Vec<JournalDay>> {
        let done = DreamState::load(self, scope).await?;
        let records = self.journal_records(scope, since).await?;
        Ok(records
            .into_iter()
            .map(|record| {
                let markdown = record.markdown();
                let hash = content_hash(&markdown);
                let consolidated = done.consolidated(&record.date, &hash);
                JournalDay { turns: record.turns(), date: record.date, markdown, hash, consolidated }
            })
            .collect())
    }

    /// The scopes with journal turns no `dream` has consolidated yet (what the Worker's cron dreams about).
    pub async fn scopes_to_dream(&self) -> Result<Vec<Scope>> {
        let pending = self.side_records(PENDING_DREAM).await?;
        Ok(pending.into_iter().filter_map(|record| scope_of_key(&record.value)).collect())
    }
}
