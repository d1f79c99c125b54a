//! Memory lifecycle through the engine, natively, with a movable clock: TTL, pinning, decay, limits, keys,
//! sharing, soft deletion and pagination. Storage is the in-RAM `KeepingStorage`, so every write's
//! changeset (and its history) is what a real storage would commit.
#![cfg(not(target_arch = "wasm32"))]

mod forgetting;
mod keys;
mod rig;
mod visibility;
