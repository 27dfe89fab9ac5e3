// The database's guards on accounts: the sign-up trigger never fails a sign-up, and e-mail
// addresses change only through the operators' function.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/stack.ts';
import { createUser, inRolledBackTx } from './db-support.ts';

async function signUpWith(db: pg.Client, metadata: unknown): Promise<Record<string, unknown> | undefined> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, raw_user_meta_data, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, '', $3, now(), now())`,
    [id, uniqueEmail('meta'), JSON.stringify(metadata)],
  );
  return (await db.query('select first_name, last_name from public.profiles where id = $1', [id])).rows[0];
}

describe('the sign-up trigger', () => {
  it.each([
    ['names over 200 characters', { first_name: 'x'.repeat(5000), last_name: ` ${'y'.repeat(201)} ` }, { first_name: 'x'.repeat(200), last_name: 'y'.repeat(200) }],
    ['camelCase keys and blanks', { firstName: '  Ada  ', lastName: '' }, { first_name: 'Ada', last_name: null }],
    ['names that are not strings', { first_name: { nested: true }, last_name: 42 }, { first_name: '{"nested": true}', last_name: '42' }],
    ['an array', ['not', 'an', 'object'], { first_name: null, last_name: null }],
    ['null', null, { first_name: null, last_name: null }],
  ])('creates a profile for metadata with %s', async (_label, metadata, names) => {
    await inRolledBackTx(async (db) => {
      expect(await signUpWith(db, metadata)).toEqual(names);
    });
  });
});

describe('e-mail changes', () => {
  it('are refused, made at once or started, whoever updates auth.users', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await db.query('savepoint before');
      await expect(db.query(`update auth.users set email = 'taken-over@example.com' where id = $1`, [user.id])).rejects.toMatchObject({
        code: '42501',
        message: 'email_change_not_allowed',
      });
      await db.query('rollback to savepoint before');
      await expect(db.query(`update auth.users set email_change = 'taken-over@example.com' where id = $1`, [user.id])).rejects.toMatchObject({
        code: '42501',
      });
      await db.query('rollback to savepoint before');
      // Other updates (sign-ins, metadata, clearing a change) go through.
      await db.query(`update auth.users set last_sign_in_at = now(), email_change = '' where id = $1`, [user.id]);
    });
  });

  it("are the operators' to make, refusing an address another account has", async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const other = await createUser(db);
      await db.query('savepoint before');
      await expect(db.query('select private.change_user_email($1, $2)', [user.id, other.email.toUpperCase()])).rejects.toMatchObject({
        code: '23505',
      });
      await db.query('rollback to savepoint before');
      await expect(db.query(`select private.change_user_email($1, 'not an address')`, [user.id])).rejects.toMatchObject({ code: '22023' });
      await db.query('rollback to savepoint before');
      await expect(
        db.query(`select private.change_user_email('00000000-0000-4000-8000-000000000000', 'unknown@example.com')`),
      ).rejects.toMatchObject({ code: 'PT404', message: 'user_not_found' });
      await db.query('rollback to savepoint before');
      await db.query(`select private.change_user_email($1, ' New.Address@Example.com ')`, [user.id]);
      const { rows } = await db.query('select u.email, p.email as profile from auth.users u join public.profiles p using (id) where u.id = $1', [user.id]);
      expect(rows[0]).toEqual({ email: 'new.address@example.com', profile: 'new.address@example.com' });
      // The operators' permission ends with the function.
      await db.query('savepoint after');
      await expect(db.query(`update auth.users set email = 'again@example.com' where id = $1`, [user.id])).rejects.toMatchObject({ code: '42501' });
    });
  });

  it('cannot be made by a signed-in user or the service role through the API', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      for (const role of ['authenticated', 'service_role']) {
        await db.query('savepoint before');
        await db.query(`set local role ${role}`);
        await expect(db.query(`select private.change_user_email($1, 'x@example.com')`, [user.id])).rejects.toMatchObject({ code: '42501' });
        await db.query('rollback to savepoint before');
      }
    });
  });
});
