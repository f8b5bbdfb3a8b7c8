/**
 * Buildings (blocks of flats) in the console (docs/console.md "The agency's office"; the API:
 * docs/tenants.md, the addresses module): `/buildings` lists and searches the agency's buildings
 * (GET /api/buildings) and adds one (POST /api/buildings: a name or a street, the town and a UK
 * postcode, a branch); `/buildings/{uuid}` shows a building with its flats and communal areas (GET
 * /api/buildings/{uuid}, each linked to its property page), edits it (PUT /api/buildings/{uuid}:
 * the parts, town and postcode are carried to every flat) and records whether it has a passenger
 * lift (PUT /api/compliance/buildings/{uuid}/profile: its communal areas then need the LOLER
 * examination, docs/compliance.md).
 */
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { DataTable, type Column } from '../table.tsx';
import { Button, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Section } from './office-admin.tsx';
import { BranchOptions, Notice, useBranches } from './people-forms.tsx';

type Building = {
  uuid: string;
  building_name: string | null;
  building_number: string | null;
  street: string | null;
  town: string;
  postcode: string;
  branch_uuid: string | null;
  branch_name: string | null;
  units: number;
  external_ref: string | null;
};

/** "Aire Court, 21 Wharf Street" (or the street alone) for a building. */
function buildingLabel(b: Pick<Building, 'building_name' | 'building_number' | 'street'>): string {
  const street = [b.building_number, b.street].filter(Boolean).join(' ');
  return [b.building_name, street].filter(Boolean).join(', ') || 'Unnamed building';
}

/** The fields of a building's form, read; a problem in words when the name, street, town or postcode are missing. */
function readBuilding(form: HTMLFormElement): { body: Record<string, string | null> } | { problem: string; field: string } {
  const f = new FormData(form);
  const text = (k: string) => String(f.get(k) ?? '').trim() || null;
  const body = {
    building_name: text('building_name'),
    building_number: text('building_number'),
    street: text('street'),
    town: text('town'),
    postcode: text('postcode'),
    branch_uuid: text('branch_uuid'),
    external_ref: text('external_ref'),
  };
  if (!body.building_name && !body.street) return { problem: 'Give the building a name (such as "Aire Court") or a street.', field: 'building_name' };
  if (!body.town) return { problem: 'Type the post town, such as Leeds.', field: 'town' };
  if (!body.postcode) return { problem: 'Type the postcode, such as LS1 4AP.', field: 'postcode' };
  return { body };
}

/** The name, number, street, town, postcode, branch and reference fields, with errors beside them. */
function BuildingFields({ b, errorOf }: { b?: Building; errorOf: (field: string) => string | null }) {
  const branches = useBranches();
  return (
    <>
      <Labelled label="Building name" hint="Such as Aire Court; or leave empty and give the street." error={errorOf('building_name')}>
        {(id, d) => <input id={id} name="building_name" maxLength={100} defaultValue={b?.building_name ?? ''} aria-describedby={d} />}
      </Labelled>
      <Labelled label="Number" error={errorOf('building_number')}>
        {(id, d) => <input id={id} name="building_number" maxLength={20} defaultValue={b?.building_number ?? ''} aria-describedby={d} />}
      </Labelled>
      <Labelled label="Street" error={errorOf('street')}>
        {(id, d) => <input id={id} name="street" maxLength={100} defaultValue={b?.street ?? ''} aria-describedby={d} />}
      </Labelled>
      <Labelled label="Town" required error={errorOf('town')}>
        {(id, d) => <input id={id} name="town" maxLength={100} defaultValue={b?.town ?? ''} aria-describedby={d} />}
      </Labelled>
      <Labelled label="Postcode" required error={errorOf('postcode')}>
        {(id, d) => <input id={id} name="postcode" maxLength={10} defaultValue={b?.postcode ?? ''} aria-describedby={d} />}
      </Labelled>
      <Labelled label="Branch">
        {(id) => (
          <select id={id} name="branch_uuid" defaultValue={b?.branch_uuid ?? ''}>
            <BranchOptions branches={branches.data ?? []} empty="No branch" />
          </select>
        )}
      </Labelled>
      <Labelled label="Your reference" error={errorOf('external_ref')}>
        {(id, d) => <input id={id} name="external_ref" maxLength={64} defaultValue={b?.external_ref ?? ''} aria-describedby={d} />}
      </Labelled>
    </>
  );
}

