//! An image stored in parts (a Durable Object's values are at most 128 KiB), read as one run of bytes
//! without joining them: each part stays where its backend read it.

use super::source::ImageBytes;

/// The parts of an image, in order.
#[derive(Default)]
pub struct Parts {
    parts: Vec<Box<dyn ImageBytes>>,
    /// Where each part begins in the whole.
    starts: Vec<usize>,
    size: usize,
}

impl Parts {
    /// Adds the next part.
    pub fn push(&mut self, part: Box<dyn ImageBytes>) {
        self.starts.push(self.size);
        self.size += part.size();
        self.parts.push(part);
    }
}

impl ImageBytes for Parts {
    fn size(&self) -> usize {
        self.size
    }

    fn copy_to(&self, mut at: usize, mut out: &mut [u8]) {
        let mut index = self.starts.partition_point(|start| *start <= at).saturating_sub(1);
        while !out.is_empty() {
            let Some(part) = self.parts.get(index) else { return };
            let within = at - self.starts[index];
            let length = (part.size() - within).min(out.len());
            let (here, rest) = std::mem::take(&mut out).split_at_mut(length);
            part.copy_to(within, here);
            (at, out, index) = (at + length, rest, index + 1);
        }
    }

    /// The one part's bytes, when there is one and it is in this memory.
    fn as_slice(&self) -> Option<&[u8]> {
        match self.parts.as_slice() {
            [only] => only.as_slice(),
            _ => None,
        }
    }
}
