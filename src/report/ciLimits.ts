import { deflateRawSync } from 'node:zlib';
import type { LocatedIssue } from '../core/issue.js';
import { groupId, groupIdOf, type IssueGroup } from './groupIssues.js';
import type { ReportIssues } from './reportIssues.js';

/**
 * What CI services take of a report (GitHub's documented limits): past them a SARIF upload is
 * refused and annotations are dropped unseen. Every CI format caps through this module.
 */
export const ciLimits = {
  /** Results GitHub code scanning takes in one SARIF run. */
  sarifResults: 25_000,
  /** Bytes of a SARIF upload, gzipped. */
  sarifGzipBytes: 10 * 1024 * 1024,
  /** Annotations of one kind (error, warning, notice) GitHub shows per step. */
  annotationsPerKind: 10,
  /** Results each group keeps before any group gets more: so every rule and field has examples. */
  examplesPerGroup: 20,
} as const;

/**
 * The groups a report annotates (GitHub shows annotationsPerKind errors and as many warnings per step): the
 * first of each severity, and how many are left.
 */
export function annotatedGroups(groups: readonly IssueGroup[]): { shown: IssueGroup[]; left: number } {
  const per = ciLimits.annotationsPerKind;
  const shown = [
    ...groups.filter((group) => group.severity === 'error').slice(0, per),
    ...groups.filter((group) => group.severity === 'warning').slice(0, per),
  ];
  return { shown, left: groups.length - shown.length };
}

/**
 * How many issues of each group a capped report shows (by group id): first up to
 * `examplesPerGroup` each, errors' groups first; then what is left shared evenly, errors before
 * warnings. The groups come as `ReportIssues.groups` orders them (errors first, most frequent first).
 */
export function shareAmongGroups(
  groups: readonly IssueGroup[],
  limit: number,
  examplesPerGroup: number = ciLimits.examplesPerGroup,
): Map<string, number> {
  const quota = groups.map(() => 0);
  let left = limit;
  groups.forEach((group, i) => {
    const take = Math.min(group.count, examplesPerGroup, left);
    quota[i] = take;
    left -= take;
  });
  for (const severity of ['error', 'warning'] as const) {
    let open = groups.flatMap((group, i) =>
      group.severity === severity && quota[i]! < group.count ? [i] : [],
    );
    while (left > 0 && open.length > 0) {
      const share = Math.max(1, Math.floor(left / open.length));
      for (const i of open) {
        const take = Math.min(groups[i]!.count - quota[i]!, share, left);
        quota[i]! += take;
        left -= take;
      }
      open = open.filter((i) => quota[i]! < groups[i]!.count);
    }
  }
  return new Map(
    groups.map((group, i) => [groupId(group.severity, group.code, group.endpoint, group.field), quota[i]!]),
  );
}

/** The issues within their group's quota, errors first, each severity in report order (two reads of `issues`). */
export function* withinQuotas(
  issues: ReportIssues,
  quotas: ReadonlyMap<string, number>,
): Generator<LocatedIssue> {
  for (const severity of ['error', 'warning'] as const) {
    const taken = new Map<string, number>();
    for (const issue of issues) {
      if (issue.severity !== severity) continue;
      const id = groupIdOf(issue);
      const count = taken.get(id) ?? 0;
      if (count >= (quotas.get(id) ?? 0)) continue;
      taken.set(id, count + 1);
      yield issue;
    }
  }
}

/**
 * At most `limit` issues of a report, errors first, every group keeping examples, and as many as
 * `fits` takes (called with each issue in the order they come; false once they no longer fit, as
 * a size budget says): the limit shrinks until every one chosen fits. Returns how many are chosen
 * and the way to read them.
 */
export function capIssues(
  issues: ReportIssues,
  limit: number,
  fits: () => (issue: LocatedIssue) => boolean = () => () => true,
): { shown: number; left: number; chosen: () => Iterable<LocatedIssue> } {
  const total = issues.groups.reduce((sum, group) => sum + group.count, 0);
  let cap = Math.min(limit, total);
  for (;;) {
    const quotas = shareAmongGroups(issues.groups, cap);
    const fit = fits();
    let taken = 0;
    for (const issue of withinQuotas(issues, quotas)) {
      if (!fit(issue)) break;
      taken++;
    }
    if (taken >= cap)
      return { shown: cap, left: issues.count - cap, chosen: () => withinQuotas(issues, quotas) };
    // Not all fit: share fewer among the groups (a smaller cut keeps every group's first examples).
    cap = Math.min(taken, Math.floor(cap * 0.9));
  }
}

/** Text gathered before it is compressed to measure it. */
const MEASURE_BYTES = 1024 * 1024;
/** The fastest level measures: it compresses less well than the levels uploads use, so it measures more, not less. */
const FAST = { level: 1 };
/** What gzip adds around the deflated text (header, trailer), with room to spare. */
const GZIP_FRAME = 1024;

/**
 * Measures texts as they would be gzipped together, within `budget` bytes: `fits(text)` says
 * whether the text still fits, counting it if so. Texts not compressed yet count whole (deflate
 * never makes a text much longer), so the measure is never below the file's gzipped size.
 */
export function gzipBudget(budget: number, already = 0): (text: string) => boolean {
  let compressed = GZIP_FRAME + already;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  return (text) => {
    const bytes = Buffer.from(text, 'utf8');
    // Deflate's stored blocks add 5 bytes per 64 KiB at worst: counted with a byte per KiB.
    const upper = (raw: number) => raw + Math.ceil(raw / 1024);
    if (compressed + upper(pendingBytes + bytes.length) > budget) {
      if (pendingBytes === 0) return false;
      compressed += deflateRawSync(Buffer.concat(pending), FAST).length;
      pending = [];
      pendingBytes = 0;
      if (compressed + upper(bytes.length) > budget) return false;
    }
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (pendingBytes >= MEASURE_BYTES) {
      compressed += deflateRawSync(Buffer.concat(pending), FAST).length;
      pending = [];
      pendingBytes = 0;
    }
    return true;
  };
}
