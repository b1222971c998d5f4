import { useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, type Schemas } from './api';
import { useSession } from './session';
import { hrefOf } from './route';
import { DataTable } from './data-table';
import { ErrorNote, Field, formatTime, Pager, StatusBadge, useCursorPages } from './ui';

export function SitesPage() {
  const { api, canWrite } = useSession();
  const sites = useCursorPages(
    (cursor) => unwrap(api.GET('/v1/sites', { params: { query: { limit: 25, cursor } } })),
    [api],
  );
  return (
    <>
      <h1>Sites</h1>
      {canWrite ? (
        <CreateSite
          onCreated={(site) => (window.location.hash = hrefOf({ page: 'site', siteId: site.id, tab: 'overview' }))}
        />
      ) : (
        <p>Your role (viewer) reads this tenant's sites; an editor, admin or owner adds them.</p>
      )}
      <section aria-labelledby="sites-heading">
        <h2 id="sites-heading">Your sites</h2>
        <ErrorNote error={sites.error} />
        {sites.page && (
          <DataTable
            caption="Sites of this tenant"
            hideCaption
            rows={sites.page.items}
            rowKey={(site) => site.id}
            empty={<p>No sites yet: add one above.</p>}
            columns={[
              {
                header: 'Site',
                cell: (site) => (
                  <a href={hrefOf({ page: 'site', siteId: site.id, tab: 'overview' })}>{site.hostname}</a>
                ),
              },
              { header: 'Verification', cell: (site) => <StatusBadge status={site.verification.status} /> },
              { header: 'Sitemap index', cell: (site) => site.sitemapUrl, className: 'break' },
              { header: 'Created', cell: (site) => formatTime(site.createdAt) },
            ]}
          />
        )}
        <Pager label="Sites" {...sites} />
      </section>
    </>
  );
}

function CreateSite({ onCreated }: { onCreated(site: Schemas['Site']): void }) {
  const { api } = useSession();
  const [hostname, setHostname] = useState('');
  const [scheme, setScheme] = useState<'https' | 'http'>('https');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      onCreated(await unwrap(api.POST('/v1/sites', { body: { hostname: hostname.trim(), scheme } })));
    } catch (e) {
      const byField = fieldErrors(e);
      setErrors(byField);
      setError(Object.keys(byField).length ? null : e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="create-site-heading" className="card">
      <h2 id="create-site-heading">Add a site</h2>
      <form className="inline" onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Hostname" error={errors.hostname} hint="e.g. shop.example.com">
          {(ids) => <input {...ids} value={hostname} onChange={(e) => setHostname(e.target.value)} required />}
        </Field>
        <Field label="Scheme" error={errors.scheme}>
          {(ids) => (
            <select {...ids} value={scheme} onChange={(e) => setScheme(e.target.value as 'https' | 'http')}>
              <option value="https">https</option>
              <option value="http">http</option>
            </select>
          )}
        </Field>
        <button type="submit" disabled={busy}>
          Add site
        </button>
      </form>
      <ErrorNote error={error} />
    </section>
  );
}
