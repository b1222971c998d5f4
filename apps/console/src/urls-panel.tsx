import { useEffect, useRef, useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from './api';
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
          />
        )}
      </div>
    </>
  );
}

function UrlDetails({ url, siteId, onDeleted }: { url: Schemas['Url']; siteId: string; onDeleted(): void }) {
  const { api, canWrite } = useSession();
  const [error, setError] = useState<unknown>(null);
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
      {cluster.length === 0 ? (
        <p className="muted">Not in an hreflang cluster.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Hreflang cluster of {url.loc}</caption>
            <thead>
              <tr>
                <th scope="col">hreflang</th>
                <th scope="col">Page</th>
              </tr>
            </thead>
            <tbody>
              {cluster.map((alternate) => (
                <tr
                  key={`${alternate.hreflang} ${alternate.href}`}
                  aria-current={alternate === own ? 'true' : undefined}
                >
                  <td>
                    {alternate.hreflang}
                    {alternate === own ? ' (this URL)' : ''}
                  </td>
                  <td className="break">{alternate.href}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cluster.length > 0 && !cluster.some((alternate) => alternate.hreflang.toLowerCase() === 'x-default') && (
        <p className="muted">No x-default in this cluster.</p>
      )}
      {canWrite && (
        <p>
          <button type="button" className="danger" onClick={() => void remove()}>
            Delete this URL
          </button>
        </p>
      )}
      <ErrorNote error={error} />
    </article>
  );
}
