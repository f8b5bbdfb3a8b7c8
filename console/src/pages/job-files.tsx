/**
 * The documents of a job on the job page (GET and POST /api/jobs/{uuid}/documents,
 * docs/job-files.md): the list with name, size, uploader and date, each a download link, and an
 * upload form (PDF, Office, OpenDocument or plain text; staff may mark a document "staff only",
 * which tenants and contractors never see).
 */
import { type FormEvent } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, formatDateTime, ProblemMessage, useAction, useLoad } from '../ui.tsx';

/** "12 KB" / "1.4 MB" for a byte count. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** The documents section of the job page. */
export function Documents({ uuid }: { uuid: string }) {
  const session = useSession();
  const staff = session.party === 'staff';
  const path = { params: { path: { uuid } } };
  const list = useLoad(['jobs', uuid, 'documents'], async () => (await api.GET('/api/jobs/{uuid}/documents', path)).data!.data);
  const action = useAction();
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
      form.reset();
      list.reload();
    });
  };
  return (
    <section aria-labelledby="documents">
      <h2 id="documents">Documents</h2>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      {list.data && list.data.length === 0 ? <p>No documents yet.</p> : null}
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
    </section>
  );
}
