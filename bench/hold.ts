// Starts the service with a signed-in user and prints an access token, then keeps serving, so that
// an external load generator (wrk) can measure the server alone:
//   npx tsx bench/hold.ts &   then   wrk -t2 -c16 -d10s -H "authorization: Bearer $TOKEN" $URL/oauth/userinfo
import { startTestService } from '../test/support/service.ts';
import { benchStorage } from './storage.ts';
import { relyingParty } from '../test/support/relying-party.ts';
import { signIn } from '../test/support/flow.ts';

const storage = benchStorage();

const svc = await startTestService({ storage }, { migrations: 'auto' });
const client = await svc.createClient();
const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
console.log(JSON.stringify({ url: svc.url, accessToken: tokens.access_token }));
process.once('SIGTERM', () => void svc.stop().then(() => process.exit(0)));
process.once('SIGINT', () => void svc.stop().then(() => process.exit(0)));
