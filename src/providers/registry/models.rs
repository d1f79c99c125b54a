//! `model_providers!`: the one table of LLM and embedder providers. Each row names a provider (and its
//! aliases) and, per part it serves, the `LlmChoice` / `EmbedderChoice` variant and the options type its
//! `config` is read into; the macro writes the parsing by name and the list of names
//! (docs/dev/extending.md, "A provider").

use crate::core::config::provider_options;
use crate::core::error::Result;
use crate::providers::shared::keys::Env;

/// A provider's `llm.config` or `embedder.config`: read from JSON, then resolved to the settings its model
/// is built from. Each provider's folder implements it for its options.
pub trait ProviderOptions: serde::de::DeserializeOwned + Default {
    /// What the provider's model is built from.
    type Settings;

    /// Fills defaults and validates; `env` supplies API-key fallbacks where the platform has them.
    fn settings(self, env: Env) -> Result<Self::Settings>;
}

/// `config` (at `field`) read as `T` and resolved.
pub fn read_settings<T: ProviderOptions>(
    config: &Option<serde_json::Value>,
    field: &str,
    env: Env,
) -> Result<T::Settings> {
    provider_options::<T>(config, field)?.settings(env)
}

/// Writes, from one row per provider (`[names] => llm Variant(Options) embedder Variant(Options);`, either
/// part optional, the first name the listed one):
/// - `TABLE`: `(names, serves the LLM, serves the embedder)` per row, in row order;
/// - `table_llm(name, config, env)` and `table_embedder(…)`: the choice a row's name (or alias) makes, its
///   `config` read into the row's options; `None` for a name no row serves in that part.
macro_rules! model_providers {
    ($(
        $names:tt => $(llm $llm:ident($llm_options:ty))? $(embedder $embedder:ident($embedder_options:ty))?;
    )+) => {
        /// The table's providers, `(names, llm, embedder)`, in row order: the first name is the one errors list.
        pub(crate) const TABLE: &[(&[&str], bool, bool)] = &[$((
            $crate::providers::registry::models::model_providers!(@all $names),
            false $(|| { let _ = stringify!($llm); true })?,
            false $(|| { let _ = stringify!($embedder); true })?,
        ),)+];

        /// The LLM a row serving `name` makes of `config`.
        fn table_llm(
            name: &str,
            config: &Option<serde_json::Value>,
            env: $crate::providers::shared::keys::Env,
        ) -> Option<$crate::core::error::Result<LlmChoice>> {
            use $crate::providers::registry::models::read_settings;
            Some(match name {
                $($($crate::providers::registry::models::model_providers!(@pattern $names) => read_settings::<$llm_options>(config, "llm.config", env).map(LlmChoice::$llm),)?)+
                _ => return None,
            })
        }

        /// The embedder a row serving `name` makes of `config`.
        fn table_embedder(
            name: &str,
            config: &Option<serde_json::Value>,
            env: $crate::providers::shared::keys::Env,
        ) -> Option<$crate::core::error::Result<EmbedderChoice>> {
            use $crate::providers::registry::models::read_settings;
            Some(match name {
                $($($crate::providers::registry::models::model_providers!(@pattern $names) => {
                    read_settings::<$embedder_options>(config, "embedder.config", env).map(EmbedderChoice::$embedder)
                })?)+
                _ => return None,
            })
        }
    };
    (@all [$first:literal $(| $alias:literal)*]) => {
        &[$first $(, $alias)*]
    };
    (@pattern [$($names:tt)+]) => {
        $($names)+
    };
}

pub(crate) use model_providers;
