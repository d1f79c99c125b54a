//! The library names its options in camelCase (`messageId`, for JS); every route of this worker takes them
//! in snake_case (`message_id`). An error the library raises is reworded with the wire's names, so a caller
//! reads the field it sent. Only these known names change, as whole words: values quoted in a message
//! (an id, a mistyped option) are left as they are.

/// The library's camelCase names that a route takes in snake_case.
const LIBRARY_NAMES: &[&str] = &[
    "agentId",
    "asOf",
    "createTime",
    "createdAt",
    "currentTime",
    "customRole",
    "defaultSender",
    "defaultTimezone",
    "endTime",
    "eventId",
    "expirationDate",
    "expiresAt",
    "forgetBelow",
    "fullName",
    "groupId",
    "groupName",
    "halfLifeDays",
    "includeCompressed",
    "includeDeleted",
    "isDefault",
    "keepLast",
    "lookbackDays",
    "maxTokens",
    "memoryId",
    "memoryType",
    "memoryTypeHint",
    "memoryTypes",
    "messageId",
    "messageIds",
    "recordKey",
    "referList",
    "referenceDate",
    "runId",
    "sceneDesc",
    "senderName",
    "sessionId",
    "showExpired",
    "startTime",
    "tokenBudget",
    "topK",
    "updatedAt",
    "userDetails",
    "userId",
    "validFrom",
    "validUntil",
];

/// `message` with each of the library's camelCase option names written as the wire's snake_case.
pub fn with_wire_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len() + 8);
    let mut word = String::new();
    for c in message.chars().chain(std::iter::once('\0')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        match LIBRARY_NAMES.contains(&word.as_str()) {
            true => out.push_str(&snake_case(&word)),
            false => out.push_str(&word),
        }
        word.clear();
        if c != '\0' {
            out.push(c);
        }
    }
    out
}

/// `name` in snake_case: `messageId` → `message_id`.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for letter in name.chars() {
        if letter.is_uppercase() {
            out.push('_');
        }
        out.push(letter.to_ascii_lowercase());
    }
    out
}
