#!/usr/bin/env node
// Compiles apps/ and libs/ to JavaScript under dist/ with SWC, so the apps run on plain Node
// (no TypeScript compiler in memory at run time: about 70 MB less per process). Imports of
// workspace packages (`@sitemaps/x`) become relative paths, so dist/ needs no linking.
// Type checking is `npm run typecheck`; this only transpiles.
// `node scripts/build.js --out-dir <dir>` writes elsewhere than dist/ (the production install test).
const { transformFile } = require('@swc/core');
const { buildConsole } = require('./build-console');
const { mkdir, readdir, writeFile, rm, cp } = require('node:fs/promises');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const outDirArg = process.argv.indexOf('--out-dir');
const CONSOLE_SRC = path.join(ROOT, 'apps/console');
const OUT = outDirArg === -1 ? path.join(ROOT, 'dist') : path.resolve(process.argv[outDirArg + 1] ?? 'dist');

async function sources(dir) {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      // apps/console is a browser app: Vite builds it (build-console.js), not SWC.
      if (entry.isDirectory()) return entry.name === 'node_modules' || full === CONSOLE_SRC ? [] : sources(full);
      return /\.ts$/.test(entry.name) &&
        !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name) &&
        !entry.name.endsWith('.d.ts')
        ? [full]
        : [];
    }),
  );
  return nested.flat();
}

async function workspacePaths() {
  const paths = {};
  for (const group of ['apps', 'libs']) {
    for (const name of await readdir(path.join(ROOT, group))) {
      const manifest = require(path.join(ROOT, group, name, 'package.json'));
      paths[manifest.name] = [`./${group}/${name}/${manifest.main}`];
    }
  }
  return paths;
}

async function main() {
  const started = Date.now();
  await rm(OUT, { recursive: true, force: true });
  const paths = await workspacePaths();
  const files = (await Promise.all(['apps', 'libs'].map((group) => sources(path.join(ROOT, group))))).flat();
  await Promise.all(
    files.map(async (file) => {
      const { code } = await transformFile(file, {
        swcrc: false,
        sourceMaps: false,
        module: { type: 'commonjs', ignoreDynamic: true },
        jsc: {
          target: 'es2022',
          baseUrl: ROOT,
          paths,
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          keepClassNames: true,
        },
      });
      const target = path.join(OUT, path.relative(ROOT, file)).replace(/\.ts$/, '.js');
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, code);
    }),
  );
  // Files the code reads beside itself at run time.
  await cp(path.join(ROOT, 'prisma'), path.join(OUT, 'prisma'), { recursive: true });
  await cp(path.join(ROOT, 'libs/sitemap-xml/schemas'), path.join(OUT, 'libs/sitemap-xml/schemas'), {
    recursive: true,
  });
  const consoleFiles = await buildConsole(path.join(OUT, 'console'));
  console.log(
    `built ${files.length} files and the console (${consoleFiles} files) into ${path.relative(process.cwd(), OUT) || '.'} in ${Date.now() - started} ms`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
