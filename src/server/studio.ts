/**
 * Serves Colloquy Studio, the browser UI built from `studio/` into `dist/studio/`: the page at `/`
 * and `/studio`, its files under `/studio/assets/`. The page and its files need no API key (they
 * hold no data); the page asks for the key and sends it with every API request.
 * @module
 */
import { readEnv } from '../env.js';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

/** Where a build of the studio may be: next to the compiled server, or in a source checkout. */
function candidateDirs(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [
    path.resolve(here, '..', 'studio'), // dist/server → dist/studio
    path.resolve(here, '..', '..', 'dist', 'studio'), // src/server → dist/studio
  ];
}

/** The directory holding the built studio (`index.html` and `assets/`), or undefined if it is not built. */
export function findStudioDir(
  env: NodeJS.ProcessEnv = process.env,
  candidates: string[] = candidateDirs(),
): string | undefined {
  const configured = readEnv('COLLOQUY_STUDIO_DIR', env);
  const dirs = configured ? [path.resolve(configured)] : candidates;
  return dirs.find((dir) => existsSync(path.join(dir, 'index.html')));
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Colloquy Studio is not built</title>
<body style="font:16px system-ui;max-width:40em;margin:3em auto">
<h1>Colloquy Studio is not built</h1>
<p>This server found no <code>dist/studio/index.html</code>. In a source checkout, run
<code>npm run build:studio</code> and reload (the published package ships it built).
The API itself works: try <a href="/agencies">/agencies</a>.</p></body>`;

/** Options of {@link studioRoutes}. */
export interface StudioRoutesOptions {
  /** The built studio (default: {@link findStudioDir}); null serves a page saying how to build it. */
  dir?: string | null;
}

/** Routes serving the studio: `/`, `/studio`, `/studio/` and `/studio/assets/*`. */
export function studioRoutes(options: StudioRoutesOptions = {}): Hono {
  const app = new Hono();
  const dir = options.dir === undefined ? findStudioDir() : options.dir;
  let page: Promise<string> | undefined;
  const index = async (c: import('hono').Context) => {
    if (!dir) return c.html(NOT_BUILT, 404);
    page ??= readFile(path.join(dir, 'index.html'), 'utf8');
    c.header('Cache-Control', 'no-cache');
    return c.html(await page);
  };
  app.get('/', index);
  app.get('/studio', index);
  app.get('/studio/', index);
  if (dir) {
    app.use('/studio/assets/*', async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
    });
    app.get(
      '/studio/assets/*',
      serveStatic({ root: dir, rewriteRequestPath: (p) => p.replace(/^\/studio/, '') }),
    );
  }
  return app;
}
