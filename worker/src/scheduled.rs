//! The Cron Trigger (`[triggers] crons` in `wrangler.toml`): in every tenant some token of
//! `MEMORY_TOKENS` names, purges expired memories and decays importance (see `sweep`), with the decay
//! defaults of the vars. A tenant that fails is logged and the others still run.

use worker::{console_error, console_log, event, Env, ScheduleContext, ScheduledEvent};

use crate::error::ApiError;
use crate::sweep::{sweep, Swept};
use crate::{auth, engine, settings};

/// Sweeps one tenant with a fresh engine (so each tenant starts with an empty index).
async fn sweep_tenant(env: &Env, tenant: &str) -> Result<Swept, ApiError> {
    let (engine, _) = engine(env, tenant)?;
    sweep(&engine, settings::decay_defaults(env)?).await
}

#[event(scheduled)]
async fn cron(event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    let tenants = match auth::tenants(&env) {
        Ok(tenants) => tenants,
        Err(error) => return console_error!("memwasm decay ({}): {}: {}", event.cron(), error.code, error.message),
    };
    for tenant in tenants {
        match sweep_tenant(&env, &tenant).await {
            Ok(swept) => console_log!(
                "memwasm decay ({}): tenant {tenant:?}: purged {}, decayed {}, forgotten {}",
                event.cron(),
                swept.purged,
                swept.decayed,
                swept.forgotten
            ),
            Err(error) => {
                console_error!("memwasm decay ({}): tenant {tenant:?}: {}: {}", event.cron(), error.code, error.message)
            }
        }
    }
}
