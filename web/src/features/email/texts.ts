// The /unsubscribe page's words (issue 43, item 1).
import { emailKindDescriptions, type EmailKind } from '@domain/email';

export const unsubscribeTexts = {
  title: 'Unsubscribe',
  question: (kind: EmailKind) => `Stop the e-mails Castloop sends when ${emailKindDescriptions[kind]}?`,
  hint: 'You keep getting the e-mails about failed episodes, connections to reconnect and your hosting.',
  confirm: 'Unsubscribe',
  pending: 'Unsubscribing...',
  doneTitle: 'Unsubscribed',
  invalidLink: 'This unsubscribe link is not valid. Use the link in the newest e-mail from Castloop.',
  failedTitle: 'Could not unsubscribe',
  failed: 'Could not unsubscribe. Please try again.',
  toCastloop: 'Go to Castloop',
} as const;
