import { useEffect, useState } from 'react';
import { unwrap, type Schemas } from './api';
import { useSession } from './session';
import { DataTable } from './data-table';
import { DurationChart, wallMsOf } from './duration-chart';
import { ErrorNote, formatBytes, formatMs, formatNumber, formatTime, Pager, StatusBadge, useCursorPages } from './ui';

/** While a build is queued or running, the page is read again this often. */
const POLL_MS = 1_000;

interface StageTimings {
  readMs?: number;
  renderMs?: number;
  gzipMs?: number;
  storeMs?: number;
}
const timingsOf = (build: Schemas['Build']) => (build.timings ?? {}) as StageTimings;

export function BuildsPanel({ site }: { site: Schemas['Site'] }) {
  const { api } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const builds = useCursorPages(
    (cursor) =>
      unwrap(
        api.GET('/v1/sites/{siteId}/builds', { params: { path: { siteId: site.id }, query: { limit: 30, cursor } } }),
      ),
    [api, site.id],
  );
  const active = builds.page?.items.some((build) => build.status === 'queued' || build.status === 'running');
  const { reload } = builds;
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [active, builds.page, reload]);

  async function start(full: boolean) {
    setBusy(true);
    setError(null);
    try {
      await unwrap(api.POST('/v1/sites/{siteId}/builds', { params: { path: { siteId: site.id } }, body: { full } }));
      reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div className="actions">
        <button type="button" onClick={() => void start(false)} disabled={busy}>
          Build now
        </button>
        <button type="button" className="secondary" onClick={() => void start(true)} disabled={busy}>
          Full rebuild
        </button>
        {active && (
          <span className="muted" role="status">
            A build is in progress; this list refreshes itself.
          </span>
        )}
      </div>
      <ErrorNote error={error ?? builds.error} />
      {builds.page && builds.page.items.length > 0 && <DurationChart builds={builds.page.items} />}
      {builds.page && (
        <DataTable
          caption="Builds, newest first, with their stage timings (summed over shards)"
          rows={builds.page.items}
          rowKey={(build) => build.id}
          empty={<p>No builds yet. One starts by itself shortly after URLs change.</p>}
          columns={[
            { header: 'Started', cell: (build) => formatTime(build.startedAt ?? build.createdAt) },
            {
              header: 'Status',
              cell: (build) => (
                <>
                  <StatusBadge status={build.status} />
                  {build.error && <div className="field-error">{build.error}</div>}
                </>
              ),
            },
            { header: 'Trigger', cell: (build) => `${build.trigger}${build.full ? ' (full)' : ''}` },
            { header: 'URLs', cell: (build) => formatNumber(build.urlCount), numeric: true },
            {
              header: 'Shards rendered / skipped',
              cell: (build) => `${formatNumber(build.shardsRendered)} / ${formatNumber(build.shardsSkipped)}`,
              numeric: true,
            },
            { header: 'Size', cell: (build) => formatBytes(build.byteSize), numeric: true },
            { header: 'Read', cell: (build) => formatMs(timingsOf(build).readMs), numeric: true },
            { header: 'Render', cell: (build) => formatMs(timingsOf(build).renderMs), numeric: true },
            { header: 'Gzip', cell: (build) => formatMs(timingsOf(build).gzipMs), numeric: true },
            { header: 'Store', cell: (build) => formatMs(timingsOf(build).storeMs), numeric: true },
            { header: 'Total', cell: (build) => formatMs(wallMsOf(build)), numeric: true },
          ]}
        />
      )}
      <Pager label="Builds" {...builds} />
    </>
  );
}
