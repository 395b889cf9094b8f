// Resident memory of a server at rest: started, its discovery document answered once (so that what a
// first request loads is counted), then left alone a few seconds. Linux only (reads /proc).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ServerCommand {
  cmd: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The issuer: its discovery document says the server is up. */
  issuer: string;
}

export async function idleRssMiB(server: ServerCommand, settleMs = 5000): Promise<number> {
  const child = spawn(server.cmd, server.args, { cwd: server.cwd, env: { ...process.env, ...server.env }, stdio: 'ignore' });
  try {
    await waitForDiscovery(server.issuer);
    await sleep(settleMs);
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

async function waitForDiscovery(issuer: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const res = await fetch(`${issuer}/.well-known/openid-configuration`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${issuer} did not answer its discovery document within 30 s`);
}
