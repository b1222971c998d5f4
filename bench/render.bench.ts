// Render benchmark: 200,000 URLs with three hreflang alternates each (and a variant with two
// images each as well), to gzipped sitemap files of at most 50,000 URLs.
//
//   npm run bench:render                 all contestants, both variants, table + ratio
//   npm run bench:render -- --runs=3     best of N runs per contestant (default 2)
//   npm run bench:render -- --only=sitemap-xml   contestants whose name starts with this
//
// Each contestant runs in a fresh child process (this script with --child), so its peak
// RSS is its own. Input entries are generated before timing, in each contestant's own input
// shape; timing covers rendering, splitting into files, gzip, and collecting the output.
// The URLs are product pages with varied slugs (seeded PRNG), not one repeated path: gzip
// speed depends a lot on how repetitive the input is.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import { SitemapStream, streamToPromise } from 'sitemap';
import { create } from 'xmlbuilder2';
import {
  DEFAULT_GZIP_LEVEL,
  IMAGE_NS,
  MAX_URLS_PER_FILE,
  SITEMAP_NS,
  UrlsetBuilder,
  XHTML_NS,
  gzippedUrlsetFiles,
  toUrlFragment,
  type SitemapUrl,
  type UrlFragment,
} from '@sitemaps/sitemap-xml';
import { printResult } from './support/bench-result';

const TOTAL_URLS = 200_000;
const ORIGIN = 'https://shop.example.com';
const gzipAsync = promisify(gzip);

type Variant = 'alternates' | 'alternates+images';
const VARIANTS: Variant[] = ['alternates', 'alternates+images'];

interface Contestant {
  name: string;
  note: string;
  run(urls: SitemapUrl[]): Promise<Output>;
  /** Work done before the clock starts (e.g. converting to the library's input shape). */
  prepare?(urls: SitemapUrl[]): unknown;
}

interface Output {
  files: number;
  rawBytes: number;
  gzBytes: number;
}

interface Result extends Output {
  contestant: string;
  variant: Variant;
  seconds: number;
  /** CPU time of all threads (main, thread pool, GC helpers) over wall time, for the best run. */
  cpuPerWall: number;
  urlsPerSec: number;
  /** URLs per second of CPU time: what one core does, whatever else the machine is running. */
  urlsPerCpuSec: number;
  peakRssMb: number;
  inputRssMb: number;
}

// --- input -----------------------------------------------------------------------------

