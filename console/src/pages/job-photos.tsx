/**
 * The job page's photos tab (job.tsx): the photos with previews, and upload (the phone's camera on
 * a phone) through the outbox (outbox.ts), a photo made offline shown as waiting; Delete after a
 * confirmation (DELETE /api/jobs/{uuid}/photos/{file_uuid}; staff holding api.jobs.photos.manage,
 * or the uploader).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { sendOrQueue } from '../outbox.ts';
import { useSession } from '../session.tsx';
import { Button, formatDateTime, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { mayDeleteFile } from './job-files.tsx';
import { Notice } from './people-forms.tsx';
import { useReloadWhenSent, useWaiting } from './job-waiting.ts';

/** Photos with previews, and upload. */
export function Photos({ uuid, reference }: { uuid: string; reference: string }) {
  const list = useLoad(['jobs', uuid, 'photos'], async () => (await api.GET('/api/jobs/{uuid}/photos', { params: { path: { uuid } } })).data!.data);
  useReloadWhenSent(uuid, list.reload);
  const waiting = useWaiting(uuid, ['photo']);
  const action = useAction();
  const session = useSession();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const remove = (p: { uuid: string; filename: string }) =>
    ask({
      title: `Delete the photo ${p.filename}?`,
      body: 'It is taken off this job for everyone: nobody can see or download it here any more. The agency keeps its record as evidence.',
      confirmLabel: 'Delete photo',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/jobs/{uuid}/photos/{file_uuid}', { params: { path: { uuid, file_uuid: p.uuid } } });
          setDone(`The photo ${p.filename} was deleted.`);
          list.reload();
        }),
    });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const file = new FormData(form).get('file');
    if (!(file instanceof File) || file.size === 0) {
      action.setProblem({ message: 'Choose a photo first.', field: 'file', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    void action.run(async () => {
      const done = await sendOrQueue({ jobUuid: uuid, jobReference: reference, kind: 'photo', label: 'Photo', file, fileName: file.name });
      form.reset();
      if (done === 'sent') list.reload();
    });
  };
  return (
    <section aria-labelledby="photos">
      <h2 id="photos">Photos</h2>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      {list.data && list.data.length === 0 && waiting.length === 0 ? <p className="empty-state">No photos yet. Add one below; on a phone the camera opens.</p> : null}
      <Notice text={done} />
      {waiting.length > 0 ? (
        <ul className="photos-waiting">
          {waiting.map((w) => (
            <li key={w.key} className="waiting">
              Waiting to send: photo {w.fileName}
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="photos">
        {(list.data ?? []).map((p) => (
          <li key={p.uuid}>
            <a href={p.download_url} target="_blank" rel="noreferrer">
              <img src={p.download_url} alt={p.description ?? `Photo ${p.filename}`} width={160} height={120} />
            </a>
            <span className="meta">
              {p.uploaded_by_name ?? ''} {formatDateTime(p.created_at)}
            </span>
            {mayDeleteFile(session, 'api.jobs.photos.manage', p.uploaded_by_uuid) ? (
              <Button variant="secondary" aria-label={`Delete photo ${p.filename}`} isDisabled={action.busy} onPress={() => remove(p)}>
                Delete
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <form className="form inline" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="photo-upload">Add a photo</label>
          <input id="photo-upload" name="file" type="file" accept="image/*" capture="environment" />
        </div>
        <ProblemMessage problem={action.problem} />
        <Button type="submit" variant="secondary" isDisabled={action.busy}>
          Upload photo
        </Button>
      </form>
      {dialog}
    </section>
  );
}
