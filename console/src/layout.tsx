/**
 * The console's shell around every signed-in page: the header with the navigation for the
 * caller's role and the user menu (the session's expiry, account, administration pages, sign out),
 * the redirect of a signed-out visitor to the sign-in page (keeping where they were going), and
 * the offline banner of the installable app (phone.tsx) above the page when there is something to
 * say. The routes that show the pages in it are in routes.tsx.
 */
import { Suspense, useEffect, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { describeRemaining, sessionTimes } from './logic/session.ts';
import { HeaderSearch } from './pages/header-search.tsx';
import { discardOutbox } from './outbox.ts';
import { OfflineBanner, useOutbox } from './phone.tsx';
import { useSession } from './session.tsx';
import { Button, Logo, useConfirm } from './ui.tsx';

/** What shows while a page's chunk downloads. */
export const PAGE_LOADING = <p className="loading">Loading…</p>;

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
    ['/quote-requests', 'Quote requests', !staff && permissions.has('api.quote-requests.respond')],
    ['/contractors', 'Contractors', staff && permissions.has('api.contractors.view')],
    ['/tenants', 'Tenants', staff && permissions.has('api.tenants.view')],
    ['/addresses', 'Addresses', staff && permissions.has('api.addresses.view')],
    ['/landlords', 'Landlords', staff && permissions.has('api.landlords.view')],
    ['/invoices', 'Invoices', staff && permissions.has('api.invoices.view')],
    ['/compliance', 'Compliance', staff && permissions.has('api.compliance.view')],
    ['/agencies', 'Agencies', permissions.has('api.agencies.manage')],
  ];
}

/** The administration pages, listed in the user menu (so the navigation stays on one line). */
function adminPages(permissions: Set<string>, staff: boolean): NavPage[] {
  return [
    ['/users', 'Users', permissions.has('api.users.manage')],
    ['/roles', 'Roles and permissions', staff && permissions.has('api.admin.roles.view')],
    ['/branches', 'Branches', staff && permissions.has('api.admin.branches.view')],
    ['/agents', 'Agents', staff && permissions.has('api.agents.view')],
    ['/buildings', 'Buildings', staff && permissions.has('api.addresses.view')],
    ['/activity', 'Activity log', permissions.has('api.admin.activity-log.manage')],
    ['/flows', 'Triage flows', permissions.has('api.reporting.flows.manage')],
    ['/sla-rules', 'SLA rules', staff && permissions.has('api.agents.branch_sla_response_times.manage')],
    ['/templates', 'Message templates', staff && permissions.has('api.messaging.templates.manage')],
    ['/reports', 'Performance', staff && permissions.has('api.reports.view')],
    ['/exports', 'Exports and reports', staff && permissions.has('api.reports.view')],
    ['/notices', 'Notices', staff && permissions.has('api.notices.view')],
    ['/setup', 'Lists and rules', staff && permissions.has('api.contractors.view') && permissions.has('api.reporting.flows.manage')],
    ['/pricing', 'Price list', staff && permissions.has('api.pricing.view')],
    ['/webhooks', 'Webhooks', staff && permissions.has('api.webhooks.manage')],
    ['/operations', 'Operations', permissions.has('api.system.queue.view')],
    ['/settings', 'Agency settings', staff && permissions.has('api.agencies.current.manage')],
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
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
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
      <div id="user-panel" className="user-panel" hidden={!open} onClick={closeOnLink(setOpen)}>
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

/**
 * A menu's click handler that closes it when the click followed one of its links. The menus close
 * on the link, not on every change of address: a redirect that lands after the menu was opened (the
 * first page's code still loading when the person opens the menu) leaves it open.
 */
function closeOnLink(setOpen: (open: boolean) => void): (e: ReactMouseEvent<HTMLElement>) => void {
  return (e) => {
    if (e.target instanceof Element && e.target.closest('a')) setOpen(false);
  };
}

/** The signed-in pages' frame: header, navigation, user menu, offline banner, and the page (Outlet). */
export function Layout() {
  const session = useSession();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
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
        <nav id="nav" aria-label="Main" className={menuOpen ? 'open' : ''} onClick={closeOnLink(setMenuOpen)}>
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
