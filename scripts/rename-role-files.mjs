/* global process, console */
// One-off: the file-naming rename of issue 31 (kebab-case name, role after a dot, as STYLE.md's
// `site.repository.ts`, `build.processor.ts`). Renames `x-role.ts` to `x.role.ts` where the last
// word is a role from ROLES (with its .spec/.int-spec/.e2e-spec twin), then rewrites every
// reference to the old path in the tracked text files: relative imports (`./blob-store`), paths in
// tests, configs, scripts and docs. Dry run by default; `--apply` runs `git mv` and the rewrites.
//   node scripts/rename-role-files.mjs            # prints the renames and the files it would edit
//   node scripts/rename-role-files.mjs --apply && npx tsc -p tsconfig.json --noEmit && npm run lint
// Run it last, on main after the merges, in one commit; then delete this script.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const ROLES = new Set([
  'controller',
  'service',
  'module',
  'repository',
  'resolver',
  'processor',
  'processors',
  'producer',
  'guard',
  'filter',
  'interceptor',
  'decorator',
  'parser',
  'reader',
  'writer',
  'validator',
  'formatter',
  'schema',
  'schemas',
  'rules',
  'policy',
  'tokens',
  'providers',
  'importer',
  'store',
  'server',
  'errors',
  'metrics',
  'renderer',
  'planner',
  'publisher',
  'reconciler',
  'compactor',
  'sender',
  'submitter',
  'drainer',
  'flusher',
  'verifier',
  'authenticator',
  'hasher',
  'collector',
]);
const TEST = /(\.spec|\.int-spec|\.e2e-spec|\.bench)?\.(ts|tsx)$/;
const apply = process.argv.includes('--apply');
const tracked = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);

const renames = [];
for (const file of tracked) {
  if (!/^(apps|libs|scripts|bench|test)\//.test(file) || file.includes('/generated/')) continue;
  const [stem, suffix] = [basename(file).replace(TEST, ''), basename(file).match(TEST)?.[0]];
  if (!suffix || stem.includes('.') || !stem.includes('-')) continue;
  const cut = stem.lastIndexOf('-');
  if (!ROLES.has(stem.slice(cut + 1))) continue;
  renames.push([file, join(dirname(file), `${stem.slice(0, cut)}.${stem.slice(cut + 1)}${suffix}`)]);
}

// A reference is the old path without its extension, either whole (from the repository root) or
// as the last segment of a relative import: `./blob-store'`, `../builds/shard-renderer'`.
const textFiles = tracked.filter((f) => /\.(ts|tsx|mts|mjs|js|cjs|json|md|yml|yaml)$|Dockerfile|\.ci\//.test(f));
const edits = new Map();
for (const [from, to] of renames) {
  const [oldStem, newStem] = [from, to].map((f) => basename(f).replace(/\.(ts|tsx)$/, ''));
  const [oldPath, newPath] = [from, to].map((f) => f.replace(/\.(ts|tsx)$/, ''));
  const relative = new RegExp(
    `(['"\`](?:\\.{1,2}/)(?:[\\w.-]+/)*)${oldStem.replace(/\./g, '\\.')}(?=(?:\\.js)?['"\`])`,
    'g',
  );
  for (const file of textFiles) {
    const text = edits.get(file) ?? readFileSync(file, 'utf8');
    const next = text.replaceAll(oldPath, newPath).replace(relative, (whole, head) =>
      // only where the relative path lands on the renamed file
      join(dirname(file), head.slice(1), oldStem) === oldPath ? `${head}${newStem}` : whole,
    );
    if (next !== text) edits.set(file, next);
  }
}

for (const [from, to] of renames) console.log(`${from} -> ${basename(to)}`);
console.log(`${renames.length} renames; references rewritten in ${edits.size} files:`);
for (const file of edits.keys()) console.log(`  ${file}`);
if (apply) {
  for (const [file, text] of edits) writeFileSync(file, text);
  for (const [from, to] of renames) execFileSync('git', ['mv', from, to]);
}
