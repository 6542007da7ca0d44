import type { LocatedIssue } from '../core/issue.js';
import { compareKeys, GroupCounter, type IssueGroup, type IssueKey } from './groupIssues.js';

/** Issues a report keeps in report order for display, however many there are (the pretty report's detail). */
export const SAMPLE_SIZE = 20;

/**
 * Every issue of a report, read in report order as often as a format needs (from memory, or from
 * the run's spill file), with what formats need before the first one: the count, the groups, and
 * the first issue of each code.
 */
export interface ReportIssues extends Iterable<LocatedIssue> {
  readonly count: number;
  /** Counted by severity, code, endpoint and field, as groupIssues counts them. */
  readonly groups: IssueGroup[];
  /** The first issue of each code, codes in the order they first come. */
  readonly firstOfCodes: LocatedIssue[];
  /** The first SAMPLE_SIZE issues. */
  readonly sample: LocatedIssue[];
}

/** The issues of a report held whole in memory. */
export function issuesOf(issues: readonly LocatedIssue[]): ReportIssues {
  const counter = new GroupCounter();
  const firstOfCodes = new Map<string, LocatedIssue>();
  issues.forEach((issue, position) => {
    counter.add(issue, [0, 0, position]);
    if (!firstOfCodes.has(issue.code)) firstOfCodes.set(issue.code, issue);
  });
  return {
    count: issues.length,
    groups: counter.result(),
    firstOfCodes: [...firstOfCodes.values()],
    sample: issues.slice(0, SAMPLE_SIZE),
    [Symbol.iterator]: () => issues[Symbol.iterator](),
  };
}

/** An issue with its place in the report, as a spill keeps it. */
export interface KeyedIssue {
  key: IssueKey;
  issue: LocatedIssue;
}

export const compareKeyed = (a: KeyedIssue, b: KeyedIssue): number => compareKeys(a.key, b.key);

/**
 * Where a report puts its issues past what it keeps in memory: runs of issues, each in report order
 * (issueSpillFile.ts).
 */
export interface IssueSpill {
  /** Keeps one run, already in report order; returns its handle. */
  write(run: Iterable<KeyedIssue>): number;
  /** Reads one run back, in its order. */
  read(run: number): Iterable<KeyedIssue>;
}

/** The runs merged into one sequence in report order (a k-way merge: one issue of each run held at a time). */
export function* mergeRuns(runs: readonly Iterable<KeyedIssue>[]): Generator<KeyedIssue> {
  const heap: { head: KeyedIssue; rest: Iterator<KeyedIssue> }[] = [];
  const less = (i: number, j: number) => compareKeyed(heap[i]!.head, heap[j]!.head) < 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const down = (start: number) => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const run of runs) {
    const rest = run[Symbol.iterator]();
    const first = rest.next();
    if (!first.done) heap.push({ head: first.value, rest });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const top = heap[0]!;
    yield top.head;
    const next = top.rest.next();
    if (next.done) {
      const last = heap.pop()!;
      if (heap.length === 0) return;
      heap[0] = last;
    } else {
      top.head = next.value;
    }
    down(0);
  }
}
