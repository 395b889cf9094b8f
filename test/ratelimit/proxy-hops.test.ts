// Behind a trusted proxy, the client's address is the one the proxy appended to X-Forwarded-For, not
// whatever the client wrote before it: rotating that prefix does not reset the per-IP limit.
import { describe, expect, it } from 'vitest';
import { Browser, isPage } from '../support/browser.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService } from '../support/service.ts';
import { proxyHops } from '../../src/http/proxy.ts';

const limits = { loginPerAccount: { points: 100, windowSeconds: 600 }, loginPerIp: { points: 4, windowSeconds: 600 } };

describe('trusted proxies', () => {
  it('counts the address the proxy appended, whatever the client put in front', async () => {
    const svc = await startTestService({ rateLimit: limits, trustProxy: true });
    try {
      const browser = new Browser(svc.url);
      const rp = await relyingParty(svc.url, await svc.createClient());
      const page = await browser.open((await rp.start()).url);
      if (!isPage(page)) throw new Error('expected the login page');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await browser.agent
          .post(`${new URL(page.url).pathname}/login`)
          .set('X-Forwarded-For', `10.9.${i}.1, 198.51.100.7`)
          .type('form')
          .send({ email: `spoof${i}@example.org`, password: 'wrong password' });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    } finally {
      await svc.stop();
    }
  });

  it('reads the number of proxies from the config', () => {
    expect(proxyHops({ trustProxy: false })).toBe(0);
    expect(proxyHops({ trustProxy: true })).toBe(1);
    expect(proxyHops({ trustProxy: 2 })).toBe(2);
  });
});
