//! The conversation API's reads over conversation memories: its form of the read options (`groupId`, `memoryType`, the
//! limits of its fetch and search, `radius`, unsearchable profiles), the time window of a read (a time range,
//! foresight's validity at a current time, compressed originals), and agentic retrieval (an LLM judges a
//! hybrid search and refines it once).

pub mod form;
pub mod prompts;
pub mod reply;
pub mod window;

pub use window::Window;
