/**
 * /users/new (an invitation by e-mail, POST /api/users with invite: true) and /users/{uuid}/edit
 * (docs/console.md "Creating and editing"): name, e-mail, role, branch and status (PUT
 * /api/users/{uuid}), disabling and enabling after a confirmation, and a new invitation. The role
 * list holds only the roles the signed-in person may give (useGrantableRoles). A contractor's or
 * tenant's login is linked to its record: the form shows the firm or tenant to link (from
 * "Invite to the app" on the record, `/users/new?contractor_uuid=...`, or chosen in the form), and
 * sends `contractor_uuid` / `tenant_uuid`.
 */
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import type { Branch, User } from '../types.ts';
import { Field } from '../field.tsx';
import { Button, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import {
  BranchOptions,
  Loaded,
  Notice,
  reader,
  SelectField,
  splitProblem,
  useBranches,
  useGrantableRoles,
  useSavedNotice,
  type Role,
} from './people-forms.tsx';
import { UserSessions } from './landlord-extras.tsx';
import { useSession } from '../session.tsx';
import '../people-forms.css';

const USER_FIELDS = ['name', 'email', 'role', 'branch_uuid', 'contractor_uuid', 'tenant_uuid'];

/** The record a new contractor's or tenant's login belongs to. */
type LinkTo = { kind: 'contractor' | 'tenant' | 'landlord'; uuid: string; name: string; email: string | null };

/** /users/new (an invitation by e-mail) and /users/{uuid}/edit (name, e-mail, role, branch, status). */
export function UserFormPage() {
  const { uuid } = useParams();
  const session = useSession();
  const [notice, setNotice] = useSavedNotice();
  const user = useLoad(['users', uuid ?? 'new'], async () =>
    uuid ? ((await api.GET('/api/users/{uuid}', { params: { path: { uuid } } })).data!.data as User) : ({} as Partial<User>),
  );
  const branches = useBranches();
  const roles = useGrantableRoles();
  const [search] = useSearchParams();
  const contractorUuid = uuid ? null : search.get('contractor_uuid');
  const tenantUuid = uuid ? null : search.get('tenant_uuid');
  const landlordUuid = uuid ? null : search.get('landlord_uuid');
  const linked = useLoad(['users', 'link', contractorUuid, tenantUuid, landlordUuid], async (): Promise<{ to: LinkTo | null }> => {
    // Wrapped: Loaded waits while its data is null, and an edit or a plain invitation links to nothing.
    if (contractorUuid) {
      const c = (await api.GET('/api/contractors/{uuid}', { params: { path: { uuid: contractorUuid } } })).data!.data;
      return { to: { kind: 'contractor', uuid: c.uuid, name: c.contact_name ?? c.company_name, email: c.email ?? null } };
    }
    if (tenantUuid) {
      const t = (await api.GET('/api/tenants/{uuid}', { params: { path: { uuid: tenantUuid } } })).data!.data;
      return { to: { kind: 'tenant', uuid: t.uuid, name: t.name, email: t.email ?? null } };
    }
    if (landlordUuid) {
      const l = (await api.GET('/api/landlords/{uuid}', { params: { path: { uuid: landlordUuid } } })).data!.data;
      return { to: { kind: 'landlord', uuid: l.uuid, name: l.name, email: l.email ?? null } };
    }
    return { to: null };
  });
  return (
    <>
      <PageTitle>{uuid ? 'Edit user' : 'Invite a user'}</PageTitle>
      <p>
        <Link to="/users">Back to users</Link>
      </p>
      <Notice text={notice} />
      {/* Mounted once the branches and roles are there (see AddressFormPage). */}
      <Loaded load={user}>
        {(u) => (
          <Loaded load={branches}>
            {(bs) => (
              <Loaded load={roles}>
                {(rs) => (
                  <Loaded load={linked}>
                    {({ to: link }) => (
                      <UserForm
                        key={u.updated_at ?? `new-${link?.uuid ?? ''}`}
                        user={u}
                        branches={bs}
                        roles={rs}
                        link={link}
                        onSaved={(text) => {
                          setNotice(text);
                          user.reload();
                        }}
                      />
                    )}
                  </Loaded>
                )}
              </Loaded>
            )}
          </Loaded>
        )}
      </Loaded>
      {uuid && user.data?.name && session.permissions.has('api.users.sessions.manage') ? <UserSessions uuid={uuid} name={user.data.name} /> : null}
    </>
  );
}

function UserForm({
  user,
  branches,
  roles,
  link = null,
  onSaved,
}: {
  user: Partial<User>;
  branches: Branch[];
  roles: Role[];
  link?: LinkTo | null;
  onSaved: (notice: string) => void;
}) {
  const [role, setRole] = useState<string>(user.role_code ?? link?.kind ?? (roles.some((r) => r.code === 'agent') ? 'agent' : (roles[0]?.code ?? '')));
  const needsRecord = !user.uuid && (role === 'contractor' || role === 'tenant');
  const navigate = useNavigate();
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const { errors, other } = splitProblem(action.problem, USER_FIELDS, { role_id: 'role' });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = reader(e.currentTarget);
    const name = v('name') ?? '';
    const email = v('email') ?? '';
    const role = v('role');
    const branch = v('branch_uuid');
    void action.run(async () => {
      if (!user.uuid) {
        const record = v('record_uuid');
        const linkTo =
          role === 'contractor' && record ? { contractor_uuid: record } : role === 'tenant' && record ? { tenant_uuid: record } : role === 'landlord' && link?.kind === 'landlord' ? { landlord_uuid: link.uuid } : {};
        const { data } = await api.POST('/api/users', {
          body: { invite: true, name, email, ...(role ? { role } : {}), ...(branch && !needsRecord && role !== 'landlord' ? { branch_uuid: branch } : {}), ...linkTo },
        });
        const created = data!.data as User;
        navigate(`/users/${created.uuid}/edit`, { state: { saved: `Invitation sent to ${created.email}.` } });
        return;
      }
      // Only what changed is sent: one's own role may not be sent, even unchanged.
      const body: Record<string, unknown> = {};
      if (name !== user.name) body.name = name;
      if (email !== user.email) body.email = email;
      if (role && role !== user.role_code) body.role = role;
      if ((branch ?? null) !== (user.branch_uuid ?? null)) body.branch_uuid = branch;
      if (Object.keys(body).length > 0) await api.PUT('/api/users/{uuid}', { params: { path: { uuid: user.uuid } }, body: body });
      onSaved(Object.keys(body).length > 0 ? 'Changes saved.' : 'Nothing changed.');
    });
  };
  const path = { params: { path: { uuid: user.uuid ?? '' } }, body: {} };
  // A landlord's own login (opened from their record) has the Landlord role and no other.
  const roleOptions =
    link?.kind === 'landlord' && !user.uuid
      ? [{ id: 0, code: 'landlord', name: `Landlord (${link.name})`, level: 0 }]
      : roles.some((r) => r.code === user.role_code) || !user.role_code
        ? roles
        : [...roles, { id: 0, code: user.role_code, name: user.role ?? user.role_code, level: 0 }];
  return (
    <>
      <Form className="form" aria-label={user.uuid ? `Edit ${user.name}` : 'Invite a user'} onSubmit={onSubmit} validationErrors={errors}>
        <Field name="name" label="Name" isRequired maxLength={200} defaultValue={user.name ?? link?.name ?? ''} />
        <Field
          name="email"
          label="E-mail address"
          type="email"
          isRequired
          maxLength={254}
          defaultValue={user.email ?? link?.email ?? ''}
          description={user.uuid ? undefined : 'They get an e-mail with a link, valid 7 days, to choose their password.'}
        />
        <SelectField id="user-role" name="role" label="Role" defaultValue={role} error={errors.role} required onChange={setRole}>
          {roleOptions.map((r) => (
            <option key={r.code} value={r.code}>
              {r.name}
            </option>
          ))}
        </SelectField>
        {needsRecord ? (
          <RecordPicker
            kind={role === 'tenant' ? 'tenant' : 'contractor'}
            link={link?.kind === role ? link : null}
            error={errors.contractor_uuid ?? errors.tenant_uuid}
          />
        ) : (
          <SelectField
            id="user-branch"
            name="branch_uuid"
            label="Branch"
            defaultValue={user.branch_uuid ?? ''}
            error={errors.branch_uuid}
            hint="Agents need a branch."
          >
            <BranchOptions branches={branches} empty="No branch" />
          </SelectField>
        )}
        {other ? <ProblemMessage problem={other} /> : null}
        <Button type="submit" isDisabled={action.busy}>
          {user.uuid ? 'Save changes' : 'Send invitation'}
        </Button>
      </Form>
      {user.uuid ? (
        <section aria-labelledby="user-status">
          <h2 id="user-status">Status: {user.status}</h2>
          <div className="button-row">
            {user.status === 'invited' ? (
              <Button
                variant="secondary"
                isDisabled={action.busy}
                onPress={() =>
                  void action.run(async () => {
                    await api.POST('/api/users/{uuid}/invite', path);
                    onSaved(`A new invitation was sent to ${user.email}; the earlier link no longer works.`);
                  })
                }
              >
                Send the invitation again
              </Button>
            ) : null}
            {user.status === 'disabled' ? (
              <Button
                variant="secondary"
                isDisabled={action.busy}
                onPress={() =>
                  void action.run(async () => {
                    await api.POST('/api/users/{uuid}/enable', path);
                    onSaved(`${user.name} can sign in again.`);
                  })
                }
              >
                Enable user
              </Button>
            ) : (
              <Button
                variant="danger"
                isDisabled={action.busy}
                onPress={() =>
                  ask({
                    title: `Disable ${user.name}?`,
                    body: <p>They are signed out everywhere at once and cannot sign in until the account is enabled again.</p>,
                    confirmLabel: 'Disable user',
                    cancelLabel: 'Keep the account',
                    danger: true,
                    onConfirm: () =>
                      void action.run(async () => {
                        await api.POST('/api/users/{uuid}/disable', path);
                        onSaved(`${user.name} is disabled.`);
                      }),
                  })
                }
              >
                Disable user
              </Button>
            )}
          </div>
        </section>
      ) : null}
      {dialog}
    </>
  );
}

