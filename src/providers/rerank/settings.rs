//! `reranker: {provider, config}`: mem0's names (`cohere`, `jina`, `voyage`, `llm_reranker`), its options
//! (`apiKey`, `model`, `topK`) and `baseUrl` for a proxy or a compatible server; `custom`, the app's own
//! `rerank(query, documents)` function (the package's on-device cross-encoder is one). mem0's rerankers that run a
//! local model (`sentence_transformer`, `huggingface`, …) are `INVALID_CONFIG` naming the ones served here, or,
//! under `unknownKeys: "warn"` (`memwasm/mem0`), a startup warning and no reranker.

use serde::Deserialize;

use crate::core::config::{ignored, invalid, provider_options, unknown_provider, ProviderConfig};
use crate::core::error::Result;
use crate::core::rerank::DEFAULT_TOP_K;
use crate::http::HostWatch;
use crate::providers::config::Env;
use crate::providers::config::{take_bounds, DEFAULT_EMBEDDER_TIMEOUT_MS};
use crate::providers::shared::fields::http_url;
use crate::providers::shared::keys::is_default;

/// A rerank service's API: where it is, its default model, its key's variable, the request's count field
/// and the reply's list field (`[{index, relevance_score}]`).
#[derive(Debug, PartialEq)]
pub struct Dialect {
    pub names: &'static [&'static str],
    pub base_url: &'static str,
    pub path: &'static str,
    pub model: &'static str,
    pub env_var: &'static str,
    pub count_field: &'static str,
    pub list_field: &'static str,
}

/// The rerank services: Cohere's v2 API, Jina's, Voyage's (mem0's default models).
pub const DIALECTS: &[Dialect] = &[
    Dialect {
        names: &["cohere"],
        base_url: "https://api.cohere.com",
        path: "v2/rerank",
        model: "rerank-english-v3.0",
        env_var: "COHERE_API_KEY",
        count_field: "top_n",
        list_field: "results",
    },
    Dialect {
        names: &["jina"],
        base_url: "https://api.jina.ai",
        path: "v1/rerank",
        model: "jina-reranker-v2-base-multilingual",
        env_var: "JINA_API_KEY",
        count_field: "top_n",
        list_field: "results",
    },
    Dialect {
        names: &["voyage", "voyageai"],
        base_url: "https://api.voyageai.com",
        path: "v1/rerank",
        model: "rerank-2",
        env_var: "VOYAGE_API_KEY",
        count_field: "top_k",
        list_field: "data",
    },
];

/// The LLM reranker's names (mem0's first).
const LLM_NAMES: [&str; 2] = ["llm_reranker", "llm"];

/// The app's own function, `reranker.rerank` (a live value, like `embedder.embed`).
const CUSTOM: &str = "custom";

/// mem0's rerankers that run a model locally through Python, which a browser or Worker cannot (the package's
/// `"local"` reranker is rewritten into `"custom"` before the config reaches here).
const LOCAL: [&str; 4] = ["sentence_transformer", "huggingface", "zero_entropy", "fastembed"];

/// `reranker.config`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RerankerConfig {
    #[serde(alias = "api_key")]
    pub api_key: Option<String>,
    pub model: Option<String>,
    #[serde(alias = "top_k")]
    pub top_k: Option<f64>,
    #[serde(alias = "base_url", alias = "baseURL")]
    pub base_url: Option<String>,
    /// mem0's `llm_reranker` takes an LLM of its own; here it asks the memory's `llm`.
    pub llm: Option<serde_json::Value>,
}

/// A rerank service's resolved settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceSettings {
    pub dialect: &'static Dialect,
    pub url: String,
    pub api_key: Option<String>,
    pub model: String,
    pub top_k: usize,
    /// `reranker.config.timeoutMs` (default the embedder's 30 s), `connectTimeoutMs`, `coolDownMs`.
    pub timeout_ms: Option<u32>,
    pub watch: HostWatch,
}

/// The reranker the config picked.
#[derive(Debug, Clone, PartialEq)]
pub enum RerankerChoice {
    /// The configured LLM, asked for scores.
    Llm {
        top_k: usize,
    },
    Service(ServiceSettings),
    /// The app's `rerank(query, documents)`, bounded by `reranker.config.timeoutMs` when given.
    Custom {
        top_k: usize,
        timeout_ms: Option<u32>,
    },
}

impl RerankerChoice {
    /// How many of a ranking's first results are reranked.
    pub fn top_k(&self) -> usize {
        match self {
            Self::Llm { top_k } | Self::Custom { top_k, .. } => *top_k,
            Self::Service(settings) => settings.top_k,
        }
    }

    /// The provider's name, as warnings give it.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Llm { .. } => LLM_NAMES[0],
            Self::Custom { .. } => CUSTOM,
            Self::Service(settings) => settings.dialect.names[0],
        }
    }
}

/// Every name `reranker.provider` takes, in the order errors list them.
fn names() -> Vec<&'static str> {
    DIALECTS.iter().flat_map(|d| d.names.first().copied()).chain([LLM_NAMES[0], CUSTOM]).collect()
}

