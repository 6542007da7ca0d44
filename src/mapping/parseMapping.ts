import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type Pair,
} from 'yaml';
import { closest } from '../core/suggest.js';
import { readConverters } from './parseConverters.js';
import { readDialect } from './parseDialect.js';
import { duplicateKeys, expandedSize, MAX_EXPANDED_NODES, mergedPairs, resolveNode } from './yamlNodes.js';
import type {
  Condition,
  EntrySpec,
  FieldSource,
  FieldSpec,
  KeyPair,
  ListSpec,
  MappingProblem,
  MappingSpec,
  RowSpec,
} from './mappingSpec.js';

const ENTRY_KEYS = ['endpoint', 'from', 'when', 'zone', 'csv', 'fields', 'lists'];
const LIST_KEYS = ['from', 'key', 'when', 'zone', 'csv', 'fields', 'lists'];
const TOP_KEYS = ['version', 'zone', 'csv', 'anchors', 'records'];
const CONVERTER_KEYS = [
  'datetime',
  'number',
  'values',
  'default',
  'zone',
  'split',
  'match',
  'group',
  'phone',
  'country',
];
const SOURCE_KEYS = ['column', 'value', 'template', 'sum', 'times', 'lookup', ...CONVERTER_KEYS];
const LOOKUP_KEYS = ['from', 'key', 'column', 'csv'];
const CONDITION_KEYS = ['column', 'present', 'in', 'not-in'];

/** Reads a mapping's text (YAML or JSON) into its parts with their lines; mistakes are problems, never throws. */
export function parseMapping(text: string): { spec?: MappingSpec; problems: MappingProblem[] } {
  const lines = new LineCounter();
  // Merge keys are expanded by the reader (yamlNodes.ts), so `<<` stays a plain key here.
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: false, // checked in linear time below (duplicateKeys)
    prettyErrors: false,
    merge: false,
  });
  const problems: MappingProblem[] = [];
  const lineOf = (node: Node | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : 1);
  if (doc.errors.length > 0) {
    for (const failure of doc.errors)
      problems.push({
        line: lines.linePos(failure.pos[0]).line,
        message: failure.message.split('\n')[0]!,
        hint: 'check the indentation and quoting (a value with ": " or "#" needs quotes)',
      });
    return { problems };
  }
  if (expandedSize(doc, MAX_EXPANDED_NODES, false) > MAX_EXPANDED_NODES) {
    problems.push({
      line: 1,
      message:
        `the mapping holds more than ${MAX_EXPANDED_NODES.toLocaleString('en-US')} values, collect's ` +
        `size limit for a mapping, so it was not read`,
      hint: 'a long values: table belongs in a CSV read with lookup: { from: FILE, key: KEY, column: COLUMN }',
    });
    return { problems };
  }
  const duplicates = duplicateKeys(doc);
  if (duplicates.length > 0) {
    for (const { key, text: name } of duplicates)
      problems.push({
        line: lineOf(key),
        message: `the key "${name}" is written twice in the same map`,
        hint: 'keep one of them',
      });
    return { problems };
  }
  if (expandedSize(doc) > MAX_EXPANDED_NODES) {
    problems.push({
      line: 1,
      message:
        `the mapping expands to more than ${MAX_EXPANDED_NODES.toLocaleString('en-US')} values ` +
        `through its aliases, so it was not read`,
      hint:
        'an alias that repeats aliases multiplies them: write the repeated part out, or use fewer ' +
        'levels of aliases',
    });
    return { problems };
  }
  const reader = new Reader(problems, lineOf, doc);
  const root = doc.contents as Node | null;
  if (!isMap(root)) {
    problems.push({
      line: lineOf(root),
      message:
        'a mapping is an object: `version: 1` and `records:`, or the flat {"field.path": "source column"}',
    });
    return { problems };
  }
  const keys = root.items.map((pair) =>
    String((pair.key as Node & { value?: unknown })?.toJSON?.() ?? pair.key),
  );
  if (!keys.includes('records') && !keys.includes('version'))
    return { spec: reader.flat(root.items), problems };
  const spec = reader.full(root.items);
  return problems.length > 0 ? { problems } : { spec, problems };
}

