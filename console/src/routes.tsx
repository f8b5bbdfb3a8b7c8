/**
 * The console's routes: every page's address, each page other than the sign-in pages and the job
 * board loaded when first opened, and the guards that show "Not available" on a page the caller's
 * permissions do not open. The signed-in pages show inside the shell of layout.tsx.
 */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Link, Navigate, Route, Routes } from 'react-router';
import { Jobs } from './pages/jobs.tsx';
import { SessionProvider, useSession } from './session.tsx';
import { PageTitle } from './ui.tsx';
import { Layout, PAGE_LOADING } from './layout.tsx';

/**
 * A page loaded when first opened (its own chunk, fetched by React.lazy): the job board, the first
 * view of a signed-in visit, is in the main bundle; every other page, the sign-in pages included
 * (their forms are built on react-aria, which the shell does without), downloads only when a route
 * shows it (docs/console.md "How it is built and served").
 * @param load the dynamic import of the page's module
 * @param name the page's export in that module
 */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const SignIn = page(() => import('./pages/sign-in.tsx'), 'SignIn');
const AcceptInvitation = page(() => import('./pages/password-links.tsx'), 'AcceptInvitation');
const ResetPassword = page(() => import('./pages/password-links.tsx'), 'ResetPassword');
const Account = page(() => import('./pages/auth.tsx'), 'Account');
const CalendarPage = page(() => import('./pages/calendar.tsx'), 'CalendarPage');
const DashboardPage = page(() => import('./pages/dashboard.tsx'), 'DashboardPage');
const ActivityPage = page(() => import('./pages/lists.tsx'), 'ActivityPage');
const AddressesPage = page(() => import('./pages/lists.tsx'), 'AddressesPage');
const BranchesPage = page(() => import('./pages/lists.tsx'), 'BranchesPage');
const AgentsPage = page(() => import('./pages/agents.tsx'), 'AgentsPage');
const BuildingsPage = page(() => import('./pages/buildings.tsx'), 'BuildingsPage');
const BuildingPage = page(() => import('./pages/buildings.tsx'), 'BuildingPage');
const ContractorsPage = page(() => import('./pages/lists.tsx'), 'ContractorsPage');
const TenantsPage = page(() => import('./pages/lists.tsx'), 'TenantsPage');
const UsersPage = page(() => import('./pages/lists.tsx'), 'UsersPage');
const CompliancePage = page(() => import('./pages/compliance.tsx'), 'CompliancePage');
const SchedulePage = page(() => import('./pages/compliance-extras.tsx'), 'SchedulePage');
const ImportPage = page(() => import('./pages/onboarding.tsx'), 'ImportPage');
const InvoicesPage = page(() => import('./pages/invoices.tsx'), 'InvoicesPage');
const InvoicePage = page(() => import('./pages/invoice.tsx'), 'InvoicePage');
const ExportsPage = page(() => import('./pages/exports.tsx'), 'ExportsPage');
const JobPage = page(() => import('./pages/job.tsx'), 'JobPage');
const QuoteInvitationsPage = page(() => import('./pages/job-quote-requests.tsx'), 'QuoteInvitationsPage');
const AddressFormPage = page(() => import('./pages/address-form.tsx'), 'AddressFormPage');
const ContractorFormPage = page(() => import('./pages/contractor-form.tsx'), 'ContractorFormPage');
const TenantFormPage = page(() => import('./pages/tenant-form.tsx'), 'TenantFormPage');
const UserFormPage = page(() => import('./pages/user-form.tsx'), 'UserFormPage');
const AgenciesPage = page(() => import('./pages/agency.tsx'), 'AgenciesPage');
const AgencyNewPage = page(() => import('./pages/agency.tsx'), 'AgencyNewPage');
const AgencyPage = page(() => import('./pages/agency.tsx'), 'AgencyPage');
const AgencySettingsPage = page(() => import('./pages/agency.tsx'), 'AgencySettingsPage');
const ImportsPage = page(() => import('./pages/onboarding.tsx'), 'ImportsPage');
const ReportRepair = page(() => import('./pages/report.tsx'), 'ReportRepair');
const ContractorScorecardPage = page(() => import('./pages/reporting.tsx'), 'ContractorScorecardPage');
const FlowEditor = page(() => import('./pages/reporting.tsx'), 'FlowEditor');
const FlowsPage = page(() => import('./pages/reporting.tsx'), 'FlowsPage');
const GuidedReport = page(() => import('./pages/reporting.tsx'), 'GuidedReport');
const SurveyPage = page(() => import('./pages/reporting.tsx'), 'SurveyPage');
const VisitLinkPage = page(() => import('./pages/visit.tsx'), 'VisitLinkPage');
const SearchPage = page(() => import('./pages/search.tsx'), 'SearchPage');
const SlaRulesPage = page(() => import('./pages/sla-rules.tsx'), 'SlaRulesPage');
const TemplatesPage = page(() => import('./pages/templates.tsx'), 'TemplatesPage');
const TemplateEditPage = page(() => import('./pages/templates.tsx'), 'TemplateEditPage');
const LandlordsPage = page(() => import('./pages/landlords.tsx'), 'LandlordsPage');
const LandlordPage = page(() => import('./pages/landlords.tsx'), 'LandlordPage');
const PropertyPage = page(() => import('./pages/property.tsx'), 'PropertyPage');
const WebhooksPage = page(() => import('./pages/office-admin.tsx'), 'WebhooksPage');
const NoticesPage = page(() => import('./pages/office-admin.tsx'), 'NoticesPage');
const RolesPage = page(() => import('./pages/office-admin.tsx'), 'RolesPage');
const OperationsPage = page(() => import('./pages/office-ops.tsx'), 'OperationsPage');
const ReportsPage = page(() => import('./pages/office-ops.tsx'), 'ReportsPage');
const SetupPage = page(() => import('./pages/office-setup.tsx'), 'SetupPage');
const PricingPage = page(() => import('./pages/pricing.tsx'), 'PricingPage');

