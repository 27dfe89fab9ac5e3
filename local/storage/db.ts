// Database access as `supabase_storage_admin`: each request's queries run in a transaction
// under the caller's role and JWT claims, so storage RLS policies decide, as on Supabase.
import pg from 'pg';
import type { StackConfig } from '../config.ts';
import { fromDbError } from './errors.ts';
import type { Caller } from './jwt.ts';

export type Db = pg.PoolClient;

export interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  created_at: Date;
  updated_at: Date;
}

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  last_accessed_at: Date;
}

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

// Bigint columns (bucket limits) as numbers, for this pool only: pg's global parsers are
// shared with the rest of the stack in this process.
const storageTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export class StorageDb {
  readonly pool: pg.Pool;

  constructor(config: StackConfig) {
    this.pool = new pg.Pool({
      host: config.host,
      port: config.ports.db,
      user: 'supabase_storage_admin',
      password: config.dbPassword,
      database: 'postgres',
      max: 20,
      idleTimeoutMillis: 30_000,
      types: storageTypes,
    });
    this.pool.on('error', () => {}); // idle clients dropped by a stopping database
  }

  /**
   * Runs `work` in a transaction. With a caller, the transaction runs as the caller's role
   * with its claims; without one, as `supabase_storage_admin` (owner of the tables: no RLS).
   * `rollback: true` only tests whether the statements would pass.
   */
  async tx<T>(caller: Caller | null, work: (db: Db) => Promise<T>, options: { rollback?: boolean } = {}): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      if (caller) await setCaller(client, caller);
      const result = await work(client);
      await client.query(options.rollback ? 'rollback' : 'commit');
      return result;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch {
        broken = true;
      }
      throw fromDbError(error);
    } finally {
      client.release(broken);
    }
  }

  /** As the caller. */
  as<T>(caller: Caller, work: (db: Db) => Promise<T>): Promise<T> {
    return this.tx(caller, work);
  }

  /** As the storage admin (bypasses RLS): limits, public buckets, signed URLs. */
  admin<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.tx(null, work);
  }

  async findBucket(id: string): Promise<BucketRow | null> {
    const { rows } = await this.pool.query<BucketRow>('select * from storage.buckets where id = $1', [id]);
    return rows[0] ?? null;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Switches the current transaction to the caller's role and claims. */
export async function setCaller(db: Db, caller: Caller): Promise<void> {
  // The role is one of three fixed names (checked in jwt.ts), so it is safe to inline.
  await db.query(`set local role ${caller.role}`);
  await db.query(
    `select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true),
            set_config('request.jwt.claim.role', $3, true), set_config('request.method', $4, true)`,
    [JSON.stringify(caller.claims), caller.sub ?? '', caller.role, ''],
  );
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `owner` is a uuid column: only a uuid `sub` goes there; `owner_id` keeps any sub. */
export function ownerColumns(sub: string | null): { owner: string | null; owner_id: string | null } {
  return { owner: sub && uuidPattern.test(sub) ? sub : null, owner_id: sub };
}
