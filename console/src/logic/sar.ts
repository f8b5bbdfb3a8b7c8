/**
 * A tenant's subject-access report on the console (docs/gdpr.md "Exemptions", docs/console.md
 * "The agency's office"): the report's sections whose items may be withheld, the grounds of the
 * Data Protection Act 2018 in people's words, and one line describing an item of the report so
 * that the person choosing what to withhold knows which it is.
 */

/** The sections of the report whose items may be withheld (GET /api/tenants/{uuid}/gdpr-report), in the order shown. */
export const SAR_SECTIONS = {
  jobs: 'Jobs',
  notes: 'Notes',
  conversations: 'Conversation messages',
  files: 'Photos and documents',
  messages: 'E-mails, texts and letters sent',
  hazards: 'Hazards',
  visits: 'Visits',
  activity: 'Activity log entries',
} as const;

export type SarSection = keyof typeof SAR_SECTIONS;

/** The grounds an item may be withheld under (POST .../gdpr-report/exemptions `ground`), with their paragraph. */
export const SAR_GROUNDS: Record<string, { title: string; source: string }> = {
  crime_and_taxation: { title: 'Crime and taxation', source: 'DPA 2018 Sch. 2 para. 2' },
  legal_proceedings: { title: 'Information required for legal proceedings', source: 'DPA 2018 Sch. 2 para. 5' },
  third_party_data: { title: 'Protection of the rights of others (third-party data)', source: 'DPA 2018 Sch. 2 para. 16' },
  legal_privilege: { title: 'Legal professional privilege', source: 'DPA 2018 Sch. 2 para. 19' },
  self_incrimination: { title: 'Self incrimination', source: 'DPA 2018 Sch. 2 para. 20' },
  management_forecasts: { title: 'Management forecasts', source: 'DPA 2018 Sch. 2 para. 22' },
  negotiations: { title: 'Negotiations with the data subject', source: 'DPA 2018 Sch. 2 para. 23' },
  confidential_references: { title: 'Confidential references', source: 'DPA 2018 Sch. 2 para. 24' },
  health_serious_harm: { title: 'Health data: serious harm', source: 'DPA 2018 Sch. 3 para. 5' },
  enactment_prohibits: { title: 'Disclosure prohibited or restricted by an enactment', source: 'DPA 2018 Sch. 4' },
};

/** An item of a section as the report gives it (fields vary by section). */
export type SarItem = Record<string, unknown>;

/** The key of an item (its uuid; an activity entry's `ID`), as POST .../exemptions takes it in `record_ref`. */
export function sarItemRef(item: SarItem): string {
  return String(item.uuid ?? item.ID ?? '');
}

/** True when the report shows the item as withheld (a stub naming the ground). */
export function isWithheld(item: SarItem): boolean {
  return item.withheld === true;
}

/** A string field, or '' when absent. */
function s(item: SarItem, key: string): string {
  const v = item[key];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}

/** At most `n` characters of a text, on one line. */
function clip(text: string, n = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** "on T-1-abc" when the item names its job. */
function onJob(item: SarItem): string {
  return s(item, 'job_reference') ? ` (job ${s(item, 'job_reference')})` : '';
}

/**
 * One line naming an item of a section, without dates (the caller adds `created_at`):
 * a job's reference and title, a note's first words and author, a file's name, a message's
 * channel, address and subject, a hazard's kind, a visit's kind, an activity entry's action.
 */
export function describeSarItem(section: SarSection, item: SarItem): string {
  switch (section) {
    case 'jobs':
      return `${s(item, 'reference')}: ${s(item, 'title')}`;
    case 'notes':
      return `Note "${clip(s(item, 'body'))}"${s(item, 'author') ? ` by ${s(item, 'author')}` : ''}${onJob(item)}`;
    case 'conversations':
      return `Message "${clip(s(item, 'body'))}"${s(item, 'author_name') ? ` from ${s(item, 'author_name')}` : ''}${onJob(item)}`;
    case 'files':
      return `${s(item, 'kind') === 'photo' ? 'Photo' : 'Document'} ${s(item, 'file_name')}${onJob(item)}`;
    case 'messages':
      return `${({ email: 'E-mail', sms: 'Text', push: 'App notification', letter: 'Letter' } as Record<string, string>)[s(item, 'channel')] ?? 'Message'} to ${s(item, 'to') || 'them'}${s(item, 'subject') ? `: ${clip(s(item, 'subject'))}` : ''}`;
    case 'hazards':
      return `Hazard: ${s(item, 'category').replace(/_/g, ' ')}${s(item, 'severity') ? ` (${s(item, 'severity')})` : ''}${onJob(item)}`;
    case 'visits':
      return `${({ window: 'Visit window offered', visit: 'Visit booked', booking_link: 'Booking link sent' } as Record<string, string>)[s(item, 'type')] ?? 'Visit'}${onJob(item)}`;
    case 'activity':
      return `Activity ${s(item, 'ID')}: ${s(item, 'action')}${s(item, 'user_name') ? ` by ${s(item, 'user_name')}` : ''}`;
  }
}
