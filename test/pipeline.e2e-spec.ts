// Incremental builds through the real workers, on one Redis: the scenario is in
// support/pipeline.suite.ts (redis-cluster.e2e-spec.ts runs it on a Redis Cluster).
import { describePipeline } from './support/pipeline.suite';
import { startPlatform } from './support/platform';

describePipeline('pipeline: incremental builds', (overrides) => startPlatform(overrides));
