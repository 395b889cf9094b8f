// Two https origins on the loopback for FedCM in a real browser: the service on idp.test and an
// application on rp.test, with a self-signed certificate for both names made here by openssl. Chromium maps
// every *.test name to 127.0.0.1 and accepts the certificate (launchFedcmChromium).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../browser/chromium.ts';

export interface Certificate {
  key: string;
  cert: string;
}

/** A self-signed certificate for idp.test and rp.test (and every *.test name). */
export function selfSignedCertificate(): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'fedcm-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=idp.test',
      '-addext',
      'subjectAltName=DNS:idp.test,DNS:rp.test,DNS:*.test',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}

/** An https server on a free loopback port; its port is known once this resolves. */
export async function httpsServer(certificate: Certificate): Promise<{ server: Server; port: number }> {
  const server = createServer(certificate);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function launchFedcmChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--host-resolver-rules=MAP *.test 127.0.0.1',
      '--ignore-certificate-errors',
      // French first, as the service: pop-ups the browser opens itself send this Accept-Language too.
      '--lang=fr-FR',
      '--accept-lang=fr-FR,fr',
      // The well-known file lives at the registrable domain's root, port 443, which a test on a free port
      // cannot serve: its content is checked over HTTP in well-known.test.ts instead.
      '--enable-features=FedCmWithoutWellKnownEnforcement',
    ],
  });
}
