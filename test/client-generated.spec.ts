import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../apps/api/src/openapi/openapi.generate';
import { committed, documentText, typesFor } from '../libs/client/src/generate';

// The document and the client's types are committed (here, beside the other cross-project
// checks, because a lib's spec may not import an app), so a change to the API that forgets
// `npm run client:generate` fails here, with the command to run.
describe('the typed client', () => {
  it('is generated from the current OpenAPI document (else run `npm run client:generate`)', async () => {
    const document = await generateOpenApiDocument();
    const files = await committed();
    expect(files.document, 'libs/client/openapi.json is stale: run `npm run client:generate`').toBe(
      documentText(document),
    );
    expect(files.types, 'libs/client/src/generated/api.ts is stale: run `npm run client:generate`').toBe(
      await typesFor(document),
    );
  });
});
