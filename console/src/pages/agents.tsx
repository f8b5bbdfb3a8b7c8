/**
 * /agents: the agency's agents by branch and branch sharing (docs/console.md "The agency's office";
 * the rules: docs/api.md, the agents module). The agents attached to a branch (GET /api/agents,
 * a branch picked or all), and whether the caller's own branch shares its jobs (GET
 * /api/agents/branch-sharing), turned on or off after a confirmation (POST
 * /api/agents/branch-sharing): while a branch shares, agents of the agency's other branches see its
 * jobs (not edit them) and may own them. A job's owning agent is set on the job page (job-agent.tsx).
 */
import { useState } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, PageTitle, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { loadAgents, useSharingToggle, type Agent } from './agent-sharing.ts';
import { Labelled } from './compliance-forms.tsx';
import { Section } from './office-admin.tsx';
import { BranchOptions, Notice, useBranches } from './people-forms.tsx';

const STATUS_WORDS: Record<Agent['status'], string> = { active: 'active', disabled: 'disabled', invited: 'invited, not signed in yet' };

/** The caller's own branch and whether it shares its jobs, with the switch. */
function OwnBranchSharing() {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const sharing = useLoad(['agents', 'branch-sharing'], async () => (await api.GET('/api/agents/branch-sharing', { params: { query: {} } })).data!.data);
  const { toggle, dialog } = useSharingToggle((m) => {
    setDone(m);
    sharing.reload();
  }, action.run);
  const s = sharing.data;
  return (
    <Section id="own-branch-sharing" title="Your branch's jobs">
      <ProblemMessage problem={action.problem ?? sharing.problem} onRetry={sharing.reload} />
      <Notice text={done} />
      {s ? (
        <>
          <p>
            {s.enabled
              ? `${s.branch_name} shares its jobs: agents of the agency's other branches see them and may own them.`
              : `${s.branch_name} does not share its jobs: only its own agents see them.`}
          </p>
          <Button variant="secondary" isDisabled={action.busy} onPress={() => toggle({ uuid: null, name: s.branch_name, enabled: s.enabled })}>
            {s.enabled ? 'Stop sharing' : 'Share jobs with the other branches'}
          </Button>
        </>
      ) : null}
      {dialog}
    </Section>
  );
}

/** The agents page. */
export function AgentsPage() {
  const session = useSession();
  const [branch, setBranch] = useState('');
  const branches = useBranches();
  const agents = useLoad(['agents', branch], () => loadAgents(branch || undefined));
  const list = agents.data ?? [];
  const ownBranch = Boolean(session.me?.branch_uuid) && session.permissions.has('api.agents.branch_sharing');
  return (
    <>
      <PageTitle>Agents</PageTitle>
      <p className="hint">
        The people who run jobs at each branch. Which branches share their jobs is on this page for your own branch
        {session.permissions.has('api.admin.branches.manage') ? ', and for every branch on Branches' : ''}; a job&apos;s owning agent is chosen on the job&apos;s page.
      </p>
      {ownBranch ? <OwnBranchSharing /> : null}
      <Section id="agents-list" title="Agents by branch">
        <Labelled label="Branch">
          {(id) => (
            <select id={id} value={branch} onChange={(e) => setBranch(e.target.value)}>
              <BranchOptions branches={branches.data ?? []} empty="All branches" />
            </select>
          )}
        </Labelled>
        <ProblemMessage problem={agents.problem} onRetry={agents.reload} />
        {agents.data && list.length === 0 ? (
          <p className="empty-state">
            No agents {branch ? 'at this branch' : 'yet'}. Invite one under Users with the role Agent and a branch; they are listed here once invited.
          </p>
        ) : null}
        <ul className="agents">
          {list.map((a) => (
            <li key={a.uuid}>
              <strong>{a.name}</strong> ({a.role}, {STATUS_WORDS[a.status]}), {a.branch.name}, <a href={`mailto:${a.email}`}>{a.email}</a>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
