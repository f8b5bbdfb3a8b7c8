/**
 * The exemptions an agency may apply to single items of a subject-access report (docs/gdpr.md
 * "Exemptions"): each ground of the Data Protection Act 2018 that restricts UK GDPR Art. 15, with
 * its paragraph. An exemption is applied to one item at a time, never to a section, and the
 * report lists every one it applied.
 */

/** One ground: its key, the words the report prints, and its source. */
export interface ExemptionGround {
  key: string;
  title: string;
  source: string;
}

/** Every ground an exemption may give (DPA 2018 Schedules 2-4). */
export const EXEMPTION_GROUNDS: readonly ExemptionGround[] = [
  { key: 'crime_and_taxation', title: 'Crime and taxation', source: 'DPA 2018 Sch. 2 para. 2' },
  { key: 'legal_proceedings', title: 'Information required for legal proceedings', source: 'DPA 2018 Sch. 2 para. 5' },
  { key: 'third_party_data', title: 'Protection of the rights of others (third-party data)', source: 'DPA 2018 Sch. 2 para. 16' },
  { key: 'legal_privilege', title: 'Legal professional privilege', source: 'DPA 2018 Sch. 2 para. 19' },
  { key: 'self_incrimination', title: 'Self incrimination', source: 'DPA 2018 Sch. 2 para. 20' },
  { key: 'management_forecasts', title: 'Management forecasts', source: 'DPA 2018 Sch. 2 para. 22' },
  { key: 'negotiations', title: 'Negotiations with the data subject', source: 'DPA 2018 Sch. 2 para. 23' },
  { key: 'confidential_references', title: 'Confidential references', source: 'DPA 2018 Sch. 2 para. 24' },
  { key: 'health_serious_harm', title: 'Health data: serious harm', source: 'DPA 2018 Sch. 3 para. 5' },
  { key: 'enactment_prohibits', title: 'Disclosure prohibited or restricted by an enactment', source: 'DPA 2018 Sch. 4' },
];

/** The report's sections whose items may be withheld (each item keyed by its uuid, an activity entry by its ID). */
export const EXEMPTIBLE_SECTIONS = ['jobs', 'notes', 'conversations', 'files', 'messages', 'hazards', 'visits', 'activity'] as const;
export type ExemptibleSection = (typeof EXEMPTIBLE_SECTIONS)[number];

/** The ground of a key, or undefined. */
export function groundOf(key: string): ExemptionGround | undefined {
  return EXEMPTION_GROUNDS.find((g) => g.key === key);
}

/** The key identifying an item of a section: its uuid, or its `ID` (activity entries). */
export function itemRef(item: Record<string, unknown>): string {
  return String(item.uuid ?? item.ID ?? '');
}

/** An applied exemption as the report lists it. */
export interface AppliedExemption {
  uuid: string;
  section: string;
  record_ref: string;
  ground: string;
  ground_title: string;
  source: string;
  reason: string;
  applied_by: string | null;
  applied_at: string;
}

/**
 * Replaces each exempted item of the report by a stub naming the ground (its content withheld);
 * an exemption whose item is no longer in the section is still listed.
 * @returns the number of items withheld
 */
export function applyExemptions(report: Record<string, unknown>, exemptions: AppliedExemption[]): number {
  let withheld = 0;
  for (const e of exemptions) {
    const items = report[e.section];
    if (!Array.isArray(items)) continue;
    const i = items.findIndex((it: Record<string, unknown>) => itemRef(it) === e.record_ref);
    if (i < 0) continue;
    const key = 'uuid' in items[i] ? 'uuid' : 'ID';
    items[i] = { [key]: items[i][key], withheld: true, ground: e.ground, source: e.source };
    withheld += 1;
  }
  return withheld;
}
