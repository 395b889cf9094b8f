// The clientBasedCORS hook on its own: which browser origins may call the token, revocation and
// userinfo endpoints for an application.
import { describe, expect, it } from 'vitest';
import { clientBasedCORS } from '../../src/provider/cors.ts';

function client(appType: 'spa' | 'web' | 'native', redirectUris: string[]) {
  return { redirectUris, metadata: () => ({ client_id: 'app', app_type: appType }) };
}

const at = (route: string) => ({ oidc: { route } });
const spa = client('spa', ['https://spa.example.org/callback', 'https://other.example.org:8443/cb']);
const web = client('web', ['https://web.example.org/callback']);

describe('clientBasedCORS', () => {
  it('lets a single-page application call the token endpoint from a registered origin', () => {
    expect(clientBasedCORS(at('token'), 'https://spa.example.org', spa)).toBe(true);
    expect(clientBasedCORS(at('revocation'), 'https://other.example.org:8443', spa)).toBe(true);
  });

  it('refuses the null origin (sandboxed frames, file: pages), even for userinfo', () => {
    expect(clientBasedCORS(at('token'), 'null', spa)).toBe(false);
    expect(clientBasedCORS(at('userinfo'), 'null', web)).toBe(false);
  });

  it('refuses an origin that is none of the application’s redirect URIs', () => {
    expect(clientBasedCORS(at('token'), 'https://evil.example.net', spa)).toBe(false);
    expect(clientBasedCORS(at('token'), 'http://spa.example.org', spa)).toBe(false);
    expect(clientBasedCORS(at('userinfo'), 'https://evil.example.net', web)).toBe(false);
  });

  it('opens userinfo to the registered origins of every kind of application, the token endpoint to spas only', () => {
    expect(clientBasedCORS(at('userinfo'), 'https://web.example.org', web)).toBe(true);
    expect(clientBasedCORS(at('token'), 'https://web.example.org', web)).toBe(false);
    expect(clientBasedCORS(at('token'), 'https://web.example.org', client('native', ['https://web.example.org/cb']))).toBe(false);
  });

  it('refuses everything for an application without redirect URIs', () => {
    expect(clientBasedCORS(at('userinfo'), 'https://spa.example.org', client('spa', []))).toBe(false);
  });
});
