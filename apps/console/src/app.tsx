import { useEffect, useMemo, useState } from 'react';
import {
  clientFor,
  hasSession,
  rememberSession,
  storedKey,
  storedTenant,
  storeKey,
  storeTenant,
  unwrap,
  type Credentials,
} from './api';
import { AcceptInvitationPage, ForgotPasswordPage, ResetPasswordPage, SignIn } from './account-pages';
import { KeysPage } from './keys-page';
import { OperatorPage } from './operator-page';
import { PeoplePage } from './people-page';
import { hrefOf, useRoute } from './route';
import { SessionContext, type Account, type Session } from './session';
import { SitePage } from './site-page';
import { SitesPage } from './sites-page';
import { WebhooksPage } from './webhooks-page';

/** Signed in with a tenant's key (kept in this tab), or as a person acting in one of their tenants. */
type Auth = { kind: 'key'; apiKey: string } | { kind: 'person'; account: Account; tenantId: string | undefined };

function personAuth(account: Account): Auth {
  const remembered = storedTenant();
  const tenantId =
    account.memberships.find((m) => m.tenantId === remembered)?.tenantId ?? account.memberships[0]?.tenantId;
  return { kind: 'person', account, tenantId };
}

export function App() {
  const [auth, setAuth] = useState<Auth | null>(() => {
    const key = storedKey();
    return key ? { kind: 'key', apiKey: key } : null;
  });
  // A person's session cookie is HttpOnly: whether it still holds is the API's to say.
  const [checking, setChecking] = useState(() => auth === null && hasSession());
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();

  useEffect(() => {
    if (!checking) return;
    unwrap(clientFor({ csrfToken: '', tenantId: undefined }).GET('/v1/auth/session'))
      .then((account) => setAuth(personAuth(account)))
      .catch(() => rememberSession(false))
      .finally(() => setChecking(false));
  }, [checking]);

  const session = useMemo<Session | null>(() => {
    if (!auth) return null;
    const credentials: Credentials =
      auth.kind === 'key' ? { apiKey: auth.apiKey } : { csrfToken: auth.account.csrfToken, tenantId: auth.tenantId };
    const role =
      auth.kind === 'person' ? auth.account.memberships.find((m) => m.tenantId === auth.tenantId)?.role : undefined;
    const api = clientFor(credentials);
    return {
      credentials,
      api,
      role,
      canWrite: auth.kind === 'key' || role !== 'viewer',
      canAdmin: auth.kind === 'key' || role === 'owner' || role === 'admin',
      operator: auth.kind === 'person' && auth.account.person.platformRole === 'operator',
      signOut(reason) {
        if (auth.kind === 'person') {
          void api.POST('/v1/auth/sign-out');
          rememberSession(false);
        } else storeKey(null);
        setAuth(null);
        setNotice(reason ?? null);
      },
    };
  }, [auth]);

  const signedInAsPerson = (account: Account) => {
    rememberSession(true);
    setNotice(null);
    setAuth(personAuth(account));
    window.location.hash = hrefOf({ page: 'sites' });
  };

  if (route.page === 'accept-invitation')
    return <AcceptInvitationPage token={route.token} onAccepted={signedInAsPerson} />;
  if (route.page === 'reset-password') return <ResetPasswordPage token={route.token} />;
  if (route.page === 'forgot-password') return <ForgotPasswordPage />;
  if (checking)
    return (
      <main id="main" className="sign-in">
        <p role="status">Loading…</p>
      </main>
    );
  if (!session || !auth) {
    return (
      <SignIn
        notice={notice}
        onPerson={signedInAsPerson}
        onKey={(key) => {
          storeKey(key);
          setNotice(null);
          setAuth({ kind: 'key', apiKey: key });
        }}
      />
    );
  }
  const operator = auth.kind === 'person' && auth.account.person.platformRole === 'operator';
  if (auth.kind === 'person' && !auth.tenantId && !operator) {
    return (
      <main id="main" className="sign-in">
        <h1>No tenant yet</h1>
        <p>
          You are signed in as {auth.account.person.email}, but belong to no tenant: ask an owner for an invitation.
        </p>
        <button type="button" className="secondary" onClick={() => session.signOut()}>
          Sign out
        </button>
      </main>
    );
  }
  const current = (page: string) => (route.page === page ? 'page' : undefined);
  // An operator who belongs to no tenant has the operator view only.
  const inTenant = auth.kind === 'key' || auth.tenantId !== undefined;
  const page = inTenant ? route.page : 'operator';
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
          {inTenant && (
            <a
              href={hrefOf({ page: 'sites' })}
              aria-current={route.page === 'sites' || route.page === 'site' ? 'page' : undefined}
            >
              Sites
            </a>
          )}
          {inTenant && (
            <a href={hrefOf({ page: 'webhooks' })} aria-current={current('webhooks')}>
              Webhooks
            </a>
          )}
          {inTenant && auth.kind === 'person' && (
            <a href={hrefOf({ page: 'people' })} aria-current={current('people')}>
              People
            </a>
          )}
          {inTenant && session.canAdmin && (
            <a href={hrefOf({ page: 'keys' })} aria-current={current('keys')}>
              API keys
            </a>
          )}
          {operator && (
            <a href={hrefOf({ page: 'operator' })} aria-current={current('operator')}>
              Operator
            </a>
          )}
        </nav>
        {auth.kind === 'person' && inTenant && (
          <label className="tenant-switch">
            <span className="visually-hidden">Tenant</span>
            <select
              value={auth.tenantId}
              onChange={(event) => {
                storeTenant(event.target.value);
                setAuth({ ...auth, tenantId: event.target.value });
                window.location.hash = hrefOf({ page: 'sites' });
              }}
            >
              {auth.account.memberships.map((m) => (
                <option key={m.tenantId} value={m.tenantId}>
                  {m.tenantName} ({m.role})
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" className="secondary" onClick={() => session.signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1} key={auth.kind === 'person' ? auth.tenantId : 'key'}>
        {page === 'sites' && <SitesPage />}
        {route.page === 'site' && page === 'site' && (
          <SitePage key={route.siteId} siteId={route.siteId} tab={route.tab} />
        )}
        {page === 'webhooks' && <WebhooksPage />}
        {page === 'keys' && <KeysPage />}
        {page === 'people' && <PeoplePage />}
        {page === 'operator' && <OperatorPage />}
      </main>
    </SessionContext.Provider>
  );
}
