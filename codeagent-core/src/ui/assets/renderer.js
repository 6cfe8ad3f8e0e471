// The artifact renderer: turns an MCP CallToolResult (or an artifact and its
// fallback text) into DOM nodes. Every string from a result is inserted with
// textContent or as an attribute value it cannot escape from; nothing is
// parsed as HTML, nothing is fetched, and only raster images given as base64
// data are shown (as data: URLs). The same kinds, class names and layout as
// the server-side card (codeagent-core/src/display/card.rs).
var CodeagentRenderer = (function () {
  "use strict";

  var SCHEMA = "codeagent.tool-artifact";
  var META_KEY = "dev.codeagent/artifact";
  var RASTER = ["image/png", "image/jpeg", "image/gif", "image/webp"];
  var BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
  var PAGE_ROWS = 50;
  var MAX_DIFF_CELLS = 4000000;

  // ---- small helpers ------------------------------------------------------

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  function isString(value) {
    return typeof value === "string";
  }

  function optionalString(value) {
    return value === undefined || value === null || isString(value);
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined && text !== null) {
      node.textContent = text;
    }
    return node;
  }

  function note(text) {
    return element("p", "codeagent-note", text);
  }

  function preformatted(text, className) {
    return element("pre", className || "", text);
  }

  // ---- finding and checking the artifact ----------------------------------

  var payloadChecks = {
    text: function (p) {
      return isString(p.text);
    },
    table: function (p) {
      var df = p.df;
      return isObject(df) && Array.isArray(df.columns) && Array.isArray(df.rows) &&
        df.columns.every(isObject) && df.rows.every(Array.isArray);
    },
    image: function (p) {
      return Array.isArray(p.images) && p.images.every(isObject) && optionalString(p.output);
    },
    code: function (p) {
      return isString(p.text) && optionalString(p.lang) && optionalString(p.filename) && optionalString(p.output);
    },
    diff: function (p) {
      return isString(p.old) && isString(p.new) && optionalString(p.path);
    },
    error: function (p) {
      return isString(p.message);
    }
  };

  // The artifact when it is one this renderer understands: schema, version 1,
  // a known kind, a well-formed payload; otherwise null.
  function trustedArtifact(value) {
    if (!isObject(value) || value.schema !== SCHEMA || value.version !== 1) {
      return null;
    }
    if (!isString(value.kind) || !Object.prototype.hasOwnProperty.call(payloadChecks, value.kind)) {
      return null;
    }
    if (!isString(value.status) || !optionalString(value.icon) || !optionalString(value.title)) {
      return null;
    }
    if (!isObject(value.payload) || !payloadChecks[value.kind](value.payload)) {
      return null;
    }
    return value;
  }

  // The artifact a CallToolResult carries: in _meta, or as its structured content.
  function artifactOf(result) {
    if (!isObject(result)) {
      return null;
    }
    var meta = isObject(result._meta) ? result._meta[META_KEY] : undefined;
    var candidate = meta !== undefined ? withStructured(meta, result.structuredContent, result.content) : result.structuredContent;
    var artifact = trustedArtifact(candidate);
    return artifact && artifact.kind === "image" ? withImageData(artifact, result.content) : artifact;
  }

  // An artifact in _meta names the payload field the result's structured
  // content holds (`structuredContent: "df"` for a table's data, `"text"` for
  // the code of a JSON result): a copy with that field put back.
  function withStructured(artifact, structured, blocks) {
    if (!isObject(artifact) || !isObject(artifact.payload) || structured === undefined) {
      return artifact;
    }
    var field = artifact.payload.structuredContent;
    if ((field !== "df" && field !== "text") || Object.prototype.hasOwnProperty.call(artifact.payload, field)) {
      return artifact;
    }
    var payload = Object.assign({}, artifact.payload);
    delete payload.structuredContent;
    payload[field] = field === "df" ? structured : prettyJson(structured, blocks);
    return Object.assign({}, artifact, { payload: payload });
  }

  // The structured content pretty-printed the way the server prints it. The
  // server's text block holds the same JSON compactly, with its numbers as
  // written (2400.0 stays 2400.0): re-indented token by token when it is that
  // JSON, JSON.stringify otherwise.
  function prettyJson(structured, blocks) {
    var compact = null;
    (Array.isArray(blocks) ? blocks : []).some(function (block) {
      if (!isObject(block) || block.type !== "text" || !isString(block.text)) {
        return false;
      }
      try {
        if (JSON.stringify(JSON.parse(block.text)) === JSON.stringify(structured)) {
          compact = block.text;
        }
      } catch (error) {
        compact = null;
      }
      return true;
    });
    return compact === null ? JSON.stringify(structured, null, 2) : reindent(compact);
  }

  function reindent(text) {
    var out = "";
    var depth = 0;
    var inString = false;
    var newline = function () {
      return "\n" + "  ".repeat(depth);
    };
    for (var i = 0; i < text.length; i += 1) {
      var ch = text[i];
      if (inString) {
        out += ch;
        if (ch === "\\") {
          out += text[i + 1];
          i += 1;
        } else if (ch === "\"") {
          inString = false;
        }
      } else if (ch === "\"") {
        inString = true;
        out += ch;
      } else if (ch === "{" || ch === "[") {
        var close = ch === "{" ? "}" : "]";
        if (text[i + 1] === close) {
          out += ch + close;
          i += 1;
        } else {
          depth += 1;
          out += ch + newline();
        }
      } else if (ch === "}" || ch === "]") {
        depth -= 1;
        out += newline() + ch;
      } else if (ch === ",") {
        out += "," + newline();
      } else if (ch === ":") {
        out += ": ";
      } else if (ch !== " " && ch !== "\n" && ch !== "\t" && ch !== "\r") {
        out += ch;
      }
    }
    return out;
  }

  // Image entries in an MCP result refer to an image block by index
  // (`content: N`) in place of `b64`: a copy with the bytes put back.
  function withImageData(artifact, content) {
    var blocks = Array.isArray(content) ? content : [];
    var images = artifact.payload.images.map(function (image) {
      if (isString(image.b64) || typeof image.content !== "number") {
        return image;
      }
      var block = blocks[image.content];
      var usable = isObject(block) && block.type === "image" && isString(block.data) &&
        (image.mime === undefined || image.mime === block.mimeType);
      return usable ? { mime: block.mimeType, b64: block.data } : { mime: image.mime };
    });
    var payload = Object.assign({}, artifact.payload, { images: images });
    return Object.assign({}, artifact, { payload: payload });
  }

  // The text blocks of a result: what is shown when there is no artifact.
  function textOf(result) {
    var content = isObject(result) && Array.isArray(result.content) ? result.content : [];
    return content.filter(function (block) {
      return isObject(block) && block.type === "text" && isString(block.text);
    }).map(function (block) {
      return block.text;
    }).join("\n\n");
  }

  // ---- Markdown: a small subset, built as DOM nodes -----------------------

  // One alternative per inline construct; the group numbers are read by inlineNode.
  var INLINE = [
    "(`+)([\\s\\S]*?[^`])\\1(?!`)", // 1, 2: code span
    "!\\[([^\\]]*)\\]\\(((?:[^()\\s]|\\([^()\\s]*\\))*)(?:\\s+\"[^\"]*\")?\\)", // 3, 4: image (its alt text)
    "\\[([^\\]]+)\\]\\(((?:[^()\\s]|\\([^()\\s]*\\))*)(?:\\s+\"[^\"]*\")?\\)", // 5, 6: link
    "<((?:https?:\\/\\/|mailto:)[^\\s<>]+)>", // 7: autolink
    "(\\*\\*|(?<![A-Za-z0-9])__)(?=\\S)([\\s\\S]*?\\S)\\8(?![A-Za-z0-9_])", // 8, 9: strong
    "(\\*|(?<![A-Za-z0-9])_)(?=\\S)([\\s\\S]*?\\S)\\10(?![A-Za-z0-9_])", // 10, 11: emphasis
    "~~(?=\\S)([\\s\\S]*?\\S)~~", // 12: strikethrough
    "\\\\([!-\\/:-@\\[-`{-~])" // 13: backslash escape
  ].join("|");

  function safeHref(url) {
    return /^(https?:|mailto:)/i.test(url) ? url : null;
  }

  function appendInline(parent, text, options) {
    var pattern = new RegExp(INLINE, "g");
    var done = 0;
    var match;
    while ((match = pattern.exec(text)) !== null) {
      if (match.index > done) {
        parent.appendChild(document.createTextNode(text.slice(done, match.index)));
      }
      parent.appendChild(inlineNode(match, options));
      done = pattern.lastIndex;
    }
    if (done < text.length) {
      parent.appendChild(document.createTextNode(text.slice(done)));
    }
  }

  function inlineNode(match, options) {
    if (match[1]) {
      return element("code", "", match[2].replace(/^ (.*) $/, "$1"));
    }
    if (match[4] !== undefined) {
      return element("span", "codeagent-img-alt", match[3] ? "[image: " + match[3] + "]" : "[image]");
    }
    if (match[5] !== undefined) {
      return link(match[5], match[6], options);
    }
    if (match[7] !== undefined) {
      return link(match[7], match[7], options, true);
    }
    if (match[13] !== undefined) {
      return document.createTextNode(match[13]);
    }
    var tag = match[8] ? "strong" : match[10] ? "em" : "del";
    var node = element(tag);
    appendInline(node, match[9] || match[11] || match[12], options);
    return node;
  }

  function link(label, url, options, literal) {
    var href = safeHref(url);
    var node = element(href ? "a" : "span");
    if (literal) {
      node.textContent = label;
    } else {
      appendInline(node, label, options);
    }
    if (href) {
      node.setAttribute("href", href);
      node.setAttribute("rel", "noopener noreferrer nofollow");
      node.setAttribute("target", "_blank");
      if (options.openLink) {
        node.addEventListener("click", function (event) {
          event.preventDefault();
          options.openLink(href);
        });
      }
    }
    return node;
  }

  var BLOCK_STARTS = /^(#{1,6}\s|```|~~~|>|\s*[-*+]\s|\s*\d{1,9}[.)]\s|\s*(?:[-*_]\s*){3,}$)/;

  function markdown(source, options) {
    var lines = source.replace(/\r\n?/g, "\n").split("\n");
    var root = element("div", "codeagent-markdown");
    var i = 0;
    while (i < lines.length) {
      i = markdownBlock(root, lines, i, options || {});
    }
    return root;
  }

  // Appends the block starting at line i; the index of the line after it.
  function markdownBlock(parent, lines, i, options) {
    var line = lines[i];
    var fence = /^(```|~~~)/.exec(line);
    if (fence) {
      return codeFence(parent, lines, i, fence[1]);
    }
    if (/^\s*$/.test(line)) {
      return i + 1;
    }
    var heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      var h = element("h" + heading[1].length);
      appendInline(h, heading[2], options);
      parent.appendChild(h);
      return i + 1;
    }
    if (/^\s*(?:[-*_]\s*){3,}$/.test(line)) {
      parent.appendChild(element("hr"));
      return i + 1;
    }
    if (/^>/.test(line)) {
      return blockquote(parent, lines, i, options);
    }
    if (/^\s*(?:[-*+]|\d{1,9}[.)])\s/.test(line)) {
      return list(parent, lines, i, options);
    }
    if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(lines[i + 1])) {
      return pipeTable(parent, lines, i, options);
    }
    return paragraph(parent, lines, i, options);
  }

  function codeFence(parent, lines, i, marker) {
    var body = [];
    var j = i + 1;
    while (j < lines.length && lines[j].indexOf(marker) !== 0) {
      body.push(lines[j]);
      j += 1;
    }
    var pre = element("pre");
    var code = element("code", "", body.length ? body.join("\n") + "\n" : "");
    var lang = lines[i].slice(marker.length).trim().split(/\s/)[0];
    if (lang) {
      code.setAttribute("data-lang", lang);
    }
    pre.appendChild(code);
    parent.appendChild(pre);
    return j + 1;
  }

  function blockquote(parent, lines, i, options) {
    var inner = [];
    while (i < lines.length && /^>/.test(lines[i])) {
      inner.push(lines[i].replace(/^> ?/, ""));
      i += 1;
    }
    var quote = element("blockquote");
    var j = 0;
    while (j < inner.length) {
      j = markdownBlock(quote, inner, j, options);
    }
    parent.appendChild(quote);
    return i;
  }

  function list(parent, lines, i, options) {
    var ordered = /^\s*\d/.test(lines[i]);
    var node = element(ordered ? "ol" : "ul");
    var item = ordered ? /^\s*\d{1,9}[.)]\s+(.*)$/ : /^\s*[-*+]\s+(.*)$/;
    var current = null;
    while (i < lines.length && !/^\s*$/.test(lines[i])) {
      var match = item.exec(lines[i]);
      if (match) {
        current = element("li");
        node.appendChild(current);
        appendTaskOrText(current, match[1], options);
      } else if (current && !BLOCK_STARTS.test(lines[i])) {
        current.appendChild(document.createTextNode(" "));
        appendInline(current, lines[i].trim(), options);
      } else {
        break;
      }
      i += 1;
    }
    parent.appendChild(node);
    return i;
  }

  function appendTaskOrText(item, text, options) {
    var task = /^\[([ xX])\]\s+(.*)$/.exec(text);
    if (task) {
      var box = element("input");
      box.setAttribute("type", "checkbox");
      box.setAttribute("disabled", "");
      box.checked = task[1] !== " ";
      item.appendChild(box);
      item.appendChild(document.createTextNode(" "));
      text = task[2];
    }
    appendInline(item, text, options);
  }

  function tableCells(line) {
    return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map(function (cell) {
      return cell.trim();
    });
  }

  function pipeTable(parent, lines, i, options) {
    var table = element("table");
    var headRow = element("tr");
    tableCells(lines[i]).forEach(function (cell) {
      var th = element("th");
      appendInline(th, cell, options);
      headRow.appendChild(th);
    });
    table.appendChild(element("thead")).appendChild(headRow);
    var body = table.appendChild(element("tbody"));
    i += 2;
    while (i < lines.length && /^\s*\|/.test(lines[i])) {
      var row = body.appendChild(element("tr"));
      tableCells(lines[i]).forEach(function (cell) {
        var td = element("td");
        appendInline(td, cell, options);
        row.appendChild(td);
      });
      i += 1;
    }
    parent.appendChild(table);
    return i;
  }

  function paragraph(parent, lines, i, options) {
    var text = [lines[i].trim()];
    i += 1;
    while (i < lines.length && !/^\s*$/.test(lines[i]) && !BLOCK_STARTS.test(lines[i])) {
      text.push(lines[i].trim());
      i += 1;
    }
    var p = element("p");
    appendInline(p, text.join("\n"), options);
    parent.appendChild(p);
    return i;
  }

  // ---- the kinds ----------------------------------------------------------

  function fileName(name) {
    return element("div", "codeagent-filename", name);
  }

  function appendOutput(body, output) {
    if (isString(output) && output.length > 0) {
      body.appendChild(preformatted(output, "codeagent-output"));
    }
  }

  var kinds = {
    text: function (body, p, options) {
      body.appendChild(markdown(p.text, options));
    },
    table: function (body, p) {
      body.appendChild(pagedTable(p.df.columns, p.df.rows));
    },
    image: function (body, p) {
      p.images.forEach(function (image) {
        body.appendChild(imageNode(image));
      });
      appendOutput(body, p.output);
    },
    code: function (body, p) {
      if (isString(p.filename) || isString(p.lang)) {
        var head = body.appendChild(element("div", "codeagent-code-head"));
        if (isString(p.filename)) {
          head.appendChild(fileName(p.filename));
        }
        if (isString(p.lang)) {
          head.appendChild(element("span", "codeagent-lang", p.lang));
        }
      }
      var pre = body.appendChild(element("pre"));
      var code = pre.appendChild(element("code", "", p.text));
      if (isString(p.lang)) {
        code.setAttribute("data-lang", p.lang);
      }
      appendOutput(body, p.output);
    },
    diff: function (body, p) {
      if (isString(p.path)) {
        body.appendChild(fileName(p.path));
      }
      body.appendChild(diffNode(p.old, p.new));
    },
    error: function (body, p) {
      body.appendChild(element("p", "codeagent-error", p.message));
      if (isString(p.detail)) {
        body.appendChild(preformatted(p.detail));
      } else if (p.detail !== undefined && p.detail !== null) {
        body.appendChild(preformatted(JSON.stringify(p.detail)));
      }
    }
  };

  function imageNode(image) {
    var mime = isString(image.mime) ? image.mime : "";
    var b64 = isString(image.b64) ? image.b64 : "";
    if (RASTER.indexOf(mime) < 0 || b64.length % 4 !== 0 || !BASE64.test(b64)) {
      return note("[image of type " + mime + " not shown]");
    }
    var img = element("img", "codeagent-image");
    img.setAttribute("alt", mime);
    img.setAttribute("src", "data:" + mime + ";base64," + b64);
    return img;
  }

  // ---- tables, paged -------------------------------------------------------

  function cellText(value, type) {
    if (value === null || value === undefined) {
      return "";
    }
    if (isString(value)) {
      return value;
    }
    if (typeof value === "number" && type === "number" && Number.isInteger(value) && Math.abs(value) < 1e16) {
      return value.toFixed(1);
    }
    return JSON.stringify(value);
  }

  function pagedTable(columns, rows) {
    var wrap = element("div", "codeagent-table");
    var scroller = wrap.appendChild(element("div", "codeagent-table-scroll"));
    var table = scroller.appendChild(element("table"));
    var headRow = table.appendChild(element("thead")).appendChild(element("tr"));
    columns.forEach(function (column) {
      var th = headRow.appendChild(element("th", "", isString(column.name) ? column.name : ""));
      if (isString(column.type)) {
        th.setAttribute("data-type", column.type);
      }
    });
    var tbody = table.appendChild(element("tbody"));
    var types = columns.map(function (column) {
      return column.type;
    });
    var pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS));
    var pager = rows.length > PAGE_ROWS ? wrap.appendChild(element("div", "codeagent-pager")) : null;
    function show(page) {
      tbody.textContent = "";
      rows.slice(page * PAGE_ROWS, (page + 1) * PAGE_ROWS).forEach(function (row) {
        var tr = tbody.appendChild(element("tr"));
        row.forEach(function (cell, index) {
          var td = tr.appendChild(element("td", "", cellText(cell, types[index])));
          if (types[index] === "integer" || types[index] === "number") {
            td.setAttribute("data-type", types[index]);
          }
        });
      });
      if (pager) {
        fillPager(pager, page, pages, rows.length, show);
      }
    }
    show(0);
    return wrap;
  }

  function fillPager(pager, page, pages, total, show) {
    pager.textContent = "";
    var first = page * PAGE_ROWS + 1;
    var last = Math.min(total, (page + 1) * PAGE_ROWS);
    pager.appendChild(pagerButton("Previous", "prev", page > 0, function () { show(page - 1); }));
    var status = pager.appendChild(element("span", "codeagent-pager-status",
      "Rows " + first + "–" + last + " of " + total + " (page " + (page + 1) + " of " + pages + ")"));
    status.setAttribute("aria-live", "polite");
    pager.appendChild(pagerButton("Next", "next", page + 1 < pages, function () { show(page + 1); }));
  }

  function pagerButton(label, role, enabled, onClick) {
    var button = element("button", "", label);
    button.setAttribute("type", "button");
    button.setAttribute("data-page", role);
    button.disabled = !enabled;
    button.addEventListener("click", onClick);
    return button;
  }

  // ---- diffs: a line diff (Myers), removed lines before added ones --------

  function splitLines(text) {
    return text.match(/[^\n]*\n|[^\n]+$/g) || [];
  }

  // The edit script turning a into b: [tag, line] with tag "eq", "del", "ins".
  function diffLines(a, b) {
    var start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) {
      start += 1;
    }
    var endA = a.length;
    var endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
      endA -= 1;
      endB -= 1;
    }
    var middle = middleScript(a.slice(start, endA), b.slice(start, endB));
    var script = a.slice(0, start).map(function (line) { return ["eq", line]; });
    return script.concat(middle, a.slice(endA).map(function (line) { return ["eq", line]; }));
  }

  function middleScript(a, b) {
    if ((a.length + 1) * (b.length + 1) > MAX_DIFF_CELLS) {
      return tagged("del", a).concat(tagged("ins", b));
    }
    return groupChanges(myers(a, b));
  }

  function tagged(tag, lines) {
    return lines.map(function (line) { return [tag, line]; });
  }

  // Myers' O(ND) shortest edit script, recorded per step and walked back.
  function myers(a, b) {
    var n = a.length;
    var m = b.length;
    var max = n + m;
    var offset = max + 1;
    var v = new Array(2 * max + 3).fill(0);
    var trace = [];
    for (var d = 0; d <= max; d += 1) {
      trace.push(v.slice());
      for (var k = -d; k <= d; k += 2) {
        var x = (k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1;
        var y = x - k;
        while (x < n && y < m && a[x] === b[y]) {
          x += 1;
          y += 1;
        }
        v[offset + k] = x;
        if (x >= n && y >= m) {
          return backtrack(trace, a, b, offset, d);
        }
      }
    }
    return [];
  }

  function backtrack(trace, a, b, offset, depth) {
    var script = [];
    var x = a.length;
    var y = b.length;
    for (var d = depth; d > 0; d -= 1) {
      var v = trace[d];
      var k = x - y;
      var down = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]);
      var prevK = down ? k + 1 : k - 1;
      var prevX = v[offset + prevK];
      var prevY = prevX - prevK;
      while (x > prevX && y > prevY) {
        x -= 1;
        y -= 1;
        script.push(["eq", a[x]]);
      }
      if (down) {
        y -= 1;
        script.push(["ins", b[y]]);
      } else {
        x -= 1;
        script.push(["del", a[x]]);
      }
    }
    while (x > 0 && y > 0) {
      x -= 1;
      y -= 1;
      script.push(["eq", a[x]]);
    }
    return script.reverse();
  }

  // Within each run of changes, removed lines come before added ones.
  function groupChanges(script) {
    var out = [];
    var dels = [];
    var ins = [];
    function flush() {
      out.push.apply(out, dels.concat(ins));
      dels = [];
      ins = [];
    }
    script.forEach(function (op) {
      if (op[0] === "eq") {
        flush();
        out.push(op);
      } else {
        (op[0] === "del" ? dels : ins).push(op);
      }
    });
    flush();
    return out;
  }

  var SIGNS = { del: "-", ins: "+", eq: " " };

  function diffNode(oldText, newText) {
    var pre = element("pre", "codeagent-diff");
    diffLines(splitLines(oldText), splitLines(newText)).forEach(function (op) {
      var line = op[1].slice(-1) === "\n" ? op[1] : op[1] + "\n";
      pre.appendChild(element("span", op[0], SIGNS[op[0]] + line));
    });
    return pre;
  }

  // ---- the card --------------------------------------------------------------

  function header(icon, title) {
    var head = element("div", "codeagent-card-header");
    if (isString(icon)) {
      var badge = head.appendChild(element("span", "codeagent-icon"));
      badge.setAttribute("data-icon", icon);
      badge.setAttribute("title", icon);
    }
    if (isString(title)) {
      head.appendChild(element("span", "codeagent-title", title));
    }
    return head;
  }

  function card(kind, isError, icon, title) {
    var node = element("div", "codeagent-card");
    node.setAttribute("data-kind", kind);
    node.setAttribute("data-status", isError ? "error" : "success");
    if (isString(icon) || isString(title)) {
      node.appendChild(header(icon, title));
    }
    return node;
  }

  function mount(container, node) {
    container.textContent = "";
    container.appendChild(node);
    container.setAttribute("data-kind", node.getAttribute("data-kind"));
    container.setAttribute("data-status", node.getAttribute("data-status"));
    return { kind: node.getAttribute("data-kind"), status: node.getAttribute("data-status") };
  }

  // Renders a trusted artifact, or the fallback text when `artifact` is not
  // one; never throws on malformed input.
  function renderArtifact(container, artifact, fallbackText, isError, options) {
    var trusted = trustedArtifact(artifact);
    if (!trusted) {
      return renderText(container, fallbackText, isError);
    }
    try {
      var failed = isError || trusted.status === "error" || trusted.kind === "error";
      var node = card(trusted.kind, failed, trusted.icon, trusted.title);
      var body = node.appendChild(element("div", "codeagent-card-body"));
      kinds[trusted.kind](body, trusted.payload, options || {});
      return mount(container, node);
    } catch (error) {
      return renderText(container, fallbackText, isError);
    }
  }

  // Renders plain text (a result without a usable artifact).
  function renderText(container, text, isError) {
    var node = card("text", isError, null, null);
    var body = node.appendChild(element("div", "codeagent-card-body"));
    body.appendChild(isString(text) && text.length > 0 ? preformatted(text) : note("(no text content)"));
    return mount(container, node);
  }

  // Renders an MCP CallToolResult.
  function render(container, result, options) {
    var isError = isObject(result) && result.isError === true;
    var artifact = null;
    try {
      artifact = artifactOf(result);
    } catch (error) {
      artifact = null;
    }
    return renderArtifact(container, artifact, textOf(result), isError, options);
  }

  return {
    render: render,
    renderArtifact: renderArtifact,
    renderText: renderText,
    artifactOf: artifactOf,
    trustedArtifact: trustedArtifact,
    markdown: markdown,
    diffLines: function (oldText, newText) {
      return diffLines(splitLines(oldText), splitLines(newText));
    },
    PAGE_ROWS: PAGE_ROWS,
    element: element,
    isObject: isObject
  };
})();
