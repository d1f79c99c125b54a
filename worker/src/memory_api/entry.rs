//! The routes on one entry: store, get, delete, pin.

use memwasm::core::lifecycle::write::LifecycleInput;
use memwasm::core::model::types::Metadata;
use memwasm::platform::compose::Engine;
use memwasm::MemoryError;

use super::bodies::{PinBody, StoreBody};
use super::namespace::Namespace;
use super::wire::{Done, Entry};
use crate::error::ApiError;
use crate::requests::parse;

/// A caller's own vector that the index cannot take is the caller's mistake: 400, with the library's code.
pub fn caller_vector(error: MemoryError) -> ApiError {
    match error {
        MemoryError::DimensionMismatch { .. } | MemoryError::EmbeddingResponse(_) => {
            ApiError::new(400, error.code(), format!("embedding: {error}"))
        }
        other => other.into(),
    }
}

/// Refuses a caller's vector whose length is not the embedder's (`dimensions`, when configured).
pub fn check_length(embedding: &[f32], dimensions: Option<usize>) -> Result<(), ApiError> {
    match dimensions {
        Some(expected) if expected != embedding.len() => {
            Err(caller_vector(MemoryError::DimensionMismatch { expected, actual: embedding.len() }))
        }
        _ => Ok(()),
    }
}

/// `POST …/store`: upserts the entry. A new key is the caller's; an existing one keeps its owner, and only
/// its owner or an admin may overwrite it (403 otherwise). A reader owns nothing: it stores nothing.
pub async fn store(
    engine: &Engine,
    space: &Namespace<'_>,
    body: &[u8],
    dimensions: Option<usize>,
) -> Result<Done, ApiError> {
    let body: StoreBody = parse(body)?;
    if let Some(embedding) = &body.embedding {
        check_length(embedding, dimensions)?;
    }
    let write = LifecycleInput { ttl: body.ttl, ..LifecycleInput::default() }.check(engine.now_ms())?;
    let scope = match space.owner_of(engine, &body.key).await? {
        Some(existing) if space.may_change(&existing) => existing.scope,
        Some(_) => return Err(ApiError::forbidden(format!("memory entry {:?} belongs to another owner", body.key))),
        None if space.caller.is_reader() => return Err(ApiError::forbidden("a reader token may not store entries")),
        None => space.own_scope(),
    };
    let given = body.embedding.is_some();
    let stored = engine
        .lifecycle()
        .store(&body.key, &body.value, &scope, body.embedding, Metadata::default(), &write)
        .await
        .map_err(|error| if given { caller_vector(error) } else { error.into() })?;
    Ok(Done { warnings: stored.warnings, ..Done::ok() })
}

/// `GET …/:key`.
pub async fn get(engine: &Engine, space: &Namespace<'_>, key: &str) -> Result<Entry, ApiError> {
    Ok(Entry::from(space.locate(engine, key).await?))
}

/// `DELETE …/:key`.
pub async fn delete(engine: &Engine, space: &Namespace<'_>, key: &str) -> Result<Done, ApiError> {
    let item = space.locate_owned(engine, key).await?;
    engine.delete(&item.id, false).await?;
    Ok(Done::ok())
}

/// `POST …/:key/pin` with `{pinned}`.
pub async fn pin(engine: &Engine, space: &Namespace<'_>, key: &str, body: &[u8]) -> Result<Done, ApiError> {
    let PinBody { pinned } = parse(body)?;
    let item = space.locate_owned(engine, key).await?;
    let item = engine.lifecycle().pin(&item.id, pinned).await?;
    Ok(Done { pinned: Some(item.lifecycle.pinned), ..Done::ok() })
}
