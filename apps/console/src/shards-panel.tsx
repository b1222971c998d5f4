import { unwrap, type Schemas } from './api';
import { useSession } from './session';
import { ErrorNote, formatBytes, formatNumber, Pager, useCursorPages } from './ui';

/** The protocol's limits of one sitemap file: what "full" means for a shard. */
const MAX_URLS = 50_000;
const MAX_BYTES = 50 * 1024 * 1024;

export function ShardsPanel({ site }: { site: Schemas['Site'] }) {
  const { api } = useSession();
  const shards = useCursorPages(
    (cursor) =>
      unwrap(
        api.GET('/v1/sites/{siteId}/shards', { params: { path: { siteId: site.id }, query: { limit: 50, cursor } } }),
      ),
    [api, site.id],
  );
  return (
    <>
      <ErrorNote error={shards.error} />
      {shards.page && shards.page.items.length === 0 && <p>No shards yet: they are planned by the first build.</p>}
      {shards.page && shards.page.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>Shards: each is one sitemap file; fill is against the protocol's 50,000 URLs and 50 MB</caption>
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Section</th>
                <th scope="col" className="num">
                  URLs
                </th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col">Fill</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {shards.page.items.map((shard) => {
                const fill = Math.max(shard.urlCount / MAX_URLS, shard.byteSize / MAX_BYTES);
                return (
                  <tr key={shard.id}>
                    <td className="break">{shard.path}</td>
                    <td>{shard.section ?? '(default)'}</td>
                    <td className="num">{formatNumber(shard.urlCount)}</td>
                    <td className="num">{formatBytes(shard.byteSize)}</td>
                    <td>
                      <meter
                        min={0}
                        max={1}
                        value={fill}
                        aria-label={`${shard.path} fill`}
                        title={`${(fill * 100).toFixed(1)}%`}
                      />{' '}
                      {(fill * 100).toFixed(1)}%
                    </td>
                    <td>{shard.dirty ? 'changed, not rendered yet' : 'rendered'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Shards" {...shards} />
    </>
  );
}
