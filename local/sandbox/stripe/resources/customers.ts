// Customers: create, retrieve, update, delete, list and search; `customer.created` on create.
import type { FormObject } from '../../form.ts';
import {
  checkAllowed,
  email,
  fail,
  int,
  listParams,
  mergeMetadata,
  metadataParam,
  noSuch,
  paginate,
  str,
  type Route,
} from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, nowSeconds, type Json, type Metadata } from '../primitives.ts';

export interface Customer extends Json {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  metadata: Metadata;
  deleted?: true;
}

export function buildCustomer(fields: {
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  metadata: Metadata;
}): Customer {
  return {
    id: newId('cus_', 14),
    object: 'customer',
    address: null,
    balance: 0,
    created: nowSeconds(),
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: fields.description,
    discount: null,
    email: fields.email,
    invoice_prefix: newId('', 8).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.metadata,
    name: fields.name,
    next_invoice_sequence: 1,
    phone: fields.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

/** Stores a new customer and sends `customer.created`. */
export function addCustomer(sandbox: StripeSandbox, customer: Customer): Customer {
  sandbox.state.data.customers[customer.id] = customer;
  sandbox.state.save();
  void sandbox.events.emit('customer.created', customer).delivered;
  return customer;
}

/** A checkout session's `customer_details`, from the customer who pays. */
export function customerDetails(customer: Customer): Json {
  return {
    address: null,
    business_name: null,
    email: customer.email,
    individual_name: null,
    name: customer.name,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
}

/** A customer that exists and is not deleted; `param` when a parameter (not the URL) names it. */
export function liveCustomer(sandbox: StripeSandbox, id: string, param?: string): Customer {
  const c = sandbox.state.data.customers[id];
  if (!c || c.deleted) noSuch('customer', id, param);
  return c;
}

const customerFields = ['email', 'name', 'phone', 'description', 'metadata'] as const;
const customerIgnored = [
  'address',
  'shipping',
  'preferred_locales',
  'invoice_settings',
  'payment_method',
  'tax_exempt',
  'tax_id_data',
  'test_clock',
  'balance',
  'source',
  'tax',
  'invoice_prefix',
  'next_invoice_sequence',
  'cash_balance',
];

function createCustomer(sandbox: StripeSandbox, params: FormObject): Json {
  checkAllowed(params, [...customerFields, ...customerIgnored]);
  const metadata = metadataParam(params.metadata, 'metadata');
  const customer = buildCustomer({
    email: email(params, 'email'),
    name: str(params, 'name') || null,
    phone: str(params, 'phone') || null,
    description: str(params, 'description') || null,
    metadata: metadata === '' || metadata === undefined ? {} : mergeMetadata({}, metadata),
  });
  return addCustomer(sandbox, customer);
}

function updateCustomer(sandbox: StripeSandbox, params: FormObject, id: string): Json {
  checkAllowed(params, [...customerFields, ...customerIgnored, 'default_source']);
  const customer = liveCustomer(sandbox, id);
  if (params.email !== undefined) customer.email = email(params, 'email');
  if (params.name !== undefined) customer.name = str(params, 'name') || null;
  if (params.phone !== undefined) customer.phone = str(params, 'phone') || null;
  if (params.description !== undefined) customer.description = str(params, 'description') || null;
  customer.metadata = mergeMetadata(customer.metadata, metadataParam(params.metadata, 'metadata'));
  sandbox.state.save();
  return customer;
}

function liveCustomers(sandbox: StripeSandbox): Customer[] {
  return Object.values(sandbox.state.data.customers).filter((c) => !c.deleted);
}

/** `GET /v1/customers/search?query=email:'a@b.c'` (email, name, metadata['key'] clauses joined by AND). */
function searchCustomers(sandbox: StripeSandbox, params: FormObject): Json {
  checkAllowed(params, ['query', 'limit', 'page']);
  const query = str(params, 'query', true) as string;
  const clauses = query.split(/\s+AND\s+/i).map((clause) => {
    const m = /^\s*(email|name|phone|metadata\[['"]([^'"]+)['"]\])\s*(:|~)\s*['"]([^'"]*)['"]\s*$/.exec(clause);
    if (!m) fail(400, `Invalid search query: ${query}`, 'parameter_invalid_string', 'query');
    return { field: m[1].startsWith('metadata') ? `metadata.${m[2]}` : m[1], op: m[3], value: m[4] };
  });
  const limit = int(params.limit, 'limit', 1, 100) ?? 10;
  const matches = liveCustomers(sandbox)
    .filter((c) =>
      clauses.every(({ field, op, value }) => {
        const actual = field.startsWith('metadata.') ? c.metadata[field.slice(9)] : (c[field] as string | null);
        if (actual == null) return false;
        return op === ':'
          ? actual.toLowerCase() === value.toLowerCase()
          : actual.toLowerCase().includes(value.toLowerCase());
      }),
    )
    .sort((a, b) => b.created - a.created);
  return {
    object: 'search_result',
    data: matches.slice(0, limit),
    has_more: matches.length > limit,
    next_page: null,
    url: '/v1/customers/search',
  };
}

export const customerRoutes: Route[] = [
  { method: 'POST', pattern: /^\/v1\/customers$/, handler: (s, p) => createCustomer(s, p) },
  {
    method: 'GET',
    pattern: /^\/v1\/customers$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'email', 'created', 'test_clock']);
      const e = str(p, 'email');
      return paginate(
        liveCustomers(s).filter((c) => !e || c.email === e),
        p,
        '/v1/customers',
      );
    },
  },
  { method: 'GET', pattern: /^\/v1\/customers\/search$/, handler: (s, p) => searchCustomers(s, p) },
  {
    method: 'GET',
    pattern: /^\/v1\/customers\/([^/]+)$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, []);
      const c = s.state.data.customers[id];
      if (!c) noSuch('customer', id);
      return c.deleted ? { id: c.id, object: 'customer', deleted: true } : c;
    },
  },
  { method: 'POST', pattern: /^\/v1\/customers\/([^/]+)$/, handler: (s, p, [id]) => updateCustomer(s, p, id) },
  {
    method: 'DELETE',
    pattern: /^\/v1\/customers\/([^/]+)$/,
    handler: (s, _p, [id]) => {
      const c = liveCustomer(s, id);
      // The event carries the customer as it was; the API answers the deleted stub.
      void s.events.emit('customer.deleted', c).delivered;
      c.deleted = true;
      s.state.save();
      return { id: c.id, object: 'customer', deleted: true };
    },
  },
];
