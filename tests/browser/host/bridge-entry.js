// The official MCP Apps host bridge, bundled for the browser (npm run build):
// window.McpAppsHost = { AppBridge, PostMessageTransport }.
export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
