//! `STORAGE = "do"`: one Durable Object per tenant (`TenantObject`, SQLite-backed), holding the tenant's
//! warm engine. The Worker front end authenticates and forwards (`front`); the object runs the same route
//! handlers the Worker runs for `STORAGE = "kv"`, over the same key layout (`t/<tenant>/…`, see
//! `memwasm::core::kv::keys`) in its own transactional storage (`object_kv`), so:
//!
//! - the search index and keyword index of each scope a request used stay in memory between requests, both
//!   built before the answer of whatever request loaded the scope (a list or an add too, not only a search);
//! - each commit (memory + history + graph + side records) is one atomic write, durable before the answer;
//! - reads are strongly consistent: one object serves all of a tenant's requests.
//!
//! Per tenant by default: a request names its tenant (its token), but not always its scope
//! (`GET /v1/memories/{id}/`, reset, entities, the cron's sweep span scopes), so one object per tenant
//! serves every route unchanged. A tenant larger than one object takes `DO_SHARDS = "scope"`: one object per
//! user (`shard`), with the tenant's object as the directory of ids and users (`directory`).
//!
//! The object drops its engine after `DO_IDLE_SECONDS` without requests (an alarm) and rebuilds it from
//! storage on the next one. A user's object's alarm also sends the reports to the directory that are still
//! waiting (`outbox`). Routes under `/__do/` reach only the object (the front end never forwards them):
//! the cron's per-tenant run, and with `DO_TEST_HOOKS = "true"` the tests' storage views and faults.

mod across;
mod copy;
pub mod directory;
pub mod front;
mod internal;
mod migrate;
pub mod object_kv;
mod outbox;
pub mod shard;
mod tenant_routes;

use std::cell::{Cell, RefCell};

use memwasm::core::kv::keys::decode_lenient;
use worker::{durable_object, DurableObject, Env, Request, Response, State};

use self::front::Target;
use crate::auth;
use crate::desk::Family;
use crate::error::ApiError;
use crate::later::Later;
use crate::settings::{self, Shards};
use crate::tenant_engine::warm;
use crate::v1::route::V1Route;

/// How long after an answer the object writes the open images that request wanted. Writing one reads the
/// scope again and encodes it (about a second of the object's single thread at 10,000 memories): started
/// at once, it delayed the answer it followed by as much (the bench's cold search, 805 → 1,828 ms), and a
/// burst of requests after a wake comes first.
const IMAGE_AFTER_MS: u64 = 1_000;

/// The header the front end names the tenant in (set by it, never taken from the client).
pub const TENANT_HEADER: &str = "x-memwasm-tenant";

thread_local! {
    static INSTANCES: Cell<u64> = const { Cell::new(0) };
}

/// One tenant's object.
#[durable_object]
pub struct TenantObject {
    state: State,
    env: Env,
    /// This instance, among the objects of the isolate (see `warm`).
    instance: u64,
    /// The warm slot (`shard::object_name` of the tenant and user), once a request named it.
    slot: RefCell<Option<String>>,
    /// Reports to the tenant's directory may be waiting in storage (`outbox`): on a new instance (after a
    /// restart), and after a send failed.
    unsent: Cell<bool>,
    /// When the last request came, in ms since the epoch.
    last_request: Cell<f64>,
    /// An idle alarm is set.
    armed: Cell<bool>,
}

impl TenantObject {
    /// Claims the object's warm slot and, for a request that counts as activity (`touch`), arms the idle alarm.
    async fn enter(&self, target: &Target, touch: bool) -> Result<(), ApiError> {
        let slot = shard::object_name(&target.tenant, target.user.as_deref());
        self.slot.replace(Some(slot.clone()));
        let raw = wasm_bindgen::JsValue::clone(self.state.storage().as_raw());
        let hold_images = settings::flag(&self.env, "DO_TEST_HOOKS", false)?
            && settings::text(&self.env, "DO_TEST_IMAGE_WRITE").as_deref() == Some("hold");
        warm::enter(&slot, self.instance, || {
            object_kv::binding(raw, self.watch(target)?, hold_images).map_err(storage_error)
        })?;
        if !touch {
            return Ok(());
        }
        self.last_request.set(js_sys::Date::now());
        if !self.armed.get() {
            self.state.storage().set_alarm(settings::idle_ms(&self.env)? as i64).await?;
            self.armed.set(true);
        }
        Ok(())
    }

