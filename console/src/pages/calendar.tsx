/**
 * The week calendar (GET /api/calendar): the booked visits of the caller's jobs from Monday to
 * Sunday, one day after another (a list on a phone, seven columns on a desktop). The week is in
 * the URL (`/calendar?week=2026-11-23`).
 */
import { Link, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { addDays, mondayOf } from '../logic/dates.ts';
import { Button, PageTitle, ProblemMessage, useLoad } from '../ui.tsx';
import { StatusBadge } from './jobs.tsx';

/** The calendar page. */
export function CalendarPage() {
  const [search, setSearch] = useSearchParams();
  const monday = mondayOf(search.get('week'));
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const visits = useLoad(['calendar', monday], async () => {
    const { data } = await api.GET('/api/calendar', { params: { query: { from_date: monday, to_date: days[6]!, limit: 200 } } });
    return data!.data;
  });
  const label = (iso: string, opts: Intl.DateTimeFormatOptions) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { ...opts, timeZone: 'UTC' });
  return (
    <>
      <PageTitle>{`Week of ${label(monday, { day: 'numeric', month: 'long', year: 'numeric' })}`}</PageTitle>
      <nav className="pager" aria-label="Weeks">
        <Button variant="secondary" onPress={() => setSearch({ week: addDays(monday, -7) })}>
          Previous week
        </Button>
        <Button variant="secondary" onPress={() => setSearch({})}>
          This week
        </Button>
        <Button variant="secondary" onPress={() => setSearch({ week: addDays(monday, 7) })}>
          Next week
        </Button>
      </nav>
      <ProblemMessage problem={visits.problem} onRetry={visits.reload} />
      <ol className="week">
        {days.map((day) => {
          const today = (visits.data ?? []).filter((v) => v.date === day);
          return (
            <li key={day} className="day">
              <h2>{label(day, { weekday: 'long', day: 'numeric', month: 'short' })}</h2>
              {today.length === 0 ? <p className="hint">No visits</p> : null}
              <ul>
                {today.map((v) => (
                  <li key={v.job_uuid} className="visit">
                    <Link to={`/jobs/${v.job_uuid}`}>
                      {v.reference} {v.title}
                    </Link>
                    <span className="meta">
                      {v.time_range?.range_label ?? 'Any time'}
                      {v.contractor_name ? ` · ${v.contractor_name}` : ''}
                      {v.location ? ` · ${v.location}` : ''}
                    </span>
                    <StatusBadge status={v.status} statusId={v.status_id} />
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
    </>
  );
}
