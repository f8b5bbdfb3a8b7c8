/**
 * The Caretaker action node: the common work of a letting agency's maintenance desk through the
 * Caretaker API (docs/integrations.md "n8n"): jobs (get many with filters, get, create, move to a
 * status, assign a contractor, add a note), tenants, contractors and properties (find, create),
 * landlords (find, e.g. the owners of a property), compliance items due, and invoices (get
 * many). Lists follow n8n's Return All / Limit convention over the API's limit/offset pages; failures are NodeApiError (the API's answer) or
 * NodeOperationError (bad input), and with "Continue On Fail" become an item with `error`.
 */
import {
  NodeApiError,
  NodeConnectionTypes,
  NodeOperationError,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeProperties,
  type INodeType,
  type INodeTypeDescription,
} from 'n8n-workflow';
import { caretakerList, caretakerRequest, cleanFields } from './GenericFunctions.ts';

/** Shows a field only for the given resource and operations. */
function shownFor(resource: string, operation: string[]) {
  return { show: { resource: [resource], operation } };
}

/** Return All / Limit for a list operation (n8n's convention). */
function pagingFields(resource: string, operation: string): INodeProperties[] {
  return [
    {
      displayName: 'Return All',
      name: 'returnAll',
      type: 'boolean',
      default: false,
      description: 'Whether to return all results or only up to a given limit',
      displayOptions: shownFor(resource, [operation]),
    },
    {
      displayName: 'Limit',
      name: 'limit',
      type: 'number',
      typeOptions: { minValue: 1, maxValue: 200 },
      default: 50,
      description: 'Max number of results to return',
      displayOptions: { show: { resource: [resource], operation: [operation], returnAll: [false] } },
    },
  ];
}

const uuidField = (displayName: string, name: string, resource: string, operation: string[], description: string): INodeProperties => ({
  displayName,
  name,
  type: 'string',
  required: true,
  default: '',
  description,
  displayOptions: shownFor(resource, operation),
});

const operations = (resource: string, options: Array<[string, string, string]>, fallback: string): INodeProperties => ({
  displayName: 'Operation',
  name: 'operation',
  type: 'options',
  noDataExpression: true,
  displayOptions: { show: { resource: [resource] } },
  options: options.map(([value, name, action]) => ({ name, value, action, description: action })),
  default: fallback,
});

const PRIORITY = { displayName: 'Priority', name: 'priority', type: 'number', typeOptions: { minValue: 1, maxValue: 5 }, default: 3, description: '1 (emergency) to 5 (planned)' } as const;

