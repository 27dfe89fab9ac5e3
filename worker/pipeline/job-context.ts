// What every job of the pipeline works with: the settings, the database, the processing row's
// state changes, the subscriber's connections and the log.
import type pg from 'pg';
import type { WorkerConfig } from '../config.ts';
import type { AccessTokenSource } from '../platforms/access-token.ts';
import type { ProcessingStore } from './store.ts';

export interface JobContext {
  config: WorkerConfig;
  db: pg.Pool;
  store: ProcessingStore;
  tokens: AccessTokenSource;
  log: (line: string) => void;
}
