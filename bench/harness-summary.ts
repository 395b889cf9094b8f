// The figures the benchmark's table quotes, read off the harness's JSON of one or more rounds: per scenario
// and target, operations per second and the server's CPU per operation; the token step's p99 during the
// sign-in burst; the peak memory; and each of the service's figures as a multiple of every other column's.
// With several rounds, each cell is the median of the rounds, and each multiple the median of the multiples
// of each round (both sides measured minutes apart, not across rounds), with the lowest and highest beside
// it: on a shared machine one round can move by a fifth. `runFigures` computes them once; `summarize`
// prints them, and bench/against-engine.ts keeps them as data (bench/results/).

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

export const SCENARIOS = ['flow', 'token', 'refresh', 'userinfo', 'revoke'];
const fmt = (n: number | undefined, digits = 2) => (n === undefined ? '-' : n >= 100 ? String(Math.round(n)) : n.toFixed(digits));

/** The median of the defined values, or undefined when there are none. */
export function median(values: (number | undefined)[]): number | undefined {
  const sorted = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of the defined values with the lowest and highest of them. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  count: number;
}

export function spreadOf(values: (number | undefined)[]): Spread | undefined {
  const defined = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  const mid = median(defined);
  if (mid === undefined) return undefined;
  return { median: mid, min: Math.min(...defined), max: Math.max(...defined), count: defined.length };
}

/** One cell: a target's figures in one scenario, each round's in order (undefined where a round lacks it). */
export interface Cell {
  rates: (number | undefined)[];
  cpus: (number | undefined)[];
  tokenP99s: (number | undefined)[];
  errors: number;
}

export interface RunFigures {
  targets: string[];
  /** `cells[scenario][target]`, for the targets that ran the scenario. */
  cells: Record<string, Record<string, Cell>>;
  /** The highest resident memory a target reached, in MB (0 when the harness gave none). */
  peakMb: Record<string, number>;
  /** `multiples[service column][scenario][other column]`: CPU per operation and throughput (%), round by round. */
  multiples: Record<string, Record<string, Record<string, { cpu: number[]; throughputPct: number[] }>>>;
}

export function runFigures(rounds: Round[]): RunFigures {
  const all = rounds.flatMap((round) => round.results);
  const targets = [...new Set(all.map((r) => r.target))];
  const find = (round: Round, target: string, scenario: string) =>
    round.results.find((r) => r.target === target && r.scenario === scenario);
  const cells: RunFigures['cells'] = {};
  for (const scenario of SCENARIOS) {
    for (const target of targets) {
      const each = rounds.map((round) => find(round, target, scenario));
      if (each.every((r) => r === undefined)) continue;
      (cells[scenario] ??= {})[target] = {
        rates: each.map((r) => r?.rate_per_s),
        cpus: each.map((r) => r?.server_cpu_ms_per_op),
        tokenP99s: each.map((r) => r?.steps_ms?.token?.p99),
        errors: each.reduce((sum, r) => sum + (r?.errors ?? 0), 0),
      };
    }
  }
  const peakMb = Object.fromEntries(
    targets.map((t) => [t, Math.max(...all.filter((r) => r.target === t).map((r) => r.server_rss_peak_mb ?? 0))]),
  );
  const multiples: RunFigures['multiples'] = {};
  for (const mine of targets.filter((t) => t.startsWith('ours'))) {
    for (const scenario of SCENARIOS) {
      for (const other of targets.filter((t) => !t.startsWith('ours'))) {
        const cpu: number[] = [];
        const throughputPct: number[] = [];
        for (const round of rounds) {
          const a = find(round, mine, scenario);
          const b = find(round, other, scenario);
          if (a?.server_cpu_ms_per_op !== undefined && b?.server_cpu_ms_per_op) cpu.push(a.server_cpu_ms_per_op / b.server_cpu_ms_per_op);
          if (a && b?.rate_per_s) throughputPct.push((100 * a.rate_per_s) / b.rate_per_s);
        }
        if (cpu.length > 0 || throughputPct.length > 0) ((multiples[mine] ??= {})[scenario] ??= {})[other] = { cpu, throughputPct };
      }
    }
  }
  return { targets, cells, peakMb, multiples };
}

export function summarize(rounds: Round[]): string {
  const { targets, cells, peakMb, multiples } = runFigures(rounds);
  const lines = [`| scenario | ${targets.join(' | ')} |`, `|---|${targets.map(() => '---').join('|')}|`];
  for (const scenario of SCENARIOS) {
    const row = targets.map((target) => {
      const cell = cells[scenario]?.[target];
      if (!cell) return '-';
      return `${fmt(median(cell.rates), 1)}/s, ${fmt(median(cell.cpus))} ms CPU/op${cell.errors ? `, ${cell.errors} errors` : ''}`;
    });
    lines.push(`| ${scenario} | ${row.join(' | ')} |`);
  }
  const p99 = (t: string) => `${fmt(median(cells.flow?.[t]?.tokenP99s ?? []), 1)} ms`;
  lines.push(`| token p99 during the sign-in burst | ${targets.map(p99).join(' | ')} |`);
  lines.push(`| peak resident memory | ${targets.map((t) => `${fmt(peakMb[t], 0)} MB`).join(' | ')} |`);

  const spread = (values: number[], digits: number, unit: string) => {
    const s = spreadOf(values);
    if (s === undefined) return undefined;
    const range = s.count > 1 ? ` (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})` : '';
    return `${s.median.toFixed(digits)}${unit}${range}`;
  };
  const ratios: string[] = [];
  for (const [mine, byScenario] of Object.entries(multiples)) {
    for (const [scenario, byOther] of Object.entries(byScenario)) {
      const found = Object.entries(byOther).flatMap(([other, { cpu, throughputPct }]) => {
        const c = spread(cpu, 2, '×');
        return c ? [`${c} CPU/op and ${spread(throughputPct, 0, ' %')} of the throughput of ${other}`] : [];
      });
      if (found.length > 0) ratios.push(`${mine} ${scenario}: ${found.join('; ')}`);
    }
  }
  const title =
    rounds.length > 1 ? `Against the bare engine (median of ${rounds.length} rounds, lowest–highest):` : 'Against the bare engine:';
  return ['', lines.join('\n'), '', title, ...ratios].join('\n');
}
