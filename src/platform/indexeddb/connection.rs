//! One open connection per storage, opened on first use. When another tab upgrades or deletes the
//! database (`versionchange`), the connection closes itself so it never blocks them; the next call then
//! reopens it.

use std::cell::RefCell;
use std::future::IntoFuture;
use std::rc::Rc;

use futures_util::future::{select, Either};
use idb::request::OpenDatabaseRequest;
use idb::{Database, Factory, Transaction, TransactionMode};
use js_sys::{Function, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbObjectStore, IdbOpenDbRequest, IdbTransaction};

use super::blocked;
use super::outcome::{from_idb, from_thrown};
use super::schema::{upgrade, GONE, IMAGE, MEMORIES, PACKS, VECTORS, VERSION};
use crate::core::error::{MemoryError, Result};

/// A lazily opened, self-closing connection to one database.
pub struct Connection {
    name: String,
    database: RefCell<Option<Rc<Database>>>,
}

/// The stores of one readonly transaction (a consistent snapshot), and the database handle it was opened on.
pub struct Reading {
    pub memories: IdbObjectStore,
    pub vectors: IdbObjectStore,
    pub image: IdbObjectStore,
    pub gone: IdbObjectStore,
    pub packs: IdbObjectStore,
    /// The open database: a write on it (not on a reopened one) fails once the database was deleted.
    pub database: IdbDatabase,
}

impl Reading {
    /// The stores of a readonly transaction on `database` as it is: `None` once it was closed (deleted
    /// or upgraded by another tab since), never reopened.
    pub fn on(database: &IdbDatabase) -> Option<Result<Self>> {
        let names: js_sys::Array = READ.iter().map(|name| wasm_bindgen::JsValue::from_str(name)).collect();
        database.transaction_with_str_sequence(&names).ok().map(|transaction| Self::of(&transaction))
    }

    fn of(transaction: &IdbTransaction) -> Result<Self> {
        let store = |name| transaction.object_store(name).map_err(|thrown| from_thrown(thrown, READ_CONTEXT));
        let (memories, vectors, image, gone) = (store(MEMORIES)?, store(VECTORS)?, store(IMAGE)?, store(GONE)?);
        Ok(Self { memories, vectors, image, gone, packs: store(PACKS)?, database: transaction.db() })
    }
}

/// The stores a `Reading` holds.
const READ: [&str; 5] = [MEMORIES, VECTORS, IMAGE, GONE, PACKS];

/// What a failed read left behind, for its error.
pub const READ_CONTEXT: &str = "nothing was read";

impl Connection {
    /// The stores opening reads, in one readonly transaction.
    pub async fn read_stores(&self) -> Result<Reading> {
        let transaction = self.transaction(&READ, TransactionMode::ReadOnly).await?;
        Reading::of(&IdbTransaction::from(transaction))
    }

    /// A connection to `name`, not opened yet.
    pub fn new(name: &str) -> Self {
        Self { name: name.to_owned(), database: RefCell::new(None) }
    }

    /// A transaction over `stores`, reopening the database if a `versionchange` closed it.
    pub async fn transaction(&self, stores: &[&str], mode: TransactionMode) -> Result<Transaction> {
        let database = self.database().await?;
        match database.transaction(stores, mode) {
            Ok(transaction) => Ok(transaction),
            Err(_) => {
                // Closed by a `versionchange`: forget it (unless a concurrent call already reopened) and reopen.
                let current = self.database.borrow().clone();
                if current.is_some_and(|current| Rc::ptr_eq(&current, &database)) {
                    self.database.replace(None);
                }
                let database = self.database().await?;
                database.transaction(stores, mode).map_err(|error| from_idb(&error, "nothing was read or written"))
            }
        }
    }

    async fn database(&self) -> Result<Rc<Database>> {
        if let Some(database) = self.database.borrow().clone() {
            return Ok(database);
        }
        let database = Rc::new(open(&self.name).await?);
        self.database.replace(Some(database.clone()));
        Ok(database)
    }
}

/// Opens `name` at the current schema version, upgrading it on the way when it is older; gives up when a
/// connection that does not let go blocks the upgrade (see `blocked`).
pub async fn open(name: &str) -> Result<Database> {
    let unavailable = |why: &str| MemoryError::StorageUnavailable(format!("IndexedDB {why}; nothing was stored"));
    let factory =
        Factory::new().map_err(|_| unavailable("is not available here (private mode, Node, a Worker without it)"))?;
    let request = factory.open(name, Some(VERSION)).map_err(|error| from_idb(&error, "could not open the database"))?;
    let raw = IdbOpenDbRequest::from(request);
    let mut request = OpenDatabaseRequest::from(raw.clone());
    request.on_upgrade_needed(|event| {
        use idb::event::{DatabaseEvent, Event};
        use idb::request::Request;
        let transaction = event.target().ok().and_then(|request| request.transaction());
        let migrated = match (event.database(), event.old_version(), &transaction) {
            (Ok(database), Ok(old_version), Some(transaction)) => upgrade(&database, transaction, old_version).is_ok(),
            _ => false,
        };
        if !migrated {
            // The open then fails (AbortError) and the database keeps its old layout.
            if let Some(transaction) = transaction {
                let _ = transaction.abort();
            }
        }
    });
    let gave_up = JsFuture::from(blocked::given_up(&raw));
    let opened = match select(request.into_future(), gave_up).await {
        Either::Left((opened, _)) => opened,
        Either::Right(_) => {
            blocked::abandon(&raw);
            return Err(blocked::blocked_error(name, VERSION));
        }
    };
    let database = opened.map_err(|error| match &error {
        idb::Error::DomException(exception) if exception.name() == "VersionError" => MemoryError::Storage(format!(
            "database \"{name}\" was written by a newer memwasm (schema newer than version {VERSION}); nothing was read"
        )),
        other => from_idb(other, "could not open the database"),
    })?;
    Ok(close_on_version_change(database))
}

/// Makes the connection close itself when another connection needs a new version or a deletion.
/// The handler is the connection's own `close`, bound in JS: no Rust closure to keep alive.
fn close_on_version_change(database: Database) -> Database {
    let raw = IdbDatabase::from(database);
    if let Ok(close) = Reflect::get(&raw, &"close".into()).map(JsCast::unchecked_into::<Function>) {
        raw.set_onversionchange(Some(&close.bind0(&raw)));
    }
    Database::from(raw)
}
