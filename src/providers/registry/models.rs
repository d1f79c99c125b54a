//! `model_providers!`: the one table of LLM and embedder providers. Each row names a provider (and its
//! aliases) and, per part it serves, the `LlmChoice` / `EmbedderChoice` variant and the options type its
//! `config` is read into; the macro writes the parsing by name and the list of names
//! (docs/dev/extending.md, "A provider").

/// Writes, from one row per provider (`[names] => llm Variant(Options) embedder Variant(Options);`, either
/// part optional, the first name the listed one):
/// - `TABLE`: `(names, serves the LLM, serves the embedder)` per row, in row order;
/// - `table_llm(name, config, env)` and `table_embedder(…)`: the choice a row's name (or alias) makes, its
///   `config` read into the row's options and resolved by their `resolve(env)`; `None` for a name no row
///   serves in that part.
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

        $crate::providers::registry::models::model_providers!(
            @part table_llm, LlmChoice, "llm.config"; $($names $(($llm $llm_options))?),+
        );
        $crate::providers::registry::models::model_providers!(
            @part table_embedder, EmbedderChoice, "embedder.config"; $($names $(($embedder $embedder_options))?),+
        );
    };
    (@part $function:ident, $choice:ident, $field:literal; $($names:tt $(($variant:ident $options:ty))?),+) => {
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
    };
    (@all [$first:literal $(| $alias:literal)*]) => {
        &[$first $(, $alias)*]
    };
    (@pattern [$($names:tt)+]) => {
        $($names)+
    };
}

pub(crate) use model_providers;

#[cfg(test)]
#[path = "models_tests.rs"]
mod tests;
