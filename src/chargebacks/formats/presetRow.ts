import { error, warning, type Issue } from '../../core/issue.js';
import { chargebackResource, chargebackSchema, type ChargebackRow } from '../chargebackRow.js';
import { mangledIds, type WrittenKey } from '../mangledId.js';
import { typeKey } from './foldText.js';
import type { Zone } from 'luxon';
import { reportDate } from './reportDate.js';
import { reportZone } from './reportZone.js';
import type { Item } from './presetItems.js';
import type { FieldSource, Kind, Preset, RowClass, TypeRule } from './presetSpec.js';
import { currencyCode, currencyExponent, fromMinorUnits, networkName } from './reportValues.js';

/** A row as a preset read it: its class (A.0.4), its fields when it could be read, and what reading found. */
export interface PresetRow {
  rowClass: 'chargeback' | 'fraud-notice' | 'not-chargeback' | 'invalid';
  kind?: Kind;
  row?: ChargebackRow;
  issues: Issue[];
}

/** The keys A.0.6 checks for damage. */
export const keyFields = [
  'acquirer_id',
  'order_id',
  'arn',
  'authorization_code',
  'nsu',
  'terminal_id',
  'card_last_four',
] as const;

const text = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return undefined;
};

/** The row's type by the preset's `types:` rule, or the value it does not know. */
function classOf(item: Item, rule: TypeRule | undefined): RowClass | { unknown: string } {
  if (item.unknownType !== undefined) return { unknown: item.unknownType };
  if (!rule) return 'chargeback';
  if (rule.always) return rule.always;
  const value = rule.columns.map((c) => text(item.get(c))).find((v) => v !== undefined);
  if (value !== undefined) {
    const known = rule.values.get(typeKey(value));
    if (known) return known;
    const lower = value.toLowerCase();
    const word = rule.words.find(([w]) => lower.includes(w));
    return word ? word[1] : { unknown: value };
  }
  const filled = rule.empty.find(([column]) => text(item.get(column)) !== undefined);
  if (filled) return filled[1];
  return rule.otherwise ?? { unknown: '' };
}

/** A field's first filled column, converted (value map, a word, last four digits, Unix seconds). */
function readSource(item: Item, source: FieldSource): { value: string; column: string } | undefined {
  for (const column of source.columns) {
    let value = text(item.get(column));
    if (value === undefined) continue;
    if (source.values) value = source.values.get(typeKey(value)) ?? value;
    if (source.word === 'first') value = value.split(/\s+/)[0]!;
    if (source.word === 'rest') value = value.split(/\s+/).slice(1).join(' ') || undefined;
    if (source.lastFour && value !== undefined) value = /(\d{4})$/.exec(value)?.[1];
    if (source.unixSeconds && /^\d+$/.test(value ?? ''))
      value = new Date(Number(value) * 1000).toISOString().replace('.000Z', 'Z');
    if (value !== undefined && value !== '') return { value, column };
  }
  return source.value === undefined ? undefined : { value: String(source.value), column: '' };
}

/** The zone a date's companion column names (Adyen's `Dispute Date TimeZone`), or the name it does not know. */
function zoneOf(item: Item, source: FieldSource, column: string): { zone?: Zone; unknown?: string } {
  const zones = source.zoneColumns ?? [];
  const zoneColumn = zones.length === 1 ? zones[0] : zones[source.columns.indexOf(column)];
  const written = zoneColumn === undefined ? undefined : text(item.get(zoneColumn));
  if (written === undefined) return {};
  const zone = reportZone(written);
  return zone === undefined ? { unknown: written } : { zone };
}

/** An amount as written: a number, its sign dropped (the report's bookkeeping direction, A.0.5). */
function amountOf(written: string): number | undefined {
  const cleaned = written.replace(/\s/g, '');
  return /^[+-]?\d+(\.\d+)?$/.test(cleaned) ? Math.abs(Number(cleaned)) : undefined;
}

