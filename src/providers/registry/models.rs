//! `model_providers!` and `model_constructors!`: the writers of the one table of LLM and embedder providers
//! (`model_table!` in `config/choice.rs`). Each row names a provider (and its aliases) and, per part it
//! serves, the `LlmChoice` / `EmbedderChoice` variant, the options its `config` is read into, the settings
//! they resolve to, the settings' model field and, for a model reached over HTTP, its constructor
//! (docs/dev/extending.md, "A provider").
//!
//! A row, either part optional, the first name the listed one:
//!
//! ```ignore
//! ["gemini" | "google"]
//!     llm Gemini(GeminiLlmOptions => GeminiChatSettings, model) over Gemini(crate::providers::gemini::GeminiChat::new)
//!     embedder Gemini(GeminiEmbedderOptions => GeminiEmbedderSettings, model) over Gemini(…);
//! ```
//!
//! A part without `over` is built by the platform (a binding, a callback): its `over_http` is `None`.

/// Writes, from the table's rows and the choice enums' own variants (`enum LlmChoice { None, Custom, }` and
/// `enum EmbedderChoice { … }`, written before the rows):
/// - the two choice enums: their own variants, then one per row serving the part, holding the settings its
///   options resolve to;
/// - `TABLE`: `(names, serves the LLM, serves the embedder)` per row, in row order;
/// - `table_llm(name, config, env)` and `table_embedder(…)`: the choice a row's name (or alias) makes, its
///   `config` read into the row's options and resolved by their `resolve(env)`; `None` for a name no row
///   serves in that part;
/// - `row_model()` on each choice: a row's first name and its settings' model (`None` for the enum's own
///   variants), as `observe` events and the store's record of the embedding model name them.
macro_rules! model_providers {
    (
        $(#[$llm_meta:meta])* $llm_vis:vis enum $llm_choice:ident { $($llm_own:tt)* }
        $(#[$embedder_meta:meta])* $embedder_vis:vis enum $embedder_choice:ident { $($embedder_own:tt)* }
        $(
            [$($name:literal)|+]
            $(llm $llm:ident($llm_options:ty => $llm_settings:ty, $($llm_model:ident).+)
                $(over $llm_any_variant:ident($llm_new:path))?)?
            $(embedder $embedder:ident($embedder_options:ty => $embedder_settings:ty, $($embedder_model:ident).+)
                $(over $embedder_any_variant:ident($embedder_new:path))?)?;
        )+
    ) => {
        $(#[$llm_meta])*
        $llm_vis enum $llm_choice {
            $($llm_own)*
            $($($llm($llm_settings),)?)+
        }

        $(#[$embedder_meta])*
        $embedder_vis enum $embedder_choice {
            $($embedder_own)*
            $($($embedder($embedder_settings),)?)+
        }

        /// The table's providers, `(names, llm, embedder)`, in row order: the first name is the one errors list.
        pub(crate) const TABLE: &[(&[&str], bool, bool)] = &[$((
            &[$($name),+],
            false $(|| { let _ = stringify!($llm); true })?,
            false $(|| { let _ = stringify!($embedder); true })?,
        ),)+];

        $crate::providers::registry::models::model_providers!(
            @part table_llm, $llm_choice, "llm.config";
            $([$($name)|+] $(($llm $llm_options; $($llm_model).+))?),+
        );
        $crate::providers::registry::models::model_providers!(
            @part table_embedder, $embedder_choice, "embedder.config";
            $([$($name)|+] $(($embedder $embedder_options; $($embedder_model).+))?),+
        );
    };
    (@part $function:ident, $choice:ident, $field:literal;
        $($names:tt $(($variant:ident $options:ty; $($model:ident).+))?),+) => {
        /// The choice a row serving `name` in this part makes of `config` (`config` and `env` go unused in a
        /// part no row serves).
        #[allow(unused_variables)]
        fn $function(
            name: &str,
            config: &Option<serde_json::Value>,
            env: $crate::providers::shared::keys::Env,
        ) -> Option<$crate::core::error::Result<$choice>> {
            match name {
                $($($crate::providers::registry::models::model_providers!(@pattern $names) => Some(
                    $crate::core::config::provider_options::<$options>(config, $field)
                        .and_then(|options| options.resolve(env))
                        .map($choice::$variant),
                ),)?)+
                _ => None,
            }
        }

        // The wasm32 platform names its models with it (the LLM's only for the full module's `observe`).
        #[cfg_attr(not(all(target_arch = "wasm32", feature = "extras")), allow(dead_code))]
        impl $choice {
            /// The provider's listed name and its model, for a choice a row makes; `None` for the enum's own.
            #[allow(unreachable_patterns)]
            pub(crate) fn row_model(&self) -> Option<(&'static str, &str)> {
                match self {
                    $($(Self::$variant(settings) => Some((
                        $crate::providers::registry::models::model_providers!(@first $names),
                        &settings.$($model).+,
                    )),)?)+
                    _ => None,
                }
            }
        }
    };
    (@first [$first:literal $(| $alias:literal)*]) => {
        $first
    };
    (@pattern [$($names:tt)+]) => {
        $($names)+
    };
}

/// Writes `over_http(choice, client, retry)` on the LLM and the embedder enums named first
/// (`AnyLlm(LlmChoice), AnyEmbedder(EmbedderChoice);`): the enum's `None` for the choice's `None`, the
/// row's `over Variant(constructor)` called with the client, a copy of the settings and the retry policy,
/// and `None` (left to the platform) for a part without `over` and the choice's other own variants.
macro_rules! model_constructors {
    (
        $llm_any:ident($llm_choice:ident), $embedder_any:ident($embedder_choice:ident);
        $(
            [$($name:literal)|+]
            $(llm $llm:ident($llm_options:ty => $llm_settings:ty, $($llm_model:ident).+)
                $(over $llm_any_variant:ident($llm_new:path))?)?
            $(embedder $embedder:ident($embedder_options:ty => $embedder_settings:ty, $($embedder_model:ident).+)
                $(over $embedder_any_variant:ident($embedder_new:path))?)?;
        )+
    ) => {
        $crate::providers::registry::models::model_constructors!(
            @part $llm_any, $llm_choice; $($($($llm $llm_any_variant($llm_new))?)?)+
        );
        $crate::providers::registry::models::model_constructors!(
            @part $embedder_any, $embedder_choice; $($($($embedder $embedder_any_variant($embedder_new))?)?)+
        );
    };
    (@part $any:ident, $choice:ident; $($variant:ident $model:ident($new:path))*) => {
        impl<C: $crate::http::HttpClient, X> $any<C, X> {
            /// The model `choice` names, reached through `client`; `None` for choices the platform builds.
            #[allow(unused_variables)]
            pub fn over_http(choice: &$choice, client: C, retry: $crate::http::RetryPolicy) -> Option<Self> {
                Some(match choice {
                    $choice::None => Self::None,
                    $($choice::$variant(settings) => Self::$model($new(client, settings.clone(), retry)),)*
                    #[allow(unreachable_patterns)]
                    _ => return None,
                })
            }
        }
    };
}

pub(crate) use {model_constructors, model_providers};

#[cfg(test)]
#[path = "models_tests.rs"]
mod tests;
