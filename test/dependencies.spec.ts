// package.json says what production installs (`npm ci --omit=dev`): every package the apps load
// at run time is a dependency, and everything else is a devDependency or gone. The imports are
// read from the entry points production runs (the three apps and the migration CLI), following
// relative and workspace imports; test/production-install.e2e-spec.ts then boots that install.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
/** What production runs or hands to other programs: every app's main (the CLI's too), the migration CLI, the API client. */
const appMain = (app: string) =>
  (JSON.parse(readFileSync(path.join(ROOT, 'apps', app, 'package.json'), 'utf8')) as { main: string }).main;
const ENTRY_POINTS = [
  ...readdirSync(path.join(ROOT, 'apps')).map((app) => `apps/${app}/${appMain(app)}`),
  'libs/data/src/migrate/migrate.cli.ts',
  'libs/client/src/index.ts',
].filter((entry) => existsSync(path.join(ROOT, entry)));

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
const builtins = new Set(builtinModules);

function workspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const group of ['apps', 'libs']) {
    for (const name of readdirSync(path.join(ROOT, group))) {
      const pkg = JSON.parse(readFileSync(path.join(ROOT, group, name, 'package.json'), 'utf8')) as {
        name: string;
        main: string;
      };
      // A project without a main (the console: a browser bundle built by Vite) loads nothing in production.
      if (pkg.main) entries.set(pkg.name, path.join(ROOT, group, name, pkg.main));
    }
  }
  return entries;
}

/** Module specifiers a file loads at run time: `import type` and `export type` load nothing. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/^\s*import\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*export\s+(?!type\s)[*{][^'";]*?\sfrom\s*['"]([^'"]+)['"]/gm),
    // `require.resolve` too: a package resolved here is loaded elsewhere (a worker thread, an engine).
    ...text.matchAll(/(?:\bimport|\brequire|\brequire\.resolve)\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return specs.map((m) => m[1] as string);
}

function resolveRelative(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  throw new Error(`${path.relative(ROOT, from)}: cannot resolve ${spec}`);
}

const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** Packages the production entry points load, with one file that loads each. */
function packagesLoadedInProduction(): Map<string, string> {
  const workspaces = workspaceEntries();
  const loaded = new Map<string, string>();
  const seen = new Set<string>();
  const queue = ENTRY_POINTS.map((entry) => path.join(ROOT, entry));
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith('.')) queue.push(resolveRelative(file, spec));
      else if (spec.startsWith('@sitemaps/'))
        queue.push(workspaces.get(packageOf(spec)) ?? path.join(ROOT, 'missing', spec));
      else if (!spec.startsWith('node:') && !builtins.has(spec)) loaded.set(packageOf(spec), path.relative(ROOT, file));
    }
  }
  return loaded;
}

function peersOf(name: string): string[] {
  const file = path.join(ROOT, 'node_modules', name, 'package.json');
  return Object.keys((JSON.parse(readFileSync(file, 'utf8')) as Manifest).peerDependencies ?? {});
}

/** Every text the repository runs or configures itself with, where a tool is named. */
function repositoryText(): string {
  const skip = new Set(['node_modules', 'dist', '.data', '.git', 'generated', 'package-lock.json']);
  const read = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      if (skip.has(entry)) return [];
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) return read(full);
      return /\.(ts|tsx|mts|js|mjs|cjs|json|yml|sh)$|^Dockerfile$|^run$/.test(entry) && entry !== 'package.json'
        ? [readFileSync(full, 'utf8')]
        : [];
    });
  return [...read(ROOT), JSON.stringify(manifest.scripts)].join('\n');
}

describe('dependencies', () => {
  const loaded = packagesLoadedInProduction();

  it('lists every package production loads under dependencies, not devDependencies', () => {
    const missing = [...loaded]
      .filter(([name]) => !(name in manifest.dependencies))
      .map(([name, file]) => `${name} (loaded by ${file})`);
    expect(missing).toEqual([]);
  });

  it('keeps under dependencies only what production loads, or what a loaded package needs as a peer', () => {
    const peers = new Set([...loaded.keys()].flatMap(peersOf));
    const unneeded = Object.keys(manifest.dependencies).filter((name) => !loaded.has(name) && !peers.has(name));
    expect(unneeded).toEqual([]);
  });

  it('has no devDependency that nothing in the repository uses', () => {
    const text = repositoryText();
    const all = { ...manifest.dependencies, ...manifest.devDependencies };
    const unused = Object.keys(manifest.devDependencies).filter((name) => {
      const typed = /^@types\/(.+)$/.exec(name)?.[1];
      if (typed)
        return (
          typed !== 'node' &&
          !(typed.replace('__', '/').replace(/^(?!@)(.+)\/(.+)$/, '@$1/$2') in all) &&
          !(typed in all)
        );
      return ["'", '"', ' ', '/'].every((before) => !text.includes(`${before}${name}`));
    });
    expect(unused).toEqual([]);
  });

  it('keeps @prisma/client and the prisma CLI on one version', () => {
    expect(manifest.devDependencies.prisma).toBe(manifest.dependencies['@prisma/client']);
    expect(manifest.dependencies['@prisma/client']).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
