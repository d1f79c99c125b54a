//! The messages of a group still waiting for a boundary, read from its buffer (the library's side record
//! `message-buffer` / `<groupId>`) without changing it.

use memwasm::core::conversations::buffer::{GroupBuffer, BUFFER_KIND};
use memwasm::core::conversations::message::default_group;
use memwasm::core::conversations::PendingMessage;
use memwasm::platform::compose::Engine;

use super::envelope::Failure;

/// The pending messages of `group`, else of `user`'s default group (`default:<user>`); none without either.
pub async fn pending_of(
    engine: &Engine,
    group: Option<&str>,
    user: Option<&str>,
) -> Result<Vec<PendingMessage>, Failure> {
    let group = match (group, user) {
        (Some(group), _) => group.to_owned(),
        (None, Some(user)) => default_group(user),
        (None, None) => return Ok(Vec::new()),
    };
    let record = engine.side_record(BUFFER_KIND, &group).await?;
    Ok(GroupBuffer::decode(&group, record)?.messages)
}
