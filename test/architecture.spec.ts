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
    return full.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(full) && !/src\/(.+\/)?testing\//.test(full) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] as string);
}

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
          if (spec.startsWith('.') && path.resolve(path.dirname(file), spec).startsWith(path.join(ROOT, project.dir)) === false) violations.push(`${where} (reaches outside its project)`);
          const target = spec.startsWith('@sitemaps/') ? byName.get(spec.split('/').slice(0, 2).join('/')) : undefined;
          if (target && target !== project && !ALLOWED[project.tag].includes(target.tag)) violations.push(`${where} (${project.tag} may not import ${target.tag})`);
          if (project.tag === 'type:domain' && PURE_FORBIDDEN.test(spec)) violations.push(`${where} (domain libraries stay free of frameworks and I/O)`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
