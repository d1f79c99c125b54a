//! One tenant's run of the Cron Trigger (`[triggers] crons` in `wrangler.toml`, the event in `lib.rs`, for
//! every tenant some token of `MEMORY_TOKENS` names): purges expired memories and decays importance (see
//! `sweep`), with the decay defaults of the vars, then dreams over the scopes with new journal turns (see
//! `dreams`). A tenant that fails is logged and the others still run; a failed sweep does not stop the
//! tenant's dreams. With `STORAGE = "do"` each tenant's run happens in its object (`POST /__do/cron`), over
//! its warm engine.

use memwasm::platform::compose::Engine;
use worker::{console_error, console_log, Env};

use crate::dreams::dream_tenant;
use crate::error::ApiError;
use crate::settings;
use crate::sweep::{sweep, Swept};
use crate::tenant_engine::{engine, model_check};

/// Sweeps one tenant.
async fn sweep_tenant(env: &Env, engine: &Engine) -> Result<Swept, ApiError> {
    sweep(engine, settings::decay_defaults(env)?).await
}

/// Sweeps, then dreams in, one tenant with its engine (a fresh one per tenant on KV; the object's own).
pub(crate) async fn run_tenant(env: &Env, cron: &str, tenant: &str, user: Option<&str>, max_scopes: Option<usize>) {
    let engine = match engine(env, tenant, user) {
        Ok((engine, _)) => engine,
        Err(error) => {
            return console_error!("memwasm cron ({cron}): tenant {tenant:?}: {}: {}", error.code, error.message)
        }
    };
    // A changed embedding model is logged (`model_check`): the dreams would embed with it.
    if let Err(error) = model_check::check(env, tenant, user).await {
        console_error!("memwasm cron ({cron}): tenant {tenant:?}: {}: {}", error.code, error.message);
    }
    match sweep_tenant(env, &engine).await {
        Ok(swept) => console_log!(
            "memwasm decay ({cron}): tenant {tenant:?}: purged {}, decayed {}, forgotten {}",
            swept.purged,
            swept.decayed,
            swept.forgotten
        ),
        Err(error) => console_error!("memwasm decay ({cron}): tenant {tenant:?}: {}: {}", error.code, error.message),
    }
    let Some(max_scopes) = max_scopes else { return };
    match dream_tenant(&engine, tenant, max_scopes).await {
        Ok(d) => console_log!(
            "memwasm dream ({cron}): tenant {tenant:?}: dreamed {}, unchanged {}, failed {}, deferred {}",
            d.dreamed,
            d.unchanged,
            d.failed,
            d.deferred
        ),
        Err(error) => console_error!("memwasm dream ({cron}): tenant {tenant:?}: {}: {}", error.code, error.message),
    }
}
