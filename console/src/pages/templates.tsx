/**
 * /templates and /templates/{id}: the agency's message templates in the console (docs/console.md
 * "SLA rules and message templates"; the templates themselves: docs/messaging.md "Templates").
 * The list (GET /api/messaging/templates) shows every message kind and channel with whether the
 * agency changed it; the edit page changes its parts (PUT .../{id}, a new version each save),
 * previews them with the kind's sample values before saving (POST .../{id}/preview: the rendered
 * text is shown as text, the e-mail's HTML only inside a sandboxed frame), lists the versions
 * (GET .../{id}/versions) and goes back to the built-in text after a confirmation (DELETE .../{id}).
 */
import { useRef, useState } from 'react';
import { Form } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { api } from '../api.ts';
import type { Problem } from '../logic/errors.ts';
import { useUrlTable } from '../logic/url-table.ts';
import type { MessageTemplate, TemplateVersion } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, formatLondonDateTime, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable } from '../table.tsx';
import { Loaded, Notice, splitProblem } from './people-forms.tsx';
import '../people-forms.css';

type Part = 'subject' | 'mjml' | 'text_body' | 'title' | 'body';

/** The parts of each channel, in the order the form shows them. */
const PARTS: Record<string, Part[]> = { email: ['subject', 'text_body', 'mjml'], push: ['title', 'body'], sms: ['text_body'] };

const CHANNELS: Record<string, string> = { email: 'E-mail', push: 'App notification', sms: 'Text message' };

const AUDIENCES: Record<string, string> = {
  tenant: 'Tenant',
  contractor: 'Contractor',
  branch_agents: 'Branch agents',
  agency_admins: 'Agency administrators',
  landlords: 'Landlords',
};

/** A part's label and hint on the edit form. */
function partLabel(channel: string, part: Part): { label: string; hint: string; multiline: boolean; max: number } {
  switch (part) {
    case 'subject':
      return { label: 'Subject', hint: 'One line.', multiline: false, max: 300 };
    case 'mjml':
      return { label: 'E-mail layout (MJML)', hint: 'The HTML e-mail as MJML; the preview shows how it looks.', multiline: true, max: 100_000 };
    case 'text_body':
      return channel === 'sms'
        ? { label: 'Text message', hint: 'Keep it short: long texts are sent as several messages.', multiline: true, max: 20_000 }
        : { label: 'Plain text', hint: 'For mail programs that do not show HTML.', multiline: true, max: 20_000 };
    case 'title':
      return { label: 'Notification title', hint: 'One line.', multiline: false, max: 200 };
    case 'body':
      return { label: 'Notification text', hint: 'One or two sentences.', multiline: true, max: 1_000 };
  }
}

/** "E-mail to the tenant: their report was received." names a template (a list row, a link). */
function templateName(t: Pick<MessageTemplate, 'channel' | 'description'>): string {
  return `${CHANNELS[t.channel] ?? t.channel}: ${t.description}`;
}

/**
 * /templates: every message the agency sends, by kind and channel, each with its edit link; sorted
 * and paged (25 a page) in the browser from the URL (`?sort=channel&order=asc&page=2`).
 */
export function TemplatesPage() {
  const table = useUrlTable(['message', 'channel', 'audience', 'text']);
  const templates = useLoad(async () => (await api.GET('/api/messaging/templates', { params: { query: { limit: 200 } } })).data!.data as MessageTemplate[], []);
  return (
    <>
      <PageTitle>Message templates</PageTitle>
      <p>
        The e-mails, app notifications and text messages Caretaker sends for your agency. Open one to change its words, preview it with sample values and save
        it.
      </p>
      <Loaded load={templates}>
        {(list) =>
          list.length === 0 ? (
            <p className="empty-state">
              No message templates to show. Caretaker’s built-in messages appear here once the service has them; ask your system administrator if this stays
              empty.
            </p>
          ) : (
            <DataTable<MessageTemplate>
              label="message templates"
              rowKey={(r) => r.id}
              rows={list}
              {...table}
              columns={[
                { header: 'Message', sortKey: 'message', sortValue: (r) => r.description, cell: (r) => r.description },
                { header: 'Channel', key: true, sortKey: 'channel', sortValue: (r) => CHANNELS[r.channel] ?? r.channel, cell: (r) => CHANNELS[r.channel] ?? r.channel },
                { header: 'Sent to', key: true, sortKey: 'audience', sortValue: (r) => AUDIENCES[r.audience] ?? r.audience, cell: (r) => AUDIENCES[r.audience] ?? r.audience },
                {
                  header: 'Text',
                  key: true,
                  sortKey: 'text',
                  sortValue: (r) => (r.source === 'override' ? `Your version ${r.version}` : 'Built in'),
                  cell: (r) => (r.source === 'override' ? `Your version ${r.version}` : 'Built in'),
                },
                {
                  header: 'Edit',
                  action: true,
                  cell: (r) => (
                    <Link to={`/templates/${encodeURIComponent(r.id)}`} aria-label={`Edit ${templateName(r)}`}>
                      Edit
                    </Link>
                  ),
                },
              ]}
            />
          )
        }
      </Loaded>
    </>
  );
}

