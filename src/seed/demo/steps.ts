/**
 * The demo data steps, in order. The base step (organisation, accounts, addresses, tenants,
 * contractors, jobs) comes first; each area appends its own step after it.
 */
import type { DemoStep } from './context.ts';
import { baseStep } from './base.ts';
import { jobsHistoryStep } from './jobs-history.ts';
import { slaDevicesAppearanceStep } from './sla-devices-appearance.ts';
import { usersStep } from './users.ts';
import { jobFilesStep } from './job-files.ts';
import { peopleComplianceStep } from './people-compliance.ts';
import { organisationStep } from './organisation.ts';
import { webhooksStep } from './webhooks.ts';
import { slaStep } from './sla.ts';
import { insightStep } from './insight.ts';
import { messagingStep } from './messaging.ts';
import { securityStep } from './security.ts';
import { moneyStep } from './money.ts';
import { complianceStep } from './compliance.ts';
import { landlordsStep } from './landlords.ts';
import { hazardsStep } from './hazards.ts';
import { tenantReportingStep } from './tenant-reporting.ts';
import { rechargesStep } from './recharges.ts';
import { worksOrdersStep } from './works-orders.ts';
import { conversationsStep } from './conversations.ts';
import { visitsStep } from './visits.ts';
import { maintenanceStep } from './maintenance.ts';

export const DEMO_STEPS: DemoStep[] = [
  baseStep,
  // Areas append their steps below (one import and one entry each).
  jobsHistoryStep,
  slaDevicesAppearanceStep,
  usersStep,
  jobFilesStep,
  peopleComplianceStep,
  organisationStep,
  webhooksStep,
  slaStep,
  insightStep,
  messagingStep,
  securityStep,
  moneyStep,
  complianceStep,
  landlordsStep,
  hazardsStep,
  tenantReportingStep,
  rechargesStep,
  worksOrdersStep,
  conversationsStep,
  visitsStep,
  maintenanceStep,
];
