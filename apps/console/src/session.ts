import { createContext, useContext } from 'react';
import type { Credentials, Schemas } from './api';
import type { SitemapsClient } from '@sitemaps/client';

// The signed-in session the pages read through useSession(). It lives apart from app.tsx, which
// provides it, so that the pages app.tsx renders do not import app.tsx back (an import cycle).

export type Account = Schemas['Account'];
export type Role = Account['memberships'][number]['role'];

export interface Session {
  credentials: Credentials;
  api: SitemapsClient;
  /** The person's role in the tenant; undefined with a key (its scopes are the server's to check). */
  role: Role | undefined;
  /** What the UI offers; the API refuses the rest anyway. */
  canWrite: boolean;
  canAdmin: boolean;
  /** A person with the platform's operator role: the operator view. */
  operator: boolean;
  signOut(reason?: string): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
