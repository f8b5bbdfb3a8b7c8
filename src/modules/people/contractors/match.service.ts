/**
 * Ranking the agency's contractors for a job (docs/contractors.md): trade offered (50 points),
 * coverage of the job's postcode district (30) and the certificates the trade requires (20, or 20
 * when none is required). A contractor that does not offer the job's own trade (a locksmith for a
 * leak) or misses a required valid certificate is not eligible, scores 0 and comes last with the
 * reason; `score_parts` explains each score rule by rule. The trade is the job's trade, or General
 * maintenance when the job has none (a firm without it is then scored, not excluded). Workload
 * (the contractor's other open jobs) is a reason and breaks ties between equal scores (fewer
 * first); `offers_trade` and `covers_postcode` let the console warn before a poor assignment.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { notFound } from '../../../core/errors.ts';
import { sameAgency } from '../../../core/agency-scope.ts';
import { districtOf } from '../addresses/index.ts';
import { REQUIRED_CERTIFICATES, certName, certificateVerdict, insuranceVerdict, isoDay } from './certification-types.ts';
import * as repo from './contractors.repository.ts';
import * as trades from './trades.repository.ts';

/** Trade assumed for a job without one. */
export const FALLBACK_TRADE = 'general_maintenance';
export const POINTS = { trade: 50, coverage: 30, certificates: 20 } as const;

export interface MatchRow {
  contractor_uuid: string;
  company_name: string;
  score: number;
  eligible: boolean;
  /** null when the job has no trade to match on */
  offers_trade: boolean | null;
  /** null when the job has no postcode */
  covers_postcode: boolean | null;
  /** open jobs assigned to the contractor, this one left out */
  open_jobs: number;
  /** holds valid public and employer's liability insurance on the day (offered before the others) */
  insured: boolean;
  /** the insurance read for people: "Public liability insurance valid until 2027-05-31", "No ... on file" */
  insurance: string[];
  reasons: string[];
  score_parts: Array<{ rule: 'trade' | 'coverage' | 'certificates'; points: number; max: number; reason: string }>;
}

const byName = new Intl.Collator('en-GB', { sensitivity: 'base', ignorePunctuation: true, numeric: true });

/** "No other open jobs", "1 other open job", "4 other open jobs". */
function workloadReason(n: number): string {
  return n === 0 ? 'No other open jobs' : `${n} other open job${n === 1 ? '' : 's'}`;
}

/**
 * GET /api/contractors/match?job_uuid=: contractors ranked for the job.
 * @returns the job's trade, district and required certificates, and the ranked page
 * @throws 404 'Job not found' for a job of another agency or none
 */
