// The console's forms offer lists (webhook events, roles, scopes, change frequencies, crawlers)
// that apps/console/src/enums.ts takes from the libraries that define them. This checks that each
// is the list the API publishes for the same field (libs/client/openapi.json, which
// client-generated.spec.ts keeps equal to the API), and that no console file keeps a copy of one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as enums from '../apps/console/src/enums';

const ROOT = path.resolve(__dirname, '..');
const CONSOLE_SRC = path.join(ROOT, 'apps/console/src');

interface Schema {
  enum?: string[];
  items?: Schema;
  properties?: Record<string, Schema>;
}
const schemas = (
  JSON.parse(readFileSync(path.join(ROOT, 'libs/client/openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, Schema> };
  }
).components.schemas;

/** The enum at `schema.property…`, `[]` stepping into an array's items. */
function enumAt(where: string): string[] {
  const [name = '', ...steps] = where.split('.');
  let schema = schemas[name];
  for (const step of steps) schema = step === '[]' ? schema?.items : schema?.properties?.[step];
  if (!schema?.enum) throw new Error(`no enum at ${where} in libs/client/openapi.json`);
  return schema.enum;
}

const LISTS: [name: keyof typeof enums, list: readonly string[], apiField: string][] = [
  ['WEBHOOK_EVENT_TYPES', enums.WEBHOOK_EVENT_TYPES, 'WebhooksCreateBody.eventTypes.[]'],
  ['ROLES', enums.ROLES, 'Role'],
  ['SCOPES', enums.SCOPES, 'Scope'],
  ['CHANGEFREQS', enums.CHANGEFREQS, 'UrlEntry.changefreq'],
  ['CRAWLERS', enums.CRAWLERS, 'CrawlTotals.days.[].crawler'],
];

describe("the console's lists", () => {
  it.each(LISTS)('%s is the API’s enum', (_name, list, apiField) => {
    expect([...list].sort()).toEqual([...enumAt(apiField)].sort());
  });

  it('are not copied into a console file (they come from enums.ts)', () => {
    const copies: string[] = [];
    for (const file of readdirSync(CONSOLE_SRC).filter((name) => /\.tsx?$/.test(name) && name !== 'enums.ts')) {
      const text = readFileSync(path.join(CONSOLE_SRC, file), 'utf8');
      for (const [name, list] of LISTS) {
        // A copy names every member, quoted; a form that uses one or two of them does not.
        if (list.every((value) => text.includes(`'${value}'`) || text.includes(`"${value}"`)))
          copies.push(`${file} copies ${name}`);
      }
    }
    expect(copies).toEqual([]);
  });
});
