// Engine internals are touched from one place: src/provider (its door, src/provider/engine.ts, and the
// hooks the engine calls). Everything else uses the door, the engine's public interaction API
// (interactionDetails, interactionFinished, interactionResult), its events and its `errors`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src', 'interactions', 'adapters'];
const ALLOWED = 'src/provider/';

/** What reaching into the engine looks like in code. */
const INTERNALS: Array<[string, RegExp]> = [
  ['the request being handled (Provider.ctx)', /\bProvider\.ctx\b/],
  ['patching a class (.prototype.)', /\.prototype\./],
  ['building an engine Grant or Session', /\bnew\s*\(?\s*(?:[\w$]+\??\.)*(?:Grant|Session)\b\s*(?:\(|\bas\b)/],
  ['finding engine sessions', /\bSession\.(?:find|findByUid|get)\b/],
  ['finding engine models', /\.(?:AuthorizationCode|AccessToken|RefreshToken|Grant|Interaction|Client)\.find\b/],
  ['the engine’s private files (oidc-provider/lib/...)', /['"]oidc-provider\/lib\//],
  [
    'the engine’s classes (a value import other than `errors`)',
    /^import\s+(?!type\b)(?![^'"]*\{\s*errors\s*\}\s*from)[^'"]*from\s+['"]oidc-provider['"]/m,
  ],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(?:ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The code of a file without its comments (which may name the engine's internals to explain them). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('the engine door', () => {
  it('is the only way into the engine’s internals', () => {
    const files = ROOTS.flatMap((root) => sourceFiles(root)).filter((file) => !relative('.', file).startsWith(ALLOWED));
    expect(files.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const file of files) {
      const text = code(readFileSync(file, 'utf8'));
      for (const [what, pattern] of INTERNALS) {
        if (pattern.test(text)) found.push(`${file}: ${what}`);
      }
    }
    expect(found, 'use src/provider/engine.ts instead').toEqual([]);
  });

  it('recognises what it forbids', () => {
    const samples = [
      'const ctx = Provider.ctx;',
      'Client.prototype.compareClientSecret = f;',
      'const grant = new context.provider.Grant({ accountId, clientId });',
      'const s = new (provider.Session as unknown as NewSession)();',
      'const s = new Session();',
      'await provider.Session.findByUid(uid);',
      'await provider.AuthorizationCode.find(code);',
      "import checkPKCE from 'oidc-provider/lib/helpers/pkce.js';",
      "import Provider from 'oidc-provider';",
    ];
    for (const sample of samples)
      expect(
        INTERNALS.some(([, pattern]) => pattern.test(code(sample))),
        sample,
      ).toBe(true);
    const allowed = [
      "import { errors } from 'oidc-provider';",
      "import type Provider from 'oidc-provider';",
      "import type { Configuration } from 'oidc-provider';",
      'throw new errors.InvalidGrant("already used");',
      'const sessions = new AccountSessions(db, provider);',
      'await provider.interactionFinished(ctx.req, ctx.res, result);',
      '// Session.findByUid is what the Redis index serves',
    ];
    for (const sample of allowed)
      expect(
        INTERNALS.some(([, pattern]) => pattern.test(code(sample))),
        sample,
      ).toBe(false);
  });
});
