// The MCP Apps view (io.modelcontextprotocol/ui, protocol 2026-01-26): a
// JSON-RPC 2.0 peer of the host page that embeds it, over postMessage to
// window.parent. It initializes, renders every ui/notifications/tool-result
// with CodeagentRenderer, reports its size, and answers ping and
// ui/resource-teardown. Messages from anything but window.parent, or not
// shaped as JSON-RPC 2.0, are ignored.
(function () {
  "use strict";

  var PROTOCOL_VERSION = "2026-01-26";
  var METHOD_NOT_FOUND = -32601;
  var root = document.getElementById("codeagent-app");
  var version = document.documentElement.getAttribute("data-codeagent-version") || "0";
  var state = { nextId: 1, pending: {}, hostCapabilities: {}, initialized: false, resize: null, tornDown: false };

  // ---- JSON-RPC over postMessage -----------------------------------------

  function send(message) {
    message.jsonrpc = "2.0";
    window.parent.postMessage(message, "*");
  }

  function request(method, params) {
    var id = state.nextId;
    state.nextId += 1;
    return new Promise(function (resolve, reject) {
      state.pending[id] = { resolve: resolve, reject: reject };
      send({ id: id, method: method, params: params });
    });
  }

  function notify(method, params) {
    send(params === undefined ? { method: method } : { method: method, params: params });
  }

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  function isId(value) {
    return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
  }

  // The message's role, or null when it is not well-formed JSON-RPC 2.0.
  function classify(message) {
    if (!isObject(message) || message.jsonrpc !== "2.0") {
      return null;
    }
    var hasParams = message.params === undefined || isObject(message.params);
    if (typeof message.method === "string") {
      if (!hasParams) {
        return null;
      }
      return message.id === undefined ? "notification" : isId(message.id) ? "request" : null;
    }
    if (!isId(message.id)) {
      return null;
    }
    var isResult = "result" in message && !("error" in message) && isObject(message.result);
    var isError = "error" in message && !("result" in message) && isObject(message.error);
    return isResult || isError ? "response" : null;
  }

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent || window.parent === window) {
      return;
    }
    var message = event.data;
    var role = classify(message);
    if (role === "response") {
      settle(message);
    } else if (role === "request") {
      answer(message);
    } else if (role === "notification") {
      handleNotification(message.method, message.params || {});
    }
  });

  function settle(message) {
    var waiter = state.pending[message.id];
    if (!waiter) {
      return;
    }
    delete state.pending[message.id];
    if (message.error) {
      waiter.reject(new Error(typeof message.error.message === "string" ? message.error.message : "error"));
    } else {
      waiter.resolve(message.result);
    }
  }

  // Requests from the host: ping and teardown are answered; anything else is
  // "method not found", as JSON-RPC requires.
  function answer(message) {
    if (message.method === "ping") {
      send({ id: message.id, result: {} });
    } else if (message.method === "ui/resource-teardown") {
      teardown();
      send({ id: message.id, result: {} });
    } else {
      send({ id: message.id, error: { code: METHOD_NOT_FOUND, message: "Method not found: " + message.method } });
    }
  }

  // ---- what the host tells the view ---------------------------------------

  var notifications = {
    "ui/notifications/tool-input": function () {
      if (!root.hasAttribute("data-status")) {
        showWaiting("Running the tool…");
      }
    },
    "ui/notifications/tool-result": function (params) {
      CodeagentRenderer.render(root, params, { openLink: openLink });
    },
    "ui/notifications/tool-cancelled": function (params) {
      var reason = typeof params.reason === "string" && params.reason ? ": " + params.reason : "";
      CodeagentRenderer.renderText(root, "The tool call was cancelled" + reason + ".", true);
    },
    "ui/notifications/host-context-changed": function (params) {
      applyContext(params);
    }
  };

  function handleNotification(method, params) {
    if (Object.prototype.hasOwnProperty.call(notifications, method) && !state.tornDown) {
      notifications[method](params);
    }
  }

  function showWaiting(text) {
    root.textContent = "";
    var waiting = document.createElement("p");
    waiting.className = "codeagent-note";
    waiting.textContent = text;
    root.appendChild(waiting);
  }

  // Links open through the host (ui/open-link) when it offers that; the
  // sandbox blocks navigation and pop-ups anyway.
  function openLink(url) {
    if (isObject(state.hostCapabilities.openLinks)) {
      request("ui/open-link", { url: url }).catch(function () {});
    }
  }

  // ---- host context: theme, style variables, container size -------------

  var STYLE_VARIABLE = /^--(color|font|border-radius)-[a-z0-9-]+$/;

  function applyContext(context) {
    if (!isObject(context)) {
      return;
    }
    var html = document.documentElement;
    if (context.theme === "light" || context.theme === "dark") {
      html.setAttribute("data-theme", context.theme);
    }
    var variables = isObject(context.styles) && isObject(context.styles.variables) ? context.styles.variables : {};
    Object.keys(variables).forEach(function (name) {
      var value = variables[name];
      if (STYLE_VARIABLE.test(name) && typeof value === "string" && !/\burl\s*\(/i.test(value)) {
        html.style.setProperty(name, value);
      }
    });
    applyDimensions(isObject(context.containerDimensions) ? context.containerDimensions : null);
  }

  function applyDimensions(dimensions) {
    if (!dimensions) {
      return;
    }
    var html = document.documentElement;
    if (typeof dimensions.maxHeight === "number") {
      html.style.maxHeight = dimensions.maxHeight + "px";
    }
    if (typeof dimensions.maxWidth === "number") {
      html.style.maxWidth = dimensions.maxWidth + "px";
    }
  }

  // ---- size reporting --------------------------------------------------------

  function watchSize() {
    var last = { width: -1, height: -1 };
    var scheduled = false;
    function measure() {
      scheduled = false;
      var html = document.documentElement;
      var previous = html.style.height;
      html.style.height = "max-content";
      var height = Math.ceil(html.getBoundingClientRect().height);
      html.style.height = previous;
      var width = Math.ceil(window.innerWidth);
      if (width !== last.width || height !== last.height) {
        last = { width: width, height: height };
        notify("ui/notifications/size-changed", last);
      }
    }
    function schedule() {
      if (!scheduled && !state.tornDown) {
        scheduled = true;
        window.requestAnimationFrame(measure);
      }
    }
    var observer = new ResizeObserver(schedule);
    observer.observe(document.documentElement);
    observer.observe(document.body);
    schedule();
    return observer;
  }

  function teardown() {
    state.tornDown = true;
    if (state.resize) {
      state.resize.disconnect();
      state.resize = null;
    }
  }

  // ---- the handshake ---------------------------------------------------------

  function start() {
    if (window.parent === window) {
      showWaiting("This is an MCP Apps view: an MCP host shows tool results here.");
      return;
    }
    showWaiting("Waiting for the result…");
    request("ui/initialize", {
      appInfo: { name: "codeagent", version: version },
      appCapabilities: { availableDisplayModes: ["inline"] },
      protocolVersion: PROTOCOL_VERSION
    }).then(function (result) {
      state.hostCapabilities = isObject(result.hostCapabilities) ? result.hostCapabilities : {};
      applyContext(result.hostContext);
      notify("ui/notifications/initialized", {});
      state.initialized = true;
      state.resize = watchSize();
    }, function (error) {
      showWaiting("The host refused to initialize the view: " + error.message);
    });
  }

  start();
})();
