// npm run bench:hot-path [-- --iterations 200000 --runs 7]
// The public server's in-memory lane without sockets: PublicService.respondFromMemory, the
// function every cached answer goes through (request target, site, validators, headers, body),
// for a shard's 304, a shard's 200 from memory, the index negotiated to gzip and robots.txt.
// CPU nanoseconds per call, the best of N runs, in one process with no client and no server
// beside it: a busy machine moves it far less than bench:serve, so `npm run bench:compare --
// --bench hot-path` sees a few percent where bench:serve's figures move by half. The reader is
// a stand-in that always has the site and the bytes in memory, as a warm process does.
// The `lane` rows drive the whole in-memory lane in front of Fastify (PublicServer) with the
// bookkeeping production has on: the status tally (metrics), the crawl tally (CRAWL_INSIGHT) and
// the access log (pino, its lines serialised and handed to a destination that drops them). The
// request and response are stand-ins for node:http's, with header strings made afresh for each
// call as the parser makes them, so no string's hash is left cached from the call before.
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { CrawlTally } from '@sitemaps/domain';
import type { Readiness } from '@sitemaps/health';
import { loggerOptions, ResponseTally } from '@sitemaps/observability';
import type { ManifestReader, PublishedFile, SiteSnapshot } from '@sitemaps/serving';
import { AccessLog, BatchedDestination } from '../apps/public/src/public.logger';
import { PublicServer } from '../apps/public/src/public.server';
import { PublicService, type PublicRequest } from '../apps/public/src/public.service';
import { arg, printTable } from './support/bench-env';
import { printResult } from './support/bench-result';

const ITERATIONS = arg('iterations', 200_000);
const RUNS = arg('runs', 7);
const HOST = 'bench.example.com';
const SHARD = 'sitemap-1.xml.gz';

function file(xml: string, kind: PublishedFile['kind']): { file: PublishedFile; gzip: Buffer } {
  const gzip = gzipSync(xml);
  const sha256 = createHash('sha256').update(gzip).digest('hex');
  const published: PublishedFile = {
    sha256,
    kind,
    byteSize: Buffer.byteLength(xml),
    gzipSize: gzip.length,
    urlCount: 0,
    lastmod: '2026-09-19',
    storedAt: new Date('2026-09-19T10:00:00Z'),
  };
  return { file: published, gzip };
}

const urls = Array.from({ length: 2_000 }, (_, i) => `<url><loc>https://${HOST}/p/${i}</loc></url>`).join('');
const shard = file(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`, 'shard');
const index = file(
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://${HOST}/${SHARD}</loc></sitemap></sitemapindex>`,
  'index',
);
const snapshot: SiteSnapshot = {
  site: {
    id: 'bench-site',
    hostname: HOST,
    scheme: 'https',
    settings: { robotsTxt: null, cacheMaxAge: 300, indexNowKey: 'bench-key', textSitemap: false, xslStylesheet: false },
  },
  manifest: {
    version: 1,
    publishedAt: new Date('2026-09-19T10:00:00Z'),
    files: new Map([
      ['sitemap.xml', index.file],
      [SHARD, shard.file],
    ]),
    redirects: new Map(),
  },
};
const bytes = new Map([
  [shard.file.sha256, shard.gzip],
  [index.file.sha256, index.gzip],
]);
const reader = {
  peek: () => snapshot,
  peekBytes: (_siteId: string, published: PublishedFile) => bytes.get(published.sha256),
  // As the reader has it when no site is served stale (a Postgres outage): one test per answer.
  staleSites: 0,
} as unknown as ManifestReader;
const service = new PublicService(reader, { platformHost: null, blobBaseUrl: null });

