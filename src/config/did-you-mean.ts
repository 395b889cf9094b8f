// "Did you mean …?" for a mistyped name (a command, an option, a config key): the known name closest to
// it, when one is close enough to be what was meant.

/** Edits (insertion, deletion, substitution, swap of two neighbours) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate closest to `typed` (case aside), if it is within a third of its length in edits (at
 * least one, at most three), or if one starts with the other; undefined when none is.
 */
export function closestName(typed: string, candidates: Iterable<string>): string | undefined {
  const lower = typed.toLowerCase();
  let best: { name: string; edits: number } | undefined;
  for (const name of candidates) {
    const candidate = name.toLowerCase();
    if (candidate === lower) return name;
    const edits = distance(lower, candidate);
    const near = edits <= Math.min(3, Math.max(1, Math.floor(candidate.length / 3)));
    const prefix = lower.length >= 3 && (candidate.startsWith(lower) || lower.startsWith(candidate));
    if ((near || prefix) && (!best || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}

/** `; did you mean X?` when a known name is close to `typed`, else nothing. */
export function didYouMean(typed: string, candidates: Iterable<string>): string {
  const name = closestName(typed, candidates);
  return name === undefined ? '' : `; did you mean ${name}?`;
}
