//! [`ResultBudget`]: how large a tool result a server sends whole.

/// How large a tool result a server sends as it is. A result over budget is
/// sent as a bounded preview plus a link to the whole result, which the
/// server keeps for a while and serves through `resources/read` (see
/// [`Server::with_result_budget`](crate::server::Server::with_result_budget)).
///
/// Two sizes are bounded, each in bytes and each optional:
///
/// - the **value**: the UTF-8 bytes of the result's portable text (what the
///   model reads), [`DEFAULT_VALUE_BYTES`](ResultBudget::DEFAULT_VALUE_BYTES)
///   (32 KiB, about 8,000 tokens) unless set. It is also the most text a
///   preview carries, its note included;
/// - the **wire**: the bytes of the serialised `CallToolResult` (content,
///   structured content and `_meta`: base64 images, a table's rows, an
///   artifact), [`DEFAULT_WIRE_BYTES`](ResultBudget::DEFAULT_WIRE_BYTES)
///   (1 MiB) unless set.
///
/// ```
/// use codeagent_core::tools::ResultBudget;
///
/// let budget = ResultBudget::new().with_value_bytes(8 * 1024);
/// assert_eq!(budget.value_bytes(), Some(8 * 1024));
/// assert_eq!(budget.wire_bytes(), Some(ResultBudget::DEFAULT_WIRE_BYTES));
/// assert!(ResultBudget::unlimited().is_unlimited());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResultBudget {
    value_bytes: Option<usize>,
    wire_bytes: Option<usize>,
}

impl ResultBudget {
    /// The default bound on a result's portable value: 32 KiB.
    pub const DEFAULT_VALUE_BYTES: usize = 32 * 1024;

    /// The default bound on a result's wire size: 1 MiB.
    pub const DEFAULT_WIRE_BYTES: usize = 1024 * 1024;

    /// The default budget: [`DEFAULT_VALUE_BYTES`](ResultBudget::DEFAULT_VALUE_BYTES)
    /// of value and [`DEFAULT_WIRE_BYTES`](ResultBudget::DEFAULT_WIRE_BYTES) on the wire.
    pub const fn new() -> Self {
        ResultBudget { value_bytes: Some(Self::DEFAULT_VALUE_BYTES), wire_bytes: Some(Self::DEFAULT_WIRE_BYTES) }
    }

    /// No budget: every result is sent whole, however large.
    pub const fn unlimited() -> Self {
        ResultBudget { value_bytes: None, wire_bytes: None }
    }

    /// Bounds the portable value (and a preview's text) to `bytes`.
    #[must_use]
    pub const fn with_value_bytes(mut self, bytes: usize) -> Self {
        self.value_bytes = Some(bytes);
        self
    }

    /// Bounds the serialised result to `bytes`.
    #[must_use]
    pub const fn with_wire_bytes(mut self, bytes: usize) -> Self {
        self.wire_bytes = Some(bytes);
        self
    }

    /// Leaves the portable value unbounded (the wire bound still applies).
    #[must_use]
    pub const fn without_value_limit(mut self) -> Self {
        self.value_bytes = None;
        self
    }

    /// Leaves the wire size unbounded (the value bound still applies).
    #[must_use]
    pub const fn without_wire_limit(mut self) -> Self {
        self.wire_bytes = None;
        self
    }

    /// The bound on the portable value, if there is one.
    pub const fn value_bytes(&self) -> Option<usize> {
        self.value_bytes
    }

    /// The bound on the wire size, if there is one.
    pub const fn wire_bytes(&self) -> Option<usize> {
        self.wire_bytes
    }

    /// Whether nothing is bounded.
    pub const fn is_unlimited(&self) -> bool {
        self.value_bytes.is_none() && self.wire_bytes.is_none()
    }
}

impl Default for ResultBudget {
    /// [`ResultBudget::new`].
    fn default() -> Self {
        ResultBudget::new()
    }
}
