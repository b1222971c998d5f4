// Crawler insight for one site: which verified crawlers read the index and each shard, and when;
// the shards changed since a crawler last read them ("waiting for Googlebot"); fetches per day per
// crawler as inline SVG bars with the same numbers in a table; errors served to crawlers; the time
// from the last publish to the first verified read; and the site's sitemap.stale setting.
import { useEffect, useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, type Schemas } from './api';
import { DataTable } from './data-table';
import type { Crawler } from './enums';
import { useSession } from './session';
import { ErrorNote, Field, formatBytes, formatNumber, formatTime } from './ui';

type Insight = Schemas['CrawlInsight'];
const DAYS = 30;

const CRAWLER_NAMES: Record<Crawler, string> = {
  googlebot: 'Googlebot',
  bingbot: 'Bingbot',
  yandexbot: 'YandexBot',
  applebot: 'Applebot',
  duckduckbot: 'DuckDuckBot',
  baiduspider: 'Baiduspider',
  petalbot: 'PetalBot',
  other: 'other',
};
const crawlerName = (crawler: string) => CRAWLER_NAMES[crawler as Crawler] ?? crawler;

export function CrawlsPanel({ site, onSaved }: { site: Schemas['Site']; onSaved(site: Schemas['Site']): void }) {
  const { api } = useSession();
  const [insight, setInsight] = useState<Insight | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    unwrap(api.GET('/v1/sites/{siteId}/crawls', { params: { path: { siteId: site.id }, query: { days: DAYS } } })).then(
      setInsight,
      setError,
    );
  }, [api, site.id]);

  return (
    <>
      <ErrorNote error={error} />
      {!insight && !error && <p aria-busy="true">Loading…</p>}
      {insight && (
        <>
          <CrawlerSummary insight={insight} />
          <FileReads insight={insight} />
          <FetchesPerDay days={insight.days} />
          <ServedErrors errors={insight.errors} />
        </>
      )}
      <StaleSetting site={site} onSaved={onSaved} />
    </>
  );
}

function CrawlerSummary({ insight }: { insight: Insight }) {
  const change = insight.lastChange;
  return (
    <>
      <p className="muted">
        Verified means the crawler's address reverse-resolves to its engine's documented domain and that name resolves
        back to the address. Counts cover the last {DAYS} days.
      </p>
      <dl className="stats">
        <div className="wide">
          <dt>Verified crawlers of the index</dt>
          <dd>
            {insight.crawlers.length === 0
              ? 'none yet'
              : insight.crawlers
                  .map((crawler) => `${crawlerName(crawler.crawler)} (last ${formatTime(crawler.lastReadAt)})`)
                  .join(', ')}
          </dd>
        </div>
        <div>
          <dt>Last change published</dt>
          <dd>{change ? formatTime(change.at) : 'never'}</dd>
        </div>
        <div>
          <dt>Publish to first verified read</dt>
          <dd>
            {change === null
              ? '–'
              : change.delaySeconds === null
                ? 'not read yet'
                : `${formatDelay(change.delaySeconds)}${change.crawler ? ` (${crawlerName(change.crawler)})` : ''}`}
          </dd>
        </div>
      </dl>
    </>
  );
}

function FileReads({ insight }: { insight: Insight }) {
  const waiting = insight.files.filter((file) => file.waitingFor.length > 0);
  if (insight.files.length === 0) return <p>Nothing published yet: crawlers have nothing to read.</p>;
  return (
    <>
      <h2>Waiting for crawlers</h2>
      {waiting.length === 0 ? (
        <p role="status">
          {insight.crawlers.length === 0
            ? 'No verified crawler has read the index yet.'
            : 'Every crawler that reads the index has read each file since it last changed.'}
        </p>
      ) : (
        <ul aria-label="Files waiting for crawlers">
          {waiting.map((file) => (
            <li key={file.path}>
              <span className="break">{file.path}</span>: waiting for {file.waitingFor.map(crawlerName).join(', ')}
            </li>
          ))}
        </ul>
      )}
      <DataTable
        caption="Last verified read of each published file"
        rows={insight.files}
        rowKey={(file) => file.path}
        columns={[
          { header: 'File', cell: (file) => file.path, className: 'break' },
          { header: 'Changed', cell: (file) => formatTime(file.modifiedAt) },
          {
            header: 'Read by',
            cell: (file) =>
              file.reads.length === 0
                ? 'never read'
                : file.reads
                    .map(
                      (read) =>
                        `${crawlerName(read.crawler)} ${formatTime(read.lastReadAt)}${read.readSinceChange ? '' : ' (older version)'}`,
                    )
                    .join('; '),
          },
          {
            header: 'Waiting for',
            cell: (file) => (file.waitingFor.length === 0 ? '–' : file.waitingFor.map(crawlerName).join(', ')),
          },
        ]}
      />
    </>
  );
}

