//! The outcomes of an elicitation: the person accepted (with the form's
//! values), declined, or dismissed it.

/// The answer to [`Context::elicit`](crate::toolbox::Context::elicit).
#[derive(Debug, Clone, PartialEq)]
pub enum Elicitation<T> {
    /// The person submitted the form: its values.
    Accepted(T),
    /// The person explicitly declined.
    Declined,
    /// The person dismissed the question without choosing.
    Cancelled,
}

impl<T> Elicitation<T> {
    /// The values, when the person accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicitation::Accepted(values) => Some(values),
            Elicitation::Declined | Elicitation::Cancelled => None,
        }
    }
}

/// The answer to [`Context::elicit_url`](crate::toolbox::Context::elicit_url):
/// whether the person agreed to open the URL (what happens there is between
/// them and the site, out of band).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlElicitation {
    /// The person agreed to open the URL.
    Accepted,
    /// The person explicitly declined.
    Declined,
    /// The person dismissed the question without choosing.
    Cancelled,
}
