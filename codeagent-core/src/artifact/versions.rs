use std::borrow::Cow;

/// Which artifact versions a consumer accepts.
///
/// Consumers render only versions whose contract they implement; everything
/// else falls back to the portable value. [`Versions::V1`] is the default.
/// [`Versions::Any`] disables only the version filter: the schema and outer
/// shape are still validated, so middleware can forward a valid future
/// artifact without rendering it.
///
/// ```
/// use codeagent_core::artifact::Versions;
///
/// assert!(Versions::V1.accepts(1));
/// assert!(!Versions::V1.accepts(2));
/// assert!(Versions::from([1, 2]).accepts(2));
/// assert!(Versions::Any.accepts(7));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Versions {
    /// Every valid version.
    Any,
    /// Exactly these versions.
    Only(Cow<'static, [u64]>),
}

impl Versions {
    /// Version 1 only, the default.
    pub const V1: Versions = Versions::Only(Cow::Borrowed(&[1]));

    /// Whether `version` passes this filter.
    pub fn accepts(&self, version: u64) -> bool {
        match self {
            Versions::Any => true,
            Versions::Only(set) => set.contains(&version),
        }
    }
}

impl Default for Versions {
    fn default() -> Self {
        Versions::V1
    }
}

impl From<u64> for Versions {
    fn from(version: u64) -> Self {
        Versions::Only(Cow::Owned(vec![version]))
    }
}

impl<const N: usize> From<[u64; N]> for Versions {
    fn from(versions: [u64; N]) -> Self {
        Versions::Only(Cow::Owned(versions.to_vec()))
    }
}

impl From<&[u64]> for Versions {
    fn from(versions: &[u64]) -> Self {
        Versions::Only(Cow::Owned(versions.to_vec()))
    }
}

impl From<Vec<u64>> for Versions {
    fn from(versions: Vec<u64>) -> Self {
        Versions::Only(Cow::Owned(versions))
    }
}
