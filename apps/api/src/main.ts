import { exitWithParent, loadConfig } from '@sitemaps/config';
import { createApiApp } from './api.app';

async function main(): Promise<void> {
  const config = loadConfig();
  exitWithParent();
  const app = await createApiApp(config);
  await app.listen(config.api.port, config.api.host);
  console.log(`api listening on http://${config.api.host}:${config.api.port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
