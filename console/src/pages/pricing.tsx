/**
 * /pricing, the agency's price list and money rules in the console (docs/console.md "The agency's
 * office"; the rules: docs/pricing.md): the price list (GET/POST /api/pricing/items, GET/PUT
 * .../{uuid}), a contractor's own rate for an item (PUT/DELETE
 * .../{uuid}/contractor-rates/{contractor_uuid}), the VAT rates (GET /api/pricing/vat-rates) and
 * the agency's pricing settings: VAT number, payment terms, VAT treatment of recharges and the
 * approval limit per job type (GET/PUT /api/pricing/settings). Prices are typed in pounds and
 * sent in pence before VAT.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { poundsToPence } from '../logic/money.ts';
import { useSession } from '../session.tsx';
import { Button, formatLondonDate, formatPence, PageTitle, ProblemMessage, useAction, useConfirm, useLoad } from '../ui.tsx';
import { DataTable, type Column } from '../table.tsx';
import { Labelled } from './compliance-forms.tsx';
import { Notice } from './people-forms.tsx';
import { Section } from './office-admin.tsx';
import '../people-forms.css';

type Item = {
  uuid: string;
  code: string;
  name: string;
  trade_id: number | null;
  trade: string | null;
  unit: string;
  unit_price_pence: number;
  vat_rate: string;
  active: boolean;
  contractor_rates: { contractor_uuid: string; contractor_name: string; unit_price_pence: number }[];
};

const UNITS: Record<string, string> = { each: 'each', hour: 'an hour', day: 'a day', m2: 'a square metre' };
const VAT: Record<string, string> = { standard: 'Standard', reduced: 'Reduced', zero: 'Zero', exempt: 'Exempt' };

/** "PLUMB-TAP" from "Tap washer replaced": an item's code made from its name. */
export function itemCodeOf(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

/** The page. */
export function PricingPage() {
  const session = useSession();
  const canManage = session.permissions.has('api.pricing.manage');
  const action = useAction();
  const { ask, dialog } = useConfirm();
  const [done, setDone] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const items = useLoad(['pricing', 'items'], async () => (await api.GET('/api/pricing/items', { params: { query: { limit: 100 } } })).data!.data as Item[]);
  const item = useLoad(['pricing', 'item', open], async () => (open ? ((await api.GET('/api/pricing/items/{uuid}', { params: { path: { uuid: open } } })).data!.data as Item) : null));
  const vat = useLoad(['pricing', 'vat-rates'], async () => (await api.GET('/api/pricing/vat-rates')).data!.data);
  const settings = useLoad(['pricing', 'settings'], async () => (await api.GET('/api/pricing/settings')).data!.data);
  const types = useLoad(['jobs', 'types'], async () => (await api.GET('/api/jobs/types')).data!.data as { ID: number; name: string }[]);
  const trades = useLoad(['trades'], async () => (await api.GET('/api/contractors/trades')).data!.data as { ID: number; name: string }[]);
  const contractors = useLoad(['contractors', 'pick'], async () => (await api.GET('/api/contractors', { params: { query: { limit: 100 } } })).data!.data as { uuid: string; company_name: string }[]);
  const reload = () => {
    items.reload();
    item.reload();
  };
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const name = String(f.get('name') ?? '').trim();
    const pence = poundsToPence(String(f.get('price') ?? ''));
    if (pence === null) return action.setProblem({ message: 'Type the price in pounds, such as 45 or 45.50.', field: 'price', retry: false, retryAfterSeconds: null, status: 400 });
    const trade = String(f.get('trade_id') ?? '');
    void action.run(async () => {
      await api.POST('/api/pricing/items', {
        body: { code: itemCodeOf(name), name, unit: String(f.get('unit')) as 'each', unit_price_pence: pence, vat_rate: String(f.get('vat_rate')) as 'standard', trade_id: trade ? Number(trade) : null },
      });
      setDone(`"${name}" added at ${formatPence(pence)} ${UNITS[String(f.get('unit'))]}.`);
      setFormKey((k) => k + 1);
      items.reload();
    });
  };
  const reprice = (i: Item) =>
    ask({
      title: `New price for "${i.name}"`,
      confirmLabel: 'Save price',
      amount: { label: `Price ${UNITS[i.unit] ?? i.unit} before VAT (£)`, initial: (i.unit_price_pence / 100).toFixed(2) },
      onConfirm: (_t, pence) =>
        void action.run(async () => {
          await api.PUT('/api/pricing/items/{uuid}', { params: { path: { uuid: i.uuid } }, body: { unit_price_pence: pence! } });
          setDone(`"${i.name}" now costs ${formatPence(pence!)}.`);
          reload();
        }),
    });
  const toggle = (i: Item) =>
    void action.run(async () => {
      await api.PUT('/api/pricing/items/{uuid}', { params: { path: { uuid: i.uuid } }, body: { active: !i.active } });
      setDone(i.active ? `"${i.name}" is no longer offered.` : `"${i.name}" is offered again.`);
      reload();
    });
  const setRate = (e: FormEvent<HTMLFormElement>, i: Item) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const contractor = String(f.get('contractor_uuid') ?? '');
    const pence = poundsToPence(String(f.get('rate') ?? ''));
    if (!contractor || pence === null) return action.setProblem({ message: 'Choose a contractor and type their price in pounds.', field: 'rate', retry: false, retryAfterSeconds: null, status: 400 });
    void action.run(async () => {
      await api.PUT('/api/pricing/items/{uuid}/contractor-rates/{contractor_uuid}', { params: { path: { uuid: i.uuid, contractor_uuid: contractor } }, body: { unit_price_pence: pence } });
      setDone(`Their rate for "${i.name}" is ${formatPence(pence)}.`);
      reload();
    });
  };
  const dropRate = (i: Item, r: Item['contractor_rates'][number]) =>
    ask({
      title: `Remove ${r.contractor_name}'s rate for "${i.name}"?`,
      body: `They are then paid the list price, ${formatPence(i.unit_price_pence)}.`,
      confirmLabel: 'Remove rate',
      danger: true,
      onConfirm: () =>
        void action.run(async () => {
          await api.DELETE('/api/pricing/items/{uuid}/contractor-rates/{contractor_uuid}', { params: { path: { uuid: i.uuid, contractor_uuid: r.contractor_uuid } } });
          setDone(`${r.contractor_name}'s rate removed.`);
          reload();
        }),
    });
  const saveSettings = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const limits = (types.data ?? []).flatMap((t) => {
      const p = poundsToPence(String(f.get(`limit-${t.ID}`) ?? ''));
      return p === null ? [] : [{ job_type_id: t.ID, limit_pence: p }];
    });
    void action.run(async () => {
      await api.PUT('/api/pricing/settings', {
        body: {
          vat_number: String(f.get('vat_number') ?? '').trim().toUpperCase() || null,
          payment_terms_days: Number(f.get('payment_terms_days')),
          vat_treatment: String(f.get('vat_treatment')) as 'recharge',
          approval_limits: limits,
        },
      });
      setDone('Pricing settings saved.');
      settings.reload();
    });
  };
  const columns: Column<Item>[] = [
    { header: 'Item', cell: (i) => i.name },
    { header: 'Trade', key: true, cell: (i) => i.trade ?? 'any' },
    { header: 'Price', key: true, cell: (i) => `${formatPence(i.unit_price_pence)} ${UNITS[i.unit] ?? i.unit}` },
    { header: 'VAT', key: true, cell: (i) => VAT[i.vat_rate] ?? i.vat_rate },
    { header: 'Offered', key: true, cell: (i) => (i.active ? 'yes' : 'no') },
    {
      header: 'Actions',
      key: true,
      cell: (i) => (
        <div className="button-row">
          <Button variant="secondary" aria-label={`Contractors' rates: ${i.name}`} onPress={() => setOpen(i.uuid)}>
            Contractors' rates
          </Button>
          {canManage ? (
            <>
              <Button variant="secondary" aria-label={`Change price: ${i.name}`} onPress={() => reprice(i)}>
                Change price
              </Button>
              <Button variant="secondary" aria-label={`${i.active ? 'Stop offering' : 'Offer again'}: ${i.name}`} onPress={() => toggle(i)}>
                {i.active ? 'Stop offering' : 'Offer again'}
              </Button>
            </>
          ) : null}
        </div>
      ),
    },
  ];
  const limitOf = (id: number) => settings.data?.approval_limits.find((l) => l.job_type_id === id)?.limit_pence;
  const it = open ? item.data : null;
  return (
    <>
      <PageTitle>Price list</PageTitle>
      <ProblemMessage problem={action.problem ?? items.problem ?? settings.problem} onRetry={items.reload} />
      <Notice text={done} />
      {items.data ? (
        <DataTable label="Price list" columns={columns} rows={items.data} rowKey={(i) => i.uuid} empty={<p>No prices yet. Add the work you pay for most often below, such as "Tap washer replaced".</p>} />
      ) : (
        <p className="loading">Loading…</p>
      )}
      {it ? (
        <Section id="pricing-rates" title={`Contractors' rates for ${it.name}`}>
          {it.contractor_rates.length === 0 ? (
            <p className="empty-state">Every contractor is paid the list price, {formatPence(it.unit_price_pence)}. Give one their own rate below.</p>
          ) : (
            <ul>
              {it.contractor_rates.map((r) => (
                <li key={r.contractor_uuid}>
                  {r.contractor_name}: {formatPence(r.unit_price_pence)}{' '}
                  {canManage ? (
                    <Button variant="danger" aria-label={`Remove rate: ${r.contractor_name}`} onPress={() => dropRate(it, r)}>
                      Remove
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {canManage ? (
            <form className="form inline" onSubmit={(e) => setRate(e, it)} aria-label="Give a contractor their own rate">
              <Labelled label="Contractor">
                {(id) => (
                  <select id={id} name="contractor_uuid" defaultValue="">
                    <option value="">Choose a contractor</option>
                    {(contractors.data ?? []).map((c) => (
                      <option key={c.uuid} value={c.uuid}>
                        {c.company_name}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
              <Labelled label="Their price before VAT (£)">{(id) => <input id={id} name="rate" inputMode="decimal" />}</Labelled>
              <div className="button-row">
                <Button type="submit" isDisabled={action.busy}>
                  Save rate
                </Button>
              </div>
            </form>
          ) : null}
        </Section>
      ) : null}
      {canManage ? (
        <Section id="pricing-add" title="Add a price">
          <form key={formKey} className="form inline" onSubmit={add} aria-label="Add a price">
            <Labelled label="Work" required>
              {(id) => <input id={id} name="name" required maxLength={200} />}
            </Labelled>
            <Labelled label="Price before VAT (£)" required>
              {(id) => <input id={id} name="price" inputMode="decimal" required />}
            </Labelled>
            <Labelled label="Per">
              {(id) => (
                <select id={id} name="unit" defaultValue="each">
                  {Object.entries(UNITS).map(([k, v]) => (
                    <option key={k} value={k}>
                      {v}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <Labelled label="VAT">
              {(id) => (
                <select id={id} name="vat_rate" defaultValue="standard">
                  {Object.entries(VAT).map(([k, v]) => (
                    <option key={k} value={k}>
                      {v}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <Labelled label="Trade">
              {(id) => (
                <select id={id} name="trade_id" defaultValue="">
                  <option value="">Any trade</option>
                  {(trades.data ?? []).map((t) => (
                    <option key={t.ID} value={t.ID}>
                      {t.name}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
            <div className="button-row">
              <Button type="submit" isDisabled={action.busy}>
                Add price
              </Button>
            </div>
          </form>
        </Section>
      ) : null}
      {settings.data && types.data ? (
        <Section id="pricing-settings" title="Invoices, VAT and approval limits">
          <form className="form" onSubmit={saveSettings} aria-label="Pricing settings">
            <Labelled label="Your VAT registration number" hint="Leave empty when the agency is not VAT-registered.">
              {(id, d) => <input id={id} name="vat_number" maxLength={20} disabled={!canManage} defaultValue={settings.data!.vat_number ?? ''} aria-describedby={d} />}
            </Labelled>
            <Labelled label="Invoices are due after (days)">
              {(id) => <input id={id} name="payment_terms_days" type="number" min={0} max={365} disabled={!canManage} defaultValue={settings.data!.payment_terms_days} />}
            </Labelled>
            <Labelled label="Repairs recharged to landlords are">
              {(id) => (
                <select id={id} name="vat_treatment" disabled={!canManage} defaultValue={settings.data!.vat_treatment}>
                  <option value="recharge">Resold, with your VAT</option>
                  <option value="disbursement">Passed on at cost (a disbursement)</option>
                </select>
              )}
            </Labelled>
            <fieldset>
              <legend>Ask the landlord above (£, per job type; empty for the agency's limit)</legend>
              {types.data.map((t) => (
                <Labelled key={t.ID} label={t.name}>
                  {(id) => <input id={id} name={`limit-${t.ID}`} inputMode="decimal" disabled={!canManage} defaultValue={limitOf(t.ID) === undefined ? '' : (limitOf(t.ID)! / 100).toFixed(2)} />}
                </Labelled>
              ))}
            </fieldset>
            {canManage ? (
              <div className="button-row">
                <Button type="submit" isDisabled={action.busy}>
                  Save pricing settings
                </Button>
              </div>
            ) : null}
          </form>
        </Section>
      ) : null}
      {vat.data ? (
        <Section id="pricing-vat" title="VAT rates">
          <ul>
            {vat.data.map((v) => (
              <li key={`${v.code}-${v.effective_from}`}>
                {v.name}: {v.rate_bp / 100} % from {formatLondonDate(v.effective_from)}
                {v.effective_to ? ` to ${formatLondonDate(v.effective_to)}` : ''}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {dialog}
    </>
  );
}
