// The platform's version: package.json's, which a release moves (CHANGELOG.md). Found by walking up
// from this file, so it is the same from the sources (libs/config/src) and from dist/ in the image.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const PACKAGE_NAME = 'sitemaps-platform';

export function platformVersion(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = readManifest(path.join(dir, 'package.json'));
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
    if (path.dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${from}`);
  }
}

function readManifest(file: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}
