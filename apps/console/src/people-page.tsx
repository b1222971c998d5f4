// The tenant's people: everyone sees who else is; owners and admins invite by email and remove.
import { useEffect, useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, type Schemas } from './api';
import { AccountSettings } from './account-settings';
import { DataTable } from './data-table';
import { ROLES, type Role } from './enums';
import { useSession } from './session';
import { ErrorNote, Field, formatTime } from './ui';

/** Least power first: the form starts at viewer. */
const ROLES_ASCENDING = [...ROLES].reverse();

export function PeoplePage() {
  const { api, canAdmin } = useSession();
  const [members, setMembers] = useState<Schemas['Member'][] | null>(null);
  const [invitations, setInvitations] = useState<Schemas['Invitation'][]>([]);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);

  useEffect(() => {
    let live = true;
    Promise.all([
      unwrap(api.GET('/v1/members')),
      canAdmin ? unwrap(api.GET('/v1/invitations')) : Promise.resolve({ items: [] }),
    ])
      .then(([m, i]) => {
        if (!live) return;
        setMembers(m.items);
        setInvitations(i.items);
      })
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [api, canAdmin, version]);

  async function act(call: Promise<unknown>) {
    setError(null);
    try {
      await call;
      reload();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <>
      <h1>People</h1>
      {canAdmin && <Invite onInvited={reload} />}
      <ErrorNote error={error} />
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        {members && (
          <DataTable
            caption="Members of this tenant"
            hideCaption
            rows={members}
            rowKey={(member) => member.personId}
            columns={[
              { header: 'Name', cell: (member) => member.name },
              { header: 'Email', cell: (member) => member.email, className: 'break' },
              { header: 'Role', cell: (member) => member.role },
              { header: 'Since', cell: (member) => formatTime(member.createdAt) },
              canAdmin && {
                header: 'Actions',
                cell: (member) => (
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Remove ${member.email}`}
                    onClick={() =>
                      void act(
                        unwrap(
                          api.DELETE('/v1/members/{personId}', { params: { path: { personId: member.personId } } }),
                        ),
                      )
                    }
                  >
                    Remove
                  </button>
                ),
              },
            ]}
          />
        )}
      </section>
      {canAdmin && invitations.length > 0 && (
        <section aria-labelledby="invitations-heading">
          <h2 id="invitations-heading">Pending invitations</h2>
          <ul>
            {invitations.map((invitation) => (
              <li key={invitation.id}>
                {invitation.email} as {invitation.role}, until {formatTime(invitation.expiresAt)}{' '}
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Revoke the invitation of ${invitation.email}`}
                  onClick={() =>
                    void act(
                      unwrap(
                        api.DELETE('/v1/invitations/{invitationId}', {
                          params: { path: { invitationId: invitation.id } },
                        }),
                      ),
                    )
                  }
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <AccountSettings />
    </>
  );
}

function Invite({ onInvited }: { onInvited(): void }) {
  const { api } = useSession();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setSent(null);
    try {
      const invitation = await unwrap(api.POST('/v1/invitations', { body: { email, role } }));
      setSent(invitation.email);
      setEmail('');
      onInvited();
    } catch (e) {
      const fields = fieldErrors(e);
      setErrors(Object.keys(fields).length ? fields : { email: e instanceof Error ? e.message : String(e) });
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Invite a person">
      <Field label="Email to invite" error={errors.email}>
        {(ids) => <input {...ids} type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />}
      </Field>
      <Field label="Role" error={errors.role}>
        {(ids) => (
          <select {...ids} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES_ASCENDING.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit">Send invitation</button>
      {sent && <p role="status">Invitation sent to {sent}.</p>}
    </form>
  );
}
