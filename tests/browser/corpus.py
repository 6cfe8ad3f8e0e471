"""The XSS corpus: strings that would run `__xss(...)` (the trap every page
installs), open a dialog or load something from elsewhere if any of them were
inserted as markup or followed as a URL."""

import base64

PAYLOADS = [
    '<script>__xss("script")</script>',
    '<img src=x onerror=__xss("img")>',
    '"><svg onload=__xss("svg")>',
    "'><svg/onload=__xss('svg2')>",
    '<svg><script>__xss("svg-script")</script></svg>',
    "<iframe src=\"javascript:__xss('iframe')\"></iframe>",
    'javascript:__xss("js-url")',
    'data:text/html,<script>__xss("data-url")</script>',
    "<a href=\"javascript:__xss('a')\">link</a>",
    '<img src="https://evil.example/pixel.png">',
    "<style>body{background:URL(https://evil.example/bg)}</style>",
    '<math><mtext><table><mglyph><style><img src=x onerror=__xss("mxss")>',
    '</pre></code></td></table></div><script>__xss("close")</script>',
    "{{constructor.constructor('__xss(1)')()}}",
    '${__xss("template")}',
    '<details open ontoggle=__xss("details")>',
    "<object data=\"javascript:__xss('object')\"></object>",
    '<base href="https://evil.example/">',
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:__xss('meta')\">",
    "<form action=\"javascript:__xss('form')\"><button>go</button></form>",
    "alert('dialog')",
]

# Markdown-only payloads: links and images with dangerous or remote URLs.
MARKDOWN_PAYLOADS = [
    '[click me](javascript:__xss("md-link"))',
    '[JaVaScRiPt](JaVaScRiPt:__xss("case"))',
    "[data](data:text/html,<script>__xss(1)</script>)",
    "[vb](vbscript:msgbox(1))",
    "![remote pixel](https://evil.example/md.png)",
    "![inline svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9X194c3MoMSk+)",
    "<img src=x onerror=__xss(\"md-html\")>",
]

# One string holding every payload, one per line.
CORPUS = "\n".join(PAYLOADS)

# Markdown with every payload in its own paragraph.
MARKDOWN = "\n\n".join(PAYLOADS + MARKDOWN_PAYLOADS)

SVG_WITH_SCRIPT = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg" onload="__xss(\'svg-image\')"><script>__xss("svg-image-script")</script></svg>').decode()

# Image MIME types that must be named, never shown.
IMAGE_TYPES = [
    "image/svg+xml",
    "text/html",
    'image/png" onerror="__xss(\'mime\')',
    'data:text/html,<script>__xss("mime-data")</script>',
    "image/png;base64,AAAA\" onload=\"__xss('mime-param')",
    "javascript:__xss('mime-js')",
    "IMAGE/PNG",
]

# What a rendered result may contain: no element that loads or runs
# anything, no event handler, no URL but data: raster images and
# http(s)/mailto links; and the document keeps its single script.
CLEAN_DOM = """(selector) => {
  const problems = [];
  const root = document.querySelector(selector);
  const banned = ["script", "style", "iframe", "object", "embed", "svg", "math", "base", "meta", "form", "link", "frame", "video", "audio", "source"];
  for (const el of root.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      if (/^on/i.test(attr.name)) problems.push(`${el.tagName} has ${attr.name}`);
    }
    const tag = el.tagName.toLowerCase();
    if (banned.includes(tag)) problems.push(`a <${tag}> element`);
    if (tag === "img" && !/^data:image\\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/.test(el.getAttribute("src") || "")) {
      problems.push(`an image from ${el.getAttribute("src")}`);
    }
    const href = el.getAttribute("href");
    if (href !== null && !/^(https?:|mailto:)/i.test(href)) problems.push(`a link to ${href}`);
  }
  const scripts = document.querySelectorAll("script").length;
  if (scripts !== 1) problems.push(`${scripts} scripts in the document`);
  return problems;
}"""