/// `reranker` resolved: its provider and options read and checked; `has_llm` says whether an LLM is configured
/// (the LLM reranker needs one). With `lenient` (`unknownKeys: "warn"`) given, what the library cannot use is
/// pushed there as a startup warning instead of being `INVALID_CONFIG`: a local-model reranker gives no reranker.
pub fn reranker_choice(
    mut part: ProviderConfig,
    env: Env,
    has_llm: bool,
    mut lenient: Option<&mut Vec<String>>,
) -> Result<Option<RerankerChoice>> {
    let name = part.provider.clone();
    if part.dimensions.is_some() {
        return Err(invalid("reranker.dimensions", "unknown field (only a custom embedder takes dimensions)"));
    }
    if LOCAL.contains(&name.as_str()) {
        let why = format!(
            "\"{name}\" runs a model locally, which this library cannot; use one of {} (\"llm_reranker\" asks the \
             configured llm, \"custom\" calls your rerank function; in browsers and Node, \"local\" runs a \
             cross-encoder on the device)",
            names().join(", ")
        );
        let Some(warnings) = lenient else { return Err(invalid("reranker.provider", why)) };
        warnings.push(ignored("reranker", &format!("{why}; searches are not reranked (no reranker configured)")));
        return Ok(None);
    }
    if name == "local" {
        let why = "\"local\" (the on-device cross-encoder) is not available here: it runs in Node and browsers \
                   through the npm package's `memwasm` import, not in Cloudflare Workers. In a Worker use \"cohere\", \
                   \"jina\", \"voyage\", \"llm_reranker\" or \"custom\" with your own rerank function";
        return Err(invalid("reranker.provider", why));
    }
    let dialect = DIALECTS.iter().find(|d| d.names.contains(&name.as_str()));
    if dialect.is_none() && !LLM_NAMES.contains(&name.as_str()) && name != CUSTOM {
        return Err(unknown_provider("reranker.provider", &name, &names()));
    }
    let bounds = take_bounds(&mut part, "reranker", DEFAULT_EMBEDDER_TIMEOUT_MS)?;
    let options: RerankerConfig = provider_options(&part.config, "reranker.config")?;
    let top_k = crate::core::read::positive_whole("reranker.config.topK", options.top_k, DEFAULT_TOP_K)
        .map_err(|e| invalid("reranker.config.topK", e.to_string()))?;
    if name == CUSTOM {
        let services = [
            ("apiKey", options.api_key.is_some()),
            ("model", options.model.is_some()),
            ("baseUrl", options.base_url.is_some()),
            ("llm", options.llm.is_some()),
        ];
        if let Some((field, _)) = services.into_iter().find(|(_, given)| *given) {
            let why = "the custom reranker is the app's rerank function; it takes only topK and timeoutMs";
            return Err(invalid(&format!("reranker.config.{field}"), why));
        }
        return Ok(Some(RerankerChoice::Custom { top_k, timeout_ms: bounds.timeout_ms }));
    }
    let Some(dialect) = dialect else {
        if !has_llm {
            return Err(invalid("reranker.provider", "\"llm_reranker\" asks the configured llm, and llm.provider is \"none\"; configure an llm or another reranker"));
        }
        let own = [
            ("llm", options.llm.is_some()),
            ("apiKey", options.api_key.is_some()),
            ("model", options.model.is_some()),
            ("baseUrl", options.base_url.is_some()),
        ];
        for (field, _) in own.into_iter().filter(|(_, given)| *given) {
            let (path, why) = (
                format!("reranker.config.{field}"),
                "the LLM reranker uses the memory's own llm; set it in llm.config",
            );
            match lenient.as_deref_mut() {
                Some(warnings) => warnings.push(ignored(&path, why)),
                None => return Err(invalid(&path, why)),
            }
        }
        return Ok(Some(RerankerChoice::Llm { top_k }));
    };
    if options.llm.is_some() {
        return Err(invalid("reranker.config.llm", "only the \"llm_reranker\" takes an llm"));
    }
    let base = http_url("reranker.config.baseUrl", options.base_url, dialect.base_url)?;
    let hosted = is_default(&base, dialect.base_url);
    let key = options.api_key.or_else(|| env(dialect.env_var)).filter(|key| !key.trim().is_empty());
    if key.is_none() && hosted {
        let why = format!(
            "the \"{}\" reranker needs an API key and none was given: pass reranker.config.apiKey (or set {} in \
             Node), or reranker.config.baseUrl for a proxy that adds it",
            dialect.names[0], dialect.env_var
        );
        return Err(invalid("reranker.config.apiKey", why));
    }
    Ok(Some(RerankerChoice::Service(ServiceSettings {
        dialect,
        url: crate::providers::shared::request::endpoint(&base, dialect.path),
        api_key: key,
        model: crate::core::config::non_empty("reranker.config.model", options.model, dialect.model)?,
        top_k,
        timeout_ms: bounds.timeout_ms,
        watch: bounds.watch,
    })))
}
