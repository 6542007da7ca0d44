import type { LocatedIssue, Severity } from '../core/issue.js';

/** One example of a group: where it was found, and what it says (its own message and fix). */
export interface GroupExample {
  file: string;
  line: number | null;
  index: number | null;
  child?: { file: string; line: number };
  message: string;
  hint?: string;
}

/** Issues of one severity, code, endpoint and field (list positions folded: `payments[].value`), counted. */
export interface IssueGroup {
  severity: Severity;
  code: string;
  endpoint: string;
  field: string;
  count: number;
  /**
   * The first issue's message and fix: the group's own only where `sameMessage` and `sameHint` say every
   * issue has it.
   */
  message: string;
  hint?: string;
  /** Every issue of the group has the same message (`message`), the same fix (`hint`, or none). */
  sameMessage: boolean;
  sameHint: boolean;
  examples: GroupExample[];
}

/** A field path with its list positions folded, so `payments.0.value` and `payments.7.value` group together. */
export function fieldOf(path: string): string {
  return path.replace(/\.\d+(?=\.|$)/g, '[]');
}

/** An issue's place in the report: issues are shown in ascending order of these (file, record, arrival). */
export type IssueKey = readonly [file: number, index: number, seq: number];

/** The group an issue counts in: its severity, code, endpoint and field. */
export const groupIdOf = (issue: {
  severity: Severity;
  code: string;
  endpoint: string;
  path: string;
}): string => groupId(issue.severity, issue.code, issue.endpoint, fieldOf(issue.path));

/** A group's id from its parts (the field already folded). */
export const groupId = (severity: Severity, code: string, endpoint: string, field: string): string =>
  `${severity}\u0000${code}\u0000${endpoint}\u0000${field}`;

export const compareKeys = (a: IssueKey, b: IssueKey): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

interface Counted {
  group: Omit<IssueGroup, 'message' | 'hint' | 'sameMessage' | 'sameHint'>;
  message: string;
  hint: string | undefined;
  sameMessage: boolean;
  sameHint: boolean;
  /** The key of the group's first issue, and those of its examples (in the same order). */
  first: IssueKey;
  exampleKeys: IssueKey[];
}

const exampleOf = (issue: LocatedIssue): GroupExample => ({
  file: issue.file,
  line: issue.line,
  index: issue.index,
  ...(issue.child ? { child: issue.child } : {}),
  message: issue.message,
  ...(issue.hint ? { hint: issue.hint } : {}),
});

/**
 * Counts issues into groups as they come, in any order: each group keeps its first issue's message,
 * whether every issue shares it, and its first examples by report order (their keys), so the groups
 * are those of the issues sorted.
 */
export class GroupCounter {
  private readonly groups = new Map<string, Counted>();

  constructor(private readonly examples = 3) {}

  add(issue: LocatedIssue, key: IssueKey): void {
    const field = fieldOf(issue.path);
    const id = groupId(issue.severity, issue.code, issue.endpoint, field);
    let counted = this.groups.get(id);
    if (!counted) {
      counted = {
        group: {
          severity: issue.severity,
          code: issue.code,
          endpoint: issue.endpoint,
          field,
          count: 0,
          examples: [],
        },
        message: issue.message,
        hint: issue.hint,
        sameMessage: true,
        sameHint: true,
        first: key,
        exampleKeys: [],
      };
      this.groups.set(id, counted);
    } else {
      if (issue.message !== counted.message) counted.sameMessage = false;
      if (issue.hint !== counted.hint) counted.sameHint = false;
      if (compareKeys(key, counted.first) < 0) {
        counted.first = key;
        counted.message = issue.message;
        counted.hint = issue.hint;
      }
    }
    counted.group.count++;
    const keys = counted.exampleKeys;
    if (keys.length < this.examples || compareKeys(key, keys[keys.length - 1]!) < 0) {
      let at = keys.length;
      while (at > 0 && compareKeys(key, keys[at - 1]!) < 0) at--;
      keys.splice(at, 0, key);
      counted.group.examples.splice(at, 0, exampleOf(issue));
      if (keys.length > this.examples) {
        keys.pop();
        counted.group.examples.pop();
      }
    }
  }

  /** Errors first, then the most frequent; equal counts in the order their first issues come. */
  result(): IssueGroup[] {
    return [...this.groups.values()]
      .sort((a, b) =>
        a.group.severity === b.group.severity
          ? b.group.count - a.group.count || compareKeys(a.first, b.first)
          : a.group.severity === 'error'
            ? -1
            : 1,
      )
      .map(
        ({
          group: { severity, code, endpoint, field, count, examples },
          message,
          hint,
          sameMessage,
          sameHint,
        }) => ({
          severity,
          code,
          endpoint,
          field,
          count,
          message,
          ...(hint ? { hint } : {}),
          sameMessage,
          sameHint,
          examples: examples.map((example) => ({ ...example })),
        }),
      );
  }
}

/**
 * Groups issues by severity, code, endpoint and field, most frequent first, keeping the first few locations
 * of each.
 */
export function groupIssues(issues: readonly LocatedIssue[], examples = 3): IssueGroup[] {
  const counter = new GroupCounter(examples);
  issues.forEach((issue, position) => counter.add(issue, [0, 0, position]));
  return counter.result();
}
