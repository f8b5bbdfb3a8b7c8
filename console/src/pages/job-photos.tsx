/**
 * The job page's photos tab (job.tsx): the photos with previews, and upload (the phone's camera on
 * a phone) through the outbox (outbox.ts), a photo made offline shown as waiting.
 */
import { type FormEvent } from 'react';
import { api } from '../api.ts';
import { sendOrQueue } from '../outbox.ts';
import { Button, formatDateTime, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { useReloadWhenSent, useWaiting } from './job-waiting.ts';

/** Photos with previews, and upload. */
export function Photos({ uuid, reference }: { uuid: string; reference: string }) {
  const list = useLoad(['jobs', uuid, 'photos'], async () => (await api.GET('/api/jobs/{uuid}/photos', { params: { path: { uuid } } })).data!.data);
  useReloadWhenSent(uuid, list.reload);
  const waiting = useWaiting(uuid, ['photo']);
  const action = useAction();
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
      {list.data && list.data.length === 0 && waiting.length === 0 ? <p>No photos yet.</p> : null}
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
    </section>
  );
}
