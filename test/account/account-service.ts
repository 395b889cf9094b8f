// The service as the account page's self-service tests need it: a real SMTP server on loopback for its
// e-mails, and its log kept, to read the security events the page writes.
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { LogCapture } from '../security-log/capture.ts';
import { startTestService, type TestService } from '../support/service.ts';

export interface AccountService {
  svc: TestService;
  smtp: SmtpSink;
  log: LogCapture;
  stop(): Promise<void>;
}

export async function startAccountService(): Promise<AccountService> {
  const smtp = await startSmtpSink();
  const log = new LogCapture();
  const svc = await startTestService(
    { mail: smtp.mailConfig(), log: { level: 'info', pretty: false } },
    { logDestination: log.destination },
  );
  return {
    svc,
    smtp,
    log,
    async stop() {
      await svc.stop();
      await smtp.stop();
    },
  };
}
