#!/usr/bin/env node
// `sitemaps`: npx sitemaps from the repository (npm links this workspace's bin), or this file.
// From a checkout: the TypeScript sources through SWC, as `npm start` runs the apps. In a
// production install (no devDependencies): what `npm run build` compiled into dist/.
let swc;
try {
  swc = require.resolve('@swc-node/register');
} catch {
  swc = undefined;
}
if (swc) {
  require(swc);
  require('../src/main.ts');
} else {
  require('../../../dist/apps/cli/src/main.js');
}