type LineOf = (node: Node | null | undefined) => number;

class Reader {
  constructor(
    private readonly problems: MappingProblem[],
    private readonly lineOf: LineOf,
    private readonly doc: Document,
  ) {}

  /** The node an alias stands for; an alias with no anchor is a problem. */
  private resolve(node: Node | null | undefined): Node | null {
    const resolved = resolveNode(this.doc, node);
    if (resolved === undefined) {
      this.problem(
        node,
        'this alias names no anchor',
        'define it first with &name, then refer to it with *name',
      );
      return null;
    }
    return resolved;
  }

  problem(node: Node | null | undefined, message: string, hint?: string): void {
    this.problems.push({ line: this.lineOf(node), message, ...(hint ? { hint } : {}) });
  }

  /** The pairs of a map node as [key, value node, key node]; unknown keys are problems with a did-you-mean. */
  pairs(node: Node, allowed: readonly string[] | undefined, what: string): [string, Node | null, Node][] {
    node = this.resolve(node) as Node;
    if (!isMap(node)) {
      this.problem(node, `${what} must be an object`);
      return [];
    }
    const merged = mergedPairs(this.doc, node, (bad) =>
      this.problem(bad, '<< merges a map (<<: *name) or a list of maps (<<: [*a, *b])'),
    );
    return merged.flatMap((pair) => {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (allowed && !allowed.includes(key)) {
        const guess = closest(key, allowed);
        this.problem(
          pair.key,
          `unknown key "${key}" in ${what}`,
          guess ? `did you mean "${guess}"?` : `the keys are: ${allowed.join(', ')}`,
        );
        return [];
      }
      return [[key, this.resolve(pair.value), pair.key] as [string, Node | null, Node]];
    });
  }

  string(node: Node | null, what: string): string | undefined {
    node = this.resolve(node);
    if (
      isScalar(node) &&
      (typeof node.value === 'string' || typeof node.value === 'number') &&
      String(node.value) !== ''
    )
      return String(node.value);
    this.problem(node, `${what} must be a text`);
    return undefined;
  }

  private strings(node: Node | null, what: string): string[] | undefined {
    node = this.resolve(node);
    if (isSeq(node))
      return (node.items as Node[])
        .map((item) => this.resolve(item))
        .map((item) => (isScalar(item) ? String(item.value) : ''));
    this.problem(node, `${what} must be a list, e.g. [a, b]`);
    return undefined;
  }

  flat(items: Pair<unknown, unknown>[]): MappingSpec {
    const fields: FieldSpec[] = [];
    for (const pair of items as Pair<Node, Node | null>[]) {
      const target = isScalar(pair.key) ? String(pair.key.value) : '';
      if (target === '<<') continue;
      const column = this.string(pair.value, `the source column of ${target}`);
      if (column !== undefined)
        fields.push({ target, source: { kind: 'column', column }, line: this.lineOf(pair.key) });
    }
    return { zone: 'UTC', entries: [{ fields, lists: [], when: [], line: 1, passKnownColumns: true }] };
  }

  full(items: Pair<unknown, unknown>[]): MappingSpec {
    let zone = 'UTC';
    let csv: MappingSpec['csv'];
    const entries: EntrySpec[] = [];
    for (const { key: keyNode, value: raw } of items as Pair<Node, Node | null>[]) {
      const pair = { key: keyNode, value: this.resolve(raw) };
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (key === 'anchors') continue;
      if (key === 'csv') csv = this.dialect(pair.value);
      else if (key === 'version') {
        if (!isScalar(pair.value) || pair.value.value !== 1) this.problem(pair.value, 'version must be 1');
      } else if (key === 'zone') {
        zone = this.string(pair.value, 'zone') ?? zone;
      } else if (key === 'records') {
        if (!isSeq(pair.value))
          this.problem(pair.value ?? pair.key, 'records must be a list of entries (- endpoint: order ...)');
        else for (const item of pair.value.items as Node[]) entries.push(this.entry(this.resolve(item)!));
      } else {
        const guess = closest(key, TOP_KEYS);
        this.problem(
          pair.key,
          `unknown key "${key}" at the top of the mapping`,
          guess ? `did you mean "${guess}"?` : `the keys are: ${TOP_KEYS.join(', ')}`,
        );
      }
    }
    if (entries.length === 0 && this.problems.length === 0)
      this.problem(
        null,
        'the mapping has no records: entries',
        'add records: with at least one entry (endpoint, from, fields)',
      );
    return { zone, entries, ...(csv ? { csv } : {}) };
  }

