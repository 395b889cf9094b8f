// The benchmark's summary (bench/harness-summary.ts): what the README's table quotes must be the median
// of the rounds, and each multiple of the bare engine taken within a round, not across rounds.
import { describe, expect, it } from 'vitest';
import { median, summarize, type Round } from '../../bench/harness-summary.ts';

const result = (target: string, rate: number, cpu: number) => ({
  target,
  scenario: 'refresh',
  vus: 16,
  rate_per_s: rate,
  errors: 0,
  server_cpu_ms_per_op: cpu,
});
const round = (engine: [number, number], ours: [number, number]): Round => ({
  results: [result('ref-pg-form', ...engine), result('ours-pg-redis', ...ours)],
});

describe('the benchmark summary', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([undefined, 5])).toBe(5);
    expect(median([])).toBeUndefined();
  });

  it('gives each cell as the median of the rounds, and each multiple as the median of the rounds’ own', () => {
    // A slow second round moves both sides: its multiple is the same as the others'.
    const text = summarize([round([700, 1.0], [600, 1.1]), round([350, 2.0], [300, 2.2]), round([720, 1.0], [650, 1.2])]);
    expect(text).toContain('| refresh | 700/s, 1.00 ms CPU/op | 600/s, 1.20 ms CPU/op |');
    expect(text).toContain('median of 3 rounds');
    expect(text).toContain('ours-pg-redis refresh: 1.10× (1.10–1.20) CPU/op and 86 % (86–90) of the throughput of ref-pg-form');
  });
});
