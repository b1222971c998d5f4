#!/usr/bin/env node
// `prisma generate` works offline, but the CLI insists that a schema-engine binary exists even
// though generation never runs it (docs/architecture.md: "Prisma offline"). Point it at this file.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const result = spawnSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate', '--no-hints'], {
  stdio: 'inherit',
  cwd: path.join(__dirname, '..'),
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: __filename, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
});
process.exit(result.status ?? 1);