/** Builds a row from an item under its preset: class, fields, damaged ids, the row schema's own checks. */
export function presetRow(item: Item, preset: Preset): PresetRow {
  const rowClass = classOf(item, preset.types);
  if (typeof rowClass === 'object') {
    const known = preset.types
      ? [...preset.types.values.keys()].join(', ')
      : preset.firstCell?.rows.join(', ');
    return {
      rowClass: 'invalid',
      issues: [
        error('unknown-row-type', 'type', `row type "${rowClass.unknown}" is none ${preset.name} knows`, {
          value: rowClass.unknown,
          hint: `the known types (folded): ${known ?? ''}; read this file with --map if it holds other rows`,
        }),
      ],
    };
  }
  const fields: Record<string, string> = {};
  const columns: Record<string, string> = {};
  const keys: WrittenKey[] = [];
  for (const [field, source] of preset.fields) {
    const read = readSource(item, source);
    if (read) [fields[field], columns[field]] = [read.value, read.column];
    if ((keyFields as readonly string[]).includes(field))
      for (const column of source.columns) {
        const value = text(item.get(column));
        if (value !== undefined) keys.push({ field, column, value, csv: item.csv });
      }
  }
  const issues: Issue[] = [];
  const row: Record<string, unknown> = { ...fields };
  for (const [field, source] of preset.fields) {
    const written = fields[field];
    if (source.date === undefined || written === undefined) continue;
    const zone = zoneOf(item, source, columns[field]!);
    if (zone.unknown !== undefined)
      issues.push(
        warning(
          'invalid-date',
          field,
          `${field}: zone "${zone.unknown}" is none collect knows: kept as local time`,
        ),
      );
    const date = reportDate(written, source.date, zone.zone);
    if (date !== undefined) row[field] = date;
    else
      issues.push(
        warning(
          'invalid-date',
          field,
          `${field} "${written}" does not fit ${source.date.join(' or ')}: kept as written`,
        ),
      );
  }
  if (fields.network !== undefined) row.network = networkName(fields.network);
  if (fields.currency !== undefined) {
    row.currency = currencyCode(fields.currency);
    if (!/^[A-Z]{3}$/.test(row.currency as string)) {
      row.currency = fields.currency;
      issues.push(
        warning('unknown-currency', 'currency', `currency "${fields.currency}" is not an ISO 4217 code`),
      );
    }
  }
  for (const field of ['amount', 'sale_amount']) {
    const written = fields[field];
    if (written === undefined) continue;
    const amount = amountOf(written);
    const minor = preset.fields.get(field)?.minorUnits;
    if (amount === undefined)
      issues.push(warning('invalid-number', field, `${field} "${written}" is not a number: left out`));
    else
      row[field] =
        minor === undefined
          ? amount
          : fromMinorUnits(
              amount,
              minor === 'currency' ? currencyExponent(row.currency as string | undefined) : minor,
            );
    if (amount === undefined) delete row[field];
  }
  if (rowClass !== 'chargeback' && rowClass !== 'fraud-notice') {
    const parsed = chargebackSchema.safeParse(row);
    return {
      rowClass: 'not-chargeback',
      kind: rowClass,
      ...(parsed.success ? { row: parsed.data } : {}),
      issues,
    };
  }
  const widths = new Map(
    [...preset.fields].flatMap(([f, s]) => (s.width === undefined ? [] : [[f, s.width] as const])),
  );
  issues.push(...mangledIds(keys, row.network as string | undefined, widths));
  const parsed = chargebackSchema.safeParse(row);
  if (!parsed.success)
    issues.push(
      ...parsed.error.issues.map((i) =>
        error('invalid-value', i.path.join('.'), `${i.path.join('.')}: ${i.message}`),
      ),
    );
  else issues.push(...chargebackResource.checks(parsed.data, {} as never));
  const invalid = !parsed.success || issues.some((i) => i.severity === 'error');
  return {
    rowClass: invalid && rowClass === 'chargeback' ? 'invalid' : rowClass,
    ...(parsed.success ? { row: parsed.data } : {}),
    issues,
  };
}
