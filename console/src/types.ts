/**
 * The records the console shows, taken from the generated OpenAPI types (clients/typescript), so
 * a change of the API's shapes fails `npm run typecheck` here instead of at run time.
 */
import type { paths } from '../../clients/typescript/src/index.ts';

/** The JSON body of a GET's 200 answer. */
type Ok<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } } ? B : never;
/** One element of a list answer's `data`. */
type Item<P extends keyof paths> = Ok<P> extends { data: Array<infer T> } ? T : never;
/** The `data` of a single-record answer. */
type One<P extends keyof paths> = Ok<P> extends { data: infer T } ? T : never;
/** The query parameters of a GET (every one optional unless the API requires it). */
export type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
/** The `sort` values of an API list (GET `P`'s `sort` parameter). */
export type SortOf<P extends keyof paths> = Query<P> extends { sort?: infer S } ? NonNullable<S> : never;
/** The body of a request (`method` 'post', 'put' or 'delete'): its JSON, or an upload's fields. */
export type RequestBody<P extends keyof paths, M extends 'post' | 'put' | 'delete'> =
  paths[P] extends Record<M, { requestBody?: { content: infer C } }> ? NonNullable<C>[keyof NonNullable<C>] : never;

export type Me = One<'/api/auth/me'>;
export type Job = One<'/api/jobs/{uuid}'>;
export type Note = Item<'/api/jobs/{uuid}/notes'>;
export type Photo = Item<'/api/jobs/{uuid}/photos'>;
export type Thread = Item<'/api/jobs/{uuid}/threads'>;
export type ThreadMessage = Item<'/api/jobs/{uuid}/threads/{audience}/messages'>;
export type Dashboard = One<'/api/dashboard'>;
export type Visit = Item<'/api/calendar'>;
export type Contractor = Item<'/api/contractors'>;
export type Certificate = Item<'/api/contractors/certifications/expiring'>;
export type Tenant = Item<'/api/tenants'>;
export type Address = Item<'/api/addresses'>;
export type User = Item<'/api/users'>;
export type Branch = Item<'/api/admin/branches'>;
export type ActivityEntry = Item<'/api/admin/activity-log'>;
export type ComplianceItem = Item<'/api/compliance'>;
export type ComplianceType = Item<'/api/compliance/types'>;
export type MaintenanceSchedule = Item<'/api/compliance/schedules'>;
export type SlaRule = Item<'/api/agents/branch-sla-response-times'>;
export type SlaSettings = One<'/api/sla/settings'>;
export type MessageTemplate = One<'/api/messaging/templates/{id}'>;
/** What an import reads (the `entity` of POST /api/imports). */
export type ImportEntity = RequestBody<'/api/imports', 'post'>['entity'];
/** A compliance item's state (the `status` filter of GET /api/compliance). */
export type ComplianceStatus = NonNullable<Query<'/api/compliance'>['status']>;
/** An invoice's state (the `status` filter of GET /api/invoices). */
export type InvoiceStatus = NonNullable<Query<'/api/invoices'>['status']>;
export type TemplateVersion = Item<'/api/messaging/templates/{id}/versions'>;
/** A landlord in the list (GET /api/landlords: never the bank details). */
export type Landlord = Item<'/api/landlords'>;
/** A landlord's record with its properties and shares (GET /api/landlords/{uuid}). */
export type LandlordDetail = One<'/api/landlords/{uuid}'>;
/** A request for a landlord's approval of a cost above the spend limit (GET /api/landlords/approvals). */
export type Approval = Item<'/api/landlords/approvals'>;
/** An approval's state. */
export type ApprovalStatus = Approval['status'];
/** A landlord's statement for a period (GET /api/landlords/{uuid}/statement). */
export type Statement = One<'/api/landlords/{uuid}/statement'>;
/** A property's owners, shares and the spend limit that applies (GET /api/landlords/properties/{address_uuid}). */
export type PropertyOwnership = One<'/api/landlords/properties/{address_uuid}'>;
/** One property address with its parts (GET /api/addresses/{uuid}). */
export type AddressDetail = One<'/api/addresses/{uuid}'>;
/** A job as the lists give it (GET /api/jobs/manage). */
export type JobSummary = Item<'/api/jobs/manage'>;
/** A compliance item with its certificates (GET /api/compliance/items/{uuid}). */
export type ComplianceItemDetail = One<'/api/compliance/items/{uuid}'>;
/** A job's document (GET /api/jobs/{uuid}/documents). */
export type JobDocument = Item<'/api/jobs/{uuid}/documents'>;
/** A tenancy with its tenants, served documents and what is owed (GET /api/properties/{uuid}/tenancies/{tenancy_uuid}). */
export type TenancyDetail = One<'/api/properties/{uuid}/tenancies/{tenancy_uuid}'>;