const jobFields: INodeProperties[] = [
  operations(
    'job',
    [
      ['getAll', 'Get Many', 'Get many jobs'],
      ['get', 'Get', 'Get a job'],
      ['create', 'Create', 'Create a job'],
      ['move', 'Move', 'Move a job to another status'],
      ['assign', 'Assign', 'Assign a job to a contractor'],
      ['addNote', 'Add Note', 'Add a note to a job'],
    ],
    'getAll',
  ),
  uuidField('Job ID', 'jobUuid', 'job', ['get', 'move', 'assign', 'addNote'], 'The UUID of the job'),
  ...pagingFields('job', 'getAll'),
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    displayOptions: shownFor('job', ['getAll']),
    options: [
      { displayName: 'Address ID', name: 'address_uuid', type: 'string', default: '' },
      { displayName: 'Branch ID', name: 'branch_uuid', type: 'string', default: '' },
      { displayName: 'Contractor ID', name: 'contractor_uuid', type: 'string', default: '' },
      { displayName: 'From Date', name: 'from_date', type: 'string', default: '', placeholder: 'YYYY-MM-DD' },
      { ...PRIORITY, default: 3 },
      { displayName: 'Search', name: 'q', type: 'string', default: '', description: 'Words in the reference, title or description' },
      {
        displayName: 'SLA State',
        name: 'sla_state',
        type: 'options',
        default: 'breached',
        options: ['breached', 'at_risk', 'running', 'paused', 'met'].map((v) => ({ name: v.replace('_', ' ').replace(/^./, (c) => c.toUpperCase()), value: v })),
      },
      { displayName: 'Status ID', name: 'status_id', type: 'number', default: 1, description: 'A status of GET /api/jobs/statuses' },
      { displayName: 'Tenant ID', name: 'tenant_uuid', type: 'string', default: '' },
      { displayName: 'To Date', name: 'to_date', type: 'string', default: '', placeholder: 'YYYY-MM-DD' },
    ],
  },
  { displayName: 'Title', name: 'title', type: 'string', required: true, default: '', displayOptions: shownFor('job', ['create']) },
  { ...PRIORITY, required: true, displayOptions: shownFor('job', ['create']) },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: shownFor('job', ['create']),
    options: [
      { displayName: 'Address ID', name: 'address_uuid', type: 'string', default: '' },
      { displayName: 'Branch ID', name: 'branch_uuid', type: 'string', default: '' },
      { displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 4 }, default: '' },
      { displayName: 'Estimated Cost (Pence)', name: 'estimated_cost_pence', type: 'number', default: 0 },
      { displayName: 'Job Type ID', name: 'job_type_id', type: 'number', default: 1 },
      { displayName: 'Tenant ID', name: 'tenant_uuid', type: 'string', default: '' },
      { displayName: 'Trade ID', name: 'trade_id', type: 'number', default: 1 },
    ],
  },
  {
    displayName: 'To Status ID',
    name: 'toStatusId',
    type: 'number',
    required: true,
    default: 2,
    description: 'The status to move to (GET /api/jobs/statuses); the move must be an allowed transition',
    displayOptions: shownFor('job', ['move']),
  },
  { displayName: 'Note', name: 'note', type: 'string', default: '', description: 'Why the job moves (kept in its history)', displayOptions: shownFor('job', ['move']) },
  uuidField('Contractor ID', 'contractorUuid', 'job', ['assign'], 'The UUID of the contractor'),
  {
    displayName: 'Additional Fields',
    name: 'assignFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: shownFor('job', ['assign']),
    options: [
      { displayName: 'Scheduled For', name: 'scheduled_for', type: 'string', default: '', placeholder: 'YYYY-MM-DD', description: 'Visit date; given, the job becomes Scheduled' },
      { displayName: 'Time Range ID', name: 'time_range_id', type: 'number', default: 1, description: 'A slot of GET /api/jobs/time-ranges' },
    ],
  },
  { displayName: 'Text', name: 'body', type: 'string', typeOptions: { rows: 4 }, required: true, default: '', displayOptions: shownFor('job', ['addNote']) },
  {
    displayName: 'Visibility',
    name: 'visibility',
    type: 'options',
    default: 'internal',
    options: [
      { name: 'Internal (Staff Only)', value: 'internal' },
      { name: 'Shared With the Tenant', value: 'tenant' },
      { name: 'Shared With the Contractor', value: 'contractor' },
      { name: 'Shared With Both', value: 'both' },
    ],
    displayOptions: shownFor('job', ['addNote']),
  },
];

/** Find (search + paging) and Create fields of a people or property resource. */
function findCreateFields(resource: string, label: string, search: INodeProperties[], required: INodeProperties[], optional: INodeProperties[]): INodeProperties[] {
  return [
    operations(
      resource,
      [
        ['find', 'Find', `Find ${label}s`],
        ['create', 'Create', `Create a ${label}`],
      ],
      'find',
    ),
    ...pagingFields(resource, 'find'),
    { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, displayOptions: shownFor(resource, ['find']), options: search },
    ...required.map((p) => ({ ...p, required: true, displayOptions: shownFor(resource, ['create']) })),
    { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, displayOptions: shownFor(resource, ['create']), options: optional },
  ] as INodeProperties[];
}

const text = (displayName: string, name: string, description?: string): INodeProperties => ({ displayName, name, type: 'string', default: '', ...(description ? { description } : {}) });

const tenantFields = findCreateFields(
  'tenant',
  'tenant',
  [text('Search', 'q', 'Words in the name, e-mail or phone'), text('Postcode', 'postcode'), text('Address ID', 'address_uuid')],
  [text('Name', 'name')],
  [
    text('Email', 'email'),
    text('Mobile', 'mobile'),
    text('Notes', 'notes'),
    text('Phone', 'phone'),
    {
      displayName: 'Preferred Contact',
      name: 'preferred_contact',
      type: 'options',
      default: 'email',
      options: ['email', 'phone', 'sms', 'post'].map((v) => ({ name: v === 'sms' ? 'SMS' : v[0]!.toUpperCase() + v.slice(1), value: v })),
    },
  ],
);

