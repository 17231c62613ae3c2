// The HP / MP / LP chart of the table page (SERVER.md §5): one small chart per figure, so LP (~10)
// does not sit flat under HP (~300), each line stepped (a figure changes at an event and holds
// until the next). A character whose history could not be read is named under the charts with
// the reason; the others are drawn all the same.
"use strict";
window.tl.chart = (() => {
  const { el } = window.tl;
  const FIGURES = ["hp", "mp", "lp"];
  const PALETTE = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7b83", "#6e7781"];
  let plots = [];

  // histories: [{ name, trail }], a trail as GET …/history/NAME answers it: [{ seq, changes }].
  function seriesOf(histories, fig) {
    const out = [];
    for (const { name, trail } of histories) {
      const points = [];
      for (const e of trail) for (const c of e.changes || []) if (c.field === fig && typeof c.new === "number") points.push([e.seq, c.new]);
      if (points.length) out.push({ label: name, points });
    }
    return out;
  }

  // uPlot's columns: the seqs where anything changed (0 and the last seq too), each series' value
  // held from its change to the next.
  function columns(series, lastSeq) {
    const xs = [...new Set([0, ...series.flatMap((s) => s.points.map((p) => p[0])), lastSeq])].sort((a, b) => a - b);
    return [xs, ...series.map((s) => {
      let v = null, i = 0;
      return xs.map((x) => { while (i < s.points.length && s.points[i][0] <= x) v = s.points[i++][1]; return v; });
    })];
  }

  function plot(box, fig, series, lastSeq, width) {
    const holder = el("div", { class: "chart", "data-figure": fig });
    box.append(holder);
    const opts = { title: fig.toUpperCase(), width, height: 170, scales: { x: { time: false } },
      axes: [{ label: "event #" }, {}],
      series: [{ label: "#" }, ...series.map((s, i) => ({ label: s.label, stroke: PALETTE[i % PALETTE.length],
        width: 2, spanGaps: true, paths: uPlot.paths.stepped({ align: 1 }) }))] };
    return new uPlot(opts, columns(series, lastSeq), holder);
  }

  // Draw the charts in `box`; failed: [{ name, text }], the characters whose history failed.
  function draw(box, histories, failed, lastSeq) {
    for (const p of plots) p.destroy();
    plots = [];
    box.replaceChildren();
    const width = Math.max(260, Math.min(900, box.clientWidth || 600));
    for (const fig of FIGURES) {
      const series = seriesOf(histories, fig);
      if (series.length) plots.push(plot(box, fig, series, lastSeq, width));
    }
    if (!plots.length && !failed.length) box.append(el("p", {}, "No HP, MP or LP recorded yet."));
    for (const f of failed) box.append(el("p", { class: "chart-error" }, `${f.name}: ${f.text}`));
    return plots;
  }
  return { draw };
})();