/**
 * The contractor firm or tenant a new login belongs to: the one the form was opened from, or one
 * chosen from the agency's first 200 (GET /api/contractors, GET /api/tenants).
 */
function RecordPicker({ kind, link, error }: { kind: 'contractor' | 'tenant'; link: LinkTo | null; error?: string }) {
  const records = useLoad(['users', 'records', kind], async () =>
    kind === 'contractor'
      ? (await api.GET('/api/contractors', { params: { query: { limit: 200 } } })).data!.data.map((c) => ({ uuid: c.uuid, name: c.company_name }))
      : (await api.GET('/api/tenants', { params: { query: { limit: 200 } } })).data!.data.map((t) => ({ uuid: t.uuid, name: t.name })),
  );
  const label = kind === 'contractor' ? 'Contractor firm' : 'Tenant';
  const options = records.data ?? [];
  const withLink = link && !options.some((o) => o.uuid === link.uuid) ? [{ uuid: link.uuid, name: link.name }, ...options] : options;
  return (
    <SelectField
      key={`${kind}-${records.data ? 'loaded' : 'loading'}`}
      id="user-record"
      name="record_uuid"
      label={label}
      defaultValue={link?.uuid ?? ''}
      error={error}
      required
      hint={kind === 'contractor' ? 'The login sees and answers this firm’s jobs.' : 'The login reports and follows this tenant’s repairs.'}
    >
      <option value="">{records.loading && !records.data ? 'Loading…' : `Choose the ${kind === 'contractor' ? 'firm' : 'tenant'}`}</option>
      {withLink.map((o) => (
        <option key={o.uuid} value={o.uuid}>
          {o.name}
        </option>
      ))}
    </SelectField>
  );
}
