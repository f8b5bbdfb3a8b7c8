/**
 * The Caretaker trigger node: starts a workflow on Caretaker's domain events (docs/events.md).
 * On activation it subscribes the node's webhook URL through POST /api/webhooks/endpoints and
 * keeps the endpoint's uuid and signing secret in the workflow's static data; on deactivation it
 * deletes the endpoint. Each delivery's Standard Webhooks signature is checked with that secret:
 * a forged, altered or stale delivery is answered 401 and starts nothing (docs/integrations.md
 * "n8n"). Subscribing needs an account with `api.webhooks.manage` (an agency administrator).
 */
import {
  NodeConnectionTypes,
  type IDataObject,
  type IHookFunctions,
  type INodeType,
  type INodeTypeDescription,
  type IWebhookFunctions,
  type IWebhookResponseData,
} from 'n8n-workflow';
import { caretakerRequest } from '../Caretaker/GenericFunctions.ts';
import { verifyStandardWebhook } from './signature.ts';

/** Caretaker's event catalogue (docs/events.md), for the Events field. */
export const CARETAKER_EVENTS = [
  'job.created', 'job.updated', 'job.status_changed', 'job.assigned', 'job.visit_booked', 'job.visit_reminder', 'job.visit_missed',
  'job.assignment_accepted', 'job.assignment_declined', 'job.note_added', 'conversation.message_posted', 'sms.received', 'job.file_added',
  'contractor.certificate_expiring', 'user.created', 'tenant.erased', 'sla.at_risk', 'sla.breached', 'compliance.certificate_expiring',
  'hazard.reported', 'hazard.summary_sent', 'hazard.at_risk', 'hazard.breached', 'quote.submitted', 'quote.approved', 'quote.rejected',
  'invoice.issued', 'invoice.paid', 'invoice.overdue', 'invoice.voided', 'payment.recorded', 'credit_note.issued', 'works_order.sent',
  'quote_request.sent', 'quote_request.awarded', 'approval.requested', 'approval.reminded', 'approval.answered', 'approval.expired',
  'report.emergency', 'job.merged', 'job.recalled', 'survey.answered',
];

/** What the trigger keeps between activation and deliveries (the workflow's static data). */
interface Subscription extends IDataObject {
  endpointUuid?: string;
  secret?: string;
}

export class CaretakerTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Caretaker Trigger',
    name: 'caretakerTrigger',
    icon: 'file:../../icons/caretaker.svg',
    group: ['trigger'],
    version: 1,
    subtitle: '={{$parameter["events"].join(", ")}}',
    description: 'Starts the workflow when Caretaker events happen (signed webhooks)',
    defaults: { name: 'Caretaker Trigger' },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'caretakerApi', required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: [
      {
        displayName: 'Events',
        name: 'events',
        type: 'multiOptions',
        required: true,
        default: ['sla.breached'],
        description: 'The events that start the workflow',
        options: [{ name: 'All Events (*)', value: '*' }, ...CARETAKER_EVENTS.map((name) => ({ name, value: name }))],
      },
    ],
  };

  webhookMethods = {
    default: {
      /** True when the subscription kept in static data still exists on the server. */
      async checkExists(this: IHookFunctions): Promise<boolean> {
        const data = this.getWorkflowStaticData('node') as Subscription;
        if (!data.endpointUuid) return false;
        try {
          const answer = await caretakerRequest.call(this, 'GET', `/api/webhooks/endpoints/${data.endpointUuid}`);
          return (answer.data as IDataObject).url === this.getNodeWebhookUrl('default');
        } catch (error) {
          if ((error as { httpCode?: string }).httpCode === '404') {
            delete data.endpointUuid;
            delete data.secret;
            return false;
          }
          throw error;
        }
      },
      /** Subscribes the node's URL to the chosen events; keeps the endpoint's uuid and secret. */
      async create(this: IHookFunctions): Promise<boolean> {
        const data = this.getWorkflowStaticData('node') as Subscription;
        const events = this.getNodeParameter('events') as string[];
        const answer = await caretakerRequest.call(this, 'POST', '/api/webhooks/endpoints', {
          url: this.getNodeWebhookUrl('default')!,
          events,
          description: `n8n: ${this.getWorkflow().name ?? 'workflow'}`.slice(0, 200),
        });
        const endpoint = answer.data as { uuid: string; secret: string };
        data.endpointUuid = endpoint.uuid;
        data.secret = endpoint.secret;
        return true;
      },
      /** Deletes the endpoint (one already gone counts as deleted) and forgets its secret. */
      async delete(this: IHookFunctions): Promise<boolean> {
        const data = this.getWorkflowStaticData('node') as Subscription;
        if (data.endpointUuid) {
          try {
            await caretakerRequest.call(this, 'DELETE', `/api/webhooks/endpoints/${data.endpointUuid}`);
          } catch (error) {
            if ((error as { httpCode?: string }).httpCode !== '404') return false;
          }
        }
        delete data.endpointUuid;
        delete data.secret;
        return true;
      },
    },
  };

  /**
   * One delivery: verified against the subscription's secret, then the event (`type`,
   * `timestamp`, `data`) with its `webhook_id` as the output item. A delivery that fails the
   * check is answered 401 `{"error": "..."}` and starts nothing.
   */
  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const data = this.getWorkflowStaticData('node') as Subscription;
    const headers = this.getHeaderData() as Record<string, unknown>;
    const request = this.getRequestObject() as { rawBody?: Buffer };
    const rawBody = request.rawBody ? request.rawBody.toString('utf8') : JSON.stringify(this.getBodyData());
    try {
      if (!data.secret) throw new Error('The trigger has no subscription secret (activate the workflow again)');
      verifyStandardWebhook(data.secret, headers, rawBody);
    } catch (error) {
      const response = this.getResponseObject();
      response.status(401).json({ error: (error as Error).message });
      return { noWebhookResponse: true };
    }
    const event = JSON.parse(rawBody) as IDataObject;
    return { workflowData: [this.helpers.returnJsonArray([{ ...event, webhook_id: headers['webhook-id'] as string }])] };
  }
}
