// The command box's suggestions (SERVER.md §5): only the lines this seat may send, filled in with
// the table's own names by kind: a character where a command takes one (a player: their own), the
// items that character holds where it takes an ITEM, the runes a pf2e character knows the formula
// of where it takes a RUNE, the cards in a magicpunk hand where it plays one. An observer appends
// nothing: no suggestion. TECH stays a placeholder (a saga table's state holds no techs).
"use strict";
window.tl.suggest = (() => {
  const MAX = 80;
  const heldBy = (items, n) => Object.keys(items).filter((i) => items[i].owner === n);
  const others = (chars, n) => Object.keys(chars).filter((o) => o !== n);
  const foes = (chars, n) => others(chars, n).filter((o) => !chars[n] || chars[o].side !== chars[n].side);

  const ACTS = {
    magicpunk: (n, c, it) => [`magicpunk draw ${n} 1`, ...((c[n] || {}).hand || []).filter((k) => k !== "?").slice(0, 5)
      .map((k) => `magicpunk play ${n} ${k}`), `magicpunk circulate ${n} --all`],
    pf2e: (n, c, it) => [...heldBy(it, n).flatMap((i) => [`pf2e invest ${i} --by ${n}`,
      ...((c[n] || {}).formulas || []).map((r) => `pf2e etch ${i} ${r} --by ${n}`)]), `pf2e formula add ${n} `],
    fate: (n, c) => [...others(c, n).slice(0, 5).map((o) => `fate cast ${n} attack --grade 5 --tiles 2 --target ${o}`),
      `fate chant ${n}`, `fate release ${n} `],
    saga: (n, c) => foes(c, n).slice(0, 5).map((o) => `saga cast ${n} TECH --target ${o}`),
  };
  const GM = {
    magicpunk: (c) => ["magicpunk rest 8h", "magicpunk dawn", ...Object.keys(c).map((n) => `magicpunk damage ${n} 3`)],
    pf2e: (c) => Object.keys(c).map((n) => `pf2e item add ID --base longsword --owner ${n}`),
    fate: () => ["fate battle start", "fate turn", "fate round"],
    saga: () => ["saga battle start", "saga turn"],
  };

  // system: the table's; me: the seat ({ role, characters }); state: GET …/state's answer.
  return (system, me, state) => {
    if (!me || me.role === "observer") return [];
    const chars = state.characters || {}, items = state.items || {};
    const mine = me.role === "player" ? me.characters : Object.keys(chars);
    const acts = ACTS[system] || (() => []);
    const gm = me.role === "gm" && GM[system] ? GM[system](chars) : [];
    const lines = [...mine.flatMap((n) => acts(n, chars, items)), ...gm].slice(0, MAX);
    return [...lines, "note \"\"", "undo", "redo"];
  };
})();
