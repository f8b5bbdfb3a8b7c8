/**
 * The message kinds (docs/messaging.md "Templates"): for each, the domain event that causes it,
 * who receives it, its documented variables with sample values (used by the preview and as the
 * allow-list checked on save), and the built-in default of every channel. Defaults are Liquid;
 * the e-mail HTML is MJML with Liquid inside.
 */

/** Channels a template exists for. SMS templates are kept for an SMS provider; nothing sends SMS yet. */
export const CHANNELS = ['email', 'push', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

/** The parts of a template per channel. */
export const PARTS: Record<Channel, readonly TemplatePart[]> = {
  email: ['subject', 'mjml', 'text_body'],
  push: ['title', 'body'],
  sms: ['text_body'],
};
export type TemplatePart = 'subject' | 'mjml' | 'text_body' | 'title' | 'body';
export type TemplateContent = Partial<Record<TemplatePart, string>>;

/** Who receives a kind. */
export type Audience = 'tenant' | 'contractor' | 'branch_agents' | 'agency_admins' | 'landlords';

export interface MessageKind {
  key: string;
  description: string;
  /** Event(s) that cause it. */
  events: string;
  audience: Audience;
  /** Variable path -> sample value (the preview's data; the keys are the allowed variables). */
  variables: Record<string, string>;
  defaults: Record<Channel, TemplateContent>;
}

const COMMON: Record<string, string> = {
  'recipient.name': 'Emily Clarke',
  'agency.name': 'Northwind Lettings',
  'job.reference': 'JOB-000123',
  'job.title': 'Boiler not firing',
  'job.address': '12 Acacia Avenue, Leeds, LS6 2AB',
  'job.status': 'Scheduled',
  'job.url': 'https://app.caretaker.test/jobs/5b0f6a0e-8a43-4c3e-9d1e-0c6f3f1f9a11',
};

/** A responsive e-mail in MJML: heading, paragraphs (MJML-safe text with Liquid) and a button to the job. */
function mjml(heading: string, paragraphs: string[], button = 'View the job'): string {
  const texts = paragraphs.map((p) => `        <mj-text>${p}</mj-text>`).join('\n');
  return `<mjml>
  <mj-head>
    <mj-title>${heading}</mj-title>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="15px" line-height="1.5" color="#222222" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f5f8">
    <mj-section background-color="#1f5fa8" padding="16px">
      <mj-column>
        <mj-text font-size="18px" font-weight="bold" color="#ffffff">{{ agency.name }}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px 16px">
      <mj-column>
        <mj-text font-size="20px" font-weight="bold">${heading}</mj-text>
${texts}
        <mj-button href="{{ job.url }}" background-color="#1f5fa8" border-radius="4px">${button}</mj-button>
      </mj-column>
    </mj-section>
    <mj-section padding="12px 16px">
      <mj-column>
        <mj-text font-size="12px" color="#666666">Sent by Caretaker for {{ agency.name }}. Reference {{ job.reference }}.</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`;
}

const JOB_LINE = '{{ job.reference }}: {{ job.title }} at {{ job.address }}.';

/** Every message kind, by key. */
export const MESSAGE_KINDS: Record<string, MessageKind> = Object.fromEntries(
  ([
    {
      key: 'job.received',
      description: 'To the tenant: their report was received.',
      events: 'job.created (with a tenant)',
      audience: 'tenant',
      variables: { ...COMMON, 'job.status': 'Reported' },
      defaults: {
        email: {
          subject: 'We received your repair request {{ job.reference }}',
          mjml: mjml('We received your request', ['Hello {{ recipient.name }},', `Thank you for reporting a problem. ${JOB_LINE}`, 'We will be in touch to book a visit.']),
          text_body: `Hello {{ recipient.name }},\n\nThank you for reporting a problem. ${JOB_LINE}\nWe will be in touch to book a visit.\n\n{{ job.url }}\n\n{{ agency.name }}\n`,
        },
        push: { title: 'Request received', body: '{{ job.reference }}: {{ job.title }}' },
        sms: { text_body: '{{ agency.name }}: we received your request {{ job.reference }} ({{ job.title }}).' },
      },
    },
    {
      key: 'job.visit_booked',
      description: 'To the tenant: a contractor visit was booked (or moved), with its date and time slot.',
      events: 'job.assigned (with a date), job.visit_booked',
      audience: 'tenant',
      variables: { ...COMMON, 'visit.date': 'Wednesday 25 November 2026', 'visit.slot': 'Morning 08:00-12:00', 'contractor.name': 'Fletcher Plumbing' },
      defaults: {
        email: {
          subject: 'Visit booked for {{ visit.date }} ({{ job.reference }})',
          mjml: mjml('Your visit is booked', [
            'Hello {{ recipient.name }},',
            '{{ contractor.name }} will visit on <strong>{{ visit.date }}</strong>, {{ visit.slot }}.',
            JOB_LINE,
            'Please make sure someone can let them in.',
          ]),
          text_body: `Hello {{ recipient.name }},\n\n{{ contractor.name }} will visit on {{ visit.date }}, {{ visit.slot }}.\n${JOB_LINE}\nPlease make sure someone can let them in.\n\n{{ job.url }}\n\n{{ agency.name }}\n`,
        },
        push: { title: 'Visit booked', body: '{{ visit.date }}, {{ visit.slot }}: {{ job.title }}' },
        sms: { text_body: '{{ agency.name }}: visit for {{ job.reference }} booked {{ visit.date }}, {{ visit.slot }}.' },
      },
    },
    {
      key: 'job.visit_booked_contractor',
      description: 'To the contractor: the tenant picked one of its free slots for the visit.',
      events: 'job.visit_booked (booked by the tenant)',
      audience: 'contractor',
      variables: { ...COMMON, 'recipient.name': 'Dave Fletcher', 'visit.date': 'Thursday 26 November 2026', 'visit.slot': '09:00-12:00' },
      defaults: {
        email: {
          subject: 'Visit booked by the tenant: {{ visit.date }} ({{ job.reference }})',
          mjml: mjml('The tenant booked your visit', ['Hello {{ recipient.name }},', 'The tenant picked <strong>{{ visit.date }}, {{ visit.slot }}</strong> from your free slots.', JOB_LINE], 'Open the job'),
          text_body: `Hello {{ recipient.name }},\n\nThe tenant picked {{ visit.date }}, {{ visit.slot }} from your free slots.\n${JOB_LINE}\n\n{{ job.url }}\n`,
        },
        push: { title: 'Visit booked by the tenant', body: '{{ visit.date }}, {{ visit.slot }}: {{ job.title }}' },
        sms: { text_body: 'Visit for {{ job.reference }} booked by the tenant: {{ visit.date }}, {{ visit.slot }}.' },
      },
    },
    {
      key: 'job.visit_reminder',
      description: 'To the tenant: the booked visit is tomorrow.',
      events: 'job.visit_reminder',
      audience: 'tenant',
      variables: { ...COMMON, 'visit.date': 'Thursday 26 November 2026', 'visit.slot': '09:00-12:00', 'contractor.name': 'Fletcher Plumbing' },
      defaults: {
        email: {
          subject: 'Reminder: visit tomorrow, {{ visit.date }} ({{ job.reference }})',
          mjml: mjml('Your visit is tomorrow', ['Hello {{ recipient.name }},', '{{ contractor.name }} will visit tomorrow, <strong>{{ visit.date }}, {{ visit.slot }}</strong>.', JOB_LINE, 'Please make sure someone can let them in. If you cannot, tell us today.']),
          text_body: `Hello {{ recipient.name }},\n\n{{ contractor.name }} will visit tomorrow, {{ visit.date }}, {{ visit.slot }}.\n${JOB_LINE}\nPlease make sure someone can let them in. If you cannot, tell us today.\n\n{{ job.url }}\n\n{{ agency.name }}\n`,
        },
        push: { title: 'Visit tomorrow', body: '{{ visit.date }}, {{ visit.slot }}: {{ job.title }}' },
        sms: { text_body: '{{ agency.name }}: reminder, visit for {{ job.reference }} tomorrow {{ visit.date }}, {{ visit.slot }}.' },
      },
    },
    {
      key: 'job.visit_reminder_contractor',
      description: 'To the contractor: its booked visit is tomorrow.',
      events: 'job.visit_reminder',
      audience: 'contractor',
      variables: { ...COMMON, 'recipient.name': 'Dave Fletcher', 'visit.date': 'Thursday 26 November 2026', 'visit.slot': '09:00-12:00' },
      defaults: {
        email: {
          subject: 'Reminder: visit tomorrow, {{ visit.date }} ({{ job.reference }})',
          mjml: mjml('Your visit is tomorrow', ['Hello {{ recipient.name }},', 'Your visit is tomorrow, <strong>{{ visit.date }}, {{ visit.slot }}</strong>, at {{ job.address }}.', JOB_LINE], 'Open the job'),
          text_body: `Hello {{ recipient.name }},\n\nYour visit is tomorrow, {{ visit.date }}, {{ visit.slot }}, at {{ job.address }}.\n${JOB_LINE}\n\n{{ job.url }}\n`,
        },
        push: { title: 'Visit tomorrow', body: '{{ visit.date }}, {{ visit.slot }}: {{ job.reference }}, {{ job.address }}' },
        sms: { text_body: 'Reminder: visit for {{ job.reference }} tomorrow {{ visit.date }}, {{ visit.slot }}, {{ job.address }}.' },
      },
    },
    {
      key: 'job.completed',
      description: 'To the tenant: the work was completed.',
      events: 'job.status_changed to Completed',
      audience: 'tenant',
      variables: { ...COMMON, 'job.status': 'Completed' },
      defaults: {
        email: {
          subject: 'Work completed: {{ job.reference }}',
          mjml: mjml('The work is complete', ['Hello {{ recipient.name }},', `The work on your repair is complete. ${JOB_LINE}`, 'If anything is still wrong, reply to this e-mail or call us.']),
          text_body: `Hello {{ recipient.name }},\n\nThe work on your repair is complete. ${JOB_LINE}\nIf anything is still wrong, reply to this e-mail or call us.\n\n{{ job.url }}\n\n{{ agency.name }}\n`,
        },
        push: { title: 'Work completed', body: '{{ job.reference }}: {{ job.title }}' },
        sms: { text_body: '{{ agency.name }}: the work for {{ job.reference }} is complete.' },
      },
    },
    {
      key: 'job.assigned',
      description: 'To the contractor: a job was assigned to them.',
      events: 'job.assigned',
      audience: 'contractor',
      variables: { ...COMMON, 'recipient.name': 'Dave Fletcher', 'visit.date': 'Wednesday 25 November 2026', 'visit.slot': 'Morning 08:00-12:00', 'job.priority': 'Urgent' },
      defaults: {
        email: {
          subject: 'New job {{ job.reference }}: {{ job.title }}',
          mjml: mjml('A job was assigned to you', ['Hello {{ recipient.name }},', JOB_LINE, 'How urgent: {{ job.priority }}. Visit: {{ visit.date }} {{ visit.slot }}.', 'Please accept or decline it in Caretaker.'], 'Open the job'),
          text_body: `Hello {{ recipient.name }},\n\n${JOB_LINE}\nHow urgent: {{ job.priority }}. Visit: {{ visit.date }} {{ visit.slot }}.\nPlease accept or decline it in Caretaker.\n\n{{ job.url }}\n`,
        },
        push: { title: 'New job {{ job.reference }}', body: '{{ job.title }}, {{ job.address }}' },
        sms: { text_body: 'New job {{ job.reference }}: {{ job.title }}, {{ job.address }}.' },
      },
    },
    {
      key: 'job.cancelled',
      description: 'To the contractor: a job of theirs was cancelled.',
      events: 'job.status_changed to Cancelled (with a contractor)',
      audience: 'contractor',
      variables: { ...COMMON, 'recipient.name': 'Dave Fletcher', 'job.status': 'Cancelled' },
      defaults: {
        email: {
          subject: 'Job cancelled: {{ job.reference }}',
          mjml: mjml('A job was cancelled', ['Hello {{ recipient.name }},', `This job is cancelled: ${JOB_LINE}`, 'Please do not attend.'], 'Open the job'),
          text_body: `Hello {{ recipient.name }},\n\nThis job is cancelled: ${JOB_LINE}\nPlease do not attend.\n`,
        },
        push: { title: 'Job cancelled', body: '{{ job.reference }}: {{ job.title }}' },
        sms: { text_body: 'Job {{ job.reference }} is cancelled. Please do not attend.' },
      },
    },
    {
      key: 'job.assignment_declined',
      description: "To the agents of the job's branch: the contractor declined the job.",
      events: 'job.assignment_declined',
      audience: 'branch_agents',
      variables: { ...COMMON, 'recipient.name': 'Priya Shah', 'contractor.name': 'Fletcher Plumbing', 'decline.reason': 'No engineer free this week' },
      defaults: {
        email: {
          subject: '{{ contractor.name }} declined {{ job.reference }}',
          mjml: mjml('A contractor declined a job', ['Hello {{ recipient.name }},', `{{ contractor.name }} declined ${JOB_LINE}`, 'Reason: {{ decline.reason | default: "none given" }}', 'The job is back to Approved: assign another contractor.']),
          text_body: `Hello {{ recipient.name }},\n\n{{ contractor.name }} declined ${JOB_LINE}\nReason: {{ decline.reason | default: "none given" }}\nThe job is back to Approved: assign another contractor.\n\n{{ job.url }}\n`,
        },
        push: { title: 'Assignment declined', body: '{{ contractor.name }} declined {{ job.reference }}' },
        sms: { text_body: '{{ contractor.name }} declined {{ job.reference }}.' },
      },
    },
    {
      key: 'works_order.sent',
      description: 'To a contractor working without an account: the works order with its signed link (docs/works-orders.md).',
      events: 'works_order.sent',
      audience: 'contractor',
      variables: {
        ...COMMON, 'recipient.name': 'Dave Fletcher', 'job.priority': 'Urgent', 'job.description': 'The boiler shows fault F28 and will not light.',
        'link.url': 'https://app.caretaker.test/works-orders/link/0f3c...', 'link.expires_at': 'Thu 10 Dec 2026, 18:00',
      },
      defaults: {
        email: {
          subject: 'Works order {{ job.reference }}: {{ job.title }}',
          mjml: mjml('A works order for you', [
            'Hello {{ recipient.name }},',
            `{{ agency.name }} asks you to do this job: ${JOB_LINE}`,
            '{{ job.description }}',
            'Open the link on your phone to accept or decline, book the visit, add notes and photos, mark it attended and completed, and send your invoice. No account is needed.',
            'The link is for you only and works until {{ link.expires_at }}.',
          ], 'Open the works order').replace('{{ job.url }}', '{{ link.url }}'),
          text_body: `Hello {{ recipient.name }},\n\n{{ agency.name }} asks you to do this job: ${JOB_LINE}\n{{ job.description }}\n\nOpen the works order (accept or decline, book the visit, notes and photos, attended, completed, invoice; no account needed):\n{{ link.url }}\n\nThe link is for you only and works until {{ link.expires_at }}.\n\n{{ agency.name }}\n`,
        },
        push: { title: 'Works order {{ job.reference }}', body: '{{ job.title }}, {{ job.address }}' },
        sms: { text_body: '{{ agency.name }}: works order {{ job.reference }} ({{ job.title }}): {{ link.url }}' },
      },
    },
    {
      key: 'quote_request.sent',
      description: 'To each contractor invited to quote: the job, the deadline and a signed link to answer (docs/works-orders.md).',
      events: 'quote_request.sent',
      audience: 'contractor',
      variables: {
        ...COMMON, 'recipient.name': 'Dave Fletcher', 'job.description': 'The boiler shows fault F28 and will not light.', 'quote.deadline': 'Mon 30 Nov 2026, 17:00',
        'quote.notes': 'Access through the side gate.', 'link.url': 'https://app.caretaker.test/works-orders/link/0f3c...',
      },
      defaults: {
        email: {
          subject: 'Request for a quote {{ job.reference }}: {{ job.title }} (by {{ quote.deadline }})',
          mjml: mjml('Please quote for this job', [
            'Hello {{ recipient.name }},',
            `{{ agency.name }} asks for your quote: ${JOB_LINE}`,
            '{{ job.description }}',
            '{{ quote.notes }}',
            'Please answer by <strong>{{ quote.deadline }}</strong>: open the link to send your quote or to say you cannot quote. No account is needed.',
          ], 'Send my quote').replace('{{ job.url }}', '{{ link.url }}'),
          text_body: `Hello {{ recipient.name }},\n\n{{ agency.name }} asks for your quote: ${JOB_LINE}\n{{ job.description }}\n{{ quote.notes }}\n\nPlease answer by {{ quote.deadline }}:\n{{ link.url }}\n\n{{ agency.name }}\n`,
        },
        push: { title: 'Quote requested: {{ job.reference }}', body: '{{ job.title }}, by {{ quote.deadline }}' },
        sms: { text_body: '{{ agency.name }}: quote for {{ job.reference }} by {{ quote.deadline }}: {{ link.url }}' },
      },
    },
    {
      key: 'quote_request.awarded',
      description: 'To the contractor whose quote won a request for competing quotes.',
      events: 'quote_request.awarded',
      audience: 'contractor',
      variables: { ...COMMON, 'recipient.name': 'Dave Fletcher', 'quote.total': '£486.00' },
      defaults: {
        email: {
          subject: 'Your quote for {{ job.reference }} was accepted',
          mjml: mjml('Your quote was accepted', ['Hello {{ recipient.name }},', `Your quote of {{ quote.total }} was accepted: ${JOB_LINE}`, 'The works order follows.'], 'Open the job'),
          text_body: `Hello {{ recipient.name }},\n\nYour quote of {{ quote.total }} was accepted: ${JOB_LINE}\nThe works order follows.\n\n{{ agency.name }}\n`,
        },
        push: { title: 'Quote accepted', body: '{{ job.reference }}: {{ quote.total }}' },
        sms: { text_body: '{{ agency.name }}: your quote for {{ job.reference }} ({{ quote.total }}) was accepted.' },
      },
    },
    {
      key: 'quote_request.not_awarded',
      description: 'To the other contractors invited to quote: the job went to someone else.',
      events: 'quote_request.awarded',
      audience: 'contractor',
      variables: { ...COMMON, 'recipient.name': 'Dave Fletcher' },
      defaults: {
        email: {
          subject: 'Quote request {{ job.reference }} closed',
          mjml: mjml('Thank you for your quote', ['Hello {{ recipient.name }},', `The job went to another contractor this time: ${JOB_LINE}`, 'Thank you for answering; we will ask you again.'], 'Open the job'),
          text_body: `Hello {{ recipient.name }},\n\nThe job went to another contractor this time: ${JOB_LINE}\nThank you for answering; we will ask you again.\n\n{{ agency.name }}\n`,
        },
        push: { title: 'Quote request closed', body: '{{ job.reference }} went to another contractor' },
        sms: { text_body: '{{ agency.name }}: {{ job.reference }} went to another contractor. Thank you for quoting.' },
      },
    },
    {
      key: 'sla.at_risk',
      description: "To the agents of the job's branch: a job will miss an SLA rule soon.",
      events: 'sla.at_risk',
      audience: 'branch_agents',
      variables: { ...COMMON, 'recipient.name': 'Priya Shah', 'sla.due_at': 'Tue 24 Nov 2026, 17:00', 'sla.rule': 'Emergency: attend within 1 day' },
      defaults: {
        email: {
          subject: 'SLA at risk: {{ job.reference }} is due {{ sla.due_at }}',
          mjml: mjml('A job is at risk of missing its SLA', ['Hello {{ recipient.name }},', JOB_LINE, 'Rule: {{ sla.rule }}. Due: {{ sla.due_at }} (London time).']),
          text_body: `Hello {{ recipient.name }},\n\n${JOB_LINE}\nRule: {{ sla.rule }}. Due: {{ sla.due_at }} (London time).\n\n{{ job.url }}\n`,
        },
        push: { title: 'SLA at risk', body: '{{ job.reference }} due {{ sla.due_at }}' },
        sms: { text_body: 'SLA at risk: {{ job.reference }} due {{ sla.due_at }}.' },
      },
    },
    {
      key: 'sla.breached',
      description: "To the agents of the job's branch: a job missed an SLA rule.",
      events: 'sla.breached',
      audience: 'branch_agents',
      variables: { ...COMMON, 'recipient.name': 'Priya Shah', 'sla.due_at': 'Tue 24 Nov 2026, 17:00', 'sla.rule': 'Emergency: attend within 1 day' },
      defaults: {
        email: {
          subject: 'SLA breached: {{ job.reference }}',
          mjml: mjml('A job missed its SLA', ['Hello {{ recipient.name }},', JOB_LINE, 'Rule: {{ sla.rule }}. It was due {{ sla.due_at }} (London time).']),
          text_body: `Hello {{ recipient.name }},\n\n${JOB_LINE}\nRule: {{ sla.rule }}. It was due {{ sla.due_at }} (London time).\n\n{{ job.url }}\n`,
        },
        push: { title: 'SLA breached', body: '{{ job.reference }} was due {{ sla.due_at }}' },
        sms: { text_body: 'SLA breached: {{ job.reference }} was due {{ sla.due_at }}.' },
      },
    },
    {
      key: 'compliance.expiring',
      description: "To the agents of the property's branch: a compliance certificate expires soon (60, 30 and 7 days before).",
      events: 'compliance.certificate_expiring',
      audience: 'branch_agents',
      variables: {
        'recipient.name': 'Priya Shah', 'agency.name': 'Northwind Lettings', 'property.address': '28 Blenheim Terrace, Leeds LS2 9XS',
        'compliance.item': 'Gas safety record', 'compliance.expires_on': 'Sat 26 Dec 2026', 'compliance.days_left': '30',
        'compliance.url': 'https://app.caretaker.test/compliance/5342922e-c103-461b-9559-2dedb5a1d599',
      },
      defaults: {
        email: {
          subject: '{{ compliance.item }} expires {{ compliance.expires_on }}: {{ property.address }}',
          mjml: mjml('A certificate expires soon', [
            'Hello {{ recipient.name }},',
            'The {{ compliance.item | downcase }} of {{ property.address }} expires on {{ compliance.expires_on }}, in {{ compliance.days_left }} days.',
            'Book the check and record the new certificate before then.',
          ], 'Open the register').replace(/\{\{ job\.url \}\}/g, '{{ compliance.url }}').replace('Reference {{ job.reference }}.', ''),
          text_body: 'Hello {{ recipient.name }},\n\nThe {{ compliance.item | downcase }} of {{ property.address }} expires on {{ compliance.expires_on }}, in {{ compliance.days_left }} days.\nBook the check and record the new certificate before then.\n\n{{ compliance.url }}\n',
        },
        push: { title: 'Certificate expiring', body: '{{ compliance.item }}, {{ property.address }}: {{ compliance.expires_on }}' },
        sms: { text_body: '{{ compliance.item }} of {{ property.address }} expires {{ compliance.expires_on }}.' },
      },
    },
    {
      key: 'compliance.expiring_landlord',
      description: "To the property's landlords: a compliance certificate of their property expires soon (60, 30 and 7 days before).",
      events: 'compliance.certificate_expiring',
      audience: 'landlords',
      variables: {
        'recipient.name': 'Margaret Hughes', 'agency.name': 'Northwind Lettings', 'property.address': '28 Blenheim Terrace, Leeds LS2 9XS',
        'compliance.item': 'Gas safety record', 'compliance.expires_on': 'Sat 26 Dec 2026', 'compliance.days_left': '30',
      },
      defaults: {
        email: {
          subject: 'Your property {{ property.address }}: {{ compliance.item }} expires {{ compliance.expires_on }}',
          mjml: mjml('A certificate of your property expires soon', [
            'Dear {{ recipient.name }},',
            'The {{ compliance.item | downcase }} of {{ property.address }} expires on {{ compliance.expires_on }}, in {{ compliance.days_left }} days.',
            'We will arrange the renewal with our contractor; the law requires a valid certificate while the property is let.',
          ]).replace(/\s*<mj-button[^>]*>[^<]*<\/mj-button>/, '').replace('Reference {{ job.reference }}.', ''),
          text_body: 'Dear {{ recipient.name }},\n\nThe {{ compliance.item | downcase }} of {{ property.address }} expires on {{ compliance.expires_on }}, in {{ compliance.days_left }} days.\nWe will arrange the renewal with our contractor; the law requires a valid certificate while the property is let.\n\n{{ agency.name }}\n',
        },
        push: { title: 'Certificate expiring', body: '{{ compliance.item }}: {{ compliance.expires_on }}' },
        sms: { text_body: '{{ agency.name }}: the {{ compliance.item | downcase }} of {{ property.address }} expires {{ compliance.expires_on }}.' },
      },
    },
    {
      key: 'hazard.summary',
      description: 'To the tenant: the written summary of the investigation of a hazard (docs/compliance.md "Hazards and statutory clocks"); a copy is kept on the job.',
      events: 'hazard.summary_sent',
      audience: 'tenant',
      variables: {
        ...COMMON,
        'hazard.name': 'Damp and mould growth',
        'hazard.severity': 'significant',
        'hazard.investigated_on': 'Tue 1 Dec 2026',
        'hazard.findings': 'Mould on the bedroom ceiling caused by a failed extractor fan and condensation.',
        'hazard.actions': 'Replace the extractor fan, treat the mould and redecorate the ceiling.',
        'hazard.works_start_by': 'Tue 8 Dec 2026',
        'hazard.further_works_by': 'Tue 8 Dec 2026',
        'hazard.further_works_text': 'Further work to stop it coming back will begin by Tue 8 Dec 2026 and be completed within a reasonable time.',
        'hazard.works_complete_by': '',
      },
      defaults: {
        email: {
          subject: 'Your report of {{ hazard.name | downcase }}: what we found ({{ job.reference }})',
          mjml: mjml('What we found and what happens next', [
            'Hello {{ recipient.name }},',
            'We investigated the {{ hazard.name | downcase }} you reported at {{ job.address }} on {{ hazard.investigated_on }}.',
            'What we found: {{ hazard.findings }}',
            'What we will do: {{ hazard.actions }}',
            'Work to make your home safe will be done by {{ hazard.works_start_by }}. {{ hazard.further_works_text }}',
            'If things get worse before then, contact us straight away.',
          ]),
          text_body: 'Hello {{ recipient.name }},\n\nWe investigated the {{ hazard.name | downcase }} you reported at {{ job.address }} on {{ hazard.investigated_on }}.\n\nWhat we found: {{ hazard.findings }}\n\nWhat we will do: {{ hazard.actions }}\n\nWork to make your home safe will be done by {{ hazard.works_start_by }}. {{ hazard.further_works_text }}\n\nIf things get worse before then, contact us straight away.\n\n{{ agency.name }}, reference {{ job.reference }}\n{{ job.url }}\n',
        },
        push: { title: 'Your hazard report: what we found', body: '{{ job.reference }}: works begin by {{ hazard.works_start_by }}' },
        sms: { text_body: '{{ agency.name }}: we investigated your report ({{ job.reference }}). Works begin by {{ hazard.works_start_by }}.' },
      },
    },
    {
      key: 'hazard.at_risk',
      description: "To the agents of the job's branch: a statutory hazard clock of a job is close to its deadline.",
      events: 'hazard.at_risk',
      audience: 'branch_agents',
      variables: { ...COMMON, 'recipient.name': 'Priya Shah', 'hazard.name': 'Damp and mould growth', 'hazard.clock': 'Investigate within 10 working days', 'hazard.due_at': 'Tue 8 Dec 2026, 00:00' },
      defaults: {
        email: {
          subject: 'Statutory deadline close: {{ job.reference }} ({{ hazard.name }}) due {{ hazard.due_at }}',
          mjml: mjml('A statutory hazard deadline is close', ['Hello {{ recipient.name }},', JOB_LINE, 'Hazard: {{ hazard.name }}. {{ hazard.clock }}: due {{ hazard.due_at }} (London time).']),
          text_body: `Hello {{ recipient.name }},\n\n${JOB_LINE}\nHazard: {{ hazard.name }}. {{ hazard.clock }}: due {{ hazard.due_at }} (London time).\n\n{{ job.url }}\n`,
        },
        push: { title: 'Statutory deadline close', body: '{{ job.reference }}: {{ hazard.clock }} due {{ hazard.due_at }}' },
        sms: { text_body: 'Statutory deadline close: {{ job.reference }} due {{ hazard.due_at }}.' },
      },
    },
    {
      key: 'hazard.breached',
      description: "To the agents of the job's branch: a statutory hazard clock of a job ran out.",
      events: 'hazard.breached',
      audience: 'branch_agents',
      variables: { ...COMMON, 'recipient.name': 'Priya Shah', 'hazard.name': 'Damp and mould growth', 'hazard.clock': 'Investigate within 10 working days', 'hazard.due_at': 'Tue 8 Dec 2026, 00:00' },
      defaults: {
        email: {
          subject: 'Statutory deadline missed: {{ job.reference }} ({{ hazard.name }})',
          mjml: mjml('A statutory hazard deadline was missed', ['Hello {{ recipient.name }},', JOB_LINE, 'Hazard: {{ hazard.name }}. {{ hazard.clock }}: it was due {{ hazard.due_at }} (London time).']),
          text_body: `Hello {{ recipient.name }},\n\n${JOB_LINE}\nHazard: {{ hazard.name }}. {{ hazard.clock }}: it was due {{ hazard.due_at }} (London time).\n\n{{ job.url }}\n`,
        },
        push: { title: 'Statutory deadline missed', body: '{{ job.reference }}: {{ hazard.clock }}' },
        sms: { text_body: 'Statutory deadline missed: {{ job.reference }} was due {{ hazard.due_at }}.' },
      },
    },
    {
      key: 'contractor.certificate_expiring',
      description: "To the agency's administrators: a contractor certificate expires soon.",
      events: 'contractor.certificate_expiring',
      audience: 'agency_admins',
      variables: {
        'recipient.name': 'Alex Morgan',
        'agency.name': 'Northwind Lettings',
        'contractor.name': 'Fletcher Plumbing',
        'certificate.type': 'gas_safe',
        'certificate.reference': 'GS-554433',
        'certificate.expires_on': 'Tue 15 Dec 2026',
        'contractor.url': 'https://app.caretaker.test/contractors/8a1d2f70-3c1e-4f5e-9a51-6f7e2b9d0c44',
      },
      defaults: {
        email: {
          subject: 'Certificate expiring: {{ contractor.name }} ({{ certificate.type }}) on {{ certificate.expires_on }}',
          mjml: mjml('A contractor certificate expires soon', [
            'Hello {{ recipient.name }},',
            'The {{ certificate.type }} certificate {{ certificate.reference }} of {{ contractor.name }} expires on {{ certificate.expires_on }}.',
            'Ask the contractor for the renewed certificate before assigning them more work.',
          ], 'Open the contractor').replace(/\{\{ job\.url \}\}/g, '{{ contractor.url }}').replace('Reference {{ job.reference }}.', ''),
          text_body: 'Hello {{ recipient.name }},\n\nThe {{ certificate.type }} certificate {{ certificate.reference }} of {{ contractor.name }} expires on {{ certificate.expires_on }}.\n\n{{ contractor.url }}\n',
        },
        push: { title: 'Certificate expiring', body: '{{ contractor.name }}: {{ certificate.type }} on {{ certificate.expires_on }}' },
        sms: { text_body: '{{ contractor.name }}: {{ certificate.type }} certificate expires {{ certificate.expires_on }}.' },
      },
    },
  ] as MessageKind[]).map((k) => [k.key, k]),
);

/** How a person receives a kind on a channel (docs/messaging.md "Preferences", "Digests"). */
export type DeliveryMode = 'immediate' | 'digest' | 'off';

/**
 * Kinds whose e-mail may be gathered into a digest, with their default e-mail mode for the people
 * responsible (docs/messaging.md "SLA notices and digests"). Everything else is `immediate` unless
 * switched off.
 */
export const DIGEST_KINDS: Readonly<Record<string, DeliveryMode>> = { 'sla.at_risk': 'digest', 'sla.breached': 'digest' };

/**
 * The mode a person's stored preference gives, or the kind's default.
 * @param stored the preference row (mode, enabled), or undefined when never set
 */
export function modeOf(key: string, channel: string, stored: { mode: DeliveryMode | null; enabled: boolean } | undefined): DeliveryMode {
  if (stored?.mode) return stored.mode;
  if (stored && !stored.enabled) return 'off';
  return channel === 'email' ? (DIGEST_KINDS[key] ?? 'immediate') : 'immediate';
}

/** Template id on the wire: `<kind>.<channel>`, e.g. `job.visit_booked.email`. */
export function templateId(key: string, channel: Channel): string {
  return `${key}.${channel}`;
}

/** Splits a template id; undefined when the kind or channel is unknown. */
export function parseTemplateId(id: string): { kind: MessageKind; channel: Channel } | undefined {
  const dot = id.lastIndexOf('.');
  if (dot < 0) return undefined;
  const channel = id.slice(dot + 1) as Channel;
  const kind = MESSAGE_KINDS[id.slice(0, dot)];
  if (!kind || !(CHANNELS as readonly string[]).includes(channel)) return undefined;
  return { kind, channel };
}

/** Turns the flat `a.b` sample map into the nested object Liquid renders with. */
export function nestVariables(flat: Record<string, string | null>): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [path, value] of Object.entries(flat)) {
    const [head, tail] = path.split('.') as [string, string];
    (out[head] ??= {})[tail] = value;
  }
  return out;
}
