/**
 * The job page's notes tab (job.tsx): the notes with who sees each (said from the reader's side),
 * and a new note with its visibility, through the outbox (outbox.ts); one's own note edited within
 * the 15 minutes the API allows (PUT /api/jobs/{uuid}/notes/{note_uuid}, docs/api.md).
 */
import { useState, type FormEvent } from 'react';
import { useLiveEvents } from '../live.ts';
import { api } from '../api.ts';
import { type Party } from '../logic/transitions.ts';
import { sendOrQueue } from '../outbox.ts';
import { useSession } from '../session.tsx';
import { Button, formatDateTime, Options, ProblemMessage, SubmitRow, useAction, useLoad } from '../ui.tsx';
import { useReloadWhenSent, useWaiting } from './job-waiting.ts';

const VISIBILITY: Record<string, string> = {
  internal: 'Staff only',
  tenant: 'Shared with the tenant',
  contractor: 'Shared with the contractor',
  both: 'Shared with tenant and contractor',
};

/**
 * Who sees a note, said from the reader's side: staff read the visibility as set; a contractor's
 * own note (visibility contractor) is "Seen by you and the agency", not "Shared with the contractor".
 */
export function visibilityLabel(visibility: string, party: Party): string {
  if (party === 'contractor') {
    if (visibility === 'contractor') return 'Seen by you and the agency';
    if (visibility === 'both') return 'Seen by the agency, you and the tenant';
  }
  if (party === 'tenant') {
    if (visibility === 'tenant') return 'Seen by you and the agency';
    if (visibility === 'both') return 'Seen by the agency, you and the contractor';
  }
  return VISIBILITY[visibility] ?? visibility;
}

/** Notes with their visibility, and a new note. */
export function Notes({ uuid, reference }: { uuid: string; reference: string }) {
  const session = useSession();
  const list = useLoad(['jobs', uuid, 'notes'], async () => (await api.GET('/api/jobs/{uuid}/notes', { params: { path: { uuid } } })).data!.data);
  useLiveEvents(uuid, (e) => {
    if (e.type === 'job.note_added' || e.type === 'resync') list.reload();
  });
  useReloadWhenSent(uuid, list.reload);
  const waiting = useWaiting(uuid, ['note']);
  const action = useAction();
  const editAction = useAction();
  const [editing, setEditing] = useState<string | null>(null);
  const staff = session.party === 'staff';
  const saveEdit = (e: FormEvent<HTMLFormElement>, noteUuid: string) => {
    e.preventDefault();
    const body = String(new FormData(e.currentTarget).get('body') ?? '').trim();
    if (!body) return editAction.setProblem({ message: 'Write the note first; an empty note is not saved.', field: 'body', retry: false, retryAfterSeconds: null, status: 400 });
    void editAction.run(async () => {
      await api.PUT('/api/jobs/{uuid}/notes/{note_uuid}', { params: { path: { uuid, note_uuid: noteUuid } }, body: { body } });
      setEditing(null);
      list.reload();
    });
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    void action.run(async () => {
      const body = { body: String(f.get('body') ?? ''), ...(staff ? { visibility: String(f.get('visibility')) } : {}) };
      const done = await sendOrQueue({ jobUuid: uuid, jobReference: reference, kind: 'note', label: 'Note', body });
      form.reset();
      if (done === 'sent') list.reload();
    });
  };
  return (
    <section aria-labelledby="notes">
      <h2 id="notes">Notes</h2>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      <ul className="notes">
        {(list.data ?? []).map((n) => (
          <li key={n.uuid}>
            {editing === n.uuid ? (
              <form className="form" noValidate onSubmit={(e) => saveEdit(e, n.uuid)} aria-label="Edit your note">
                <div className="field">
                  <label htmlFor={`note-edit-${n.uuid}`}>Your note</label>
                  <textarea id={`note-edit-${n.uuid}`} name="body" rows={3} maxLength={5000} defaultValue={n.body} aria-invalid={editAction.problem?.field === 'body' || undefined} />
                  {editAction.problem?.field === 'body' ? <p className="field-error">{editAction.problem.message}</p> : null}
                </div>
                {editAction.problem?.field !== 'body' ? <ProblemMessage problem={editAction.problem} /> : null}
                <SubmitRow label="Save note" busy={editAction.busy} onCancel={() => setEditing(null)} />
              </form>
            ) : (
              <p>{n.body}</p>
            )}
            <span className="meta">
              {n.author_name}, {formatDateTime(n.created_at)}
              {n.edited_at ? ' (edited)' : ''} · {visibilityLabel(n.visibility, session.party)}
            </span>
            {editing !== n.uuid && n.author_uuid && n.author_uuid === session.me?.uuid && n.editable_until && Date.parse(n.editable_until) > Date.now() ? (
              <>
                {' '}
                <Button
                  variant="secondary"
                  aria-label={`Edit your note of ${formatDateTime(n.created_at)}`}
                  onPress={() => {
                    editAction.setProblem(null);
                    setEditing(n.uuid);
                  }}
                >
                  Edit
                </Button>
              </>
            ) : null}
          </li>
        ))}
        {waiting.map((w) => (
          <li key={w.key}>
            <p>{String(w.body?.body ?? '')}</p>
            <span className="meta waiting">Waiting to send (written {formatDateTime(w.createdAt)})</span>
          </li>
        ))}
      </ul>
      <form className="form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="note-body">Add a note</label>
          <textarea id="note-body" name="body" rows={3} required maxLength={5000} aria-invalid={action.problem?.field === 'body' || undefined} />
          {action.problem?.field === 'body' ? <p className="field-error">{action.problem.message}</p> : null}
        </div>
        {staff ? (
          <div className="field">
            <label htmlFor="note-visibility">Who sees it</label>
            <select id="note-visibility" name="visibility" defaultValue="internal">
              <Options labels={VISIBILITY} />
            </select>
          </div>
        ) : (
          <p className="hint">Your notes are seen by the agency.</p>
        )}
        {action.problem?.field !== 'body' ? <ProblemMessage problem={action.problem} /> : null}
        <Button type="submit" variant="secondary" isDisabled={action.busy}>
          Add note
        </Button>
      </form>
    </section>
  );
}
