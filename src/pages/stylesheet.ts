// The one stylesheet of the pages, read once. Its URL carries a hash of its content, so browsers may
// cache it for a year and still get a new version the moment it changes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const STYLESHEET_PATH = '/static/app.css';
const file = new URL('../../views/static/app.css', import.meta.url);

export interface Stylesheet {
  body: Buffer;
  /** Path of the stylesheet with its content hash, relative to where the service is mounted. */
  href: string;
  etag: string;
}

let loaded: Stylesheet | undefined;

export function stylesheet(): Stylesheet {
  if (!loaded) {
    const body = readFileSync(file);
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
    loaded = { body, href: `${STYLESHEET_PATH}?v=${hash}`, etag: `"${hash}"` };
  }
  return loaded;
}
