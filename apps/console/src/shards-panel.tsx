import { unwrap, type Schemas } from './api';
import { useSession } from './session';
import { DataTable } from './data-table';
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
      {shards.page && (
        <DataTable
          caption="Shards: each is one sitemap file; fill is against the protocol's 50,000 URLs and 50 MB"
          rows={shards.page.items}
          rowKey={(shard) => shard.id}
          empty={<p>No shards yet: they are planned by the first build.</p>}
          columns={[
            { header: 'File', cell: (shard) => shard.path, className: 'break' },
            { header: 'Section', cell: (shard) => shard.section ?? '(default)' },
            { header: 'URLs', cell: (shard) => formatNumber(shard.urlCount), numeric: true },
            { header: 'Size', cell: (shard) => formatBytes(shard.byteSize), numeric: true },
            { header: 'Fill', cell: (shard) => <Fill shard={shard} /> },
            { header: 'State', cell: (shard) => (shard.dirty ? 'changed, not rendered yet' : 'rendered') },
          ]}
        />
      )}
      <Pager label="Shards" {...shards} />
    </>
  );
}

function Fill({ shard }: { shard: Schemas['Shard'] }) {
  const fill = Math.max(shard.urlCount / MAX_URLS, shard.byteSize / MAX_BYTES);
  return (
    <>
      <meter min={0} max={1} value={fill} aria-label={`${shard.path} fill`} title={`${(fill * 100).toFixed(1)}%`} />{' '}
      {(fill * 100).toFixed(1)}%
    </>
  );
}
