import type { Role } from '@gatehouse/accounts';
import type { AccessRequestInput } from '@gatehouse/requests';

/** The demo's staff: one person per role (usernames and addresses of the reserved example.com). */
export const DEMO_STAFF: ReadonlyArray<{ role: Role; username: string; displayName: string }> = [
  { role: 'Administrator', username: 'ada', displayName: 'Ada Quinn' },
  { role: 'ContactPerson', username: 'carla', displayName: 'Carla Mendes' },
  { role: 'ITDepartment', username: 'ivan', displayName: 'Ivan Petrov' },
  { role: 'Auditor', username: 'audra', displayName: 'Audra Nolan' },
];

export const demoEmail = (username: string) => `${username}@example.com`;

/** The sample partner organisation: the requests name it, the clients belong to it. */
export const DEMO_ORGANISATION = 'Northwind Logistics';

/** The API the partner's systems call, with its scopes. */
export const DEMO_API = {
  identifier: 'api://orders',
  displayName: 'Orders API',
  scopes: [
    { value: 'Orders.Read', description: 'Read orders and their delivery state' },
    { value: 'Orders.Write', description: 'Place and change orders' },
  ],
};

export const DEMO_SECTIONS = [
  {
    slug: 'getting-started',
    title: 'Getting started with the Orders API',
    body: [
      '# Getting started',
      '',
      'Ask for access on the request form. Once a contact person has approved it and the IT department',
      'has assigned scopes, the technical contact receives a one-time link to the client secret.',
      '',
      'Request a token with the client credentials grant and call `https://orders.example.com/v1/orders`.',
    ].join('\n'),
  },
  {
    slug: 'order-events',
    title: 'Order events',
    body: ['# Order events', '', 'Every change of an order is published as an event: `order.placed`, `order.shipped`, `order.delivered`.'].join('\n'),
  },
];

/** Approved by the contact person: a partner account invited to the guide, and a client awaiting scopes. */
export const APPROVED_REQUEST: AccessRequestInput = {
  requesterName: 'Tomás Berg',
  requesterEmail: 'tomas.berg@northwind.example.com',
  organisation: DEMO_ORGANISATION,
  account: { documentation: 'Getting started with the Orders API', reason: 'We are connecting our route planner to your orders.' },
  api: {
    systemName: 'Northwind route planner',
    technicalContactEmail: 'it@northwind.example.com',
    purpose: 'Reads the day’s orders every morning to plan the delivery routes.',
  },
};

/** Waiting for a decision. */
export const PENDING_REQUEST: AccessRequestInput = {
  requesterName: 'Priya Raman',
  requesterEmail: 'priya.raman@northwind.example.com',
  organisation: DEMO_ORGANISATION,
  account: { documentation: 'Order events', reason: 'I look after the warehouse system that should react to shipped orders.' },
};

/** Set up by hand by the contact person: scopes from IT, then a secret (expiring soon, so the Overview has something to show). */
export const ACTIVE_CLIENT = {
  displayName: 'Northwind dispatch sync',
  contactEmail: 'it@northwind.example.com',
  scopes: ['api://orders/Orders.Read', 'api://orders/Orders.Write'],
  secretDays: 21,
};
