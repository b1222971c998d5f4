import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, uploadUrls, type Schemas, type UploadProgress } from './api';
import { DataTable } from './data-table';
import { useSession } from './session';
import { ErrorNote, Field, formatBytes, formatNumber, formatTime, Pager, StatusBadge, useCursorPages } from './ui';

/** How often the running import's counters are read while the upload is under way. */
const POLL_MS = 500;

export function ImportPanel({ site }: { site: Schemas['Site'] }) {
  const { api, credentials } = useSession();
  const fileRef = useRef<HTMLInputElement>(null);
  const [mode, setMode] = useState<'upsert' | 'replace'>('upsert');
  const [fileError, setFileError] = useState<string | undefined>();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [running, setRunning] = useState<Schemas['Import'] | null>(null);
  const [result, setResult] = useState<Schemas['ImportResult'] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [uploading, setUploading] = useState(false);
  const imports = useCursorPages(
    (cursor) =>
      unwrap(
        api.GET('/v1/sites/{siteId}/imports', { params: { path: { siteId: site.id }, query: { limit: 10, cursor } } }),
      ),
    [api, site.id],
  );

  // Live counters: the import row the API updates as it reads the upload.
  useEffect(() => {
    if (!uploading) return;
    let live = true;
    const poll = async () => {
      const page = await unwrap(
        api.GET('/v1/sites/{siteId}/imports', { params: { path: { siteId: site.id }, query: { limit: 1 } } }),
      );
      const latest = page.items[0];
      if (live && latest && (latest.status === 'running' || latest.status === 'queued')) setRunning(latest);
    };
    const timer = setInterval(() => void poll().catch(() => undefined), POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api, site.id, uploading]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) return setFileError('Choose a file to upload');
    setFileError(undefined);
    setError(null);
    setResult(null);
    setRunning(null);
    setProgress({ sent: 0, total: file.size });
    setUploading(true);
    try {
      setResult(await uploadUrls({ credentials, siteId: site.id, file, mode, onProgress: setProgress }));
    } catch (e) {
      setError(e);
    } finally {
      setUploading(false);
      imports.reload();
    }
  }

  return (
    <>
      <SitemapImport site={site} onDone={imports.reload} />
      <form className="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="upload-heading">
        <h2 id="upload-heading">Upload URLs</h2>
        <p className="muted">
          NDJSON (one URL entry per line) or CSV with a header, optionally gzipped (<code>.ndjson</code>,{' '}
          <code>.csv</code>, <code>.gz</code>). Valid lines are stored; rejected lines are listed with their reason.
        </p>
        <div className="inline">
          <Field label="File" error={fileError}>
            {(ids) => <input {...ids} ref={fileRef} type="file" accept=".ndjson,.jsonl,.json,.csv,.gz" />}
          </Field>
          <Field label="Mode" hint="Replace deletes the site's URLs absent from the file, when the import completes.">
            {(ids) => (
              <select {...ids} value={mode} onChange={(e) => setMode(e.target.value as 'upsert' | 'replace')}>
                <option value="upsert">Add or update</option>
                <option value="replace">Replace all URLs</option>
              </select>
            )}
          </Field>
          <button type="submit" disabled={uploading}>
            {uploading ? 'Uploading…' : 'Upload'}
          </button>
        </div>
      </form>
      {progress && (
        <section className="card" aria-labelledby="progress-heading">
          <h2 id="progress-heading">Progress</h2>
          <label className="progress">
            Sent {formatBytes(progress.sent)} of {formatBytes(progress.total)}
            <progress max={progress.total || 1} value={progress.sent} />
          </label>
          <p role="status" aria-live="polite">
            {result
              ? `Import ${result.status}: ${formatNumber(result.linesRead)} lines read, ${formatNumber(result.stored)} stored, ` +
                `${formatNumber(result.rejected)} rejected, ${formatNumber(result.changed)} changed` +
                (result.deleted ? `, ${formatNumber(result.deleted)} deleted` : '')
              : running
                ? `Importing: ${formatNumber(running.linesRead)} lines read, ${formatNumber(running.stored)} stored, ` +
                  `${formatNumber(running.rejected)} rejected`
                : uploading
                  ? 'Uploading…'
                  : ''}
          </p>
          <ErrorNote error={error} />
        </section>
      )}
      {result && result.rejected > 0 && <Rejections siteId={site.id} importId={result.importId} />}
      <section aria-labelledby="imports-heading">
        <h2 id="imports-heading">Recent imports</h2>
        <ErrorNote error={imports.error} />
        {imports.page && (
          <DataTable
            caption="Imports, newest first"
            hideCaption
            rows={imports.page.items}
            rowKey={(item) => item.id}
            empty={<p>No imports yet.</p>}
            columns={[
              { header: 'Started', cell: (item) => formatTime(item.createdAt) },
              { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
              { header: 'Source', cell: (item) => `${item.source} (${item.format}, ${item.mode})` },
              { header: 'Read', cell: (item) => formatNumber(item.linesRead), numeric: true },
              { header: 'Stored', cell: (item) => formatNumber(item.stored), numeric: true },
              { header: 'Rejected', cell: (item) => formatNumber(item.rejected), numeric: true },
            ]}
          />
        )}
        <Pager label="Imports" {...imports} />
      </section>
    </>
  );
}

function Rejections({ siteId, importId }: { siteId: string; importId: string }) {
  const { api } = useSession();
  const rejections = useCursorPages(
    (cursor) =>
      unwrap(
        api.GET('/v1/sites/{siteId}/imports/{importId}/rejections', {
          params: { path: { siteId, importId }, query: { limit: 50, cursor } },
        }),
      ),
    [api, siteId, importId],
  );
  return (
    <section aria-labelledby="rejections-heading">
      <h2 id="rejections-heading">Rejected lines</h2>
      <ErrorNote error={rejections.error} />
      {rejections.page && (
        <DataTable
          caption="Rejected lines of the upload"
          hideCaption
          rows={rejections.page.items}
          rowKey={(rejection, i) => `${rejection.line}-${i}`}
          columns={[
            { header: 'Line', cell: (rejection) => rejection.line, numeric: true },
            { header: 'Field', cell: (rejection) => rejection.field },
            { header: 'Reason', cell: (rejection) => rejection.reason },
            { header: 'Code', cell: (rejection) => <code>{rejection.code}</code> },
          ]}
        />
      )}
      <Pager label="Rejected lines" {...rejections} />
    </section>
  );
}

/** Imports a site's existing sitemaps from the web: queued, then followed until it ends. */
function SitemapImport({ site, onDone }: { site: Schemas['Site']; onDone(): void }) {
  const { api, canWrite } = useSession();
  const [url, setUrl] = useState(`${site.scheme}://${site.hostname}/robots.txt`);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [importId, setImportId] = useState<string | null>(null);
  const [state, setState] = useState<Schemas['Import'] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (!importId) return;
    let live = true;
    const poll = async () => {
      const found = await unwrap(
        api.GET('/v1/sites/{siteId}/imports/{importId}', { params: { path: { siteId: site.id, importId } } }),
      );
      if (!live) return;
      setState(found);
      if (found.status === 'completed' || found.status === 'failed') {
        setImportId(null);
        onDone();
      }
    };
    const timer = setInterval(() => void poll().catch((e: unknown) => live && setError(e)), POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api, site.id, importId, onDone]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setError(null);
    setState(null);
    try {
      const queued = await unwrap(
        api.POST('/v1/sites/{siteId}/imports/sitemaps', { params: { path: { siteId: site.id } }, body: { url } }),
      );
      setImportId(queued.importId);
    } catch (e) {
      const fields = fieldErrors(e);
      if (Object.keys(fields).length) setErrors(fields);
      else setError(e);
    }
  }

  if (!canWrite) return null;
  return (
    <form className="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="sitemap-import-heading">
      <h2 id="sitemap-import-heading">Import existing sitemaps</h2>
      <p className="muted">A robots.txt, a sitemap index or a sitemap on the web; its URLs are added or updated.</p>
      <div className="inline">
        <Field label="Sitemap or robots.txt URL" error={errors.url}>
          {(ids) => <input {...ids} type="url" value={url} onChange={(e) => setUrl(e.target.value)} required />}
        </Field>
        <button type="submit" disabled={importId !== null}>
          {importId ? 'Importing…' : 'Import from URL'}
        </button>
      </div>
      <p role="status" aria-live="polite">
        {state &&
          `Sitemaps import ${state.status}: ${formatNumber(state.linesRead)} URLs read, ` +
            `${formatNumber(state.stored)} stored, ${formatNumber(state.rejected)} rejected`}
      </p>
      <ErrorNote error={error} />
    </form>
  );
}
