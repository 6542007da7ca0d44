import type { Readable } from 'node:stream';
import { inputFormats } from '../decode/inputFormats.js';
import { checkReadable, openInput, type InputSpec } from '../decode/openInput.js';
import { MAX_ID_LENGTH } from '../schema/formats.js';

/** The decisions the service gives (docs/payloads.md, "Responses the service gives"). */
export const decisionValues = ['approve', 'reject', 'manual', 'unavailable'] as const;

/** One row of a decisions file: a decision to load, or why the row cannot be. */
export type DecisionRow =
  | { file: string; line: number; orderId: string; decision: string }
  | { file: string; line: number; problem: string };

/** The decision of a row: the `decision` field, or the one field whose name ends in `decision` (`legiti_decision`). */
function decisionOf(row: Record<string, unknown>): unknown {
  if ('decision' in row) return row.decision;
  const named = Object.keys(row).filter((key) => key.toLowerCase().endsWith('decision'));
  return named.length === 1 ? row[named[0]!] : undefined;
}

/** A value quoted in a problem: escaped (no terminal control sequence gets through) and cut short. */
const quoted = (value: unknown) => {
  const text = JSON.stringify(String(value));
  return text.length > 42 ? `${text.slice(0, 40)}…"` : text;
};

function judge(file: string, line: number, row: unknown): DecisionRow {
  if (typeof row !== 'object' || row === null || Array.isArray(row))
    return { file, line, problem: 'not an object with order_id and decision' };
  const record = row as Record<string, unknown>;
  const orderId =
    typeof record.order_id === 'string'
      ? record.order_id.trim()
      : typeof record.order_id === 'number'
        ? String(record.order_id)
        : '';
  if (orderId === '') return { file, line, problem: 'order_id is missing or empty' };
  if (orderId.length > MAX_ID_LENGTH)
    return {
      file,
      line,
      problem:
        `order_id is ${orderId.length.toLocaleString('en-US')} characters long; an id has at most ` +
        `${MAX_ID_LENGTH} (too-long)`,
    };
  const raw = decisionOf(record);
  const decision = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (!(decisionValues as readonly string[]).includes(decision)) {
    return {
      file,
      line,
      problem:
        `decision ` +
        `${raw === undefined ? 'is missing' : `${quoted(raw)} is not one of ${decisionValues.join(', ')}`}`,
    };
  }
  return { file, line, orderId, decision };
}

/** The rows of a decisions file (of a format whose entry says `decisions`; .gz allowed), judged one by one. */
export async function* readDecisionRows(spec: InputSpec, stdin: Readable): AsyncGenerator<DecisionRow> {
  await checkReadable(spec);
  const reader = await inputFormats[spec.format].load();
  // A file named .json is read line by line, as NDJSON: one object a line.
  const objects = reader.objects ?? (await inputFormats.ndjson.load()).objects!;
  for await (const row of objects(spec, openInput(spec, stdin)))
    yield 'problem' in row
      ? { file: spec.name, line: row.line, problem: row.problem }
      : judge(spec.name, row.line, row.value);
}