  private dialect(node: Node | null) {
    const parts = new Map(
      this.pairs(node as Node, ['delimiter', 'quote', 'encoding'], 'csv').map(([k, v]) => [k, v] as const),
    );
    return readDialect(parts, (at, message, hint) => this.problem(at ?? node, message, hint));
  }

  private entry(node: Node): EntrySpec {
    const entry: EntrySpec = { fields: [], lists: [], when: [], line: this.lineOf(node) };
    for (const [key, value] of this.pairs(node, ENTRY_KEYS, 'a records entry')) {
      if (key === 'endpoint') {
        const endpoint = this.string(value, 'endpoint');
        if (endpoint !== undefined) entry.endpoint = endpoint;
      } else if (key === 'from') {
        const from = this.string(value, 'from');
        if (from !== undefined) entry.from = from;
      } else this.rowPart(entry, key, value);
    }
    if (entry.endpoint === undefined)
      this.problem(
        node,
        'this entry names no endpoint',
        'add endpoint: order (or status, fraud, payment, delivery)',
      );
    return entry;
  }

  private rowPart(row: RowSpec, key: string, value: Node | null): void {
    if (key === 'fields') row.fields = this.fields(value);
    else if (key === 'lists')
      row.lists = this.pairs(value as Node, undefined, 'lists').map(([name, list]) => this.list(name, list));
    else if (key === 'when') row.when = this.conditions(value);
    else if (key === 'csv') row.csv = this.dialect(value);
    else if (key === 'zone') {
      const zone = this.string(value, 'zone');
      if (zone !== undefined) row.zone = zone;
    }
  }

  private list(name: string, node: Node | null): ListSpec {
    const list: ListSpec = {
      name,
      from: '',
      key: { parent: '', child: '' },
      fields: [],
      lists: [],
      when: [],
      line: this.lineOf(node),
    };
    for (const [key, value] of this.pairs(node as Node, LIST_KEYS, `the list ${name}`)) {
      if (key === 'from') list.from = this.string(value, 'from') ?? '';
      else if (key === 'key') list.key = this.keyPair(value, 'parent', 'child') ?? list.key;
      else this.rowPart(list, key, value);
    }
    if (list.from === '' || list.key.parent === '')
      this.problem(node, `the list ${name} needs from: (its file) and key: (the column that joins it)`);
    return list;
  }

  private keyPair(node: Node | null, parent: string, child: string): KeyPair | undefined {
    node = this.resolve(node);
    if (isScalar(node)) {
      const same = this.string(node, 'key');
      return same === undefined ? undefined : { parent: same, child: same };
    }
    const pairs = new Map(this.pairs(node as Node, [parent, child], 'key').map(([k, v]) => [k, v]));
    const a = pairs.get(parent);
    const b = pairs.get(child);
    if (!a || !b) {
      this.problem(node, `key is a column name, or { ${parent}: A, ${child}: B }`);
      return undefined;
    }
    const left = this.string(a, parent);
    const right = this.string(b, child);
    return left !== undefined && right !== undefined ? { parent: left, child: right } : undefined;
  }

  private conditions(node: Node | null): Condition[] {
    const items = isSeq(node) ? (node.items as Node[]).map((item) => this.resolve(item)!) : [node as Node];
    return items.map((item) => {
      const condition: Condition = { column: '', line: this.lineOf(item) };
      for (const [key, value] of this.pairs(item, CONDITION_KEYS, 'a when: condition')) {
        if (key === 'column') condition.column = this.string(value, 'column') ?? '';
        else if (key === 'present') {
          if (isScalar(value) && typeof value.value === 'boolean') condition.present = value.value;
          else this.problem(value, 'present must be true or false');
        } else if (key === 'in') condition.in = this.strings(value, 'in') ?? [];
        else if (key === 'not-in') condition.notIn = this.strings(value, 'not-in') ?? [];
      }
      if (condition.column === '')
        this.problem(
          item,
          'a when: condition names a column',
          'e.g. when: { column: order_status, not-in: [created] }',
        );
      return condition;
    });
  }

