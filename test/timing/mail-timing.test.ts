// The pages that take an e-mail address answer in the same time whether or not the address is registered:
// sign-up, "mot de passe oublié" and a new verification link. Their pages were already the same; what a
// registered address sets off (a token written, a message composed and sent, the owner told) happens
// after the answer has gone (src/mail/after-answer.ts), so the time of the answer tells nothing either.
//
// Each case takes 40 samples of each kind, each the fastest of three requests (test/timing/interleave.ts):
// 120 requests of each kind, interleaved, each from a new client address, with the mail limits raised so
// that every registered address really is mailed. The store matters (an in-process PGlite blocks the event
// loop while it writes, Postgres and Redis answer over the network), so both are measured. The test fails
// when Welch's t of the two samples (a fifth trimmed off each end, test/timing/welch.ts) reaches 3: beyond
// chance for samples this size. Put back the e-mail before the answer and it reaches 4 (a reset on the
// embedded store) to 17 (the owner told of a sign-up before the answer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignInConfigInput } from '../../src/config/schema.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { csrfOf, FormClient, type Answer } from './form-client.ts';
import { freshIp, interleaved, type Probe } from './interleave.ts';
import { timedClient, type TimedClient } from './timed-http.ts';
import { compareTimings, describeComparison } from './welch.ts';

const SAMPLES = 40;
const PER_SAMPLE = 3;
const WARMUP = 5;
const T_LIMIT = 3;
// Every request is mailed (a limit reached would answer both kinds alike and hide the difference).
const rateLimit = {
  mailPerIp: { points: 100_000, windowSeconds: 3600 },
  mailPerAddress: { points: 100_000, windowSeconds: 3600 },
};

let counter = 0;
const unique = () => `${process.pid}${(counter += 1)}${Date.now() % 100_000}`;
const unknownAddress = () => `personne.${unique()}@example.org`;

async function expectSameTime(name: string, registered: Probe, unknown: Probe): Promise<void> {
  const samples = await interleaved(registered, unknown, { samples: SAMPLES, perSample: PER_SAMPLE, warmup: WARMUP });
  const comparison = compareTimings(samples.a, samples.b);
  console.log(describeComparison(name, ['registered', 'unknown'], comparison));
  expect(Math.abs(comparison.t)).toBeLessThan(T_LIMIT);
}

function timingOn(store: string, storage: () => Promise<SignInConfigInput['storage']>, cleanup: () => Promise<void> = async () => {}) {
  describe(`answer time for a registered and an unknown address (${store})`, () => {
    let svc: TestService;
    let smtp: SmtpSink;
    let http: TimedClient;
    beforeAll(async () => {
      http = await timedClient();
      smtp = await startSmtpSink();
      svc = await startTestService({ trustProxy: true, rateLimit, mail: smtp.mailConfig(), storage: await storage() });
    });
    afterAll(async () => {
      await svc?.stop();
      await smtp?.stop();
      await http?.close();
      await cleanup();
    });

    it('asking for a password reset', { timeout: 300_000 }, async () => {
      const user = await svc.createUser();
      const client = new FormClient(svc.url, http);
      const csrf = csrfOf((await client.open('/password/forgot')).html);
      const ask = (email: string) => client.post('/password/forgot', { csrf, email, return: '/account' }, freshIp());
      const sent = (answer: Answer) => {
        expect(answer.status).toBe(200);
        expect(answer.html).toMatch(/Si un compte existe pour/);
        return answer.ms;
      };
      await expectSameTime(
        `password reset (${store})`,
        async () => {
          const ms = sent(await ask(user.email));
          await smtp.next(user.email);
          return ms;
        },
        async () => sent(await ask(unknownAddress())),
      );
    });

    it('asking for a new verification link', { timeout: 300_000 }, async () => {
      const user = await svc.createUser({ emailVerified: false });
      const client = new FormClient(svc.url, http);
      const csrf = csrfOf((await client.open('/email/verify?token=lien-perime')).html);
      const ask = (email: string) => client.post('/email/verify/resend', { csrf, email }, freshIp());
      const sent = (answer: Answer) => {
        expect(answer.status).toBe(200);
        expect(answer.html).toMatch(/un nouveau lien vient d.y être envoyé/);
        return answer.ms;
      };
      await expectSameTime(
        `verification link re-sent (${store})`,
        async () => {
          const ms = sent(await ask(user.email));
          await smtp.next(user.email);
          return ms;
        },
        async () => sent(await ask(unknownAddress())),
      );
    });

    it('signing up', { timeout: 600_000 }, async () => {
      const owner = await svc.createUser();
      const rp = await relyingParty(svc.url, await svc.createClient());
      const client = new FormClient(svc.url, http);
      // One authorization for every sign-up: a sign-up leaves its interaction where it was (at the login step).
      const login = await client.open((await rp.start()).url);
      const uid = /\/interaction\/([^/?]+)/.exec(login.url)![1];
      const signUp = (email: string) =>
        client.post(
          `/interaction/${uid}/signup`,
          { email, username: `nouvelle_${unique()}`, first_name: 'Adjoua', password: 'un thé au bord de la lagune' },
          freshIp(),
        );
      const done = (answer: Answer) => {
        expect(answer.status, answer.html).toBe(200);
        expect(answer.html).toMatch(/Vérifiez votre adresse e.mail/);
        return answer.ms;
      };
      await expectSameTime(
        `sign-up (${store})`,
        async () => {
          const ms = done(await signUp(owner.email));
          await smtp.next(owner.email); // the owner is told of the attempt
          return ms;
        },
        async () => {
          const email = unknownAddress();
          const ms = done(await signUp(email));
          await smtp.next(email); // the new account's verification link
          return ms;
        },
      );
    });
  });
}

timingOn('embedded PGlite', async () => ({ kind: 'embedded', dataDir: 'memory://' }));

let postgres: FreshPostgres;
let redis: FreshRedis;
timingOn(
  'Postgres and Redis',
  async () => {
    postgres = await freshPostgres();
    redis = await freshRedis();
    return { kind: 'postgres', postgres: { url: postgres.url }, redis: redis.config };
  },
  async () => {
    await postgres?.drop();
    await redis?.cleanup();
  },
);
