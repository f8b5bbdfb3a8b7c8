/**
 * The Account page's own sections (docs/console.md "The agency's office"): where one is signed in
 * (GET/DELETE /api/users/me/sessions, DELETE .../{id}), one's second factors (security-settings.tsx,
 * passkeys.tsx), what one is told and how
 * (GET/PUT /api/users/me/notification-preferences), the calendar feed's address for a calendar app
 * (GET/POST/DELETE /api/calendar/feed-key) and one's dashboard's look (office-setup.tsx).
 */
import { useState } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatLondonDateTime, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { Notice } from './people-forms.tsx';
import { Section } from './office-admin.tsx';
import { AppearanceSection } from './office-setup.tsx';
import { PasskeysSection } from './passkeys.tsx';
import { TwoFactorSection } from './security-settings.tsx';

type SessionRow = { id: number; kind: string; created_at: string; last_used_at: string; ip_address: string | null; device: string | null; user_agent: string | null; current: boolean };
type Preference = { event: string; channel: string; enabled: boolean; mode: 'immediate' | 'digest' | 'off'; description: string };

/** The sections below the password form, each for whoever holds its key. */
export function AccountExtras() {
  const session = useSession();
  return (
    <>
      <SessionsSection />
      <TwoFactorSection />
      <PasskeysSection />
      {session.permissions.has('api.users.notification-preferences.manage') ? <PreferencesSection /> : null}
      {session.permissions.has('api.calendar.view') ? <FeedSection /> : null}
      {session.permissions.has('api.users.appearance.manage') ? <AppearanceSection /> : null}
    </>
  );
}

function SessionsSection() {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const list = useLoad(['me', 'sessions'], async () => (await api.GET('/api/users/me/sessions', { params: { query: { limit: 50 } } })).data!.data as SessionRow[]);
  const endOne = (s: SessionRow) =>
    ask({
      title: `Sign out ${s.device ?? 'that device'}?`,
      confirmLabel: 'Sign it out',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/users/me/sessions/{id}', { params: { path: { id: s.id } } });
          setDone(`${s.device ?? 'The device'} was signed out.`);
          list.reload();
        }),
    });
  const endAll = () =>
    ask({
      title: 'Sign out everywhere else?',
      body: 'Every other browser, phone and app signed in as you must sign in again. This one stays.',
      confirmLabel: 'Sign out the others',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          const { data } = await api.DELETE('/api/users/me/sessions', {});
          setDone(data!.data.revoked === 1 ? '1 other session was signed out.' : `${data!.data.revoked} other sessions were signed out.`);
          list.reload();
        }),
    });
  const others = (list.data ?? []).filter((s) => !s.current);
  return (
    <Section id="account-sessions" title="Where you are signed in">
      <ProblemMessage problem={action.problem ?? list.problem} onRetry={list.reload} />
      <Notice text={done} />
      <ul>
        {(list.data ?? []).map((s) => (
          <li key={s.id}>
            {s.device ?? (s.kind === 'mobile' ? 'The app' : 'A browser')}
            {s.ip_address ? ` at ${s.ip_address}` : ''}, last used {formatLondonDateTime(s.last_used_at)}
            {s.current ? (
              ' (this one)'
            ) : (
              <>
                {' '}
                <Button variant="secondary" aria-label={`Sign out: ${s.device ?? 'session'} last used ${formatLondonDateTime(s.last_used_at)}`} onPress={() => endOne(s)}>
                  Sign out
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <Button variant="danger" isDisabled={action.busy} onPress={endAll}>
          Sign out everywhere else
        </Button>
      ) : (
        <p className="hint">You are signed in here only.</p>
      )}
      {dialog}
    </Section>
  );
}

const MODES: Record<Preference['mode'], string> = { immediate: 'At once', digest: 'In a daily summary', off: 'Never' };

function PreferencesSection() {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const prefs = useLoad(['me', 'preferences'], async () => (await api.GET('/api/users/me/notification-preferences')).data!.data as Preference[]);
  const change = (p: Preference, mode: Preference['mode']) =>
    void action.run(async () => {
      await api.PUT('/api/users/me/notification-preferences', { body: { preferences: [{ event: p.event, channel: p.channel as 'email' | 'push', mode, enabled: mode !== 'off' }] } });
      setDone(`${p.description}: ${MODES[mode].toLowerCase()}.`);
      prefs.reload();
    });
  return (
    <Section id="account-preferences" title="What you are told">
      <ProblemMessage problem={action.problem ?? prefs.problem} onRetry={prefs.reload} />
      <Notice text={done} />
      {prefs.data?.length === 0 ? <p className="empty-state">Nothing to choose for your role.</p> : null}
      {(prefs.data ?? []).map((p) => (
        <div className="field" key={`${p.event}-${p.channel}`}>
          <label htmlFor={`pref-${p.event}-${p.channel}`}>
            {p.description} ({p.channel === 'email' ? 'e-mail' : 'notification'})
          </label>
          <select id={`pref-${p.event}-${p.channel}`} value={p.enabled ? p.mode : 'off'} disabled={action.busy} onChange={(e) => change(p, e.target.value as Preference['mode'])}>
            {Object.entries(MODES).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </div>
      ))}
    </Section>
  );
}

function FeedSection() {
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [url, setUrl] = useState<string | null>(null);
  const key = useLoad(['me', 'feed-key'], async () => (await api.GET('/api/calendar/feed-key')).data!.data);
  const make = () =>
    void action.run(async () => {
      const { data } = await api.POST('/api/calendar/feed-key', {});
      setUrl(data!.data.feed_url);
      key.reload();
    });
  const stop = () =>
    ask({
      title: 'Stop the calendar feed?',
      body: 'Calendar apps subscribed to it stop getting your visits.',
      confirmLabel: 'Stop the feed',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/calendar/feed-key', {});
          setUrl(null);
          key.reload();
        }),
    });
  const k = key.data;
  return (
    <Section id="account-feed" title="Your visits in a calendar app">
      <ProblemMessage problem={action.problem ?? key.problem} onRetry={key.reload} />
      {url ? (
        <p className="notice" role="status">
          Subscribe to this address in your calendar app (it is shown once): <code>{url}</code>
        </p>
      ) : null}
      {k ? (
        <>
          <p>{k.exists ? `A feed address was made ${formatLondonDateTime(k.created_at)}${k.last_used_at ? `, last read ${formatLondonDateTime(k.last_used_at)}` : ', not read yet'}.` : 'No feed yet. Make an address to subscribe to in Google Calendar, Outlook or your phone.'}</p>
          <div className="button-row">
            <Button isDisabled={action.busy} onPress={make}>
              {k.exists ? 'Make a new address' : 'Make a feed address'}
            </Button>
            {k.exists ? (
              <Button variant="danger" isDisabled={action.busy} onPress={stop}>
                Stop the feed
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
      {dialog}
    </Section>
  );
}
