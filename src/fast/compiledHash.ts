import { hash } from 'node:crypto';
import { contentHash } from '../flow/canonical.js';
import { NO_ROOM, NOT_SHAPED, writeJsonLeaf } from './jsonBytes.js';

/**
 * A field the records of a shape may have: its path, and for each segment but the last whether the next one
 * is an array index.
 */
export interface ShapeField {
  segments: readonly string[];
  indexNext: readonly boolean[];
}

type Node =
  | { kind: 'leaf' }
  | { kind: 'object'; keys: Map<string, Node> }
  | { kind: 'array'; items: Map<number, Node> };

/** Arrays of a shape longer than this are not compiled (the code unrolls each index). */
const MAX_INDEX = 64;
/**
 * Shapes of more fields are not compiled: past a few hundred, the generated code ran slower than contentHash
 * (measured: 500 fields 188 vs 164 µs a record).
 */
export const MAX_FIELDS = 256;
const INDEX = /^(0|[1-9]\d*)$/;
/** A hasher's buffer: room for any usual record. */
const SMALL_BUFFER = 16 * 1024;
/** The largest buffer a hasher grows to: 64 MiB, as a record's JSON may be six times its text. */
const MAX_BUFFER = 64 * 1024 * 1024;

const nodeOf = (kind: Node['kind']): Node =>
  kind === 'leaf' ? { kind } : kind === 'array' ? { kind, items: new Map() } : { kind, keys: new Map() };

/**
 * The tree of a shape's fields; undefined when they conflict (a field inside another, an index that is also a
 * name) or name what objects inherit.
 */
function treeOf(fields: readonly ShapeField[]): Node | undefined {
  const root: Node = { kind: 'object', keys: new Map() };
  for (const { segments, indexNext } of fields) {
    let node: Node = root;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const last = i === segments.length - 1;
      const wanted: Node['kind'] = last ? 'leaf' : indexNext[i] ? 'array' : 'object';
      // A name objects inherit (toString) would read the inherited value for a record without it: every such
      // record would fall back.
      if (segment in Object.prototype || node.kind === 'leaf') return undefined;
      let child: Node | undefined;
      if (node.kind === 'array') {
        if (!INDEX.test(segment) || Number(segment) > MAX_INDEX) return undefined;
        child = node.items.get(Number(segment)) ?? nodeOf(wanted);
        node.items.set(Number(segment), child);
      } else {
        child = node.keys.get(segment) ?? nodeOf(wanted);
        node.keys.set(segment, child);
      }
      if (child.kind !== wanted) return undefined;
      node = child;
    }
  }
  return root;
}

/** Statements writing `bytes` at b[p], after making sure they fit. */
const put = (bytes: Uint8Array | number[]) =>
  `if (p + ${bytes.length} > b.length) return ${NO_ROOM}; ` +
  `${Array.from(bytes, (byte) => `b[p++] = ${byte};`).join(' ')}`;
const OPEN_OBJECT = [123],
  CLOSE_OBJECT = [125],
  OPEN_ARRAY = [91],
  CLOSE_ARRAY = [93],
  COMMA = [44],
  NULL = [110, 117, 108, 108];

/**
 * Statements writing the JSON of `expr` for `node` at b[p]; they return NOT_SHAPED where the value leaves the
 * shape, NO_ROOM where b is full.
 */
