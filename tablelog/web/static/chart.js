// The HP / MP / LP chart of the table page (SERVER.md §5): one small chart per figure, so LP (~10)
// does not sit flat under HP (~300), each line stepped (a figure changes at an event and holds
// until the next). Within a figure, a saga table's sides get a chart each, and characters whose
// highest value is more than 3× apart are drawn apart (a 1200-HP enemy does not flatten 320 and
// 210). The legend shows the latest values, and the hovered event's on hover. A character whose
// history could not be read is named under the charts with the reason; the others are drawn.
// The charts follow the window's width (redrawn at most every 150 ms while it is resized). Names
// are DOM text (the legend, the title); uPlot draws its axes on a canvas in the page's font
// stack, CJK fonts included, so Japanese and Korean render everywhere.
"use strict";
window.tl.chart = (() => {
  const { el, t } = window.tl;
  const FONT = '12px system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans CJK JP", "Noto Sans CJK KR", "Yu Gothic", Meiryo, "Malgun Gothic", "Apple SD Gothic Neo", sans-serif';
  const ink = () => getComputedStyle(document.documentElement).getPropertyValue("--fg").trim() || "#1b1f24";
  const grid = () => getComputedStyle(document.documentElement).getPropertyValue("--line").trim() || "#d0d7de";
  const FIGURES = ["hp", "mp", "lp"];
  const PALETTE = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7b83", "#6e7781"];
  const APART = 3;  // maxima more than 3× apart: separate charts
  const sideNames = () => ({ ally: t("web.chart.allies", "allies"), enemy: t("web.chart.enemies", "enemies") });
  let plots = [], holder = null, resizeTimer = null;

  // histories: [{ name, side, trail }], a trail as GET …/history/NAME answers it: [{ seq, changes }].
  function seriesOf(histories, fig) {
    const out = [];
    for (const { name, side, trail } of histories) {
      const points = [];
      for (const e of trail) for (const c of e.changes || []) if (c.field === fig && typeof c.new === "number") points.push([e.seq, c.new]);
      if (points.length) out.push({ label: name, side, points, top: Math.max(...points.map((p) => p[1])) });
    }
    return out;
  }

  // A figure's series in charts: by side, then, highest first, a new chart wherever a series'
  // highest value is under a third of its chart's first. [{ title, series }].
  function groups(series, fig) {
    const sides = [...new Set(series.map((s) => s.side))];
    const out = [];
    for (const side of sides) {
      const chunks = [];
      for (const s of series.filter((x) => x.side === side).sort((a, b) => b.top - a.top)) {
        const last = chunks[chunks.length - 1];
        if (last && s.top * APART >= last[0].top) last.push(s); else chunks.push([s]);
      }
      for (const c of chunks) out.push(c);
    }
    const many = out.length > 1;
    return out.map((c) => {
      const who = [many && sideNames()[c[0].side], many && out.filter((o) => o[0].side === c[0].side).length > 1 && c.map((s) => s.label).join(", ")];
      return { title: [fig.toUpperCase(), ...who.filter(Boolean)].join(" — "), series: c };
    });
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

  // The legend's value: the hovered event's, else (no cursor) the latest.
  const legendValue = (u, v, si, idx) => {
    const col = u.data[si];
    return idx === null || idx === undefined ? (si === 0 ? t("web.chart.latest", "{seq} (latest)", { seq: col[col.length - 1] }) : col[col.length - 1] ?? "–") : (v ?? "–");
  };

  function plot(box, fig, group, lastSeq, width) {
    const div = el("div", { class: "chart", "data-figure": fig });
    box.append(div);
    const opts = { title: group.title, width, height: 170, scales: { x: { time: false } },
      axes: [{ label: t("web.chart.x", "event #"), font: FONT, labelFont: FONT, stroke: ink(), grid: { stroke: grid() }, ticks: { stroke: grid() } },
        { font: FONT, labelFont: FONT, stroke: ink(), grid: { stroke: grid() }, ticks: { stroke: grid() } }],
      series: [{ label: "#", value: legendValue }, ...group.series.map((s, i) => ({ label: s.label, stroke: PALETTE[i % PALETTE.length],
        width: 2, spanGaps: true, value: legendValue, paths: uPlot.paths.stepped({ align: 1 }) }))] };
    return new uPlot(opts, columns(group.series, lastSeq), div);
  }

  const widthOf = (box) => Math.max(260, Math.min(900, box.clientWidth || 600));

  // Draw the charts in `box`; failed: [{ name, text }], the characters whose history failed.
  function draw(box, histories, failed, lastSeq) {
    for (const p of plots) p.destroy();
    plots = [];
    holder = box;
    box.replaceChildren();
    const width = widthOf(box);
    for (const fig of FIGURES) for (const g of groups(seriesOf(histories, fig), fig)) plots.push(plot(box, fig, g, lastSeq, width));
    if (!plots.length && !failed.length) box.append(el("p", {}, t("web.chart.none", "No HP, MP or LP recorded yet.")));
    for (const f of failed) box.append(el("p", { class: "chart-error" }, `${f.name}: ${f.text}`));
    return plots;
  }

  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (!holder) return;
      const width = widthOf(holder);
      for (const p of plots) if (p.width !== width) p.setSize({ width, height: p.height });
    }, 150);
  });
  return { draw };
})();
