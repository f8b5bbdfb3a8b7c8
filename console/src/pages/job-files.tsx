/**
 * The documents of a job on the job page (GET and POST /api/jobs/{uuid}/documents,
 * docs/job-files.md): the list with name, size, uploader and date, each a download link, and an
 * upload form (PDF, Office, OpenDocument or plain text; staff may mark a document "staff only",
 * which tenants and contractors never see), and Delete after a confirmation (DELETE
 * /api/jobs/{uuid}/documents/{file_uuid}; staff holding api.jobs.documents.manage, or the uploader).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Notice } from './people-forms.tsx';
import { Button, formatDateTime, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';

/** "12 KB" / "1.4 MB" for a byte count. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * True when the signed-in person may delete a file of the job: the API lets staff holding the
 * permission, or the file's uploader holding it, delete it (docs/job-files.md).
 */
export function mayDeleteFile(session: { party: string; permissions: Set<string>; me: { uuid: string } | null }, permission: string, uploadedBy: string | null): boolean {
  return session.permissions.has(permission) && (session.party === 'staff' || (uploadedBy !== null && uploadedBy === session.me?.uuid));
}

/** The documents section of the job page. */
export function Documents({ uuid }: { uuid: string }) {
  const session = useSession();
  const staff = session.party === 'staff';
  const path = { params: { path: { uuid } } };
  const list = useLoad(['jobs', uuid, 'documents'], async () => (await api.GET('/api/jobs/{uuid}/documents', path)).data!.data);
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const remove = (d: { uuid: string; filename: string }) =>
    ask({
      title: `Delete the document ${d.filename}?`,
      body: 'It is taken off this job for everyone: nobody can open or download it here any more. The agency keeps its record as evidence.',
      confirmLabel: 'Delete document',
      cancelLabel: 'Keep it',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/jobs/{uuid}/documents/{file_uuid}', { params: { path: { uuid, file_uuid: d.uuid } } });
          setDone(`${d.filename} was deleted.`);
          list.reload();
        }),
    });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const file = f.get('file');
    if (!(file instanceof File) || file.size === 0) {
      action.setProblem({ message: 'Choose a document first.', field: 'file', retry: false, retryAfterSeconds: null, status: 400 });
      return;
    }
    const body = { file, ...(staff && f.get('internal') === 'on' ? { internal: true } : {}) };
    void action.run(async () => {
      await api.POST('/api/jobs/{uuid}/documents', { ...path, body });
      setDone(null);
      form.reset();
      list.reload();
    });
  };
  return (
    <section aria-labelledby="documents">
      <h2 id="documents">Documents</h2>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      {list.data && list.data.length === 0 ? <p className="empty-state">No documents yet. Add one below: a report, a quote or a certificate.</p> : null}
      <Notice text={done} />
      <ul className="documents">
        {(list.data ?? []).map((d) => (
          <li key={d.uuid}>
            <a href={d.download_url} download>
              {d.filename}
            </a>{' '}
            <span className="meta">
              {formatBytes(d.size_bytes)}
              {d.internal ? ', staff only' : ''}, {d.uploaded_by_name ?? 'someone'}, {formatDateTime(d.created_at)}
            </span>
            {mayDeleteFile(session, 'api.jobs.documents.manage', d.uploaded_by_uuid) ? (
              <>
                {' '}
                <Button variant="secondary" aria-label={`Delete document ${d.filename}`} isDisabled={action.busy} onPress={() => remove(d)}>
                  Delete
                </Button>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <form className="form inline" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="document-upload">Add a document</label>
          <input
            id="document-upload"
            name="file"
            type="file"
            accept=".pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.txt"
            aria-describedby="document-hint"
          />
          <p id="document-hint" className="hint">
            PDF, Word, Excel, PowerPoint, OpenDocument or plain text, up to 20 MB.
          </p>
        </div>
        {staff ? (
          <div className="checkbox">
            <input id="document-internal" name="internal" type="checkbox" />
            <label htmlFor="document-internal">Staff only (not shown to the tenant or contractor)</label>
          </div>
        ) : null}
        <ProblemMessage problem={action.problem} />
        <Button type="submit" variant="secondary" isDisabled={action.busy}>
          Upload document
        </Button>
      </form>
      {dialog}
    </section>
  );
}
