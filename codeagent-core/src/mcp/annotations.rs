use serde::{Deserialize, Serialize};

use super::InvalidContent;

/// Who a piece of content is meant for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

/// Hints to the client about a content block: its audience, its priority
/// (0 least to 1 most important) and when it last changed (RFC 3339).
///
/// ```
/// use codeagent_core::mcp::{Annotations, Role};
///
/// let annotations = Annotations::new()
///     .with_audience([Role::User])
///     .with_priority(0.8)?
///     .with_last_modified("2025-01-12T15:00:58Z")?;
/// assert_eq!(annotations.priority_value(), Some(0.8));
/// # Ok::<(), codeagent_core::mcp::InvalidContent>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Annotations {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    audience: Option<Vec<Role>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    priority: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_modified: Option<String>,
}

impl Annotations {
    /// No hints.
    pub fn new() -> Self {
        Annotations::default()
    }

    /// Sets the intended audience.
    #[must_use]
    pub fn with_audience(mut self, audience: impl IntoIterator<Item = Role>) -> Self {
        self.audience = Some(audience.into_iter().collect());
        self
    }

    /// Sets the priority, which must be a number from 0 to 1.
    pub fn with_priority(mut self, priority: f64) -> Result<Self, InvalidContent> {
        if !(0.0..=1.0).contains(&priority) {
            return Err(InvalidContent::new(
                "annotations.priority",
                format!("must be between 0 and 1, got {priority}"),
            ));
        }
        self.priority = Some(priority);
        Ok(self)
    }

    /// Sets the last modification time, an RFC 3339 timestamp such as
    /// `2025-01-12T15:00:58Z`.
    pub fn with_last_modified(mut self, timestamp: impl Into<String>) -> Result<Self, InvalidContent> {
        let timestamp = timestamp.into();
        if !is_rfc3339(&timestamp) {
            return Err(InvalidContent::new(
                "annotations.lastModified",
                format!("`{timestamp}` is not an RFC 3339 timestamp such as 2025-01-12T15:00:58Z"),
            ));
        }
        self.last_modified = Some(timestamp);
        Ok(self)
    }

    /// The audience, if set.
    pub fn audience_value(&self) -> Option<&[Role]> {
        self.audience.as_deref()
    }

    /// The priority, if set.
    pub fn priority_value(&self) -> Option<f64> {
        self.priority
    }

    /// The last modification time, if set.
    pub fn last_modified_value(&self) -> Option<&str> {
        self.last_modified.as_deref()
    }

    /// Whether no hint is set.
    pub fn is_empty(&self) -> bool {
        self.audience.is_none() && self.priority.is_none() && self.last_modified.is_none()
    }

    /// The hints a version defines: `lastModified` only from 2025-06-18.
    pub(crate) fn for_version(&self, last_modified: bool) -> Option<Annotations> {
        let shaped = Annotations {
            audience: self.audience.clone(),
            priority: self.priority,
            last_modified: if last_modified { self.last_modified.clone() } else { None },
        };
        (!shaped.is_empty()).then_some(shaped)
    }
}

/// Whether `text` is an RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
pub(crate) fn is_rfc3339(text: &str) -> bool {
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let digits = bytes.get(range)?;
        digits.iter().all(u8::is_ascii_digit).then(|| digits.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    };
    let at = |index: usize, expected: &[u8]| bytes.get(index).is_some_and(|byte| expected.contains(byte));
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) =
        (number(0..4), number(5..7), number(8..10), number(11..13), number(14..16), number(17..19))
    else {
        return false;
    };
    if !(at(4, b"-") && at(7, b"-") && at(10, b"Tt ") && at(13, b":") && at(16, b":")) {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days_in_month || hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut index = 19;
    if at(index, b".") {
        index += 1;
        let start = index;
        while at(index, b"0123456789") {
            index += 1;
        }
        if index == start {
            return false;
        }
    }
    match bytes.get(index) {
        Some(b'Z' | b'z') => index + 1 == bytes.len(),
        Some(b'+' | b'-') => {
            let (Some(offset_hour), Some(offset_minute)) = (number(index + 1..index + 3), number(index + 4..index + 6))
            else {
                return false;
            };
            at(index + 3, b":") && offset_hour <= 23 && offset_minute <= 59 && index + 6 == bytes.len()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_rfc3339;

    #[test]
    fn accepts_rfc3339_and_refuses_the_rest() {
        for good in ["2025-01-12T15:00:58Z", "2024-02-29T00:00:00.123+05:30", "1999-12-31t23:59:60z"] {
            assert!(is_rfc3339(good), "{good}");
        }
        for bad in
            ["2025-01-12", "2025-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2025-01-12T15:00:58", "yesterday", ""]
        {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }
}
