import { useEffect, useState } from 'react';
import { unwrap, type Schemas } from './api';
import { useSession } from './session';
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
      {builds.page && builds.page.items.length === 0 && (
        <p>No builds yet. One starts by itself shortly after URLs change.</p>
      )}
      {builds.page && builds.page.items.length > 0 && (
        <>
          <DurationChart builds={builds.page.items} />
          <div className="table-wrap">
            <table>
              <caption>Builds, newest first, with their stage timings (summed over shards)</caption>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Status</th>
                  <th scope="col">Trigger</th>
                  <th scope="col" className="num">
                    URLs
                  </th>
                  <th scope="col" className="num">
                    Shards rendered / skipped
                  </th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col" className="num">
                    Read
                  </th>
                  <th scope="col" className="num">
                    Render
                  </th>
                  <th scope="col" className="num">
                    Gzip
                  </th>
                  <th scope="col" className="num">
                    Store
                  </th>
                  <th scope="col" className="num">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {builds.page.items.map((build) => {
                  const timings = (build.timings ?? {}) as StageTimings;
                  return (
                    <tr key={build.id}>
                      <td>{formatTime(build.startedAt ?? build.createdAt)}</td>
                      <td>
                        <StatusBadge status={build.status} />
                        {build.error && <div className="field-error">{build.error}</div>}
                      </td>
                      <td>
                        {build.trigger}
                        {build.full ? ' (full)' : ''}
                      </td>
                      <td className="num">{formatNumber(build.urlCount)}</td>
                      <td className="num">
                        {formatNumber(build.shardsRendered)} / {formatNumber(build.shardsSkipped)}
                      </td>
                      <td className="num">{formatBytes(build.byteSize)}</td>
                      <td className="num">{formatMs(timings.readMs)}</td>
                      <td className="num">{formatMs(timings.renderMs)}</td>
                      <td className="num">{formatMs(timings.gzipMs)}</td>
                      <td className="num">{formatMs(timings.storeMs)}</td>
                      <td className="num">{formatMs(wallMsOf(build))}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pager label="Builds" {...builds} />
    </>
  );
}
