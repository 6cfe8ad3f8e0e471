//! The OAuth scopes a tool, resource or prompt needs: one list rule for all
//! three kinds.

/// Adds `scope` to `scopes` unless it is there already (the order given is kept).
pub(crate) fn add(scopes: &mut Vec<String>, scope: String) {
    if !scopes.contains(&scope) {
        scopes.push(scope);
    }
}
