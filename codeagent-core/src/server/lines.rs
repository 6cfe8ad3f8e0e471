//! Newline-delimited framing with a bound on message size.

use std::pin::Pin;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, BufReader};

/// A line buffer larger than this is given back once its line is handled.
const KEPT_LINE_CAPACITY: usize = 64 * 1024;

/// One line read from the client.
pub(crate) enum Line<'a> {
    /// A message, without its newline.
    Message(&'a [u8]),
    /// A line longer than the limit, skipped; its length in bytes.
    TooLong(usize),
}

/// Reads lines of at most `limit` bytes, never buffering more than that: a
/// longer line is skipped to its end and reported as [`Line::TooLong`].
///
/// A line that is whole in the read buffer is handed out from there, without
/// a copy; only a line split across reads is gathered in a buffer of its own.
pub(crate) struct LineReader<R> {
    reader: BufReader<R>,
    limit: usize,
    /// A line split across reads, gathered.
    line: Vec<u8>,
    /// The bytes of the read buffer handed out by the last call, consumed at
    /// the next one.
    returned: usize,
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// The length of `line` without a trailing carriage return.
fn without_return(line: &[u8]) -> usize {
    line.len() - usize::from(line.last() == Some(&b'\r'))
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(crate) fn new(reader: BufReader<R>, limit: usize) -> Self {
        LineReader { reader, limit, line: Vec::new(), returned: 0 }
    }

    fn consume(&mut self, bytes: usize) {
        Pin::new(&mut self.reader).consume(bytes);
    }

    /// Whether a whole line is already buffered, so that [`next`](Self::next)
    /// would not wait for input.
    pub(crate) fn has_line(&self) -> bool {
        self.reader.buffer()[self.returned..].contains(&b'\n')
    }

    /// The next non-empty line, or `None` at the end of input.
    pub(crate) async fn next(&mut self) -> std::io::Result<Option<Line<'_>>> {
        let returned = std::mem::take(&mut self.returned);
        self.consume(returned);
        if self.line.capacity() > KEPT_LINE_CAPACITY {
            self.line = Vec::new();
        }
        self.line.clear();
        let mut length = 0usize;
        loop {
            if self.reader.fill_buf().await?.is_empty() {
                // The end of input: a last line without its newline.
                if length > self.limit {
                    return Ok(Some(Line::TooLong(length)));
                }
                let end = without_return(&self.line);
                if is_blank(&self.line[..end]) {
                    return Ok(None);
                }
                self.line.truncate(end);
                return Ok(Some(Line::Message(&self.line)));
            }
            let newline = self.reader.buffer().iter().position(|byte| *byte == b'\n');
            if let Some(end) = newline
                && length == 0
                && end <= self.limit
            {
                // The whole line is in the read buffer.
                let text = without_return(&self.reader.buffer()[..end]);
                if is_blank(&self.reader.buffer()[..text]) {
                    self.consume(end + 1);
                    continue;
                }
                self.returned = end + 1;
                return Ok(Some(Line::Message(&self.reader.buffer()[..text])));
            }
            let chunk = newline.unwrap_or(self.reader.buffer().len());
            length += chunk;
            if length <= self.limit {
                self.line.extend_from_slice(&self.reader.buffer()[..chunk]);
            } else {
                self.line.clear();
            }
            self.consume(chunk + usize::from(newline.is_some()));
            if newline.is_none() {
                continue;
            }
            if length > self.limit {
                return Ok(Some(Line::TooLong(length)));
            }
            let end = without_return(&self.line);
            if is_blank(&self.line[..end]) {
                self.line.clear();
                length = 0;
                continue;
            }
            self.line.truncate(end);
            return Ok(Some(Line::Message(&self.line)));
        }
    }
}
