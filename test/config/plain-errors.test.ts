// A wrong config file is explained in the file's terms: which field, what it must be, what was found
// there, and for a misspelt key or value the one probably meant. Never the validation library's wording.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.ts';
import { parseConfig } from '../../src/config/load.ts';

const secrets = { cookieKeys: ['k'.repeat(40)], pairwiseSalt: 's'.repeat(40) };
const base = { issuer: 'https://id.example.org', secrets };

function problems(raw: Record<string, unknown>): string[] {
  try {
    parseConfig({ ...base, ...raw }, {});
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const list = (error as ConfigError).problems.map((p) => `${p.field}: ${p.message}`);
    for (const line of list) expect(line).not.toMatch(/Invalid input|expected \w+, received|Too (small|big)|Unrecognized/);
    return list;
  }
  throw new Error('expected the config to be refused');
}

describe('config errors in plain words', () => {
  it('says what a value must be and what was found', () => {
    expect(problems({ storage: { kind: 'embedded', requestDeadlineMs: 'abc' } })).toEqual([
      'storage.requestDeadlineMs: must be a number, got the text "abc"',
    ]);
    expect(problems({ port: 70000 })).toEqual(['port: must be 65535 or less, got the number 70000']);
    expect(problems({ ttl: { accessToken: -1 } })).toEqual(['ttl.accessToken: must be more than 0, got the number -1']);
    expect(problems({ issuer: 'login.example.org' })).toEqual(['issuer: must be a URL, got the text "login.example.org"']);
    expect(problems({ trustProxy: 'yes' })).toEqual(['trustProxy: must be true or false, or a number, got the text "yes"']);
    expect(problems({ secrets: { ...secrets, pairwiseSalt: 5 } })).toEqual(['secrets.pairwiseSalt: must be a text, got the number 5']);
  });

  it('suggests the key or the value probably meant', () => {
    expect(problems({ storage: { kind: 'embedded', dataDirr: './data' } })).toEqual([
      'storage.dataDirr: unknown key; did you mean dataDir?',
    ]);
    expect(problems({ rateLimit: { loginPerIp: { point: 3 } } })).toEqual([
      'rateLimit.loginPerIp.point: unknown key; did you mean points?',
    ]);
    expect(problems({ storage: { kind: 'embeded' } })).toEqual([
      'storage.kind: must be one of "embedded", "postgres", got the text "embeded"; did you mean "embedded"?',
    ]);
    expect(problems({ languages: { default: 'EN' } })).toEqual([
      'languages.default: must be one of "fr", "en", got the text "EN"; did you mean "en"?',
    ]);
  });
});
