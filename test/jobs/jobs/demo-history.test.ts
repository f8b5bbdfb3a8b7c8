import { describe, expect, it } from 'vitest';
import { findMove, STATUS, STATUS_NAMES } from '../../../src/modules/jobs/jobs/lifecycle.ts';
import { deriveHistory, type JobDates } from '../../../src/seed/demo/jobs-history.ts';

const now = new Date('2026-11-21T12:00:00Z');
const h = (n: number) => new Date(now.getTime() - (100 - n) * 3_600_000);
const blank = { approved_at: null, assigned_at: null, scheduled_for: null, attended_at: null, completed_at: null, invoiced_at: null, closed_at: null, cancelled_at: null };

/** Jobs shaped like the demo generator's: dates in order up to the status reached. */
const cases: Array<[string, JobDates]> = [
  ['Reported', { ...blank, status_id: 1, created_at: h(0), updated_at: h(0) }],
  ['Awaiting approval', { ...blank, status_id: 2, created_at: h(0), updated_at: h(0) }],
  ['Approved', { ...blank, status_id: 3, created_at: h(0), updated_at: h(1), approved_at: h(1) }],
  ['Assigned', { ...blank, status_id: 4, created_at: h(0), updated_at: h(2), approved_at: h(1), assigned_at: h(2) }],
  ['Scheduled', { ...blank, status_id: 5, created_at: h(0), updated_at: h(2), approved_at: h(1), assigned_at: h(2), scheduled_for: h(120) }],
  ['In progress', { ...blank, status_id: 6, created_at: h(0), updated_at: h(4), approved_at: h(1), assigned_at: h(2), scheduled_for: h(3), attended_at: h(4) }],
  ['Completed', { ...blank, status_id: 7, created_at: h(0), updated_at: h(5), approved_at: h(1), assigned_at: h(2), scheduled_for: h(3), attended_at: h(4), completed_at: h(5) }],
  ['Invoiced', { ...blank, status_id: 8, created_at: h(0), updated_at: h(6), approved_at: h(1), assigned_at: h(2), scheduled_for: h(3), attended_at: h(4), completed_at: h(5), invoiced_at: h(6) }],
  ['Closed', { ...blank, status_id: 9, created_at: h(0), updated_at: h(7), approved_at: h(1), assigned_at: h(2), scheduled_for: h(3), attended_at: h(4), completed_at: h(5), invoiced_at: h(6), closed_at: h(7) }],
  ['Cancelled early', { ...blank, status_id: 10, created_at: h(0), updated_at: h(1), cancelled_at: h(1) }],
  ['Cancelled after approval', { ...blank, status_id: 10, created_at: h(0), updated_at: h(2), approved_at: h(1), cancelled_at: h(2) }],
  ['Cancelled after assignment', { ...blank, status_id: 10, created_at: h(0), updated_at: h(3), approved_at: h(1), assigned_at: h(2), cancelled_at: h(3) }],
  ['On hold', { ...blank, status_id: 11, created_at: h(0), updated_at: h(4), approved_at: h(1), assigned_at: h(2), scheduled_for: h(3), attended_at: h(4) }],
];

describe('demo status history derived from the date fields', () => {
  for (const [name, job] of cases) {
    it(`${name}: every move is in the lifecycle map, in time order, ending in the job's status`, () => {
      const moves = deriveHistory(job, now);
      expect(moves[0]).toEqual({ from: null, to: STATUS.reported, at: job.created_at });
      for (let i = 1; i < moves.length; i++) {
        const m = moves[i]!;
        expect(m.from, name).toBe(moves[i - 1]!.to);
        expect(findMove(m.from!, m.to), `${STATUS_NAMES[m.from!]} -> ${STATUS_NAMES[m.to]}`).toBeDefined();
        expect(m.at.getTime()).toBeGreaterThanOrEqual(moves[i - 1]!.at.getTime());
        expect(m.at.getTime()).toBeLessThanOrEqual(now.getTime());
      }
      expect(moves.at(-1)!.to).toBe(job.status_id);
    });
  }

  it('the moves of a closed job follow every date field', () => {
    const moves = deriveHistory(cases[8]![1], now);
    expect(moves.map((m) => STATUS_NAMES[m.to])).toEqual(['Reported', 'Approved', 'Scheduled', 'In progress', 'Completed', 'Invoiced', 'Closed']);
    expect(moves.map((m) => m.at)).toEqual([h(0), h(1), h(2), h(4), h(5), h(6), h(7)]);
  });
});
