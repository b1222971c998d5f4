// The console (apps/console) is static files built by `npm run build`; the API serves them under
// /console so there is no server of its own to run. It talks to the API from the same origin,
// with a person's session cookie or a tenant's key: nothing here authenticates or renders.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

export const CONSOLE_PATH = '/console';

/** No inline script or style anywhere; not framable (clickjacking); forms post only here. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** dist/console beside the compiled API (dist/apps/api/src/console), or the repository's dist/ when run from source. */
export function defaultConsoleDir(): string {
  const besideBuild = path.resolve(__dirname, '../../../../console');
  return existsSync(path.join(besideBuild, 'index.html'))
    ? besideBuild
    : path.resolve(__dirname, '../../../../dist/console');
}

export async function serveConsole(app: NestFastifyApplication, dir: string = defaultConsoleDir()): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  if (!existsSync(path.join(dir, 'index.html'))) {
    // Not built: say so instead of a bare 404, and keep the API itself up.
    fastify.get(`${CONSOLE_PATH}*`, async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built: run `npm run build` (or set CONSOLE_DIR to a built console).\n'),
    );
    return;
  }
  // Relative asset paths need the trailing slash.
  fastify.get(CONSOLE_PATH, async (_request, reply) => reply.redirect(`${CONSOLE_PATH}/`, 301));
  await app.register(fastifyStatic, {
    root: dir,
    prefix: `${CONSOLE_PATH}/`,
    // Swagger UI registers @fastify/static too; one reply.sendFile decorator is enough.
    decorateReply: false,
    // Hashed assets never change; index.html is revalidated so a new build is picked up.
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.header('x-content-type-options', 'nosniff');
      res.header('content-security-policy', CONSOLE_CSP);
      // Links out of the console carry no invitation or reset token in a Referer.
      res.header('referrer-policy', 'no-referrer');
      res.header('x-frame-options', 'DENY');
      res.header('cross-origin-opener-policy', 'same-origin');
    },
  });
}
