// The built-in host page: an MCP client (Streamable HTTP, protocol
// 2025-11-25) of the server that serves it, at ./mcp on the same origin. It
// lists the tools, builds a form from each input schema, calls the tool with
// a progress token, shows progress and log notifications while it runs, and
// renders the result with CodeagentRenderer. It declares the tasks extension:
// a tool the server runs as a task answers with the task, which the page
// polls (tasks/get), showing its status, until it ends; cancelling it sends
// tasks/cancel. Automation hooks: [data-tool="NAME"], form[data-tool-form="NAME"]
// (inputs named after the arguments, a button[type=submit]), [data-result]
// (data-kind, data-status), [data-progress], [data-task] (data-status, the
// task's), [data-log], [data-raw], [data-banner] (data-level; shown for a log
// message at error or above that belongs to no call, such as a failed rebuild
// under `cargo codeagent dev`). It listens on the session's standing stream:
// a change of the tools re-lists them.
(function () {
  "use strict";

  var ENDPOINT = document.documentElement.getAttribute("data-mcp-endpoint") || "/mcp";
  var PROTOCOL_VERSION = "2025-11-25";
  var ACCEPT = "application/json, text/event-stream";
  var TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

  var view = {
    server: document.getElementById("host-server"),
    connection: document.querySelector("[data-connection]"),
    tools: document.querySelector("[data-tools]"),
    panel: document.getElementById("host-panel"),
    progress: document.querySelector("[data-progress]"),
    task: document.querySelector("[data-task]"),
    log: document.querySelector("[data-log]"),
    result: document.querySelector("[data-result]"),
    raw: document.querySelector("[data-raw] .host-raw-messages"),
    banner: document.querySelector("[data-banner]")
  };
  var state = { session: null, nextId: 1, calls: 0, fields: 0, tools: [], selected: null, running: null };

  // The renderer's own DOM helpers: an element with a class and text, a plain-object test.
  var element = CodeagentRenderer.element;
  var isObject = CodeagentRenderer.isObject;

  // ---- the MCP client ------------------------------------------------------

  function headers() {
    var list = { "content-type": "application/json", accept: ACCEPT };
    if (state.session) {
      list["mcp-session-id"] = state.session;
      list["mcp-protocol-version"] = PROTOCOL_VERSION;
    }
    return list;
  }

  // POSTs one message; resolves with the response to it (null for a
  // notification), passing every notification that comes first to onNotification.
  async function post(message, onNotification, signal) {
    var response = await fetch(ENDPOINT, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify(message),
      signal: signal,
      credentials: "same-origin",
      cache: "no-store"
    });
    if (response.status === 202 && message.id === undefined) {
      return null;
    }
    var type = response.headers.get("content-type") || "";
    if (type.indexOf("text/event-stream") === 0) {
      return readStream(response, message.id, onNotification || function () {});
    }
    if (type.indexOf("application/json") === 0) {
      return response.json();
    }
    throw new Error("HTTP " + response.status + ": " + (await response.text()).slice(0, 300));
  }

  // Reads a Server-Sent Events stream until the response with `id` arrives.
  async function readStream(response, id, onNotification) {
    var answer = null;
    var found = await readEvents(response, function (message) {
      if (message.id === id && (message.result !== undefined || message.error !== undefined)) {
        answer = message;
        return true;
      }
      if (typeof message.method === "string") {
        onNotification(message);
      }
      return false;
    });
    if (!found) {
      throw new Error("the stream ended before the response arrived");
    }
    return answer;
  }

  // Passes each message of a Server-Sent Events stream to onMessage until it
  // answers true (then resolves true) or the stream ends (false).
  async function readEvents(response, onMessage) {
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffer = "";
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) {
        return false;
      }
      buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, "\n");
      var events = buffer.split("\n\n");
      buffer = events.pop();
      for (var i = 0; i < events.length; i += 1) {
        var message = eventMessage(events[i]);
        if (message && onMessage(message)) {
          reader.cancel().catch(function () {});
          return true;
        }
      }
    }
  }

  function eventMessage(event) {
    var data = event.split("\n").filter(function (line) {
      return line.indexOf("data:") === 0;
    }).map(function (line) {
      return line.slice(line.charAt(5) === " " ? 6 : 5);
    }).join("\n");
    if (!data.trim()) {
      return null;
    }
    try {
      return JSON.parse(data);
    } catch (error) {
      return null;
    }
  }

  function nextId() {
    state.nextId += 1;
    return state.nextId - 1;
  }

  // A request; a JSON-RPC error becomes a rejected promise.
  async function rpc(method, params) {
    var response = await post({ jsonrpc: "2.0", id: nextId(), method: method, params: params });
    if (response.error) {
      throw new Error(response.error.message + " (" + response.error.code + ")");
    }
    return response.result;
  }

  // The client capabilities' `extensions`: the tasks extension.
  function taskExtension() {
    var extensions = {};
    extensions[TASKS_EXTENSION] = {};
    return extensions;
  }

  async function connect() {
    state.session = null;
    var response = await fetch(ENDPOINT, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: nextId(),
        method: "initialize",
        params: {
          protocolVersion: PROTOCOL_VERSION,
          capabilities: { extensions: taskExtension() },
          clientInfo: { name: "codeagent-host-page", version: "1" }
        }
      })
    });
    var session = response.headers.get("mcp-session-id");
    var answer = await response.json();
    if (!response.ok || answer.error || !session) {
      throw new Error(answer.error ? answer.error.message : "HTTP " + response.status);
    }
    state.session = session;
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    if (answer.result.capabilities && answer.result.capabilities.logging) {
      await rpc("logging/setLevel", { level: "debug" });
    }
    return answer.result;
  }

  async function listTools() {
    var tools = [];
    var cursor;
    do {
      var page = await rpc("tools/list", cursor === undefined ? {} : { cursor: cursor });
      tools = tools.concat(Array.isArray(page.tools) ? page.tools : []);
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    return tools.filter(function (tool) {
      return isObject(tool) && typeof tool.name === "string";
    });
  }

  // ---- the tool list --------------------------------------------------------

  function toolTitle(tool) {
    var annotations = isObject(tool.annotations) ? tool.annotations : {};
    return tool.title || annotations.title || tool.name;
  }

  function badges(tool) {
    var a = isObject(tool.annotations) ? tool.annotations : {};
    var list = [];
    if (a.readOnlyHint === true) {
      list.push("read-only");
    }
    if (a.destructiveHint === true && a.readOnlyHint !== true) {
      list.push("destructive");
    }
    if (a.idempotentHint === true) {
      list.push("idempotent");
    }
    if (a.openWorldHint === false) {
      list.push("closed world");
    } else if (a.openWorldHint === true) {
      list.push("open world");
    }
    var box = element("span", "host-badges");
    list.forEach(function (name) {
      box.appendChild(element("span", "host-badge", name)).setAttribute("data-annotation", name);
    });
    return box;
  }

  function showTools(tools) {
    var before = state.tools.filter(function (tool) { return tool.name === state.selected; })[0];
    state.tools = tools;
    view.tools.textContent = "";
    tools.forEach(function (tool) {
      var item = view.tools.appendChild(element("li"));
      item.setAttribute("data-tool", tool.name);
      var button = item.appendChild(element("button", "host-tool"));
      button.setAttribute("type", "button");
      if (toolTitle(tool) !== tool.name) {
        button.appendChild(element("span", "host-tool-title", toolTitle(tool)));
      }
      button.appendChild(element("code", "host-tool-name", tool.name));
      if (typeof tool.description === "string") {
        button.appendChild(element("span", "host-tool-summary", tool.description.split("\n")[0]));
      }
      button.appendChild(badges(tool));
      button.addEventListener("click", function () {
        select(tool.name);
      });
    });
    var after = tools.filter(function (tool) { return tool.name === state.selected; })[0];
    if (before && after && JSON.stringify(before) === JSON.stringify(after)) {
      // The tool shown is unchanged: its form (and what was typed in it) stays.
      markSelected(after.name);
      return;
    }
    var wanted = decodeURIComponent(location.hash.slice(1));
    var first = tools.some(function (tool) { return tool.name === wanted; }) ? wanted : tools.length ? tools[0].name : null;
    if (first !== null) {
      select(first);
    }
  }

  function markSelected(name) {
    Array.prototype.forEach.call(view.tools.children, function (item) {
      item.setAttribute("aria-current", item.getAttribute("data-tool") === name ? "true" : "false");
    });
  }

  function select(name) {
    var tool = state.tools.filter(function (candidate) { return candidate.name === name; })[0];
    if (!tool || state.running) {
      return;
    }
    state.selected = name;
    markSelected(name);
    if (location.hash.slice(1) !== encodeURIComponent(name)) {
      history.replaceState(null, "", "#" + encodeURIComponent(name));
    }
    resetRun();
    showPanel(tool);
  }

  function showPanel(tool) {
    view.panel.textContent = "";
    view.panel.setAttribute("data-selected-tool", tool.name);
    var head = view.panel.appendChild(element("div", "host-panel-head"));
    head.appendChild(element("h2", "", toolTitle(tool)));
    if (toolTitle(tool) !== tool.name) {
      head.appendChild(element("code", "host-tool-name", tool.name));
    }
    head.appendChild(badges(tool));
    if (typeof tool.description === "string") {
      tool.description.split(/\n\s*\n/).forEach(function (paragraph) {
        view.panel.appendChild(element("p", "host-description", paragraph));
      });
    }
    view.panel.appendChild(buildForm(tool));
  }

  // ---- forms from input schemas --------------------------------------------

  // Follows local references ("#/$defs/X"); the referring schema's own keys
  // (such as its description) win over the target's.
  function resolve(schema, root) {
    for (var depth = 0; isObject(schema) && typeof schema.$ref === "string" && depth < 16; depth += 1) {
      var target = pointer(root, schema.$ref);
      if (!isObject(target)) {
        return {};
      }
      var merged = Object.assign({}, target, schema);
      delete merged.$ref;
      if (typeof target.$ref === "string") {
        merged.$ref = target.$ref;
      }
      schema = merged;
    }
    return isObject(schema) ? schema : {};
  }

  function pointer(root, ref) {
    if (ref.indexOf("#") !== 0) {
      return null;
    }
    return ref.slice(1).split("/").slice(1).reduce(function (node, part) {
      var key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      return isObject(node) && Object.prototype.hasOwnProperty.call(node, key) ? node[key] : null;
    }, root);
  }

  function isNullSchema(schema) {
    return isObject(schema) && (schema.type === "null" || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null));
  }

  // What input a property takes: {type, nullable, values, schema}.
  function describe(schema, root) {
    schema = resolve(schema, root);
    var union = schema.anyOf || schema.oneOf;
    if (Array.isArray(union)) {
      var options = union.filter(function (option) { return !isNullSchema(resolve(option, root)); });
      if (options.length === 1) {
        var inner = describe(Object.assign({}, resolve(options[0], root), pick(schema, ["description", "default"])), root);
        inner.nullable = inner.nullable || options.length < union.length;
        return inner;
      }
      return { type: "json", nullable: options.length < union.length, schema: schema };
    }
    var types = Array.isArray(schema.type) ? schema.type : [schema.type];
    var nullable = types.indexOf("null") >= 0;
    types = types.filter(function (type) { return type !== "null" && type !== undefined; });
    if (Array.isArray(schema.enum) || schema.const !== undefined) {
      var values = (schema.enum || [schema.const]).filter(function (value) { return value !== null; });
      return { type: "enum", nullable: nullable || values.length < (schema.enum || [schema.const]).length, values: values, schema: schema };
    }
    var type = types.length === 1 ? types[0] : "json";
    if (["string", "number", "integer", "boolean"].indexOf(type) < 0) {
      type = "json";
    }
    return { type: type, nullable: nullable, schema: schema };
  }

  function pick(object, keys) {
    var out = {};
    keys.forEach(function (key) {
      if (object[key] !== undefined) {
        out[key] = object[key];
      }
    });
    return out;
  }

  function buildForm(tool) {
    var root = isObject(tool.inputSchema) ? tool.inputSchema : {};
    var properties = isObject(root.properties) ? root.properties : {};
    var required = Array.isArray(root.required) ? root.required : [];
    var form = element("form", "host-form");
    form.setAttribute("data-tool-form", tool.name);
    form.setAttribute("novalidate", "");
    var fields = Object.keys(properties).map(function (name) {
      var field = describe(properties[name], root);
      field.name = name;
      field.required = required.indexOf(name) >= 0 && !field.nullable;
      form.appendChild(fieldRow(field));
      return field;
    });
    if (!fields.length) {
      form.appendChild(element("p", "host-hint", "This tool takes no arguments."));
    }
    var actions = form.appendChild(element("div", "host-actions"));
    var submit = actions.appendChild(element("button", "host-submit", "Call " + tool.name));
    submit.setAttribute("type", "submit");
    var cancel = actions.appendChild(element("button", "host-cancel", "Cancel"));
    cancel.setAttribute("type", "button");
    cancel.hidden = true;
    cancel.addEventListener("click", cancelRun);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var args = collect(form, fields);
      if (args) {
        callTool(tool, args, form);
      }
    });
    return form;
  }

  function fieldRow(field) {
    var row = element("div", "host-field");
    row.setAttribute("data-field", field.name);
    var id = "arg-" + field.name.replace(/[^A-Za-z0-9_-]/g, "_") + "-" + (state.fields += 1);
    var label = row.appendChild(element("label", "", field.name));
    label.setAttribute("for", id);
    label.appendChild(element("span", "host-field-type", typeLabel(field)));
    var input = row.appendChild(inputFor(field));
    input.id = id;
    input.setAttribute("name", field.name);
    if (typeof field.schema.description === "string") {
      row.appendChild(element("div", "host-hint", field.schema.description));
    }
    row.appendChild(element("div", "host-field-error")).setAttribute("aria-live", "polite");
    return row;
  }

  function typeLabel(field) {
    var text = field.type === "enum" ? "one of" : field.type === "json" ? "JSON" : field.type;
    return field.required ? text : text + ", optional";
  }

  function inputFor(field) {
    var schema = field.schema;
    var fallback = schema.default;
    if (field.type === "enum") {
      return enumSelect(field.values, !field.required, fallback);
    }
    if (field.type === "boolean") {
      return field.required ? checkbox(fallback === true) : enumSelect([true, false], true, fallback);
    }
    if (field.type === "json") {
      var area = element("textarea", "host-json");
      area.setAttribute("rows", "3");
      area.setAttribute("spellcheck", "false");
      area.setAttribute("placeholder", schema.type === "array" ? "[ ]" : "JSON");
      if (fallback !== undefined) {
        area.value = JSON.stringify(fallback, null, 2);
      }
      return area;
    }
    if (field.type === "string") {
      return stringInput(fallback);
    }
    var input = element("input");
    input.setAttribute("type", "number");
    input.setAttribute("step", field.type === "integer" ? "1" : "any");
    ["minimum", "maximum"].forEach(function (key, index) {
      if (typeof schema[key] === "number") {
        input.setAttribute(index ? "max" : "min", String(schema[key]));
      }
    });
    if (fallback !== undefined && fallback !== null) {
      input.value = String(fallback);
    }
    return input;
  }

  // Strings may hold several lines: a one-line text area that grows, where
  // Enter submits and Shift+Enter starts a new line.
  function stringInput(fallback) {
    var area = element("textarea", "host-string");
    area.setAttribute("rows", "1");
    area.setAttribute("spellcheck", "false");
    if (typeof fallback === "string") {
      area.value = fallback;
    }
    area.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        area.form.requestSubmit();
      }
    });
    return area;
  }

  function checkbox(checked) {
    var box = element("input");
    box.setAttribute("type", "checkbox");
    box.checked = checked;
    return box;
  }

  function enumSelect(values, optional, fallback) {
    var select = element("select");
    if (optional) {
      select.appendChild(element("option", "", "(not set)")).setAttribute("value", "");
    }
    values.forEach(function (value) {
      var text = typeof value === "string" ? value : JSON.stringify(value);
      var option = select.appendChild(element("option", "", text));
      option.setAttribute("value", text);
      if (fallback !== undefined && JSON.stringify(fallback) === JSON.stringify(value)) {
        option.selected = true;
      }
    });
    return select;
  }

  // The arguments the form holds, or null (with the problems shown) when a
  // field does not parse.
  function collect(form, fields) {
    var args = {};
    var ok = true;
    fields.forEach(function (field) {
      var row = form.querySelector('[data-field="' + CSS.escape(field.name) + '"]');
      var problem = row.querySelector(".host-field-error");
      problem.textContent = "";
      try {
        var value = fieldValue(field, row.querySelector("[name]"));
        if (value !== undefined) {
          args[field.name] = value;
        }
      } catch (error) {
        problem.textContent = error.message;
        ok = false;
      }
    });
    return ok ? args : null;
  }

  function fieldValue(field, input) {
    if (field.type === "boolean" && field.required) {
      return input.checked;
    }
    if (field.type === "enum" || field.type === "boolean") {
      var values = field.type === "enum" ? field.values : [true, false];
      var index = input.selectedIndex - (field.required ? 0 : 1);
      return index < 0 ? undefined : values[index];
    }
    var raw = input.value;
    if (raw.trim() === "") {
      return field.type === "string" && field.required ? raw : undefined;
    }
    if (field.type === "string") {
      return raw;
    }
    if (field.type === "json") {
      try {
        return JSON.parse(raw);
      } catch (error) {
        throw new Error("not valid JSON: " + error.message);
      }
    }
    var number = Number(raw);
    if (!Number.isFinite(number)) {
      throw new Error("not a number");
    }
    if (field.type === "integer" && !Number.isInteger(number)) {
      throw new Error("not a whole number");
    }
    return number;
  }

  // ---- calling a tool -------------------------------------------------------

  function resetRun() {
    view.result.textContent = "";
    view.result.removeAttribute("data-kind");
    view.result.removeAttribute("data-status");
    view.progress.hidden = true;
    view.progress.querySelector("progress").removeAttribute("value");
    view.progress.querySelector(".host-progress-text").textContent = "";
    view.log.textContent = "";
    view.raw.textContent = "";
    view.task.hidden = true;
    view.task.removeAttribute("data-status");
    view.task.querySelector(".host-task-status").textContent = "";
    view.task.querySelector(".host-task-message").textContent = "";
  }

  function showRaw(direction, message) {
    var entry = view.raw.appendChild(element("div", "host-raw-message"));
    var label = direction + " " + (message.method || (message.error ? "error" : "result"));
    entry.appendChild(element("div", "host-raw-label", label));
    entry.appendChild(element("pre", "", JSON.stringify(message, null, 2)));
  }

  function onNotification(token) {
    return function (message) {
      showRaw("←", message);
      var params = isObject(message.params) ? message.params : {};
      if (message.method === "notifications/progress" && params.progressToken === token) {
        showProgress(params);
      } else if (message.method === "notifications/message") {
        showLog(params);
      }
    };
  }

  function showProgress(params) {
    var bar = view.progress.querySelector("progress");
    var hasTotal = typeof params.total === "number" && params.total > 0;
    if (hasTotal) {
      bar.max = params.total;
    }
    if (typeof params.progress === "number") {
      bar.value = params.progress;
    }
    var count = typeof params.progress === "number" ? params.progress + (hasTotal ? " / " + params.total : "") : "";
    var text = [typeof params.message === "string" ? params.message : "", count ? "(" + count + ")" : ""].join(" ").trim();
    view.progress.querySelector(".host-progress-text").textContent = text;
    view.progress.hidden = false;
  }

  function showLog(params) {
    var item = view.log.appendChild(element("li"));
    var level = typeof params.level === "string" ? params.level : "info";
    item.setAttribute("data-level", level);
    item.appendChild(element("span", "host-log-level", level));
    if (typeof params.logger === "string") {
      item.appendChild(element("span", "host-log-logger", params.logger));
    }
    var data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
    item.appendChild(element("span", "host-log-data", data));
  }

  function setRunning(form, running) {
    form.querySelector("button[type=submit]").disabled = running;
    form.querySelector(".host-cancel").hidden = !running;
    view.panel.setAttribute("aria-busy", running ? "true" : "false");
  }

  async function callTool(tool, args, form) {
    resetRun();
    state.calls += 1;
    var token = "host-page-" + state.calls;
    var request = {
      jsonrpc: "2.0",
      id: nextId(),
      method: "tools/call",
      params: { name: tool.name, arguments: args, _meta: { progressToken: token } }
    };
    var controller = new AbortController();
    state.running = { id: request.id, controller: controller };
    setRunning(form, true);
    showRaw("→", request);
    try {
      var response = await post(request, onNotification(token), controller.signal);
      showRaw("←", response);
      if (isObject(response.result) && response.result.resultType === "task") {
        await followTask(response.result, controller.signal);
      } else {
        showResponse(response);
      }
    } catch (error) {
      var cancelled = state.running.cancelled || controller.signal.aborted;
      CodeagentRenderer.renderText(view.result, cancelled ? "The call was cancelled." : "The call failed: " + error.message, true);
    } finally {
      state.running = null;
      setRunning(form, false);
    }
  }

  function wait(ms, signal) {
    return new Promise(function (resolve) {
      var timer = setTimeout(resolve, ms);
      if (signal) {
        signal.addEventListener("abort", function () {
          clearTimeout(timer);
          resolve();
        });
      }
    });
  }

  function showTask(task) {
    var status = typeof task.status === "string" ? task.status : "unknown";
    view.task.hidden = false;
    view.task.setAttribute("data-status", status);
    view.task.querySelector(".host-task-status").textContent = "task " + status.replace("_", " ");
    view.task.querySelector(".host-task-message").textContent =
      typeof task.statusMessage === "string" ? task.statusMessage : "";
  }

  // Polls a task the server made of the call until it ends, showing each
  // status it reports, then renders how it ended. Cancelling the run sends
  // tasks/cancel and waits for the task to say it stopped.
  async function followTask(task, signal) {
    var id = task.taskId;
    state.running.task = id;
    var last = null;
    showTask(task);
    for (;;) {
      if (task.status === "completed") {
        CodeagentRenderer.render(view.result, isObject(task.result) ? task.result : {});
        return;
      }
      if (task.status === "failed") {
        var error = isObject(task.error) ? task.error : {};
        CodeagentRenderer.renderText(view.result, "The task failed: " + String(error.message) + " (JSON-RPC error " + error.code + ")", true);
        return;
      }
      if (task.status === "cancelled") {
        CodeagentRenderer.renderText(view.result, "The task was cancelled.", true);
        return;
      }
      var interval = typeof task.pollIntervalMs === "number" && task.pollIntervalMs > 0 ? task.pollIntervalMs : 1000;
      await wait(Math.min(interval, 5000), state.running.cancelled ? null : signal);
      task = await rpc("tasks/get", { taskId: id });
      var seen = task.status + "|" + (task.statusMessage || "");
      if (seen !== last) {
        showRaw("←", { jsonrpc: "2.0", result: task });
        last = seen;
      }
      showTask(task);
    }
  }

  function showResponse(response) {
    if (isObject(response.error)) {
      var text = String(response.error.message) + " (JSON-RPC error " + response.error.code + ")";
      CodeagentRenderer.renderText(view.result, text, true);
    } else {
      CodeagentRenderer.render(view.result, response.result);
    }
  }

  function cancelRun() {
    var running = state.running;
    if (!running) {
      return;
    }
    running.cancelled = true;
    if (running.task) {
      // A task is cancelled with tasks/cancel; the page polls on until it ends.
      rpc("tasks/cancel", { taskId: running.task }).catch(function () {});
      return;
    }
    var notice = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: running.id, reason: "cancelled in the host page" } };
    showRaw("→", notice);
    post(notice).catch(function () {}).then(function () {
      running.controller.abort();
    });
  }

  // ---- news from the server ----------------------------------------------------

  // The levels of a log message that belongs to no call and shows in the banner.
  var SEVERE = ["error", "critical", "alert", "emergency"];

  // Listens on the session's standing stream (GET) for what belongs to no
  // call: a change of the tools re-lists them; a log message at error or
  // above shows in the banner (`cargo codeagent dev`'s failed rebuild, with
  // the compiler's errors) until the tools change again (a good rebuild) or
  // it is dismissed. The stream is opened again after a pause when it ends.
  async function listen() {
    for (;;) {
      try {
        var response = await fetch(ENDPOINT, {
          method: "GET",
          headers: { accept: "text/event-stream", "mcp-session-id": state.session, "mcp-protocol-version": PROTOCOL_VERSION },
          credentials: "same-origin",
          cache: "no-store"
        });
        if (response.status === 404 || response.status === 405) {
          // The session is gone, or the server offers no such stream.
          return;
        }
        if (response.ok && response.body) {
          await readEvents(response, onNews);
        }
      } catch (error) {
        // Reopened below.
      }
      await wait(2000);
    }
  }

  function onNews(message) {
    if (typeof message.method !== "string") {
      return false;
    }
    showRaw("←", message);
    var params = isObject(message.params) ? message.params : {};
    if (message.method === "notifications/tools/list_changed") {
      hideBanner();
      listTools().then(showTools).catch(function (error) {
        showBanner("error", "The tools changed but could not be listed again: " + error.message);
      });
    } else if (message.method === "notifications/message") {
      showLog(params);
      if (SEVERE.indexOf(params.level) >= 0) {
        showBanner(params.level, logText(params.data));
      }
    }
    return false;
  }

  // A log message's data as text: its `message` when it has one.
  function logText(data) {
    if (typeof data === "string") {
      return data;
    }
    if (isObject(data) && typeof data.message === "string") {
      return data.message;
    }
    return JSON.stringify(data);
  }

  function showBanner(level, text) {
    view.banner.setAttribute("data-level", level);
    view.banner.querySelector(".host-banner-text").textContent = text;
    view.banner.hidden = false;
  }

  function hideBanner() {
    view.banner.hidden = true;
    view.banner.querySelector(".host-banner-text").textContent = "";
  }

  view.banner.querySelector(".host-banner-close").addEventListener("click", hideBanner);

  // ---- start -----------------------------------------------------------------

  function showServer(info) {
    var server = isObject(info.serverInfo) ? info.serverInfo : {};
    var name = server.title || server.name || "MCP server";
    document.title = name + " — codeagent";
    view.server.textContent = "";
    view.server.appendChild(element("h1", "", name));
    var meta = [server.name, server.version, "MCP " + info.protocolVersion].filter(Boolean).join(" · ");
    view.server.appendChild(element("div", "host-server-meta", meta));
    if (typeof info.instructions === "string") {
      view.server.appendChild(element("p", "host-instructions", info.instructions));
    }
  }

  async function start() {
    view.connection.textContent = "Connecting…";
    try {
      var info = await connect();
      showServer(info);
      showTools(await listTools());
      view.connection.textContent = "";
      view.connection.setAttribute("data-connection", "ready");
      listen();
    } catch (error) {
      view.connection.textContent = "Cannot reach the MCP endpoint: " + error.message;
      view.connection.setAttribute("data-connection", "failed");
    }
  }

  start();
})();