/** The field an "Invalid template: <part>: ..." names, else the field of the envelope (logic/errors.ts). */
function withPart(problem: Problem | null): Problem | null {
  if (!problem || problem.field) return problem;
  const m = /^Invalid template: (subject|mjml|text_body|title|body): (.*)$/s.exec(problem.message);
  return m ? { ...problem, field: m[1]!, message: `This text cannot be used: ${m[2]!}` } : problem;
}

type Rendered = { subject?: string; html?: string; text?: string; title?: string; body?: string };

/**
 * /templates/{id}: the template's parts, its preview, its versions (sorted and paged, 25 a page,
 * from the URL: `?sort=version&order=asc`) and going back to the built-in text.
 */
export function TemplateEditPage() {
  const { id = '' } = useParams();
  const table = useUrlTable(['version', 'saved']);
  const [notice, setNotice] = useState<string | null>(null);
  const template = useLoad(async () => (await api.GET('/api/messaging/templates/{id}', { params: { path: { id } } })).data!.data as MessageTemplate, [id]);
  const versions = useLoad(
    async () => (await api.GET('/api/messaging/templates/{id}/versions', { params: { path: { id }, query: { limit: 200 } } })).data!.data as TemplateVersion[],
    [id],
  );
  return (
    <>
      <PageTitle>Edit message template</PageTitle>
      <p>
        <Link to="/templates">Back to message templates</Link>
      </p>
      <Notice text={notice} />
      <Loaded load={template}>
        {(t) => (
          <TemplateForm
            key={t.version}
            template={t}
            onSaved={(text) => {
              setNotice(text);
              template.reload();
              versions.reload();
            }}
          />
        )}
      </Loaded>
      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        <Loaded load={versions}>
          {(list) =>
            list.length === 0 ? (
              <p className="empty-state">No saved versions yet: the built-in text is sent. Change the text above and save it to make version 1.</p>
            ) : (
              <DataTable<TemplateVersion>
                label="template versions"
                rowKey={(r) => String(r.version)}
                rows={list}
                {...table}
                columns={[
                  { header: 'Version', sortKey: 'version', sortValue: (r) => r.version, cell: (r) => `Version ${r.version}` },
                  { header: 'Saved', key: true, sortKey: 'saved', sortValue: (r) => Date.parse(r.created_at), cell: (r) => formatLondonDateTime(r.created_at) },
                  { header: 'By', key: true, cell: (r) => r.created_by ?? '-' },
                  { header: 'What', key: true, cell: (r) => (r.reverted ? 'Back to the built-in text' : 'Your text') },
                ]}
              />
            )
          }
        </Loaded>
      </section>
    </>
  );
}

