// The signed-in person's own account: a new password or a new email, each after the current
// password again. A new password ends the person's other sessions; this one stays.
import { useState, type FormEvent } from 'react';
import { fieldErrors, messageOf, unwrap } from './api';
import { useSession } from './session';
import { Field } from './ui';

export function AccountSettings() {
  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Your account</h2>
      <ChangePassword />
      <ChangeEmail />
    </section>
  );
}

function useChange() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  async function run(call: () => Promise<string>, fallbackField: string) {
    setErrors({});
    setDone(null);
    try {
      setDone(await call());
    } catch (e) {
      const fields = fieldErrors(e);
      setErrors(Object.keys(fields).length ? fields : { [fallbackField]: messageOf(e) });
    }
  }
  return { errors, done, run };
}

function ChangePassword() {
  const { api } = useSession();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const { errors, done, run } = useChange();

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(async () => {
      const { sessionsEnded } = await unwrap(api.POST('/v1/auth/password', { body: { currentPassword, newPassword } }));
      setCurrent('');
      setNew('');
      return `Password changed; ${sessionsEnded} other session${sessionsEnded === 1 ? '' : 's'} signed out.`;
    }, 'currentPassword');
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Change your password">
      <Field label="Current password" error={errors.currentPassword}>
        {(ids) => (
          <input
            {...ids}
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
          />
        )}
      </Field>
      <Field label="New password" hint="10 to 256 characters" error={errors.newPassword}>
        {(ids) => (
          <input
            {...ids}
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNew(e.target.value)}
          />
        )}
      </Field>
      <button type="submit">Change password</button>
      {done && <p role="status">{done}</p>}
    </form>
  );
}

function ChangeEmail() {
  const { api } = useSession();
  const [currentPassword, setCurrent] = useState('');
  const [email, setEmail] = useState('');
  const { errors, done, run } = useChange();

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(async () => {
      const account = await unwrap(api.POST('/v1/auth/email', { body: { currentPassword, email } }));
      setCurrent('');
      return `You now sign in as ${account.person.email}.`;
    }, 'email');
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Change your email">
      <Field label="New email" error={errors.email}>
        {(ids) => (
          <input {...ids} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        )}
      </Field>
      <Field label="Your password" error={errors.currentPassword}>
        {(ids) => (
          <input
            {...ids}
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
          />
        )}
      </Field>
      <button type="submit">Change email</button>
      {done && <p role="status">{done}</p>}
    </form>
  );
}
