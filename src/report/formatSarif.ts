import type { LocatedIssue, Severity } from '../core/issue.js';
import { flowRules } from '../flow/rules/index.js';
import { recordCheckCodes } from './issueCodes.js';
import type { Report } from './report.js';
import { issuesOf, type ReportIssues } from './reportIssues.js';
import { capIssues, ciLimits, gzipBudget } from './ciLimits.js';
import { freshMarker, itemText, streamedJson } from './streamedJson.js';

/** What the SARIF log says of one issue code: GitHub code scanning shows it as the rule's help. */
interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  defaultConfiguration: { level: Severity };
  properties: { tags: string[] };
}

const flowRuleByCode = new Map(flowRules.map((rule) => [rule.code, rule]));

/** `invalid-enum` -> `InvalidEnum`: SARIF's rule name is an identifier-like word. */
const ruleName = (code: string) =>
  code.replace(/(^|-)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase());

function ruleFor(code: string, first: LocatedIssue): SarifRule {
  const flow = flowRuleByCode.get(code);
  const short = flow ? flow.catches : (recordCheckCodes[code] ?? first.message);
  const fix = flow ? flow.fix : (first.hint ?? 'see the message of each result');
  const where = flow
    ? `flow rule (${flow.spec}): ${flow.catches}`
    : `record check: ${short}; for example: ${first.message}`;
  return {
    id: code,
    name: ruleName(code),
    shortDescription: { text: short },
    fullDescription: { text: where },
    help: {
      text: `Fix: ${fix}`,
      markdown: `**${code}**: ${short}\n\n**Fix:** ${fix}\n\nRun \`collect rules\` for every flow rule.`,
    },
    defaultConfiguration: { level: flow ? flow.severity : first.severity },
    properties: { tags: [flow ? 'flow-rule' : 'record-check', 'collect'] },
  };
}

/** A file name as a SARIF URI: relative paths stay relative (to the checkout), absolute ones become file: URIs. */
function artifactUri(file: string): string {
  const slashed = file.replace(/\\/g, '/');
  const encoded = encodeURI(slashed).replace(/[?#]/g, encodeURIComponent);
  if (slashed.startsWith('/')) return `file://${encoded}`;
  if (/^[A-Za-z]:\//.test(slashed)) return `file:///${encoded}`;
  return encoded;
}

function result(issue: LocatedIssue, ruleIndex: number) {
  const field = issue.path === '' ? '' : `${issue.path}: `;
  const record = issue.index === null ? '' : ` (record ${issue.index}, ${issue.endpoint})`;
  return {
    ruleId: issue.code,
    ruleIndex,
    level: issue.severity,
    message: { text: cut(`${field}${issue.message}${record}.${issue.hint ? ` Fix: ${issue.hint}` : ''}`) },
    // A problem with the whole file (no line known) points at its first line: code scanning needs a line.
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(issue.file) },
          region: { startLine: issue.line ?? 1 },
        },
      },
    ],
    properties: {
      endpoint: issue.endpoint,
      ...(issue.index === null ? {} : { record: issue.index }),
      ...(issue.path === '' ? {} : { field: issue.path }),
    },
  };
}

/** A result's message past this is cut (a record can quote a long value): every issue is whole in --format json. */
const MESSAGE_CHARS = 1000;
/** The results' indent in the log as written: log > runs > run > results. */
const RESULT_INDENT = ' '.repeat(8);

const cut = (text: string) => (text.length <= MESSAGE_CHARS ? text : `${text.slice(0, MESSAGE_CHARS - 1)}…`);

/**
 * `--format sarif` as it is written, piece by piece: one rule per code (from its first issue), then
 * the results streamed, capped as code scanning takes them (ciLimits.ts): at most 25,000, errors
 * first, every rule and field keeping examples, at most 10 MB gzipped; the log says how many were left out.
 */
export function* sarifChunks(report: Report, issues: ReportIssues): Generator<string> {
  const rules = issues.firstOfCodes.map((first) => ruleFor(first.code, first));
  const indexOf = new Map(rules.map((rule, index) => [rule.id, index]));
  const toResult = (issue: LocatedIssue) => result(issue, indexOf.get(issue.code)!);
  const marker = freshMarker();
  const log = (left: number, shown: number) => ({
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'collect', rules } },
        results: marker,
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: [
              ...(left === 0 ? [] : [leftOutNotification(left, shown)]),
              ...report.notes.map((note) => ({
                level: 'note',
                message: {
                  text: `${note.code}: ${note.message}${note.count === undefined ? '' : ` (${note.count})`}`,
                },
              })),
            ],
          },
        ],
        properties: { summary: report.summary, resultsShown: shown, resultsLeftOut: left },
      },
    ],
  });
  // The rest of the log, as long as it can be (its counts at their widest), counts against the size.
  const frame = JSON.stringify(log(issues.count, issues.count), null, 2).length;
  const capped = capIssues(issues, ciLimits.sarifResults, () => {
    const fits = gzipBudget(ciLimits.sarifGzipBytes, frame);
    return (issue) => fits(`,\n${itemText(toResult(issue), RESULT_INDENT)}`);
  });
  const results = (function* () {
    for (const issue of capped.chosen()) yield toResult(issue);
  })();
  yield* streamedJson(log(capped.left, capped.shown), marker, results);
  yield '\n';
}

function leftOutNotification(left: number, shown: number) {
  return {
    level: 'warning',
    descriptor: { id: 'results-left-out' },
    message: {
      text:
        `${left} results left out: this log holds ${shown}, errors first and examples of every rule ` +
        `and field, as GitHub code scanning takes at most ` +
        `${ciLimits.sarifResults.toLocaleString('en-US')} results per run and ` +
        `${ciLimits.sarifGzipBytes / 1024 / 1024} MB gzipped; --format json lists every issue`,
    },
  };
}

/** `--format sarif`: a SARIF 2.1.0 log, for GitHub code scanning (`github/codeql-action/upload-sarif`). */
export function formatSarif(report: Report): string {
  return [...sarifChunks(report, issuesOf(report.issues))].join('');
}
