// The hostile-input suite on the embedded store (PGlite, in memory).
import { afterAll, beforeAll } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { prepareFixture, type Fixture } from './fixture.ts';
import { hostileInputSuite } from './suite.ts';

let svc: TestService;
let fx: Fixture;
beforeAll(async () => {
  svc = await startTestService();
  fx = await prepareFixture(svc);
});
afterAll(() => svc.stop());

hostileInputSuite('embedded store', () => fx);
