// XSD validation through libxml2 compiled to WebAssembly (xmllint-wasm): the reference
// implementation of XML Schema, with no system package. Each call runs in a worker thread of its
// own, so the document's tree lives outside the caller's heap and is freed when it returns.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';

/** libs/sitemap-xml/schemas, beside src/ in the repository and in dist/ (scripts/build.js copies it). */
export const SCHEMAS_DIR = path.resolve(__dirname, '../../schemas');

const ROOT_SCHEMA = { urlset: 'urlset-all.xsd', sitemapindex: 'siteindex.xsd' } as const;
/** WebAssembly pages of 64 KiB: 1 GiB, room for a 50 MiB file's tree. */
const MAX_MEMORY_PAGES = 16_384;
const DOCUMENT = 'document.xml';

export interface XsdError {
  line: number | undefined;
  message: string;
}

let schemas: XMLFileInfo[] | undefined;

function loadSchemas(): XMLFileInfo[] {
  schemas ??= readdirSync(SCHEMAS_DIR)
    .filter((name) => name.endsWith('.xsd'))
    .map((name) => ({ fileName: name, contents: readFileSync(path.join(SCHEMAS_DIR, name), 'utf8') }));
  return schemas;
}

/** Errors of a document against the schema of its root element; none when it is valid. */
export async function xsdErrors(root: keyof typeof ROOT_SCHEMA, content: Uint8Array): Promise<XsdError[]> {
  const all = loadSchemas();
  const schemaName = ROOT_SCHEMA[root];
  const result = await validateXML({
    xml: [{ fileName: DOCUMENT, contents: content }],
    schema: all.filter((schema) => schema.fileName === schemaName),
    preload: all.filter((schema) => schema.fileName !== schemaName),
    maxMemoryPages: MAX_MEMORY_PAGES,
  });
  if (result.valid) return [];
  // xmllint prints context lines (the source line, a caret) after parser errors: keep located ones.
  // An error inside an entity is located as "Entity: line 1", which gives no line of the document.
  const located = result.errors.filter((error) => error.loc?.fileName === DOCUMENT);
  const placed = result.errors.filter((error) => error.loc);
  const errors = located.length > 0 ? located : placed.length > 0 ? placed : result.errors;
  return errors.map((error) => {
    const line = error.loc?.fileName === DOCUMENT ? error.loc.lineNumber : undefined;
    return {
      line: Number.isInteger(line) ? line : undefined,
      message: error.message.replace(/^Schemas validity error : /, ''),
    };
  });
}
