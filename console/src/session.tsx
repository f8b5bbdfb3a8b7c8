/**
 * Who is signed in (GET /api/auth/me and GET /api/users/permissions on the session cookie), and
 * sign-in / sign-out (POST /api/auth/session: a session for this browser only, which signs no
 * other device out; POST /api/auth/logout). Exposes the session's expiry times
 * (logic/session.ts) to the header. The cached data of the pages (query.ts) is dropped whenever
 * the person changes (sign-in, sign-out, session ended): one person never sees another's; so are
 * the service worker's offline copies of their reads (pwa.ts), and the outbox (outbox.ts) sends
 * only the signed-in person's waiting writes. Signing out also removes this browser's push
 * subscription from the person's device tokens.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, lastActivityAt, onActivity, onSessionEnded } from './api.ts';
import { looksRemembered } from './logic/session.ts';
import { partyOf, type Party } from './logic/transitions.ts';
import { setOutboxUser } from './outbox.ts';
import { clearOfflineReads, disablePushOnSignOut } from './pwa.ts';
import type { Me } from './types.ts';

export type { Me };

interface SessionValue {
  me: Me | null;
  /** True until the first GET /api/auth/me has answered. */
  loading: boolean;
  party: Party;
  permissions: Set<string>;
  rememberMe: boolean;
  lastActivity: number;
  /** Why the user is on the sign-in page again (session ended), if so. */
  endedReason: string | null;
  signIn(email: string, password: string, rememberMe: boolean): Promise<void>;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Provides the session to the app. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null>(null);
  const [permissions, setPermissions] = useState<Set<string>>(new Set());
  const [loading, setLoading] = useState(true);
  const [lastActivity, setLastActivity] = useState(lastActivityAt());
  const [endedReason, setEndedReason] = useState<string | null>(null);
  const client = useQueryClient();

  const refresh = useCallback(async () => {
    try {
      // Both at once: the first page waits for the session, so a second round trip in a row
      // would delay every first view (signed out, both answer 401 and the person is null).
      const [{ data }, perms] = await Promise.all([api.GET('/api/auth/me'), api.GET('/api/users/permissions')]);
      setPermissions(new Set(perms.data!.data.permissions));
      setMe(data!.data);
    } catch {
      setMe(null);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void refresh();
    const offActivity = onActivity(() => setLastActivity(lastActivityAt()));
    const offEnded = onSessionEnded((message) => {
      client.clear();
      void clearOfflineReads();
      setMe((current) => {
        if (current) setEndedReason(message ?? 'Your session has ended. Please sign in again.');
        return null;
      });
    });
    return () => {
      offActivity();
      offEnded();
    };
  }, [refresh, client]);

  const signIn = useCallback(
    async (email: string, password: string, rememberMe: boolean) => {
      await api.POST('/api/auth/session', { body: { email, password, remember_me: rememberMe } });
      client.clear();
      await clearOfflineReads();
      setEndedReason(null);
      await refresh();
    },
    [refresh, client],
  );

  const signOut = useCallback(async () => {
    try {
      await disablePushOnSignOut();
      await api.POST('/api/auth/logout', { body: {} });
    } finally {
      client.clear();
      await clearOfflineReads();
      setMe(null);
      setEndedReason(null);
    }
  }, [client]);

  // The outbox sends the writes of whoever is signed in now (on the app's start too).
  const meUuid = me?.uuid ?? null;
  useEffect(() => {
    if (!loading) void setOutboxUser(meUuid);
  }, [meUuid, loading]);

  const value = useMemo<SessionValue>(
    () => ({
      me,
      loading,
      party: me ? partyOf(me.role) : 'staff',
      permissions,
      rememberMe: me ? looksRemembered(me.session.expires_at, Date.now()) : false,
      lastActivity,
      endedReason,
      signIn,
      signOut,
      refresh,
    }),
    [me, loading, permissions, lastActivity, endedReason, signIn, signOut, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The current session (inside SessionProvider). */
export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside SessionProvider');
  return v;
}
