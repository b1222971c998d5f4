// API keys are for programs: people create them here (the key is shown once) and revoke them.
import { useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, type Schemas } from './api';
import { useSession } from './session';
import { DataTable } from './data-table';
import { SCOPES, type Scope } from './enums';
import { ErrorNote, Field, formatTime, Pager, useCursorPages } from './ui';

export function KeysPage() {
  const { api } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<Schemas['ApiKeyCreated'] | null>(null);
  const keys = useCursorPages(
    (cursor) => unwrap(api.GET('/v1/api-keys', { params: { query: { limit: 25, cursor } } })),
    [api],
  );

  async function revoke(key: Schemas['ApiKey']) {
    setError(null);
    try {
      await unwrap(api.DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId: key.id } } }));
      keys.reload();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <>
      <h1>API keys</h1>
      <p>Keys are for programs: a deployment, a CMS plugin. People sign in with their own account.</p>
      <CreateKey
        onCreated={(key) => {
          setCreated(key);
          keys.reload();
        }}
      />
      {created && (
        <div role="status" className="notice">
          <p>
            Key <strong>{created.name}</strong> created. Copy it now: it is shown only once.
          </p>
          <code className="break" aria-label="New API key">
            {created.apiKey}
          </code>
        </div>
      )}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys of this tenant</h2>
        <ErrorNote error={error ?? keys.error} />
        {keys.page && keys.page.items.length > 0 && (
          <DataTable
            caption="API keys"
            hideCaption
            rows={keys.page.items}
            rowKey={(key) => key.id}
            columns={[
              { header: 'Name', cell: (key) => key.name },
              { header: 'Starts with', cell: (key) => <code>{key.prefix}…</code> },
              { header: 'Scopes', cell: (key) => key.scopes.join(', ') },
              { header: 'Created', cell: (key) => formatTime(key.createdAt) },
              {
                header: 'State',
                cell: (key) =>
                  key.revokedAt ? (
                    `revoked ${formatTime(key.revokedAt)}`
                  ) : (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => void revoke(key)}
                      aria-label={`Revoke ${key.name}`}
                    >
                      Revoke
                    </button>
                  ),
              },
            ]}
          />
        )}
        <Pager label="API keys" {...keys} />
      </section>
    </>
  );
}

function CreateKey({ onCreated }: { onCreated(key: Schemas['ApiKeyCreated']): void }) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read', 'write']);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    try {
      onCreated(await unwrap(api.POST('/v1/api-keys', { body: { name, scopes } })));
      setName('');
    } catch (e) {
      setErrors(fieldErrors(e));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Create an API key">
      <Field label="Key name" error={errors.name}>
        {(ids) => <input {...ids} value={name} onChange={(e) => setName(e.target.value)} required />}
      </Field>
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) =>
                setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((item) => item !== scope))
              }
            />{' '}
            {scope}
          </label>
        ))}
        {errors.scopes && <small className="field-error">{errors.scopes}</small>}
      </fieldset>
      <button type="submit">Create key</button>
    </form>
  );
}
