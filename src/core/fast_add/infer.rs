//! The fast pipeline's inferring `add()`: extraction beside the conversation's embedding, the decision
//! beside the facts' embedding.

use futures_util::future::join;

use super::sentences::conversation_texts;
use crate::core::engine::pipeline::{attribute, extend_unique, stopped, Destination};
use crate::core::error::{MemoryError, Result};
use crate::core::fast_add::FastAdd;
use crate::core::filter::Filter;
use crate::core::model::types::{AddResult, MemoryItem, Message, WarningCode};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pipeline_options::AddOptions;
use crate::core::plan::Op;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> FastAdd<'_, L, E, S, V> {
    /// `infer` in two round trips (see the module). When the conversation's embedding fails, the facts take
    /// the exact path, whose embedding falls back to one request per fact.
    pub(crate) async fn infer_fast(
        &self,
        messages: &[Message],
        to: &Destination,
        filter: &Option<Filter>,
        options: &AddOptions,
        mut result: AddResult,
    ) -> Result<(AddResult, Changeset)> {
        let scope = &to.scope;
        let now = self.now_iso();
        let passes = |item: &MemoryItem| filter.as_ref().is_none_or(|f| f.matches(item));
        let keep = |item: &MemoryItem| to.holds(item, filter, &now);
        let texts = conversation_texts(messages);
        let (extracted, early) =
            join(self.extract(messages, options), self.sentence_neighbours(&texts, scope, &keep)).await;
        let (facts, attributions) = match extracted {
            Ok(parsed) => parsed,
            Err(why) => return Ok(stopped(result, WarningCode::ExtractionFailed, &why)),
        };
        let mut shown = match early {
            Ok(shown) => shown,
            Err(error @ MemoryError::DimensionMismatch { .. }) => return Err(error),
            Err(_) => {
                let (result, mut changes) = self.merge_facts(facts, to, &passes, result).await?;
                attribute(&mut changes, &attributions);
                return Ok((result, changes));
            }
        };
        let facts = self.drop_exact_duplicates(facts, scope, &mut result);
        if facts.is_empty() {
            return Ok((result, Changeset::default()));
        }
        extend_unique(&mut shown, self.keyword_neighbours(&facts, scope, &keep).await?);
        let mut embed_warnings = Vec::new();
        let (decided, embedded) =
            join(self.decide(&facts, &shown, scope), self.embed_all(&facts, &mut embed_warnings)).await;
        result.warnings.extend(embed_warnings);
        let embedded = embedded?;
        let (ops, planned) = match decided {
            Ok(decided) => decided,
            Err(why) => return Ok(stopped(result, WarningCode::DecisionFailed, &why)),
        };
        result.warnings.extend(planned);
        // A fact that could not be embedded is skipped (reported above), as the exact path skips it.
        let unembedded = |text: &String| facts.contains(text) && !embedded.contains_key(text);
        let ops =
            ops.into_iter().filter(|op| !matches!(op, Op::Add { text } | Op::Update { text, .. } if unembedded(text)));
        let (result, mut changes) = self.apply(ops.collect(), embedded, to, result, true).await?;
        attribute(&mut changes, &attributions);
        Ok((result, changes))
    }
}
