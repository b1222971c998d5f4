import { createContext, useContext, useMemo, useState, type FormEvent } from 'react';
import { clientFor, messageOf, SitemapsApiError, storedKey, storeKey, unwrap } from './api';
import { hrefOf, useRoute } from './route';
import { SitePage } from './site-page';
import { SitesPage } from './sites-page';
import { Field } from './ui';
import { WebhooksPage } from './webhooks-page';
import type { SitemapsClient } from '@sitemaps/client';

interface Session {
  apiKey: string;
  api: SitemapsClient;
  signOut(reason?: string): void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

export function App() {
  const [apiKey, setApiKey] = useState(storedKey);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  const session = useMemo<Session | null>(
    () =>
      apiKey
        ? {
            apiKey,
            api: clientFor(apiKey),
            signOut(reason) {
              storeKey(null);
              setApiKey(null);
              setNotice(reason ?? null);
            },
          }
        : null,
    [apiKey],
  );

  if (!session) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(key) => {
          storeKey(key);
          setNotice(null);
          setApiKey(key);
        }}
      />
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <a className="brand" href={hrefOf({ page: 'sites' })}>
          Sitemaps
        </a>
        <nav aria-label="Main">
          <a href={hrefOf({ page: 'sites' })} aria-current={route.page !== 'webhooks' ? 'page' : undefined}>
            Sites
          </a>
          <a href={hrefOf({ page: 'webhooks' })} aria-current={route.page === 'webhooks' ? 'page' : undefined}>
            Webhooks
          </a>
        </nav>
        <button type="button" className="secondary" onClick={() => session.signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === 'sites' && <SitesPage />}
        {route.page === 'site' && <SitePage key={route.siteId} siteId={route.siteId} tab={route.tab} />}
        {route.page === 'webhooks' && <WebhooksPage />}
      </main>
    </SessionContext.Provider>
  );
}

function SignIn(props: { notice: string | null; onSignedIn(key: string): void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) return setError('Enter an API key');
    setBusy(true);
    try {
      // A tenant's key can list its sites: the cheapest proof that the key works.
      await unwrap(clientFor(trimmed).GET('/v1/sites', { params: { query: { limit: 1 } } }));
      props.onSignedIn(trimmed);
    } catch (e) {
      setError(
        e instanceof SitemapsApiError && e.status === 401 ? 'This key is not valid, or has been revoked' : messageOf(e),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Sitemaps console</h1>
      <p>Sign in with one of your tenant's API keys. It is kept in this tab only, until you close it or sign out.</p>
      {props.notice && (
        <p className="error" role="alert">
          {props.notice}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <Field label="API key" error={error}>
          {(ids) => (
            <input
              {...ids}
              type="password"
              autoComplete="current-password"
              spellCheck={false}
              value={key}
              onChange={(e) => setKey(e.target.value)}
              required
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
