// While the standalone server starts, V8's young generation is kept at its initial size; once the server
// is up, it grows with the load again as V8 decides. Why: loading the modules, templates and catalogs makes
// most young objects survive, and V8 answers by doubling the young generation (by the time the server
// listened, two semi-spaces of 16 MiB). It never gives those pages back while the process is idle, so an
// instance at rest kept about 14 MiB it used only for its first second. Held, the start-up's survivors go
// to the old generation, where they belong anyway; the start costs a few more scavenges.
//
// The factor is V8's own flag, read each time the young generation would grow: set back, growth under load
// is what it was. An operator who set it (node --semi-space-growth-factor=…, NODE_OPTIONS) keeps theirs.
// The program entry (entry.ts) imports this module first and the rest of the program after it.
import { setFlagsFromString } from 'node:v8';

const FLAG = 'semi-space-growth-factor';
/** V8's default growth factor. */
const GROWTH = 2;

const operatorChosen = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) =>
  arg.replaceAll('_', '-').startsWith(`--${FLAG}`),
);
let held = !operatorChosen;
if (held) setFlagsFromString(`--${FLAG}=1`);

/** Lets the young generation grow again: called once the server listens (and harmless twice). */
export function releaseYoungGeneration(): void {
  if (!held) return;
  held = false;
  setFlagsFromString(`--${FLAG}=${GROWTH}`);
}
