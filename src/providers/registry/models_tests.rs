//! A toy provider added the documented way: its folder (options, settings, model, here in the file) and one
//! row in a table that both writers read: read by name and by alias, refused in the part it does not serve,
//! its model built from its choice and named by the row.

use serde_json::json;

use crate::core::error::Result;
use crate::http::RetryPolicy;
use crate::providers::shared::keys::Env;
use crate::providers::shared::testing::Recorder;

/// The provider's folder: its options and what they resolve to.
mod toy {
    use serde::Deserialize;

    use crate::core::config::non_empty;
    use crate::core::error::Result;
    use crate::http::RetryPolicy;
    use crate::providers::shared::keys::Env;

    #[derive(Debug, Default, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct ToyOptions {
        pub model: Option<String>,
        pub api_key: Option<String>,
    }

    /// What the options resolve to, which the model is built from.
    #[derive(Debug, Clone, PartialEq)]
    pub struct ToySettings {
        pub model: String,
        pub api_key: Option<String>,
    }

    impl ToyOptions {
        /// The model (default `toy-1`) and the key, given or from `TOY_API_KEY`.
        pub fn resolve(self, env: Env) -> Result<ToySettings> {
            let model = non_empty("llm.config.model", self.model, "toy-1")?;
            Ok(ToySettings { model, api_key: self.api_key.or_else(|| env("TOY_API_KEY")) })
        }
    }

    /// The model: the client it is reached through, its settings and its retry policy.
    pub struct ToyChat<C> {
        pub client: C,
        pub settings: ToySettings,
        pub retry: RetryPolicy,
    }

    impl<C> ToyChat<C> {
        pub fn new(client: C, settings: ToySettings, retry: RetryPolicy) -> Self {
            Self { client, settings, retry }
        }
    }
}

/// The toy's table, read by both writers as the crate's `model_table!` is.
macro_rules! toy_table {
    ($then:ident! { $($head:tt)* }) => {
        $then! {
            $($head)*
            ["toy" | "toy-ai"] llm Toy(toy::ToyOptions => toy::ToySettings, model) over Toy(toy::ToyChat::new);
        }
    };
}

toy_table!(model_providers! {
    #[derive(Debug, PartialEq)]
    enum LlmChoice {
        None,
        Custom,
    }
    #[derive(Debug, PartialEq)]
    enum EmbedderChoice {
        None,
    }
});

/// The toy's stand-ins for `AnyLlm` and `AnyEmbedder`: the models the constructors build.
enum AnyLlm<C, X> {
    None,
    Toy(toy::ToyChat<C>),
    #[allow(dead_code)]
    Live(X),
}

enum AnyEmbedder<C, X> {
    None,
    #[allow(dead_code)]
    Live((C, X)),
}

toy_table!(model_constructors! { AnyLlm(LlmChoice), AnyEmbedder(EmbedderChoice); });

fn env(name: &str) -> Option<String> {
    (name == "TOY_API_KEY").then(|| "from-env".to_owned())
}

fn settings(model: &str, api_key: Option<&str>) -> toy::ToySettings {
    toy::ToySettings { model: model.into(), api_key: api_key.map(Into::into) }
}

fn llm(name: &str, config: serde_json::Value) -> Option<Result<LlmChoice>> {
    let env: Env = &env;
    table_llm(name, &Some(config), env)
}

#[test]
fn a_row_reads_its_options_by_name_and_alias() {
    let by_name = llm("toy", json!({"model": "toy-2"})).unwrap().unwrap();
    assert_eq!(by_name, LlmChoice::Toy(settings("toy-2", Some("from-env"))));
    let by_alias = llm("toy-ai", json!({"apiKey": "k"})).unwrap().unwrap();
    assert_eq!(by_alias, LlmChoice::Toy(settings("toy-1", Some("k"))));
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

#[test]
fn a_rows_choice_builds_its_model_and_names_its_provider_and_model() {
    let choice = llm("toy-ai", json!({"model": "toy-3"})).unwrap().unwrap();
    assert_eq!(choice.row_model(), Some(("toy", "toy-3")), "the listed name, not the alias");
    let retry = RetryPolicy { max_retries: 7, ..RetryPolicy::default() };
    let built = AnyLlm::<Recorder, ()>::over_http(&choice, Recorder::replying(201, "this client"), retry);
    let Some(AnyLlm::Toy(chat)) = built else { panic!("expected the toy model") };
    assert_eq!((chat.settings, chat.retry), (settings("toy-3", Some("from-env")), retry));
    assert_eq!(chat.client.replies.borrow()[0].as_ref().unwrap().body, "this client");

    let none = AnyLlm::<Recorder, ()>::over_http(&LlmChoice::None, Recorder::default(), retry);
    assert!(matches!(none, Some(AnyLlm::None)));
    let custom = AnyLlm::<Recorder, ()>::over_http(&LlmChoice::Custom, Recorder::default(), retry);
    assert!(custom.is_none(), "the platform builds it");
    let embedder = AnyEmbedder::<Recorder, ()>::over_http(&EmbedderChoice::None, Recorder::default(), retry);
    assert!(matches!(embedder, Some(AnyEmbedder::None)));
    assert_eq!(LlmChoice::Custom.row_model(), None);
    assert_eq!(EmbedderChoice::None.row_model(), None, "the enum's own choices name no row");
}
