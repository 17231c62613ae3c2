// Shared by the pages: a DOM builder that only ever makes text nodes from data (nothing from a
// log becomes HTML), the page's words (t(): every sentence a person reads is a template of the
// gettext catalogue, context "web.*", served in the seat's language by GET /i18n/LANG), the
// seat's language and theme (kept in localStorage per table and seat), local times, and a JSON
// fetch of the API with the page's cookie and the seat's language (status 0: no answer came).
"use strict";
(() => {
  const LANGS = ["ja", "ko", "en"];
  // Each language's own name (an autonym is the same in every language: not a sentence).
  const AUTONYMS = { ja: "日本語", ko: "한국어", en: "English" };
  let lang = "en", words = {};

  // A template: "{name}" fields filled from values (text, never HTML).
  const fill = (text, values) => String(text).replace(/\{(\w+)\}/g, (m, k) =>
    (values && values[k] !== undefined && values[k] !== null ? String(values[k]) : m));

  // The sentence `text` (English) of template `id` in the seat's language. Babel extracts every
  // call (babel.cfg: keyword t:1c,2): both arguments are literal strings.
  function t(id, text, values) {
    const found = words[`${id}\u0004${text}`];
    return fill(typeof found === "string" && found ? found : text, values);
  }
  // A sentence whose form depends on n (given to the template as {n}): tn:1c,2,3.
  function tn(id, one, other, n, values) {
    const forms = words[`${id}\u0004${one}`];
    const all = { ...values, n };
    if (Array.isArray(forms) && forms.length) {
      const index = forms.length === 1 ? 0 : (new Intl.PluralRules(lang).select(n) === "one" ? 0 : 1);
      if (forms[Math.min(index, forms.length - 1)]) return fill(forms[Math.min(index, forms.length - 1)], all);
    }
    return fill(n === 1 ? one : other, all);
  }

  // The seat's language: its choice in this browser (localStorage, per table and seat), else the
  // first of the browser's languages that is ja, ko or en, else English.
  const storeKey = (scope) => `tl:lang:${scope}`;
  function chosen(scope) {
    try {
      const kept = localStorage.getItem(storeKey(scope));
      if (LANGS.includes(kept)) return kept;
    } catch (e) { /* storage off: the browser's languages decide */ }
    for (const l of navigator.languages || [navigator.language || "en"]) {
      const primary = String(l).toLowerCase().split("-")[0];
      if (LANGS.includes(primary)) return primary;
    }
    return "en";
  }
  function keep(scope, value) {
    try { localStorage.setItem(storeKey(scope), value); } catch (e) { /* not kept */ }
  }
  async function speak(value) {
    lang = LANGS.includes(value) ? value : "en";
    document.documentElement.lang = lang;
    words = {};
    if (lang === "en") return;
    try {
      const r = await fetch(`/i18n/${lang}`, { credentials: "same-origin" });
      if (r.ok) words = (await r.json()).messages || {};
    } catch (e) { words = {}; }
  }

  // Times in the browser's zone and the seat's language; the JSON keeps UTC.
  let clock = null;
  function time(iso) {
    if (!iso) return "";
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return String(iso);
    if (!clock || clock.lang !== lang) {
      clock = { lang, f: new Intl.DateTimeFormat(lang, { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" }) };
    }
    return clock.f.format(d);
  }
  const zone = () => { try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; } };

  // The theme: the seat's choice (localStorage), else the system's (prefers-color-scheme).
  function dark() {
    const set = document.documentElement.dataset.theme;
    return set ? set === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function theme(value) {
    document.documentElement.dataset.theme = value;
    try { localStorage.setItem("tl:theme", value); } catch (e) { /* not kept */ }
  }

  function el(tag, attrs, ...children) {
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
  }

  // What an answer that never came holds (status 0): the server is down or the network is.
  const unreachable = () => ({ error: { rule: null, message: t("web.unreachable", "cannot reach the server (check the connection; trying the same command again sends it once)") } });
  async function api(url, body, method) {
    const opts = { credentials: "same-origin", headers: { "Content-Type": "application/json", "Accept-Language": lang } };
    if (body !== undefined || method) { opts.method = method || "POST"; }
    if (body !== undefined) opts.body = JSON.stringify(body);
    let r;
    try { r = await fetch(url, opts); } catch (e) { return { status: 0, body: unreachable() }; }
    let data = null;
    try { data = r.status === 204 ? null : await r.json(); } catch (e) { data = null; }
    return { status: r.status, body: data };
  }

  // The language switch and the theme toggle of a page (scope: whose choice it is).
  function switches(scope, onLang) {
    const select = el("select", { id: "lang", "aria-label": t("web.lang.label", "Language"), onchange: (e) => {
      keep(scope, e.target.value); onLang(e.target.value);
    } }, LANGS.map((l) => el("option", { value: l, lang: l, selected: l === lang }, AUTONYMS[l])));
    const toggle = el("button", { id: "theme", type: "button", class: "small ghost", "aria-pressed": dark() ? "true" : "false",
      onclick: (e) => { theme(dark() ? "light" : "dark"); e.currentTarget.setAttribute("aria-pressed", dark() ? "true" : "false"); } },
    t("web.theme.dark", "Dark theme"));
    return el("span", { class: "switches" }, select, toggle);
  }

  // A seat's role in the seat's language (the role itself, gm/player/observer, is the API's word).
  function role(value) {
    const named = { gm: t("web.role.gm", "GM"), player: t("web.role.player", "player"), observer: t("web.role.observer", "observer") };
    return named[value] || String(value);
  }

  window.tl = {
    el, api, t, tn, time, zone, chosen, keep, speak, switches, role, AUTONYMS,
    get lang() { return lang; },
    // A value as the page shows it: "–" for none, yes/no, JSON for a list or a map.
    fmt: (v) => (v === null || v === undefined) ? "–" : (v === true ? t("web.value.yes", "yes") : v === false ? t("web.value.no", "no")
      : (typeof v === "object" ? JSON.stringify(v) : String(v))),
    errorText: (b) => b && b.error ? t("web.error", "error: {rule}{message}", { rule: b.error.rule ? b.error.rule + ": " : "", message: b.error.message }) : t("web.error.bare", "error"),
  };
})();
