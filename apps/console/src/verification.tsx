import { useState } from 'react';
import { unwrap, type Schemas } from './api';
import { useSession } from './session';
import { ErrorNote, formatTime } from './ui';

/** How to prove the hostname, the last check's outcome, and a button to check again now. */
export function Verification({ site, onChecked }: { site: Schemas['Site']; onChecked(site: Schemas['Site']): void }) {
  const { api } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [queued, setQueued] = useState(false);
  const { verification } = site;
  const path = { siteId: site.id };

  async function check() {
    setError(null);
    try {
      await unwrap(api.POST('/v1/sites/{siteId}/verify', { params: { path } }));
      setQueued(true);
      onChecked(await unwrap(api.GET('/v1/sites/{siteId}', { params: { path } })));
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section className="card" aria-labelledby="verification-heading">
      <h2 id="verification-heading">Prove you own {site.hostname}</h2>
      <p>
        {verification.status === 'taken'
          ? 'Another account verified this hostname first.'
          : 'Its sitemaps are not served until the hostname is proven. Publish either:'}
      </p>
      {verification.status !== 'taken' && (
        <dl className="pairs">
          <dt>DNS TXT record</dt>
          <dd className="break">
            <code>{verification.dnsRecord.name}</code> = <code>{verification.dnsRecord.value}</code>
          </dd>
          <dt>or this file</dt>
          <dd className="break">
            <code>{verification.fileUrl}</code> containing <code>{verification.token}</code>
          </dd>
          <dt>Last check</dt>
          <dd>
            {formatTime(verification.checkedAt)}
            {verification.error ? ` — ${verification.error.message}` : ''}
          </dd>
          <dt>Next check</dt>
          <dd>{formatTime(verification.nextCheckAt)}</dd>
        </dl>
      )}
      <div className="actions">
        <button type="button" onClick={() => void check()}>
          Check now
        </button>
        {queued && <span role="status">A check is queued; this page shows its outcome when you come back.</span>}
      </div>
      <ErrorNote error={error} />
    </section>
  );
}
