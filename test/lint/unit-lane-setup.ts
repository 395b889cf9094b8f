// Set up before each file of the fast lane (vitest.unit.config.ts, not `npm test`): a test there that listens
// on a port, opens a connection or starts a process fails, naming what it did, instead of slowing the lane
// down or waiting for a server that is not there.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterAll } from 'vitest';

const done: string[] = [];

function refuse(what: string): never {
  done.push(what);
  throw new Error(`The unit lane starts no server: this test ${what}. Take it out of vitest.unit.config.ts.`);
}

net.Server.prototype.listen = function listen() {
  refuse('listens on a port');
};
net.Socket.prototype.connect = function connect() {
  refuse('opens a connection');
};
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  Object.assign(childProcess, { [name]: () => refuse(`starts a process (${name})`) });
}
// `import { spawn } from 'node:child_process'` sees the replacements too.
syncBuiltinESMExports();

// A refusal that the code under test caught and swallowed still fails the file.
afterAll(() => {
  if (done.length) throw new Error(`The unit lane starts no server, but a test here ${[...new Set(done)].join(', ')}.`);
});
