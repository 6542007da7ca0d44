/** The HTML report's one style sheet, inline: light and dark, readable printed, nothing loaded. */
export const htmlStyle = `
:root { color-scheme: light dark; --fg: #1d2330; --dim: #667085; --bg: #ffffff; --panel: #f4f6f9; --line: #d9dee7;
  --good: #1f9d55; --fair: #d98a00; --poor: #d64545; --none: #98a2b3; --count: #3b6fd4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --dim: #98a2b3; --bg: #14171c; --panel: \
#1e232b; --line: #333a45; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe \
UI", sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 24px; }
h1 { font-size: 20px; margin: 0 0 12px; word-break: break-all; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 16px 0 6px; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.dim { color: var(--dim); fill: var(--dim); font-weight: normal; }
.verdict { display: inline-block; font-size: 18px; font-weight: 700; padding: 6px 14px; border-radius: 6px; \
color: #fff; margin: 0 0 12px; }
.verdict.pass { background: var(--good); } .verdict.fail { background: var(--poor); } .verdict.warn { \
background: var(--fair); }
.tiles { display: flex; flex-wrap: wrap; gap: 8px; }
.tile { background: var(--panel); border-radius: 6px; padding: 8px 14px; min-width: 92px; border-top: 3px \
solid var(--line); }
.tile .n { font-size: 20px; font-weight: 700; } .tile .label { color: var(--dim); font-size: 12px; }
.tile.good { border-top-color: var(--good); } .tile.fair { border-top-color: var(--fair); } .tile.poor { \
border-top-color: var(--poor); }
details.group { background: var(--panel); border-left: 4px solid var(--fair); border-radius: 4px; margin: \
6px 0; padding: 6px 10px; }
details.group.error { border-left-color: var(--poor); }
details.group summary { cursor: pointer; }
details.group .sev { font-size: 11px; text-transform: uppercase; color: var(--dim); }
details.group .count, #notes .count { float: right; font-weight: 700; }
details.group .endpoint { color: var(--dim); }
.fix { margin: 4px 0; } .examples-title { margin: 4px 0 0; color: var(--dim); } .examples { margin: 2px 0 4px; }
.more, .empty { color: var(--dim); }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { font-size: 12px; color: var(--dim); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
/* File names wrap between their parts (up to a path separator); a part breaks only when wider than the column alone. */
td.file, code.file { word-break: normal; overflow-wrap: anywhere; } .part { display: inline-block; max-width: 100%; }
td.file { min-width: 14em; }
.examples .said { color: var(--fg); } .examples .fix { color: var(--dim); } .said { margin: 4px 0; }
svg.chart { display: block; max-width: 100%; height: auto; font-size: 12px; }
svg.chart text { fill: var(--fg); } svg.chart .value { font-variant-numeric: tabular-nums; }
svg.chart .track { fill: var(--panel); } svg.chart .axis { stroke: var(--line); }
.fill.good, .accepted { fill: var(--good); background: var(--good); }
.fill.fair { fill: var(--fair); } .fill.poor, .rejected { fill: var(--poor); background: var(--poor); }
.fill.none { fill: var(--none); } .fill.count { fill: var(--count); } .unanswered { fill: var(--fair); \
background: var(--fair); }
.legend { color: var(--dim); font-size: 12px; } .legend .key { display: inline-block; width: 10px; height: \
10px; margin: 0 4px 0 10px; }
details.sample { margin-top: 12px; } details.sample summary { cursor: pointer; font-weight: 600; }
tr.error td:first-child { border-left: 3px solid var(--poor); } tr.warning td:first-child { border-left: 3px \
solid var(--fair); }
.retried { fill: var(--count); background: var(--count); }
footer { margin-top: 32px; color: var(--dim); font-size: 12px; }
`;
