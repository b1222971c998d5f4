// `GET /metrics` (Prometheus) on the worker's HTTP listener (WORKER_HTTP_PORT), next to its
// health probes: builds, stages, shards, imports, IndexNow, webhooks, its queues' job counts
// (read from Redis on scrape), its Postgres pool and Node's defaults.
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { answerMetrics, METRICS_PATH, PlatformMetrics } from '@sitemaps/observability';
import { WorkerHttpServer } from './worker-http.server';

@Injectable()
export class WorkerMetrics implements OnModuleInit {
  constructor(
    private readonly http: WorkerHttpServer,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  onModuleInit(): void {
    this.http.get(
      METRICS_PATH,
      (request, response) => void answerMetrics(request, response, () => this.metrics.text()),
    );
  }
}
