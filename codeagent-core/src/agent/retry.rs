//! Retrying a request the provider refused for now (HTTP 429 and 5xx), with
//! exponential backoff, honouring the provider's `retry-after`.

use std::time::{Duration, SystemTime};

use hyper::HeaderMap;
use hyper::StatusCode;

/// How often and how patiently to retry a request answered with HTTP 429
/// (rate limited) or a 5xx (server trouble, Anthropic's 529 overloaded).
///
/// The n-th retry waits `initial * 2^(n-1)`, capped at `max_delay`, unless the
/// answer says how long to wait: `retry-after-ms` (OpenAI) or `retry-after`
/// (seconds or an HTTP date), also capped at `max_delay`.
///
/// ```
/// use std::time::Duration;
/// use codeagent_core::agent::RetryPolicy;
///
/// let patient = RetryPolicy::default().with_max_retries(5).with_max_delay(Duration::from_secs(120));
/// assert_eq!(patient.max_retries(), 5);
/// assert_eq!(RetryPolicy::none().max_retries(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    max_retries: u32,
    initial: Duration,
    max_delay: Duration,
}

impl Default for RetryPolicy {
    /// Three retries, waiting 1 s, 2 s and 4 s unless told otherwise, never more than 60 s.
    fn default() -> Self {
        RetryPolicy { max_retries: 3, initial: Duration::from_secs(1), max_delay: Duration::from_secs(60) }
    }
}

impl RetryPolicy {
    /// Never retry.
    pub fn none() -> Self {
        RetryPolicy { max_retries: 0, ..RetryPolicy::default() }
    }

    /// Sets how many times a request is retried.
    #[must_use]
    pub fn with_max_retries(mut self, retries: u32) -> Self {
        self.max_retries = retries;
        self
    }

    /// Sets the first wait of the backoff.
    #[must_use]
    pub fn with_initial_delay(mut self, delay: Duration) -> Self {
        self.initial = delay;
        self
    }

    /// Sets the longest wait, whatever the provider asks for.
    #[must_use]
    pub fn with_max_delay(mut self, delay: Duration) -> Self {
        self.max_delay = delay;
        self
    }

    /// How many times a request is retried.
    pub fn max_retries(&self) -> u32 {
        self.max_retries
    }

    /// Whether an answer with `status` is worth retrying.
    pub(super) fn retries(status: StatusCode) -> bool {
        status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error()
    }

    /// How long to wait before retry number `retry` (1 for the first).
    pub(super) fn delay(&self, retry: u32, headers: &HeaderMap) -> Duration {
        let backoff = self.initial.saturating_mul(2u32.saturating_pow(retry.saturating_sub(1)));
        retry_after(headers, SystemTime::now()).unwrap_or(backoff).min(self.max_delay)
    }
}

/// The wait an answer asks for, from `retry-after-ms` or `retry-after`.
fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok()).map(str::trim);
    if let Some(millis) = header("retry-after-ms").and_then(|text| text.parse::<f64>().ok()) {
        return seconds(millis / 1000.0);
    }
    let text = header("retry-after")?;
    if let Ok(secs) = text.parse::<f64>() {
        return seconds(secs);
    }
    let date = httpdate::parse_http_date(text).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

fn seconds(secs: f64) -> Option<Duration> {
    (secs.is_finite() && secs >= 0.0).then(|| Duration::try_from_secs_f64(secs).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use hyper::HeaderMap;

    use super::{RetryPolicy, retry_after};

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        pairs.iter().map(|(name, value)| (name.parse().unwrap(), value.parse().unwrap())).collect()
    }

    #[test]
    fn reads_retry_after_in_seconds_milliseconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        assert_eq!(retry_after(&headers(&[("retry-after", "2")]), now), Some(Duration::from_secs(2)));
        assert_eq!(retry_after(&headers(&[("retry-after-ms", "250")]), now), Some(Duration::from_millis(250)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(7));
        assert_eq!(retry_after(&headers(&[("retry-after", &later)]), now), Some(Duration::from_secs(7)));
        assert_eq!(retry_after(&headers(&[("retry-after", "soon")]), now), None);
        assert_eq!(retry_after(&headers(&[("retry-after", "-1")]), now), None);
    }

    #[test]
    fn backs_off_exponentially_within_the_cap() {
        let policy = RetryPolicy::default().with_initial_delay(Duration::from_millis(100));
        let none = HeaderMap::new();
        assert_eq!(policy.delay(1, &none), Duration::from_millis(100));
        assert_eq!(policy.delay(3, &none), Duration::from_millis(400));
        assert_eq!(policy.delay(30, &none), Duration::from_secs(60));
        assert_eq!(policy.delay(1, &headers(&[("retry-after", "3600")])), Duration::from_secs(60));
    }
}
