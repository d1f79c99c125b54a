//! Issuing a commit's requests in turns inside its one transaction. A transaction stays open only while
//! requests are pending or their events are being handled, so a turn cannot end with a timer. When the
//! pace says a turn is due, the writer issues one more request, a read of a key that does not exist, and
//! goes on in its success event: the database answers it after every write issued before it, in a task
//! of its own (awaiting an earlier write is not enough: Chromium may hand the answers to many requests
//! over in one task). A stop, checked after every request, aborts the transaction: nothing of it is kept.

use wasm_bindgen::JsValue;
use web_sys::{IdbObjectStore, IdbTransaction};

use super::outcome::{from_thrown, settled};
use crate::core::error::Result;
use crate::core::pace::{aborted_error, Pace, Phase, Progress};

const CONTEXT: &str = "the write was rolled back";

/// The key the turn-ending read asks for: ids are never empty.
const NO_KEY: &str = "";

/// Issues requests in `transaction`, ending turns when `pace` says so.
pub struct PacedWriter<'a> {
    transaction: &'a IdbTransaction,
    /// Where the turn-ending read goes (the memories store).
    turns: IdbObjectStore,
    pace: &'a dyn Pace,
    /// Records issued so far, of `total`.
    done: usize,
    total: usize,
}

impl<'a> PacedWriter<'a> {
    pub fn new(transaction: &'a IdbTransaction, turns: IdbObjectStore, pace: &'a dyn Pace, total: usize) -> Self {
        Self { transaction, turns, pace, done: 0, total }
    }

    /// `put` (`add`: `add`) of `value` in `store`, which counts as `records` records written.
    pub async fn issue(&mut self, store: &IdbObjectStore, value: &JsValue, add: bool, records: usize) -> Result<()> {
        let issued = if add { store.add(value) } else { store.put(value) };
        issued.map_err(|thrown| self.fail(from_thrown(thrown, CONTEXT)))?;
        self.done += records;
        self.turn().await
    }

    /// `put` of `value` under `key` in `store` (a store with out-of-line keys).
    pub async fn put_keyed(&mut self, store: &IdbObjectStore, value: &JsValue, key: &JsValue) -> Result<()> {
        store.put_with_key(value, key).map_err(|thrown| self.fail(from_thrown(thrown, CONTEXT)))?;
        self.turn().await
    }

    /// `delete` of `key` in `store`.
    pub async fn delete(&mut self, store: &IdbObjectStore, key: &JsValue) -> Result<()> {
        store.delete(key).map_err(|thrown| self.fail(from_thrown(thrown, CONTEXT)))?;
        self.turn().await
    }

    /// Aborts the transaction (nothing of it is kept) and passes `error` on.
    pub fn fail<E>(&self, error: E) -> E {
        let _ = self.transaction.abort();
        error
    }

    /// Ends the turn when due (reports, awaits the turn-ending read), then stops if the caller asked to:
    /// after every request, so a stop that came while the commit awaited the database is never carried
    /// past the commit by a last turn too short to fall due.
    async fn turn(&mut self) -> Result<()> {
        if self.pace.due() {
            self.pace.report(Progress { phase: Phase::Write, done: self.done, total: self.total });
            let read = self.turns.get(&JsValue::from_str(NO_KEY));
            settled(read, CONTEXT).await.map_err(|error| self.fail(error))?;
            self.pace.resumed();
        }
        if self.pace.aborted() {
            return Err(self.fail(aborted_error()));
        }
        Ok(())
    }
}
