import type { LocatedIssue, Severity } from '../core/issue.js';

/** Where one example of a group was found. */
export interface GroupExample {
  file: string;
  line: number | null;
  index: number | null;
  child?: { file: string; line: number };
}

/** Issues of one severity, code, endpoint and field (list positions folded: `payments[].value`), counted. */
export interface IssueGroup {
  severity: Severity;
  code: string;
  endpoint: string;
  field: string;
  count: number;
  /** The first issue's message and fix, as a sample of the group. */
  message: string;
  hint?: string;
  examples: GroupExample[];
}

/** A field path with its list positions folded, so `payments.0.value` and `payments.7.value` group together. */
export function fieldOf(path: string): string {
  return path.replace(/\.\d+(?=\.|$)/g, '[]');
}

/** Groups issues by severity, code, endpoint and field, most frequent first, keeping the first few locations of each. */
export function groupIssues(issues: readonly LocatedIssue[], examples = 3): IssueGroup[] {
  const groups = new Map<string, IssueGroup>();
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    const key = `${issue.severity}\u0000${issue.code}\u0000${issue.endpoint}\u0000${field}`;
    let group = groups.get(key);
    if (!group) {
      group = { severity: issue.severity, code: issue.code, endpoint: issue.endpoint, field, count: 0, message: issue.message, ...(issue.hint ? { hint: issue.hint } : {}), examples: [] };
      groups.set(key, group);
    }
    group.count++;
    if (group.examples.length < examples) {
      group.examples.push({ file: issue.file, line: issue.line, index: issue.index, ...(issue.child ? { child: issue.child } : {}) });
    }
  }
  return [...groups.values()].sort((a, b) => (a.severity === b.severity ? b.count - a.count : a.severity === 'error' ? -1 : 1));
}
