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
