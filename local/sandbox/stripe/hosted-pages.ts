// The hosted checkout and billing portal pages: showing a session, paying, changing plan,
// cancelling a scheduled change, cancelling and renewing.
import type { StackConfig } from '../../config.ts';
import { parseForm } from '../form.ts';
import { redirect } from '../../lib/http.ts';
import { sendHtml } from '../http.ts';
import type { SandboxRequest } from '../types.ts';
import { checkoutPage, messagePage, portalPage } from './pages.ts';
import { planChoicePage, planChoices, planConfirmPage, updateFeatureOf } from './plan-change-pages.ts';
import type { Subscription } from './resources/subscriptions.ts';
import type { StripeSandbox } from './sandbox.ts';

export function checkoutHandler(sandbox: StripeSandbox, config: StackConfig) {
  const { state } = sandbox;
  return async function checkout(request: SandboxRequest, id: string, action: string | undefined): Promise<void> {
    const { res, method } = request;
    const session = state.data.checkoutSessions[id];
    if (!session) {
      sendHtml(res, 404, messagePage('Checkout session not found', `There is no checkout session ${id}.`));
      return;
    }
    if (session.status === 'open' && session.expires_at <= Math.floor(Date.now() / 1000)) {
      session.status = 'expired';
      session.url = null;
      state.save();
    }
    if (session.status !== 'open') {
      const link =
        session.status === 'complete' && session.success_url
          ? { href: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id), text: 'Continue to Castloop' }
          : session.cancel_url
            ? { href: session.cancel_url, text: 'Return to Castloop' }
            : undefined;
      sendHtml(
        res,
        409,
        messagePage(
          session.status === 'complete' ? 'Already paid' : 'Checkout session expired',
          session.status === 'complete'
            ? 'This checkout session is already complete.'
            : 'This checkout session has expired.',
          link,
        ),
      );
      return;
    }
    if (method === 'GET' && !action) {
      sendHtml(res, 200, checkoutPage(sandbox, session));
      return;
    }
    if (method === 'POST' && action === 'pay') {
      const form = parseForm(request.body.toString('utf8'));
      const email =
        typeof form.email === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())
          ? form.email.trim()
          : null;
      if (!session.customer && !session.customer_email && !email) {
        sendHtml(res, 400, checkoutPage(sandbox, session, 'Enter a valid e-mail address.'));
        return;
      }
      const done = await sandbox.billing.pay(session.id, email);
      redirect(res, (done.success_url ?? config.urls.web).replaceAll('{CHECKOUT_SESSION_ID}', done.id));
      return;
    }
    sendHtml(res, 405, messagePage('Not allowed', `${method} is not allowed here.`));
  };
}

/** A canceled subscription, one set to cancel, or a configuration without plan changes. */
const noPlanChange = (sessionId: string) =>
  messagePage('Plan changes are not available', 'This subscription cannot change plan here.', { href: `/portal/${sessionId}?home=1`, text: 'Back to billing' });