function generate(variant: Variant): SitemapUrl[] {
  let seed = 0x5eed;
  const rnd = (): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const words = (
    'red blue green black white classic modern leather cotton wool linen oak walnut steel glass ' +
    'ceramic vintage organic premium compact deluxe portable wireless smart eco outdoor indoor kids ' +
    'mens womens unisex summer winter slim large small round square travel home office garden'
  ).split(' ');
  const categories = (
    'shoes shirts jackets lamps tables chairs sofas rugs mugs plates bags hats watches phones ' +
    'cables chargers speakers books toys games'
  ).split(' ');
  const start = Date.UTC(2023, 0, 1);
  const urls: SitemapUrl[] = [];
  for (let i = 0; i < TOTAL_URLS; i++) {
    const slugLength = 3 + Math.floor(rnd() * 4);
    const slug: string[] = [];
    for (let w = 0; w < slugLength; w++) slug.push(pick(words));
    const path = `/${pick(categories)}/${slug.join('-')}-${Math.floor(rnd() * 1e7)}`;
    const lastmod = new Date(start + Math.floor(rnd() * 5e10)).toISOString().slice(0, 19) + 'Z';
    const url: SitemapUrl = {
      loc: ORIGIN + path,
      lastmod,
      alternates: [
        { hreflang: 'en-GB', href: 'https://shop.example.co.uk' + path },
        { hreflang: 'de-DE', href: 'https://shop.example.de' + path },
        { hreflang: 'x-default', href: ORIGIN + path },
      ],
    };
    if (variant === 'alternates+images') {
      const id = Math.floor(rnd() * 1e9).toString(36);
      url.images = [
        { loc: `https://cdn.example.com/img/${id}/front.jpg` },
        { loc: `https://cdn.example.com/img/${id}/side.jpg` },
      ];
    }
    urls.push(url);
  }
  return urls;
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

// --- contestants -----------------------------------------------------------------------

/** (a) this lib: fragments rendered into one buffer per 50k file, one gzip call per file. */
function writer(level: number | undefined): Contestant {
  return {
    name: level === undefined ? 'sitemap-xml' : `sitemap-xml L${level}`,
    note: `gzippedUrlsetFiles: render each fragment into the file buffer, one gzip call per file, level ${level ?? DEFAULT_GZIP_LEVEL}`,
    async run(urls) {
      const out: Output = { files: 0, rawBytes: 0, gzBytes: 0 };
      for await (const file of gzippedUrlsetFiles(urls, level === undefined ? {} : { level })) {
        out.files++;
        out.rawBytes += file.bytes;
        out.gzBytes += file.gz.length;
      }
      return out;
    },
  };
}

/** (a') the shard build: fragments were rendered at ingest and come back from the database. */
function writerFromStored(): Contestant & { fragments?: UrlFragment[] } {
  const contestant: Contestant & { fragments?: UrlFragment[] } = {
    name: 'sitemap-xml stored',
    note: 'UrlsetBuilder.add(stored fragment) per row + finishGzipped per file (no rendering)',
    prepare(urls) {
      // Flat strings, as a database driver hands them back (not the ropes concatenation makes).
      contestant.fragments = urls.map((url) => {
        const fragment = toUrlFragment(url);
        return { ...fragment, xml: Buffer.from(fragment.xml).toString('utf8') };
      });
    },
    async run() {
      const out: Output = { files: 0, rawBytes: 0, gzBytes: 0 };
      const builder = new UrlsetBuilder();
      const flush = async () => {
        const file = await builder.finishGzipped();
        out.files++;
        out.rawBytes += file.bytes;
        out.gzBytes += file.gz.length;
      };
      for (const fragment of contestant.fragments!) {
        if (builder.add(fragment.xml, fragment.mask)) continue;
        await flush();
        builder.add(fragment.xml, fragment.mask);
      }
      if (builder.urls > 0) await flush();
      return out;
    },
  };
  return contestant;
}

interface SitemapPackageItem {
  url: string;
  lastmod?: string;
  links: { lang: string; url: string }[];
  img?: { url: string }[];
}

function toSitemapPackageItems(urls: SitemapUrl[]): SitemapPackageItem[] {
  return urls.map((u) => ({
    url: u.loc,
    lastmod: u.lastmod,
    links: (u.alternates ?? []).map((a) => ({ lang: a.hreflang, url: a.href })),
    ...(u.images ? { img: u.images.map((i) => ({ url: i.loc })) } : {}),
  }));
}

/** (b) the `sitemap` package as its README shows: SitemapStream piped into createGzip. */
function sitemapPackage(mode: 'readable' | 'write'): Contestant & { items?: SitemapPackageItem[] } {
  const contestant: Contestant & { items?: SitemapPackageItem[] } = {
    name: `sitemap ${mode === 'readable' ? 'Readable.from' : 'write()'}`,
    note:
      mode === 'readable'
        ? 'Readable.from(items).pipe(SitemapStream), .pipe(createGzip()), per 50k file'
        : 'SitemapStream.write(item) with backpressure, .pipe(createGzip()), per 50k file',
    prepare(urls) {
      contestant.items = toSitemapPackageItems(urls);
    },
    async run() {
      const out: Output = { files: 0, rawBytes: 0, gzBytes: 0 };
      for (const chunk of chunks(contestant.items!, MAX_URLS_PER_FILE)) {
        const stream = new SitemapStream({ hostname: ORIGIN });
        let raw = 0;
        stream.on('data', (data: Buffer) => (raw += data.length));
        const pipeline = stream.pipe(createGzip());
        const done = streamToPromise(pipeline);
        if (mode === 'readable') {
          Readable.from(chunk).pipe(stream);
        } else {
          for (const item of chunk) {
            if (!stream.write(item)) await new Promise((resolve) => stream.once('drain', resolve));
          }
          stream.end();
        }
        const gz = await done;
        out.files++;
        out.rawBytes += raw;
        out.gzBytes += gz.length;
      }
      return out;
    },
  };
  return contestant;
}

/** (c) xmlbuilder2 DOM per 50k file, `.end()`, then one gzip call. */
function xmlbuilder2Dom(): Contestant {
  return {
    name: 'xmlbuilder2 DOM',
    note: 'create() + ele() per node, .end(), gzip per 50k file',
    async run(urls) {
      const out: Output = { files: 0, rawBytes: 0, gzBytes: 0 };
      for (const chunk of chunks(urls, MAX_URLS_PER_FILE)) {
        const root = create({ version: '1.0', encoding: 'UTF-8' })
          .ele(SITEMAP_NS, 'urlset')
          .att('http://www.w3.org/2000/xmlns/', 'xmlns:xhtml', XHTML_NS);
        if (chunk.some((u) => u.images)) root.att('http://www.w3.org/2000/xmlns/', 'xmlns:image', IMAGE_NS);
        for (const u of chunk) {
          const url = root.ele('url');
          url.ele('loc').txt(u.loc);
          if (u.lastmod) url.ele('lastmod').txt(u.lastmod);
          for (const a of u.alternates ?? []) {
            url.ele(XHTML_NS, 'xhtml:link').att({ rel: 'alternate', hreflang: a.hreflang, href: a.href });
          }
          for (const i of u.images ?? []) url.ele(IMAGE_NS, 'image:image').ele(IMAGE_NS, 'image:loc').txt(i.loc);
        }
        const xml = Buffer.from(root.end(), 'utf8');
        const gz = await gzipAsync(xml);
        out.files++;
        out.rawBytes += xml.length;
        out.gzBytes += gz.length;
      }
      return out;
    },
  };
}

const CONTESTANTS: Record<string, () => Contestant> = {
  'sitemap-xml': () => writer(undefined),
  'sitemap-xml L6': () => writer(6),
  'sitemap-xml stored': () => writerFromStored(),
  'sitemap Readable.from': () => sitemapPackage('readable'),
  'sitemap write()': () => sitemapPackage('write'),
  'xmlbuilder2 DOM': () => xmlbuilder2Dom(),
};

// --- child: one contestant, one variant ---------------------------------------------------

async function child(name: string, variant: Variant, runs: number): Promise<void> {
  const make = CONTESTANTS[name];
  if (!make) throw new Error(`unknown contestant ${name}`);
  const contestant = make();
  const urls = generate(variant);
  contestant.prepare?.(urls);
  global.gc?.();
  const inputRssMb = process.memoryUsage().rss / 2 ** 20;
  let best: { seconds: number; cpuSeconds: number; out: Output } | undefined;
  for (let r = 0; r < runs; r++) {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    const out = await contestant.run(urls);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    if (!best || seconds < best.seconds) best = { seconds, cpuSeconds: (used.user + used.system) / 1e6, out };
    global.gc?.();
  }
  const result: Result = {
    contestant: name,
    variant,
    ...best!.out,
    seconds: best!.seconds,
    cpuPerWall: best!.cpuSeconds / best!.seconds,
    urlsPerCpuSec: TOTAL_URLS / best!.cpuSeconds,
    urlsPerSec: TOTAL_URLS / best!.seconds,
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / 2 ** 20,
    inputRssMb,
  };
  process.stdout.write(JSON.stringify(result) + '\n');
}

// --- parent: spawn, tabulate ----------------------------------------------------------------

function parent(runs: number, only: string | undefined): void {
  console.log(
    `render benchmark: ${TOTAL_URLS.toLocaleString('en')} URLs, files of ${MAX_URLS_PER_FILE.toLocaleString('en')}, ` +
      `best of ${runs} run(s), node ${process.version}, one process per contestant, ` +
      `${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)} at start (URLs/CPU-s is the figure that survives a busy machine)\n`,
  );
  const results: Result[] = [];
  for (const variant of VARIANTS) {
    for (const name of Object.keys(CONTESTANTS).filter((n) => only === undefined || n.startsWith(only))) {
      const proc = spawnSync(
        process.execPath,
        [...process.execArgv, '--expose-gc', __filename, '--child', name, variant, `--runs=${runs}`],
        { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
      );
      const line = proc.stdout.trim().split('\n').pop() ?? '';
      if (proc.status !== 0 || !line.startsWith('{')) {
        console.error(`${name} / ${variant} failed (exit ${proc.status}):\n${proc.stderr}`);
        process.exitCode = 1;
        continue;
      }
      const result = JSON.parse(line) as Result;
      results.push(result);
      console.error(`  done: ${name} / ${variant}: ${Math.round(result.urlsPerSec).toLocaleString('en')} URLs/s`);
    }
  }

  const header = [
    'variant',
    'contestant',
    'URLs/s',
    'URLs/CPU-s',
    'seconds',
    'CPU/wall',
    'files',
    'raw MB',
    'gzip MB',
    'peak RSS MB',
    'input RSS MB',
  ];
  const rows = results.map((r) => [
    r.variant,
    r.contestant,
    Math.round(r.urlsPerSec).toLocaleString('en'),
    Math.round(r.urlsPerCpuSec).toLocaleString('en'),
    r.seconds.toFixed(2),
    r.cpuPerWall.toFixed(2),
    String(r.files),
    (r.rawBytes / 2 ** 20).toFixed(1),
    (r.gzBytes / 2 ** 20).toFixed(2),
    r.peakRssMb.toFixed(0),
    r.inputRssMb.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const format = (row: string[]) =>
    row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log('\n' + format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(format(row));

  console.log('');
  for (const variant of VARIANTS) {
    const inVariant = results.filter((r) => r.variant === variant);
    const sitemapPackage = inVariant.filter((r) => r.contestant.startsWith('sitemap '));
    if (sitemapPackage.length === 0) continue;
    const bestWall = Math.max(...sitemapPackage.map((r) => r.urlsPerSec));
    const bestCpu = Math.max(...sitemapPackage.map((r) => r.urlsPerCpuSec));
    for (const ours of inVariant.filter((r) => r.contestant.startsWith('sitemap-xml'))) {
      console.log(
        `${variant}: ${ours.contestant} = ${Math.round(ours.urlsPerSec).toLocaleString('en')} URLs/s ` +
          `(${(ours.urlsPerSec / bestWall).toFixed(1)}x the sitemap package's best ${Math.round(bestWall).toLocaleString('en')}), ` +
          `${Math.round(ours.urlsPerCpuSec).toLocaleString('en')} URLs/CPU-s (${(ours.urlsPerCpuSec / bestCpu).toFixed(1)}x)`,
      );
    }
  }
  console.log('\ncontestants:');
  for (const [name, make] of Object.entries(CONTESTANTS)) console.log(`  ${name.padEnd(22)} ${make().note}`);
  printResult(
    'render',
    results.flatMap((r) => [
      { name: `${r.variant} ${r.contestant} URLs/s`, value: r.urlsPerSec, unit: 'URLs/s', better: 'higher' as const },
      {
        name: `${r.variant} ${r.contestant} URLs/CPU-s`,
        value: r.urlsPerCpuSec,
        unit: 'URLs/CPU-s',
        better: 'higher' as const,
      },
      { name: `${r.variant} ${r.contestant} peak RSS`, value: r.peakRssMb, unit: 'MB', better: 'lower' as const },
    ]),
  );
}

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const runs = Number(option('runs') ?? 2);
if (args[0] === '--child') {
  child(args[1]!, args[2] as Variant, runs).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  parent(runs, option('only'));
}
