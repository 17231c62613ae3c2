// The table page's log, as sentences (SERVER.md §5): one row per action (the records of one
// command share its `cmd`: a five-hit cast is one row, its hits inside, expandable), newest
// first, with who did it and when (the browser's time zone); an undo or a redo is one row naming
// what it took back (its `text`); a unit's fall shown under its row, not only among the hits;
// dice results as the roll (the dice bot's line); a whisper
// shown as a whisper to its readers (others never receive it). No event type, no field diff:
// the server's `text` of each line, in the seat's language. Up to the time slider's seq when
// it is in the past. The latest rows first, more on request (a long evening is thousands).
"use strict";
window.tl.log = (() => {
  const { el, t, tn, time } = window.tl;
  const MARKERS = new Set(["core.Undone", "core.Redone"]);
  // Seats and signing keys are revoked, not undone (CORE-SEAT, CORE-KEY): no button on them.
  const FOR_GOOD = new Set(["core.SeatAdded", "core.SeatRevoked", "core.SeatRotated", "core.SeatSessionOpened", "core.KeyAdded"]);
  // A browser opening the page is nobody's action at the table: not a row.
  const QUIET = new Set(["core.SeatSessionOpened"]);
  const ROLLS = new Set(["core.DiceRolled", "magicpunk.CheckRolled"]);
  // What an action brings about that no one should have to open its hits to read (a unit that
  // falls to the fifth hit of a tenrai): shown under the row itself, not only inside.
  const NEWS = new Set(["saga.UnitIncapacitated"]);
  const STEP = 200;

  // The actions of `lines` (in seq order): the records with one `cmd` (format 2), else a run
  // with equal `at` and `actor` (format 1; docs/FORMAT.md). [{ first, last, lines }].
  function actions(lines) {
    const out = [];
    let key = null, current = null;
    for (const line of lines) {
      const k = line.cmd !== undefined && line.cmd !== null ? `cmd ${line.cmd}` : `${line.at} ${line.actor}`;
      if (current === null || k !== key) { current = { first: line.seq, last: line.seq, lines: [] }; out.push(current); key = k; }
      current.lines.push(line);
      current.last = line.seq;
    }
    return out;
  }

  const whisperTo = (line) => {
    const d = line.data || {};
    const to = Array.isArray(d.to) ? d.to : (typeof d.to === "string" && d.to ? d.to.split(",") : []);
    return line.type === "core.Said" && to.length ? to : null;
  };
  const sentence = (line) => line.text || t("web.log.details_hidden", "(details hidden)");

  function lineText(line) {
    const to = whisperTo(line);
    if (to) return el("span", { class: "text whisper" }, el("span", { class: "tag" }, t("web.log.whisper", "whisper to {to}", { to: to.join(", ") })), " ", sentence(line));
    if (ROLLS.has(line.type)) return el("span", { class: "text roll" }, el("span", { class: "die", "aria-hidden": "true" }, "🎲"), " ", el("code", {}, sentence(line)));
    if (MARKERS.has(line.type)) return el("span", { class: "text marker" }, marker(line));
    return el("span", { class: "text" }, sentence(line));
  }
  // An undo or redo as what it took back or restored: "undo #21: Aria takes 5 damage" (the
  // target's own sentence, when the page holds its record), else its own text.
  let bySeq = new Map();
  function marker(line) {
    const target = bySeq.get(line.data && line.data.target);
    if (!target || !target.text) return sentence(line);
    return line.type === "core.Undone"
      ? t("web.log.undid", "undo #{seq}: {what}", { seq: target.seq, what: target.text })
      : t("web.log.redid", "redo #{seq}: {what}", { seq: target.seq, what: target.text });
  }

  // opts: { lines, upTo (a seq, or null for live), limit, mayTakeBack(line), takeBack(action),
  // disabled, hasEarlier (records before lines the page has not read), onMore() }. Returns the
  // rows shown (for the tests: window.tablelog.rows).
  function render(box, opts) {
    bySeq = new Map(opts.lines.map((l) => [l.seq, l]));
    const shown = opts.lines.filter((l) => !QUIET.has(l.type) && (opts.upTo === null || l.seq <= opts.upTo));
    const all = actions(shown).reverse();
    const rows = all.slice(0, opts.limit || STEP).map((a) => {
      const head = a.lines[0], rest = a.lines.slice(1);
      const undone = a.lines.every((l) => l.undone);
      const button = !MARKERS.has(head.type) && !FOR_GOOD.has(head.type) && opts.mayTakeBack(head) && (opts.upTo === null)
        ? takeBack(a, head, opts) : null;
      const kind = whisperTo(head) ? " whisper" : (ROLLS.has(head.type) ? " roll" : (MARKERS.has(head.type) ? " marker" : ""));
      return el("li", { class: `action${undone ? " undone" : ""}${kind}`, "data-seq": String(head.seq), "data-last": String(a.last), "data-type": head.type },
        el("span", { class: "when" }, el("time", { datetime: head.at || "" }, time(head.at))), " ",
        el("span", { class: "actor" }, head.actor), " ", lineText(head), " ", button,
        ...rest.filter((l) => NEWS.has(l.type)).map((l) => el("p", { class: `news${l.undone ? " undone" : ""}`, "data-seq": String(l.seq) }, lineText(l))),
        rest.length ? el("details", { class: "hits" }, el("summary", {}, tn("web.log.more", "{n} more event", "{n} more events", rest.length)),
          el("ol", {}, rest.map((l) => el("li", { class: l.undone ? "undone" : "", "data-seq": String(l.seq) }, lineText(l))))) : null);
    });
    const hidden = all.length - rows.length;
    const more = hidden > 0 || opts.hasEarlier
      ? el("li", { class: "earlier" }, el("button", { type: "button", class: "small ghost", onclick: opts.onMore },
        hidden > 0 ? tn("web.log.earlier", "Show {n} earlier action", "Show {n} earlier actions", Math.min(STEP, hidden))
          : t("web.log.earlier_unread", "Show earlier actions")))
      : null;
    box.replaceChildren(...rows, ...(more ? [more] : []));
    return rows.length;
  }

  function takeBack(action, line, opts) {
    const verb = line.undone ? "redo" : "undo";
    const span = action.last > action.first ? `#${action.first}–#${action.last}` : `#${action.first}`;
    const what = sentence(line).slice(0, 80);
    const label = verb === "undo" ? t("web.log.undo_label", "undo {span}: {what}", { span, what }) : t("web.log.redo_label", "redo {span}: {what}", { span, what });
    return el("button", { type: "button", class: `small ${verb}`, disabled: opts.disabled, "aria-label": label,
      onclick: () => opts.takeBack(`${verb} ${line.seq}`) }, verb === "undo" ? t("web.log.undo", "undo") : t("web.log.redo", "redo"));
  }

  return { actions, render, STEP, FOR_GOOD, MARKERS };
})();
