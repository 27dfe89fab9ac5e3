// Billing portal configurations: what the hosted portal lets a customer do. The account's default
// configuration offers cancelling only (as a new Stripe account's portal does until its owner
// enables more); `features.subscription_update` with products and prices enables plan changes.
import type { FormObject, FormValue } from '../../form.ts';
import { bool, checkAllowed, fail, listParams, mergeMetadata, metadataParam, noSuch, paginate, str, type Route } from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, nowSeconds, type Json, type Metadata } from '../primitives.ts';
import type { Price } from './prices.ts';

export type ProrationBehavior = 'create_prorations' | 'always_invoice' | 'none';
const prorationBehaviors: readonly ProrationBehavior[] = ['create_prorations', 'always_invoice', 'none'];
type BillingCycleAnchor = 'now' | 'unchanged';
const billingCycleAnchors: readonly BillingCycleAnchor[] = ['now', 'unchanged'];
/** When a plan change waits for the period's end: a smaller amount, or a shorter interval. */
export type ScheduleCondition = 'decreasing_item_amount' | 'shortening_interval';
const scheduleConditions: readonly ScheduleCondition[] = ['decreasing_item_amount', 'shortening_interval'];

export interface SubscriptionUpdateFeature extends Json {
  enabled: boolean;
  /** null (Stripe's `unchanged`) or `now`: an immediate change starts a new period. */
  billing_cycle_anchor: BillingCycleAnchor | null;
  default_allowed_updates: string[];
  products: Array<{ product: string; prices: string[]; adjustable_quantity: Json }> | null;
  proration_behavior: ProrationBehavior;
  schedule_at_period_end: { conditions: Array<{ type: ScheduleCondition }> };
}

export interface PortalConfiguration extends Json {
  id: string;
  object: 'billing_portal.configuration';
  created: number;
  active: boolean;
  is_default: boolean;
  metadata: Metadata;
  features: { subscription_update: SubscriptionUpdateFeature } & Json;
}

const intervalDays: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const intervalLength = (price: Price) => (intervalDays[price.recurring.interval] ?? 30) * price.recurring.interval_count;

/**
 * Whether the portal schedules a change from `from` to `to` at the period's end rather than
 * applying it now: when one of the configuration's `schedule_at_period_end` conditions holds.
 */
export function changeWaitsForPeriodEnd(feature: SubscriptionUpdateFeature, from: Price, to: Price, quantity: number): boolean {
  return feature.schedule_at_period_end.conditions.some(({ type }) =>
    type === 'decreasing_item_amount'
      ? to.unit_amount * quantity < from.unit_amount * quantity
      : intervalLength(to) < intervalLength(from),
  );
}

export const DEFAULT_CONFIGURATION_ID = 'bpc_castloop_local';

function buildConfiguration(id: string, isDefault: boolean, created: number): PortalConfiguration {
  return {
    id,
    object: 'billing_portal.configuration',
    active: true,
    application: null,
    business_profile: { headline: null, privacy_policy_url: null, terms_of_service_url: null },
    created,
    default_return_url: null,
    features: {
      customer_update: { allowed_updates: [], enabled: false },
      invoice_history: { enabled: true },
      payment_method_update: { enabled: true, payment_method_configuration: null },
      subscription_cancel: {
        cancellation_reason: { enabled: false, feedback_options: null, options: [] },
        enabled: true,
        mode: 'at_period_end',
        proration_behavior: 'none',
      },
      subscription_pause: { duration: { interval_options: [], type: 'indefinite' }, enabled: false },
      subscription_update: {
        billing_cycle_anchor: null,
        default_allowed_updates: [],
        enabled: false,
        products: null,
        // Stripe's default when a configuration does not say.
        proration_behavior: 'none',
        schedule_at_period_end: { conditions: [] },
        trial_update_behavior: 'end_trial',
      },
    },
    is_default: isDefault,
    livemode: false,
    login_page: { enabled: false, url: null },
    metadata: {},
    name: null,
    updated: created,
  };
}

