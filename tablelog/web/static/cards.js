// The sheets of the table page (SERVER.md §5): each character, unit and item as its system's
// sheet declares it (GET …/sheet: gauges as bars with their numbers large, figures grouped,
// tables of figures, word lists, card lists, the badge; internal fields out of sight; every
// label in the seat's language), mana cards as playing cards (♠ ♥ ♦ ♣, jokers; a hidden card as
// a card back), a click on one's own cards to play them or charge them into one of one's items,
// and a magicpunk table's deck. Text only: nothing from a log becomes HTML.
"use strict";
window.tl.cards = (() => {
  const { el, fmt, t } = window.tl;

  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const suitName = (s) => ({ S: t("web.suit.spades", "spades"), H: t("web.suit.hearts", "hearts"),
    D: t("web.suit.diamonds", "diamonds"), C: t("web.suit.clubs", "clubs") }[s] || s);
  // A card code (AS, 10H, JK1) as the face shows it: rank, suit, colour and its spoken name.
  function face(code) {
    if (/^JK\d*$/.test(code)) return { rank: "★", suit: "", red: code.endsWith("1"), name: t("web.card.joker", "joker") };
    const m = /^(A|[2-9]|10|J|Q|K)([SHDC])$/.exec(code);
    if (!m) return { rank: code, suit: "", red: false, name: code };
    return { rank: m[1], suit: SUITS[m[2]], red: m[2] === "H" || m[2] === "D", name: t("web.card.name", "{rank} of {suit}", { rank: m[1], suit: suitName(m[2]) }) };
  }

  // A list of cards; chosen: the set of indexes picked (own cards are buttons that pick).
  function cardList(list, own, chosen, onPick) {
    return el("ul", { class: "cards" }, (list || []).map((c, i) => {
      // Each card an item of the list, its face (or back) an image inside (a role on the <li>
      // itself would make it no list item: axe's "list").
      if (c === "?") return el("li", {}, el("span", { class: "card back", role: "img", "aria-label": t("web.card.hidden", "hidden card") }, "🂠"));
      const f = face(c);
      const body = [el("span", { class: "rank" }, f.rank), f.suit ? el("span", { class: "suit", "aria-hidden": "true" }, f.suit) : null];
      const cls = `card face${f.red ? " red" : ""}${chosen && chosen.has(i) ? " chosen" : ""}`;
      if (!own) return el("li", {}, el("span", { class: cls, role: "img", "aria-label": f.name, "data-card": c }, body));
      return el("li", {}, el("button", { type: "button", class: cls, "data-card": c, "aria-label": f.name,
        "aria-pressed": chosen && chosen.has(i) ? "true" : "false", onclick: () => onPick(i) }, body));
    }));
  }

  // A gauge: the value large, its maximum beside it; "?" where hidden from this seat; none where
  // there is nothing to show (a maximum of 0, or for the GM, who sees all, a figure that is null).
  function gauge(g, rec, gm) {
    const value = rec[g.value], max = rec[g.maximum];
    if (value === undefined || max === 0 || (gm && value === null)) return null;
    const hidden = value === null || max === null;
    const pct = hidden || !max ? 0 : Math.max(0, Math.min(100, (100 * value) / max));
    const said = hidden ? t("web.gauge.hidden", "{label} hidden", { label: g.label })
      : t("web.gauge.value", "{label} {value} of {max}", { label: g.label, value, max: max ?? "–" });
    return el("div", { class: `bar gauge-${g.value}`, role: "img", "aria-label": said },
      el("span", { class: "bar-label" }, g.label),
      el("span", { class: `bar-track ${g.value}` }, el("span", { class: "bar-fill", style: `width:${pct}%` })),
      el("span", { class: "bar-num" }, el("strong", {}, hidden ? "?" : String(value)), hidden ? "" : `/${max ?? "–"}`));
  }

  // A label and its value, kept together on a line (a <div> in a <dl>, as HTML allows).
  const pair = (label, value) => el("div", { class: "fig" }, el("dt", {}, label), el("dd", {}, value));
  // A table's entries that say something (an effect of 0, a power of 0: none).
  const entriesOf = (table) => Object.entries(table).filter(([, v]) => v !== 0 && v !== null && v !== false && v !== "0");
  const figureValue = (v) => (Array.isArray(v) ? v.join(", ") : fmt(v));
  // A record's value of a table's key or a badge: its glossary word where there is one.
  const termOf = (terms, key) => (terms && terms[key]) || key;

  // A fate character's effects (a list) or a saga unit's (a table); NPs: id, grade, type.
  function effectsList(value) {
    if (!Array.isArray(value) || !value.length) return null;
    return el("p", { class: "words" }, el("span", { class: "k" }, t("web.sheet.effects", "Effects")),
      value.map((e) => el("span", { class: "chip" }, [e.kind, e.grade, e.turns_left !== undefined && e.turns_left !== null
        ? t("web.sheet.turns_left", "({n} turns)", { n: e.turns_left }) : null].filter((x) => x !== undefined && x !== null).join(" "))));
  }
  function phantasms(value) {
    const nps = Object.entries(value || {});
    if (!nps.length) return null;
    return el("p", { class: "words" }, el("span", { class: "k" }, t("web.sheet.phantasms", "Noble Phantasms")),
      nps.map(([id, np]) => el("span", { class: "chip" }, [id, np.grade, np.type].filter(Boolean).join(" "))));
  }

  // The sheet of one record. ctx: { view (the sheet's view of its kind), labels, gm, own (the
  // seat acts for it), onAudit(name), cardActions(name, field, cards) -> element or null,
  // copy (a "Copy for ccfolia" button's handler, or null) }.
  function sheet(name, rec, kind, ctx) {
    const view = ctx.view || { gauges: [], figures: [], tables: [], words: [], cards: [], badge: null, internal: [] };
    const shown = new Set([...(view.badge ? [view.badge.field] : []), ...view.gauges.flatMap((g) => [g.value, g.maximum]),
      ...view.figures.map((f) => f.field), ...view.tables.map((x) => x.field), ...view.words.map((w) => w.field),
      ...view.cards.map((c) => c.field), ...view.internal, "effects", "phantasms"]);
    const badge = view.badge && rec[view.badge.field] !== undefined && rec[view.badge.field] !== null
      ? el("span", { class: `badge ${view.badge.field}-${rec[view.badge.field]}` }, termOf(view.badge.terms, rec[view.badge.field])) : null;
    const figures = view.figures.filter((f) => rec[f.field] !== undefined && rec[f.field] !== null && !(Array.isArray(rec[f.field]) && !rec[f.field].length));
    const tables = view.tables.filter((x) => rec[x.field] && typeof rec[x.field] === "object" && !Array.isArray(rec[x.field]) && entriesOf(rec[x.field]).length);
    const lists = view.words.filter((w) => Array.isArray(rec[w.field]) && rec[w.field].length);
    const more = Object.entries(rec).filter(([k, v]) => !shown.has(k) && (v === null || typeof v !== "object") && v !== null);
    const label = (k) => (ctx.labels && ctx.labels[k]) || k;
    return el("article", { class: `entity ${kind}${ctx.own ? " own" : ""}`, "data-name": name },
      el("header", { class: "sheet-head" },
        el("h3", {}, el("button", { type: "button", class: "link", onclick: () => ctx.onAudit(name),
          "aria-label": t("web.sheet.audit", "{name}: how it got here (audit trail)", { name }) }, name)),
        badge,
        ctx.copy ? el("button", { type: "button", class: "small ghost copy", onclick: () => ctx.copy(name) }, t("web.sheet.copy", "Copy for ccfolia")) : null),
      view.gauges.map((g) => gauge(g, rec, ctx.gm)),
      figures.length ? el("dl", { class: "figures" }, figures.map((f) => pair(f.label, figureValue(rec[f.field])))) : null,
      tables.map((x) => el("div", { class: "table-figures" }, el("span", { class: "k" }, x.label),
        el("dl", { class: "figures small" }, entriesOf(rec[x.field]).map(([k, v]) => pair(termOf(x.terms, k),
          v && typeof v === "object" ? Object.values(v).filter((y) => y !== null && typeof y !== "object").join(" ") : fmt(v)))))),
      lists.map((w) => el("p", { class: "words" }, el("span", { class: "k" }, w.label), rec[w.field].map((x) => el("span", { class: "chip" }, String(x))))),
      view.cards.filter((c) => Array.isArray(rec[c.field])).map((c) => el("div", { class: "hand", "data-field": c.field },
        el("span", { class: "k" }, t("web.sheet.cards_count", "{label} ({n})", { label: c.label, n: rec[c.field].length })),
        ctx.cardActions ? ctx.cardActions(name, c.field, rec[c.field]) : cardList(rec[c.field], false))),
      Array.isArray(rec.effects) ? effectsList(rec.effects) : null,
      phantasms(rec.phantasms),
      more.length ? el("details", { class: "more" }, el("summary", {}, t("web.sheet.more", "More")),
        el("dl", { class: "figures small" }, more.map(([k, v]) => pair(label(k), fmt(v))))) : null,
    );
  }

  // A magicpunk deck: the draw pile's count and the discard pile (public), newest last.
  function deck(d) {
    if (!d || d.draw_count === undefined) return null;
    return el("div", { id: "deck", class: "deck" }, el("p", {}, t("web.deck.pile", "Draw pile: {n} of {size} cards", { n: d.draw_count, size: d.size })),
      el("div", { class: "hand" }, el("span", { class: "k" }, t("web.deck.discard", "Discard pile ({n})", { n: (d.discard || []).length })), cardList(d.discard, false)));
  }

  return { sheet, deck, cardList, face };
})();
