// The artifact renderer (replaced by the full renderer).
var CodeagentRenderer = (function () {
  "use strict";
  function render(container, result) {
    container.textContent = "";
    var text = "";
    (result && Array.isArray(result.content) ? result.content : []).forEach(function (block) {
      if (block && block.type === "text" && typeof block.text === "string") { text += block.text; }
    });
    var pre = document.createElement("pre");
    pre.textContent = text;
    container.appendChild(pre);
    container.setAttribute("data-kind", "text");
    container.setAttribute("data-status", result && result.isError ? "error" : "success");
  }
  return { render: render };
})();
