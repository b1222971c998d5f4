// The platform operator's view, for people with the `operator` platform role: every tenant with
// its quotas and suspension, the audit log, and a link to the queue board. Its requests name no
// tenant (no X-Tenant-Id): only then does the API take the session as the operator's. A person
// without the role never sees the link, and the API answers 403 if they come here anyway.
import { useMemo, useState, type FormEvent } from 'react';
import { clientFor, fieldErrors, unwrap, type Schemas } from './api';
import { DataTable } from './data-table';
import { useSession } from './session';
import { ErrorNote, Field, formatNumber, formatTime, Pager, useCursorPages } from './ui';

type Tenant = Schemas['TenantAdminGetResponse'];
type AuditEntry = Schemas['TenantAdminAuditLogResponse']['items'][number];
type Filter = 'all' | 'active' | 'suspended';

/** The queue board (Bull Board), served by the API; it takes an operator's session. */
export const QUEUE_BOARD_HREF = '/admin/queues';

function useOperatorApi() {
  const { credentials } = useSession();
  const csrfToken = 'csrfToken' in credentials ? credentials.csrfToken : '';
  return useMemo(() => clientFor({ csrfToken, tenantId: undefined }), [csrfToken]);
}

export function OperatorPage() {
  const api = useOperatorApi();
  const [filter, setFilter] = useState<Filter>('all');
  const [auditVersion, setAuditVersion] = useState(0);
  /** The tenant whose quota form is open. */
  const [editing, setEditing] = useState<string | null>(null);
  const tenants = useCursorPages<Tenant>(
    (cursor) =>
      unwrap(
        api.GET('/v1/tenants', {
          params: {
            query: {
              limit: 50,
              ...(cursor ? { cursor } : {}),
              ...(filter === 'all' ? {} : { suspended: filter === 'suspended' ? 'true' : 'false' }),
            },
          },
        }),
      ),
    [api, filter],
  );
  const changed = () => {
    tenants.reload();
    setAuditVersion((v) => v + 1);
  };

  return (
    <>
      <h1>Operator</h1>
      <p>
        Every tenant of the platform. Changes here are the platform operator’s: they are written to the audit log with
        your name. <a href={QUEUE_BOARD_HREF}>Queue health (the queue board)</a>
      </p>
      <section aria-labelledby="tenants-heading">
        <h2 id="tenants-heading">Tenants</h2>
        <label>
          Show{' '}
          <select value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
            <option value="all">all tenants</option>
            <option value="active">active tenants</option>
            <option value="suspended">suspended tenants</option>
          </select>
        </label>
        <ErrorNote error={tenants.error} />
        {tenants.page && (
          <DataTable
            caption="Tenants"
            hideCaption
            rows={tenants.page.items}
            rowKey={(tenant) => tenant.id}
            columns={[
              { header: 'Name', cell: (tenant) => tenant.name, className: 'break' },
              { header: 'Sites', cell: (tenant) => formatNumber(tenant.siteCount) },
              {
                header: 'Quotas',
                cell: (tenant) =>
                  editing === tenant.id ? (
                    <QuotaForm tenant={tenant} onDone={() => (setEditing(null), changed())} />
                  ) : (
                    `${quota(tenant.maxSites)} sites, ${quota(tenant.maxUrls)} URLs`
                  ),
              },
              {
                header: 'Status',
                cell: (tenant) =>
                  tenant.suspendedAt
                    ? `Suspended ${formatTime(tenant.suspendedAt)}${tenant.suspendedReason ? `: ${tenant.suspendedReason}` : ''}`
                    : 'Active',
              },
              { header: 'Created', cell: (tenant) => formatTime(tenant.createdAt) },
              {
                header: 'Actions',
                cell: (tenant) => (
                  <TenantActions
                    tenant={tenant}
                    editing={editing === tenant.id}
                    onEdit={(on) => setEditing(on ? tenant.id : null)}
                    onChanged={changed}
                  />
                ),
              },
            ]}
          />
        )}
        <Pager label="Tenants" {...tenants} />
      </section>
      {/* Read again after each change made here. */}
      <AuditLog key={auditVersion} />
    </>
  );
}

const quota = (n: number | null) => (n === null ? 'unlimited' : formatNumber(n));

