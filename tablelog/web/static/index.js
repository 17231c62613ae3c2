// The server's page (for the server token): the tables, a form to create one that shows the new
// table's GM seat link (kept until the next table is created), and a form to add seats that shows
// each seat's link (one-time links, as the server's answers give them). The server token reaches
// the page once, as /?token=…, which the server exchanges for a session in a cookie.
"use strict";
(() => {
  const app = document.getElementById("app");
  const { el, errorText } = window.tl;
  const api = (path, body) => window.tl.api(`/api${path}`, body);
  const out = el("pre", { id: "out", role: "status", "aria-live": "polite" });
  const created = el("pre", { id: "created", role: "status", "aria-live": "polite" });

  function login() {
    app.replaceChildren(el("section", {}, el("h2", {}, "Server token"),
      el("form", { method: "get", action: "/" },
        el("label", { for: "token" }, "The token `tablelog serve` printed: "),
        el("input", { id: "token", name: "token", type: "password", required: true, autocomplete: "off" }),
        el("button", { type: "submit" }, "Open"))));
  }

  // A table in the seat form's list: its title (at most 40 characters), system and id.
  const tableLabel = (t) => {
    const title = t.title ? (t.title.length > 40 ? `${t.title.slice(0, 39)}…` : t.title) : "(untitled)";
    return `${title} · ${t.system} · ${t.table_id}`;
  };

  // `chosen`: the table the seat form starts on (the one just created), else the newest.
  async function load(chosen) {
    const r = await api("/tables");
    if (r.status === 401) { login(); return; }
    const rows = r.body.tables.map((t) => el("tr", {},
      el("td", {}, el("a", { href: `/t/${encodeURIComponent(t.table_id)}` }, t.table_id)),
      el("td", {}, t.system), el("td", { class: "title" }, el("span", { class: "clamp", title: t.title || null }, t.title || "(untitled)")), el("td", {}, String(t.seq))));
    const create = el("form", { id: "create", onsubmit: async (e) => {
      e.preventDefault();
      const f = new FormData(e.target);
      const c = await api("/tables", { system: f.get("system"), title: f.get("title") || "" });
      if (c.status === 201) await load(c.body.table_id);
      created.textContent = c.status === 201
        ? `Created table ${c.body.table_id}. The GM's seat link (keep it; it is shown once): ${c.body.url}`
        : errorText(c.body);
    } },
      el("label", { for: "system" }, "System "),
      el("select", { id: "system", name: "system" }, app.dataset.systems.split(" ").map((s) => el("option", { value: s }, s))),
      el("label", { for: "title" }, "Title "), el("input", { id: "title", name: "title" }),
      el("button", { type: "submit" }, "Create table"));
    const seat = el("form", { id: "seat", onsubmit: async (e) => {
      e.preventDefault();
      const f = new FormData(e.target);
      const chars = String(f.get("characters") || "").split(",").map((s) => s.trim()).filter(Boolean);
      const s = await api(`/tables/${encodeURIComponent(f.get("table"))}/seats`, { name: f.get("name"), role: f.get("role"), characters: chars });
      out.textContent = s.status === 201 ? `${s.body.name}'s link (hand it to them): ${s.body.url}` : errorText(s.body);
    } },
      el("label", { for: "seat-table" }, "Table "),
      el("select", { id: "seat-table", name: "table" }, r.body.tables.map((t) => el("option", { value: t.table_id, selected: t.table_id === chosen }, tableLabel(t)))),
      el("label", { for: "seat-name" }, "Name "), el("input", { id: "seat-name", name: "name", required: true }),
      el("label", { for: "seat-role" }, "Role "),
      el("select", { id: "seat-role", name: "role" }, ["player", "observer", "gm"].map((s) => el("option", { value: s }, s))),
      el("label", { for: "seat-chars" }, "Characters "), el("input", { id: "seat-chars", name: "characters", placeholder: "Aria, Kai" }),
      el("button", { type: "submit" }, "Add seat"));
    app.replaceChildren(
      el("section", {}, el("h2", {}, "Tables"), rows.length ? el("div", { class: "scroll" }, el("table", {},
        el("thead", {}, el("tr", {}, ["table", "system", "title", "events"].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, rows))) : el("p", {}, "No table yet.")),
      el("section", {}, el("h2", {}, "New table"), create, created),
      el("section", {}, el("h2", {}, "Add a seat"), seat), out);
  }
  load();
})();
