// Prisma CLI configuration. The app itself connects through libs/data (driver adapter), and
// migrations run through libs/data/src/migrate, so the CLI needs only the schema location here.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