/**
 * A route open only to callers holding `permission` (and, with `staffOnly`, only to staff): others
 * get a page saying it is not available to them, never the API's refusal above an empty form.
 */
function Guard({ permission, staffOnly = false, children }: { permission: string; staffOnly?: boolean; children: ReactNode }) {
  const session = useSession();
  if (session.permissions.has(permission) && (!staffOnly || session.party === 'staff')) return children;
  return <NotAvailable />;
}

function NotAvailable() {
  const session = useSession();
  return (
    <>
      <PageTitle>Not available</PageTitle>
      <p>This page is not part of your account{session.party === 'tenant' ? ': it is for the letting agency’s staff' : ''}.</p>
      <p>
        <Link to="/">Go to your start page</Link>
      </p>
    </>
  );
}

function Home() {
  const session = useSession();
  // SysOps (no agency of their own) start on the agencies they look after, not an empty job board.
  if (session.permissions.has('api.agencies.manage') && !session.me?.agency_uuid) return <Navigate to="/agencies" replace />;
  return <Navigate to={session.party === 'staff' && session.permissions.has('api.dashboard.view') ? '/dashboard' : '/jobs'} replace />;
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        <Link to="/">Go to the start page</Link>
      </p>
    </>
  );
}


/** The routes, with the session. */
export function AppRoutes() {
  return (
    <BrowserRouter>
      <SessionProvider>
        <Routes>
          <Route path="/sign-in" element={<Suspense fallback={PAGE_LOADING}><SignIn /></Suspense>} />
          <Route path="/accept-invitation" element={<Suspense fallback={PAGE_LOADING}><AcceptInvitation /></Suspense>} />
          <Route path="/reset-password" element={<Suspense fallback={PAGE_LOADING}><ResetPassword /></Suspense>} />
          <Route path="/survey" element={<Suspense fallback={PAGE_LOADING}><SurveyPage /></Suspense>} />
          <Route path="/visit" element={<Suspense fallback={PAGE_LOADING}><VisitLinkPage /></Suspense>} />
          <Route element={<Layout />}>
            <Route index element={<Home />} />
            <Route
              path="/dashboard"
              element={
                <Guard permission="api.dashboard.view" staffOnly>
                  <DashboardPage />
                </Guard>
              }
            />
            <Route path="/jobs" element={<Jobs />} />
            <Route path="/jobs/new" element={<ReportRepair />} />
            <Route path="/report" element={<GuidedReport />} />
            <Route
              path="/flows"
              element={
                <Guard permission="api.reporting.flows.manage">
                  <FlowsPage />
                </Guard>
              }
            />
            <Route
              path="/flows/:code"
              element={
                <Guard permission="api.reporting.flows.manage">
                  <FlowEditor />
                </Guard>
              }
            />
            <Route
              path="/contractors/:uuid"
              element={
                <Guard permission="api.contractors.view" staffOnly>
                  <ContractorScorecardPage />
                </Guard>
              }
            />
            <Route path="/jobs/:uuid" element={<JobPage />} />
            <Route
              path="/calendar"
              element={
                <Guard permission="api.calendar.view">
                  <CalendarPage />
                </Guard>
              }
            />
            <Route
              path="/contractors"
              element={
                <Guard permission="api.contractors.view" staffOnly>
                  <ContractorsPage />
                </Guard>
              }
            />
            <Route
              path="/tenants"
              element={
                <Guard permission="api.tenants.view" staffOnly>
                  <TenantsPage />
                </Guard>
              }
            />
            <Route
              path="/addresses"
              element={
                <Guard permission="api.addresses.view" staffOnly>
                  <AddressesPage />
                </Guard>
              }
            />
            <Route
              path="/landlords"
              element={
                <Guard permission="api.landlords.view" staffOnly>
                  <LandlordsPage />
                </Guard>
              }
            />
            <Route
              path="/landlords/:uuid"
              element={
                <Guard permission="api.landlords.view" staffOnly>
                  <LandlordPage />
                </Guard>
              }
            />
            <Route
              path="/properties/:uuid"
              element={
                <Guard permission="api.addresses.view" staffOnly>
                  <PropertyPage />
                </Guard>
              }
            />
            <Route
              path="/invoices"
              element={
                <Guard permission="api.invoices.view" staffOnly>
                  <InvoicesPage />
                </Guard>
              }
            />
            <Route
              path="/invoices/:uuid"
              element={
                <Guard permission="api.invoices.view" staffOnly>
                  <InvoicePage />
                </Guard>
              }
            />
            <Route
              path="/exports"
              element={
                <Guard permission="api.reports.view" staffOnly>
                  <ExportsPage />
                </Guard>
              }
            />
            <Route
              path="/search"
              element={
                <Guard permission="api.search.view" staffOnly>
                  <SearchPage />
                </Guard>
              }
            />
            <Route
              path="/users"
              element={
                <Guard permission="api.users.manage">
                  <UsersPage />
                </Guard>
              }
            />
            <Route
              path="/branches"
              element={
                <Guard permission="api.admin.branches.view" staffOnly>
                  <BranchesPage />
                </Guard>
              }
            />
            <Route
              path="/buildings"
              element={
                <Guard permission="api.addresses.view" staffOnly>
                  <BuildingsPage />
                </Guard>
              }
            />
            <Route
              path="/buildings/:uuid"
              element={
                <Guard permission="api.addresses.view" staffOnly>
                  <BuildingPage />
                </Guard>
              }
            />
            <Route
              path="/agents"
              element={
                <Guard permission="api.agents.view" staffOnly>
                  <AgentsPage />
                </Guard>
              }
            />
            <Route
              path="/activity"
              element={
                <Guard permission="api.admin.activity-log.manage">
                  <ActivityPage />
                </Guard>
              }
            />
            <Route
              path="/agencies"
              element={
                <Guard permission="api.agencies.manage">
                  <AgenciesPage />
                </Guard>
              }
            />
            <Route
              path="/agencies/new"
              element={
                <Guard permission="api.agencies.manage">
                  <AgencyNewPage />
                </Guard>
              }
            />
            <Route
              path="/agencies/:uuid"
              element={
                <Guard permission="api.agencies.view">
                  <AgencyPage />
                </Guard>
              }
            />
            <Route
              path="/settings"
              element={
                <Guard permission="api.agencies.current.manage" staffOnly>
                  <AgencySettingsPage />
                </Guard>
              }
            />
            <Route
              path="/imports"
              element={
                <Guard permission="api.imports.manage">
                  <ImportsPage />
                </Guard>
              }
            />
            <Route
              path="/imports/:uuid"
              element={
                <Guard permission="api.imports.manage">
                  <ImportPage />
                </Guard>
              }
            />
            <Route
              path="/compliance"
              element={
                <Guard permission="api.compliance.view" staffOnly>
                  <CompliancePage />
                </Guard>
              }
            />
            <Route
              path="/compliance/schedules/:uuid"
              element={
                <Guard permission="api.compliance.view" staffOnly>
                  <SchedulePage />
                </Guard>
              }
            />
            <Route
              path="/contractors/new"
              element={
                <Guard permission="api.contractors.manage" staffOnly>
                  <ContractorFormPage />
                </Guard>
              }
            />
            <Route
              path="/contractors/:uuid/edit"
              element={
                <Guard permission="api.contractors.manage" staffOnly>
                  <ContractorFormPage />
                </Guard>
              }
            />
            <Route
              path="/tenants/new"
              element={
                <Guard permission="api.tenants.manage" staffOnly>
                  <TenantFormPage />
                </Guard>
              }
            />
            <Route
              path="/tenants/:uuid/edit"
              element={
                <Guard permission="api.tenants.manage" staffOnly>
                  <TenantFormPage />
                </Guard>
              }
            />
            <Route
              path="/addresses/new"
              element={
                <Guard permission="api.addresses.manage" staffOnly>
                  <AddressFormPage />
                </Guard>
              }
            />
            <Route
              path="/addresses/:uuid/edit"
              element={
                <Guard permission="api.addresses.manage" staffOnly>
                  <AddressFormPage />
                </Guard>
              }
            />
            <Route
              path="/users/new"
              element={
                <Guard permission="api.users.manage">
                  <UserFormPage />
                </Guard>
              }
            />
            <Route
              path="/users/:uuid/edit"
              element={
                <Guard permission="api.users.manage">
                  <UserFormPage />
                </Guard>
              }
            />
            <Route
              path="/sla-rules"
              element={
                <Guard permission="api.agents.branch_sla_response_times.manage" staffOnly>
                  <SlaRulesPage />
                </Guard>
              }
            />
            <Route
              path="/templates"
              element={
                <Guard permission="api.messaging.templates.manage" staffOnly>
                  <TemplatesPage />
                </Guard>
              }
            />
            <Route
              path="/templates/:id"
              element={
                <Guard permission="api.messaging.templates.manage" staffOnly>
                  <TemplateEditPage />
                </Guard>
              }
            />
            <Route
              path="/webhooks"
              element={
                <Guard permission="api.webhooks.manage" staffOnly>
                  <WebhooksPage />
                </Guard>
              }
            />
            <Route
              path="/notices"
              element={
                <Guard permission="api.notices.view" staffOnly>
                  <NoticesPage />
                </Guard>
              }
            />
            <Route
              path="/roles"
              element={
                <Guard permission="api.admin.roles.view" staffOnly>
                  <RolesPage />
                </Guard>
              }
            />
            <Route
              path="/operations"
              element={
                <Guard permission="api.system.queue.view">
                  <OperationsPage />
                </Guard>
              }
            />
            <Route
              path="/reports"
              element={
                <Guard permission="api.reports.view" staffOnly>
                  <ReportsPage />
                </Guard>
              }
            />
            <Route
              path="/setup"
              element={
                <Guard permission="api.contractors.view" staffOnly>
                  <SetupPage />
                </Guard>
              }
            />
            <Route
              path="/pricing"
              element={
                <Guard permission="api.pricing.view" staffOnly>
                  <PricingPage />
                </Guard>
              }
            />
            <Route
              path="/quote-requests"
              element={
                <Guard permission="api.quote-requests.respond">
                  <QuoteInvitationsPage />
                </Guard>
              }
            />
            <Route path="/account" element={<Account />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
