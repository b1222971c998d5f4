// npm run client:generate: the OpenAPI document from the API's code (no services needed), then
// the typed client's types from it. Commit both; test/client-generated.spec.ts fails when they are stale.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateOpenApiDocument } from '../apps/api/src/openapi/openapi.generate';
import { DOCUMENT_PATH, documentText, TYPES_PATH, typesFor } from '../libs/client/src/generate';

async function main(): Promise<void> {
  const document = await generateOpenApiDocument();
  await mkdir(path.dirname(TYPES_PATH), { recursive: true });
  await writeFile(DOCUMENT_PATH, documentText(document));
  await writeFile(TYPES_PATH, await typesFor(document));
  console.log(`wrote ${path.relative(process.cwd(), DOCUMENT_PATH)} and ${path.relative(process.cwd(), TYPES_PATH)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
