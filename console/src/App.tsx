/**
 * The console's shell: routes, the header with the navigation for the caller's role and the
 * session's expiry, and the guard that sends a signed-out visitor to the sign-in page (keeping
 * where they were going).
 */
import { useEffect, useState } from 'react';
import { BrowserRouter, Link, Navigate, NavLink, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { describeRemaining, sessionTimes } from './logic/session.ts';
import { AcceptInvitation, Account, ResetPassword, SignIn } from './pages/auth.tsx';
import { CalendarPage } from './pages/calendar.tsx';
import { DashboardPage } from './pages/dashboard.tsx';
import { ActivityPage, AddressesPage, BranchesPage, ContractorsPage, TenantsPage, UsersPage } from './pages/lists.tsx';
import { CompliancePage } from './pages/compliance.tsx';
import { InvoicesPage } from './pages/invoices.tsx';
import { JobPage } from './pages/job.tsx';
import { AgenciesPage, ImportsPage } from './pages/onboarding.tsx';
import { Jobs } from './pages/jobs.tsx';
import { ReportRepair } from './pages/report.tsx';
import { ContractorScorecardPage, FlowEditor, FlowsPage, GuidedReport, SurveyPage } from './pages/reporting.tsx';
import { HeaderSearch, SearchPage } from './pages/search.tsx';
import { SessionProvider, useSession } from './session.tsx';
import { Button } from './ui.tsx';

/** "Session ends in 29 min (after 30 min without activity; at the latest 11:00)". */
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

/** The pages beyond the jobs that the caller's permissions open: [path, label]. */
function extraPages(permissions: Set<string>, staff: boolean): Array<[string, string]> {
  const pages: Array<[string, string, boolean]> = [
    ['/calendar', 'Calendar', permissions.has('api.calendar.view')],
    ['/contractors', 'Contractors', staff && permissions.has('api.contractors.view')],
    ['/tenants', 'Tenants', staff && permissions.has('api.tenants.view')],
    ['/addresses', 'Addresses', staff && permissions.has('api.addresses.view')],
    ['/invoices', 'Invoices', staff && permissions.has('api.invoices.view')],
    ['/compliance', 'Compliance', staff && permissions.has('api.compliance.view')],
    ['/users', 'Users', permissions.has('api.users.manage')],
    ['/branches', 'Branches', staff && permissions.has('api.admin.branches.view')],
    ['/activity', 'Activity', permissions.has('api.admin.activity-log.manage')],
    ['/flows', 'Triage flows', permissions.has('api.reporting.flows.manage')],
    ['/agencies', 'Agencies', permissions.has('api.agencies.manage')],
    ['/imports', 'Import', permissions.has('api.imports.manage')],
  ];
  return pages.filter((p) => p[2]).map(([to, label]) => [to, label]);
}

function Layout() {
  const session = useSession();
  const navigate = useNavigate();
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
          <Link to="/" className="brand">
            Caretaker
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
            {extraPages(session.permissions, staff).map(([to, label]) => (
              <li key={to}>
                <NavLink to={to}>{label}</NavLink>
              </li>
            ))}
            <li>
              <NavLink to="/account">Account</NavLink>
            </li>
          </ul>
          <div className="who">
            <span>
              {session.me.name} ({session.me.role})
            </span>
            <Button
              variant="secondary"
              onPress={() => {
                // To the sign-in page first: once the session is gone this layout unmounts.
                navigate(`/sign-in?done=${encodeURIComponent('You have signed out.')}`, { replace: true });
                void session.signOut();
              }}
            >
              Sign out
            </Button>
          </div>
        </nav>
        {staff && session.permissions.has('api.search.view') ? <HeaderSearch /> : null}
        <SessionClock />
      </header>
      <main id="main">
        <Outlet />
      </main>
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

/** The app with its routes. */
export function App() {
  return (
    <BrowserRouter>
      <SessionProvider>
        <Routes>
          <Route path="/sign-in" element={<SignIn />} />
          <Route path="/accept-invitation" element={<AcceptInvitation />} />
          <Route path="/reset-password" element={<ResetPassword />} />
          <Route path="/survey" element={<SurveyPage />} />
          <Route element={<Layout />}>
            <Route index element={<Home />} />
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/jobs" element={<Jobs />} />
            <Route path="/jobs/new" element={<ReportRepair />} />
            <Route path="/report" element={<GuidedReport />} />
            <Route path="/flows" element={<FlowsPage />} />
            <Route path="/flows/:code" element={<FlowEditor />} />
            <Route path="/contractors/:uuid" element={<ContractorScorecardPage />} />
            <Route path="/jobs/:uuid" element={<JobPage />} />
            <Route path="/calendar" element={<CalendarPage />} />
            <Route path="/contractors" element={<ContractorsPage />} />
            <Route path="/tenants" element={<TenantsPage />} />
            <Route path="/addresses" element={<AddressesPage />} />
            <Route path="/invoices" element={<InvoicesPage />} />
            <Route path="/compliance" element={<CompliancePage />} />
            <Route path="/search" element={<SearchPage />} />
            <Route path="/users" element={<UsersPage />} />
            <Route path="/branches" element={<BranchesPage />} />
            <Route path="/activity" element={<ActivityPage />} />
            <Route path="/agencies" element={<AgenciesPage />} />
            <Route path="/imports" element={<ImportsPage />} />
            <Route path="/account" element={<Account />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
