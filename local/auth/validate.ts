// Input checks with GoTrue's messages.
import { badRequest } from './errors.ts';

const maxEmailLength = 255;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Validates and lower-cases an e-mail address. */
export function validateEmail(email: string | undefined): string {
  if (!email) throw badRequest('validation_failed', 'An email address is required');
  if (email.length > maxEmailLength) throw badRequest('validation_failed', 'An email address is too long');
  // The shape checkmail accepts: local@domain with a dot-free-or-dotted domain, no spaces.
  if (
    !/^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(
      email,
    )
  ) {
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  }
  return email.toLowerCase();
}

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
