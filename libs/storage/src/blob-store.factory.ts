import type { AppConfig } from '@sitemaps/config';
import type { PrismaClient } from '@sitemaps/data';
import type { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-blob.store';
import { PostgresBlobStore } from './postgres-blob.store';

export function createBlobStore(config: AppConfig['storage'], prisma: PrismaClient): BlobStore {
  switch (config.driver) {
    case 'postgres':
      return new PostgresBlobStore(prisma);
    case 'fs':
      return new FsBlobStore(prisma, config.dir);
  }
}
