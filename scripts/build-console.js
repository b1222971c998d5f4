#!/usr/bin/env node
// Builds the console (apps/console, React + Vite) into <out>/console: static files the API
// serves under /console. Run by scripts/build.js; `node scripts/build-console.js --out-dir <dir>`
// alone writes <dir>/console (the console's e2e test builds into a temporary folder).
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/**
 * Writes the console's build into `outDir`; resolves with its number of files. Vite and the React
 * plugin follow NODE_ENV: React's production build needs it unset or `production`, so a process
 * that has it otherwise (vitest sets `test`) runs this file as a child process instead.
 */
async function buildConsole(outDir) {
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  const output = await build({
    configFile: path.join(ROOT, 'apps/console/vite.config.mts'),
    logLevel: 'warn',
    mode: 'production',
    build: { outDir, emptyOutDir: true },
  });
  return [output].flat().reduce((count, result) => count + ('output' in result ? result.output.length : 0), 0);
}

module.exports = { buildConsole };

if (require.main === module) {
  const outDirArg = process.argv.indexOf('--out-dir');
  const out = outDirArg === -1 ? path.join(ROOT, 'dist') : path.resolve(process.argv[outDirArg + 1] ?? 'dist');
  const started = Date.now();
  buildConsole(path.join(out, 'console'))
    .then((files) =>
      console.log(
        `built the console (${files} files) into ${path.relative(process.cwd(), path.join(out, 'console'))} in ${Date.now() - started} ms`,
      ),
    )
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
