//! Turns held against the other tabs on one database (`Storage::hold`): a Web Lock (`navigator.locks`)
//! named after the database and the key, let go when the guard is dropped, or by the browser when the tab
//! holding it goes away. Once it has the lock, a tab reads the database's change counter and waits until
//! the other tabs' notices (`tab_sync`) of every change up to it are read into its index: the previous
//! holder announced its write before letting go, but the browser may grant the lock before it delivers
//! that notice. A notice that never comes (a tab closed between its commit and its notice, or an older
//! memwasm, whose notices carry no change number) is waited for [`LONGEST_WAIT_MS`] at most, once.
//! Without Web Locks there is nothing to hold against (`None`).

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::connection::READ_CONTEXT;
use super::journal::Changes;
use super::Shared;
use crate::core::error::{MemoryError, Result};
use crate::core::storage::SharedTurn;

/// Holds `key` against the other tabs on database `db_name` until the guard is dropped; `None` without
/// Web Locks.
pub async fn hold(shared: &Shared, db_name: &str, key: &str) -> Result<Option<SharedTurn>> {
    let turn = web_lock(&format!("memwasm:{db_name}:{key}")).await?;
    if turn.is_some() {
        catch_up(shared).await;
    }
    Ok(turn)
}

/// The longest a turn waits for the notices of changes the database already holds.
pub const LONGEST_WAIT_MS: f64 = 500.0;
/// How often a waiting turn looks again.
const POLL_MS: f64 = 5.0;

/// Waits until every change the database holds now has been read into the index (at most `LONGEST_WAIT_MS`).
/// A counter that cannot be read (the database closed under it) leaves the notices received so far.
async fn catch_up(shared: &Shared) {
    let counter = match shared.connection.read_stores().await {
        Ok(stores) => Changes::read(&stores.image, READ_CONTEXT).await,
        Err(error) => Err(error),
    };
    let Ok(Changes { last, .. }) = counter else { return super::read_notices(shared).await };
    let started = js_sys::Date::now();
    loop {
        super::read_notices(shared).await;
        if shared.seen.borrow().covers(last) {
            return;
        }
        if js_sys::Date::now() - started >= LONGEST_WAIT_MS {
            shared.seen.borrow_mut().reset(last); // not coming: take turns as before, and not wait for it again
            return;
        }
        let tick = Promise::new(&mut |done, _| drop(crate::platform::timer::set_timeout(&done, POLL_MS)));
        let _ = JsFuture::from(tick).await;
    }
}

/// Holds the Web Lock `name` until the guard is dropped; `None` without Web Locks.
async fn web_lock(name: &str) -> Result<Option<SharedTurn>> {
    let locks = Reflect::get(&js_sys::global(), &"navigator".into())
        .and_then(|navigator| Reflect::get(&navigator, &"locks".into()))
        .ok()
        .filter(JsValue::is_object);
    let Some(locks) = locks else { return Ok(None) };
    let request = Reflect::get(&locks, &"request".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
    let Some(request) = request else { return Ok(None) };
    let (mut release, mut granted, mut refused) = (None, None, None);
    let held = Promise::new(&mut |resolve, _| release = Some(resolve));
    let grant = Promise::new(&mut |resolve, reject| (granted, refused) = (Some(resolve), Some(reject)));
    let (Some(release), Some(granted), Some(refused)) = (release, granted, refused) else { return Ok(None) };
    let on_grant = Closure::once_into_js(move |_lock: JsValue| {
        let _ = granted.call0(&JsValue::NULL);
        held
    });
    let failed = |e: JsValue| MemoryError::StorageUnavailable(format!("navigator.locks.request({name}): {e:?}"));
    let requested = request.call2(&locks, &name.into(), &on_grant).map_err(failed)?;
    // The request's promise settles once: when the lock is let go, or refused without a grant (a sandboxed
    // page's SecurityError), which must not leave `grant` waiting for good.
    let settled = Closure::once_into_js(move |why: JsValue| {
        let _ = refused.call1(&JsValue::NULL, &why);
    });
    let then = Reflect::get(&requested, &"then".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
    if let Some(then) = then {
        let _ = then.call2(&requested, &settled, &settled);
    }
    if JsFuture::from(grant).await.is_err() {
        return Ok(None); // refused: this instance still takes turns with its own adds
    }
    Ok(Some(Box::new(Release(release))))
}

/// Lets the Web Lock go when dropped.
struct Release(Function);

impl Drop for Release {
    fn drop(&mut self) {
        let _ = self.0.call0(&JsValue::NULL);
    }
}