/** The account's default configuration (cancelling, invoices, payment methods; no plan changes). */
export function defaultConfiguration(sandbox: StripeSandbox): PortalConfiguration {
  const all = sandbox.state.data.portalConfigurations;
  all[DEFAULT_CONFIGURATION_ID] ??= buildConfiguration(DEFAULT_CONFIGURATION_ID, true, Math.floor(Date.UTC(2025, 0, 1) / 1000));
  return all[DEFAULT_CONFIGURATION_ID];
}

export function findConfiguration(sandbox: StripeSandbox, id: string, param?: string): PortalConfiguration {
  if (id === DEFAULT_CONFIGURATION_ID) return defaultConfiguration(sandbox);
  return sandbox.state.data.portalConfigurations[id] ?? noSuch('configuration', id, param);
}

function object(value: FormValue | undefined, param: string): FormObject | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) fail(400, 'Invalid object', 'parameter_invalid_object', param);
  return value;
}

function stringArray(value: FormValue | undefined, param: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === '') return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    fail(400, 'Invalid array', 'parameter_invalid_array', param);
  return value as string[];
}

/** Applies `features[subscription_update]`: each product must exist and each price be one of its recurring prices. */
function applySubscriptionUpdate(sandbox: StripeSandbox, feature: SubscriptionUpdateFeature, params: FormObject): void {
  const param = 'features[subscription_update]';
  checkAllowed(params, ['enabled', 'default_allowed_updates', 'products', 'proration_behavior', 'billing_cycle_anchor', 'schedule_at_period_end', 'trial_update_behavior']);
  const enabled = bool(params, 'enabled');
  if (enabled !== null) feature.enabled = enabled;
  const allowed = stringArray(params.default_allowed_updates, `${param}[default_allowed_updates]`);
  if (allowed) {
    const unknown = allowed.find((u) => !['price', 'quantity', 'promotion_code'].includes(u));
    if (unknown) fail(400, `Invalid ${param}[default_allowed_updates]: ${unknown}`, 'parameter_invalid_string', `${param}[default_allowed_updates]`);
    feature.default_allowed_updates = allowed;
  }
  const anchor = str(params, 'billing_cycle_anchor');
  if (anchor !== null) {
    if (!billingCycleAnchors.includes(anchor as BillingCycleAnchor))
      fail(400, `Invalid ${param}[billing_cycle_anchor]: must be one of ${billingCycleAnchors.join(', ')}`, 'parameter_invalid_string', `${param}[billing_cycle_anchor]`);
    feature.billing_cycle_anchor = anchor as BillingCycleAnchor;
  }
  if (params.schedule_at_period_end !== undefined) {
    const at = `${param}[schedule_at_period_end]`;
    const schedule = object(params.schedule_at_period_end, at)!;
    checkAllowed(schedule, ['conditions']);
    const conditions = schedule.conditions === undefined || schedule.conditions === '' ? [] : schedule.conditions;
    if (!Array.isArray(conditions)) fail(400, 'Invalid array', 'parameter_invalid_array', `${at}[conditions]`);
    feature.schedule_at_period_end = {
      conditions: conditions.map((raw, i) => {
        const condition = object(raw, `${at}[conditions][${i}]`)!;
        const type = str(condition, 'type', true) as string;
        if (!scheduleConditions.includes(type as ScheduleCondition))
          fail(400, `Invalid ${at}[conditions][${i}][type]: must be one of ${scheduleConditions.join(', ')}`, 'parameter_invalid_string', `${at}[conditions][${i}][type]`);
        return { type: type as ScheduleCondition };
      }),
    };
  }
  const behavior = str(params, 'proration_behavior');
  if (behavior !== null) {
    if (!prorationBehaviors.includes(behavior as ProrationBehavior))
      fail(400, `Invalid ${param}[proration_behavior]: must be one of ${prorationBehaviors.join(', ')}`, 'parameter_invalid_string', `${param}[proration_behavior]`);
    feature.proration_behavior = behavior as ProrationBehavior;
  }
  if (params.products !== undefined) {
    const products = params.products === '' ? [] : params.products;
    if (!Array.isArray(products)) fail(400, 'Invalid array', 'parameter_invalid_array', `${param}[products]`);
    if (products.length > 10) fail(400, 'You can specify at most 10 products.', 'parameter_invalid_array', `${param}[products]`);
    feature.products = products.map((raw, i) => {
      const at = `${param}[products][${i}]`;
      const entry = object(raw, at)!;
      const productId = str(entry, 'product', true) as string;
      if (!sandbox.state.products.has(productId)) noSuch('product', productId, `${at}[product]`);
      const prices = stringArray(entry.prices, `${at}[prices]`) ?? fail(400, `Missing required param: ${at}[prices].`, 'parameter_missing', `${at}[prices]`);
      for (const priceId of prices) {
        const price = sandbox.state.prices.get(priceId) ?? noSuch('price', priceId, `${at}[prices]`);
        if (price.product !== productId)
          fail(400, `The price ${priceId} does not belong to the product ${productId}.`, 'parameter_invalid_string', `${at}[prices]`);
      }
      return { product: productId, prices, adjustable_quantity: { enabled: false, maximum: null, minimum: 1 } };
    });
  }
  if (feature.enabled && feature.default_allowed_updates.includes('price') && !feature.products?.length)
    fail(400, 'You must specify at least one product when price updates are allowed.', 'parameter_missing', `${param}[products]`);
}

