import { useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, type Schemas } from './api';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './enums';
import { useSession } from './session';
import { DataTable } from './data-table';
import { ErrorNote, Field, formatTime, Pager, StatusBadge, useCursorPages } from './ui';

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
        {webhooks.page && (
          <DataTable
            caption="Webhook endpoints"
            hideCaption
            rows={webhooks.page.items}
            rowKey={(hook) => hook.id}
            empty={<p>No endpoints yet.</p>}
            columns={[
              { header: 'URL', cell: (hook) => hook.url, className: 'break' },
              { header: 'Events', cell: (hook) => hook.eventTypes.join(', ') },
              {
                header: 'State',
                cell: (hook) => (
                  <>
                    {hook.enabled ? 'enabled' : `disabled${hook.disabledReason ? ` (${hook.disabledReason})` : ''}`}
                    {hook.consecutiveFailures > 0 && (
                      <div className="field-error">{hook.consecutiveFailures} failures in a row</div>
                    )}
                  </>
                ),
              },
              {
                header: 'Actions',
                className: 'row-actions',
                cell: (hook) => {
                  const path = { webhookId: hook.id };
                  return (
                    <>
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
                    </>
                  );
                },
              },
            ]}
          />
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
  const [events, setEvents] = useState<WebhookEventType[]>(['build.published', 'build.failed']);
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
          {WEBHOOK_EVENT_TYPES.map((type) => (
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
      {deliveries.page && (
        <DataTable
          caption="Deliveries, newest first"
          hideCaption
          rows={deliveries.page.items}
          rowKey={(delivery) => delivery.id}
          empty={<p>No deliveries yet.</p>}
          columns={[
            { header: 'Created', cell: (delivery) => formatTime(delivery.createdAt) },
            { header: 'Event', cell: (delivery) => delivery.eventType },
            { header: 'Status', cell: (delivery) => <StatusBadge status={delivery.status} /> },
            { header: 'Attempts', cell: (delivery) => delivery.attempts, numeric: true },
            { header: 'HTTP', cell: (delivery) => delivery.responseStatus ?? '–', numeric: true },
          ]}
        />
      )}
      <Pager label="Deliveries" {...deliveries} />
    </section>
  );
}
