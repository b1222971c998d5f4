// What worker.module adds for IndexNow: the drainer that batches a publish's changed URLs per
// endpoint, and the submitter that posts them.
import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG, REDIS } from '@sitemaps/core';
import { IndexNowRepository } from '@sitemaps/data';
import type { RedisConnection } from '@sitemaps/jobs';
import { IndexNowDrainer } from './indexnow.drainer';
import { IndexNowSubmitter } from './indexnow.submitter';
import { IndexNowProcessors } from './indexnow.processors';

export const INDEXNOW_PROVIDERS: Provider[] = [
  {
    provide: IndexNowDrainer,
    inject: [CONFIG, IndexNowRepository, REDIS],
    useFactory: (config: AppConfig, indexNow: IndexNowRepository, redis: RedisConnection) =>
      new IndexNowDrainer(indexNow, IndexNowDrainer.queue(redis, config.queuePrefix), config.indexNow.endpoints),
  },
  {
    provide: IndexNowSubmitter,
    inject: [IndexNowRepository],
    useFactory: (indexNow: IndexNowRepository) => new IndexNowSubmitter(indexNow),
  },
  IndexNowProcessors,
];