  private fields(node: Node | null): FieldSpec[] {
    return this.pairs(node as Node, undefined, 'fields').flatMap(([target, value, keyNode]) => {
      const source = this.source(target, value);
      return source ? [{ target, source, line: this.lineOf(keyNode) }] : [];
    });
  }

  private source(target: string, node: Node | null): FieldSource | undefined {
    node = this.resolve(node);
    if (isScalar(node)) {
      const column = this.string(node, `the source of ${target}`);
      return column === undefined ? undefined : { kind: 'column', column };
    }
    const parts = new Map(
      this.pairs(node as Node, SOURCE_KEYS, `the source of ${target}`).map(([k, v]) => [k, v] as const),
    );
    const kinds = ['column', 'value', 'template', 'sum', 'lookup'].filter((kind) => parts.has(kind));
    if (kinds.length !== 1) {
      this.problem(
        node,
        `the source of ${target} needs exactly one of column, value, template, sum, lookup` +
          `${kinds.length > 1 ? ` (it has ${kinds.join(' and ')})` : ''}`,
      );
      return undefined;
    }
    const kind = kinds[0]!;
    const converters = readConverters(parts, this);
    if (parts.has('times') && kind !== 'sum')
      this.problem(
        parts.get('times'),
        'times goes with sum: { sum: items.unit_price, times: items.quantity }',
      );
    if (kind === 'value') return { kind, value: this.plain(parts.get('value')) };
    if (kind === 'template') {
      const template = this.string(parts.get('template')!, 'template');
      return template === undefined ? undefined : { kind, template };
    }
    if (kind === 'sum') {
      const path = this.string(parts.get('sum')!, 'sum');
      const dot = path?.indexOf('.') ?? -1;
      if (path === undefined || dot <= 0) {
        this.problem(parts.get('sum'), 'sum names a list and its field, e.g. sum: payments.value');
        return undefined;
      }
      const sum = { kind, list: path.slice(0, dot), field: path.slice(dot + 1) } as const;
      if (!parts.has('times')) return sum;
      const times = this.string(parts.get('times')!, 'times');
      if (times === undefined || !times.startsWith(`${sum.list}.`) || times.length <= dot + 1) {
        this.problem(
          parts.get('times'),
          `times names a field of the same list as sum, e.g. times: ${sum.list}.quantity`,
        );
        return undefined;
      }
      return { ...sum, times: times.slice(dot + 1) };
    }
    if (kind === 'lookup') {
      const lookup = new Map(
        this.pairs(parts.get('lookup')!, LOOKUP_KEYS, 'lookup').map(([k, v]) => [k, v] as const),
      );
      const from = lookup.has('from') ? this.string(lookup.get('from')!, 'from') : undefined;
      const column = lookup.has('column') ? this.string(lookup.get('column')!, 'column') : undefined;
      const key = lookup.has('key') ? this.keyPair(lookup.get('key')!, 'this', 'that') : undefined;
      if (from === undefined || column === undefined || key === undefined) {
        this.problem(
          parts.get('lookup'),
          'lookup needs from:, key: and column:',
          'e.g. lookup: { from: products.csv, key: product_id, column: product_category_name }',
        );
        return undefined;
      }
      const csv = lookup.has('csv') ? this.dialect(lookup.get('csv')!) : undefined;
      return { kind, from, key, column, ...converters, ...(csv ? { csv } : {}) };
    }
    const column = this.string(parts.get('column')!, 'column');
    return column === undefined ? undefined : { kind: 'column', column, ...converters };
  }

  /** A constant as plain data, aliases inside it expanded (their total size was checked before reading). */
  plain(node: Node | null | undefined): unknown {
    return node ? ((node.toJS(this.doc, { maxAliasCount: -1 }) as unknown) ?? null) : null;
  }
}
