#!/usr/bin/env node
// `sitemaps`: npx sitemaps from the repository (npm links this workspace's bin), or this file.
// Runs the TypeScript sources through SWC, as `npm start` runs the apps.
require('@swc-node/register');
require('../src/main.ts');
