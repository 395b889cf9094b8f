// The statistics of the timing tests: Welch's t between two samples of response times, made robust by
// trimming the same share off both ends of both samples (Yuen's form of Welch's test: the means of the
// trimmed samples, and the variances of the samples winsorized, their trimmed values replaced by the
// nearest kept one, so that the error of a trimmed mean is not understated). The timing tests run on a
// busy machine beside other tests: a few samples land behind a garbage collection or another process's
// burst, and a handful of such outliers on one side would decide a plain mean. Trimming both samples
// alike keeps the comparison symmetric: a difference between the two kinds of request shifts the whole
// distribution, which trimming keeps; a difference that lives only in rare outliers is noise.
// With nothing trimmed, this is Welch's t itself.

export function mean(xs: readonly number[]): number {
  return xs.reduce((sum, x) => sum + x, 0) / xs.length;
}

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The unbiased sample variance. */
export function variance(xs: readonly number[]): number {
  const m = mean(xs);
  return xs.reduce((sum, x) => sum + (x - m) ** 2, 0) / (xs.length - 1);
}

/** `xs` sorted, without its `share` fastest and `share` slowest values (0.2: a fifth off each end). */
export function trimmed(xs: readonly number[], share: number): number[] {
  const cut = Math.floor(xs.length * share);
  return [...xs].sort((a, b) => a - b).slice(cut, xs.length - cut);
}

/** The trimmed mean of `xs` and the squared standard error of it, `share` cut off each end. */
function trimmedEstimate(xs: readonly number[], share: number): { mean: number; se2: number } {
  const n = xs.length;
  const cut = Math.floor(n * share);
  const kept = n - 2 * cut;
  if (kept < 2) throw new Error('too few values left after trimming');
  const sorted = [...xs].sort((a, b) => a - b);
  const winsorized = sorted.map((_, i) => sorted[Math.min(Math.max(i, cut), n - 1 - cut)]);
  return { mean: mean(trimmed(xs, share)), se2: ((n - 1) * variance(winsorized)) / (kept * (kept - 1)) };
}

/** Welch's t of `a` against `b` (positive when `a` is slower), `share` trimmed off each end of each. */
export function welchT(a: readonly number[], b: readonly number[], share = 0): number {
  const x = trimmedEstimate(a, share);
  const y = trimmedEstimate(b, share);
  const diff = x.mean - y.mean;
  const se = Math.sqrt(x.se2 + y.se2);
  if (se === 0) return diff === 0 ? 0 : Math.sign(diff) * Infinity;
  return diff / se;
}

export interface TimingComparison {
  /** Means and medians of the whole samples, in milliseconds. */
  meanA: number;
  meanB: number;
  medianA: number;
  medianB: number;
  /** Welch's t of the trimmed samples: positive when `a` is slower. */
  t: number;
  /** The share trimmed off each end of each sample. */
  trim: number;
  n: number;
}

export function compareTimings(a: readonly number[], b: readonly number[], trim = 0.2): TimingComparison {
  return {
    meanA: mean(a),
    meanB: mean(b),
    medianA: median(a),
    medianB: median(b),
    t: welchT(a, b, trim),
    trim,
    n: Math.min(a.length, b.length),
  };
}

/** One line for the test's output: the figures a reader checks against the threshold. */
export function describeComparison(name: string, labels: [string, string], c: TimingComparison): string {
  const ms = (x: number) => x.toFixed(2);
  return (
    `${name}: ${labels[0]} mean ${ms(c.meanA)} ms (median ${ms(c.medianA)}), ${labels[1]} mean ${ms(c.meanB)} ms ` +
    `(median ${ms(c.medianB)}), Welch t ${c.t.toFixed(2)} (${c.n} + ${c.n}, ${Math.round(c.trim * 100)} % trimmed off each end)`
  );
}