export async function matchContractors(deps: AppDeps, auth: AuthContext, q: { job_uuid: string; limit: number; offset: number }) {
  const job = await repo.jobForMatching(deps.db, q.job_uuid);
  if (!job || !sameAgency(auth, job.agency_id)) throw notFound('Job');
  const trade = job.trade_id !== null
    ? await trades.findTrade(deps.db, job.trade_id)
    : await trades.findByCode(deps.db, job.agency_id, FALLBACK_TRADE);
  const district = districtOf(job.postcode);
  const now = deps.clock.now();
  const workDay = isoDay(job.scheduled_for && new Date(job.scheduled_for) > now ? new Date(job.scheduled_for) : now);

  const contractors = await repo.activeOfAgency(deps.db, job.agency_id);
  const ids = contractors.map((c) => c.id);
  const [tradeRows, coverage, certs, workload] = await Promise.all([
    repo.tradesOf(deps.db, ids),
    repo.coverageOf(deps.db, ids),
    repo.certificationsOf(deps.db, ids),
    repo.openJobsOf(deps.db, ids, job.id),
  ]);

  const ranked: MatchRow[] = contractors.map((c) => {
    const reasons: string[] = [];
    const parts: MatchRow['score_parts'] = [];
    let score = 0;
    let eligible = true;
    let offersTrade: boolean | null = null;
    let coversPostcode: boolean | null = null;
    if (trade) {
      offersTrade = tradeRows.some((t) => t.contractor_id === c.id && t.id === trade.id);
      if (offersTrade) {
        score += POINTS.trade;
        reasons.push(`Offers ${trade.name}`);
        parts.push({ rule: 'trade', points: POINTS.trade, max: POINTS.trade, reason: `Offers ${trade.name}` });
      } else if (job.trade_id !== null) {
        // The job's own trade: a firm without it is not one to send (docs/contractors.md "Matching").
        eligible = false;
        reasons.push(`Does not offer ${trade.name}: not eligible for this job`);
        parts.push({ rule: 'trade', points: 0, max: POINTS.trade, reason: `Does not offer ${trade.name}` });
      } else {
        reasons.push(`Does not offer ${trade.name}`);
        parts.push({ rule: 'trade', points: 0, max: POINTS.trade, reason: `Does not offer ${trade.name} (the job has no trade; ${trade.name} assumed)` });
      }
    }
    if (district) {
      coversPostcode = coverage.some((v) => v.contractor_id === c.id && v.district === district);
      const reason = coversPostcode ? `Covers ${district}` : `Does not cover ${district}`;
      if (coversPostcode) score += POINTS.coverage;
      reasons.push(reason);
      parts.push({ rule: 'coverage', points: coversPostcode ? POINTS.coverage : 0, max: POINTS.coverage, reason });
    } else {
      reasons.push('Job has no postcode: coverage not scored');
      parts.push({ rule: 'coverage', points: 0, max: POINTS.coverage, reason: 'Job has no postcode: coverage not scored' });
    }
    const verdict = certificateVerdict(certs.filter((x) => x.contractor_id === c.id), trade?.code ?? null, workDay);
    if (!verdict.ok) {
      eligible = false;
      reasons.push(verdict.reason);
      parts.push({ rule: 'certificates', points: 0, max: POINTS.certificates, reason: verdict.reason });
    } else {
      score += POINTS.certificates;
      const reason = verdict.required ? `${certName(verdict.cert.cert_type)} certificate valid until ${verdict.cert.expires_on}` : `No certificate required${trade ? ` for ${trade.name}` : ''}`;
      reasons.push(reason);
      parts.push({ rule: 'certificates', points: POINTS.certificates, max: POINTS.certificates, reason });
    }
    // Insurance, whatever the trade (docs/contractors.md "Insurance"): lapsed is not offered; none
    // on file is offered after the insured firms, with the reason.
    const insurance = insuranceVerdict(certs.filter((x) => x.contractor_id === c.id), workDay);
    if (!insurance.ok) {
      eligible = false;
      reasons.push(...insurance.reasons.filter((r) => r.endsWith('not offered')));
    }
    if (!eligible) score = 0;
    const openJobs = workload.find((w) => w.contractor_id === c.id)?.n ?? 0;
    reasons.push(workloadReason(openJobs));
    return {
      contractor_uuid: c.uuid, company_name: c.company_name, score, eligible, offers_trade: offersTrade, covers_postcode: coversPostcode, open_jobs: openJobs,
      insured: insurance.insured, insurance: insurance.reasons, reasons, score_parts: parts,
    };
  });
  ranked.sort(
    // The name breaks the last tie as people read it (letters and digits, case and punctuation
    // ignored), so a name such as "=1+1" is not put first by its sign.
    (a, b) => Number(b.eligible) - Number(a.eligible) || Number(b.insured) - Number(a.insured) || b.score - a.score || a.open_jobs - b.open_jobs || byName.compare(a.company_name, b.company_name),
  );
  return {
    job: { uuid: job.uuid, trade: trade?.code ?? null, district, required_certificates: [...(trade ? REQUIRED_CERTIFICATES[trade.code] ?? [] : [])] },
    rows: ranked.slice(q.offset, q.offset + q.limit),
    total: ranked.length,
  };
}
