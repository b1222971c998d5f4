// .env.example against the config schema: every variable the apps read is listed exactly once, with
// the schema's own default (an empty value: the schema has none, or counts it at boot), and so is
// every variable docker-compose.yml interpolates. A variable added to the schema fails here until
// it is listed; a default changed in one place fails until the other follows.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, parseConfig, parseVariable, SECRET_VARIABLES, type Env } from '@sitemaps/config';

const ROOT = path.resolve(__dirname, '..');
const text = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
/** Defaults counted at boot, so written empty: one public process per CPU. */
const COMPUTED = new Set<string>(['PUBLIC_WORKERS']);
/** Read by docker-compose.yml, not by the apps. */
const COMPOSE_ONLY = new Set<string>(['POSTGRES_MAX_CONNECTIONS']);

const entries = [...text.matchAll(/^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, commented, name, value]) => ({
  name: name as string,
  value: value as string,
  set: !commented,
}));

describe('.env.example', () => {
  it('lists every variable of the schema once, and nothing the schema does not read', () => {
    const names = entries.map((entry) => entry.name);
    expect(
      names.filter((name, i) => names.indexOf(name) !== i),
      'listed twice',
    ).toEqual([]);
    const missing = CONFIG_VARIABLES.filter((name) => !names.includes(name));
    expect(missing, 'in the schema but not in .env.example').toEqual([]);
    const unknown = names.filter((name) => !(CONFIG_VARIABLES as string[]).includes(name) && !COMPOSE_ONLY.has(name));
    expect(unknown, 'in .env.example but not read by the apps').toEqual([]);
  });

  it("gives each variable the schema's default", () => {
    for (const { name, value } of entries) {
      if (COMPOSE_ONLY.has(name)) continue;
      const fallback = parseVariable(name as keyof Env, undefined);
      if (value === '') {
        const empty = 'value' in fallback ? fallback.value : undefined;
        // An empty list (TRUSTED_PROXIES) is written empty too.
        if (!COMPUTED.has(name)) expect(Array.isArray(empty) && empty.length === 0 ? '' : (empty ?? ''), name).toBe('');
        continue;
      }
      expect(parseVariable(name as keyof Env, value), name).toEqual(fallback);
    }
  });

  it('says which variables are secrets that may be files, and what it sets parses', () => {
    for (const name of SECRET_VARIABLES) expect(text, name).toContain(`${name}_FILE=`);
    const set = Object.fromEntries(entries.filter((entry) => entry.set).map((entry) => [entry.name, entry.value]));
    expect(() => parseConfig({ DATABASE_URL: 'postgres://localhost/sitemaps', ...set })).not.toThrow();
  });

  it("lists the variables docker-compose.yml passes on from the operator's .env", () => {
    const compose = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const interpolated = new Set([...compose.matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1] as string));
    expect([...interpolated].filter((name) => !entries.some((entry) => entry.name === name))).toEqual([]);
  });
});
