// The MCP Apps test host: the official AppBridge (bridge.js, bundled from
// @modelcontextprotocol/ext-apps) talking to the view in a sandboxed iframe
// (allow-scripts only, so the view has an opaque origin) over the official
// PostMessageTransport. The Python tests drive it through window.testHost and
// read what the host saw in window.hostRecord.
"use strict";

(function () {
  var AppBridge = window.McpAppsHost.AppBridge;
  var PostMessageTransport = window.McpAppsHost.PostMessageTransport;
  var record = {
    initialized: false,
    appInfo: null,
    appCapabilities: null,
    sizes: [],
    links: [],
    logs: [],
    errors: [],
    probes: {}
  };
  var bridge = null;
  var iframe = null;

  window.hostRecord = record;

  // Answers from the view to requests the test posts itself (ids "probe-…"),
  // outside the bridge.
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (iframe && event.source === iframe.contentWindow && data && typeof data.id === "string" && data.id.indexOf("probe-") === 0) {
      record.probes[data.id] = data;
    }
  });

  function open(url, hostContext) {
    iframe = document.createElement("iframe");
    iframe.id = "view";
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.setAttribute("title", "codeagent MCP App");
    document.getElementById("frames").appendChild(iframe);
    bridge = new AppBridge(
      null,
      { name: "codeagent-test-host", version: "1.0.0" },
      { openLinks: {}, logging: {} },
      { hostContext: hostContext }
    );
    bridge.onsizechange = function (size) {
      record.sizes.push(size);
      if (typeof size.height === "number") {
        iframe.style.height = size.height + "px";
      }
    };
    bridge.onopenlink = async function (params) {
      record.links.push(params.url);
      return {};
    };
    bridge.onloggingmessage = function (params) {
      record.logs.push(params);
    };
    bridge.onerror = function (error) {
      record.errors.push(String(error && error.message));
    };
    var initialized = new Promise(function (resolve) {
      bridge.oninitialized = function () {
        record.initialized = true;
        record.appInfo = bridge.getAppVersion();
        record.appCapabilities = bridge.getAppCapabilities();
        resolve(true);
      };
    });
    var transport = new PostMessageTransport(iframe.contentWindow, iframe.contentWindow);
    return bridge.connect(transport).then(function () {
      iframe.src = url;
      return initialized;
    });
  }

  window.testHost = {
    open: open,
    sendInput: function (args) {
      return bridge.sendToolInput({ arguments: args || {} });
    },
    sendResult: async function (result, args) {
      await bridge.sendToolInput({ arguments: args || {} });
      await bridge.sendToolResult(result);
      return true;
    },
    sendCancelled: function (reason) {
      return bridge.sendToolCancelled({ reason: reason });
    },
    setContext: function (context) {
      bridge.setHostContext(context);
      return true;
    },
    teardown: function () {
      return bridge.teardownResource({}).then(function (result) {
        return result;
      });
    },
    // Posts a raw message to the view, bypassing the bridge.
    post: function (message) {
      iframe.contentWindow.postMessage(message, "*");
      return true;
    }
  };
})();
