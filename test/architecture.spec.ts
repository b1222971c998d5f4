// The arrows between projects point one way. Nx tags in each project.json say what a project
// is; this test reads every import and fails on one that breaks the rules below.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
type Tag = 'type:app' | 'type:data' | 'type:domain' | 'type:util' | 'type:testing';

/** Which project kinds a kind may import. */
const ALLOWED: Record<Tag, Tag[]> = {
  'type:domain': ['type:domain'],
  'type:util': ['type:util'],
  'type:data': ['type:domain', 'type:data', 'type:util'],
  'type:testing': ['type:domain', 'type:data', 'type:util'],
  'type:app': ['type:domain', 'type:data', 'type:util'],
};
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

/**
 * Database access: raw SQL (pg's `query`, COPY streams) and Prisma client calls. They belong in
 * repositories: any file of libs/data, or a `*.repository.ts` of another data library (the lib
 * whose aggregate it is, e.g. storage's blobs).
 */
const DATABASE_ACCESS = [
  /\.query(<[^>()]*>)?\(/,
  /\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)\b/,
  /\.(tenant|apiKey|site|url|shard|build|shardRender|manifest|blob|import|importRejection|pendingAlternate)\.(findMany|findFirst|findUnique|findFirstOrThrow|findUniqueOrThrow|create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany|count|aggregate|groupBy)\(/,
  /from 'pg-copy-streams'/,
];
/** Database access that stays outside repositories, and why. */
const DATABASE_ACCESS_ALLOWED = new Map<string, string>([
  ['libs/local-services/src/local-services.ts', 'creates the embedded database itself, before any schema exists'],
  ['libs/health/src/readiness.ts', 'the readiness probe: SELECT 1 on the pool it is given'],
]);
/**
 * Files that still hold queries, being moved into repositories (issue 16). The list only
 * shrinks: a file here that no longer queries fails the test until it is taken off.
 */
const DATABASE_ACCESS_TO_MOVE = new Set<string>([
  'apps/worker/src/imports/sitemap-import.processors.ts',
  'apps/worker/src/indexnow/indexnow-submitter.ts',
  'apps/worker/src/indexnow/indexnow-drainer.ts',
  'apps/worker/src/maintenance/shard-compactor.ts',
  'apps/api/src/imports/imports.service.ts',
  'libs/storage/src/manifest.reader.ts',
  'libs/storage/src/postgres-blob.store.ts',
  'libs/storage/src/fs-blob.store.ts',
  'libs/storage/src/s3-blob.store.ts',
  'libs/ingest/src/url-ingest.service.ts',
  'libs/ingest/src/url-batch.writer.ts',
  'libs/ingest/src/pg-copy.ts',
  'libs/ingest/src/imports/url-import.service.ts',
]);

function isRepository(project: Project, file: string): boolean {
  return project.dir === path.join('libs', 'data') || (project.tag === 'type:data' && file.endsWith('.repository.ts'));
}

/** Test helpers (factories, the test database) write rows as a test needs them. */
const mayQuery = (project: Project, file: string) =>
  isRepository(project, file) || project.tag === 'type:testing' || DATABASE_ACCESS_ALLOWED.has(file);

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
    const moved: string[] = [];
    for (const project of all) {
      for (const file of sourceFiles(path.join(ROOT, project.dir, 'src'))) {
        const relative = path.relative(ROOT, file);
        const text = readFileSync(file, 'utf8');
        const queries = DATABASE_ACCESS.some((pattern) => pattern.test(text));
        if (DATABASE_ACCESS_TO_MOVE.has(relative)) {
          if (!queries) moved.push(`${relative} no longer queries: take it off DATABASE_ACCESS_TO_MOVE`);
          continue;
        }
        if (queries && !mayQuery(project, relative)) {
          outside.push(
            `${relative} queries the database outside a repository (libs/data, or a *.repository.ts of a data lib)`,
          );
        }
      }
    }
    expect(outside).toEqual([]);
    expect(moved).toEqual([]);
  });
});
