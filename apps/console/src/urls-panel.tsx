import { useEffect, useRef, useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from './api';
import { DataTable } from './data-table';
import { CHANGEFREQS, type Changefreq } from './enums';
import { useSession } from './session';
import { ErrorNote, Field, formatTime, Pager, useCursorPages } from './ui';

export function UrlsPanel({ site }: { site: Schemas['Site'] }) {
  const { api } = useSession();
  const origin = `${site.scheme}://${site.hostname}/`;
  const [input, setInput] = useState(origin);
  const [prefix, setPrefix] = useState(origin);
  const [selected, setSelected] = useState<Schemas['Url'] | null>(null);
  const urls = useCursorPages(
    (cursor) =>
      unwrap(
        api.GET('/v1/sites/{siteId}/urls', {
          params: { path: { siteId: site.id }, query: { limit: 50, cursor, prefix } },
        }),
      ),
    [api, site.id, prefix],
  );

  function search(event: FormEvent) {
    event.preventDefault();
    setSelected(null);
    setPrefix(input);
  }

  return (
    <>
      <form className="inline" role="search" onSubmit={search}>
        <Field label="URLs starting with" hint="Lists 50 at a time.">
          {(ids) => (
            <input
              {...ids}
              type="search"
              className="wide-input"
              value={input}
              onChange={(e) => setInput(e.target.value)}
            />
          )}
        </Field>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={urls.error} />
      <div className="split">
        <div>
          {urls.page && urls.page.items.length === 0 && <p>No URL starts with {prefix}.</p>}
          {urls.page && urls.page.items.length > 0 && (
            <ul className="url-list" aria-label="Matching URLs">
              {urls.page.items.map((url) => (
                <li key={url.loc}>
                  <button
                    type="button"
                    className="link break"
                    aria-pressed={selected?.loc === url.loc}
                    onClick={() => setSelected(url)}
                  >
                    {url.loc}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <Pager label="URLs" {...urls} />
        </div>
        {selected && (
          <UrlDetails
            url={selected}
            siteId={site.id}
            onDeleted={() => {
              setSelected(null);
              urls.reload();
            }}
            onSaved={(url) => {
              setSelected(url);
              urls.reload();
            }}
          />
        )}
      </div>
    </>
  );
}

function UrlDetails({
  url,
  siteId,
  onDeleted,
  onSaved,
}: {
  url: Schemas['Url'];
  siteId: string;
  onDeleted(): void;
  onSaved(url: Schemas['Url']): void;
}) {
  const { api, canWrite } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  async function remove() {
    setError(null);
    try {
      await unwrap(api.DELETE('/v1/sites/{siteId}/urls', { params: { path: { siteId } }, body: { locs: [url.loc] } }));
      onDeleted();
    } catch (e) {
      setError(e);
    }
  }
  // Moves focus (and, on a phone, the view) to the URL just chosen.
  useEffect(() => heading.current?.focus(), [url.loc]);
  const cluster = url.alternates;
  const own = cluster.find((alternate) => alternate.href === url.loc);
  return (
    <article className="card url-details" aria-labelledby="url-details-heading">
      <h2 id="url-details-heading" className="break" ref={heading} tabIndex={-1}>
        {url.loc}
      </h2>
      <dl className="pairs">
        <dt>Last modified</dt>
        <dd>{url.lastmod ?? '–'}</dd>
        <dt>Change frequency</dt>
        <dd>{url.changefreq ?? '–'}</dd>
        <dt>Priority</dt>
        <dd>{url.priority ?? '–'}</dd>
        <dt>Section</dt>
        <dd>{url.section ?? '(default)'}</dd>
        <dt>Images</dt>
        <dd>{url.images.length}</dd>
        <dt>Videos</dt>
        <dd>{url.videos.length}</dd>
        <dt>News</dt>
        <dd>{url.news ? url.news.title : '–'}</dd>
        <dt>Stored</dt>
        <dd>{formatTime(url.updatedAt)}</dd>
      </dl>
      <h3>Hreflang cluster</h3>
      <DataTable
        caption={`Hreflang cluster of ${url.loc}`}
        hideCaption
        rows={cluster}
        rowKey={(alternate) => `${alternate.hreflang} ${alternate.href}`}
        isCurrent={(alternate) => alternate === own}
        empty={<p className="muted">Not in an hreflang cluster.</p>}
        columns={[
          { header: 'hreflang', cell: (alternate) => `${alternate.hreflang}${alternate === own ? ' (this URL)' : ''}` },
          { header: 'Page', cell: (alternate) => alternate.href, className: 'break' },
        ]}
      />
      {cluster.length > 0 && !cluster.some((alternate) => alternate.hreflang.toLowerCase() === 'x-default') && (
        <p className="muted">No x-default in this cluster.</p>
      )}
      {canWrite && editing && (
        <EditUrl
          url={url}
          siteId={siteId}
          onSaved={(saved) => {
            setEditing(false);
            onSaved(saved);
          }}
        />
      )}
      {canWrite && (
        <p>
          <button type="button" className="secondary" onClick={() => setEditing(!editing)}>
            {editing ? 'Cancel the edit' : 'Edit this URL'}
          </button>{' '}
          <button type="button" className="danger" onClick={() => void remove()}>
            Delete this URL
          </button>
        </p>
      )}
      <ErrorNote error={error} />
    </article>
  );
}

/** A stored value as an upsert takes it: nulls are absent fields there. */
function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  ) as T;
}

/**
 * Edits one URL by upserting it again (PUT …/urls, as programs do): the protocol's fields, its
 * section and its exclusion; images, videos and news are sent back as stored, the hreflang
 * cluster is left. The API's refusals show on their fields.
 */
function EditUrl({
  url,
  siteId,
  onSaved,
}: {
  url: Schemas['Url'];
  siteId: string;
  onSaved(url: Schemas['Url']): void;
}) {
  const { api } = useSession();
  const [lastmod, setLastmod] = useState(url.lastmod ?? '');
  const [changefreq, setChangefreq] = useState<Changefreq | ''>((url.changefreq as Changefreq | null) ?? '');
  const [priority, setPriority] = useState(url.priority === null ? '' : String(url.priority));
  const [section, setSection] = useState(url.section ?? '');
  const [excluded, setExcluded] = useState(url.excluded);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    const entry: Schemas['UrlEntry'] = {
      loc: url.loc,
      ...(lastmod.trim() ? { lastmod: lastmod.trim() } : {}),
      ...(changefreq ? { changefreq } : {}),
      ...(priority.trim() ? { priority: Number(priority) } : {}),
      ...(section.trim() ? { section: section.trim() } : {}),
      images: withoutNulls(url.images),
      videos: withoutNulls(url.videos),
      ...(url.news ? { news: withoutNulls(url.news) } : {}),
      // Shown true for a URL a rule excludes too: sent only when changed, so a rule's match is not made a flag.
      ...(excluded !== url.excluded ? { excluded } : {}),
    };
    try {
      const result = await unwrap(api.PUT('/v1/sites/{siteId}/urls', { params: { path: { siteId } }, body: [entry] }));
      if (result.errors.length > 0) {
        setErrors(Object.fromEntries(result.errors.map((e) => [e.field, `${e.message} (${e.code})`])));
        return;
      }
      const stored = await unwrap(
        api.GET('/v1/sites/{siteId}/urls', { params: { path: { siteId }, query: { prefix: url.loc, limit: 1 } } }),
      );
      onSaved(stored.items.find((item) => item.loc === url.loc) ?? url);
    } catch (e) {
      setErrors({ lastmod: e instanceof Error ? e.message : String(e) });
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={`Edit ${url.loc}`}>
      <Field label="Last modified" hint="YYYY-MM-DD or a W3C datetime; empty: none" error={errors.lastmod}>
        {(ids) => <input {...ids} value={lastmod} onChange={(e) => setLastmod(e.target.value)} />}
      </Field>
      <Field label="Change frequency" error={errors.changefreq}>
        {(ids) => (
          <select {...ids} value={changefreq} onChange={(e) => setChangefreq(e.target.value as Changefreq | '')}>
            <option value="">none</option>
            {CHANGEFREQS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Priority" hint="0 to 1; empty: none" error={errors.priority}>
        {(ids) => <input {...ids} inputMode="decimal" value={priority} onChange={(e) => setPriority(e.target.value)} />}
      </Field>
      <Field label="Section" hint="empty: the default section" error={errors.section}>
        {(ids) => <input {...ids} value={section} onChange={(e) => setSection(e.target.value)} />}
      </Field>
      <label>
        <input type="checkbox" checked={excluded} onChange={(e) => setExcluded(e.target.checked)} /> Keep out of the
        published sitemaps
      </label>
      <button type="submit">Save the URL</button>
    </form>
  );
}