/** A tenant's buttons; the quota form itself shows in the row's Quotas cell. */
function TenantActions(props: { tenant: Tenant; editing: boolean; onEdit(on: boolean): void; onChanged(): void }) {
  const { tenant, editing, onEdit, onChanged } = props;
  const api = useOperatorApi();
  const [error, setError] = useState<unknown>(null);

  async function act(call: Promise<unknown>) {
    setError(null);
    try {
      await call;
      onChanged();
    } catch (e) {
      setError(e);
    }
  }

  const path = { params: { path: { tenantId: tenant.id } } };
  return (
    <>
      <button
        type="button"
        className="secondary"
        aria-label={`Change the quotas of ${tenant.name}`}
        onClick={() => onEdit(!editing)}
      >
        {editing ? 'Cancel' : 'Quotas'}
      </button>{' '}
      {tenant.suspendedAt ? (
        <button
          type="button"
          aria-label={`Resume ${tenant.name}`}
          onClick={() => void act(unwrap(api.POST('/v1/tenants/{tenantId}/resume', path)))}
        >
          Resume
        </button>
      ) : (
        <button
          type="button"
          className="danger"
          aria-label={`Suspend ${tenant.name}`}
          onClick={() => {
            const reason = window.prompt(`Suspend ${tenant.name}: its keys, sites and builds stop. Why?`);
            if (reason === null) return;
            void act(
              unwrap(
                api.POST('/v1/tenants/{tenantId}/suspend', {
                  ...path,
                  body: reason.trim() ? { reason: reason.trim() } : {},
                }),
              ),
            );
          }}
        >
          Suspend
        </button>
      )}
      <ErrorNote error={error} />
    </>
  );
}

function QuotaForm({ tenant, onDone }: { tenant: Tenant; onDone(): void }) {
  const api = useOperatorApi();
  const [maxSites, setMaxSites] = useState(tenant.maxSites === null ? '' : String(tenant.maxSites));
  const [maxUrls, setMaxUrls] = useState(tenant.maxUrls === null ? '' : String(tenant.maxUrls));
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    const parse = (text: string) => (text.trim() === '' ? null : Number(text));
    try {
      await unwrap(
        api.PATCH('/v1/tenants/{tenantId}', {
          params: { path: { tenantId: tenant.id } },
          body: { maxSites: parse(maxSites), maxUrls: parse(maxUrls) },
        }),
      );
      onDone();
    } catch (e) {
      const fields = fieldErrors(e);
      setErrors(Object.keys(fields).length ? fields : { maxSites: e instanceof Error ? e.message : String(e) });
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={`Quotas of ${tenant.name}`}>
      <Field label="Most sites (empty: unlimited)" error={errors.maxSites}>
        {(ids) => <input {...ids} inputMode="numeric" value={maxSites} onChange={(e) => setMaxSites(e.target.value)} />}
      </Field>
      <Field label="Most URLs (empty: unlimited)" error={errors.maxUrls}>
        {(ids) => <input {...ids} inputMode="numeric" value={maxUrls} onChange={(e) => setMaxUrls(e.target.value)} />}
      </Field>
      <button type="submit">Save quotas</button>
    </form>
  );
}

function AuditLog() {
  const api = useOperatorApi();
  const entries = useCursorPages<AuditEntry>(
    (cursor) =>
      unwrap(api.GET('/v1/admin/audit-log', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
    [api],
  );
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <ErrorNote error={entries.error} />
      {entries.page && (
        <DataTable
          caption="Audit log, newest first"
          hideCaption
          rows={entries.page.items}
          rowKey={(entry) => entry.id}
          columns={[
            { header: 'When', cell: (entry) => formatTime(entry.createdAt) },
            { header: 'Who', cell: (entry) => entry.actor, className: 'break' },
            { header: 'Action', cell: (entry) => entry.action },
            { header: 'Target', cell: (entry) => entry.targetId, className: 'break' },
            {
              header: 'Change',
              cell: (entry) => (entry.after ? JSON.stringify(entry.after) : '—'),
              className: 'break',
            },
          ]}
        />
      )}
      <Pager label="Audit log" {...entries} />
    </section>
  );
}
