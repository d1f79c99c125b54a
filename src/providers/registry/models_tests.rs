//! A toy provider added the documented way: its options (a folder, in the crate) and one row in a
//! `model_providers!` table, read by name, by alias, and refused in the part it does not serve.

use serde_json::json;

use crate::core::error::Result;
use crate::providers::shared::keys::Env;

/// The provider's folder: its options and what they resolve to.
mod toy {
    use serde::Deserialize;

    use crate::core::config::non_empty;
    use crate::core::error::Result;
    use crate::providers::shared::keys::Env;

    #[derive(Debug, Default, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct ToyOptions {
        pub model: Option<String>,
        pub api_key: Option<String>,
    }

    impl ToyOptions {
        /// The model (default `toy-1`) and the key, given or from `TOY_API_KEY`.
        pub fn resolve(self, env: Env) -> Result<(String, Option<String>)> {
            let model = non_empty("llm.config.model", self.model, "toy-1")?;
            Ok((model, self.api_key.or_else(|| env("TOY_API_KEY"))))
        }
    }
}

/// The choices the table's rows make (the crate's are `LlmChoice` and `EmbedderChoice` in `config`).
#[derive(Debug, PartialEq)]
enum LlmChoice {
    Toy((String, Option<String>)),
}

#[derive(Debug, PartialEq)]
enum EmbedderChoice {}

model_providers! {
    ["toy" | "toy-ai"] => llm Toy(toy::ToyOptions);
}

fn env(name: &str) -> Option<String> {
    (name == "TOY_API_KEY").then(|| "from-env".to_owned())
}

fn llm(name: &str, config: serde_json::Value) -> Option<Result<LlmChoice>> {
    let env: Env = &env;
    table_llm(name, &Some(config), env)
}

#[test]
fn a_row_reads_its_options_by_name_and_alias() {
    let by_name = llm("toy", json!({"model": "toy-2"})).unwrap().unwrap();
    assert_eq!(by_name, LlmChoice::Toy(("toy-2".into(), Some("from-env".into()))));
    let by_alias = llm("toy-ai", json!({"apiKey": "k"})).unwrap().unwrap();
    assert_eq!(by_alias, LlmChoice::Toy(("toy-1".into(), Some("k".into()))));
    assert!(llm("other", json!({})).is_none(), "a name no row has is left to the caller");
}

#[test]
fn a_rows_options_are_checked_with_their_path() {
    let error = llm("toy", json!({"modle": "x"})).unwrap().unwrap_err();
    assert_eq!(error.code(), "INVALID_CONFIG");
    assert!(error.to_string().contains("llm.config"), "{error}");
    let error = llm("toy", json!({"model": " "})).unwrap().unwrap_err();
    assert_eq!(error.to_string(), "invalid config: llm.config.model: must not be empty");
}

#[test]
fn the_table_lists_names_and_parts_and_serves_no_part_it_lacks() {
    let names: &[&str] = &["toy", "toy-ai"];
    assert_eq!(TABLE, [(names, true, false)]);
    let env: Env = &env;
    assert!(table_embedder("toy", &None, env).is_none());
}
