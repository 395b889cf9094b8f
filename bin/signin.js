#!/usr/bin/env node
// The `signin` command. The published package runs its JavaScript build (dist/) under plain Node. A
// clone of the repository runs its TypeScript sources through tsx instead (a development dependency),
// so that an edit counts at once and an old build left in dist/ by `npm pack` is never run by mistake.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The embedded store's Postgres is WebAssembly, which V8 compiles a second time, optimized, once it has
// run a while: that compilation took hundreds of megabytes at each start of the server. Baseline code
// only (--liftoff-only) keeps a first start under 400 MB and was no slower on the store's queries
// (docs/operations/sizing.md). A V8 flag must be given to the process at its start, so the command starts
// itself again with it, in the same process (process.execve, Node 22.15 and later, not on Windows).
const FLAG = '--liftoff-only';
if (!process.execArgv.includes(FLAG) && typeof process.execve === 'function' && process.platform !== 'win32') {
  process.execve(
    process.execPath,
    [process.execPath, FLAG, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    process.env,
  );
}

const sources = new URL('../src/cli/entry.ts', import.meta.url);
const built = new URL('../dist/src/cli/entry.js', import.meta.url);

async function loadTsx() {
  try {
    return await import('tsx/esm/api');
  } catch {
    return undefined; // not installed: a package installed without its development dependencies
  }
}

const tsx = existsSync(sources) ? await loadTsx() : undefined;
if (tsx) {
  tsx.register();
  await import(sources.href);
} else if (existsSync(built)) {
  await import(built.href);
} else {
  console.error('signin: no build found: run `npm run build` (or `npm install` to get tsx) first');
  process.exit(1);
}
