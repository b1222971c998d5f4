import 'reflect-metadata';
import { ConfigError, describeConfig, loadConfig } from '@sitemaps/config';
import { createPublicApp } from './public.app';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createPublicApp(config);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
  await app.listen(config.public.port, config.public.host);
  app.getHttpAdapter().getInstance().log.info({ config: describeConfig(config) }, 'public server listening');
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
