import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Runs ../shared/tools/validate-sitemap (xmllint against the shared XSDs) on rendered output.

const REPO_ROOT = resolve(__dirname, '../../../..');
export const VALIDATE_SITEMAP = resolve(REPO_ROOT, '../shared/tools/validate-sitemap');

/** Throws with the install hint if xmllint is missing, so a skipped check never passes silently. */
export function requireXmllint(): void {
  const probe = spawnSync('xmllint', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error('xmllint is missing: schema validation needs it (apt-get install -y libxml2-utils)');
  }
}

export interface ValidationResult {
  ok: boolean;
  output: string;
}

/** Writes each document to a temp file and validates them in one run of the tool. */
export function validateSitemaps(documents: Record<string, string | Buffer>): ValidationResult {
  requireXmllint();
  const dir = mkdtempSync(join(tmpdir(), 'sitemap-xml-'));
  try {
    const files = Object.entries(documents).map(([name, content]) => {
      const file = join(dir, name);
      writeFileSync(file, content);
      return file;
    });
    const run = spawnSync(VALIDATE_SITEMAP, files, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    if (run.error) throw run.error;
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}`.replaceAll(dir + '/', '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
