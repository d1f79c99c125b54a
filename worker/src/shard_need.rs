//! What a route needs of scope sharding (`DO_SHARDS = "scope"`, see `durable::shard`): every route declares
//! one, so the front end and the tenant's object route each by its declaration, and none is left out.

/// Where a route names its user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// `user_id` in the JSON body.
    Body,
    /// `user_id` in the query string.
    Query,
}

/// What the tenant's object does with a route that names no user (or `"__all__"`, any user).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unnamed {
    /// 400 `USER_ID_REQUIRED`: every memory belongs to a user.
    Required,
    /// Every user's object in turn, their answers merged (`durable::across`).
    Across,
    /// One user's export per call, with a cursor to the next user.
    ExportPages,
}

/// How a route is served when each user has an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardNeed {
    /// One scope: the object of the user it names in `place`; naming none, as `unnamed` says.
    User { place: Place, unnamed: Unnamed },
    /// One memory by id: the tenant's directory sends it to the user's object that holds it.
    ById,
    /// The whole tenant: every user's object in turn, then the directory.
    EveryUser,
    /// Not served (501 `NOT_SHARDED`).
    Unsharded,
}

impl ShardNeed {
    /// Its name in the route listing.
    pub fn name(self) -> &'static str {
        match self {
            Self::User { unnamed: Unnamed::Required, .. } => "user",
            Self::User { unnamed: Unnamed::Across, .. } => "user-or-across",
            Self::User { unnamed: Unnamed::ExportPages, .. } => "user-or-export-pages",
            Self::ById => "by-id",
            Self::EveryUser => "every-user",
            Self::Unsharded => "unsharded",
        }
    }
}
