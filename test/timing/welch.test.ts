// The statistic the timing tests rest on (test/timing/welch.ts): Welch's t, and its trimmed form, on
// samples whose answer is known by hand.
import { describe, expect, it } from 'vitest';
import { compareTimings, median, trimmed, welchT } from './welch.ts';

describe('Welch’s t for the timing tests', () => {
  it('is the difference of the means over its standard error', () => {
    // Means 3 and 4, variances 2.5 and 2.5, five values each: standard error 1.
    expect(welchT([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])).toBeCloseTo(-1, 10);
    expect(welchT([2, 3, 4, 5, 6], [1, 2, 3, 4, 5])).toBeCloseTo(1, 10);
    expect(welchT([1, 2, 3], [1, 2, 3])).toBe(0);
  });

  it('trimmed, compares the trimmed means over the winsorized variances', () => {
    // One value off each end of five: trimmed means 3 and 4; winsorized [2,2,3,4,4] has variance 1,
    // so each squared standard error is 4 × 1 / (3 × 2).
    expect(welchT([1, 2, 3, 4, 5], [2, 3, 4, 5, 6], 0.2)).toBeCloseTo(-1 / Math.sqrt(4 / 3), 10);
    expect(trimmed([5, 1, 4, 2, 3], 0.2)).toEqual([2, 3, 4]);
  });

  it('is not moved by a few outliers on one side, and is by a shift of the whole sample', () => {
    const base = Array.from({ length: 40 }, (_, i) => 5 + (i % 7) * 0.1);
    const withOutliers = base.map((x, i) => (i % 10 === 0 ? x + 200 : x));
    expect(Math.abs(compareTimings(withOutliers, base).t)).toBeLessThan(3);
    expect(Math.abs(welchT(withOutliers, base))).toBeLessThan(3); // untrimmed too: the outliers widen the error
    expect(
      compareTimings(
        base.map((x) => x + 1),
        base,
      ).t,
    ).toBeGreaterThan(3);
  });

  it('reports means and medians of the whole samples', () => {
    const c = compareTimings([1, 2, 3, 4, 100], [1, 2, 3, 4, 5]);
    expect(c.meanA).toBe(22);
    expect(c.medianA).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
