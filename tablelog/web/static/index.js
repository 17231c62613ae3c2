// The server's page (for the server token): the tables, a form to create one that shows the new
// table's GM seat link (kept until the next table is created), and a form to add seats that shows
// each seat's link (one-time links, as the server's answers give them). The server token reaches
// the page once, as /?token=…, which the server exchanges for a session in a cookie.
"use strict";
(() => {
  const app = document.getElementById("app");
  const { el, errorText, t } = window.tl;
  const api = (path, body) => window.tl.api(`/api${path}`, body);
  const out = el("pre", { id: "out", role: "status", "aria-live": "polite" });
  const created = el("pre", { id: "created", role: "status", "aria-live": "polite" });

  function login() {
    app.replaceChildren(el("section", {}, el("h2", {}, t("web.index.token", "Server token")),
      el("form", { method: "get", action: "/" },
        el("label", { for: "token" }, t("web.index.token_label", "The token `tablelog serve` printed: ")),
        el("input", { id: "token", name: "token", type: "password", required: true, autocomplete: "off" }),
        el("button", { type: "submit" }, t("web.index.open", "Open")))));
  }

  // A table in the seat form's list: its title (at most 40 characters), system and id.
  const tableLabel = (x) => {
    const title = x.title ? (x.title.length > 40 ? `${x.title.slice(0, 39)}…` : x.title) : t("web.untitled", "(untitled)");
    return `${title} · ${x.system} · ${x.table_id}`;
  };

  // `chosen`: the table the seat form starts on (the one just created), else the newest.
  async function load(chosen) {
    const r = await api("/tables");
    if (r.status === 401) { login(); return; }
    const rows = r.body.tables.map((x) => el("tr", {},
      el("td", {}, el("a", { href: `/t/${encodeURIComponent(x.table_id)}` }, x.table_id)),
      el("td", {}, x.system), el("td", { class: "title" }, el("span", { class: "clamp", title: x.title || null }, x.title || t("web.untitled", "(untitled)"))), el("td", {}, String(x.seq))));
    const create = el("form", { id: "create", onsubmit: async (e) => {
      e.preventDefault();
      const f = new FormData(e.target);
      const c = await api("/tables", { system: f.get("system"), title: f.get("title") || "" });
      if (c.status === 201) await load(c.body.table_id);
      created.textContent = c.status === 201
        ? t("web.index.created", "Created table {table}. The GM's seat link (keep it; it is shown once): {url}", { table: c.body.table_id, url: c.body.url })
        : errorText(c.body);
    } },
      el("label", { for: "system" }, t("web.index.system", "System ")),
      el("select", { id: "system", name: "system" }, app.dataset.systems.split(" ").map((s) => el("option", { value: s }, s))),
      el("label", { for: "title" }, t("web.index.title_label", "Title ")), el("input", { id: "title", name: "title" }),
      el("button", { type: "submit" }, t("web.index.create", "Create table")));
    const seat = el("form", { id: "seat", onsubmit: async (e) => {
      e.preventDefault();
      const f = new FormData(e.target);
      const chars = String(f.get("characters") || "").split(",").map((s) => s.trim()).filter(Boolean);
      const body = { name: f.get("name"), role: f.get("role"), characters: chars };
      const send = async (confirm) => {
        const s = await api(`/tables/${encodeURIComponent(f.get("table"))}/seats`, confirm ? { ...body, confirm: true } : body);
        if (s.status === 409 && s.body && s.body.error && s.body.error.code === "confirm") {
          // a name that is no character of the table (yet): the GM confirms it, or fixes a typo
          out.replaceChildren(el("span", { role: "alert" }, s.body.error.message), " ",
            el("button", { id: "seat-confirm", type: "button", onclick: () => send(true) }, t("web.seats.confirm", "Add it anyway")));
          return;
        }
        out.textContent = s.status === 201 ? t("web.index.seat_link", "{name}'s link (hand it to them): {url}", { name: s.body.name, url: s.body.url }) : errorText(s.body);
      };
      await send(false);
    } },
      el("label", { for: "seat-table" }, t("web.index.table", "Table ")),
      el("select", { id: "seat-table", name: "table" }, r.body.tables.map((x) => el("option", { value: x.table_id, selected: x.table_id === chosen }, tableLabel(x)))),
      el("label", { for: "seat-name" }, t("web.index.name", "Name ")), el("input", { id: "seat-name", name: "name", required: true }),
      el("label", { for: "seat-role" }, t("web.index.role", "Role ")),
      el("select", { id: "seat-role", name: "role" }, ["player", "observer", "gm"].map((s) => el("option", { value: s }, window.tl.role(s)))),
      el("label", { for: "seat-chars" }, t("web.index.characters", "Characters ")), el("input", { id: "seat-chars", name: "characters", placeholder: t("web.seats.characters_hint", "Aria, Kai") }),
      el("button", { type: "submit" }, t("web.index.add_seat", "Add seat")));
    app.replaceChildren(
      el("div", { class: "top-row" }, el("span", {}), window.tl.switches("server", async (value) => { await window.tl.speak(value); load(chosen); })),
      el("section", {}, el("h2", {}, t("web.index.tables", "Tables")), rows.length ? el("div", { class: "scroll" }, el("table", {},
        el("thead", {}, el("tr", {}, [t("web.index.col_table", "table"), t("web.index.col_system", "system"), t("web.index.col_title", "title"),
          t("web.index.col_events", "events")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, rows))) : el("p", {}, t("web.index.none", "No table yet."))),
      el("section", {}, el("h2", {}, t("web.index.new", "New table")), create, created),
      el("section", {}, el("h2", {}, t("web.index.add", "Add a seat")), seat), out);
  }
  window.tl.speak(window.tl.chosen("server")).then(() => load());
})();
