function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The option a typo most likely meant (`Approved` -> `approved`, `total_paid_valeu` -> `total_paid_value`). */
export function closest(input: string, options: readonly string[]): string | undefined {
  const folded = input
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const exact = options.find((option) => option.toLowerCase() === folded);
  if (exact) return exact;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(folded.length / 4)) + 1;
  for (const option of options) {
    const distance = editDistance(folded, option.toLowerCase());
    if (distance < bestDistance) {
      best = option;
      bestDistance = distance;
    }
  }
  return best;
}

/** A value as a short quoted text for messages. */
export function shorten(value: unknown, max = 40): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