/** Headers as Node hands them over: a crawler's usual set. */
const headers = (extra: Record<string, string>) => ({
  host: HOST,
  'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  accept: '*/*',
  ...extra,
});
const CASES: { name: string; status: number; request: PublicRequest }[] = [
  {
    name: 'shard 304',
    status: 304,
    request: {
      method: 'GET',
      url: `/${SHARD}`,
      headers: headers({ 'accept-encoding': 'gzip', 'if-none-match': `"${shard.file.sha256}"` }),
    },
  },
  { name: 'shard 200', status: 200, request: { method: 'GET', url: `/${SHARD}`, headers: headers({}) } },
  {
    name: 'index 200 gzip',
    status: 200,
    request: { method: 'GET', url: '/sitemap.xml', headers: headers({ 'accept-encoding': 'gzip, deflate, br' }) },
  },
  { name: 'robots.txt 200', status: 200, request: { method: 'GET', url: '/robots.txt', headers: headers({}) } },
];

function measure(request: PublicRequest): number {
  let sink = 0;
  const started = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i++) sink += service.respondFromMemory(request)?.status ?? 0;
  const used = process.cpuUsage(started);
  if (sink === 0) throw new Error('no answers');
  return ((used.user + used.system) * 1_000) / ITERATIONS;
}

/** The lane with production's bookkeeping: access log (to a destination that drops lines), tallies. */
const destination = new BatchedDestination({ write: () => undefined });
const logger = pino({ ...loggerOptions('public', 'info'), redact: undefined }, destination);
const server = new PublicServer(
  // As public.app.ts wires it: request lines made by AccessLog into the logger's destination.
  new AccessLog(logger, destination),
  new ResponseTally(),
  new CrawlTally({ maxKeys: 20_000, maxUserAgents: 2_000 }),
  { maxHeaderBytes: 8_192, requestTimeoutMs: 10_000, keepAliveTimeoutMs: 30_000, trustedProxies: [] },
);
server.attach(service, {} as Readiness);
type Handle = (request: IncomingMessage, response: ServerResponse, fallback: () => void) => void;
const handle = (server as unknown as { handle: Handle }).handle.bind(server);
const socket = { remoteAddress: '66.249.66.1' };
let written = 0;
/** What the lane touches of node:http's response: writeHead, or the head it leaves (ResponseWriter). */
const head = { shouldKeepAlive: true, statusCode: 200, _header: null as string | null };
const response = Object.assign(head, {
  writeHead(status: number) {
    head.statusCode = status;
    head._header = 'head';
    return head;
  },
  end() {
    written += head.statusCode;
    head._header = null;
  },
}) as unknown as ServerResponse;
const fallback = () => {
  throw new Error('the lane passed the request to Fastify');
};

/** node:http's request as the parser leaves it: new strings for every request. */
function laneRequest(request: PublicRequest): () => IncomingMessage {
  const raw = Object.entries(request.headers).map(([name, value]) => [
    Buffer.from(name, 'latin1'),
    Buffer.from(value, 'latin1'),
  ]);
  const url = Buffer.from(request.url, 'latin1');
  return () => {
    const headers: Record<string, string> = {};
    const rawHeaders: string[] = [];
    for (const [name, value] of raw) {
      const key = name!.toString('latin1');
      const text = value!.toString('latin1');
      headers[key] = text;
      rawHeaders.push(key, text);
    }
    return {
      method: request.method,
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      url: url.toString('latin1'),
      headers,
      rawHeaders,
      socket,
    } as unknown as IncomingMessage;
  };
}

function measureLane(make: () => IncomingMessage): number {
  const iterations = Math.ceil(ITERATIONS / 10);
  const started = process.cpuUsage();
  for (let i = 0; i < iterations; i++) handle(make(), response, fallback);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1_000) / iterations;
}

function main(): void {
  console.log(
    `hot path: PublicService.respondFromMemory, ${ITERATIONS.toLocaleString('en')} calls × best of ${RUNS}, ` +
      `node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(2)} at start\n`,
  );
  const results = CASES.map(({ name, status, request }) => {
    const answer = service.respondFromMemory(request);
    if (answer?.status !== status) throw new Error(`${name}: expected ${status}, got ${answer?.status}`);
    measure(request); // warm-up: JIT, caches
    const runs = Array.from({ length: RUNS }, () => measure(request));
    return { name, best: Math.min(...runs), worst: Math.max(...runs) };
  });
  for (const { name, status, request } of CASES) {
    const make = laneRequest(request);
    written = 0;
    handle(make(), response, fallback);
    if (written !== status) throw new Error(`lane ${name}: expected ${status}, got ${written}`);
    measureLane(make); // warm-up
    const runs = Array.from({ length: RUNS }, () => measureLane(make));
    results.push({ name: `lane ${name}`, best: Math.min(...runs), worst: Math.max(...runs) });
  }
  printTable([
    ['case', 'CPU ns/call (best)', 'worst run'],
    ...results.map((r) => [r.name, r.best.toFixed(0), r.worst.toFixed(0)]),
  ]);
  printResult(
    'hot-path',
    results.map((r) => ({ name: `${r.name} CPU/call`, value: r.best, unit: 'ns', better: 'lower' as const })),
  );
}

main();
