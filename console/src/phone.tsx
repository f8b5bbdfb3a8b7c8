/**
 * The installable app's parts on screen (docs/console.md "On a phone: the installable app"): the
 * offline banner with the outbox's state (what waits, what was sent, what was refused), and the
 * "Notify me on this phone" button (Web Push, docs/push.md).
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { connectionState, londonTime, subscribeConnection, type ConnectionState } from './connection.ts';
import { describeProblem } from './logic/errors.ts';
import { dismissOutboxResults, flushOutbox, outboxState, subscribeOutbox, type OutboxState } from './outbox.ts';
import { currentSubscription, enablePush, pushSupported, webPushKey } from './pwa.ts';
import { Button } from './ui.tsx';

/** The connection state (online, the time of the saved copies shown), following its changes. */
export function useConnection(): ConnectionState {
  return useSyncExternalStore(subscribeConnection, connectionState);
}

/** The outbox's state (the signed-in person's waiting writes, sent and refused ones), following its changes. */
export function useOutbox(): OutboxState {
  return useSyncExternalStore(subscribeOutbox, outboxState);
}

/** "1 change" / "3 changes". */
function changes(n: number): string {
  return `${n} ${n === 1 ? 'change' : 'changes'}`;
}

/**
 * Above every signed-in page: "You are offline: showing what was saved at 14:05" (London time;
 * the oldest saved copy shown) while offline or while answers come from saved copies; "N changes
 * waiting to send" while the outbox holds writes; after sending, what was sent; and each refused
 * write with the API's message (an alert), until dismissed.
 */
export function OfflineBanner() {
  const connection = useConnection();
  const outbox = useOutbox();
  const offline = !connection.online || connection.savedAt !== null;
  const waiting = outbox.waiting.length;
  const finished = outbox.sent.length > 0 || outbox.rejected.length > 0;
  if (!offline && waiting === 0 && !finished) return null;
  return (
    <div className="phone-banners">
      {offline || waiting > 0 ? (
        <div className="offline-banner" role="status">
          {offline ? (
            <p>
              <strong>
                {connection.savedAt !== null ? `You are offline: showing what was saved at ${londonTime(connection.savedAt)}` : 'You are offline'}
              </strong>
            </p>
          ) : null}
          {waiting > 0 ? (
            <p>
              {changes(waiting)} waiting to send{offline ? ': they are sent when you are back online.' : outbox.sending ? ': sending…' : '.'}
            </p>
          ) : null}
          {waiting > 0 && !offline && !outbox.sending ? (
            <Button variant="secondary" onPress={() => void flushOutbox()}>
              Send now
            </Button>
          ) : null}
        </div>
      ) : null}
      {finished ? (
        <div className="outbox-results">
          {outbox.sent.length > 0 ? (
            <div role="status">
              <p>Sent {changes(outbox.sent.length)}:</p>
              <ul>
                {outbox.sent.map((d, i) => (
                  <li key={i}>
                    {d.label} ({d.jobReference})
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {outbox.rejected.length > 0 ? (
            <div role="alert">
              <p>Not sent (the agency’s system refused {outbox.rejected.length === 1 ? 'it' : 'them'}):</p>
              <ul>
                {outbox.rejected.map((d, i) => (
                  <li key={i}>
                    {d.label} ({d.jobReference}): {d.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <Button variant="secondary" onPress={dismissOutboxResults}>
            Dismiss
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/**
 * "Notify me on this phone": shown when this browser can receive Web Push and the server has a
 * key (GET /api/system/device-tokens/web-push-key); subscribes and registers the subscription as
 * the person's web device token (pwa.ts `enablePush`). Says so once notifications are on.
 */
export function NotifyButton() {
  const [key, setKey] = useState<string | null>(null);
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!pushSupported() || !navigator.onLine) return;
    let live = true;
    void (async () => {
      try {
        const k = await webPushKey();
        const subscribed = k !== null && Notification.permission === 'granted' && (await currentSubscription()) !== null;
        if (live) {
          setKey(k);
          setOn(subscribed);
        }
      } catch {
        // No key, no button.
      }
    })();
    return () => {
      live = false;
    };
  }, []);
  if (!key) return null;
  if (on) return <p className="hint notify-on">Notifications for new jobs and visits are on for this phone.</p>;
  return (
    <div className="notify">
      <Button
        variant="secondary"
        isDisabled={busy}
        onPress={() => {
          setBusy(true);
          setProblem(null);
          enablePush(key)
            .then(() => setOn(true))
            .catch((e: unknown) => setProblem(e instanceof Error && !('status' in e) ? e.message : describeProblem(e, navigator.onLine).message))
            .finally(() => setBusy(false));
        }}
      >
        Notify me on this phone
      </Button>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
