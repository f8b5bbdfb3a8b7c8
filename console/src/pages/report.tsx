/**
 * Reporting a repair (tenant) or creating a job (staff): title, description, access notes and an
 * optional photo, in one short form that works on a phone (the photo input opens the camera).
 * POST /api/jobs/manage with an Idempotency-Key (a retry after a dropped connection does not make
 * a second job), then POST /api/jobs/{uuid}/photos; access notes go into the description.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api, idempotencyKey } from '../api.ts';
import { PRIORITIES } from '../logic/job-filters.ts';
import { composeDescription } from '../logic/report.ts';
import { useSession } from '../session.tsx';
import { Button, Field, PageTitle, ProblemMessage, useAction } from '../ui.tsx';

/** Uploads one photo to a job (multipart field `file`; the CSRF token goes in the header, added by the client). */
export async function uploadPhoto(jobUuid: string, file: File): Promise<void> {
  const form = new FormData();
  form.append('file', file, file.name);
  await api.POST('/api/jobs/{uuid}/photos', { params: { path: { uuid: jobUuid } }, body: form as never, bodySerializer: (b: unknown) => b as FormData });
}

/** The report-a-repair page. */
export function ReportRepair() {
  const session = useSession();
  const navigate = useNavigate();
  const key = useRef(idempotencyKey());
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const { problem, busy, run } = useAction();
  const tenant = session.party === 'tenant';
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const photo = form.get('photo');
    void run(async () => {
      const { data } = await api.POST('/api/jobs/manage', {
        params: { header: { 'Idempotency-Key': key.current } as never },
        body: {
          title: String(form.get('title') ?? ''),
          priority: Number(form.get('priority') ?? 3),
          description: composeDescription(String(form.get('description') ?? ''), String(form.get('access') ?? '')),
        } as never,
      });
      const job = data!.data;
      if (photo instanceof File && photo.size > 0) {
        try {
          await uploadPhoto(job.uuid, photo);
        } catch (err) {
          setPhotoProblem(`The repair was reported, but the photo was not uploaded: ${(err as Error).message}`);
          navigate(`/jobs/${job.uuid}`, { state: { flash: 'Repair reported; the photo could not be uploaded, add it below.' } });
          return;
        }
      }
      navigate(`/jobs/${job.uuid}`, { state: { flash: tenant ? 'Thank you: your repair has been reported.' : 'Job created.' } });
    });
  };
  return (
    <>
      <PageTitle>{tenant ? 'Report a repair' : 'New job'}</PageTitle>
      <Form className="form" onSubmit={onSubmit} validationErrors={problem?.field ? { [problem.field]: problem.message } : {}}>
        <Field name="title" label="What needs repairing?" isRequired maxLength={200} description="A short summary, e.g. “Leak under the kitchen sink”." />
        <Field name="description" label="Details" multiline maxLength={4000} description="What happened, since when, anything already tried." />
        <Field name="access" label="Access notes" multiline maxLength={800} description="When someone is home, keys, pets, parking." />
        <div className="field">
          <label htmlFor="priority">How urgent is it?</label>
          <select id="priority" name="priority" defaultValue="3">
            {Object.entries(PRIORITIES).map(([n, label]) => (
              <option key={n} value={n}>
                {label}
                {n === '1' ? ' (danger to people or property)' : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="photo">Photo (optional)</label>
          <input id="photo" name="photo" type="file" accept="image/jpeg,image/png,image/webp,image/heic" capture="environment" aria-describedby="photo-hint" />
          <p id="photo-hint" className="hint">
            JPEG, PNG, WebP or HEIC, up to 15 MB.
          </p>
          {photoProblem ? <p className="field-error">{photoProblem}</p> : null}
        </div>
        <ProblemMessage problem={problem} />
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Sending…' : tenant ? 'Report repair' : 'Create job'}
        </Button>
      </Form>
    </>
  );
}
