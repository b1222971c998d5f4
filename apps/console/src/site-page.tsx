import { useEffect, useState } from 'react';
import { Verification } from './verification';
import { unwrap, type Schemas } from './api';
import { useSession } from './session';
import { BuildsPanel } from './builds-panel';
import { CrawlsPanel } from './crawls-panel';
import { ExclusionsPanel } from './exclusions-panel';
import { ImportPanel } from './import-panel';
import { hrefOf, SITE_TABS, type SiteTab } from './route';
import { SettingsPanel } from './settings-panel';
import { ShardsPanel } from './shards-panel';
import { ErrorNote, formatNumber, formatTime, StatusBadge } from './ui';
import { UrlsPanel } from './urls-panel';

const TAB_LABELS: Record<SiteTab, string> = {
  overview: 'Overview',
  builds: 'Builds',
  shards: 'Shards',
  urls: 'URLs',
  exclusions: 'Exclusions',
  import: 'Import',
  crawls: 'Crawlers',
  settings: 'Settings',
};

export function SitePage({ siteId, tab }: { siteId: string; tab: SiteTab }) {
  const { api } = useSession();
  const [site, setSite] = useState<Schemas['Site'] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    unwrap(api.GET('/v1/sites/{siteId}', { params: { path: { siteId } } })).then(setSite, setError);
  }, [api, siteId]);

  if (error) return <ErrorNote error={error} />;
  if (!site) return <p aria-busy="true">Loading…</p>;
  return (
    <>
      <h1>{site.hostname}</h1>
      <p className="muted break">
        Sitemap index: <a href={site.sitemapUrl}>{site.sitemapUrl}</a>
      </p>
      <nav className="tabs" aria-label="Site sections">
        {SITE_TABS.map((name) => (
          <a
            key={name}
            href={hrefOf({ page: 'site', siteId, tab: name })}
            aria-current={name === tab ? 'page' : undefined}
          >
            {TAB_LABELS[name]}
          </a>
        ))}
      </nav>
      <section aria-label={TAB_LABELS[tab]}>
        {tab === 'overview' && <Overview site={site} onChecked={setSite} />}
        {tab === 'builds' && <BuildsPanel site={site} />}
        {tab === 'shards' && <ShardsPanel site={site} />}
        {tab === 'urls' && <UrlsPanel site={site} />}
        {tab === 'exclusions' && <ExclusionsPanel site={site} />}
        {tab === 'import' && <ImportPanel site={site} />}
        {tab === 'crawls' && <CrawlsPanel site={site} onSaved={setSite} />}
        {tab === 'settings' && <SettingsPanel site={site} onSaved={setSite} />}
      </section>
    </>
  );
}

/** Shards read for the overview: a site with more shows "100+" rather than paging through all. */
const OVERVIEW_SHARDS = 100;

function Overview({ site, onChecked }: { site: Schemas['Site']; onChecked(site: Schemas['Site']): void }) {
  const { api } = useSession();
  const [builds, setBuilds] = useState<Schemas['BuildPage'] | null>(null);
  const [shards, setShards] = useState<Schemas['ShardPage'] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const path = { siteId: site.id };
    unwrap(api.GET('/v1/sites/{siteId}/builds', { params: { path, query: { limit: 20 } } })).then(setBuilds, setError);
    unwrap(api.GET('/v1/sites/{siteId}/shards', { params: { path, query: { limit: OVERVIEW_SHARDS } } })).then(
      setShards,
      setError,
    );
  }, [api, site.id]);

  const latest = builds?.items[0];
  const published = builds?.items.find((build) => build.status === 'published');
  const sections = shards ? [...new Set(shards.items.map((shard) => shard.section ?? '(default)'))] : [];
  const more = shards?.nextCursor ? '+' : '';
  return (
    <>
      <ErrorNote error={error} />
      <dl className="stats">
        <div>
          <dt>Verification</dt>
          <dd>
            <StatusBadge status={site.verification.status} />
          </dd>
        </div>
        <div>
          <dt>Last publish</dt>
          <dd>{builds ? (published ? formatTime(published.finishedAt) : 'never') : '…'}</dd>
        </div>
        <div>
          <dt>Latest build</dt>
          <dd>{builds ? latest ? <StatusBadge status={latest.status} /> : 'none yet' : '…'}</dd>
        </div>
        <div>
          <dt>URLs published</dt>
          <dd>{published ? formatNumber(published.urlCount) : builds ? '0' : '…'}</dd>
        </div>
        <div>
          <dt>Shards</dt>
          <dd>{shards ? `${formatNumber(shards.items.length)}${more}` : '…'}</dd>
        </div>
        <div className="wide">
          <dt>Sections</dt>
          <dd>{shards ? (sections.length ? `${sections.join(', ')}${more ? ', …' : ''}` : 'none yet') : '…'}</dd>
        </div>
      </dl>
      {site.verification.status !== 'verified' && <Verification site={site} onChecked={onChecked} />}
      <h2>Settings in short</h2>
      <dl className="pairs">
        <dt>Scheme</dt>
        <dd>{site.scheme}</dd>
        <dt>Scheduled rebuild</dt>
        <dd>{site.rebuildCron ?? 'none'}</dd>
        <dt>Text sitemap</dt>
        <dd>{site.textSitemap ? 'published' : 'off'}</dd>
        <dt>Own robots.txt rules</dt>
        <dd>{site.robotsTxt ? 'yes' : 'none'}</dd>
      </dl>
    </>
  );
}
