//! The page's stylesheet: static text written here, the only text on the
//! page that is not escaped (it is ours, and holds no bill data).

/// Inline CSS of the page (no `url()`, no `@import`: the page loads nothing).
pub(super) const CSS: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
  color: #1a1a1a; background: #fff; max-width: 1040px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 1.6em; margin: .2em 0; }
h2 { font-size: 1.3em; margin: 1.4em 0 .4em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .3em; }
p { margin: .3em 0; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: .92em; }
.muted { color: #555; }
.note { color: #444; background: #f4f4f4; border-left: 3px solid #999; padding: 3px 8px; margin: .4em 0; }
.summary { display: flex; flex-wrap: wrap; gap: 8px; margin: .6em 0; }
.summary div { border: 1px solid #ccc; border-radius: 4px; padding: 4px 10px; }
.summary b { font-size: 1.2em; }
table { border-collapse: collapse; width: 100%; margin: .4em 0 1em; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: 2px 0; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; border-bottom: 1px solid #999; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.text { overflow-wrap: anywhere; }
td.code { white-space: nowrap; }
tr.sum td { border-top: 1px solid #777; font-weight: 600; }
.tag { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: .85em; font-weight: 600; white-space: nowrap; }
.error { background: #D55E00; color: #fff; }
.warning { background: #E69F00; color: #000; }
.hidden { background: #fff; color: #000; border: 1px dashed #000; }
.failed { background: #D55E00; color: #fff; }
.passed { background: #009E73; color: #fff; }
.cut { color: #555; font-style: italic; white-space: nowrap; }
figure { margin: .6em 0 1em; }
figcaption { font-weight: 600; margin-bottom: 2px; }
svg.chart { display: block; width: 100%; height: auto; max-width: 900px; }
svg.chart text { font-family: inherit; }
section.bill { border-top: 3px solid #333; margin-top: 2em; }
nav ol { columns: 2; font-size: 13px; }
a { color: #0062a0; }
@page { size: A4; margin: 12mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  nav { display: none; }
  section.bill { break-before: page; border-top: none; }
  /* A chart is never cut, and stays with its caption; long tables may
     break between rows, with their header repeated. */
  svg.chart, table.keep, .note { break-inside: avoid; }
  tr { break-inside: avoid; }
  thead { display: table-header-group; }
  h2, h3, caption, figcaption, p.muted { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
"#;
