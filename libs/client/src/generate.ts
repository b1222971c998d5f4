// Turns the API's OpenAPI document into TypeScript types (openapi-typescript): one function, so
// `npm run client:generate` writes exactly what test/client-generated.spec.ts compares against.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const CLIENT_DIR = path.join(__dirname, '..');
export const DOCUMENT_PATH = path.join(CLIENT_DIR, 'openapi.json');
export const TYPES_PATH = path.join(CLIENT_DIR, 'src/generated/api.ts');

const HEADER = '// Generated from libs/client/openapi.json by `npm run client:generate`. Do not edit.\n\n';

export function documentText(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

export async function typesFor(document: object): Promise<string> {
  // openapi-typescript is an ES module.
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)), { alphabetize: false, exportType: false });
  return HEADER + astToString(ast);
}

export async function committed(): Promise<{ document: string; types: string }> {
  return { document: await readFile(DOCUMENT_PATH, 'utf8'), types: await readFile(TYPES_PATH, 'utf8') };
}
