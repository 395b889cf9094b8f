// Every page template becomes HTML here, through koa-views (`ctx.render`). The middleware is installed
// on the service's app and on the engine's own (see service.ts), so that our routes and the engine's
// hooks (renderError, the logout pages) render through the same path.
import { fileURLToPath } from 'node:url';
import ejs from 'ejs';
import type Koa from 'koa';
import views from 'koa-views';

export const VIEWS_DIR = fileURLToPath(new URL('../../views/', import.meta.url));

/**
 * The one place a page template is rendered. koa-views' default engine (consolidate) would also hand
 * every local to ejs as a compile option, and some locals share their names with ejs options
 * (`client`, `root`): this engine keeps the data and the options apart.
 */
function renderTemplate(file: string, locals: object): Promise<string> {
  // Compiled templates are kept in memory; only a development server re-reads them on each request.
  return ejs.renderFile(file, locals, { cache: process.env.NODE_ENV !== 'development' });
}

/**
 * Adds `ctx.render(view, locals)` for the templates under views/. (koa-views writes every local to its
 * `debug` log when DEBUG=koa-views is set, a portal page's new client secret included: never set it
 * on a server with real users.)
 */
export function pageViews(): Koa.Middleware {
  return views(VIEWS_DIR, { extension: 'ejs', engineSource: { ejs: renderTemplate } });
}
