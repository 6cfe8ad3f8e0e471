// The MCP Apps view (replaced by the full app).
