// npm run docs:config: rewrites the generated part of docs/configuration.md from the config schema
// (libs/config/src/env/<area>.env.ts: each variable's .meta({ description, docDefault, docWith })).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { CONFIG_DOCS_BEGIN, CONFIG_DOCS_END, renderConfigDocs } from '@sitemaps/config';

async function main(): Promise<void> {
  const file = path.resolve(__dirname, '../docs/configuration.md');
  const text = readFileSync(file, 'utf8');
  const begin = text.indexOf(CONFIG_DOCS_BEGIN);
  const end = text.indexOf(CONFIG_DOCS_END);
  if (begin < 0 || end < begin)
    throw new Error(`${file}: the markers ${CONFIG_DOCS_BEGIN} … ${CONFIG_DOCS_END} are missing`);
  const next = text.slice(0, begin) + renderConfigDocs() + text.slice(end + CONFIG_DOCS_END.length);
  const options = await resolveConfig(file);
  writeFileSync(file, await format(next, { ...options, filepath: file }));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
