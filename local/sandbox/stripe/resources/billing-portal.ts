// Billing portal sessions: the API creates them; the hosted portal page (pages.ts) uses them.
import type { FormObject } from '../../form.ts';
import { checkAllowed, str, validUrl, type Route } from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, nowSeconds, type Json } from '../primitives.ts';
import { liveCustomer } from './customers.ts';

export interface PortalSession extends Json {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string | null;
  url: string;
}

function createPortalSession(sandbox: StripeSandbox, params: FormObject): Json {
  checkAllowed(params, [
    'customer',
    'return_url',
    'configuration',
    'locale',
    'flow_data',
    'on_behalf_of',
    'customer_account',
  ]);
  const customerId = str(params, 'customer', true) as string;
  liveCustomer(sandbox, customerId, 'customer');
  const returnUrl = validUrl(params, 'return_url', false);
  const id = newId('bps_');
  const session: PortalSession = {
    id,
    object: 'billing_portal.session',
    configuration: 'bpc_castloop_local',
    created: nowSeconds(),
    customer: customerId,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: str(params, 'locale'),
    on_behalf_of: null,
    return_url: returnUrl,
    url: `${sandbox.baseUrl}/portal/${id}`,
  };
  sandbox.state.data.portalSessions[id] = session;
  sandbox.state.save();
  return session;
}

export const billingPortalRoutes: Route[] = [
  { method: 'POST', pattern: /^\/v1\/billing_portal\/sessions$/, handler: (s, p) => createPortalSession(s, p) },
];
