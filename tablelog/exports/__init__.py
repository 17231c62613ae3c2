"""After the session: exports (jsonl, csv), import, and the session report (SPEC: "Exports,
import, the session report").

- :mod:`tablelog.exports.jsonl`: one JSON line per record, and the import that rebuilds the log
  byte for byte from it.
- :mod:`tablelog.exports.changes`: the values each event changed (the csv export).
- :mod:`tablelog.exports.report`: the figures, timeline and totals of a session (a plain model);
  :mod:`tablelog.exports.render` writes it as Markdown or HTML, :mod:`tablelog.exports.charts`
  draws its charts with matplotlib's SVG backend.

Everything streams: memory stays flat in the number of records.
"""