const contractorFields = findCreateFields(
  'contractor',
  'contractor',
  [
    text('Search', 'q', 'Words in the company or contact name'),
    text('Trade', 'trade', 'A trade name, e.g. Plumbing'),
    text('District', 'district', 'A postcode district the contractor covers, e.g. LS6'),
    { displayName: 'Active', name: 'active', type: 'boolean', default: true },
  ],
  [text('Company Name', 'company_name')],
  [text('Contact Name', 'contact_name'), text('Email', 'email'), text('Notes', 'notes'), text('Phone', 'phone')],
);

const propertyFields = findCreateFields(
  'property',
  'property',
  [text('Search', 'q', 'Words of the address'), text('Postcode', 'postcode'), text('Branch ID', 'branch_uuid')],
  [text('Address Line 1', 'line1'), text('Town', 'town'), text('Postcode', 'postcode')],
  [text('Address Line 2', 'line2'), text('Branch ID', 'branch_uuid'), text('County', 'county')],
);

const landlordFields: INodeProperties[] = [
  operations('landlord', [['find', 'Find', 'Find landlords']], 'find'),
  ...pagingFields('landlord', 'find'),
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    displayOptions: shownFor('landlord', ['find']),
    options: [text('Search', 'q', 'Words in the name, e-mail or reference'), text('Property ID', 'address_uuid', 'The owners of this property (the UUID of its address)')],
  },
];

const complianceFields: INodeProperties[] = [
  operations('complianceItem', [['getDue', 'Get Due', 'Get compliance items due']], 'getDue'),
  {
    displayName: 'Status',
    name: 'status',
    type: 'options',
    default: 'due_soon',
    description: 'Items due soon (within their reminder window), expired, or missing a certificate',
    options: [
      { name: 'Due Soon', value: 'due_soon' },
      { name: 'Expired', value: 'expired' },
      { name: 'Missing', value: 'missing' },
      { name: 'Non-Compliant', value: 'non_compliant' },
    ],
    displayOptions: shownFor('complianceItem', ['getDue']),
  },
  ...pagingFields('complianceItem', 'getDue'),
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    displayOptions: shownFor('complianceItem', ['getDue']),
    options: [text('Address ID', 'address_uuid'), text('Branch ID', 'branch_uuid'), text('Type', 'type', 'A compliance type code, e.g. gas_safety')],
  },
];

const invoiceFields: INodeProperties[] = [
  operations('invoice', [['getAll', 'Get Many', 'Get many invoices']], 'getAll'),
  ...pagingFields('invoice', 'getAll'),
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    displayOptions: shownFor('invoice', ['getAll']),
    options: [
      {
        displayName: 'Status',
        name: 'status',
        type: 'options',
        default: 'issued',
        options: ['draft', 'issued', 'part_paid', 'paid', 'overdue', 'void', 'credited'].map((v) => ({ name: v.replace('_', ' ').replace(/^./, (c) => c.toUpperCase()), value: v })),
      },
      text('Contractor ID', 'contractor_uuid'),
      text('Job ID', 'job_uuid'),
      { displayName: 'From Date', name: 'from_date', type: 'string', default: '', placeholder: 'YYYY-MM-DD' },
      { displayName: 'To Date', name: 'to_date', type: 'string', default: '', placeholder: 'YYYY-MM-DD' },
    ],
  },
];

/** The list path of each find-and-create resource. */
const LIST_PATHS: Record<string, string> = { tenant: '/api/tenants', contractor: '/api/contractors', property: '/api/addresses', landlord: '/api/landlords' };
/** The required fields of Create, per resource that has it. */
const CREATE_REQUIRED: Record<string, string[]> = { tenant: ['name'], contractor: ['company_name'], property: ['line1', 'town', 'postcode'] };