/** `/buildings`: the list with a search, and "Add a building". */
export function BuildingsPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  const list = useLoad(['buildings', q], async () => (await api.GET('/api/buildings', { params: { query: { limit: 100, ...(q ? { q } : {}) } } })).data!);
  const action = useAction();
  const errorOf = (field: string) => (action.problem?.field === field ? action.problem.message : null);
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const read = readBuilding(e.currentTarget);
    if ('problem' in read) return action.setProblem({ message: read.problem, field: read.field, retry: false, retryAfterSeconds: null, status: 400 });
    void action.run(async () => {
      const { data } = await api.POST('/api/buildings', { body: { ...read.body, postcode: read.body.postcode!, town: read.body.town! } });
      navigate(`/buildings/${data!.data.uuid}`, { state: { saved: `${buildingLabel(data!.data)} added. Add its flats and communal areas as properties with this building.` } });
    });
  };
  const columns: Column<Building>[] = [
    { header: 'Building', cell: (b) => <Link to={`/buildings/${b.uuid}`}>{buildingLabel(b)}</Link> },
    { header: 'Town and postcode', key: true, cell: (b) => `${b.town}, ${b.postcode}` },
    { header: 'Branch', key: true, cell: (b) => b.branch_name ?? 'none' },
    { header: 'Flats and communal areas', key: true, cell: (b) => String(b.units) },
  ];
  const rows = (list.data?.data ?? []) as Building[];
  return (
    <>
      <PageTitle>Buildings</PageTitle>
      <form
        className="form inline"
        role="search"
        aria-label="Search buildings"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(String(new FormData(e.currentTarget).get('q') ?? '').trim());
        }}
      >
        <Labelled label="Name, street, town or postcode">{(id) => <input id={id} name="q" type="search" defaultValue={q} />}</Labelled>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <ProblemMessage problem={list.problem} onRetry={list.reload} />
      {list.data ? (
        <DataTable
          label="Buildings"
          columns={columns}
          rows={rows}
          rowKey={(b) => b.uuid}
          empty={
            <p className="empty-state">
              {q ? `No building matches "${q}". Try part of the name or the postcode.` : 'No buildings yet. Add a block of flats below, then its flats and communal areas as properties with it.'}
            </p>
          }
        />
      ) : (
        <p className="loading">Loading…</p>
      )}
      {session.permissions.has('api.addresses.manage') ? (
        <Section id="building-add" title="Add a building">
          <form className="form" noValidate onSubmit={add} aria-label="Add a building">
            <BuildingFields errorOf={errorOf} />
            {action.problem && !['building_name', 'town', 'postcode', 'street', 'building_number', 'external_ref'].includes(action.problem.field ?? '') ? <ProblemMessage problem={action.problem} /> : null}
            <Button type="submit" isDisabled={action.busy}>
              Add building
            </Button>
          </form>
        </Section>
      ) : null}
    </>
  );
}

type Unit = { uuid: string; line1: string; town: string; postcode: string; is_communal: boolean };

