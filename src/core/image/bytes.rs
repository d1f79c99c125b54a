//! The image's byte layout primitives: little-endian numbers and length-prefixed strings, written to a
//! `Vec<u8>` and read back with every length checked, so a torn or foreign image is an error, never a panic.

/// Appends values to an image being written.
#[derive(Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn u8(&mut self, value: u8) {
        self.bytes.push(value);
    }

    pub fn u32(&mut self, value: u32) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    pub fn u64(&mut self, value: u64) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    pub fn f64(&mut self, value: f64) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    /// A LEB128 number: seven bits a byte, low bits first (one byte below 128).
    pub fn varint(&mut self, mut value: u32) {
        while value >= 0x80 {
            self.bytes.push(value as u8 | 0x80);
            value >>= 7;
        }
        self.bytes.push(value as u8);
    }

    /// A length (u32) and the UTF-8 bytes.
    pub fn str(&mut self, text: &str) {
        self.u32(text.len() as u32);
        self.bytes.extend_from_slice(text.as_bytes());
    }

    /// A flag byte, then the text when there is one.
    pub fn opt_str(&mut self, text: Option<&str>) {
        self.u8(text.is_some() as u8);
        if let Some(text) = text {
            self.str(text);
        }
    }
}

/// Reads values back from an image; each read fails (with what it was reading) past the end.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// Why an image cannot be used.
pub type Rejected = String;

impl<'a> Reader<'a> {
    /// How many bytes were read.
    pub fn position(&self) -> usize {
        self.at
    }

    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    /// How many bytes are left to read.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// True when every byte was read.
    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Rejected> {
        let end = self.at.checked_add(n).filter(|end| *end <= self.bytes.len());
        let end = end.ok_or_else(|| format!("cut short at byte {} (needs {n} more)", self.at))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Rejected> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N)?);
        Ok(array)
    }

    /// One byte. Read in place: the keyword notes are a byte at a time, tens of bytes per record.
    #[inline(always)]
    pub fn u8(&mut self) -> Result<u8, Rejected> {
        match self.bytes.get(self.at) {
            Some(&byte) => {
                self.at += 1;
                Ok(byte)
            }
            None => self.take(1).map(|bytes| bytes[0]),
        }
    }

    pub fn u32(&mut self) -> Result<u32, Rejected> {
        self.array().map(u32::from_le_bytes)
    }

    pub fn u64(&mut self) -> Result<u64, Rejected> {
        self.array().map(u64::from_le_bytes)
    }

    pub fn f64(&mut self) -> Result<f64, Rejected> {
        self.array().map(f64::from_le_bytes)
    }

    /// A LEB128 number as [`Writer::varint`] writes it (at most five bytes).
    pub fn varint(&mut self) -> Result<u32, Rejected> {
        // Most numbers are one byte.
        if let Some(&byte) = self.bytes.get(self.at).filter(|byte| **byte < 0x80) {
            self.at += 1;
            return Ok(u32::from(byte));
        }
        let mut value = 0u32;
        for shift in (0..35).step_by(7) {
            let byte = self.u8()?;
            value |= u32::from(byte & 0x7f)
                .checked_shl(shift)
                .filter(|_| shift < 28 || byte < 0x10)
                .ok_or_else(|| format!("a number too large at byte {}", self.at))?;
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err(format!("a number too long at byte {}", self.at))
    }

    pub fn str(&mut self) -> Result<String, Rejected> {
        self.str_ref().map(str::to_owned)
    }

    /// The next text, borrowed from the bytes.
    pub fn str_ref(&mut self) -> Result<&'a str, Rejected> {
        let length = self.u32()? as usize;
        let bytes = self.take(length)?;
        std::str::from_utf8(bytes).map_err(|_| format!("text before byte {} is not UTF-8", self.at))
    }

    pub fn opt_str(&mut self) -> Result<Option<String>, Rejected> {
        match self.u8()? {
            0 => Ok(None),
            1 => self.str().map(Some),
            flag => Err(format!("flag {flag} before byte {}", self.at)),
        }
    }
}

/// Appends `values` to `bytes` as little-endian `f32`s.
pub fn put_floats(bytes: &mut Vec<u8>, values: &[f32]) {
    if cfg!(target_endian = "little") {
        bytes.extend_from_slice(bytemuck::cast_slice(values));
    } else {
        values.iter().for_each(|value| bytes.extend_from_slice(&value.to_le_bytes()));
    }
}

/// `bytes` as arrays of `N` (a remainder shorter than `N` is left out).
pub fn arrays<const N: usize>(bytes: &[u8]) -> impl Iterator<Item = [u8; N]> + '_ {
    bytes.chunks_exact(N).map(|chunk| chunk.try_into().unwrap_or([0; N]))
}