function TemplateForm({ template, onSaved }: { template: MessageTemplate; onSaved: (notice: string) => void }) {
  const action = useAction();
  const previewing = useAction();
  const { ask, dialog } = useConfirm();
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const parts = PARTS[template.channel] ?? [];
  const { errors, other } = splitProblem(withPart(action.problem ?? previewing.problem), parts);
  const forgetFieldError = () => {
    if (Object.keys(errors).length === 0) return;
    action.setProblem(null);
    previewing.setProblem(null);
  };
  const read = (): Partial<Record<Part, string>> => {
    const f = new FormData(form.current!);
    return Object.fromEntries(parts.map((p) => [p, String(f.get(p) ?? '')]));
  };
  const preview = () =>
    void previewing.run(async () => {
      action.setProblem(null);
      setRendered(null);
      const { data } = await api.POST('/api/messaging/templates/{id}/preview', { params: { path: { id: template.id } }, body: read() });
      setRendered(data!.data as Rendered);
    });
  const save = () =>
    void action.run(async () => {
      previewing.setProblem(null);
      const { data } = await api.PUT('/api/messaging/templates/{id}', { params: { path: { id: template.id } }, body: read() });
      onSaved(`Saved as version ${(data!.data as MessageTemplate).version}. New messages use this text.`);
    });
  const reset = () =>
    ask({
      title: 'Go back to the built-in text?',
      body: <p>New messages use Caretaker’s built-in text again. Your versions stay in the list below.</p>,
      confirmLabel: 'Use the built-in text',
      cancelLabel: 'Keep your text',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/messaging/templates/{id}', { params: { path: { id: template.id } } });
          onSaved('The built-in text is in use again.');
        }),
    });
  return (
    <>
      <h2>{templateName(template)}</h2>
      <dl className="template-facts">
        <div>
          <dt>Sent to</dt>
          <dd>{AUDIENCES[template.audience] ?? template.audience}</dd>
        </div>
        <div>
          <dt>Sent when</dt>
          <dd>{template.trigger}</dd>
        </div>
        <div>
          <dt>Text in use</dt>
          <dd>
            {template.source === 'override'
              ? `Your version ${template.version}${template.updated_at ? `, saved ${formatLondonDateTime(template.updated_at)}` : ''}`
              : 'Built in'}
          </dd>
        </div>
      </dl>
      <p className="template-variables">
        Values you can use, written as <code>{'{{ name }}'}</code>:{' '}
        {template.variables.map((v, i) => (
          <span key={v}>
            {i > 0 ? ', ' : ''}
            <code>{`{{ ${v} }}`}</code>
          </span>
        ))}
        .
      </p>
      {/* A field's error goes as soon as its text is changed (not on leaving the field, which moved the buttons under the pointer). */}
      <div onChange={forgetFieldError}>
        <Form
          ref={form}
          className="form"
          aria-label={`Edit ${templateName(template)}`}
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
          validationErrors={errors}
        >
          {parts.map((p) => {
            const l = partLabel(template.channel, p);
            return (
              <Field
                key={p}
                name={p}
                label={l.label}
                isRequired
                multiline={l.multiline}
                maxLength={l.max}
                description={l.hint}
                defaultValue={template.parts[p] ?? ''}
              />
            );
          })}
          {other ? <ProblemMessage problem={other} /> : null}
          <div className="button-row">
            <Button variant="secondary" isDisabled={previewing.busy} onPress={preview}>
              Preview
            </Button>
            <Button type="submit" isDisabled={action.busy}>
              Save template
            </Button>
          </div>
        </Form>
      </div>
      {rendered ? <PreviewShown rendered={rendered} /> : null}
      {template.source === 'override' ? (
        <section aria-labelledby="reset-heading">
          <h2 id="reset-heading">Built-in text</h2>
          <p>Your agency’s own text is in use. You can go back to Caretaker’s built-in text at any time.</p>
          <Button variant="danger" isDisabled={action.busy} onPress={reset}>
            Go back to the built-in text
          </Button>
        </section>
      ) : null}
      {dialog}
    </>
  );
}

/** The rendered parts: text as text (React escapes it), the e-mail's HTML only in a sandboxed frame (no scripts, no same origin). */
function PreviewShown({ rendered }: { rendered: Rendered }) {
  const rows: Array<[string, string | undefined]> = [
    ['Subject', rendered.subject],
    ['Notification title', rendered.title],
    ['Notification text', rendered.body],
    ['Text', rendered.text],
  ];
  return (
    <section aria-labelledby="preview-heading" className="template-preview">
      <h2 id="preview-heading">Preview with sample values</h2>
      <p className="hint">Not saved yet and nothing is sent: this is how the text above reads with sample values.</p>
      <dl>
        {rows
          .filter(([, v]) => v !== undefined)
          .map(([label, v]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>
                <pre className="template-text">{v}</pre>
              </dd>
            </div>
          ))}
      </dl>
      {rendered.html !== undefined ? <iframe className="template-frame" title="E-mail preview" sandbox="" srcDoc={rendered.html} /> : null}
    </section>
  );
}
