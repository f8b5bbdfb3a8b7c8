/**
 * Agents and branch sharing, shared by the agents page (agents.tsx), the Branches page
 * (lists.tsx) and the job page's owning agent (job-agent.tsx): the agents of the agency (GET
 * /api/agents) and the switch turning a branch's sharing on or off after a confirmation (POST
 * /api/agents/branch-sharing; docs/console.md "The agency's office").
 */
import { api } from '../api.ts';
import { useConfirm } from '../ui.tsx';

/** An agent as GET /api/agents lists them. */
export type Agent = { uuid: string; name: string; email: string; role: string; status: 'active' | 'disabled' | 'invited'; branch: { uuid: string; name: string } };

/** The agents of the agency (one branch's when `branchUuid` is given), up to 200, by branch and name. */
export async function loadAgents(branchUuid?: string): Promise<Agent[]> {
  const { data } = await api.GET('/api/agents', { params: { query: { limit: 200, ...(branchUuid ? { branch_uuid: branchUuid } : {}) } } });
  return data!.data as Agent[];
}

/**
 * Turns a branch's sharing on or off after a confirmation (POST /api/agents/branch-sharing);
 * `branchUuid` null means the caller's own branch.
 * @returns `ask` to call with the current state, and the dialog to render
 */
export function useSharingToggle(onChanged: (message: string) => void, run: (fn: () => Promise<void>) => Promise<void>) {
  const { ask, dialog } = useConfirm();
  const toggle = (branch: { uuid: string | null; name: string; enabled: boolean }) =>
    ask({
      title: branch.enabled ? `Stop sharing the ${branch.name} branch's jobs?` : `Share the ${branch.name} branch's jobs?`,
      body: branch.enabled
        ? `Agents of the agency's other branches no longer see ${branch.name}'s jobs. A job one of them owns keeps its owner.`
        : `Agents of the agency's other branches see ${branch.name}'s jobs (they cannot edit them) and may be made a job's owning agent. Other agencies never see them.`,
      confirmLabel: branch.enabled ? 'Stop sharing' : 'Share jobs',
      cancelLabel: 'Leave it as it is',
      onConfirm: () =>
        void run(async () => {
          await api.POST('/api/agents/branch-sharing', { body: { enabled: !branch.enabled, ...(branch.uuid ? { branch_uuid: branch.uuid } : {}) } });
          onChanged(branch.enabled ? `${branch.name} no longer shares its jobs.` : `${branch.name} shares its jobs with the agency's other branches.`);
        }),
    });
  return { toggle, dialog };
}

