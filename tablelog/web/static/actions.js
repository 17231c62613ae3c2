// Actions at hand (SERVER.md §5): buttons for a seat's frequent actions, each of which fills the
// command line with the line it runs and previews it (a dry run): draw, the system's check,
// casting or using a tech from the character's own list with a target picker (saga: the techs
// of the weapon types the unit has an SLv in; fate: a master's kinds of magic at their grade, a
// servant's NPs), chant, release, investing and etching (pf2e); plain dice for every system
// (`roll 2D6`, a secret roll `roll S2D6`); for the GM, damage, healing and rests with a number
// field, and the clock's steps. The seat's own characters only (the GM: every one).
"use strict";
window.tl.actions = (() => {
  const { el, t } = window.tl;
  const q = (w) => window.tl.suggest.quote(String(w));
  const kept = { who: null, values: {} };  // the choices made, kept across renders

  // A <select> (or a number/text field) whose value is kept by `key` across renders.
  function choice(key, label, options, fallback) {
    const value = kept.values[key] !== undefined && options.some(([v]) => v === kept.values[key]) ? kept.values[key] : (fallback ?? (options[0] || [""])[0]);
    kept.values[key] = value;
    const id = `act-${key}`;
    return [el("label", { for: id, class: "k" }, label), el("select", { id, onchange: (e) => { kept.values[key] = e.target.value; } },
      options.map(([v, text]) => el("option", { value: v, selected: v === value }, text)))];
  }
  function field(key, label, type, fallback, attrs) {
    const value = kept.values[key] ?? fallback;
    kept.values[key] = value;
    const id = `act-${key}`;
    return [el("label", { for: id, class: "k" }, label), el("input", { id, type, value: String(value), ...(attrs || {}),
      oninput: (e) => { kept.values[key] = e.target.value; } })];
  }
  const v = (key) => kept.values[key];
  const button = (id, text, line) => el("button", { type: "button", id, class: "act", onclick: () => { const made = line(); if (made) ctx.pick(made); } }, text);
  let ctx = null;

  const others = (chars, n) => Object.keys(chars).filter((o) => o !== n);
  const foesFirst = (chars, n) => { const side = (chars[n] || {}).side; return others(chars, n).sort((a, b) => (chars[a].side === side) - (chars[b].side === side)); };

  // Each system's actions of one character: a list of groups (each a row of controls).
  const SYSTEM = {
    magicpunk(n, rec, c) {
      const abilities = (c.sheet.characters ? c.sheet.characters.figures : []).filter((f) => ["body", "sense", "intellect", "magic"].includes(f.field));
      return [
        [...field("draw-n", t("web.act.cards", "cards"), "number", 1, { min: "1", max: "10", class: "num" }),
          button("act-draw", t("web.act.draw", "Draw"), () => `magicpunk draw ${q(n)} ${Math.max(1, Number(v("draw-n")) || 1)}`),
          button("act-circulate", t("web.act.circulate", "Circulate"), () => `magicpunk circulate ${q(n)} --all`)],
        [...choice(`ability-${n}`, t("web.act.ability", "check"), abilities.map((f) => [String(rec[f.field] ?? 0), `${f.label} ${rec[f.field] ?? "–"}`])),
          ...field("dice-n", t("web.act.dice", "dice"), "number", 1, { min: "1", max: "9", class: "num" }),
          button("act-check", t("web.act.check", "Roll the check"), () => `magicpunk roll ${Math.max(1, Number(v("dice-n")) || 1)}MP${v(`ability-${n}`)} --by ${q(n)}`)],
      ];
    },
    saga(n, rec, c) {
      const groups = Object.keys(rec.slv || {});
      const listed = groups.flatMap((g) => (c.sheet.techs || {})[g] || []);
      const own = [...new Set([...(rec.techs || []), ...Object.keys(c.state.techs || {})])].map((id) => ({ id, label: id }));
      const techs = [...own, ...listed];
      // a downed unit is no target (SAGA-TARGET-1 refuses it): the picker leaves it out
      const targets = foesFirst(c.chars, n).filter((o) => !(c.chars[o] || {}).incapacitated);
      const rows = [];
      if (techs.length && targets.length) {
        rows.push([...choice(`tech-${n}`, t("web.act.tech", "tech"), techs.map((x) => [x.id, x.label === x.id ? x.id : `${x.label} (${x.id})`])),
          ...choice(`target-${n}`, t("web.act.target", "target"), targets.map((o) => [o, o])),
          button("act-cast", t("web.act.cast", "Use the tech"), () => `saga cast ${q(n)} ${q(v(`tech-${n}`))} --target ${q(v(`target-${n}`))}`)]);
      }
      rows.push([button("act-release", t("web.act.release", "Release (解き放つ)"), () => `saga release ${q(n)}`)]);
      return rows;
    },
    fate(n, rec, c) {
      if (rec.role === "servant") {
        const nps = Object.entries(rec.phantasms || {});
        if (!nps.length) return [];
        const targets = others(c.chars, n);
        return [[...choice(`np-${n}`, t("web.act.np", "Noble Phantasm"), nps.map(([id, np]) => [id, [id, np.grade].filter(Boolean).join(" ")])),
          ...choice(`target-${n}`, t("web.act.target", "target"), [["", t("web.act.no_target", "(none)")], ...targets.map((o) => [o, o])]),
          button("act-release", t("web.act.release_np", "Release"), () => `fate release ${q(n)} ${q(v(`np-${n}`))}` + (v(`target-${n}`) ? ` --target ${q(v(`target-${n}`))}` : ""))]];
      }
      const powers = Object.entries(rec.powers || {}).filter(([, p]) => p > 0);
      const rows = [];
      if (powers.length) {
        rows.push([...choice(`kind-${n}`, t("web.act.kind", "magic"), powers.map(([k, p]) => [k, `${k} ${p}`])),
          ...field("tiles", t("web.act.tiles", "tiles"), "number", 1, { min: "1", max: "6", class: "num" }),
          ...choice(`target-${n}`, t("web.act.target", "target"), [n, ...others(c.chars, n)].map((o) => [o, o])),
          button("act-cast", t("web.act.cast_magic", "Cast"), () => {
            const kind = v(`kind-${n}`), grade = (rec.powers || {})[kind] || 1;
            return `fate cast ${q(n)} ${q(kind)} --grade ${grade} --tiles ${Math.max(1, Number(v("tiles")) || 1)} --target ${q(v(`target-${n}`))}`;
          })]);
      }
      rows.push([button("act-chant", t("web.act.chant", "Chant"), () => `fate chant ${q(n)}`)]);
      return rows;
    },
    pf2e(n, rec, c) {
      const held = Object.keys(c.items).filter((i) => c.items[i].owner === n);
      if (!held.length) return [];
      const rows = [[...choice(`item-${n}`, t("web.act.item", "item"), held.map((i) => [i, c.items[i].name ? `${c.items[i].name} (${i})` : i])),
        button("act-invest", t("web.act.invest", "Invest"), () => `pf2e invest ${q(v(`item-${n}`))} --by ${q(n)}`)]];
      if ((rec.formulas || []).length) {
        rows.push([...choice(`rune-${n}`, t("web.act.rune", "rune"), rec.formulas.map((r) => [r, r])),
          button("act-etch", t("web.act.etch", "Etch"), () => `pf2e etch ${q(v(`item-${n}`))} ${q(v(`rune-${n}`))} --by ${q(n)}`)]);
      }
      return rows;
    },
  };

  // The GM's tools of each system: what the world does (a number field and a target picker).
  const WORLD = {
    magicpunk: (names) => [
      [...choice("gm-who", t("web.act.who", "who"), names.map((o) => [o, o])), ...field("gm-n", t("web.act.amount", "amount"), "number", 1, { min: "0", class: "num" }),
        button("act-damage", t("web.act.damage", "Damage"), () => `magicpunk damage ${q(v("gm-who"))} ${Number(v("gm-n")) || 0}`),
        button("act-heal", t("web.act.heal", "Heal"), () => `magicpunk heal ${q(v("gm-who"))} ${Number(v("gm-n")) || 0}`)],
      [...choice("gm-rest", t("web.act.rest_for", "rest"), [["10m", "10m"], ["1h", "1h"], ["8h", "8h"]], "8h"),
        button("act-rest", t("web.act.rest", "Rest"), () => `magicpunk rest ${v("gm-rest")}`),
        button("act-dawn", t("web.act.dawn", "Dawn"), () => "magicpunk dawn")],
    ],
    fate: (names) => [
      [...choice("gm-who", t("web.act.who", "who"), names.map((o) => [o, o])), ...field("gm-n", t("web.act.amount", "amount"), "number", 1, { min: "0", class: "num" }),
        button("act-damage", t("web.act.damage", "Damage"), () => `fate damage ${q(v("gm-who"))} --hp ${Number(v("gm-n")) || 0}`)],
      [button("act-rest", t("web.act.rest", "Rest"), () => "fate rest"), button("act-morning", t("web.act.morning", "Morning"), () => "fate morning"),
        button("act-battle", t("web.act.battle", "Start a battle"), () => "fate battle start"), button("act-turn", t("web.act.turn", "Next turn"), () => "fate turn"),
        button("act-round", t("web.act.round", "Next round"), () => "fate round")],
    ],
    saga: (names) => [
      [button("act-battle", t("web.act.battle", "Start a battle"), () => "saga battle start"), button("act-turn", t("web.act.turn", "Next turn"), () => "saga turn")],
      [...choice("gm-who", t("web.act.who", "who"), names.map((o) => [o, o])), button("act-poison", t("web.act.poison", "Poison"), () => `saga poison ${q(v("gm-who"))}`)],
    ],
    pf2e: () => [],
  };

  // c: { system, me, state, sheet, pick(line) }. The panel's content (empty for an observer).
  function render(box, c) {
    ctx = c;
    const chars = c.state.characters || {};
    c.chars = chars; c.items = c.state.items || {};
    if (!c.me || c.me.role === "observer") { box.replaceChildren(); return; }
    const mine = (c.me.role === "gm" ? Object.keys(chars) : c.me.characters).filter((n) => chars[n]);
    if (!mine.includes(kept.who)) kept.who = mine[0] || null;
    const groups = [];
    if (mine.length > 1) {
      groups.push(el("div", { class: "act-row" }, el("label", { for: "act-who", class: "k" }, t("web.act.acting", "acting")),
        el("select", { id: "act-who", onchange: (e) => { kept.who = e.target.value; render(box, c); } },
          mine.map((n) => el("option", { value: n, selected: n === kept.who }, n)))));
    }
    const make = SYSTEM[c.system];
    if (kept.who && make) for (const row of make(kept.who, chars[kept.who], c)) groups.push(el("div", { class: "act-row" }, row));
    groups.push(el("div", { class: "act-row" }, ...field("notation", t("web.act.notation", "dice"), "text", "2D6", { class: "notation", spellcheck: "false", autocomplete: "off" }),
      el("label", { class: "check" }, el("input", { id: "act-secret", type: "checkbox", checked: v("secret") === true,
        onchange: (e) => { kept.values.secret = e.target.checked; } }), t("web.act.secret", "secret (the GM sees it)")),
      button("act-roll", t("web.act.roll", "Roll"), () => { const n = String(v("notation") || "").trim(); return n ? `roll ${v("secret") ? "S" : ""}${n.replace(/^S/i, "")}` : null; })));
    if (c.me.role === "gm" && WORLD[c.system]) {
      const world = WORLD[c.system](Object.keys(chars));
      if (world.length) groups.push(el("h3", {}, t("web.act.world", "The world (GM)")), ...world.map((row) => el("div", { class: "act-row" }, row)));
    }
    box.replaceChildren(...groups);
  }

  return { render };
})();
