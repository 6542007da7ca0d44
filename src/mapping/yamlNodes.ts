import { isAlias, isMap, isPair, isScalar, isSeq, visit, type Document, type Node, type Pair } from 'yaml';

/**
 * The most values a mapping may expand to through its aliases: a hand-written mapping is far below it, an
 * alias bomb far above.
 */
export const MAX_EXPANDED_NODES = 100_000;

/**
 * How many values the document holds once every alias is expanded (merge keys included), counted
 * without expanding anything: each node's size is worked out once. Stops counting past `limit`.
 * With `aliases: false`, an alias counts as one value: the size as written.
 */
export function expandedSize(doc: Document, limit = MAX_EXPANDED_NODES, aliases = true): number {
  const sizes = new Map<Node, number>();
  const size = (node: unknown): number => {
    if (isPair(node)) return size(node.key) + size(node.value);
    if (!node || typeof node !== 'object') return 1;
    const known = sizes.get(node as Node);
    if (known !== undefined) return known;
    // A node met again while its size is counted refers to itself: endless.
    sizes.set(node as Node, Infinity);
    let total = 1;
    if (isAlias(node)) total = aliases ? size(node.resolve(doc)) : 1;
    else if (isMap(node) || isSeq(node))
      for (const item of node.items as unknown[]) {
        total += size(item);
        if (total > limit) break;
      }
    sizes.set(node as Node, total);
    return total;
  };
  return size(doc.contents);
}

/**
 * The keys written again in the same map (each repeat once): a linear check, where
 * the YAML reader's own `uniqueKeys` compares each key with every earlier one (32 s for 60,000 keys).
 */
export function duplicateKeys(doc: Document): { key: Node; text: string }[] {
  const found: { key: Node; text: string }[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const text = String(pair.key.value);
        if (seen.has(text)) found.push({ key: pair.key, text });
        seen.add(text);
      }
    },
  });
  return found;
}

/** The node an alias stands for (itself when it is none); undefined for an alias with no anchor. */
export function resolveNode(doc: Document, node: Node | null | undefined): Node | null | undefined {
  if (!isAlias(node)) return node;
  return (node.resolve(doc) as Node | undefined) ?? undefined;
}

/**
 * A map's pairs with its merge keys (`<<: *name`, `<<: [*a, *b]`) replaced by the pairs of the
 * maps they name: the map's own keys win, then the earlier merged map's. `bad` gets a merge of no map.
 */
export function mergedPairs(
  doc: Document,
  map: Node,
  bad: (node: Node | null | undefined) => void,
): Pair<Node, Node | null>[] {
  if (!isMap(map)) return [];
  const own = (map.items as Pair<Node, Node | null>[]).filter((pair) => !isMergeKey(pair.key));
  const seen = new Set(own.map((pair) => keyText(pair.key)));
  const merged: Pair<Node, Node | null>[] = [];
  for (const pair of map.items as Pair<Node, Node | null>[]) {
    if (!isMergeKey(pair.key)) continue;
    const value = resolveNode(doc, pair.value);
    const sources = isSeq(value) ? (value.items as Node[]).map((item) => resolveNode(doc, item)) : [value];
    for (const source of sources) {
      if (!isMap(source)) {
        bad(pair.value);
        continue;
      }
      for (const inner of mergedPairs(doc, source, bad)) {
        const key = keyText(inner.key);
        if (seen.has(key)) continue;
        seen.add(key);
        merged.push(inner);
      }
    }
  }
  return [...own, ...merged];
}

function isMergeKey(key: unknown): boolean {
  return isScalar(key) && key.value === '<<';
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : '';
}