/** `/buildings/{uuid}`: the building, its flats and communal areas, its edit form and its lift. */
export function BuildingPage() {
  const { uuid = '' } = useParams();
  const session = useSession();
  const saved = (useLocation().state as { saved?: string } | null)?.saved ?? null;
  const path = { params: { path: { uuid } } };
  const building = useLoad(['buildings', uuid], async () => (await api.GET('/api/buildings/{uuid}', path)).data!.data);
  const action = useAction();
  const lift = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(saved);
  const errorOf = (field: string) => (action.problem?.field === field ? action.problem.message : null);
  const b = building.data as (Building & { unit_addresses: Unit[]; updated_at: string }) | null;
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const read = readBuilding(e.currentTarget);
    if ('problem' in read) return action.setProblem({ message: read.problem, field: read.field, retry: false, retryAfterSeconds: null, status: 400 });
    void action.run(async () => {
      await api.PUT('/api/buildings/{uuid}', { ...path, body: { ...read.body, postcode: read.body.postcode!, town: read.body.town! } });
      setDone('Building saved; its flats and communal areas carry the new address.');
      building.reload();
    });
  };
  const setLift = (hasLift: boolean) =>
    ask({
      title: hasLift ? 'Record a passenger lift?' : 'Record that there is no passenger lift?',
      body: hasLift
        ? "The building's communal areas then need the lift's thorough examination (LOLER) on the compliance register."
        : 'The LOLER examination is no longer needed; one without certificates is taken off the register, one with certificates stays.',
      confirmLabel: hasLift ? 'It has a lift' : 'It has no lift',
      onConfirm: () =>
        void lift.run(async () => {
          await api.PUT('/api/compliance/buildings/{uuid}/profile', { ...path, body: { has_lift: hasLift } });
          setDone(hasLift ? 'Recorded: the building has a passenger lift. Its LOLER examination is on the compliance register.' : 'Recorded: no passenger lift.');
        }),
    });
  return (
    <>
      <PageTitle>{b ? buildingLabel(b) : building.loading ? 'Loading building…' : 'Building'}</PageTitle>
      <p>
        <Link to="/buildings">Back to the buildings</Link>
      </p>
      <ProblemMessage problem={building.problem} onRetry={building.reload} />
      <Notice text={done} />
      {b ? (
        <>
          <Section id="building-units" title="Flats and communal areas">
            {b.unit_addresses.length === 0 ? (
              <p className="empty-state">
                None yet. Add each flat and the communal areas as a property{session.permissions.has('api.addresses.manage') ? <> (<Link to="/addresses/new">New property</Link>)</> : null} and choose this building.
              </p>
            ) : (
              <ul>
                {b.unit_addresses.map((u) => (
                  <li key={u.uuid}>
                    <Link to={`/properties/${u.uuid}`}>{u.line1}</Link>
                    {u.is_communal ? ' (communal areas)' : ''}
                  </li>
                ))}
              </ul>
            )}
          </Section>
          {session.permissions.has('api.compliance.manage') ? (
            <Section id="building-lift" title="Passenger lift">
              <p>Whether the building has a passenger lift decides whether its communal areas need the LOLER thorough examination.</p>
              <ProblemMessage problem={lift.problem} />
              <div className="button-row">
                <Button variant="secondary" isDisabled={lift.busy} onPress={() => setLift(true)}>
                  It has a passenger lift
                </Button>
                <Button variant="secondary" isDisabled={lift.busy} onPress={() => setLift(false)}>
                  It has no passenger lift
                </Button>
              </div>
            </Section>
          ) : null}
          {session.permissions.has('api.addresses.manage') ? (
            <Section id="building-edit" title="Change the building">
              <form key={b.updated_at} className="form" noValidate onSubmit={save} aria-label="Change the building">
                <BuildingFields b={b} errorOf={errorOf} />
                {action.problem && !['building_name', 'town', 'postcode', 'street', 'building_number', 'external_ref'].includes(action.problem.field ?? '') ? <ProblemMessage problem={action.problem} /> : null}
                <Button type="submit" isDisabled={action.busy}>
                  Save building
                </Button>
              </form>
            </Section>
          ) : null}
        </>
      ) : null}
      {dialog}
    </>
  );
}
