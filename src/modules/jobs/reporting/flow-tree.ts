/**
 * The triage flow tree (docs/tenant-reporting.md "Flows"): its shape, the check every saved or
 * previewed tree passes, and the walk from the start node through the answers given to the next
 * question or to an outcome. Pure functions: no database, no clock.
 */

/** What a job raised by a flow starts with. */
export interface JobPreset {
  title: string;
  /** trade code (platform or the agency's own), e.g. `heating` */
  trade: string;
  /** job type code: reactive_repair, emergency, planned_maintenance, inspection, compliance_check, void_works */
  job_type: string;
  /** 1 emergency to 5 planned */
  priority: number;
  /** the photos the tenant is asked for, each a short description */
  photos: string[];
}

export interface QuestionNode {
  id: string;
  kind: 'question';
  text: string;
  /** self-help shown with the question (for example how to top up a boiler's pressure) */
  help?: string;
  options: Array<{ id: string; label: string; next: string }>;
}
export interface AdviceNode { id: string; kind: 'advice'; title: string; text: string }
export interface EmergencyNode { id: string; kind: 'emergency'; title: string; instruction: string; phone?: string; job: JobPreset }
export interface JobNode { id: string; kind: 'job'; title: string; text?: string; job: JobPreset }
export type OutcomeNode = AdviceNode | EmergencyNode | JobNode;
export type FlowNode = QuestionNode | OutcomeNode;

export interface FlowTree {
  start: string;
  nodes: FlowNode[];
}

/** The job types a preset may name (table job_types). */
export const JOB_TYPE_CODES: Record<string, number> = {
  reactive_repair: 1, emergency: 2, planned_maintenance: 3, inspection: 4, compliance_check: 5, void_works: 6,
};

/** One answer as recorded on a report: ids and the texts shown when it was given. */
export interface RecordedAnswer {
  node: string;
  question: string;
  option: string;
  answer: string;
}

/** A problem in a tree: where (`nodes[3].options[1].next`) and what. */
export interface TreeProblem {
  path: string;
  problem: string;
}

const ID = /^[a-z0-9_]{1,40}$/;

/** The fields each kind of node must have (the wire schema makes them all optional). */
const REQUIRED: Record<FlowNode['kind'], string[]> = {
  question: ['text', 'options'],
  advice: ['title', 'text'],
  emergency: ['title', 'instruction', 'job'],
  job: ['title', 'job'],
};

/**
 * Checks a tree: unique ids (lowercase letters, digits, underscores), a known start, questions
 * with 2 to 10 options each leading to a known node, no cycle, every node reachable from the
 * start, presets with a job type from JOB_TYPE_CODES, priority 1 to 5 (1 for emergencies) and at
 * most 5 photos. Trade codes are checked by the caller (they depend on the agency).
 * @returns the problems found, empty when the tree is sound
 */
