// The cards of the table page (SERVER.md §5): each character and item with its system's figures
// (HP / MP / LP / tiles as bars, hands as card faces or backs, items' name, level and price,
// runes, effects, Noble Phantasms) and a magicpunk table's deck. Text only: nothing from a log
// becomes HTML.
"use strict";
window.tl.cards = (() => {
  const { el, fmt } = window.tl;

  // A figure's bar: "?" where the value is hidden from this seat; none where there is nothing to
  // show (a max of 0, as a servant's tiles, or for the GM, who sees all, a figure that is null).
  function bar(label, value, max, gm) {
    if (value === undefined || max === 0 || (gm && value === null)) return null;
    const hidden = value === null || max === null;
    const pct = hidden || !max ? 0 : Math.max(0, Math.min(100, (100 * value) / max));
    return el("div", { class: "bar", role: "img", "aria-label": `${label} ${hidden ? "hidden" : `${value} of ${max}`}` },
      el("span", { class: "bar-label" }, label),
      el("span", { class: `bar-track ${label.toLowerCase()}` }, el("span", { class: "bar-fill", style: `width:${pct}%` })),
      el("span", { class: "bar-num" }, hidden ? "?" : `${value}/${max ?? "–"}`));
  }

  function cards(list) {
    return el("ul", { class: "cards" }, (list || []).map((c) => c === "?"
      ? el("li", { class: "card back", "aria-label": "hidden card" }, "🂠")
      : el("li", { class: `card face ${/[HD]$/.test(c) ? "red" : ""}` }, c)));
  }

  const SHOWN = new Set(["hp", "hp_max", "mp", "mp_max", "lp", "lp_max", "tiles", "tiles_max", "hand", "cards",
    "effects", "phantasms", "runes", "property", "name", "level", "price_gp", "owner"]);

  // gm: the seat sees everything (a null figure is none, not hidden); onAudit(name): the name's
  // button, which opens its audit trail.
  function entityCard(name, rec, kind, gm, onAudit) {
    const extra = Object.entries(rec).filter(([k, v]) => !SHOWN.has(k) && (v === null || typeof v !== "object"));
    return el("article", { class: `entity ${kind}`, "data-name": name },
      el("h3", {}, el("button", { type: "button", class: "link", onclick: () => onAudit(name) }, name)),
      kind === "item" && rec.name ? el("p", { class: "item-name" }, `${rec.name}` +
        (rec.level !== undefined ? ` · level ${rec.level}` : "") + (rec.price_gp !== undefined ? ` · ${rec.price_gp} gp` : "")) : null,
      rec.owner ? el("p", { class: "owner" }, `held by ${rec.owner}`) : null,
      kind === "character" && rec.level !== undefined ? el("p", { class: "level" }, `level ${fmt(rec.level)}`) : null,
      bar("HP", rec.hp, rec.hp_max, gm), bar("MP", rec.mp, rec.mp_max, gm), bar("LP", rec.lp, rec.lp_max, gm),
      rec.tiles !== undefined ? bar("Tiles", rec.tiles, rec.tiles_max, gm) : null,
      rec.hand ? el("div", { class: "hand" }, el("span", { class: "k" }, "hand"), cards(rec.hand)) : null,
      rec.cards ? el("div", { class: "hand" }, el("span", { class: "k" }, "cards"), cards(rec.cards)) : null,
      rec.runes && rec.runes.length ? el("p", {}, el("span", { class: "k" }, "runes "), rec.runes.join(", ")) : null,
      effects(rec.effects),
      rec.phantasms && Object.keys(rec.phantasms).length ? el("p", {}, el("span", { class: "k" }, "NPs "),
        Object.entries(rec.phantasms).map(([id, np]) => `${id} (${np.grade ?? ""} ${np.type ?? ""})`).join(", ")) : null,
      extra.length ? el("dl", { class: "extra" }, extra.slice(0, 10).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, fmt(v))])) : null,
    );
  }

  function effects(value) {
    if (!value) return null;
    if (Array.isArray(value)) {
      return value.length ? el("p", {}, el("span", { class: "k" }, "effects "),
        value.map((e) => `${e.kind}${e.grade !== undefined ? " " + e.grade : ""}${e.turns_left !== undefined ? ` (${e.turns_left} turns)` : ""}`).join(", ")) : null;
    }
    const parts = Object.entries(value).filter(([, v]) => v);
    return parts.length ? el("p", {}, el("span", { class: "k" }, "effects "), parts.map(([k, v]) => `${k} ${v}`).join(", ")) : null;
  }

  // A magicpunk deck: the draw pile's count and the discard pile (public), newest last.
  function deck(d) {
    if (!d || d.draw_count === undefined) return null;
    return el("div", { id: "deck", class: "deck" }, el("p", {}, `Draw pile: ${d.draw_count} of ${d.size} cards`),
      el("div", { class: "hand" }, el("span", { class: "k" }, `discard pile (${(d.discard || []).length})`), cards(d.discard)));
  }

  return { entityCard, deck };
})();
