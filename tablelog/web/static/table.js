// The table page: the table as this seat sees it, live (SERVER.md §5). It reads /api only, builds
// the DOM with textContent (a log is data from others: nothing from it becomes HTML), and follows
// the event stream. No framework, no build step.
"use strict";
(() => {
  const app = document.getElementById("app");
  const tid = app.dataset.table;
  const base = `/api/tables/${encodeURIComponent(tid)}`;
  let me = null, info = null, live = null, lastSeq = 0, log = [], pastAt = null;

  const { el, errorText, fmt } = window.tl;
  const { entityCard, deck } = window.tl.cards;
  // Every answer passes here: a 401 means this seat's link no longer works; status 0 (no answer)
  // shows the connection banner, and any answer clears it.
  async function api(path, body) {
    const r = await window.tl.api(base + path, body);
    if (r.status === 401 && info) revoke();
    else if (r.status === 0) reconnecting();
    else if (offline) reconnected();
    return r;
  }
  const $ = (id) => document.getElementById(id);

  // -- layout ----------------------------------------------------------------------------
  function layout() {
    const observer = me.role === "observer";
    app.replaceChildren(
      el("p", { id: "banner", class: "banner", role: "alert", hidden: true }),
      el("header", { class: "top" },
        el("h1", { class: "clamp", title: info.title || null }, info.title || "(untitled)"),
        el("p", { class: "meta" }, `${info.system} · table ${tid} · you are `,
          el("strong", { id: "me" }, `${me.name} (${me.role})`)),
      ),
      el("section", { id: "time", "aria-label": "Time" },
        el("label", { for: "slider" }, "Time: "),
        el("input", { id: "slider", type: "range", min: "0", max: String(lastSeq), value: String(lastSeq),
          "aria-label": "The table after event number", oninput: onSlide }),
        el("output", { id: "slider-out", for: "slider" }, "live"),
        el("button", { id: "live", type: "button", hidden: true, onclick: backToLive }, "Back to live"),
        el("p", { id: "past", class: "past", hidden: true, role: "status" }),
      ),
      el("section", { id: "table-clock", class: "clock", "aria-label": "Clock" }),
      el("section", { id: "entities", class: "entities", "aria-label": "Characters and items" }),
      el("section", { class: "panel", "aria-label": "Command" },
        el("h2", {}, "Command"),
        el("form", { id: "command-form", onsubmit: (e) => { e.preventDefault(); send(false); } },
          el("input", { id: "command", list: "suggestions", autocomplete: "off", spellcheck: "false",
            "aria-label": "Command line, as in a run script", disabled: observer,
            placeholder: observer ? "Observers append nothing" : (window.tl.suggest(info.system, me, {})[0] || "note \"…\"") }),
          el("datalist", { id: "suggestions" }),
          el("button", { id: "preview", type: "button", disabled: observer, onclick: () => send(true) }, "Preview"),
          el("button", { id: "doit", type: "submit", disabled: observer }, "Do it"),
        ),
        observer ? el("p", { id: "observer", class: "meta" }, "You observe this table: observers append nothing.") : null,
        el("pre", { id: "result", class: "result", role: "status", "aria-live": "polite" }),
      ),
      el("section", { class: "panel", "aria-label": "HP MP LP chart" }, el("h2", {}, "HP / MP / LP"),
        el("div", { id: "chart" })),
      el("section", { class: "panel", "aria-label": "Audit trail" },
        el("h2", {}, "Audit trail ", el("span", { id: "audit-name" }), " ",
          el("button", { id: "audit-close", type: "button", class: "small", hidden: true, onclick: closeAudit }, "Close")),
        el("ol", { id: "audit" }, el("li", {}, AUDIT_HINT))),
      el("section", { class: "panel", "aria-label": "Log" }, el("h2", {}, "Log"), el("ol", { id: "log", reversed: true, "aria-label": "Events, newest first" })),
    );
  }

  // -- state -----------------------------------------------------------------------------
  function renderState(state) {
    const clock = state.clock || {};
    const bits = [];
    if (clock.day !== undefined) bits.push(`day ${clock.day} ${String(Math.floor(clock.minutes / 60)).padStart(2, "0")}:${String(clock.minutes % 60).padStart(2, "0")}`);
    if (clock.battle !== undefined) bits.push(clock.battle ? `battle · round ${fmt(clock.round)} · turn ${fmt(clock.turn)}` : "no battle");
    if (clock.turn !== undefined && clock.battle === undefined) bits.push(`turn ${clock.turn}`);
    if (clock.season) bits.push(`season ${clock.season}`);
    if (clock.levels) bits.push(Object.entries(clock.levels).map(([k, v]) => `${k} ${v}`).join(" · "));
    if (state.table && state.table.round !== undefined) bits.push(`round ${state.table.round}`);
    $("table-clock").replaceChildren(el("p", {}, bits.join(" — ") || `at #${state.seq}`), ...[deck(state.deck)].filter(Boolean));
    const card = (kind) => ([n, r]) => entityCard(n, r, kind, me.role === "gm", audit);
    const chars = Object.entries(state.characters || {}).map(card("character"));
    const items = Object.entries(state.items || {}).map(card("item"));
    $("entities").replaceChildren(...chars, ...items);
    $("suggestions").replaceChildren(...window.tl.suggest(info.system, me, state).map((s) => el("option", { value: s })));
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

  // -- time slider -----------------------------------------------------------------------
  let slideTimer = null;
  function onSlide() {
    clearTimeout(slideTimer);
    slideTimer = setTimeout(async () => {
      const at = Number($("slider").value);
      if (at >= lastSeq) { backToLive(); return; }
      const r = await api(`/state?at=${at}`);
      if (r.status !== 200) { $("result").textContent = errorText(r.body); return; }
      pastAt = at;
      document.body.classList.add("in-past");
      $("past").hidden = false;
      $("past").textContent = `The past: the table as it was after #${r.body.seq}. New actions keep coming in.`;
      $("slider-out").textContent = `#${r.body.seq}`;
      $("live").hidden = false;
      renderState(r.body);
    }, 120);
  }
  function backToLive() {
    pastAt = null;
    document.body.classList.remove("in-past");
    $("past").hidden = true;
    $("live").hidden = true;
    $("slider-out").textContent = "live";
    $("slider").value = String(lastSeq);
    $("slider").focus();  // the button just hid itself: the focus goes where the time is chosen
    if (live) renderState(live);
  }

  // -- log -------------------------------------------------------------------------------
  const mayTakeBack = (line) => me.role === "gm" || (me.role === "player" && line.actor === me.name);
  const isMarker = (line) => line.type === "core.Undone" || line.type === "core.Redone";
  // Seats and signing keys are revoked, not undone (CORE-SEAT, CORE-KEY): no button on them.
  const FOR_GOOD = new Set(["core.SeatAdded", "core.SeatRevoked", "core.KeyAdded"]);
  // Each action's first seq → its last: the records with one `cmd` (format 2), else a run with
  // equal `at` and `actor` (format 1; docs/FORMAT.md). One undo/redo button per action.
  function actions() {
    const ends = new Map();
    let first = null, key = null;
    for (const line of log) {
      const k = line.cmd !== undefined ? `cmd ${line.cmd}` : `${line.at} ${line.actor}`;
      if (k !== key || first === null) { first = line.seq; key = k; }
      ends.set(first, line.seq);
    }
    return ends;
  }
  function takeBack(line, last) {
    const verb = line.undone ? "redo" : "undo";
    const span = last > line.seq ? `#${line.seq}–#${last}` : `#${line.seq}`;
    const what = `${line.type} ${line.text || ""}`.slice(0, 80);
    return el("button", { type: "button", class: "small", disabled: inFlight || revoked,
      "aria-label": `${verb} ${span}: ${what}`, onclick: () => run(`${verb} ${line.seq}`) }, verb);
  }
  function renderLog() {
    const ends = actions();
    const rows = [...log].reverse().map((line) => {
      const last = ends.get(line.seq);
      const button = !isMarker(line) && !FOR_GOOD.has(line.type) && last !== undefined && mayTakeBack(line) ? takeBack(line, last) : null;
      return el("li", { class: line.undone ? "undone" : "", "data-seq": String(line.seq) },
        el("span", { class: "seq" }, `#${line.seq}`), " ", el("span", { class: "actor" }, line.actor), " ",
        el("span", { class: "text" }, `${line.type} ${line.text || ""}`), " ", button);
    });
    $("log").replaceChildren(...rows);
  }
  async function loadLog() {
    const r = await api("/log?all=true&limit=10000");
    if (r.status === 200) { log = r.body.events; if (log.length) lastSeq = Math.max(lastSeq, log[log.length - 1].seq); renderLog(); }
  }

  // -- commands --------------------------------------------------------------------------
  function showResult(r, dry) {
    if (r.status === 0 || r.status >= 400) { $("result").textContent = errorText(r.body); $("result").className = "result error"; return; }
    const lines = [dry ? "Preview — nothing appended:" : (r.status === 200 ? "Already appended (same request id):" : "Done:")];
    if (dry && r.body.stand_in_rolls) lines.push("The dice in this preview are stand-ins: Do it rolls them anew.");
    for (const e of r.body.events) lines.push(`#${e.seq} ${e.type} ${e.text || ""}`);
    for (const c of r.body.changes) lines.push(`    ${c.field}: ${fmt(c.old)} → ${fmt(c.new)}`);
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
    for (const b of document.querySelectorAll("#preview, #doit, #log button")) b.disabled = busy || revoked || me.role === "observer";
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
    } finally { setBusy(false); }
  }
  async function send(dry) {
    const line = $("command").value.trim();
    if (!line || inFlight) return;
    const r = await run(line, dry);
    if (r && !dry && r.status >= 200 && r.status < 300) $("command").value = "";
  }

  // -- audit trail -----------------------------------------------------------------------
  // A name in an address: encoded whole (a "/" or "?" in it is part of the name). "." and ".."
  // cannot be sent at all: a browser reads them as "this folder" and "the folder above".
  async function trail(name) {
    if (name === "." || name === "..") return { error: `the name "${name}" cannot be sent in an address` };
    const r = await api(`/history/${encodeURIComponent(name)}`);
    if (r.status !== 200) return { error: errorText(r.body) };
    if (!Array.isArray(r.body)) return { error: "error: the server's answer is not a history" };
    return { trail: r.body };
  }
  const AUDIT_HINT = "Choose a character or an item to see how it got here.";
  let auditAsked = 0;  // the latest trail asked for: an earlier answer arriving late is dropped
  function closeAudit() {
    auditAsked++;  // an answer still on its way is not shown
    $("audit-name").textContent = "";
    $("audit-close").hidden = true;
    $("audit").replaceChildren(el("li", {}, AUDIT_HINT));
  }
  async function audit(name) {
    const asked = ++auditAsked;
    $("audit-name").textContent = `of ${name}`;
    $("audit-close").hidden = false;
    $("audit").replaceChildren(el("li", { class: "loading" }, "reading the log…"));
    const r = await trail(name);
    if (asked !== auditAsked) return;
    if (r.error) { $("audit").replaceChildren(el("li", { class: "error" }, r.error)); return; }
    $("audit").replaceChildren(...r.trail.map((e) => el("li", {},
      el("p", {}, el("span", { class: "seq" }, `#${e.seq}`), ` ${e.actor} ${e.type} ${e.event}`),
      el("ul", { class: "changes" }, e.changes.map((c) => el("li", {}, `${c.field}: ${fmt(c.old)} → ${fmt(c.new)}`))),
      e.explain.length ? el("ul", { class: "explain" }, e.explain.map((x) => el("li", {}, x))) : null)));
    $("audit").scrollIntoView({ block: "nearest" });
  }

  // -- chart -----------------------------------------------------------------------------
  let chartTimer = null;
  function scheduleChart() { clearTimeout(chartTimer); chartTimer = setTimeout(drawChart, 400); }
  async function drawChart() {
    if (!live || typeof uPlot === "undefined") return;
    const histories = [], failed = [];
    for (const name of Object.keys(live.characters || {})) {
      const r = await trail(name);
      if (r.error) failed.push({ name, text: r.error }); else histories.push({ name, side: live.characters[name].side, trail: r.trail });
    }
    window.tablelog = { ...window.tablelog, charts: window.tl.chart.draw($("chart"), histories, failed, lastSeq) };
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
    banner("offline", "Cannot reach the server: reconnecting… (what you see may be out of date)");
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
    banner("revoked", "This seat's link no longer works (the GM revoked the seat). " +
      "The page no longer updates and takes no commands: ask the GM for a new link.");
    for (const c of document.querySelectorAll("#command, #preview, #doit, #log button")) c.disabled = true;
    document.body.classList.add("revoked");
  }
  function stream() {
    if (revoked) return;
    source = new EventSource(`${base}/events?after=${lastSeq}`, { withCredentials: true });
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
      await refresh();
      scheduleChart();
    });
  }

  async function boot() {
    const r = await window.tl.api(base);
    if (r.status !== 200) {
      app.replaceChildren(el("h1", {}, "tablelog"), el("p", { role: "alert" },
        r.status === 401 ? "This page needs your seat's link (ask the GM for it)." : errorText(r.body)));
      return;
    }
    info = r.body; me = info.me; lastSeq = info.seq;
    layout();
    await refresh();
    await loadLog();
    stream();
    drawChart();
    window.tablelog = { ...window.tablelog, ready: true };
  }
  boot();
})();
