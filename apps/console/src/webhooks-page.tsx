import { useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, type Schemas } from './api';
import { useSession } from './session';
import { ErrorNote, Field, formatTime, Pager, StatusBadge, useCursorPages } from './ui';

const EVENT_TYPES = [
  'build.published',
  'build.failed',
  'import.finished',
  'site.verified',
  'site.verification_lost',
  'sitemap.first_crawl',
  'sitemap.stale',
] as const;
type EventType = (typeof EVENT_TYPES)[number];

export function WebhooksPage() {
  const { api } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const webhooks = useCursorPages(
    (cursor) => unwrap(api.GET('/v1/webhooks', { params: { query: { limit: 25, cursor } } })),
    [api],
  );

  async function act(call: Promise<unknown>) {
    setError(null);
    try {
      await call;
      webhooks.reload();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <>
      <h1>Webhooks</h1>
      <CreateWebhook onCreated={webhooks.reload} />
      <section aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading">Endpoints</h2>
        <ErrorNote error={error ?? webhooks.error} />
        {webhooks.page && webhooks.page.items.length === 0 && <p>No endpoints yet.</p>}
        {webhooks.page && webhooks.page.items.length > 0 && (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Webhook endpoints</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {webhooks.page.items.map((hook) => {
                  const path = { webhookId: hook.id };
                  return (
                    <tr key={hook.id}>
                      <td className="break">{hook.url}</td>
                      <td>{hook.eventTypes.join(', ')}</td>
                      <td>
                        {hook.enabled ? 'enabled' : `disabled${hook.disabledReason ? ` (${hook.disabledReason})` : ''}`}
                        {hook.consecutiveFailures > 0 && (
                          <div className="field-error">{hook.consecutiveFailures} failures in a row</div>
                        )}
                      </td>
                      <td className="row-actions">
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => setSelected(hook.id)}
                          aria-label={`Deliveries to ${hook.url}`}
                        >
                          Deliveries
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          onClick={() =>
                            void act(unwrap(api.POST('/v1/webhooks/{webhookId}/test', { params: { path } })))
                          }
                          aria-label={`Send a test event to ${hook.url}`}
                        >
                          Test
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          onClick={() =>
                            void act(
                              unwrap(
                                api.PATCH('/v1/webhooks/{webhookId}', {
                                  params: { path },
                                  body: { enabled: !hook.enabled },
                                }),
                              ),
                            )
                          }
                          aria-label={`${hook.enabled ? 'Disable' : 'Enable'} ${hook.url}`}
                        >
                          {hook.enabled ? 'Disable' : 'Enable'}
                        </button>
                        <button
                          type="button"
                          className="danger"
                          onClick={() =>
                            window.confirm(`Delete ${hook.url}?`) &&
                            void act(unwrap(api.DELETE('/v1/webhooks/{webhookId}', { params: { path } })))
                          }
                          aria-label={`Delete ${hook.url}`}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager label="Webhooks" {...webhooks} />
      </section>
      {selected && <Deliveries key={selected} webhookId={selected} />}
    </>
  );
}

function CreateWebhook({ onCreated }: { onCreated(): void }) {
  const { api } = useSession();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(['build.published', 'build.failed']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<Schemas['WebhooksCreateResponse'] | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    try {
      setCreated(await unwrap(api.POST('/v1/webhooks', { body: { url: url.trim(), eventTypes: events } })));
      setErrors({});
      setError(null);
      setUrl('');
      onCreated();
    } catch (e) {
      const byField = fieldErrors(e);
      setErrors(byField);
      setError(Object.keys(byField).length ? null : e);
    }
  }

  return (
    <section className="card" aria-labelledby="create-webhook-heading">
      <h2 id="create-webhook-heading">Add an endpoint</h2>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Endpoint URL" error={errors.url}>
          {(ids) => (
            <input {...ids} type="url" className="wide-input" value={url} onChange={(e) => setUrl(e.target.value)} />
          )}
        </Field>
        <fieldset aria-describedby={errors.eventTypes ? 'event-types-error' : undefined}>
          <legend>Events</legend>
          {EVENT_TYPES.map((type) => (
            <div className="check" key={type}>
              <input
                id={`event-${type}`}
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) =>
                  setEvents((list) => (e.target.checked ? [...list, type] : list.filter((t) => t !== type)))
                }
              />
              <label htmlFor={`event-${type}`}>{type}</label>
            </div>
          ))}
          {errors.eventTypes && (
            <small id="event-types-error" className="field-error">
              {errors.eventTypes}
            </small>
          )}
        </fieldset>
        <button type="submit">Add endpoint</button>
      </form>
      <ErrorNote error={error} />
      {created && (
        <p role="status">
          Added. Its signing secret, shown only now: <code className="break">{created.secret}</code>
        </p>
      )}
    </section>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const { api } = useSession();
  const deliveries = useCursorPages(
    (cursor) =>
      unwrap(
        api.GET('/v1/webhooks/{webhookId}/deliveries', {
          params: { path: { webhookId }, query: { limit: 25, cursor } },
        }),
      ),
    [api, webhookId],
  );
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <ErrorNote error={deliveries.error} />
      {deliveries.page && deliveries.page.items.length === 0 && <p>No deliveries yet.</p>}
      {deliveries.page && deliveries.page.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Attempts
                </th>
                <th scope="col" className="num">
                  HTTP
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.page.items.map((delivery) => (
                <tr key={delivery.id}>
                  <td>{formatTime(delivery.createdAt)}</td>
                  <td>{delivery.eventType}</td>
                  <td>
                    <StatusBadge status={delivery.status} />
                  </td>
                  <td className="num">{delivery.attempts}</td>
                  <td className="num">{delivery.responseStatus ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Deliveries" {...deliveries} />
    </section>
  );
}
