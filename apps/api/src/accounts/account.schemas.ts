import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PLATFORM_ROLES, ROLES, type PlatformRole, type Role } from '@sitemaps/domain';

export const roleEnum = z.enum(ROLES as unknown as [Role, ...Role[]]).meta({ id: 'Role' });
const email = z.string().trim().min(3).max(254).describe('compared trimmed and lowercase');
const password = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const token = z.string().min(16).max(200).describe('from the emailed link');

export const signInInput = z.object({ email, password }).meta({ id: 'SignIn' });
export const passwordResetInput = z.object({ email }).meta({ id: 'PasswordResetRequest' });
export const passwordResetConfirmInput = z
  .object({ token, password: password.describe('10 to 256 characters') })
  .meta({ id: 'PasswordResetConfirm' });
export const acceptInvitationInput = z
  .object({
    token,
    name: z.string().trim().min(1).max(200).optional().describe('a new account’s display name'),
    password: password.describe('a new account’s password (10 to 256 characters), or the existing account’s'),
  })
  .meta({ id: 'InvitationAccept' });
const currentPassword = password.describe('the password in use now: a change asks for it again');
export const changePasswordInput = z
  .object({ currentPassword, newPassword: password.describe('10 to 256 characters') })
  .strict()
  .meta({ id: 'PasswordChange' });
export const changeEmailInput = z.object({ currentPassword, email }).strict().meta({ id: 'EmailChange' });
export const createInvitationInput = z
  .object({ email, role: roleEnum.default('viewer') })
  .meta({ id: 'InvitationCreate' });

export const accountView = z
  .object({
    person: z.object({
      id: z.uuid(),
      email: z.string(),
      name: z.string(),
      platformRole: z
        .enum(PLATFORM_ROLES as unknown as [PlatformRole, ...PlatformRole[]])
        .nullable()
        .describe('operator: the operator view (/v1/admin, /v1/tenants) when acting in no tenant'),
    }),
    memberships: z.array(
      z.object({ tenantId: z.uuid(), tenantName: z.string(), role: roleEnum, tenantSuspended: z.boolean() }),
    ),
    csrfToken: z.string().describe('send it as X-CSRF-Token with every write this session makes'),
  })
  .meta({ id: 'Account' });
export const signedOutView = z.object({ sessionsEnded: z.number().int() }).meta({ id: 'SignedOut' });
export const memberView = z
  .object({ personId: z.uuid(), email: z.string(), name: z.string(), role: roleEnum, createdAt: z.date() })
  .meta({ id: 'Member' });
export const mailStatusEnum = z.enum(['queued', 'retrying', 'sent', 'failed']);
export const invitationView = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: roleEnum,
    invitedBy: z.string().describe('person:<id> or key:<id>'),
    expiresAt: z.date(),
    createdAt: z.date(),
    mail: z
      .object({
        status: mailStatusEnum.describe(
          'queued: the worker will send it; retrying: the SMTP server refused, tried again with backoff; sent; failed: every attempt refused',
        ),
        error: z.string().nullable().describe("the SMTP server's last refusal"),
      })
      .describe('the delivery of the invitation email'),
  })
  .meta({ id: 'Invitation' });
export const membersView = z.object({ items: z.array(memberView) }).meta({ id: 'MemberList' });
export const invitationsView = z.object({ items: z.array(invitationView) }).meta({ id: 'InvitationList' });
