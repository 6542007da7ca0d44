import { shorten } from '../core/suggest.js';
import type { GroupExample, IssueGroup } from './groupIssues.js';
import { cell, count, escapeHtml as esc, shortText } from './html.js';
import type { ReportIssues } from './reportIssues.js';
import { ruleText } from './ruleText.js';

// Every text from input or the network (files, fields, messages, values) goes through esc().

/** Groups shown: past them the page sums up the rest in a line, so its size stays bounded. */
export const GROUPS_SHOWN = 200;

/**
 * A file name that wraps after a path separator: each part up to one is a block of its own (a
 * line breaks between them, inside one only when it is wider than the line alone).
 */
export const wrappablePath = (file: string): string =>
  file
    .split(/(?<=[/\\])/)
    .map((part) => `<span class="part">${esc(part)}</span>`)
    .join('<wbr>');

function where(example: GroupExample): string {
  const line = example.line === null ? '' : `:${example.line}`;
  const record = example.index === null ? 'the file' : `record ${example.index}`;
  const child = example.child ? ` (from ${example.child.file}:${example.child.line})` : '';
  return (
    `<span class="where"><code class="file">${wrappablePath(example.file + line)}</code> ` +
    `${esc(record + child)}</span>`
  );
}

const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

/**
 * A group says what is true of all its issues: its rule's words, its field and count, the
 * message and fix only when every issue has them; each example below with what it says itself.
 */
function groupHtml(group: IssueGroup): string {
  const field = group.field === '' ? '(the record)' : group.field;
  const rule = ruleText(group.code);
  const what = rule
    ? rule.catches
    : group.sameMessage
      ? group.message
      : 'each example below says what it found';
  const text =
    `${plural(group.count, 'issue')} of <code>${esc(group.code)}</code> on <code>` +
    `${esc(shortText(field, 120))}</code> ` +
    `(${esc(group.endpoint)}): ${esc(shortText(what, 400))}`;
  const said =
    group.sameMessage && rule
      ? `<p class="said">${group.count === 1 ? 'It says' : 'Each says'}: ${esc(shortText(group.message, 400))}</p>`
      : '';
  const fix = group.sameHint ? group.hint : rule?.fix;
  const ownWords = !group.sameMessage;
  const ownFix = !group.sameHint;
  const example = (e: GroupExample) =>
    `<li>${where(e)}` +
    (ownWords ? `<div class="said">${esc(shortText(e.message, 300))}</div>` : '') +
    (ownFix && e.hint ? `<div class="fix">Fix: ${esc(shortText(e.hint, 300))}</div>` : '') +
    '</li>';
  const shown = group.examples.length;
  const title =
    group.count === shown
      ? shown === 1
        ? 'Where:'
        : `All ${count(shown)}:`
      : `The first ${count(shown)} of ${count(group.count)}:`;
  return (
    `<details class="group ${group.severity}"><summary>` +
    `<span class="sev">${group.severity}</span> <code class="code">${esc(group.code)}</code> ` +
    `<span class="endpoint">${esc(group.endpoint)}</span> <code class="field">${esc(shortText(field, 120))}</code> ` +
    `<span class="count">${count(group.count)}</span></summary>` +
    `<p class="message">${text}</p>${said}` +
    (fix ? `<p class="fix"><b>Fix:</b> ${esc(shortText(fix, 400))}</p>` : '') +
    `<p class="examples-title">${title}</p>` +
    `<ul class="examples">${group.examples.map(example).join('')}</ul></details>`
  );
}

/** The first issues one by one, with the value each got: what a person reads to see what the data looks like. */
function sampleTable(issues: ReportIssues): string {
  const rows = issues.sample.map((issue) => {
    const line = issue.line === null ? '' : `:${issue.line}`;
    const got =
      issue.value === undefined
        ? ''
        : typeof issue.value === 'string'
          ? shortText(issue.value, 80)
          : shorten(issue.value, 80);
    return (
      `<tr class="${issue.severity}"><td class="file">` +
      `${wrappablePath(shortText(issue.file, 120) + line)}</td>` +
      `${cell(shortText(issue.path, 80), 'field')}` +
      `${cell(issue.code)}<td><code class="value">${esc(got)}</code></td>${cell(shortText(issue.message, 300))}</tr>`
    );
  });
  return (
    `<details class="sample"${issues.count > 0 ? ' open' : ''}><summary>The first ` +
    `${count(issues.sample.length)} issues, one by one</summary>` +
    `<table><thead><tr><th>where</th><th>field</th><th>rule</th><th>got</th><th>message</th></tr>` +
    `</thead><tbody>${rows.join('')}</tbody></table></details>`
  );
}

/** The HTML report's issues: by group (rule and field), then the first ones one by one. */
export function issuesSection(issues: ReportIssues): string {
  if (issues.count === 0)
    return `<section id="issues"><h2>Issues</h2><p class="empty">No issues.</p></section>`;
  const groups = issues.groups.slice(0, GROUPS_SHOWN).map(groupHtml).join('');
  const rest = issues.groups.slice(GROUPS_SHOWN);
  const more =
    rest.length > 0
      ? `<p class="more">… and ${count(rest.length)} more groups (` +
        `${count(rest.reduce((sum, g) => sum + g.count, 0))} issues): --format json lists them ` +
        `all.</p>`
      : '';
  return (
    `<section id="issues"><h2>Issues by rule and field</h2>` +
    `<p>${count(issues.count)} issues in ${count(issues.groups.length)} groups (by severity, rule, ` +
    `endpoint and field); open one for its fix and first examples.</p>` +
    `${groups}${more}${sampleTable(issues)}</section>`
  );
}