    async fn serve(&self, request: &mut Request) -> Result<Response, ApiError> {
        let tenant = request.headers().get(TENANT_HEADER)?.filter(|tenant| !tenant.is_empty());
        let tenant = tenant.ok_or_else(|| ApiError::invalid(format!("{TENANT_HEADER}: required")))?;
        let user = request.headers().get(shard::SHARD_HEADER)?.map(|user| decode_lenient(&user));
        let target = Target { tenant, user };
        let path = request.path();
        self.enter(&target, !path.starts_with("/__do/") || path == "/__do/cron").await?;
        if let Some(rest) = path.strip_prefix("/__do/") {
            return internal::serve(self, request, &target, rest).await;
        }
        // The forwarded request's route, parsed again by the desk's one parser.
        let family = Family::of(&request.method(), &path, &self.env);
        let route = match &family {
            Some(Family::V1(Some(call))) => Some(call.route),
            _ => None,
        };
        let sharded = settings::shards(&self.env)? == Shards::Scope;
        if sharded && target.user.is_none() {
            return tenant_routes::serve(self, request, &target.tenant, family).await;
        }
        if let (Some(family), Some(V1Route::Migrate), false) = (&family, route, sharded) {
            return migrate::serve(self, request, &target.tenant, family).await;
        }
        // An export that woke a user's object lets it sleep again: a tenant's export visits every user in
        // turn, and their engines would otherwise stay in the isolate's memory until each one's idle alarm.
        let passing = target.user.is_some() && route == Some(V1Route::Export) && !self.is_warm();
        let response = crate::desk::dispatch(request, &self.env, &Later::Object(&self.state), family).await?;
        if target.user.is_some() {
            self.report().await;
        }
        if passing {
            self.evict();
        } else {
            self.prepare_search();
            self.settle_later();
        }
        Ok(response)
    }

    /// What a user's object reports to the directory (`object_kv::Watch`); `None` for the tenant's object.
    fn watch(&self, target: &Target) -> Result<Option<object_kv::Watch>, ApiError> {
        let Some(user) = &target.user else { return Ok(None) };
        let owner = outbox::Owner { tenant: target.tenant.clone(), user: user.clone() };
        let owner = serde_json::to_string(&owner).map_err(|error| ApiError::new(500, "INTERNAL", error.to_string()))?;
        let prefix = format!("{}mem/", auth::tenant_prefix(&target.tenant));
        let alarm_ms = outbox::RETRY_MS.min(settings::idle_ms(&self.env)? as i64);
        Ok(Some(object_kv::Watch { prefix, owner, alarm_ms }))
    }

    /// Sends the directory the reports this request's commits wrote (or earlier ones left: after a restart,
    /// or a failure) before the request is answered; false when it could not take them now (the alarm tries
    /// again).
    async fn report(&self) -> bool {
        let slot = self.slot.borrow().clone();
        let wrote = match slot {
            Some(slot) => warm::take_reported(&slot).await,
            None => false,
        };
        if !wrote && !self.unsent.get() {
            return true;
        }
        match outbox::send(&self.env, &self.state.storage()).await {
            Ok(()) => {
                self.unsent.set(false);
                true
            }
            Err(error) => {
                worker::console_error!("memwasm: the tenant's directory did not take the reports: {}", error.message);
                self.unsent.set(true);
                false
            }
        }
    }

