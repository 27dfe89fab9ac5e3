// Passwords: bcrypt with cost 10 (GoTrue's; 4 in the test profile, see settings.ts), at most 72
// bytes, at least the configured length.
// Hashing runs on libuv's thread pool (@node-rs/bcrypt), never on the event loop that also
// serves the gateway and Storage: a sign-in must not stall every other request.
import { hash as bcryptHash, verify } from '@node-rs/bcrypt';
import { unprocessable, weakPassword } from './errors.ts';
import type { AuthSettings } from './settings.ts';

const maxPasswordBytes = 72;

/** Throws GoTrue's 422 answers for a password that is too long or too weak. */
export function checkPassword(settings: AuthSettings, password: string): void {
  if (Buffer.byteLength(password, 'utf8') > maxPasswordBytes) {
    throw unprocessable('validation_failed', `Password cannot be longer than ${maxPasswordBytes} characters`);
  }
  if ([...password].length < settings.minimumPasswordLength) {
    throw weakPassword(`Password should be at least ${settings.minimumPasswordLength} characters.`, ['length']);
  }
}

const dummies = new Map<number, Promise<string>>();
/** Compared against when the e-mail is unknown, so both cases take as long. */
export function dummyHash(settings: AuthSettings): Promise<string> {
  const cost = settings.passwordHashCost;
  if (!dummies.has(cost)) dummies.set(cost, bcryptHash('not-a-password-of-anyone', cost));
  return dummies.get(cost)!;
}

export function hashPassword(settings: AuthSettings, password: string): Promise<string> {
  return bcryptHash(password, settings.passwordHashCost);
}

/** Compares in constant time; a user without a password never matches. */
export async function passwordMatches(password: string, hash: string | null): Promise<boolean> {
  if (!hash || Buffer.byteLength(password, 'utf8') > maxPasswordBytes) return false;
  try {
    return await verify(password, hash);
  } catch {
    return false;
  }
}