const WIDTH = 600;
const ROW = 22;
const LABEL = 150;

/** Fetches per crawler over the period, verified and unverified apart, as bars; the table holds the days. */
function FetchesPerDay({ days }: { days: Insight['days'] }) {
  if (days.length === 0)
    return (
      <>
        <h2>Fetches per day</h2>
        <p>No crawler fetched a sitemap file in the last {DAYS} days.</p>
      </>
    );
  const totals = new Map<string, number>();
  for (const day of days) {
    const key = `${crawlerName(day.crawler)}${day.verified ? '' : ' (unverified)'}`;
    totals.set(key, (totals.get(key) ?? 0) + day.fetches);
  }
  const bars = [...totals.entries()].sort((a, b) => b[1] - a[1]);
  const max = Math.max(...bars.map(([, n]) => n), 1);
  const height = bars.length * ROW + 4;
  return (
    <>
      <h2>Fetches per day</h2>
      <figure className="chart">
        <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby="crawl-chart-title">
          <title id="crawl-chart-title">{`Fetches by crawler in the last ${DAYS} days`}</title>
          {bars.map(([name, fetches], i) => {
            const width = Math.max(1, ((WIDTH - LABEL - 60) * fetches) / max);
            return (
              <g key={name} transform={`translate(0, ${i * ROW + 2})`}>
                <text x={LABEL - 6} y={ROW / 2 + 4} textAnchor="end" className="tick">
                  {name}
                </text>
                <rect x={LABEL} y={3} width={width} height={ROW - 6} className="bar" />
                <text x={LABEL + width + 4} y={ROW / 2 + 4} className="tick">
                  {formatNumber(fetches)}
                </text>
              </g>
            );
          })}
        </svg>
      </figure>
      <DataTable
        caption="Fetches per day and crawler (UTC)"
        rows={days}
        rowKey={(day) => `${day.day} ${day.crawler} ${day.verified}`}
        columns={[
          { header: 'Day', cell: (day) => day.day },
          { header: 'Crawler', cell: (day) => crawlerName(day.crawler) },
          { header: 'Verified', cell: (day) => (day.verified ? 'yes' : 'no') },
          { header: 'Fetches', cell: (day) => formatNumber(day.fetches), numeric: true },
          { header: 'Not modified', cell: (day) => formatNumber(day.notModified), numeric: true },
          { header: 'Bytes', cell: (day) => formatBytes(day.bytes), numeric: true },
        ]}
      />
    </>
  );
}

function ServedErrors({ errors }: { errors: Insight['errors'] }) {
  return (
    <>
      <h2>Errors served to crawlers</h2>
      <DataTable
        caption="4xx and 5xx answers to crawlers (old file names, failures), newest first"
        rows={errors}
        rowKey={(error) => `${error.path} ${error.status} ${error.crawler} ${error.verified}`}
        empty={<p>None in the last {DAYS} days.</p>}
        columns={[
          { header: 'Status', cell: (error) => error.status },
          { header: 'File', cell: (error) => error.path, className: 'break' },
          {
            header: 'Crawler',
            cell: (error) => `${crawlerName(error.crawler)}${error.verified ? '' : ' (unverified)'}`,
          },
          { header: 'Fetches', cell: (error) => formatNumber(error.fetches), numeric: true },
          { header: 'Last', cell: (error) => formatTime(error.lastAt) },
        ]}
      />
    </>
  );
}

/** staleAfterDays: the days a changed shard may stay unread before sitemap.stale; empty turns it off. */
function StaleSetting({ site, onSaved }: { site: Schemas['Site']; onSaved(site: Schemas['Site']): void }) {
  const { api } = useSession();
  const [days, setDays] = useState(site.staleAfterDays === null ? '' : String(site.staleAfterDays));
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setSaved(false);
    try {
      const staleAfterDays = days.trim() === '' ? null : Number(days);
      const updated = await unwrap(
        api.PATCH('/v1/sites/{siteId}', { params: { path: { siteId: site.id } }, body: { staleAfterDays } }),
      );
      setFieldError(undefined);
      setError(null);
      setSaved(true);
      onSaved(updated);
    } catch (e) {
      const byField = fieldErrors(e);
      setFieldError(byField.staleAfterDays);
      setError(byField.staleAfterDays ? null : e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h2>Stale shard alert</h2>
      <form className="settings" onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label="Alert after days unread"
          error={fieldError}
          hint="Sends the sitemap.stale webhook when a changed shard stays unread by every verified crawler this many days (1-365). Empty: off."
        >
          {(ids) => (
            <input
              {...ids}
              inputMode="numeric"
              value={days}
              onChange={(e) => {
                setSaved(false);
                setDays(e.target.value);
              }}
            />
          )}
        </Field>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          Save alert
        </button>
        {saved && <p role="status">Saved.</p>}
      </form>
    </>
  );
}

function formatDelay(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3_600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${(seconds / 3_600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}
