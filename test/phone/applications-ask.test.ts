// Applications may ask for the `phone` scope: the CLI registers it, and the portal's form offers it, as an
// optional scope with its own label in both languages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalEn } from '../../src/i18n/portal-en.ts';
import { portalFr } from '../../src/i18n/portal-fr.ts';
import { FORM_CHOICES } from '../../src/portal/app-form.ts';
import { CLIENT_ARGS, cli, workspace, type Workspace } from '../cli/support.ts';

describe('the phone scope for applications', { timeout: 60_000 }, () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('is registered by `signin client create --scopes`', async () => {
    const args = [...CLIENT_ARGS.slice(0, -1), 'openid email phone', '--json', '--config', ws.config];
    const result = await cli(args);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(result.stdout) as { scopes: string[] }).scopes).toEqual(['openid', 'email', 'phone']);
  });

  it('is offered, optional, by the portal form, with a label in French and English', () => {
    expect(FORM_CHOICES.scopes).toContainEqual({ name: 'phone', required: false });
    expect(portalFr['form.scope.phone']).toBe('phone\u00a0: son numéro de téléphone vérifié');
    expect(portalEn['form.scope.phone']).toBe('phone: their verified phone number');
  });
});
