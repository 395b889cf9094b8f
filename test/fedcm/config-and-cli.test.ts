// FedCM's config file, its well-known file, the switch that turns it off, the script for application
// owners, and the CLI: the well-known file to place at the root domain, an application's FedCM origins.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fedcmOriginProblem } from '../../src/clients/fedcm-origins.ts';
import { servesWellKnown } from '../../src/fedcm/config-file.ts';
import { CLIENT_ARGS, cli, workspace, type Workspace } from '../cli/support.ts';
import { startTestService } from '../support/service.ts';
import { startFedcmWorld, type FedcmWorld } from './fedcm-service.ts';
import { idpRequest } from './idp-request.ts';

describe('the FedCM files of an https service', () => {
  let world: FedcmWorld;
  beforeAll(async () => {
    world = await startFedcmWorld({ branding: { serviceName: 'Connexion Sénégal', links: [] } });
  }, 60_000);
  afterAll(() => world?.stop());

  it('serves the config file with every endpoint under the issuer, and the branding', async () => {
    const answer = await idpRequest(world, '/fedcm/config.json');
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      accounts_endpoint: `${world.issuer}/fedcm/accounts`,
      client_metadata_endpoint: `${world.issuer}/fedcm/client_metadata`,
      id_assertion_endpoint: `${world.issuer}/fedcm/assertion`,
      disconnect_endpoint: `${world.issuer}/fedcm/disconnect`,
      login_url: `${world.issuer}/fedcm/login`,
      branding: { background_color: '#0b5cad', color: '#ffffff', name: 'Connexion Sénégal' },
    });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });

  it('serves the well-known file at a registrable domain (idp.test), naming the config file', async () => {
    const answer = await idpRequest(world, '/.well-known/web-identity');
    expect(answer.status).toBe(200);
    expect(answer.json.provider_urls).toEqual([`${world.issuer}/fedcm/config.json`]);
    expect(answer.headers.location).toBeUndefined();
  });

  it('gives the browser the application’s privacy and terms links', async () => {
    await world.service.context.clients.update(world.client.clientId, {
      policyUri: 'https://rp.example/confidentialite',
      tosUri: 'https://rp.example/conditions',
    });
    const answer = await idpRequest(world, `/fedcm/client_metadata?client_id=${world.client.clientId}`);
    expect(answer.json).toEqual({
      privacy_policy_url: 'https://rp.example/confidentialite',
      terms_of_service_url: 'https://rp.example/conditions',
    });
    expect((await idpRequest(world, '/fedcm/client_metadata?client_id=nope')).status).toBe(404);
  });

  it('serves the owners’ script, loadable from their own origins', async () => {
    const answer = await idpRequest(world, '/fedcm/client.js');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/javascript/);
    expect(answer.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(answer.text).toContain('navigator.credentials');
    expect(answer.text).toContain('/oauth/authorize?');
    expect(Buffer.byteLength(answer.text)).toBeLessThan(4096);
  });
});

describe('FedCM off', () => {
  it('with a plain-http issuer: no endpoint, no well-known file', async () => {
    const svc = await startTestService();
    try {
      expect((await fetch(`${svc.url}/fedcm/config.json`)).status).toBe(404);
      expect((await fetch(`${svc.url}/fedcm/accounts`, { headers: { 'Sec-Fetch-Dest': 'webidentity' } })).status).toBe(404);
    } finally {
      await svc.stop();
    }
  });

  it('with fedcm.enabled: false on an https issuer', async () => {
    const world = await startFedcmWorld({ fedcm: { enabled: false } });
    try {
      expect((await idpRequest(world, '/fedcm/config.json')).status).toBe(404);
      expect((await idpRequest(world, '/.well-known/web-identity')).status).not.toBe(200);
    } finally {
      await world.stop();
    }
  });
});

describe('where the well-known file is served, which origins may be added', () => {
  it('serves the file only at a registrable domain without a path', () => {
    expect(servesWellKnown('https://example.org')).toBe(true);
    expect(servesWellKnown('https://example.co.uk')).toBe(true);
    expect(servesWellKnown('https://login.example.org')).toBe(false);
    expect(servesWellKnown('https://example.org/auth')).toBe(false);
  });

  it('accepts https origins written as the browser sends them, refuses the rest', () => {
    expect(fedcmOriginProblem('https://app.example.org')).toBeUndefined();
    expect(fedcmOriginProblem('https://app.example.org:8443')).toBeUndefined();
    expect(fedcmOriginProblem('http://app.example.org')).toBe('redirect_uri.https_required');
    expect(fedcmOriginProblem('https://app.example.org/')).toBe('fedcm_origin.not_origin');
    expect(fedcmOriginProblem('https://app.example.org/path')).toBe('fedcm_origin.not_origin');
    expect(fedcmOriginProblem('https://App.Example.org')).toBe('fedcm_origin.not_origin');
    expect(fedcmOriginProblem('https://user@app.example.org')).toBe('redirect_uri.userinfo');
    expect(fedcmOriginProblem('https://*.example.org')).toBe('redirect_uri.wildcard');
  });
});

describe('the CLI', () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('prints the well-known file to place at the root domain', async () => {
    writeFileSync(
      `${ws.dir}/https.yaml`,
      [`issuer: https://login.example.org`, `secrets:`, `  cookieKeys: ["${'k'.repeat(43)}"]`, `  pairwiseSalt: "${'s'.repeat(43)}"`].join(
        '\n',
      ),
    );
    const result = await cli(['fedcm', 'well-known', '--config', `${ws.dir}/https.yaml`]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ provider_urls: ['https://login.example.org/fedcm/config.json'] });
    expect(result.stderr).toContain('registrable domain of login.example.org');
    expect((await cli(['fedcm', 'well-known', '--config', ws.config])).code).toBe(1);
  });

  it('lists and sets the FedCM origins of an application, checked as redirect URIs', async () => {
    const created = await cli([...CLIENT_ARGS, '--json', '--config', ws.config]);
    expect(created.code, created.stderr).toBe(0);
    const clientId = (JSON.parse(created.stdout) as { client_id: string }).client_id;
    const listed = await cli(['client', 'fedcm-origins', clientId, '--config', ws.config]);
    expect(listed.stdout.trim()).toBe('https://notes.example');
    const set = await cli(['client', 'fedcm-origins', clientId, '--origin', 'https://www.notes.example', '--json', '--config', ws.config]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      added: ['https://www.notes.example'],
      origins: ['https://notes.example', 'https://www.notes.example'],
    });
    expect(set.log.some((line) => line.event === 'application.changed')).toBe(true);
    const refused = await cli(['client', 'fedcm-origins', clientId, '--origin', 'http://notes.example', '--config', ws.config]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--fedcm-origin');
    const cleared = await cli(['client', 'fedcm-origins', clientId, '--clear', '--config', ws.config]);
    expect(cleared.stdout.trim()).toBe('https://notes.example');
  });
});
