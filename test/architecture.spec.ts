// The arrows between projects point one way. Nx tags in each project.json say what a project
// is; this test reads every import and fails on one that breaks the rules below.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
type Tag = 'type:app' | 'type:wiring' | 'type:data' | 'type:domain' | 'type:util' | 'type:testing';

/** Which project kinds a kind may import. */
const ALLOWED: Record<Tag, Tag[]> = {
  'type:domain': ['type:domain'],
  'type:util': ['type:util'],
  'type:data': ['type:domain', 'type:data', 'type:util'],
  'type:testing': ['type:domain', 'type:data', 'type:util'],
  // The Nest wiring the apps share (libs/core): it may use every lib an app may, apps may use it.
  'type:wiring': ['type:domain', 'type:data', 'type:util'],
  'type:app': ['type:domain', 'type:data', 'type:util', 'type:wiring'],
};
/**
 * Roles a file name ends with, after a dot: `blob.store.ts`, `build.processors.ts`. A name without
 * one stays plain kebab-case (`shard-planner.ts`, `retry-after.ts`).
 */
const FILE_ROLES = new Set(
  (
    'controller service module repository resolver processor processors producer guard filter interceptor ' +
    'decorator parser reader writer validator formatter schema schemas rules policy providers importer store ' +
    'server errors metrics renderer publisher reconciler compactor sender submitter drainer flusher verifier ' +
    'authenticator hasher collector'
  ).split(' '),
);
/** Pure libraries: no framework, no database, no queue. */
const PURE_FORBIDDEN = /^(@nestjs\/|@prisma\/|pg$|pg-|ioredis|bullmq|fastify)/;

interface Project {
  name: string;
  dir: string;
  tag: Tag;
}

function projects(): Project[] {
  return ['apps', 'libs'].flatMap((group) =>
    readdirSync(path.join(ROOT, group)).map((name) => {
      const dir = path.join(group, name);
      const manifest = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as { name: string };
      const project = JSON.parse(readFileSync(path.join(ROOT, dir, 'project.json'), 'utf8')) as { tags: string[] };
      const tag = project.tags.find((t) => t.startsWith('type:')) as Tag;
      return { name: manifest.name, dir, tag };
    }),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return entry === 'generated' ? [] : sourceFiles(full);
    // Test-only code: spec files and `src/**/testing/` helper folders.
    return full.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(full) && !/src\/(.+\/)?testing\//.test(full)
      ? [full]
      : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] as string);
}

/** Prisma's model accessors (`prisma.url`, `tx.importWarning`): every model of the schema, first letter lowered. */
const MODELS = [...readFileSync(path.join(ROOT, 'prisma/schema.prisma'), 'utf8').matchAll(/^model (\w+)/gm)].map(
  (m) => (m[1] as string).charAt(0).toLowerCase() + (m[1] as string).slice(1),
);
const MODEL_METHODS =
  'findMany|findFirst|findUnique|findFirstOrThrow|findUniqueOrThrow|create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany|count|aggregate|groupBy';

/**
 * Database access: raw SQL (pg's `query`, COPY streams) and Prisma client calls. They belong in
 * repositories: any file of libs/data, or a `*.repository.ts` of another data library (the lib
 * whose aggregate it is, e.g. storage's blobs). Matched against the source with all whitespace
 * removed, so a call split over lines (`this.prisma.url\n  .findMany(`) is caught like one on one line.
 */
