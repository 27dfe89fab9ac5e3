// What every Storage route needs.
import type { StackConfig } from '../config.ts';
import type { StorageDb } from './db.ts';
import type { ObjectFiles } from './files.ts';
import type { Tokens } from './jwt.ts';

export interface StorageContext {
  config: StackConfig;
  db: StorageDb;
  files: ObjectFiles;
  tokens: Tokens;
  /** Project-wide upload limit in bytes. */
  globalLimit: number;
}