function writer(node: Node, expr: string, depth: number): string {
  if (node.kind === 'leaf') return `p = leaf(${expr}, b, p); if (p < 0) return p;`;
  const v = `v${depth}`;
  if (node.kind === 'object') {
    // The keys in canonicalJson's order: sorted by UTF-16 code units.
    const keys = [...node.keys.keys()].sort();
    const lines = [
      `{ const ${v} = ${expr}; if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v}` +
        `)) return ${NOT_SHAPED};`,
    ];
    lines.push(`${put(OPEN_OBJECT)} const s${depth} = p; let e${depth}, n${depth} = 0;`);
    for (const key of keys) {
      lines.push(
        `e${depth} = ${v}[${JSON.stringify(key)}];`,
        `if (e${depth} !== undefined) { n${depth}++; if (p !== s${depth}) { ${put(COMMA)} } ` +
          `${put(Buffer.from(`${JSON.stringify(key)}:`))}`,
        `  ${writer(node.keys.get(key)!, `e${depth}`, depth + 1)} }`,
      );
    }
    // A key the shape does not know: the record is hashed the plain way. (The keys written are own keys: the
    // shape names nothing objects inherit.)
    lines.push(
      `if (Object.keys(${v}).length !== n${depth} && !onlyKnown(${v}, ${JSON.stringify(keys)})) return ${NOT_SHAPED};`,
      `${put(CLOSE_OBJECT)} }`,
    );
    return lines.join('\n');
  }
  const last = Math.max(...node.items.keys());
  const lines = [
    `{ const ${v} = ${expr}; if (!Array.isArray(${v}) || ${v}.length > ${last + 1}) return ` +
      `${NOT_SHAPED}; ${put(OPEN_ARRAY)}`,
  ];
  for (let i = 0; i <= last; i++) {
    const item = node.items.get(i);
    const write = item ? writer(item, `${v}[${i}]`, depth + 1) : `return ${NOT_SHAPED};`;
    lines.push(
      `if (${v}.length > ${i}) { ${i === 0 ? '' : put(COMMA)} if (${v}[${i}] === undefined) { ` +
        `${put(NULL)} } else { ${write} } }`,
    );
  }
  lines.push(`${put(CLOSE_ARRAY)} }`);
  return lines.join('\n');
}

/** Whether every key of `value` that is set is one of `keys`. */
function onlyKnown(value: Record<string, unknown>, keys: readonly string[]): boolean {
  for (const key of Object.keys(value)) if (value[key] !== undefined && !keys.includes(key)) return false;
  return true;
}

/**
 * Compiles the content hash (contentHash) of the records of one shape, such as the records a
 * CSV header builds: the canonical JSON's bytes are written straight into a reused buffer, with
 * the keys' bytes written in, instead of building the text and encoding it. Same hash for the
 * same record; a record that leaves the shape is hashed by contentHash. Undefined for a shape
 * that cannot be compiled, or of more than MAX_FIELDS fields (contentHash is then the hash).
 * Keys enter the code only as JSON string literals and bytes.
 */
export function compileContentHash(
  endpoint: string,
  fields: readonly ShapeField[],
): ((value: Record<string, unknown>) => string) | undefined {
  const tree = fields.length <= MAX_FIELDS ? treeOf(fields) : undefined;
  if (!tree) return undefined;
  const prefix = Buffer.from(`${endpoint}\0`);
  const write = new Function(
    'leaf',
    'onlyKnown',
    `return (r, b, p) => {\n${writer(tree, 'r', 0)}\nreturn p;\n};`,
  )(writeJsonLeaf, onlyKnown) as (value: unknown, b: Uint8Array, p: number) => number;
  const sized = (bytes: number) => {
    const made = new Uint8Array(bytes);
    made.set(prefix);
    return made;
  };
  let buffer = sized(SMALL_BUFFER);
  return (value) => {
    for (;;) {
      const end = write(value, buffer, prefix.length);
      if (end >= 0) {
        const digest = hash('sha1', new Uint8Array(buffer.buffer, 0, end), 'hex');
        // A long record's room is given back: the next ones are of the usual size.
        if (buffer.length > SMALL_BUFFER) buffer = sized(SMALL_BUFFER);
        return digest;
      }
      // Not of the shape, or a record larger than any a reader lets through: hashed the plain way.
      if (end !== NO_ROOM || buffer.length >= MAX_BUFFER) return contentHash(endpoint, value);
      buffer = sized(buffer.length * 4);
    }
  };
}
