// The young generation while the standalone server starts (src/cli/young-generation.ts): held at its
// initial size while the modules load, growing again with the load once released, and left alone when
// the operator set V8's growth factor. Each case runs in a child process of its own: V8's flags are the
// process's.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const moduleUrl = join(process.cwd(), 'src', 'cli', 'young-generation.ts');

// Builds survivors the way a start-up does (a few hundred thousand objects kept), then reports the
// young generation's reserved size; again after the release.
const SCRIPT = `
  const { getHeapSpaceStatistics } = await import('node:v8');
  const { releaseYoungGeneration } = await import(${JSON.stringify(moduleUrl)});
  const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
  const keep = [];
  const survive = () => { for (let i = 0; i < 600000; i++) keep.push({ i, name: 'x' + i }); };
  const initial = young();
  survive();
  const whileHeld = young();
  releaseYoungGeneration();
  survive();
  console.log(JSON.stringify({ initial, whileHeld, released: young() }));
`;

function youngSizes(nodeOptions: string[] = []): Promise<{ initial: number; whileHeld: number; released: number }> {
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}`))));
  });
}

describe('young generation during the start', () => {
  it('stays at its initial size while held, and grows with the load once released', async () => {
    const { initial, whileHeld, released } = await youngSizes();
    expect(whileHeld).toBe(initial);
    expect(released).toBeGreaterThan(initial);
  });

  it("keeps the operator's own growth factor", async () => {
    const { initial, whileHeld } = await youngSizes(['--semi-space-growth-factor=4']);
    expect(whileHeld).toBeGreaterThan(initial);
  });
});
