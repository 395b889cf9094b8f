// The Node image the container tests build the service's image on, made without a registry: Debian
// bookworm from the machine's own Debian mirror (debootstrap, then `podman import`), with the Node that
// runs these tests and npm copied in where the official images have them (/usr/local). Cached between
// runs: the Debian root file system under CACHE_DIR, the images in podman's own store, keyed by the
// Node version.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { CACHE_DIR, imageExists, podman } from './podman.ts';

const SUITE = 'bookworm';
const DEBIAN_IMAGE = `localhost/signin-test-debian:${SUITE}`;

/** The tag of a Debian image with this process's Node and npm, built now unless podman already has it. */
export function nodeBaseImage(): string {
  const tag = `localhost/signin-test-node:${process.version}`;
  if (imageExists(tag)) return tag;
  if (!imageExists(DEBIAN_IMAGE)) podman(['import', debianRootfs(), DEBIAN_IMAGE]);

  const context = join(CACHE_DIR, `node-${process.version}`);
  rmSync(context, { recursive: true, force: true });
  mkdirSync(context, { recursive: true });
  copyFileSync(process.execPath, join(context, 'node'));
  cpSync(npmPackageDir(), join(context, 'npm'), { recursive: true, dereference: true });
  // The certificate authorities this machine trusts: where its outgoing HTTPS goes through a proxy of its
  // own, npm inside the build reaches the registry only with them. Node reads them from
  // NODE_EXTRA_CA_CERTS on top of its own.
  const caBundle = hostCaBundle();
  if (caBundle) copyFileSync(caBundle, join(context, 'ca-certificates.crt'));
  writeFileSync(
    join(context, 'Containerfile'),
    [
      `FROM ${DEBIAN_IMAGE}`,
      ...(caBundle
        ? ['COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt', 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt']
        : []),
      'COPY node /usr/local/bin/node',
      'COPY npm /usr/local/lib/node_modules/npm',
      'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx && node --version && npm --version',
      'CMD ["node"]',
      '',
    ].join('\n'),
  );
  podman(['build', '--network=host', '--tag', tag, '--file', join(context, 'Containerfile'), context]);
  rmSync(context, { recursive: true, force: true });
  return tag;
}

/** A tarball of a minimal Debian root file system, made once with debootstrap. */
function debianRootfs(): string {
  const tarball = join(CACHE_DIR, `debian-${SUITE}-minbase.tar`);
  if (existsSync(tarball)) return tarball;
  const root = join(CACHE_DIR, `debian-${SUITE}-rootfs`);
  rmSync(root, { recursive: true, force: true });
  execFileSync('debootstrap', ['--variant=minbase', SUITE, root, debianMirror()], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 900_000,
  });
  slim(root);
  execFileSync('tar', ['--numeric-owner', '-C', root, '-cf', `${tarball}.partial`, '.']);
  renameSync(`${tarball}.partial`, tarball);
  rmSync(root, { recursive: true, force: true });
  return tarball;
}

/**
 * What Debian's own `-slim` images leave out (the official Node images start from them): documentation
 * but its copyright files, manual pages, translations; apt's package lists and downloaded packages.
 */
function slim(root: string): void {
  execFileSync('find', [join(root, 'usr/share/doc'), '-type', 'f', '!', '-name', 'copyright', '-delete']);
  execFileSync('find', [
    join(root, 'usr/share/locale'),
    '-mindepth',
    '1',
    '-maxdepth',
    '1',
    '!',
    '-name',
    'locale.alias',
    '-exec',
    'rm',
    '-rf',
    '{}',
    '+',
  ]);
  for (const dir of ['usr/share/man', 'usr/share/info']) rmSync(join(root, dir), { recursive: true, force: true });
  execFileSync('find', [join(root, 'var/cache/apt'), join(root, 'var/lib/apt/lists'), '-type', 'f', '-delete']);
}

/** The Debian mirror apt is configured with on this machine (deb822 or one-line sources). */
function debianMirror(): string {
  const files = ['/etc/apt/sources.list', ...listDir('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f))];
  for (const file of files.filter((f) => /\.(list|sources)$/.test(f) && existsSync(f))) {
    const text = readFileSync(file, 'utf8');
    const deb822 = [...text.matchAll(/^URIs:\s*(\S+)/gm)].map((m) => m[1]);
    const oneLine = [...text.matchAll(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+\S+/gm)].map((m) => m[1]);
    const mirror = [...deb822, ...oneLine].find((uri) => /\/debian\/?$/.test(uri));
    if (mirror) return mirror;
  }
  return 'http://deb.debian.org/debian';
}

function listDir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** npm's own package folder, of the npm on PATH. */
function npmPackageDir(): string {
  const cli = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  return dirname(dirname(cli));
}

function hostCaBundle(): string | undefined {
  return [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt'].find((file) => file && existsSync(file));
}
