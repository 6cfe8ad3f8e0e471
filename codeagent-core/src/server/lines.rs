//! Newline-delimited framing with a bound on message size.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line read from the client.
pub(crate) enum Line {
    /// A message, without its newline.
    Message(Vec<u8>),
    /// A line longer than the limit, skipped; its length in bytes.
    TooLong(usize),
}

/// Reads lines of at most `limit` bytes, never buffering more than that: a
/// longer line is skipped to its end and reported as [`Line::TooLong`].
pub(crate) struct LineReader<R> {
    reader: R,
    limit: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub(crate) fn new(reader: R, limit: usize) -> Self {
        LineReader { reader, limit }
    }

    /// The next non-empty line, or `None` at the end of input.
    pub(crate) async fn next(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            let mut line = Vec::new();
            let mut length = 0usize;
            let mut ended = false;
            loop {
                let available = self.reader.fill_buf().await?;
                if available.is_empty() {
                    ended = true;
                    break;
                }
                let (chunk, newline) = match available.iter().position(|byte| *byte == b'\n') {
                    Some(end) => (&available[..end], true),
                    None => (available, false),
                };
                length += chunk.len();
                if length <= self.limit {
                    line.extend_from_slice(chunk);
                } else if !line.is_empty() {
                    line = Vec::new();
                }
                let consumed = chunk.len() + usize::from(newline);
                self.reader.consume(consumed);
                if newline {
                    break;
                }
            }
            if length > self.limit {
                return Ok(Some(Line::TooLong(length)));
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                if ended {
                    return Ok(None);
                }
                continue;
            }
            return Ok(Some(Line::Message(line)));
        }
    }
}
