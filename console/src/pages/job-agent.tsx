/**
 * The job's owning agent, a row of the job page's details (job.tsx; docs/console.md "The agency's
 * office"): the agent's name, and for staff holding api.agents.job-assignment.manage "Change",
 * which picks an active agent of the agency (GET /api/agents) or none, and saves it (POST
 * /api/agents/job-assignment). The API refuses an agent of another branch unless the job's branch
 * shares its jobs (agents.tsx), a closed job and a disabled agent; its words are shown.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { Button, ProblemMessage, useAction, useLoad } from '../ui.tsx';
import { loadAgents } from './agent-sharing.ts';

/** The "Owning agent" term and its value, for the details list. */
export function OwningAgent({ job, onChanged }: { job: { uuid: string; agent_uuid?: string | null; agent_name?: string | null; branch_uuid: string; is_open: boolean }; onChanged: () => void }) {
  const session = useSession();
  const may = session.permissions.has('api.agents.job-assignment.manage') && session.permissions.has('api.agents.view') && job.is_open;
  const [editing, setEditing] = useState(false);
  const action = useAction();
  const agents = useLoad(['agents', 'for-job', editing], async () => (editing ? (await loadAgents()).filter((a) => a.status === 'active') : []));
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const chosen = String(new FormData(e.currentTarget).get('agent') ?? '');
    void action.run(async () => {
      await api.POST('/api/agents/job-assignment', { body: { job_uuid: job.uuid, agent_uuid: chosen || null } });
      setEditing(false);
      onChanged();
    });
  };
  // The job's own branch first, then the others (seen only while the job's branch shares).
  const list = [...(agents.data ?? [])].sort((a, b) => Number(b.branch.uuid === job.branch_uuid) - Number(a.branch.uuid === job.branch_uuid));
  return (
    <>
      <dt>Owning agent</dt>
      <dd>
        {editing ? (
          <form className="form inline" aria-label="Choose the owning agent" onSubmit={save}>
            <div className="field">
              <label htmlFor="owning-agent">Owning agent</label>
              <select id="owning-agent" name="agent" defaultValue={job.agent_uuid ?? ''} aria-describedby="owning-agent-hint">
                <option value="">No owning agent</option>
                {list.map((a) => (
                  <option key={a.uuid} value={a.uuid}>
                    {a.name} ({a.branch.name})
                  </option>
                ))}
              </select>
              <p id="owning-agent-hint" className="hint">
                An agent of another branch only while this job&apos;s branch shares its jobs (Agents page).
              </p>
            </div>
            <ProblemMessage problem={action.problem ?? agents.problem} onRetry={agents.problem ? agents.reload : undefined} />
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy || agents.data === null}>
                Save owning agent
              </Button>
              <Button variant="secondary" onPress={() => setEditing(false)}>
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <>
            {job.agent_name ?? 'none'}
            {may ? (
              <>
                {' '}
                <Button variant="secondary" aria-label="Change the owning agent" onPress={() => setEditing(true)}>
                  Change
                </Button>
              </>
            ) : null}
          </>
        )}
      </dd>
    </>
  );
}