export function portalHandler(sandbox: StripeSandbox) {
  const { state } = sandbox;
  return async function portal(request: SandboxRequest, id: string, action: string | undefined): Promise<void> {
    const { res, method, url } = request;
    const session = state.data.portalSessions[id];
    const customer = session ? state.data.customers[session.customer] : undefined;
    if (!session || !customer) {
      sendHtml(res, 404, messagePage('Billing portal session not found', `There is no billing portal session ${id}.`));
      return;
    }
    /** The customer's own subscription named by `value`, or a 404 page. */
    const ownSubscription = (value: unknown) => {
      const sub = typeof value === 'string' ? state.data.subscriptions[value] : undefined;
      if (sub && sub.customer === customer.id) return sub;
      sendHtml(res, 404, messagePage('Subscription not found', 'This subscription does not belong to this customer.'));
      return undefined;
    };
    /** A price the session's configuration offers for this subscription, other than its current one. */
    const choosablePrice = (sub: Subscription, value: unknown) => {
      const price = planChoices(sandbox, session, sub).find((p) => p.id === value);
      return price && price.id !== sub.items.data[0]?.price.id ? price : undefined;
    };
    const flow = session.flow;
    const notice = url.searchParams.get('notice');

    if (method === 'GET' && !action && flow && !notice && !url.searchParams.has('home')) {
      // A flow opens the portal on its task: choosing a plan, or confirming the given one; its
      // pages link to the portal's home with ?home=1.
      const sub = ownSubscription(flow.subscription_update?.subscription ?? flow.subscription_update_confirm?.subscription);
      if (!sub) return;
      if (planChoices(sandbox, session, sub).length === 0) {
        sendHtml(res, 409, noPlanChange(session.id));
        return;
      }
      const price = choosablePrice(sub, flow.subscription_update_confirm?.items[0]?.price);
      sendHtml(res, 200, price ? planConfirmPage(sandbox, session, sub, price) : planChoicePage(sandbox, session, sub));
      return;
    }
    if (method === 'GET' && !action) {
      const notices: Record<string, string> = {
        scheduled: 'Your subscription will be canceled at the end of the billing period.',
        kept: 'Your scheduled plan change has been canceled.',
        canceled: 'Your subscription has been canceled.',
        renewed: 'Your subscription has been renewed.',
        updated: 'Your plan has been updated.',
      };
      sendHtml(res, 200, portalPage(sandbox, session, customer, notices[notice ?? '']));
      return;
    }
    if (method === 'GET' && (action === 'update' || action === 'confirm')) {
      const sub = ownSubscription(url.searchParams.get('subscription'));
      if (!sub) return;
      if (planChoices(sandbox, session, sub).length === 0) {
        sendHtml(res, 409, noPlanChange(session.id));
        return;
      }
      if (action === 'update') {
        sendHtml(res, 200, planChoicePage(sandbox, session, sub));
        return;
      }
      const price = choosablePrice(sub, url.searchParams.get('price'));
      if (!price) sendHtml(res, 400, planChoicePage(sandbox, session, sub, 'Choose a plan other than your current one.'));
      else sendHtml(res, 200, planConfirmPage(sandbox, session, sub, price));
      return;
    }
    if (method === 'POST' && action === 'change') {
      const form = parseForm(request.body.toString('utf8'));
      const sub = ownSubscription(form.subscription);
      if (!sub) return;
      const price = choosablePrice(sub, form.price);
      if (!price) {
        sendHtml(res, 400, planChoicePage(sandbox, session, sub, 'Choose a plan other than your current one.'));
        return;
      }
      await sandbox.billing.changePlan(sub.id, price.id, updateFeatureOf(sandbox, session));
      const redirectTo = flow?.after_completion.redirect?.return_url;
      redirect(res, redirectTo ?? `/portal/${session.id}?notice=updated`);
      return;
    }
    if (method === 'POST' && action === 'keep') {
      // 'Cancel scheduled change': the schedule is released, the current plan renews as usual.
      const form = parseForm(request.body.toString('utf8'));
      const sub = ownSubscription(form.subscription);
      if (!sub) return;
      if (sub.schedule) await sandbox.billing.releaseSchedule(sub.schedule);
      redirect(res, `/portal/${session.id}?notice=kept`);
      return;
    }
    if (method === 'POST' && (action === 'cancel' || action === 'renew')) {
      const form = parseForm(request.body.toString('utf8'));
      const sub = ownSubscription(form.subscription);
      if (!sub) return;
      let done: string;
      if (action === 'renew') {
        await sandbox.billing.setCancelAtPeriodEnd(sub.id, false);
        done = 'renewed';
      } else if (form.when === 'now') {
        await sandbox.billing.cancelNow(sub.id);
        done = 'canceled';
      } else {
        await sandbox.billing.setCancelAtPeriodEnd(sub.id, true);
        done = 'scheduled';
      }
      redirect(res, `/portal/${session.id}?notice=${done}`);
      return;
    }
    sendHtml(res, 405, messagePage('Not allowed', `${method} is not allowed here.`));
  };
}
