//! The registration tables of the extension points: `storage_backends!` writes a storage enum from one row
//! per backend. Adding a backend or a provider is one folder plus one row (docs/dev/extending.md).

pub mod storage;
