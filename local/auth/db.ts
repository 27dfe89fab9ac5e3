// The auth service's database access: a pool logged in as `supabase_auth_admin`, which owns
// the auth schema (as GoTrue's own connection does), and a transaction helper.
import pg from 'pg';
import type { StackConfig } from '../config.ts';

export type Db = pg.Pool;
export type Queryable = pg.Pool | pg.PoolClient;

export function createPool(config: StackConfig): Db {
  const pool = new pg.Pool({
    host: config.host,
    port: config.ports.db,
    user: 'supabase_auth_admin',
    password: config.dbPassword,
    database: 'postgres',
    max: 10,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', () => {}); // a dropped idle connection is replaced on the next query
  return pool;
}

export async function transaction<T>(pool: Db, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * GoTrue creates `auth.mfa_amr_claims` in its own migrations: how each session was
 * authenticated, for the `amr` claim of refreshed tokens. Created here when missing.
 */
export async function ensureSchema(pool: Db): Promise<void> {
  await pool.query(`
    create table if not exists auth.mfa_amr_claims (
      session_id uuid not null references auth.sessions (id) on delete cascade,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      authentication_method text not null,
      id uuid not null primary key,
      constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
    )`);
}
