// Signing in (as a person, or with a tenant's API key), and the pages the emails link to:
// accepting an invitation, asking for and using a password reset.
import { useState, type FormEvent } from 'react';
import { clientFor, fieldErrors, messageOf, SitemapsApiError, unwrap } from './api';
import type { Account } from './session';
import { hrefOf } from './route';
import { Field } from './ui';

/** Requests before a session exists carry no credentials; the JSON body is the proof. */
const anonymous = () => clientFor({ csrfToken: '', tenantId: undefined });

export function SignIn(props: { notice: string | null; onPerson(account: Account): void; onKey(key: string): void }) {
  const [mode, setMode] = useState<'person' | 'key'>('person');
  return (
    <main id="main" className="sign-in">
      <h1>Sitemaps console</h1>
      {props.notice && (
        <p className="error" role="alert">
          {props.notice}
        </p>
      )}
      <p>
        <button type="button" className="link" onClick={() => setMode(mode === 'person' ? 'key' : 'person')}>
          {mode === 'person' ? 'Use an API key instead' : 'Use your email and password instead'}
        </button>
      </p>
      {mode === 'person' ? <PersonSignIn onSignedIn={props.onPerson} /> : <KeySignIn onSignedIn={props.onKey} />}
    </main>
  );
}

function PersonSignIn(props: { onSignedIn(account: Account): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      props.onSignedIn(await unwrap(anonymous().POST('/v1/auth/sign-in', { body: { email, password } })));
    } catch (e) {
      setError(e instanceof SitemapsApiError && e.status === 401 ? 'Wrong email or password' : messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <p>Sign in with your email and password.</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Email">
          {(ids) => (
            <input
              {...ids}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          )}
        </Field>
        <Field label="Password" error={error}>
          {(ids) => (
            <input
              {...ids}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <a href={hrefOf({ page: 'forgot-password' })}>Forgot your password?</a>
      </p>
    </>
  );
}

function KeySignIn(props: { onSignedIn(key: string): void }) {
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
    <>
      <p>Sign in with one of your tenant's API keys. It is kept in this tab only, until you close it or sign out.</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
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
    </>
  );
}

export function AcceptInvitationPage(props: { token: string; onAccepted(account: Account): void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const body = { token: props.token, password, ...(name.trim() ? { name: name.trim() } : {}) };
      props.onAccepted(await unwrap(anonymous().POST('/v1/auth/accept-invitation', { body })));
    } catch (e) {
      const fields = fieldErrors(e);
      setErrors(Object.keys(fields).length ? fields : { password: messageOf(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Accept your invitation</h1>
      <p>Choose your name and a password of at least 10 characters. Already have an account? Enter its password.</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Your name" error={errors.name}>
          {(ids) => <input {...ids} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Password" error={errors.password}>
          {(ids) => (
            <input
              {...ids}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Accepting…' : 'Accept invitation'}
        </button>
      </form>
    </main>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await unwrap(anonymous().POST('/v1/auth/password-reset', { body: { email } }));
      setSent(true);
    } catch (e) {
      setError(messageOf(e));
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Reset your password</h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Email" error={error}>
          {(ids) => (
            <input
              {...ids}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          )}
        </Field>
        <button type="submit">Send reset link</button>
      </form>
      {sent && <p role="status">If this email has an account, a reset link is on its way. It works for an hour.</p>}
      <p>
        <a href={hrefOf({ page: 'sites' })}>Back to sign in</a>
      </p>
    </main>
  );
}

export function ResetPasswordPage(props: { token: string }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await unwrap(anonymous().POST('/v1/auth/password-reset/confirm', { body: { token: props.token, password } }));
      setDone(true);
    } catch (e) {
      setError(fieldErrors(e).password ?? messageOf(e));
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Choose a new password</h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="New password" error={error} hint="At least 10 characters.">
          {(ids) => (
            <input
              {...ids}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          )}
        </Field>
        <button type="submit">Set password</button>
      </form>
      {done && (
        <p role="status">
          Password changed, and every session signed out. <a href={hrefOf({ page: 'sites' })}>Sign in</a> with it.
        </p>
      )}
    </main>
  );
}
