// Quick Actions: Manage Subscription goes to /subscribe; Contact Support copies the support
// address (5 s toast) or, where the clipboard is unavailable, shows it for 8 s.
import { useNavigate } from 'react-router-dom';
import { Panel } from '@/components/panel';
import { supportEmail } from '@/lib/external-links';
import { notify } from '@/lib/toast';
import { dashboardTexts as t } from './texts';

const SUPPORT_COPIED_MS = 5000;
const SUPPORT_FALLBACK_MS = 8000;

async function copySupportAddress(
  clipboard: Pick<Clipboard, 'writeText'> | undefined = navigator.clipboard,
): Promise<void> {
  try {
    if (!clipboard) throw new Error('no clipboard');
    await clipboard.writeText(supportEmail);
    notify.success(t.supportCopiedTitle, { description: t.supportCopied(supportEmail), durationMs: SUPPORT_COPIED_MS });
  } catch {
    notify.info(t.supportAddressTitle, {
      description: t.supportAddress(supportEmail),
      durationMs: SUPPORT_FALLBACK_MS,
    });
  }
}

export function QuickActions() {
  const navigate = useNavigate();
  return (
    <Panel titleId="quick-actions-title" title={t.quickActions} className="bg-base-100 shadow">
      <div className="grid gap-3 sm:grid-cols-2">
        <button
          type="button"
          className="btn h-auto flex-col items-start py-3 text-left"
          onClick={() => navigate('/subscribe')}
        >
          <span className="font-semibold">{t.manageSubscription}</span>
          <span className="text-sm font-normal">{t.manageSubscriptionHint}</span>
        </button>
        <button
          type="button"
          className="btn h-auto flex-col items-start py-3 text-left"
          onClick={() => void copySupportAddress()}
        >
          <span className="font-semibold">{t.contactSupport}</span>
          <span className="text-sm font-normal">{t.contactSupportHint}</span>
        </button>
      </div>
      <p className="text-sm text-base-content/70">{t.billingDate}</p>
    </Panel>
  );
}
