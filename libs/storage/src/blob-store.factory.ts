import type { AppConfig } from '@sitemaps/config';
import type { Pool } from 'pg';
import type { PrismaClient } from '@sitemaps/data';
import type { BlobStore } from './blob.store';
import { BlobRepository } from './blob.repository';
import { FsBlobStore } from './fs-blob.store';
import { PostgresBlobStore } from './postgres-blob.store';
import { connectS3, S3BlobStore } from './s3-blob.store';

export function createBlobStore(config: AppConfig['storage'], prisma: PrismaClient, pool: Pool): BlobStore {
  const rows = new BlobRepository(prisma, pool);
  switch (config.driver) {
    case 'postgres':
      return new PostgresBlobStore(rows);
    case 'fs':
      return new FsBlobStore(rows, config.dir);
    case 's3': {
      if (!config.s3) throw new Error('the s3 storage driver needs its settings (STORAGE_S3_*)');
      const settings = config.s3;
      return new S3BlobStore(rows, () => connectS3(settings), settings);
    }
  }
}
