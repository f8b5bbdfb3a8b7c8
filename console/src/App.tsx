/**
 * The console's shell: routes, the header with the navigation for the caller's role and the user
 * menu (the session's expiry, account, administration pages, sign out), the guard that sends a
 * signed-out visitor to the sign-in page (keeping where they were going), and the guards that
 * show "Not available" on a page the caller's permissions do not open. Every signed-in page starts
 * with the offline banner of the installable app (phone.tsx) when there is something to say.
 */
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Link, Navigate, NavLink, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { onWrite } from './api.ts';
import { describeRemaining, sessionTimes } from './logic/session.ts';
import { AcceptInvitation, Account, ResetPassword, SignIn } from './pages/auth.tsx';
import { Jobs } from './pages/jobs.tsx';
import { HeaderSearch } from './pages/search.tsx';
import { discardOutbox } from './outbox.ts';
import { OfflineBanner, useOutbox } from './phone.tsx';
import { queryClient } from './query.ts';
import { SessionProvider, useSession } from './session.tsx';
import { Button, Logo, PageTitle, useConfirm } from './ui.tsx';

/**
 * A page loaded when first opened (its own chunk, fetched by React.lazy): the sign-in pages and the
 * job board, the first views, are in the main bundle; every other page downloads only when a
 * route shows it (docs/console.md "How it is built and served").
 * @param load the dynamic import of the page's module
 * @param name the page's export in that module
 */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const CalendarPage = page(() => import('./pages/calendar.tsx'), 'CalendarPage');
const DashboardPage = page(() => import('./pages/dashboard.tsx'), 'DashboardPage');
const ActivityPage = page(() => import('./pages/lists.tsx'), 'ActivityPage');
const AddressesPage = page(() => import('./pages/lists.tsx'), 'AddressesPage');
const BranchesPage = page(() => import('./pages/lists.tsx'), 'BranchesPage');
const ContractorsPage = page(() => import('./pages/lists.tsx'), 'ContractorsPage');
const TenantsPage = page(() => import('./pages/lists.tsx'), 'TenantsPage');
const UsersPage = page(() => import('./pages/lists.tsx'), 'UsersPage');
const CompliancePage = page(() => import('./pages/compliance.tsx'), 'CompliancePage');
const InvoicesPage = page(() => import('./pages/invoices.tsx'), 'InvoicesPage');
const JobPage = page(() => import('./pages/job.tsx'), 'JobPage');
const AddressFormPage = page(() => import('./pages/people-forms.tsx'), 'AddressFormPage');
const ContractorFormPage = page(() => import('./pages/people-forms.tsx'), 'ContractorFormPage');
const TenantFormPage = page(() => import('./pages/people-forms.tsx'), 'TenantFormPage');
const UserFormPage = page(() => import('./pages/people-forms.tsx'), 'UserFormPage');
const AgenciesPage = page(() => import('./pages/onboarding.tsx'), 'AgenciesPage');
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

/** What shows while a page's chunk downloads. */
const PAGE_LOADING = <p className="loading">Loading…</p>;

/** "Signed in; ends after 30 min idle (in 29 min), at the latest 11:00", once, in the user menu. */
function SessionClock() {
  const session = useSession();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  if (!session.me) return null;
  const times = sessionTimes(session.me.session.expires_at, session.lastActivity, session.rememberMe);
  const latest = times.absoluteAt.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  const latestDay = times.absoluteAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
  return (
    <p className="session-clock">
      {times.idleAt
        ? `Signed in; ends after 30 min idle (in ${describeRemaining(times.endsAt.getTime() - now)}), at the latest ${latest}`
        : `Signed in until ${latestDay} ${latest}`}
    </p>
  );
}

/** A page of the navigation: path, label, and whether the caller's permissions open it. */
type NavPage = [to: string, label: string, open: boolean];

/** The work pages of the main navigation beyond the jobs. */
function workPages(permissions: Set<string>, staff: boolean): NavPage[] {
  return [
    ['/calendar', 'Calendar', permissions.has('api.calendar.view')],
    ['/contractors', 'Contractors', staff && permissions.has('api.contractors.view')],
    ['/tenants', 'Tenants', staff && permissions.has('api.tenants.view')],
    ['/addresses', 'Addresses', staff && permissions.has('api.addresses.view')],
    ['/invoices', 'Invoices', staff && permissions.has('api.invoices.view')],
    ['/compliance', 'Compliance', staff && permissions.has('api.compliance.view')],
  ];
}

/** The administration pages, listed in the user menu (so the navigation stays on one line). */
function adminPages(permissions: Set<string>, staff: boolean): NavPage[] {
  return [
    ['/users', 'Users', permissions.has('api.users.manage')],
    ['/branches', 'Branches', staff && permissions.has('api.admin.branches.view')],
    ['/activity', 'Activity log', permissions.has('api.admin.activity-log.manage')],
    ['/flows', 'Triage flows', permissions.has('api.reporting.flows.manage')],
    ['/sla-rules', 'SLA rules', staff && permissions.has('api.agents.branch_sla_response_times.manage')],
    ['/templates', 'Message templates', staff && permissions.has('api.messaging.templates.manage')],
    ['/agencies', 'Agencies', permissions.has('api.agencies.manage')],
    ['/imports', 'Import', permissions.has('api.imports.manage')],
  ];
}

