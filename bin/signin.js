#!/usr/bin/env node
// The `signin` command. The published package runs its JavaScript build (dist/) under plain Node. A
// clone of the repository runs its TypeScript sources through tsx instead (a development dependency),
// so that an edit counts at once and an old build left in dist/ by `npm pack` is never run by mistake.
import { existsSync } from 'node:fs';

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
