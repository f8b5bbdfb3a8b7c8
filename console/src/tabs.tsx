/**
 * Tabs as WAI-ARIA's tabs pattern (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/) asks, with the
 * markup and keys react-aria-components' Tabs gave the job page before (docs/console.md "How it is
 * built and served"): a `tablist` of `tab`s, the selected one `aria-selected` with `tabindex=0`
 * and `data-selected` (the others `tabindex=-1`), Left and Right arrows moving to the previous and
 * next tab (wrapping) and Home and End to the first and last, each selecting the tab it reaches
 * (automatic activation), a click or tap selecting, and the selected tab's `tabpanel` alone
 * rendered, labelled by its tab and itself focusable when nothing in it is. Written here because
 * react-aria-components' Tabs builds its tabs with its collection and selection code (about 15 kB
 * compressed with the tabs' own), which the job page's first view otherwise does not need.
 */
import { createContext, useContext, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

interface TabsState {
  base: string;
  selected: string;
  select: (key: string) => void;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error('Tab, TabList and TabPanel go inside Tabs');
  return state;
}

const tabId = (base: string, key: string) => `${base}-tab-${key}`;
const panelId = (base: string, key: string) => `${base}-tabpanel-${key}`;

/**
 * The tabs: `selectedKey` the id of the tab shown, `onSelectionChange` called with a tab's id when
 * the user picks it (the caller keeps the selection, as in the address's `?tab=`).
 */
export function Tabs({ className, selectedKey, onSelectionChange, children }: { className?: string; selectedKey: string; onSelectionChange: (key: string) => void; children: ReactNode }) {
  const base = useId();
  return (
    <div className={className} data-orientation="horizontal">
      <TabsContext value={{ base, selected: selectedKey, select: onSelectionChange }}>{children}</TabsContext>
    </div>
  );
}

/** The row of tabs, named by `aria-label`; handles the arrow keys, Home and End. */
export function TabList({ children, ...props }: { 'aria-label': string; children: ReactNode }) {
  const { select } = useTabs();
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
    const at = tabs.findIndex((t) => t === document.activeElement);
    if (at < 0) return;
    const to = e.key === 'ArrowRight' ? (at + 1) % tabs.length : e.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    const next = tabs[to]!;
    next.focus();
    const key = next.dataset.key;
    if (key !== undefined) select(key);
  };
  return (
    <div role="tablist" aria-label={props['aria-label']} aria-orientation="horizontal" onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}

/** One tab, `id` its key; Enter or Space selects it as a click does. */
export function Tab({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  const { base, selected, select } = useTabs();
  const isSelected = id === selected;
  return (
    <div
      role="tab"
      id={tabId(base, id)}
      data-key={id}
      className={className}
      tabIndex={isSelected ? 0 : -1}
      aria-selected={isSelected}
      aria-controls={isSelected ? panelId(base, id) : undefined}
      data-selected={isSelected || undefined}
      onClick={() => select(id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          select(id);
        }
      }}
    >
      {children}
    </div>
  );
}

/** What the tab `id` shows, rendered only while it is selected. */
export function TabPanel({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  const { base, selected } = useTabs();
  const ref = useRef<HTMLDivElement>(null);
  const focusable = useHasFocusable(ref, id === selected);
  if (id !== selected) return null;
  return (
    <div ref={ref} role="tabpanel" id={panelId(base, id)} aria-labelledby={tabId(base, id)} className={className} tabIndex={focusable ? undefined : 0}>
      {children}
    </div>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Whether the element holds something the Tab key reaches, followed as its content changes (a tab's content arrives after its reads). */
function useHasFocusable(ref: { current: HTMLElement | null }, shown: boolean): boolean {
  const [has, setHas] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!shown || !el) return;
    const check = () => setHas(el.querySelector(FOCUSABLE) !== null);
    check();
    const observer = new MutationObserver(check);
    observer.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'tabindex', 'href'] });
    return () => observer.disconnect();
  }, [ref, shown]);
  return has;
}
