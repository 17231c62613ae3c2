// The GM runs the seats from the page (SERVER.md §4–5): each seat with its role and characters
// (GET …/seats), its link shown or rotated (POST …/seats/NAME: a new one-time link; the old
// link, token and browser sessions stop working), revoked (DELETE …/seats/NAME, asked twice);
// a new seat added (POST …/seats), and one for a name that is not a character of the table
// warned about (409 "confirm") and added only when confirmed ("confirm": true). Where the
// server answers no seat list, the seats are read from the log's seat records (no links).
// Seat names for whispers (any seat): seatNames(log, the table's seats when the page opened).
"use strict";
window.tl.seats = (() => {
  const { el, t, errorText } = window.tl;

  // The seats the log names (added, not revoked), in order: [{ name, role, characters }];
  // known: the names of the seats there were (the table's seats when the page opened) before
  // the lines are applied.
  function fromLog(lines, known) {
    const seats = new Map((known || []).map((name) => [name, { name, role: null, characters: [], url: null }]));
    for (const l of lines) {
      const d = l.data || {};
      if (l.type === "core.SeatAdded" && d.name) seats.set(d.name, { name: d.name, role: d.role, characters: d.characters || [], url: null });
      if (l.type === "core.SeatRevoked" && d.name) seats.delete(d.name);
    }
    return [...seats.values()];
  }
  const seatNames = (lines, known) => fromLog(lines, known).map((s) => s.name);

  // What the panel last said (a new link, a warning to confirm): kept when the seats are drawn
  // again (a seat record arriving redraws them), until the next thing to say.
  let said = null;  // { text, kind, confirm: FormData to add when confirmed, or null }
  let armed = null;  // the seat whose Revoke was clicked once (kept when the seats are drawn again)
  function sayIn(out, c) {
    if (!said) { out.replaceChildren(); out.className = "result"; return; }
    out.replaceChildren(said.confirm ? el("span", { role: "alert" }, said.text) : said.text);
    if (said.confirm) {
      const asked = said.confirm;
      out.append(" ", el("button", { id: "seat-confirm", type: "button", class: "small", onclick: () => c.add(asked, true) }, t("web.seats.confirm", "Add it anyway")));
    }
    out.className = `result ${said.kind}`;
  }

  // c: { base, api(path, body, method), log (lines), onChange() }
  let drawn = 0;  // renders started: an answer older than the latest render's is dropped
  async function render(box, c) {
    const mine = ++drawn;
    const r = await c.api("/seats");
    if (mine !== drawn) return;  // a later render (a seat record arrived meanwhile) draws
    const listed = r.status === 200 && r.body && Array.isArray(r.body.seats);
    const seats = listed ? r.body.seats : fromLog(c.log);
    const out = el("p", { id: "seat-out", class: "result", role: "status", "aria-live": "polite" });
    const show = (text, kind) => { said = { text, kind: kind || "ok", confirm: null }; sayIn(out, c); };
    const linkOf = (s) => s.url ? el("span", { class: "link-text" }, el("code", {}, s.url), " ",
      el("button", { type: "button", class: "small ghost", onclick: () => copy(s.url, show) }, t("web.seats.copy_link", "Copy the link"))) : null;
    const rows = seats.map((s) => el("tr", { "data-seat": s.name },
      el("th", { scope: "row" }, s.name), el("td", {}, window.tl.role(s.role)), el("td", {}, (s.characters || []).join(", ") || "–"),
      el("td", { class: "link-cell" }, linkOf(s)),
      el("td", { class: "seat-buttons" },
        el("button", { type: "button", class: "small", onclick: async () => {
          const made = await c.api(`/seats/${encodeURIComponent(s.name)}`, undefined, "POST");
          if (made.status === 201) { show(t("web.seats.rotated", "{name}'s new link (the old one no longer works): {url}", { name: s.name, url: made.body.url })); }
          else show(errorText(made.body), "error");
        } }, t("web.seats.rotate", "New link")),
        el("button", { type: "button", class: "small danger", "data-armed": armed === s.name ? "yes" : null, onclick: (e) => {
          const b = e.currentTarget;
          if (armed !== s.name) { armed = s.name; b.dataset.armed = "yes"; b.textContent = t("web.seats.revoke_sure", "Revoke {name}: sure?", { name: s.name }); return; }
          armed = null;
          c.api(`/seats/${encodeURIComponent(s.name)}`, undefined, "DELETE").then((gone) => {
            if (gone.status === 204) { show(t("web.seats.revoked", "{name} was revoked: its link and token no longer work.", { name: s.name })); c.onChange(); }
            else show(errorText(gone.body), "error");
          });
        } }, armed === s.name ? t("web.seats.revoke_sure", "Revoke {name}: sure?", { name: s.name }) : t("web.seats.revoke", "Revoke")))));
    const form = el("form", { id: "seat-form", class: "inline", onsubmit: (e) => { e.preventDefault(); add(new FormData(e.target), false); } },
      el("label", { for: "new-seat-name" }, t("web.seats.name", "Name")), el("input", { id: "new-seat-name", name: "name", required: true, autocomplete: "off" }),
      el("label", { for: "new-seat-role" }, t("web.seats.role", "Role")),
      el("select", { id: "new-seat-role", name: "role" }, ["player", "observer", "gm"].map((x) => el("option", { value: x }, window.tl.role(x)))),
      el("label", { for: "new-seat-chars" }, t("web.seats.characters", "Characters")),
      el("input", { id: "new-seat-chars", name: "characters", placeholder: t("web.seats.characters_hint", "Aria, Kai"), autocomplete: "off" }),
      el("button", { type: "submit" }, t("web.seats.add", "Add a seat")));
    async function add(data, confirm) {
      const chars = String(data.get("characters") || "").split(",").map((x) => x.trim()).filter(Boolean);
      const body = { name: data.get("name"), role: data.get("role"), characters: chars };
      if (confirm) body.confirm = true;
      const made = await c.api("/seats", body);
      if (made.status === 201) {
        show(t("web.seats.added", "{name}'s link (hand it to them; it opens the table once): {url}", { name: made.body.name, url: made.body.url }));
        c.onChange();
        return;
      }
      if (made.status === 409 && made.body && made.body.error && made.body.error.code === "confirm") {
        said = { text: made.body.error.message, kind: "warn", confirm: data };
        sayIn(out, c);
        return;
      }
      show(errorText(made.body), "error");
    }
    c.add = add;
    sayIn(out, c);
    // What the GM was typing into the form stays (the seats are drawn again as records arrive).
    const typed = ["new-seat-name", "new-seat-role", "new-seat-chars"].map((id) => [id, document.getElementById(id)]).filter(([, x]) => x);
    const focused = document.activeElement && document.activeElement.id;
    for (const [id, old] of typed) form.querySelector(`#${id}`).value = old.value;
    box.replaceChildren(
      el("div", { class: "scroll" }, el("table", { class: "seats" },
        el("thead", {}, el("tr", {}, [t("web.seats.col_name", "seat"), t("web.seats.col_role", "role"), t("web.seats.col_chars", "characters"),
          t("web.seats.col_link", "link"), t("web.seats.col_do", "actions")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, rows))),
      listed ? null : el("p", { class: "meta" }, t("web.seats.from_log", "The seats as the log names them (this server lists no links).")),
      form, out);
    if (focused && typed.some(([id]) => id === focused)) document.getElementById(focused).focus();
  }

  async function copy(text, show) {
    try { await navigator.clipboard.writeText(text); show(t("web.copied", "Copied.")); }
    catch (e) { show(text); }
  }

  return { render, seatNames, fromLog, copy };
})();
