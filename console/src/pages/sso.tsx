/**
 * Single sign-on settings in the console (docs/console.md "Single sign-on"; docs/security.md
 * "Single sign-on"): the agency administrator's form (GET, PUT, DELETE /api/auth/sso/settings).
 * The sign-in page's button is in sso-sign-in.tsx.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { Field } from '../field.tsx';
import { Button, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import type { Provider } from './sso-sign-in.tsx';
import { Loaded, Notice, SelectField, reader, splitProblem } from './people-forms.tsx';

const SSO_FIELDS = ['provider', 'issuer', 'client_id', 'client_secret', 'domains', 'default_role', 'default_branch_uuid'];

/** An agency administrator's single sign-on settings, in the agency settings page. */
export function SsoSettingsSection() {
  const settings = useLoad(['sso', 'settings'], async () => ({ s: (await api.GET('/api/auth/sso/settings')).data!.data }));
  const branches = useLoad(['branches', 'sso'], async () => (await api.GET('/api/admin/branches', { params: { query: { limit: 200 } } })).data?.data ?? []);
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const { errors, other } = splitProblem(action.problem, SSO_FIELDS);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = reader(form);
    const checked = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.checked ?? false;
    const role = v('default_role');
    setSaved(null);
    void action.run(async () => {
      await api.PUT('/api/auth/sso/settings', {
        body: {
          provider: (v('provider') ?? 'other') as Provider,
          issuer: v('issuer') ?? '',
          client_id: v('client_id') ?? '',
          ...(v('client_secret') ? { client_secret: v('client_secret')! } : {}),
          domains: (v('domains') ?? '').split(/[\s,]+/).filter(Boolean),
          enabled: checked('enabled'),
          create_users: checked('create_users'),
          default_role: role === 'agent' || role === 'admin' ? role : null,
          default_branch_uuid: v('default_branch_uuid'),
          require_for_staff: checked('require_for_staff'),
        },
      });
      setSaved('Single sign-on saved.');
      settings.reload();
    });
  };
  const remove = () =>
    void action.run(async () => {
      await api.DELETE('/api/auth/sso/settings', { body: {} });
      setSaved('Single sign-on removed: everyone signs in with a password again.');
      settings.reload();
    });
  return (
    <section aria-labelledby="sso-settings">
      <h2 id="sso-settings">Single sign-on</h2>
      <p>
        Staff sign in with their Microsoft 365 (Entra ID) or Google Workspace account. Register this application at your provider with the redirect URI below
        and the scopes <code>openid email profile</code>; docs/users.md "Single sign-on" walks through both.
      </p>
      <Notice text={saved} />
      <Loaded load={settings}>
        {({ s }) => (
          <form key={s?.updated_at ?? 'new'} className="form" onSubmit={onSubmit}>
            {s ? (
              <p className="hint">
                Redirect URI: <code>{s.redirect_uri}</code>
              </p>
            ) : null}
            <SelectField id="sso-provider" name="provider" label="Provider" defaultValue={s?.provider ?? 'microsoft'} error={errors.provider} required>
              <option value="microsoft">Microsoft Entra ID (Microsoft 365)</option>
              <option value="google">Google Workspace</option>
              <option value="other">Another OpenID Connect provider</option>
            </SelectField>
            <Field name="issuer" label="Issuer URL" isRequired defaultValue={s?.issuer ?? ''} description="Entra ID: https://login.microsoftonline.com/<tenant id>/v2.0 · Google: https://accounts.google.com" />
            <Field name="client_id" label="Client (application) ID" isRequired defaultValue={s?.client_id ?? ''} />
            <Field name="client_secret" label="Client secret" type="password" isRequired={!s} autoComplete="off" description={s?.client_secret_set ? 'A secret is stored; leave blank to keep it.' : 'Shown once by your provider; stored, never shown again.'} />
            <Field name="domains" label="Your e-mail domains" isRequired defaultValue={s?.domains.join(', ') ?? ''} description="Comma-separated, e.g. northgate-lettings.co.uk. Only addresses there can sign in." />
            <label className="checkbox-native">
              <input type="checkbox" name="enabled" defaultChecked={s?.enabled ?? true} /> Single sign-on is on
            </label>
            <label className="checkbox-native">
              <input type="checkbox" name="require_for_staff" defaultChecked={s?.require_for_staff ?? false} /> Require single sign-on for staff (password sign-in refused for admins and agents)
            </label>
            <label className="checkbox-native">
              <input type="checkbox" name="create_users" defaultChecked={s?.create_users ?? false} /> Create an account at first sign-in
            </label>
            <SelectField id="sso-role" name="default_role" label="Role of created accounts" defaultValue={s?.default_role ?? ''} error={errors.default_role}>
              <option value="">None (do not create)</option>
              <option value="agent">Agent</option>
              <option value="admin">Admin</option>
            </SelectField>
            <SelectField id="sso-branch" name="default_branch_uuid" label="Branch of created agents" defaultValue={s?.default_branch_uuid ?? ''} error={errors.default_branch_uuid}>
              <option value="">No branch</option>
              {(branches.data ?? []).map((b) => (
                <option key={b.uuid} value={b.uuid}>
                  {b.name}
                </option>
              ))}
            </SelectField>
            <ProblemMessage problem={other ?? (errors.issuer || errors.client_id || errors.client_secret || errors.domains ? action.problem : null)} />
            <div className="actions">
              <Button type="submit" isDisabled={action.busy}>
                Save single sign-on
              </Button>
              {s ? (
                <Button variant="danger" onPress={remove} isDisabled={action.busy}>
                  Remove single sign-on
                </Button>
              ) : null}
            </div>
          </form>
        )}
      </Loaded>
    </section>
  );
}
