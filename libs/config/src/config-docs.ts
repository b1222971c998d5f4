// docs/configuration.md's tables, made from the schema: each area's variables with their default
// and description (`npm run docs:config` writes them; config-docs.spec.ts fails while they differ).
import { CONFIG_AREAS, parseVariable, variableDoc, type Env } from './config';

export const CONFIG_DOCS_BEGIN = '<!-- config:begin (npm run docs:config writes this part from libs/config) -->';
export const CONFIG_DOCS_END = '<!-- config:end -->';

export interface ConfigDocRow {
  variables: string;
  defaults: string;
  description: string;
}

/** The schema's default as the docs show it: a literal in backticks, `unset`, or `—` when required. */
export function schemaDefault(name: keyof Env): string {
  const parsed = parseVariable(name, undefined);
  if ('error' in parsed) return '—';
  const { value } = parsed;
  if (value === undefined) return 'unset';
  if (Array.isArray(value)) return value.length === 0 ? 'unset' : `\`${value.join(',')}\``;
  return `\`${String(value)}\``;
}

export function configDocSections(): { title: string; rows: ConfigDocRow[] }[] {
  return CONFIG_AREAS.map(({ title, variables }) => {
    const rows: ConfigDocRow[] = [];
    for (const name of variables) {
      const doc = variableDoc(name);
      if (doc.docWith !== undefined) {
        if (!variables.includes(doc.docWith)) throw new Error(`${name}: docWith ${doc.docWith} is not in ${title}`);
        continue;
      }
      if (!doc.description) throw new Error(`${name} has no description: add .meta({ description }) in its area file`);
      const members = [name, ...variables.filter((other) => variableDoc(other).docWith === name)];
      const defaults = members.map((member) => variableDoc(member).docDefault ?? schemaDefault(member));
      rows.push({
        variables: members.map((member) => `\`${member}\``).join(' / '),
        defaults: defaults.every((value) => value === defaults[0]) ? (defaults[0] ?? '') : defaults.join(' / '),
        description: doc.description,
      });
    }
    return { title, rows };
  });
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The generated part of docs/configuration.md, before Prettier pads the tables. */
export function renderConfigDocs(): string {
  const parts = [CONFIG_DOCS_BEGIN, ''];
  for (const { title, rows } of configDocSections()) {
    parts.push(`### ${title}`, '', '| Variable | Default | Meaning |', '| --- | --- | --- |');
    for (const row of rows) parts.push(`| ${cell(row.variables)} | ${cell(row.defaults)} | ${cell(row.description)} |`);
    parts.push('');
  }
  parts.push(CONFIG_DOCS_END);
  return parts.join('\n');
}

/** The table rows of a markdown text between the markers, cells trimmed: Prettier's padding aside. */
export function readConfigDocRows(markdown: string): string[][] {
  const begin = markdown.indexOf(CONFIG_DOCS_BEGIN);
  const end = markdown.indexOf(CONFIG_DOCS_END);
  if (begin < 0 || end < begin) return [];
  return markdown
    .slice(begin, end)
    .split('\n')
    .filter((line) => line.startsWith('|') || line.startsWith('### '))
    .filter((line) => !/^\|\s*-+\s*\|/.test(line))
    .map((line) =>
      line.startsWith('### ')
        ? [line]
        : line
            .slice(1, -1)
            .split(/(?<!\\)\|/)
            .map((part) => part.trim()),
    );
}
