// docs/reference/security-log.md lists exactly the events of the catalogue, in its order, with their
// outcomes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECURITY_EVENTS } from '../../src/log/security-events.ts';

describe('the security log reference page', () => {
  it('lists every event of the catalogue with its outcome, and no other', () => {
    const page = readFileSync(new URL('../../docs/reference/security-log.md', import.meta.url), 'utf8');
    const start = page.indexOf('\n## Events\n');
    expect(start).toBeGreaterThan(0);
    const end = page.indexOf('\n## ', start + 1);
    const section = page.slice(start, end < 0 ? undefined : end);
    const rows = [...section.matchAll(/^\| `([a-z_.]+)` \| (success|failure|blocked) \|/gm)].map(([, event, outcome]) => [event, outcome]);
    expect(rows).toEqual(Object.entries(SECURITY_EVENTS).map(([event, info]) => [event, info.outcome]));
  });
});