export function checkTree(tree: FlowTree): TreeProblem[] {
  const problems: TreeProblem[] = [];
  const byId = new Map<string, FlowNode>();
  tree.nodes.forEach((n, i) => {
    if (!ID.test(n.id)) problems.push({ path: `nodes[${i}].id`, problem: 'use 1 to 40 lowercase letters, digits or underscores' });
    if (byId.has(n.id)) problems.push({ path: `nodes[${i}].id`, problem: `"${n.id}" is used twice` });
    byId.set(n.id, n);
  });
  if (!byId.has(tree.start)) problems.push({ path: 'start', problem: `no node "${tree.start}"` });
  tree.nodes.forEach((n, i) => {
    const missing = REQUIRED[n.kind].filter((f) => (n as unknown as Record<string, unknown>)[f] === undefined);
    for (const f of missing) problems.push({ path: `nodes[${i}].${f}`, problem: `a ${n.kind} node needs ${f}` });
  });
  if (problems.length > 0) return problems;
  tree.nodes.forEach((n, i) => {
    if (n.kind === 'question') {
      if (n.options.length < 2 || n.options.length > 10) problems.push({ path: `nodes[${i}].options`, problem: 'a question needs 2 to 10 options' });
      const seen = new Set<string>();
      n.options.forEach((o, j) => {
        if (seen.has(o.id)) problems.push({ path: `nodes[${i}].options[${j}].id`, problem: `"${o.id}" is used twice` });
        seen.add(o.id);
        if (!byId.has(o.next)) problems.push({ path: `nodes[${i}].options[${j}].next`, problem: `no node "${o.next}"` });
      });
    }
    if (n.kind === 'emergency' || n.kind === 'job') {
      if (!(n.job.job_type in JOB_TYPE_CODES)) problems.push({ path: `nodes[${i}].job.job_type`, problem: `unknown job type "${n.job.job_type}"` });
      if (!Number.isInteger(n.job.priority) || n.job.priority < 1 || n.job.priority > 5) problems.push({ path: `nodes[${i}].job.priority`, problem: 'use 1 to 5' });
      if (n.kind === 'emergency' && n.job.priority !== 1) problems.push({ path: `nodes[${i}].job.priority`, problem: 'an emergency raises a priority 1 job' });
      if (n.job.photos.length > 5) problems.push({ path: `nodes[${i}].job.photos`, problem: 'ask for at most 5 photos' });
    }
  });
  if (problems.length > 0) return problems;
  // Depth-first from the start: a grey node met again is a cycle; unvisited nodes are unreachable.
  const state = new Map<string, 'grey' | 'black'>();
  const visit = (id: string, path: string): void => {
    const s = state.get(id);
    if (s === 'grey') { problems.push({ path, problem: `leads back to "${id}" (a cycle)` }); return; }
    if (s === 'black') return;
    state.set(id, 'grey');
    const n = byId.get(id)!;
    if (n.kind === 'question') n.options.forEach((o, j) => visit(o.next, `nodes[${tree.nodes.indexOf(n)}].options[${j}].next`));
    state.set(id, 'black');
  };
  visit(tree.start, 'start');
  tree.nodes.forEach((n, i) => {
    if (!state.has(n.id)) problems.push({ path: `nodes[${i}]`, problem: `"${n.id}" cannot be reached from the start` });
  });
  return problems;
}

/** Where a walk stands: the next question, or the outcome reached. */
export interface WalkResult {
  answers: RecordedAnswer[];
  next: QuestionNode | null;
  outcome: OutcomeNode | null;
}

/** An answer that does not fit the walk: its index and why. */
export class WalkError extends Error {
  readonly index: number;
  constructor(index: number, message: string) {
    super(message);
    this.index = index;
  }
}

/**
 * Walks a (checked) tree from its start through the answers, in order: each answer must name the
 * question reached so far and one of its options.
 * @param answers [{ node, option }] ids
 * @returns the recorded answers with their texts and the next question or the outcome
 * @throws WalkError naming the first answer that does not fit (wrong node, unknown option, or an
 *   answer after an outcome)
 */
export function walk(tree: FlowTree, answers: Array<{ node: string; option: string }>): WalkResult {
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  let at = byId.get(tree.start)!;
  const recorded: RecordedAnswer[] = [];
  answers.forEach((a, i) => {
    if (at.kind !== 'question') throw new WalkError(i, `the flow ended at "${at.id}" before this answer`);
    if (a.node !== at.id) throw new WalkError(i, `expected an answer to "${at.id}", got "${a.node}"`);
    const option = at.options.find((o) => o.id === a.option);
    if (!option) throw new WalkError(i, `"${a.option}" is not an option of "${at.id}"`);
    recorded.push({ node: at.id, question: at.text, option: option.id, answer: option.label });
    at = byId.get(option.next)!;
  });
  return at.kind === 'question' ? { answers: recorded, next: at, outcome: null } : { answers: recorded, next: null, outcome: at };
}

/** The trade codes a tree's presets name (for the caller to resolve inside the agency). */
export function tradeCodes(tree: FlowTree): string[] {
  const codes = new Set<string>();
  for (const n of tree.nodes) if (n.kind === 'job' || n.kind === 'emergency') codes.add(n.job.trade);
  return [...codes];
}

/** True when the tree has an emergency outcome. */
export function hasEmergency(tree: FlowTree): boolean {
  return tree.nodes.some((n) => n.kind === 'emergency');
}
