// docs/operations/container.md describes the Dockerfile and compose.yaml as they are: a change to either
// that the page does not follow fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const page = readFileSync('docs/operations/container.md', 'utf8');
const dockerfile = readFileSync('Dockerfile', 'utf8').replace(/\\\n\s*/g, ' ');
const composeText = readFileSync('compose.yaml', 'utf8');
const compose = parse(composeText, { merge: true }) as { services: Record<string, { image?: string; stop_grace_period?: string }> };

const one = (pattern: RegExp, text = dockerfile): string => {
  const found = pattern.exec(text)?.[1];
  if (!found) throw new Error(`${pattern} matches nothing`);
  return found;
};

describe('the container page', () => {
  it("names the Dockerfile's base image, volumes, user, port, settings, health check and command", () => {
    expect(page).toContain(`\`NODE_IMAGE\` | \`${one(/^ARG NODE_IMAGE=(\S+)/m)}\``);
    for (const volume of JSON.parse(one(/^VOLUME (\[.*\])/m)) as string[]) expect(page).toContain(`| \`${volume}\` |`);
    const workdir = [...dockerfile.matchAll(/^WORKDIR (\S+)/gm)].map((m) => m[1]).at(-1);
    expect(page).toContain(`| \`${workdir}\` | volume and working directory`);
    expect(page).toContain(`\`${one(/^USER (\w+):/m)}\`, uid and gid \`${one(/useradd [^&]*--uid (\d+)/)}\``);
    expect(page).toContain(`\`PORT\` | \`${one(/PORT=(\d+)/)}\``);
    expect(page).toContain(`(\`EXPOSE ${one(/^EXPOSE (\d+)/m)}\`)`);
    expect(page).toContain(`\`${one(/SIGNIN_CONFIG=(\S+)/)}\` (\`SIGNIN_CONFIG\`)`);
    expect(page).toContain(`\`NODE_ENV\` | \`${one(/NODE_ENV=(\S+)/)}\``);
    const health = one(/^HEALTHCHECK (.*)$/m);
    expect(health).toContain('/readyz');
    const [interval, timeout, start, retries] = ['interval', 'timeout', 'start-period', 'retries'].map((o) =>
      one(new RegExp(`--${o}=(\\w+)`), health),
    );
    expect(page).toContain(
      `every ${interval.replace('s', ' s')} (${timeout.replace('s', ' s')} timeout, ${retries} failures, ${start.replace('s', ' s')} to start)`,
    );
    const command = (JSON.parse(one(/^CMD (\[.*\])/m)) as string[]).join(' ');
    expect(page).toContain(`| command | \`${command}\``);
  });

  it("names compose.yaml's services, their images, the stop grace and every variable it requires", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(page).toContain(`| \`${name}\` |`);
      if (service.image && !service.image.startsWith('signin-service')) expect(page).toContain(`\`${service.image}\``);
      if (service.stop_grace_period) expect(page).toContain(`\`stop_grace_period: ${service.stop_grace_period}\``);
    }
    const required = new Set([...composeText.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]));
    expect(required.size).toBeGreaterThan(5);
    for (const name of required) expect(page).toContain(`\`${name}\``);
  });
});
