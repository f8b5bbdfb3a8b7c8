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
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { api, lastActivityAt, onActivity, onSessionEnded } from './api.ts';
import { passkeyAssertion } from './passkey.ts';
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
  /** Signs in; returns the second-factor step when the account needs one (docs/api.md "Addition: the second factor"). */
  signIn(email: string, password: string, rememberMe: boolean): Promise<SecondFactorStep | null>;
  /** Answers a second-factor step (a code, a recovery code or a passkey's assertion); returns recovery codes after a forced enrolment (shown once). */
  finishSignIn(answer: SecondFactorAnswer): Promise<string[] | null>;
  /** Signs in password-less with a passkey of this site (passkey.ts); returns a second-factor step if the server still asks for one. */
  signInWithPasskey(rememberMe: boolean): Promise<SecondFactorStep | null>;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
}

/** A sign-in waiting for its second factor: the 401 body of POST /api/auth/session. */
export interface SecondFactorStep {
  challenge: string;
  methods: string[];
  reason: string;
  message: string;
}

/** The answer to a second-factor step: exactly one of a code, a recovery code or a passkey's assertion. */
export interface SecondFactorAnswer {
  challenge: string;
  code?: string;
  recovery_code?: string;
  passkey?: AuthenticationResponseJSON;
}

/**
 * POST /api/auth/session with the body read on a 401 too (the typed client drops it): a 401
 * carrying a challenge is the second-factor step; any other refusal is thrown as the client would.
 */
async function postSession(body: object): Promise<{ step: SecondFactorStep | null; data: { recovery_codes?: string[] } | null }> {
  const res = await fetch('/api/auth/session', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.status === 401 && typeof json?.challenge === 'string') {
    return { step: { challenge: json.challenge, methods: (json.methods as string[]) ?? [], reason: String(json.reason ?? ''), message: String(json.message ?? '') }, data: null };
  }
  if (!res.ok) {
    const retry = Number(res.headers.get('retry-after') ?? '1');
    throw Object.assign(new Error(typeof json?.message === 'string' && res.status === 401 ? json.message : String(json?.error ?? 'The request was refused.')), { status: res.status, retryAfterSeconds: retry });
  }
  return { step: null, data: (json?.data ?? null) as { recovery_codes?: string[] } | null };
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

  /** After any accepted sign-in: the previous person's cached reads dropped, the new person loaded. */
  const arrive = useCallback(async () => {
    client.clear();
    await clearOfflineReads();
    setEndedReason(null);
    await refresh();
  }, [refresh, client]);

  const signIn = useCallback(
    async (email: string, password: string, rememberMe: boolean) => {
      const { step } = await postSession({ email, password, remember_me: rememberMe });
      if (step) return step;
      await arrive();
      return null;
    },
    [arrive],
  );

  const finishSignIn = useCallback(
    async (answer: SecondFactorAnswer) => {
      const { data } = await postSession(answer);
      await arrive();
      return data?.recovery_codes ?? null;
    },
    [arrive],
  );

  const signInWithPasskey = useCallback(
    async (rememberMe: boolean) => {
      const { step } = await postSession(await passkeyAssertion({ remember_me: rememberMe }));
      if (step) return step;
      await arrive();
      return null;
    },
    [arrive],
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
      finishSignIn,
      signInWithPasskey,
      signOut,
      refresh,
    }),
    [me, loading, permissions, lastActivity, endedReason, signIn, finishSignIn, signInWithPasskey, signOut, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The current session (inside SessionProvider). */
export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside SessionProvider');
  return v;
}
