// /unsubscribe?token=: the page an e-mail's unsubscribe link opens (issue 43, item 1). It asks
// before it unsubscribes (mail scanners open links on their own), for anyone holding the link:
// the signed token is the authority, not a session.
import { readUnsubscribeClaim, UNSUBSCRIBE_TOKEN_PARAM } from '@domain/email';
import { Link, useSearchParams } from 'react-router-dom';
import { ErrorAlert } from '@/components/alert';
import { AuthCard } from '@/components/auth-card';
import { errorMessage } from '@/lib/api-client';
import { useUnsubscribe } from '@/features/email/api/unsubscribe';
import { unsubscribeTexts as t } from '@/features/email/texts';

export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get(UNSUBSCRIBE_TOKEN_PARAM) ?? '';
  const claim = readUnsubscribeClaim(token);
  const unsubscribe = useUnsubscribe();
  const home = (
    <Link className="link link-primary" to="/">
      {t.toCastloop}
    </Link>
  );
  if (!claim) {
    return (
      <AuthCard title={t.title}>
        <ErrorAlert title={t.failedTitle} message={t.invalidLink} />
        {home}
      </AuthCard>
    );
  }
  if (unsubscribe.isSuccess) {
    return (
      <AuthCard title={t.doneTitle}>
        <p role="status">{unsubscribe.data.message}</p>
        {home}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t.title}>
      <p>{t.question(claim.kind)}</p>
      <p className="text-sm text-base-content/70">{t.hint}</p>
      {unsubscribe.isError && <ErrorAlert title={t.failedTitle} message={errorMessage(unsubscribe.error, t.failed)} />}
      <button type="button" className="btn btn-primary self-start" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate(token)}>
        {unsubscribe.isPending ? t.pending : t.confirm}
      </button>
      {home}
    </AuthCard>
  );
}
