import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDocSections, readConfigDocRows, renderConfigDocs, schemaDefault } from './config-docs';
import { CONFIG_VARIABLES, variableDoc } from './config';

const DOC = path.resolve(__dirname, '../../../docs/configuration.md');

describe('docs/configuration.md', () => {
  it('holds the tables the schema makes (run `npm run docs:config` after changing a variable)', () => {
    const written = readConfigDocRows(readFileSync(DOC, 'utf8'));
    expect(written.length).toBeGreaterThan(CONFIG_VARIABLES.length / 2);
    expect(written).toEqual(readConfigDocRows(renderConfigDocs()));
  });

  it('documents every variable of the schema once, each with a description', () => {
    const documented = configDocSections()
      .flatMap((section) => section.rows)
      .flatMap((row) => [...row.variables.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]));
    expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
    for (const name of CONFIG_VARIABLES) {
      const doc = variableDoc(name);
      expect(doc.description ?? doc.docWith, name).toBeTruthy();
    }
  });

  it("spells a default in words only around the schema's own value", () => {
    for (const name of CONFIG_VARIABLES) {
      const { docDefault } = variableDoc(name);
      if (docDefault === undefined) continue;
      // Written out only where the schema's value alone would not say it.
      expect(docDefault, name).not.toBe(schemaDefault(name));
      const literal = /^`[^`]*`/.exec(docDefault)?.[0];
      const schema = schemaDefault(name);
      if (literal !== undefined && schema.startsWith('`')) expect(literal, name).toBe(schema);
    }
  });
});
