import type * as z from 'zod';
import { warning, type Issue } from '../core/issue.js';
import { closest } from '../core/suggest.js';
import { arrayElement, isFreeForm, objectShape } from './introspect.js';

type AnySchema = z.core.$ZodType;

/** The field names a schema knows, as a tree built once per schema: walking it is the hot path of validation. */
type FieldTree =
  | { kind: 'object'; fields: Map<string, FieldTree>; names: string[] }
  | { kind: 'array'; element: FieldTree }
  | { kind: 'other' };

const OTHER: FieldTree = { kind: 'other' };
const trees = new WeakMap<AnySchema, FieldTree>();

function fieldTree(schema: AnySchema): FieldTree {
  const cached = trees.get(schema);
  if (cached) return cached;
  let tree: FieldTree = OTHER;
  const element = arrayElement(schema);
  const shape = objectShape(schema);
  if (isFreeForm(schema)) tree = OTHER;
  else if (element) tree = { kind: 'array', element: fieldTree(element) };
  else if (shape) {
    const fields = new Map(Object.entries(shape).map(([name, field]) => [name, fieldTree(field)]));
    tree = { kind: 'object', fields, names: [...fields.keys()] };
  }
  trees.set(schema, tree);
  return tree;
}

function walk(tree: FieldTree, value: unknown, path: (string | number)[], out: Issue[]): void {
  if (typeof value !== 'object' || value === null) return;
  if (tree.kind === 'array') {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      walk(tree.element, value[i], path, out);
      path.pop();
    }
    return;
  }
  if (tree.kind !== 'object' || Array.isArray(value)) return;
  // The path grows only on the way down to an object or a list and to a field it does not know: most fields are
  // known leaves, and this walk runs on every record.
  for (const key in value) {
    const field = tree.fields.get(key);
    if (field === undefined) {
      if (Object.hasOwn(value, key)) out.push(unknownField(key, [...path, key].join('.'), tree.names));
    } else if (field.kind !== 'other') {
      const inner = (value as Record<string, unknown>)[key];
      if (typeof inner !== 'object' || inner === null) continue;
      path.push(key);
      walk(field, inner, path, out);
      path.pop();
    }
  }
}

function unknownField(key: string, path: string, names: string[]): Issue {
  const guess = closest(key, names);
  return warning('unknown-field', path, `${key} is not a field the service knows here`, {
    hint: guess ? `did you mean ${guess}?` : 'remove it, or check the spelling against `collect schema`',
  });
}

/** Warns about every field the schema does not know, at any depth (`total_paid_valeu`). */
export function unknownFields(schema: AnySchema, value: unknown): Issue[] {
  const out: Issue[] = [];
  walk(fieldTree(schema), value, [], out);
  return out;
}
