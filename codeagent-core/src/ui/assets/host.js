// The built-in host page (replaced by the full host page).