/**
 * The signed-in person's menu: who, the session's end, their account, administration pages and
 * sign out. With changes made offline still waiting to be sent (outbox.ts), signing out asks
 * first, since it deletes them (docs/console.md "On a phone: the installable app").
 */
function UserMenu() {
  const session = useSession();
  const navigate = useNavigate();
  const waiting = useOutbox().waiting.length;
  const { ask, dialog } = useConfirm();
  const signOut = () => {
    // To the sign-in page first: once the session is gone this layout unmounts.
    navigate(`/sign-in?done=${encodeURIComponent('You have signed out.')}`, { replace: true });
    void session.signOut();
  };
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  if (!session.me) return null;
  const admin = adminPages(session.permissions, session.party === 'staff').filter((p) => p[2]);
  return (
    <div className="user-menu" ref={ref}>
      <button type="button" className="user-toggle" aria-expanded={open} aria-controls="user-panel" onClick={() => setOpen((o) => !o)}>
        <span className="user-name">{session.me.name}</span> <span className="user-role">{session.me.role}</span>
      </button>
      <div id="user-panel" className="user-panel" hidden={!open}>
        <SessionClock />
        <ul>
          <li>
            <NavLink to="/account">Account</NavLink>
          </li>
          {admin.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to}>{label}</NavLink>
            </li>
          ))}
        </ul>
        <Button
          variant="secondary"
          onPress={() => {
            if (waiting === 0) return signOut();
            ask({
              title: 'Sign out?',
              body: <p>{waiting === 1 ? '1 change made offline has not been sent yet.' : `${waiting} changes made offline have not been sent yet.`} Signing out deletes them.</p>,
              confirmLabel: 'Sign out and delete',
              cancelLabel: 'Cancel',
              danger: true,
              onConfirm: () => void discardOutbox().then(signOut),
            });
          }}
        >
          Sign out
        </Button>
      </div>
      {dialog}
    </div>
  );
}

function Layout() {
  const session = useSession();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location.pathname]);
  if (session.loading) return <p className="loading">Loading…</p>;
  if (!session.me) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  const staff = session.party === 'staff';
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="top">
        <div className="top-row">
          <Link to="/" className="brand" aria-label="Caretaker, start page">
            <Logo />
          </Link>
          <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen((o) => !o)}>
            Menu
          </button>
        </div>
        <nav id="nav" aria-label="Main" className={menuOpen ? 'open' : ''}>
          <ul>
            {staff && session.permissions.has('api.dashboard.view') ? (
              <li>
                <NavLink to="/dashboard">Dashboard</NavLink>
              </li>
            ) : null}
            <li>
              <NavLink to="/jobs" end>
                {session.party === 'tenant' ? 'My repairs' : session.party === 'contractor' ? 'My jobs' : 'Jobs'}
              </NavLink>
            </li>
            {session.party !== 'contractor' ? (
              <li>
                <NavLink to={session.party === 'tenant' ? '/report' : '/jobs/new'}>{session.party === 'tenant' ? 'Report a repair' : 'New job'}</NavLink>
              </li>
            ) : null}
            {workPages(session.permissions, staff)
              .filter((p) => p[2])
              .map(([to, label]) => (
                <li key={to}>
                  <NavLink to={to}>{label}</NavLink>
                </li>
              ))}
          </ul>
          <UserMenu />
        </nav>
        {staff && session.permissions.has('api.search.view') ? <HeaderSearch /> : null}
      </header>
      <main id="main">
        <OfflineBanner />
        <Suspense fallback={PAGE_LOADING}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}

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

/** The app: its routes under the one TanStack Query client (query.ts) that every page's data goes through. */
export function App() {
  // After a write, the cached data of pages not on screen may be out of date: it is dropped, so
  // they load afresh when opened; the page on screen reloads what it shows itself.
  useEffect(() => onWrite(() => queryClient.removeQueries({ type: 'inactive' })), []);
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
    </QueryClientProvider>
  );
}

/** The routes, with the session. */
function AppRoutes() {
  return (
    <BrowserRouter>
      <SessionProvider>
        <Routes>
          <Route path="/sign-in" element={<SignIn />} />
          <Route path="/accept-invitation" element={<AcceptInvitation />} />
          <Route path="/reset-password" element={<ResetPassword />} />
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
              path="/invoices"
              element={
                <Guard permission="api.invoices.view" staffOnly>
                  <InvoicesPage />
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
              path="/imports"
              element={
                <Guard permission="api.imports.manage">
                  <ImportsPage />
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
            <Route path="/account" element={<Account />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
