//! A turn's own words outrank the same words in the next turn's context: the reply "Congratulations!" to "I
//! adopted a zebra" is found by "zebra", after the turn that says it, whatever the turns' lengths.

use futures_executor::block_on;
use serde_json::json;

use crate::core::fusion::Method;
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::Read;
use crate::core::storage::InMemoryStorage;
use crate::core::testing::letter_engine;

#[test]
fn a_turn_outranks_the_reply_that_has_its_words_only_as_context() {
    let engine = letter_engine(InMemoryStorage::default());
    let options = AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() };
    let turns = json!([
        {"role": "user", "content": "I went to the zoo on Saturday with my whole family and we saw lots of animals"},
        {"role": "assistant", "content": "That sounds lovely, which animals did you like best of all?"},
        {"role": "user", "content": "I adopted a zebra"},
        {"role": "assistant", "content": "Congratulations!"},
        {"role": "user", "content": "Thanks, we named her Stripes"},
    ]);
    block_on(engine.add(&turns, &options)).unwrap();
    let scope = Scope { user_id: Some("u".into()), ..Scope::default() };
    let read = Read { method: Some(Method::Keyword), ..Read::of(scope, 10) };
    let found: Vec<String> =
        block_on(engine.search("zebra", &read)).unwrap().results.into_iter().map(|m| m.memory).collect();
    assert_eq!(found, ["I adopted a zebra", "Congratulations!"], "the turn first, then the reply read with it");
}
