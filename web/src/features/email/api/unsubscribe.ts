// POST /api/email/unsubscribe?token=: the signed link of an e-mail stops that kind of e-mail.
import { UNSUBSCRIBE_TOKEN_PARAM, unsubscribeAnswerSchema } from '@domain/email';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

function unsubscribe(token: string) {
  return apiRequest('POST', `/api/email/unsubscribe?${new URLSearchParams({ [UNSUBSCRIBE_TOKEN_PARAM]: token })}`, unsubscribeAnswerSchema);
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