export class Caretaker implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Caretaker',
    name: 'caretaker',
    icon: 'file:../../icons/caretaker.svg',
    group: ['transform'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Work with jobs, tenants, contractors, properties, compliance and invoices in Caretaker',
    defaults: { name: 'Caretaker' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'caretakerApi', required: true }],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'Compliance Item', value: 'complianceItem' },
          { name: 'Contractor', value: 'contractor' },
          { name: 'Invoice', value: 'invoice' },
          { name: 'Job', value: 'job' },
          { name: 'Landlord', value: 'landlord' },
          { name: 'Property', value: 'property' },
          { name: 'Tenant', value: 'tenant' },
        ],
        default: 'job',
      },
      ...jobFields,
      ...tenantFields,
      ...contractorFields,
      ...propertyFields,
      ...landlordFields,
      ...complianceFields,
      ...invoiceFields,
    ],
  };

  /**
   * Runs the chosen operation once per input item.
   * @returns one output item per row the API answered (a list gives one item per row)
   * @throws NodeApiError (the API refused: its `error` text and status) or NodeOperationError
   *   (an unknown operation), unless Continue On Fail is set
   */
  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const out: INodeExecutionData[] = [];
    for (let i = 0; i < items.length; i++) {
      try {
        const resource = this.getNodeParameter('resource', i) as string;
        const operation = this.getNodeParameter('operation', i) as string;
        const rows = await runOperation(this, resource, operation, i);
        out.push(...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(rows), { itemData: { item: i } }));
      } catch (error) {
        if (this.continueOnFail()) {
          out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
          continue;
        }
        if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
        throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
      }
    }
    return [out];
  }
}

/** One operation on one item: the API call and the rows it answers. */
async function runOperation(ctx: IExecuteFunctions, resource: string, operation: string, i: number): Promise<IDataObject[]> {
  const param = <T>(name: string, fallback?: T) => ctx.getNodeParameter(name, i, fallback) as T;
  const list = (path: string, qs: IDataObject) => caretakerList.call(ctx, path, qs, param<boolean>('returnAll', false), param<number>('limit', 50));
  const one = async (method: 'GET' | 'POST', path: string, body?: IDataObject) => [(await caretakerRequest.call(ctx, method, path, body)).data as IDataObject];
  const job = () => `/api/jobs/${encodeURIComponent(param<string>('jobUuid'))}`;

  if (resource === 'job') {
    if (operation === 'getAll') return list('/api/jobs/manage', cleanFields(param<IDataObject>('filters', {})));
    if (operation === 'get') return one('GET', job());
    if (operation === 'create') return one('POST', '/api/jobs/manage', { title: param<string>('title'), priority: param<number>('priority'), ...cleanFields(param<IDataObject>('additionalFields', {})) });
    if (operation === 'move') {
      const note = param<string>('note', '');
      return one('POST', `${job()}/transitions`, { to_status_id: param<number>('toStatusId'), ...(note ? { note } : {}) });
    }
    if (operation === 'assign') return one('POST', `${job()}/assignment`, { contractor_uuid: param<string>('contractorUuid'), ...cleanFields(param<IDataObject>('assignFields', {})) });
    if (operation === 'addNote') return one('POST', `${job()}/notes`, { body: param<string>('body'), visibility: param<string>('visibility', 'internal') });
  }
  const listPath = LIST_PATHS[resource];
  if (listPath) {
    if (operation === 'find') return list(listPath, cleanFields(param<IDataObject>('filters', {})));
    const required = CREATE_REQUIRED[resource];
    if (operation === 'create' && required) {
      const body: IDataObject = Object.fromEntries(required.map((name) => [name, param<string>(name)]));
      return one('POST', listPath, { ...body, ...cleanFields(param<IDataObject>('additionalFields', {})) });
    }
  }
  if (resource === 'complianceItem' && operation === 'getDue') return list('/api/compliance', { status: param<string>('status', 'due_soon'), ...cleanFields(param<IDataObject>('filters', {})) });
  if (resource === 'invoice' && operation === 'getAll') return list('/api/invoices', cleanFields(param<IDataObject>('filters', {})));
  throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" is not known for the resource "${resource}"`, { itemIndex: i });
}
