// Shared by the pages: a DOM builder that only ever makes text nodes from data (nothing from a
// log becomes HTML), a value's text, and a JSON fetch of the API with the page's cookie (status 0
// when no answer came).
"use strict";
// What an answer that never came holds (status 0): the server is down or the network is.
const UNREACHABLE = { error: { rule: null, message: "cannot reach the server (check the connection; trying the same command again sends it once)" } };
window.tl = {
  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  },
  async api(url, body) {
    const opts = { credentials: "same-origin", headers: { "Content-Type": "application/json" } };
    if (body !== undefined) { opts.method = "POST"; opts.body = JSON.stringify(body); }
    let r;
    try { r = await fetch(url, opts); } catch (e) { return { status: 0, body: UNREACHABLE }; }
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    return { status: r.status, body: data };
  },
  // A value as the page shows it: "–" for none, JSON for a list or a map.
  fmt: (v) => (v === null || v === undefined) ? "–" : (typeof v === "object" ? JSON.stringify(v) : String(v)),
  errorText: (b) => b && b.error ? `error: ${b.error.rule ? b.error.rule + ": " : ""}${b.error.message}` : "error",
};
