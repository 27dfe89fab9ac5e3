// The hosted checkout and billing portal pages: showing a session, paying, cancelling and renewing.
import type { StackConfig } from '../../config.ts';
import { parseForm } from '../form.ts';
import { redirect } from '../../lib/http.ts';
import { sendHtml } from '../http.ts';
import type { SandboxRequest } from '../types.ts';
import { checkoutPage, messagePage, portalPage } from './pages.ts';
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
    if (method === 'GET' && !action) {
      const notices: Record<string, string> = {
        scheduled: 'Your subscription will be canceled at the end of the billing period.',
        canceled: 'Your subscription has been canceled.',
        renewed: 'Your subscription has been renewed.',
      };
      sendHtml(res, 200, portalPage(sandbox, session, customer, notices[url.searchParams.get('notice') ?? '']));
      return;
    }
    if (method === 'POST' && (action === 'cancel' || action === 'renew')) {
      const form = parseForm(request.body.toString('utf8'));
      const sub = typeof form.subscription === 'string' ? state.data.subscriptions[form.subscription] : undefined;
      if (!sub || sub.customer !== customer.id) {
        sendHtml(
          res,
          404,
          messagePage('Subscription not found', 'This subscription does not belong to this customer.'),
        );
        return;
      }
      let notice: string;
      if (action === 'renew') {
        await sandbox.billing.setCancelAtPeriodEnd(sub.id, false);
        notice = 'renewed';
      } else if (form.when === 'now') {
        await sandbox.billing.cancelNow(sub.id);
        notice = 'canceled';
      } else {
        await sandbox.billing.setCancelAtPeriodEnd(sub.id, true);
        notice = 'scheduled';
      }
      redirect(res, `/portal/${session.id}?notice=${notice}`);
      return;
    }
    sendHtml(res, 405, messagePage('Not allowed', `${method} is not allowed here.`));
  };
}
