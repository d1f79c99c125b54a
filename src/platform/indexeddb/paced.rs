//! Issuing a commit's requests in turns inside its one transaction. A transaction stays open only while
//! requests are pending or their events are being handled, so a turn cannot end with a timer: when the
//! pace says a turn is due, the writer awaits the first request it issued in that turn (it cannot be done
//! before the turn ends; the browser handles other tasks meanwhile, and the database works on the rest)
//! and goes on in that request's success event. A stop asked for by then aborts the transaction, so
//! nothing of the commit is kept.

use wasm_bindgen::JsValue;
use web_sys::{IdbObjectStore, IdbRequest, IdbTransaction};

use super::outcome::{from_thrown, settled};
use crate::core::error::Result;
use crate::core::pace::{aborted_error, Pace, Phase, Progress};

const CONTEXT: &str = "the write was rolled back";

/// Issues requests in `transaction`, ending turns when `pace` says so.
pub struct PacedWriter<'a> {
    transaction: &'a IdbTransaction,
    pace: &'a dyn Pace,
    /// The first request issued in this turn.
    first: Option<IdbRequest>,
    /// Records issued so far, of `total`.
    done: usize,
    total: usize,
}

impl<'a> PacedWriter<'a> {
    pub fn new(transaction: &'a IdbTransaction, pace: &'a dyn Pace, total: usize) -> Self {
        Self { transaction, pace, first: None, done: 0, total }
    }

    /// `put` (`add`: `add`) of `value` in `store`; `record`: it counts as a record written.
    pub async fn issue(&mut self, store: &IdbObjectStore, value: &JsValue, add: bool, record: bool) -> Result<()> {
        let issued = if add { store.add(value) } else { store.put(value) };
        let request = issued.map_err(|thrown| self.fail(from_thrown(thrown, CONTEXT)))?;
        self.first.get_or_insert(request);
        self.done += usize::from(record);
        self.turn().await
    }

    /// `delete` of `key` in `store`.
    pub async fn delete(&mut self, store: &IdbObjectStore, key: &JsValue) -> Result<()> {
        let request = store.delete(key).map_err(|thrown| self.fail(from_thrown(thrown, CONTEXT)))?;
        self.first.get_or_insert(request);
        self.turn().await
    }

    /// Aborts the transaction (nothing of it is kept) and passes `error` on.
    pub fn fail<E>(&self, error: E) -> E {
        let _ = self.transaction.abort();
        error
    }

    /// Ends the turn when due: reports, awaits the turn's first request, then stops if the caller asked to.
    async fn turn(&mut self) -> Result<()> {
        if !self.pace.due() {
            return Ok(());
        }
        self.pace.report(Progress { phase: Phase::Write, done: self.done, total: self.total });
        if let Some(request) = self.first.take() {
            settled(Ok(request), CONTEXT).await.map_err(|error| self.fail(error))?;
        }
        self.pace.resumed();
        if self.pace.aborted() {
            return Err(self.fail(aborted_error()));
        }
        Ok(())
    }
}
