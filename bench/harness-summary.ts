// The figures the README's benchmark section quotes, read off the harness's JSON of one or more rounds:
// per scenario and target, operations per second and the server's CPU per operation; the token step's
// p99 during the sign-in burst; the peak memory; and each of the service's figures as a multiple of the
// bare engine's. With several rounds, each cell is the median of the rounds, and each multiple the
// median of the multiples of each round (both sides measured minutes apart, not across rounds), with
// the lowest and highest beside it: on a shared machine one round can move by a fifth.

interface Result {
  target: string;
  scenario: string;
  vus: number;
  rate_per_s: number;
  errors: number;
  server_cpu_ms_per_op?: number;
  server_rss_peak_mb?: number;
  steps_ms?: Record<string, { p99?: number }>;
}

export interface Round {
  results: Result[];
}

const SCENARIOS = ['flow', 'token', 'refresh', 'userinfo', 'revoke'];
const fmt = (n: number | undefined, digits = 2) => (n === undefined ? '-' : n >= 100 ? String(Math.round(n)) : n.toFixed(digits));

/** The median of the defined values, or undefined when there are none. */
export function median(values: (number | undefined)[]): number | undefined {
  const sorted = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(rounds: Round[]): string {
  const all = rounds.flatMap((round) => round.results);
  const targets = [...new Set(all.map((r) => r.target))];
  const find = (round: Round, target: string, scenario: string) =>
    round.results.find((r) => r.target === target && r.scenario === scenario);
  const each = (target: string, scenario: string) =>
    rounds.map((round) => find(round, target, scenario)).filter((r): r is Result => r !== undefined);
  const lines = [`| scenario | ${targets.join(' | ')} |`, `|---|${targets.map(() => '---').join('|')}|`];
  for (const scenario of SCENARIOS) {
    const cells = targets.map((target) => {
      const results = each(target, scenario);
      if (results.length === 0) return '-';
      const errors = results.reduce((sum, r) => sum + r.errors, 0);
      const rate = median(results.map((r) => r.rate_per_s));
      const cpu = median(results.map((r) => r.server_cpu_ms_per_op));
      return `${fmt(rate, 1)}/s, ${fmt(cpu)} ms CPU/op${errors ? `, ${errors} errors` : ''}`;
    });
    lines.push(`| ${scenario} | ${cells.join(' | ')} |`);
  }
  lines.push(
    `| token p99 during the sign-in burst | ${targets.map((t) => `${fmt(median(each(t, 'flow').map((r) => r.steps_ms?.token?.p99)), 1)} ms`).join(' | ')} |`,
  );
  lines.push(
    `| peak resident memory | ${targets.map((t) => `${fmt(Math.max(...all.filter((r) => r.target === t).map((r) => r.server_rss_peak_mb ?? 0)), 0)} MB`).join(' | ')} |`,
  );

  // The service's CPU per operation and throughput as multiples of each bare engine's, round by round.
  const engines = targets.filter((t) => !t.startsWith('ours'));
  const ours = targets.filter((t) => t.startsWith('ours'));
  const ratios: string[] = [];
  const spread = (values: number[], digits: number, unit: string) => {
    const mid = median(values);
    if (mid === undefined) return undefined;
    const range = values.length > 1 ? ` (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})` : '';
    return `${mid.toFixed(digits)}${unit}${range}`;
  };
  for (const mine of ours) {
    for (const scenario of SCENARIOS) {
      const against = engines.map((engine) => {
        const cpu: number[] = [];
        const rate: number[] = [];
        for (const round of rounds) {
          const a = find(round, mine, scenario);
          const b = find(round, engine, scenario);
          if (a?.server_cpu_ms_per_op !== undefined && b?.server_cpu_ms_per_op) cpu.push(a.server_cpu_ms_per_op / b.server_cpu_ms_per_op);
          if (a && b?.rate_per_s) rate.push((100 * a.rate_per_s) / b.rate_per_s);
        }
        const c = spread(cpu, 2, '×');
        return c && `${c} CPU/op and ${spread(rate, 0, ' %')} of the throughput of ${engine}`;
      });
      const found = against.filter(Boolean);
      if (found.length > 0) ratios.push(`${mine} ${scenario}: ${found.join('; ')}`);
    }
  }
  const title =
    rounds.length > 1 ? `Against the bare engine (median of ${rounds.length} rounds, lowest–highest):` : 'Against the bare engine:';
  return ['', lines.join('\n'), '', title, ...ratios].join('\n');
}
