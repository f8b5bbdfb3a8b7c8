/**
 * The Caretaker API credential: the base URL of a Caretaker server and a bearer token of one of
 * its accounts (docs/integrations.md "n8n"). n8n puts the token in the Authorization header of
 * every request the Caretaker nodes make; the credential test reads GET /api/auth/me.
 */
import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class CaretakerApi implements ICredentialType {
  name = 'caretakerApi';

  displayName = 'Caretaker API';

  icon = 'file:../icons/caretaker.svg' as const;

  documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-caretaker';

  properties: INodeProperties[] = [
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: '',
      placeholder: 'https://caretaker.example.com',
      description: 'The address of the Caretaker server, without /api',
      required: true,
    },
    {
      displayName: 'API Token',
      name: 'apiToken',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      description: 'A bearer token of the Caretaker account the nodes act as (the `token` of POST /api/auth/login of an API user)',
      required: true,
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        Authorization: '=Bearer {{$credentials.apiToken}}',
      },
    },
  };

  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
      url: '/api/auth/me',
      method: 'GET',
    },
  };
}
