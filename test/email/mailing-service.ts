// The service wired to a real SMTP server on loopback, with one application to sign in to: what the
// e-mail, reset and sign-up tests all start from.
import type { ClientInput } from '../../src/clients/validate.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

export interface MailingService {
  svc: TestService;
  smtp: SmtpSink;
  rp: RelyingParty;
  stop(): Promise<void>;
}

export async function startMailingService(client: Partial<ClientInput> = {}): Promise<MailingService> {
  const smtp = await startSmtpSink();
  const svc = await startTestService({ mail: smtp.mailConfig() });
  const rp = await relyingParty(svc.url, await svc.createClient(client));
  return {
    svc,
    smtp,
    rp,
    async stop() {
      await svc.stop();
      await smtp.stop();
    },
  };
}
