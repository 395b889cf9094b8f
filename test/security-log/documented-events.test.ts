// The README's "Security log" section lists exactly the events of the catalogue, with their outcomes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECURITY_EVENTS } from '../../src/log/security-events.ts';

describe('the README\'s security log section', () => {
  it('lists every event of the catalogue with its outcome, and no other', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('\n## Security log\n');
    expect(start).toBeGreaterThan(0);
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const rows = [...section.matchAll(/^\| `([a-z_.]+)` \| (success|failure|blocked) \|/gm)].map(([, event, outcome]) => [event, outcome]);
    expect(rows).toEqual(Object.entries(SECURITY_EVENTS).map(([event, info]) => [event, info.outcome]));
  });
});
