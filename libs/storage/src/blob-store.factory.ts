import type { AppConfig } from '@sitemaps/config';
import type { Pool } from 'pg';
import type { PrismaClient } from '@sitemaps/data';
import type { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-blob.store';
import { PostgresBlobStore } from './postgres-blob.store';

export function createBlobStore(config: AppConfig['storage'], prisma: PrismaClient, pool: Pool): BlobStore {
  switch (config.driver) {
    case 'postgres':
      return new PostgresBlobStore(prisma, pool);
    case 'fs':
      return new FsBlobStore(prisma, config.dir);
  }
}
