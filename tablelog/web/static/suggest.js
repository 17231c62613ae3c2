// The command box's suggestions (SERVER.md §5): only the lines this seat may send, filled in with
// the table's own names by kind: a character where a command takes one (a player: their own), the
// items that character holds where it takes an ITEM, the runes a pf2e character knows the formula
// of where it takes a RUNE, the cards in a magicpunk hand where it plays one. An observer appends
// nothing: no suggestion. Every word filled in is quoted as a run script reads it (`q`). Lines the
// rules would refuse on this state are not offered: a fate cast only by a master, of a kind it has
// power in, at that power's grade (FATE-CC-7, FATE-CAST-2); a release only of an NP the servant
// holds. TECH stays a placeholder unless the state lists techs (a saga table's state holds none).
"use strict";
window.tl.suggest = (() => {
  const MAX = 80;
  // A word as a run script reads it (POSIX words, `#` a comment): as is when only safe characters,
  // else in double quotes with `"` and `\` escaped.
  const SAFE = /^[\p{L}\p{N}_@%+=:,./-]+$/u;
  const q = (w) => SAFE.test(w) ? w : `"${String(w).replace(/["\\]/g, (c) => `\\${c}`)}"`;
  const heldBy = (items, n) => Object.keys(items).filter((i) => items[i].owner === n);
  const others = (chars, n) => Object.keys(chars).filter((o) => o !== n);
  const foes = (chars, n) => others(chars, n).filter((o) => !chars[n] || chars[o].side !== chars[n].side);
  const TARGETED = new Set(["attack", "curse"]);

  // A fate master's casts: each kind it has power in, at that grade; an attack takes up to 2 tiles
  // of its pool, any other kind 1 (one per target unless chanted, FATE-CAST-7).
  function casts(n, c) {
    const me = c[n] || {}, most = Math.max(1, Math.min(2, me.tiles || 1));
    const powers = Object.entries(me.powers || { attack: 1 }).filter(([, p]) => p > 0);
    return powers.flatMap(([kind, p]) => (TARGETED.has(kind) ? others(c, n).slice(0, 3) : [n])
      .map((o) => `fate cast ${q(n)} ${kind} --grade ${p} --tiles ${kind === "attack" ? most : 1} --target ${q(o)}`));
  }
  // A servant's releases: the NPs its record lists, an attack aimed at the first other character.
  function releases(n, c) {
    const target = others(c, n)[0];
    return Object.entries((c[n] || {}).phantasms || {}).map(([id, np]) => `fate release ${q(n)} ${q(id)}` +
      (np.form === "attack" && target !== undefined ? ` --target ${q(target)}` : ""));
  }
  const techsOf = (n, s) => [...new Set([...(((s.characters || {})[n] || {}).techs || []), ...Object.keys(s.techs || {})])];

  const ACTS = {
    magicpunk: (n, c) => [`magicpunk draw ${q(n)} 1`, ...((c[n] || {}).hand || []).filter((k) => k !== "?").slice(0, 5)
      .map((k) => `magicpunk play ${q(n)} ${q(k)}`), `magicpunk circulate ${q(n)} --all`],
    pf2e: (n, c, it) => [...heldBy(it, n).flatMap((i) => [`pf2e invest ${q(i)} --by ${q(n)}`,
      ...((c[n] || {}).formulas || []).map((r) => `pf2e etch ${q(i)} ${q(r)} --by ${q(n)}`)]), `pf2e formula add ${q(n)} `],
    fate: (n, c) => ((c[n] || {}).role === "servant" ? releases(n, c) : [...casts(n, c), `fate chant ${q(n)}`]),
    saga: (n, c, it, s) => foes(c, n).slice(0, 5).flatMap((o) => (techsOf(n, s).length ? techsOf(n, s) : ["TECH"])
      .slice(0, 5).map((t) => `saga cast ${q(n)} ${t === "TECH" ? t : q(t)} --target ${q(o)}`)),
  };
  const GM = {
    magicpunk: (c) => ["magicpunk rest 8h", "magicpunk dawn", ...Object.keys(c).map((n) => `magicpunk damage ${q(n)} 3`)],
    pf2e: (c) => Object.keys(c).map((n) => `pf2e item add ID --base longsword --owner ${q(n)}`),
    fate: () => ["fate battle start", "fate turn", "fate round"],
    saga: () => ["saga battle start", "saga turn"],
  };

  // system: the table's; me: the seat ({ role, characters }); state: GET …/state's answer.
  function suggest(system, me, state) {
    if (!me || me.role === "observer") return [];
    const chars = state.characters || {}, items = state.items || {};
    const mine = me.role === "player" ? me.characters : Object.keys(chars);
    const acts = ACTS[system] || (() => []);
    const gm = me.role === "gm" && GM[system] ? GM[system](chars) : [];
    const lines = [...mine.flatMap((n) => acts(n, chars, items, state)), ...gm].slice(0, MAX);
    return [...lines, "note \"\"", "undo", "redo"];
  }
  return Object.assign(suggest, { quote: q });
})();
