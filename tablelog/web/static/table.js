// The table page: the table as this seat sees it, live (SERVER.md §5), in the seat's language.
// It reads /api only, builds the DOM with textContent (a log is data from others: nothing from it
// becomes HTML), and follows the event stream. No framework, no build step. The parts:
// cards.js the sheets, actions.js the actions at hand, log.js the log as sentences, seats.js
// the GM's seats, chart.js the HP / MP / LP charts, suggest.js the command line's completion.
"use strict";
(() => {
  const app = document.getElementById("app");
  const tid = app.dataset.table;
  const base = `/api/tables/${encodeURIComponent(tid)}`;
  let me = null, info = null, live = null, lastSeq = 0, log = [], pastAt = null, shownAt = null, sheet = null;
  let logLimit = 0, seatsOpen = false;

  const { el, errorText, fmt, t } = window.tl;
  const q = (w) => window.tl.suggest.quote(String(w));
  // Every answer passes here: a 401 means this seat's link no longer works; status 0 (no answer)
  // shows the connection banner, and any answer clears it.
  async function api(path, body, method) {
    const r = await window.tl.api(base + path, body, method);
    if (r.status === 401 && info) revoke();
    else if (r.status === 0) reconnecting();
    else if (offline) reconnected();
    return r;
  }
  const $ = (id) => document.getElementById(id);
  const lang = () => window.tl.lang;
  const scope = () => `${tid}:${me ? me.name : ""}`;
  const withLang = (path) => `${base}${path}${path.includes("?") ? "&" : "?"}lang=${lang()}`;

  // -- layout ----------------------------------------------------------------------------
  function layout() {
    const observer = me.role === "observer";
    const zone = window.tl.zone();
    const report = (format) => withLang(`/report?format=${format}${zone ? `&tz=${encodeURIComponent(zone)}` : ""}`);
    app.replaceChildren(
      el("p", { id: "banner", class: "banner", role: "alert", hidden: true }),
      el("header", { class: "top" },
        el("div", { class: "top-row" },
          el("h1", { class: "clamp", title: info.title || null }, info.title || t("web.untitled", "(untitled)")),
          window.tl.switches(scope(), (value) => { relang(value); })),
        el("p", { class: "meta" }, t("web.table.meta", "{system} · table {table} · you are", { system: info.system, table: tid }), " ",
          el("strong", { id: "me" }, `${me.name} (${window.tl.role(me.role)})`)),
        el("nav", { class: "exports", "aria-label": t("web.exports.label", "Report and exports") },
          el("a", { id: "report-html", href: report("html"), target: "_blank", rel: "noopener" }, t("web.exports.report_html", "Report (HTML)")),
          el("a", { id: "report-md", href: report("md"), download: `${tid}-report.md` }, t("web.exports.report_md", "Report (Markdown)")),
          el("a", { id: "ccfolia-log", href: withLang("/ccfolia-log"), download: `${tid}-ccfolia.html` }, t("web.exports.ccfolia_log", "ccfolia room log")))),
      el("section", { id: "time", "aria-label": t("web.time.label", "Time") },
        el("label", { for: "slider" }, t("web.time.slider", "Time:")),
        el("input", { id: "slider", type: "range", min: "0", max: String(lastSeq), value: String(lastSeq),
          "aria-label": t("web.time.slider_label", "The table after event number"), oninput: onSlide }),
        el("output", { id: "slider-out", for: "slider" }, t("web.time.live", "live")),
        el("button", { id: "live", type: "button", hidden: true, onclick: backToLive }, t("web.time.back", "Back to live")),
        el("p", { id: "past", class: "past", hidden: true, role: "status" })),
      el("section", { id: "table-clock", class: "clock", "aria-label": t("web.clock.label", "Clock") }),
      el("div", { class: "play" },
        el("section", { id: "entities", class: "entities", "aria-label": t("web.entities.label", "Characters and items") }),
        el("div", { class: "side" },
          observer ? null : el("section", { class: "panel", id: "actions-panel", "aria-labelledby": "actions-h" },
            el("h2", { id: "actions-h" }, t("web.actions.heading", "Actions")),
            el("div", { id: "actions" })),
          observer ? null : el("section", { class: "panel", id: "talk-panel", "aria-labelledby": "talk-h" },
            el("h2", { id: "talk-h" }, t("web.talk.heading", "Talk")),
            el("form", { id: "talk", class: "inline", onsubmit: (e) => { e.preventDefault(); say(); } },
              el("label", { for: "say", class: "k" }, t("web.talk.say", "say")),
              el("input", { id: "say", autocomplete: "off", maxlength: "2000" }),
              el("label", { for: "say-to", class: "k" }, t("web.talk.to", "to")),
              el("select", { id: "say-to" }),
              el("button", { id: "say-send", type: "submit" }, t("web.talk.send", "Say")))),
          me.role === "gm" ? el("section", { class: "panel", id: "seats-panel", "aria-labelledby": "seats-h" },
            el("details", { id: "seats-details", ontoggle: (e) => { seatsOpen = e.target.open; if (seatsOpen) renderSeats(); } },
              el("summary", {}, el("h2", { id: "seats-h", class: "inline-h" }, t("web.seats.heading", "Seats"))),
              el("div", { id: "seats" }))) : null)),
      el("section", { class: "panel", "aria-labelledby": "log-h" }, el("h2", { id: "log-h" }, t("web.log.heading", "Log")),
        el("ol", { id: "log", "aria-label": t("web.log.label", "Actions, newest first") })),
      el("section", { class: "panel", "aria-labelledby": "chart-h" }, el("h2", { id: "chart-h" }, t("web.chart.heading", "HP / MP / LP")),
        el("div", { id: "chart" })),
      el("section", { class: "panel", "aria-labelledby": "audit-h" },
        el("h2", { id: "audit-h" }, t("web.audit.heading", "Audit trail"), " ", el("span", { id: "audit-name" }), " ",
          el("button", { id: "audit-close", type: "button", class: "small", hidden: true, onclick: closeAudit }, t("web.audit.close", "Close"))),
        el("ol", { id: "audit" }, el("li", {}, auditHint()))),
      el("form", { id: "command-bar", class: "command-bar", "aria-label": t("web.command.label", "Command"), onsubmit: (e) => { e.preventDefault(); send(false); } },
        el("pre", { id: "result", class: "result", role: "status", "aria-live": "polite" }),
        el("div", { id: "command-form" },
          el("input", { id: "command", list: "suggestions", autocomplete: "off", spellcheck: "false",
            "aria-label": t("web.command.input", "Command line, as in a run script"), disabled: observer,
            placeholder: observer ? t("web.command.observer_hint", "Observers append nothing") : (window.tl.suggest(info.system, me, {})[0] || "note \"…\"") }),
          el("datalist", { id: "suggestions" }),
          el("button", { id: "preview", type: "button", disabled: observer, onclick: () => send(true) }, t("web.command.preview", "Preview")),
          el("button", { id: "doit", type: "submit", disabled: observer }, t("web.command.doit", "Do it"))),
        observer ? el("p", { id: "observer", class: "meta" }, t("web.command.observer", "You observe this table: observers append nothing.")) : null),
    );
  }

  // -- state -----------------------------------------------------------------------------
  const labels = () => (sheet && sheet.labels) || {};
  function clockText(state) {
    const clock = state.clock || {};
    const bits = [];
    const two = (n) => String(n).padStart(2, "0");
    if (clock.day !== undefined) bits.push(t("web.clock.day", "day {day} {time}", { day: clock.day, time: `${two(Math.floor(clock.minutes / 60))}:${two(clock.minutes % 60)}` }));
    if (clock.battle !== undefined) bits.push(clock.battle ? t("web.clock.battle", "battle · round {round} · turn {turn}", { round: fmt(clock.round), turn: fmt(clock.turn) }) : t("web.clock.no_battle", "no battle"));
    if (clock.turn !== undefined && clock.battle === undefined) bits.push(t("web.clock.turn", "turn {turn}", { turn: clock.turn }));
    if (clock.season) bits.push(t("web.clock.season", "season {season}", { season: clock.season }));
    const level = (k) => (sheet && sheet.levels && sheet.levels[k]) || k;  // saga's elements, in the seat's words
    if (clock.levels) bits.push(Object.entries(clock.levels).map(([k, v]) => `${level(k)} ${v}`).join(" · "));
    // magicpunk: a round only once rounds are kept (someone acted, or a round was started)
    const acted = Object.values(state.characters || {}).some((c) => c.acted);
    if (state.table && state.table.round !== undefined && (state.table.round > 1 || acted)) bits.push(t("web.clock.round", "round {round}", { round: state.table.round }));
    return bits.join(" — ") || t("web.clock.at", "at #{seq}", { seq: state.seq });
  }

  // Own cards picked to play or charge: { name, field, picked: Set of indexes }.
  let hand = { name: null, field: null, picked: new Set() };
  const actsFor = (name) => me.role === "gm" || (me.role === "player" && me.characters.includes(name));
  function cardActions(state) {
    return (name, field, cards) => {
      const own = pastAt === null && info.system === "magicpunk" && field === "hand" && actsFor(name);
      const picked = hand.name === name && hand.field === field ? hand.picked : new Set();
      const list = window.tl.cards.cardList(cards, own, picked, (i) => {
        if (hand.name !== name || hand.field !== field) hand = { name, field, picked: new Set() };
        if (hand.picked.has(i)) hand.picked.delete(i); else hand.picked.add(i);
        renderState(state);
      });
      if (!own || !picked.size) return list;
      const codes = [...picked].sort((a, b) => a - b).map((i) => cards[i]).filter((c) => c && c !== "?");
      const mine = Object.keys(state.items || {}).filter((i) => state.items[i].owner === name);
      return el("div", {}, list, el("div", { class: "act-row card-tools" },
        el("button", { type: "button", id: "play-cards", onclick: () => pick(`magicpunk play ${q(name)} ${codes.map(q).join(" ")}`) },
          t("web.cards.play", "Play {cards}", { cards: codes.join(" ") })),
        mine.length ? [el("label", { for: "charge-into", class: "k" }, t("web.cards.into", "into")),
          el("select", { id: "charge-into" }, mine.map((i) => el("option", { value: i }, i))),
          el("button", { type: "button", id: "charge-cards", onclick: () => pick(`magicpunk charge ${q($("charge-into").value)} ${codes.map(q).join(" ")} --from ${q(name)}`) },
            t("web.cards.charge", "Charge"))] : null));
    };
  }

  function renderState(state) {
    shownAt = state;
    $("table-clock").replaceChildren(el("p", {}, clockText(state)), ...[window.tl.cards.deck(state.deck)].filter(Boolean));
    const views = sheet || {};
    const ctx = (kind, name) => ({
      view: views[kind === "item" ? "items" : "characters"], labels: labels(), gm: me.role === "gm", own: actsFor(name),
      onAudit: audit, cardActions: cardActions(state),
      copy: kind === "character" && me.role !== "observer" && actsFor(name) ? copyForCcfolia : null,
    });
    const chars = Object.entries(state.characters || {}).map(([n, r]) => window.tl.cards.sheet(n, r, "character", ctx("character", n)));
    const items = Object.entries(state.items || {}).map(([n, r]) => window.tl.cards.sheet(n, r, "item", ctx("item", n)));
    $("entities").replaceChildren(...chars, ...items);
    if (pastAt === null) renderActions(state);
  }
  let actionsKey = null;
  function renderActions(state) {
    $("suggestions").replaceChildren(...window.tl.suggest(info.system, me, state).map((s) => el("option", { value: s })));
    const box = $("actions");
    if (!box) return;
    const key = JSON.stringify([state.characters, state.items && Object.keys(state.items), lang()]);
    if (key === actionsKey && box.childElementCount) return;  // unchanged: the choices made stay
    if (box.contains(document.activeElement) && actionsKey !== null && key === actionsKey) return;
    actionsKey = key;
    window.tl.actions.render(box, { system: info.system, me, state, sheet: sheet || {}, pick });
  }

  async function refresh() {
    const r = await api("/state");
    if (r.status !== 200) { $("result").textContent = errorText(r.body); return; }
    live = r.body;
    lastSeq = Math.max(lastSeq, live.seq);
    const slider = $("slider");
    slider.max = String(lastSeq);
    if (pastAt === null) { slider.value = String(lastSeq); renderState(live); }
  }

  // -- time slider: the cards, the log and the charts as they were after a seq -------------
  let slideTimer = null;
  function onSlide() {
    clearTimeout(slideTimer);
    slideTimer = setTimeout(async () => {
      const at = Number($("slider").value);
      if (at >= lastSeq) { backToLive(); return; }
      const r = await api(`/state?at=${at}`);
      if (r.status !== 200) { $("result").textContent = errorText(r.body); return; }
      pastAt = r.body.seq;
      if (pastAt - window.tl.log.STEP < logFrom) await earlier(Math.max(0, pastAt - window.tl.log.STEP));
      document.body.classList.add("in-past");
      $("past").hidden = false;
      $("past").textContent = t("web.time.past", "The past: the table as it was after #{seq}. New actions keep coming in.", { seq: r.body.seq });
      $("slider-out").textContent = `#${r.body.seq}`;
      $("live").hidden = false;
      renderState(r.body);
      renderLog();
      drawChart();
    }, 120);
  }
  function backToLive() {
    pastAt = null;
    document.body.classList.remove("in-past");
    $("past").hidden = true;
    $("live").hidden = true;
    $("slider-out").textContent = t("web.time.live", "live");
    $("slider").value = String(lastSeq);
    $("slider").focus();  // the button just hid itself: the focus goes where the time is chosen
    if (live) renderState(live);
    renderLog();
    drawChart();
  }

  // -- log -------------------------------------------------------------------------------
  const mayTakeBack = (line) => me.role === "gm" || (me.role === "player" && line.actor === me.name);
  function renderLog() {
    const rows = window.tl.log.render($("log"), { lines: log, upTo: pastAt, limit: logLimit || window.tl.log.STEP, mayTakeBack,
      takeBack: (line) => run(line), disabled: inFlight || revoked, hasEarlier: logFrom > 0, onMore: more });
    window.tablelog = { ...window.tablelog, rows, logFrom };
    renderTalkTargets();
  }
  async function more() {
    const step = window.tl.log.STEP, shown = logLimit || step;
    if (window.tl.log.actions(log.filter((l) => pastAt === null || l.seq <= pastAt)).length <= shown) await earlier();
    logLimit = shown + step;
    renderLog();
  }
  // The log as far back as the page has read it: the latest WINDOW records at first (a long
  // campaign's whole log is megabytes), earlier ones when asked for (Show earlier, or the time
  // slider going back before them). The records after seq logFrom are loaded.
  const WINDOW = 1000;
  let logFrom = 0;
  async function logAfter(after, limit) {
    const r = await api(`/log?all=true&after=${after}&limit=${Math.max(1, Math.min(limit, 10000))}`);
    return r.status === 200 && Array.isArray(r.body.events) ? r.body.events : null;
  }
  function keepLog(lines, from) {
    log = lines; logFrom = from;
    if (log.length) lastSeq = Math.max(lastSeq, log[log.length - 1].seq);
  }
  async function loadLog() {  // the loaded records again: an undo or redo changes their marks
    const from = log.length && lastSeq - logFrom <= 9000 ? logFrom : Math.max(0, lastSeq - WINDOW);
    const got = await logAfter(from, 10000);
    if (got) { keepLog(got, from); renderLog(); }
  }
  async function earlier(downTo) {  // one WINDOW more, or back to seq downTo
    while (logFrom > 0) {
      const from = Math.max(0, logFrom - WINDOW);
      const got = await logAfter(from, logFrom - from);
      if (!got) return;
      const seen = new Set(log.map((l) => l.seq));
      keepLog([...got.filter((l) => l.seq <= logFrom && !seen.has(l.seq)), ...log], from);
      if (downTo === undefined || logFrom <= downTo) return;
    }
  }

  // -- talk ------------------------------------------------------------------------------
  let talkKey = null;
  function renderTalkTargets() {
    const select = $("say-to");
    if (!select) return;
    const names = window.tl.seats.seatNames(log, info.seats || []).filter((n) => n !== me.name);
    if (!names.includes("gm") && me.name !== "gm") names.unshift("gm");
    const key = names.join("\u0000");
    if (key === talkKey) return;
    talkKey = key;
    const was = select.value;
    select.replaceChildren(el("option", { value: "" }, t("web.talk.everyone", "everyone")),
      ...names.map((n) => el("option", { value: n, selected: n === was }, t("web.talk.whisper_to", "{name} (a whisper)", { name: n }))));
  }
  async function say() {
    const text = $("say").value.trim();
    if (!text) return;
    const to = $("say-to").value;
    const r = await run(`say ${q(text)}${to ? ` --to ${q(to)}` : ""}`);
    if (r && r.status >= 200 && r.status < 300) $("say").value = "";
  }

  // -- seats (the GM) --------------------------------------------------------------------
  function renderSeats() {
    if (me.role !== "gm" || !seatsOpen || !$("seats")) return;
    window.tl.seats.render($("seats"), { api, log, onChange: () => setTimeout(renderSeats, 300) });
  }

  // -- commands --------------------------------------------------------------------------
  // A change as the sheet words it: "Aria HP 26 → 21" (its record's name and its field's label;
  // a list's values side by side, "–" for none).
  const val = (v) => (Array.isArray(v) ? (v.length ? v.join(" ") : "–") : fmt(v));
  function changeText(c) {
    const path = String(c.field);
    const state = shownAt || live || {};
    for (const section of ["characters", "items"]) {
      if (!path.startsWith(`${section}.`)) continue;
      const rest = path.slice(section.length + 1);
      const names = Object.keys(state[section] || {}).filter((n) => rest.startsWith(`${n}.`)).sort((a, b) => b.length - a.length);
      if (names.length) {
        const [head, ...tail] = rest.slice(names[0].length + 1).split(".");
        return `${names[0]} ${[labels()[head] || head, ...tail].join(" ")} ${val(c.old)} → ${val(c.new)}`;
      }
    }
    const last = path.split(".").pop();
    return `${labels()[last] || path} ${val(c.old)} → ${val(c.new)}`;
  }
  // A change worth a line: not a field the sheet keeps internal (a counter such as draws made),
  // and not one whose old and new read alike (a hidden enemy's HP, "– → –", told nothing).
  function telling(c) {
    const last = String(c.field).split(".").pop().split("[")[0];
    const internal = new Set([...(((sheet || {}).characters || {}).internal || []), ...(((sheet || {}).items || {}).internal || [])]);
    return !internal.has(last) && val(c.old) !== val(c.new);
  }
  function showResult(r, dry) {
    if (r.status === 0 || r.status >= 400) { $("result").textContent = errorText(r.body); $("result").className = "result error"; return; }
    const lines = [dry ? t("web.result.preview", "Preview — nothing appended:") : (r.status === 200 ? t("web.result.again", "Already appended (same request id):") : t("web.result.done", "Done:"))];
    if (dry && r.body.stand_in_rolls) lines.push(t("web.result.stand_ins", "What this preview rolls or draws is a stand-in: Do it rolls and draws anew."));
    for (const e of r.body.events) lines.push(`#${e.seq} ${e.text || t("web.log.details_hidden", "(details hidden)")}`);
    for (const c of r.body.changes) if (telling(c)) lines.push(`    ${changeText(c)}`);
    $("result").textContent = lines.join("\n");
    $("result").className = "result ok";
  }
  // A command in flight disables its buttons (a second click or Enter does nothing); a submission
  // that got no answer (the server unreachable, or a 5xx) keeps its request id, so trying the same
  // line again is the same request and is appended at most once (SERVER.md §2).
  let inFlight = false, pending = null;
  const newId = () => `web-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  function setBusy(busy) {
    inFlight = busy;
    for (const b of document.querySelectorAll("#preview, #doit, #log button.undo, #log button.redo, #say-send")) b.disabled = busy || revoked || me.role === "observer";
  }
  async function run(line, dry = false) {
    if (inFlight || revoked) return null;
    const id = dry ? null : (pending && pending.line === line ? pending.id : newId());
    setBusy(true);
    try {
      const r = await api("/commands", { command: line, dry_run: dry, request_id: id });
      pending = !dry && (r.status === 0 || r.status >= 500) ? { line, id } : null;
      showResult(r, dry);
      return r;
    } finally { setBusy(false); previewQueued(); }
  }
  async function send(dry) {
    const line = $("command").value.trim();
    if (!line || inFlight) return;
    const r = await run(line, dry);
    if (r && !dry && r.status >= 200 && r.status < 300) $("command").value = "";
  }
  // An action button's line: into the command line, previewed (a dry run); Do it appends it.
  // A pick while another command is in flight is previewed once that one is answered (the
  // latest pick only: the preview always matches the line in the box).
  let queued = null;
  async function pick(line) {
    $("command").value = line;
    if (inFlight) { queued = line; return; }
    await run(line, true);
  }
  function previewQueued() {
    if (queued === null) return;
    const next = queued;
    queued = null;
    if ($("command").value === next) setTimeout(() => run(next, true), 0);
  }

  // -- ccfolia ---------------------------------------------------------------------------
  async function copyForCcfolia(name) {
    const r = await api(`/ccfolia/${encodeURIComponent(name)}`);
    if (r.status !== 200) { $("result").textContent = errorText(r.body); $("result").className = "result error"; return; }
    const text = JSON.stringify(r.body);
    window.tablelog = { ...window.tablelog, ccfolia: text };
    try {
      await navigator.clipboard.writeText(text);
      $("result").textContent = t("web.ccfolia.copied", "{name} is on the clipboard: paste it into ccfolia.", { name });
    } catch (e) {
      $("result").textContent = t("web.ccfolia.copy_this", "Copy this into ccfolia:") + "\n" + text;
    }
    $("result").className = "result ok";
  }

  // -- audit trail -----------------------------------------------------------------------
  // A name in an address: encoded whole (a "/" or "?" in it is part of the name). "." and ".."
  // cannot be sent at all: a browser reads them as "this folder" and "the folder above".
  // whole: the undone events too (marked) and the undos and redos, with what they took back.
  async function trail(name, whole) {
    if (name === "." || name === "..") return { error: t("web.audit.bad_name", "the name \"{name}\" cannot be sent in an address", { name }) };
    const r = await api(`/history/${encodeURIComponent(name)}${whole ? "?all=true" : ""}`);
    if (r.status !== 200) return { error: errorText(r.body) };
    if (!Array.isArray(r.body)) return { error: t("web.audit.not_history", "error: the server's answer is not a history") };
    return { trail: r.body };
  }
  // A field no person needs (the sheet's internal ones): out of the audit trail too.
  function internal(name, field) {
    const kind = (live && live.items && live.items[name]) ? "items" : "characters";
    const view = sheet && sheet[kind];
    return Boolean(view && view.internal.includes(String(field).split(".")[0]));
  }
  // A field that starts at nothing (0, false, an empty list) on a record's first event: not news.
  const blank = (c) => (c.old === null || c.old === undefined) && (c.new === 0 || c.new === false || c.new === "" || c.new === null || (Array.isArray(c.new) && !c.new.length));
  const auditHint = () => t("web.audit.hint", "Choose a character or an item to see how it got here.");
  let auditAsked = 0;  // the latest trail asked for: an earlier answer arriving late is dropped
  function closeAudit() {
    auditAsked++;  // an answer still on its way is not shown
    $("audit-name").textContent = "";
    $("audit-close").hidden = true;
    $("audit").replaceChildren(el("li", {}, auditHint()));
  }
  async function audit(name) {
    const asked = ++auditAsked;
    $("audit-name").textContent = t("web.audit.of", "of {name}", { name });
    $("audit-close").hidden = false;
    $("audit").replaceChildren(el("li", { class: "loading" }, t("web.audit.loading", "reading the log…")));
    const r = await trail(name, true);
    if (asked !== auditAsked) return;
    if (r.error) { $("audit").replaceChildren(el("li", { class: "error" }, r.error)); return; }
    const marker = (e) => e.type === "core.Undone" || e.type === "core.Redone";
    $("audit").replaceChildren(...r.trail.map((e) => el("li", { class: e.undone ? "undone" : (marker(e) ? "marker" : "") },
      el("p", {}, el("span", { class: "seq" }, `#${e.seq}`), " ", el("time", { datetime: e.at || "" }, window.tl.time(e.at)), " ",
        el("span", { class: "actor" }, e.actor), " ", el("span", { class: "text" }, e.event),
        e.undone ? el("span", { class: "badge" }, " " + t("web.audit.undone", "undone")) : null),
      el("ul", { class: "changes" }, e.changes.filter((c) => !internal(name, c.field) && !blank(c)).map((c) => el("li", {}, changeText(c)))),
      e.explain.length ? el("ul", { class: "explain" }, e.explain.map((x) => el("li", {}, x))) : null)));
    $("audit").scrollIntoView({ block: "nearest" });
  }

  // -- chart -----------------------------------------------------------------------------
  let chartTimer = null, histories = null, historiesAt = -1;
  function scheduleChart() { clearTimeout(chartTimer); chartTimer = setTimeout(() => drawChart(true), 400); }
  async function drawChart(fresh) {
    if (!live || typeof uPlot === "undefined") return;
    if (fresh || histories === null || historiesAt < lastSeq) {
      const names = Object.keys(live.characters || {});
      const asked = lastSeq;
      const got = await Promise.all(names.map((name) => trail(name)));
      histories = { ok: [], failed: [] };
      got.forEach((r, i) => {
        if (r.error) histories.failed.push({ name: names[i], text: r.error });
        else histories.ok.push({ name: names[i], side: live.characters[names[i]].side, trail: r.trail });
      });
      historiesAt = asked;
    }
    const upTo = pastAt === null ? lastSeq : pastAt;
    const cut = histories.ok.map((h) => ({ ...h, trail: h.trail.filter((e) => e.seq <= upTo) }));
    window.tablelog = { ...window.tablelog, charts: window.tl.chart.draw($("chart"), cut, histories.failed, upTo), chartAt: upTo };
  }

  // -- live ------------------------------------------------------------------------------
  // The stream reconnects by itself while the server is out of reach (the banner says so); when it
  // ends, an answer of 401 to the table means the seat was revoked: the page says so, stops
  // reconnecting and takes no more commands.
  let source = null, offline = false, revoked = false;
  function banner(kind, text) {
    $("banner").className = `banner ${kind}`;
    $("banner").textContent = text;
    $("banner").hidden = false;
  }
  function reconnecting() {
    if (revoked) return;
    banner("offline", t("web.banner.offline", "Cannot reach the server: reconnecting… (what you see may be out of date)"));
    if (!offline) { offline = true; probe(); }
  }
  function probe() {  // while out of reach: ask every 3 s, so the banner goes when the server is back
    setTimeout(async () => { if (offline && !revoked && (await api("")).status === 0) probe(); }, 3000);
  }
  async function reconnected() {
    if (revoked || !offline) return;
    offline = false;
    $("banner").hidden = true;
    await loadLog();
    await refresh();
  }
  function revoke() {
    if (revoked) return;
    revoked = true;
    if (source) source.close();
    banner("revoked", t("web.banner.revoked", "This seat's link no longer works (the GM revoked the seat or gave it a new link). The page no longer updates and takes no commands: ask the GM for a new link."));
    for (const c of document.querySelectorAll("#command, #preview, #doit, #log button, #actions button, #say, #say-send")) c.disabled = true;
    document.body.classList.add("revoked");
  }
  const SEATS = new Set(["core.SeatAdded", "core.SeatRevoked", "core.SeatRotated"]);
  function stream() {
    if (revoked) return;
    source = new EventSource(`${base}/events?after=${lastSeq}&lang=${lang()}`, { withCredentials: true });
    source.addEventListener("open", () => { reconnected(); });
    source.addEventListener("error", async () => {
      const ended = source;
      const r = await api("");  // 401: revoked; status 0: the banner; else the stream resumes
      if (r.status !== 401 && ended.readyState === EventSource.CLOSED && ended === source) setTimeout(stream, 2000);
    });
    source.addEventListener("record", async (msg) => {
      const line = JSON.parse(msg.data);
      if (log.some((l) => l.seq === line.seq)) return;
      log.push(line);
      lastSeq = Math.max(lastSeq, line.seq);
      if (line.type === "core.Undone" || line.type === "core.Redone") await loadLog(); else renderLog();
      if (SEATS.has(line.type)) renderSeats();
      await refresh();
      scheduleChart();
    });
  }

  // A new language: kept for this seat in this browser; the page is made again in it.
  async function relang(value) {
    await window.tl.speak(value);
    const [s] = await Promise.all([api("/sheet")]);
    if (s.status === 200) sheet = s.body;
    if (source) source.close();
    actionsKey = null; talkKey = null;
    layout();
    await loadLog();
    await refresh();
    stream();
    drawChart(true);
  }

  async function boot() {
    await window.tl.speak(window.tl.chosen(tid));
    const r = await window.tl.api(base);
    if (r.status !== 200) {
      app.replaceChildren(el("h1", {}, "tablelog"), el("p", { role: "alert" },
        r.status === 401 ? t("web.boot.needs_link", "This page needs your seat's link (ask the GM for it).") : errorText(r.body)));
      return;
    }
    info = r.body; me = info.me; lastSeq = info.seq;
    const mine = window.tl.chosen(scope());
    if (mine !== window.tl.lang) await window.tl.speak(mine);
    const from = Math.max(0, lastSeq - WINDOW);
    const [s, st, lg] = await Promise.all([api("/sheet"), api("/state"), logAfter(from, 10000)]);
    if (s.status === 200) sheet = s.body;
    layout();
    if (lg) keepLog(lg, from);
    if (st.status === 200) { live = st.body; lastSeq = Math.max(lastSeq, live.seq); $("slider").max = String(lastSeq); $("slider").value = String(lastSeq); renderState(live); }
    else $("result").textContent = errorText(st.body);
    renderLog();
    stream();
    drawChart(true);
    window.tablelog = { ...window.tablelog, ready: true };
  }
  boot();
})();