const DATABASE_ACCESS = [
  /\.query(<[^()]*?>)?\(/,
  /\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|queryRawTyped|transaction)\b/,
  new RegExp(`\\.(${MODELS.join('|')})\\.(${MODEL_METHODS})(<[^()]*?>)?\\(`),
  /['"]pg-copy-streams['"]/,
];

/** Whether source text queries the database. */
function queriesDatabase(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  return DATABASE_ACCESS.some((pattern) => pattern.test(compact));
}

/** Database access that stays outside repositories, and why. */
const DATABASE_ACCESS_ALLOWED = new Map<string, string>([
  ['libs/local-services/src/local-services.ts', 'creates the embedded database itself, before any schema exists'],
  ['libs/health/src/readiness.ts', 'the readiness probe: SELECT 1 on the pool it is given'],
]);

function isRepository(project: Project, file: string): boolean {
  return project.dir === path.join('libs', 'data') || (project.tag === 'type:data' && file.endsWith('.repository.ts'));
}

/** Test helpers (factories, the test database) write rows as a test needs them. */
const mayQuery = (project: Project, file: string) =>
  isRepository(project, file) || project.tag === 'type:testing' || DATABASE_ACCESS_ALLOWED.has(file);

describe('database access matcher', () => {
  it.each([
    ['a call split over lines', 'const rows = await this.prisma.url\n      .findMany({ where });'],
    ['a call through a transaction client', 'await prisma.$transaction(async (tx) => tx.url.findMany({}));'],
    [
      'a transaction client passed in',
      'async function f(db: Prisma.TransactionClient) { await db.importWarning.count(); }',
    ],
    ['a model outside the old list', 'await this.prisma.webhookDelivery.updateMany({ data });'],
    ['a typed pg query', 'await db.query<Array<{ id: string }>>(sql, [id]);'],
    ['a pg query split over lines', 'await this.pool\n  .query(\n `SELECT 1`);'],
    ['raw SQL', 'await prisma.$queryRaw`SELECT 1`;'],
    ['a COPY stream', "import { from as copyFrom } from 'pg-copy-streams';"],
  ])('catches %s', (_what, source) => {
    expect(queriesDatabase(source)).toBe(true);
  });

  it.each([
    ['a repository call', 'await this.urls.list(siteId, filter, page);'],
    ['a URL object', 'url.searchParams.delete("a"); new URL(href).toString();'],
    ['a map', 'this.sites.delete(hostname); shards.count;'],
  ])('passes %s', (_what, source) => {
    expect(queriesDatabase(source)).toBe(false);
  });
});

describe('architecture', () => {
  const all = projects();
  const byName = new Map(all.map((p) => [p.name, p]));

  it('tags every project', () => {
    for (const project of all) expect(ALLOWED[project.tag], project.dir).toBeDefined();
  });

  it('keeps imports between projects pointing one way, and test helpers out of production code', () => {
    const violations: string[] = [];
    for (const project of all) {
      for (const file of sourceFiles(path.join(ROOT, project.dir, 'src'))) {
        for (const spec of importsOf(file)) {
          const where = `${path.relative(ROOT, file)} imports ${spec}`;
          if (
            spec.startsWith('.') &&
            path.resolve(path.dirname(file), spec).startsWith(path.join(ROOT, project.dir)) === false
          )
            violations.push(`${where} (reaches outside its project)`);
          const target = spec.startsWith('@sitemaps/') ? byName.get(spec.split('/').slice(0, 2).join('/')) : undefined;
          if (target && target !== project && !ALLOWED[project.tag].includes(target.tag))
            violations.push(`${where} (${project.tag} may not import ${target.tag})`);
          if (project.tag === 'type:domain' && PURE_FORBIDDEN.test(spec))
            violations.push(`${where} (domain libraries stay free of frameworks and I/O)`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps SQL and Prisma calls in repositories', () => {
    const outside: string[] = [];
    for (const project of all) {
      for (const file of sourceFiles(path.join(ROOT, project.dir, 'src'))) {
        const relative = path.relative(ROOT, file);
        if (queriesDatabase(readFileSync(file, 'utf8')) && !mayQuery(project, relative)) {
          outside.push(
            `${relative} queries the database outside a repository (libs/data, or a *.repository.ts of a data lib)`,
          );
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it('names files kebab-case with their role after a dot (site.repository.ts, not site-repository.ts)', () => {
    const misnamed = [...sourceFiles(path.join(ROOT, 'apps')), ...sourceFiles(path.join(ROOT, 'libs'))]
      .map((file) => path.relative(ROOT, file))
      .filter((file) => !file.includes('/generated/'))
      .filter((file) => {
        const stem = path.basename(file).replace(/(\.spec|\.int-spec|\.e2e-spec)?\.tsx?$/, '');
        return (
          !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/.test(stem) ||
          FILE_ROLES.has(stem.split('-').pop() ?? '')
        );
      });
    expect(misnamed).toEqual([]);
  });
});
