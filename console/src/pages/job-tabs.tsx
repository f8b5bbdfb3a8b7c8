/**
 * The job page's tabs (pages/job.tsx): react-aria-components' Tabs (arrow keys, Home and End,
 * selection following focus) over the sections the caller lists, each tab's panel a chunk of its
 * own loaded when the tab is first shown. A chunk of its own, loaded once the job has been painted,
 * so that react-aria's collection and selection code the Tabs are built on is not downloaded before
 * the job's first view (docs/console.md "How it is built and served"); `TabsPlaceholder` in
 * pages/job.tsx stands in its place until then.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import type { Party } from '../logic/transitions.ts';
import type { Conversations } from './job-threads.tsx';
import type { JobRow } from './jobs.tsx';

const Photos = lazy(async () => ({ default: (await import('./job-photos.tsx')).Photos }));
const Documents = lazy(async () => ({ default: (await import('./job-files.tsx')).Documents }));
const Notes = lazy(async () => ({ default: (await import('./job-notes.tsx')).Notes }));
const ConversationsPanel = lazy(async () => ({ default: (await import('./job-conversations.tsx')).ConversationsPanel }));
const JobMoney = lazy(async () => ({ default: (await import('./job-money.tsx')).JobMoney }));
const QuoteRequests = lazy(async () => ({ default: (await import('./job-quote-requests.tsx')).QuoteRequests }));
const WorksOrderLinks = lazy(async () => ({ default: (await import('./job-outside.tsx')).WorksOrderLinks }));
const LinkedJobs = lazy(async () => ({ default: (await import('./job-manage.tsx')).LinkedJobs }));
const PriceEstimate = lazy(async () => ({ default: (await import('./job-manage.tsx')).PriceEstimate }));

/** One of the job page's tabs: `id` its key (the address's `?tab=`), `label` what the tab shows. */
export interface JobTab {
  id: string;
  label: ReactNode;
}

/** What a tab shows while its chunk downloads. */
const TAB_LOADING = <p className="loading">Loading…</p>;

/**
 * The job page's tabs and the selected one's panel.
 * @param tabs the tabs to show, in order (the caller leaves out those the party may not see)
 * @param selected the id of the tab shown; `onSelect` is called with a tab's id when the user picks it
 * @param jobUuid the job's uuid (the page's address); `job` the job as read; `party` the signed-in party; `conversations` the job's threads for Messages
 */
export function JobTabs({
  tabs,
  selected,
  onSelect,
  jobUuid,
  job,
  party,
  conversations,
}: {
  tabs: JobTab[];
  selected: string;
  onSelect: (id: string) => void;
  jobUuid: string;
  job: JobRow;
  party: Party;
  conversations: Conversations;
}) {
  const uuid = jobUuid;
  const panel = (id: string): ReactNode => {
    switch (id) {
      case 'photos':
        return (
          <>
            <Photos uuid={uuid} reference={job.reference} />
            <Documents uuid={uuid} />
          </>
        );
      case 'notes':
        return <Notes uuid={uuid} reference={job.reference} />;
      case 'messages':
        return <ConversationsPanel jobUuid={uuid} conversations={conversations} />;
      case 'money':
        return (
          <>
            <JobMoney jobUuid={uuid} statusId={job.status_id} contractorUuid={job.contractor_uuid} />
            {party === 'staff' ? <QuoteRequests jobUuid={uuid} /> : null}
            {party === 'staff' ? <PriceEstimate jobUuid={uuid} /> : null}
          </>
        );
      case 'links':
        return (
          <>
            <WorksOrderLinks jobUuid={uuid} hasContractor={Boolean(job.contractor_uuid)} />
            <LinkedJobs jobUuid={uuid} />
          </>
        );
      default:
        return null;
    }
  };
  return (
    <Tabs className="tabs" selectedKey={selected} onSelectionChange={(k: Key) => onSelect(String(k))}>
      <TabList aria-label="Job sections">
        {tabs.map((t) => (
          <Tab key={t.id} id={t.id} className="tab">
            {t.label}
          </Tab>
        ))}
      </TabList>
      {tabs.map((t) => (
        <TabPanel key={t.id} id={t.id} className="tab-panel">
          <Suspense fallback={TAB_LOADING}>{panel(t.id)}</Suspense>
        </TabPanel>
      ))}
    </Tabs>
  );
}