function applyParams(sandbox: StripeSandbox, config: PortalConfiguration, params: FormObject): void {
  const features = object(params.features, 'features');
  if (features) {
    checkAllowed(features, ['customer_update', 'invoice_history', 'payment_method_update', 'subscription_cancel', 'subscription_pause', 'subscription_update']);
    for (const [name, value] of Object.entries(features)) {
      const given = object(value, `features[${name}]`)!;
      if (name === 'subscription_update') applySubscriptionUpdate(sandbox, config.features.subscription_update, given);
      else {
        // Recorded as given (the sandbox's portal always offers cancelling, see docs/stripe-sandbox.md).
        const enabled = bool(given, 'enabled');
        if (enabled !== null) (config.features[name] as Json).enabled = enabled;
      }
    }
  }
  const profile = object(params.business_profile, 'business_profile');
  if (profile) {
    checkAllowed(profile, ['headline', 'privacy_policy_url', 'terms_of_service_url']);
    config.business_profile = { ...(config.business_profile as Json), ...profile };
  }
  const returnUrl = str(params, 'default_return_url');
  if (returnUrl !== null) config.default_return_url = returnUrl || null;
  const name = str(params, 'name');
  if (name !== null) config.name = name || null;
  config.metadata = mergeMetadata(config.metadata, metadataParam(params.metadata, 'metadata'));
  const active = bool(params, 'active');
  if (active !== null) config.active = active;
  config.updated = nowSeconds();
}

const configurationParams = ['features', 'business_profile', 'default_return_url', 'login_page', 'metadata', 'name'];

export const portalConfigurationRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/billing_portal\/configurations$/,
    handler: (s, p) => {
      checkAllowed(p, configurationParams);
      if (p.features === undefined) fail(400, 'Missing required param: features.', 'parameter_missing', 'features');
      const config = buildConfiguration(newId('bpc_'), false, nowSeconds());
      applyParams(s, config, p);
      s.state.data.portalConfigurations[config.id] = config;
      s.state.save();
      return config;
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/billing_portal\/configurations$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'active', 'is_default']);
      defaultConfiguration(s);
      const active = bool(p, 'active');
      const isDefault = bool(p, 'is_default');
      const configs = Object.values(s.state.data.portalConfigurations).filter(
        (c) => (active === null || c.active === active) && (isDefault === null || c.is_default === isDefault),
      );
      return paginate(configs, p, '/v1/billing_portal/configurations');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/billing_portal\/configurations\/([^/]+)$/,
    handler: (s, _p, [id]) => findConfiguration(s, id),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/billing_portal\/configurations\/([^/]+)$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, [...configurationParams, 'active']);
      const config = findConfiguration(s, id);
      if (config.is_default && bool(p, 'active') === false) fail(400, 'The default configuration cannot be deactivated.', 'parameter_invalid_boolean', 'active');
      applyParams(s, config, p);
      s.state.save();
      return config;
    },
  },
];
