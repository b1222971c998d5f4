// The two probes every app answers, whatever its HTTP stack:
// - live: the process runs and its event loop turns (an orchestrator restarts it otherwise);
// - ready: it can do its work now (Postgres and Redis answer); while not, a load balancer or
//   compose's `depends_on` waits, and nothing restarts it.
// `/health` is the older name of `ready`, kept for clients of the first API.
import type { Readiness } from './readiness';

export const HEALTH_LIVE_PATH = '/health/live';
export const HEALTH_READY_PATH = '/health/ready';
export const HEALTH_LEGACY_PATH = '/health';

export type HealthProbe = 'live' | 'ready';

export interface HealthAnswer {
  status: 200 | 503;
  headers: Readonly<Record<string, string>>;
  body: string;
}

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const LIVE: HealthAnswer = { status: 200, headers: HEADERS, body: '{"status":"ok"}' };

/** Which probe a request path asks for (its query string ignored), or undefined. */
export function healthProbeOf(url: string): HealthProbe | undefined {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path === HEALTH_LIVE_PATH) return 'live';
  if (path === HEALTH_READY_PATH || path === HEALTH_LEGACY_PATH) return 'ready';
  return undefined;
}

/** `{"status":"ok"|"unavailable","checks":{"postgres":"ok",…}}`; why a check failed stays in the log. */
export async function answerHealth(probe: HealthProbe, readiness: Readiness): Promise<HealthAnswer> {
  if (probe === 'live') return LIVE;
  const report = await readiness.report();
  return {
    status: report.ready ? 200 : 503,
    headers: HEADERS,
    body: JSON.stringify({ status: report.ready ? 'ok' : 'unavailable', checks: report.checks }),
  };
}
