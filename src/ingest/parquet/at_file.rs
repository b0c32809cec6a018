//! A Parquet file read at offsets, so that several threads can read its
//! column chunks at once. (The `parquet` crate's own reader of a `File`
//! seeks a shared handle: two threads reading two row groups moved each
//! other's position, and a page was read from the wrong place.)

use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;

use ::parquet::errors::{ParquetError, Result};
use ::parquet::file::reader::{ChunkReader, Length};
use bytes::Bytes;

/// A file and its length, read at offsets (`pread`), never by seeking.
pub struct AtFile {
    file: Arc<File>,
    len: u64,
}

impl AtFile {
    pub fn new(file: File, len: u64) -> Self {
        AtFile {
            file: Arc::new(file),
            len,
        }
    }
}

/// Reads `buf.len()` bytes at most from `at`.
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_at(file, buf, at)
    }
    #[cfg(windows)]
    {
        std::os::windows::fs::FileExt::seek_read(file, buf, at)
    }
}

/// A reader of the file from an offset on.
pub struct AtReader {
    file: Arc<File>,
    at: u64,
}

impl Read for AtReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = read_at(&self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

impl Length for AtFile {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for AtFile {
    type T = io::BufReader<AtReader>;

    fn get_read(&self, start: u64) -> Result<Self::T> {
        Ok(io::BufReader::new(AtReader {
            file: Arc::clone(&self.file),
            at: start,
        }))
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        let mut buf = vec![0u8; length];
        let mut done = 0;
        while done < length {
            match read_at(&self.file, &mut buf[done..], start + done as u64) {
                Ok(0) => {
                    return Err(ParquetError::EOF(format!(
                        "expected to read {length} bytes at {start}, read only {done}"
                    )));
                }
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ParquetError::External(Box::new(e))),
            }
        }
        Ok(buf.into())
    }
}