    /// Builds what the next search would otherwise build first (the keyword index of the scopes a list or an
    /// add loaded), before the answer, so the search after any wake is warm. Measured against building it
    /// after the answer (`waitUntil` past a zero timer): a search right after the list still built the
    /// index itself, so only this way is the first search warm. It reads no storage, so nothing it does
    /// can put an older view over a write that commits meanwhile.
    fn prepare_search(&self) {
        if let Some(engine) = self.slot.borrow().as_deref().and_then(warm::built) {
            engine.prepare_search();
        }
    }

    /// [`IMAGE_AFTER_MS`] after the answer (`waitUntil`), what storage left to do: the open images of the
    /// scopes this request read in full, each from a read of its own (`KvStorage::write_images`).
    fn settle_later(&self) {
        let Some(engine) = self.slot.borrow().as_deref().and_then(warm::built) else { return };
        self.state.wait_until(async move {
            worker::Delay::from(std::time::Duration::from_millis(IMAGE_AFTER_MS)).await;
            if let Err(error) = engine.settle_storage(false).await {
                worker::console_error!("memwasm: an open image was not written: {error}");
            }
        });
    }

    /// Before an idle object lets its engine go: the open images of the scopes whose journal grew long
    /// while it was warm (a busy object's commits only add journal entries), so the next wake reads the image.
    async fn settle_idle(&self) {
        let Some(engine) = self.slot.borrow().as_deref().and_then(warm::built) else { return };
        if let Err(error) = engine.settle_storage(true).await {
            worker::console_error!("memwasm: an open image was not written: {error}");
        }
    }

    /// True while the object's engine is built.
    fn is_warm(&self) -> bool {
        self.slot.borrow().as_deref().is_some_and(warm::is_warm)
    }

    /// Drops the warm engine; true when there was one.
    fn evict(&self) -> bool {
        self.slot.borrow().as_deref().is_some_and(|slot| warm::evict(slot, self.instance))
    }
}

/// A storage failure of the object, as a coded error.
fn storage_error(error: wasm_bindgen::JsValue) -> ApiError {
    ApiError::new(503, "STORAGE", format!("durable object storage: {error:?}"))
}

impl DurableObject for TenantObject {
    fn new(state: State, env: Env) -> Self {
        let instance = INSTANCES.with(|n| n.replace(n.get() + 1));
        Self {
            state,
            env,
            instance,
            slot: RefCell::default(),
            unsent: Cell::new(true),
            last_request: Cell::new(0.0),
            armed: Cell::new(false),
        }
    }

    /// Answers `request`, then drains what of its body the answer left unread (an answer before the body
    /// mattered: the directory's 404, `NOT_SHARDED`), so the client's connection stays usable (`settle`).
    async fn fetch(&self, mut request: Request) -> worker::Result<Response> {
        let response = match self.serve(&mut request).await {
            Ok(response) => Ok(response),
            Err(error) => error.response(),
        };
        crate::settle::settle(&mut request, &self.env, response).await
    }

    /// The alarm: sends the reports still waiting (`outbox`), then drops the engine when no request came for
    /// `DO_IDLE_SECONDS`; it fires again while either is left to do.
    async fn alarm(&self) -> worker::Result<Response> {
        self.armed.set(false);
        let retry = !self.report().await;
        let idle = settings::idle_ms(&self.env).unwrap_or(120_000) as f64;
        let mut quiet = js_sys::Date::now() - self.last_request.get();
        if quiet >= idle {
            self.settle_idle().await;
            // A request that came while the images were written keeps the engine.
            quiet = js_sys::Date::now() - self.last_request.get();
        }
        let wait = if quiet >= idle {
            self.evict();
            None
        } else {
            Some((idle - quiet).ceil() as i64)
        };
        let next = match (retry, wait) {
            (true, wait) => Some(wait.map_or(outbox::RETRY_MS, |wait| wait.min(outbox::RETRY_MS))),
            (false, wait) => wait,
        };
        if let Some(ms) = next {
            self.state.storage().set_alarm(ms).await?;
            self.armed.set(true);
        }
        Response::ok("")
    }
}
