// The figures the README's benchmark section quotes, read off the harness's JSON: per scenario and
// target, operations per second and the server's CPU per operation; the token step's p99 during the
// sign-in burst; the peak memory; and each of the service's figures as a multiple of the bare engine's.

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

const SCENARIOS = ['flow', 'token', 'refresh', 'userinfo', 'revoke'];
const fmt = (n: number | undefined, digits = 2) => (n === undefined ? '-' : n >= 100 ? String(Math.round(n)) : n.toFixed(digits));

export function summarize({ results }: { results: Result[] }): string {
  const targets = [...new Set(results.map((r) => r.target))];
  const find = (target: string, scenario: string) => results.find((r) => r.target === target && r.scenario === scenario);
  const lines = [`| scenario | ${targets.join(' | ')} |`, `|---|${targets.map(() => '---').join('|')}|`];
  for (const scenario of SCENARIOS) {
    const cells = targets.map((target) => {
      const r = find(target, scenario);
      if (!r) return '-';
      const errors = r.errors ? `, ${r.errors} errors` : '';
      return `${fmt(r.rate_per_s, 1)}/s, ${fmt(r.server_cpu_ms_per_op)} ms CPU/op${errors}`;
    });
    lines.push(`| ${scenario} | ${cells.join(' | ')} |`);
  }
  lines.push(`| token p99 during the sign-in burst | ${targets.map((t) => `${fmt(find(t, 'flow')?.steps_ms?.token?.p99, 1)} ms`).join(' | ')} |`);
  lines.push(`| peak resident memory | ${targets.map((t) => `${fmt(Math.max(...results.filter((r) => r.target === t).map((r) => r.server_rss_peak_mb ?? 0)), 0)} MB`).join(' | ')} |`);

  // The service's CPU per operation as a multiple of each bare engine's.
  const engines = targets.filter((t) => !t.startsWith('ours'));
  const ours = targets.filter((t) => t.startsWith('ours'));
  const ratios: string[] = [];
  for (const mine of ours) {
    for (const scenario of SCENARIOS) {
      const cpu = find(mine, scenario)?.server_cpu_ms_per_op;
      const against = engines.map((engine) => {
        const base = find(engine, scenario)?.server_cpu_ms_per_op;
        return cpu !== undefined && base ? `${(cpu / base).toFixed(2)}× ${engine}` : undefined;
      });
      ratios.push(`${mine} ${scenario}: ${against.filter(Boolean).join(', ')}`);
    }
  }
  return ['', lines.join('\n'), '', 'CPU per operation against the bare engine:', ...ratios].join('\n');
}
