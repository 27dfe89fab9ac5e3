// Starts and stops the whole Docker-free Supabase-compatible stack, in dependency order.
// Used by `npm start` (local/start.ts) and by `npm test` (tests/support/global-setup.ts).
import type { Server } from 'node:http';
import path from 'node:path';
import { createAuthService } from './auth/index.ts';
import { repoRoot, type StackConfig } from './config.ts';
import { functionSourceDirs, startFunctions } from './functions/functions.ts';
import { startGateway } from './gateway/gateway.ts';
import { startMailbox } from './mailbox/mailbox.ts';
import { startDatabase, wipeData } from './postgres/database.ts';
import { startScheduler } from './cron/scheduler.ts';
import { startPostgrest } from './postgrest/postgrest.ts';
import { startSandbox } from './sandbox/index.ts';
import { automationFunctionEnv } from './sandbox/automation/settings.ts';
import { oauthFunctionEnv } from './sandbox/oauth/settings.ts';
import { stripeFunctionEnv } from './sandbox/stripe/settings.ts';
import { createStorageService } from './storage/index.ts';
import { superviseService, type SupervisedService, type SuperviseOptions } from './lib/process.ts';
import { watchSources } from './lib/watch.ts';
import { startWeb } from './web.ts';
import { startWorkerProcess } from './worker.ts';

export interface StackOptions {
  reset?: boolean;
  /** Restart functions when their files change (npm start). */
  watch?: boolean;
  /** `dev`: Vite dev server; `preview`: built SPA (tests); `none`: no web server. */
  web?: 'dev' | 'preview' | 'none';
  /** Fixture functions hosted beside the project's own (tests only). */
  extraFunctionsDirs?: string[];
  log?: (line: string) => void;
  /** A part died and could not be restarted (npm start then says so and exits). */
  onFatal?: (message: string) => void;
  /** Start the processing worker (worker/); default true. */
  worker?: boolean;
}

export interface RunningStack {
  config: StackConfig;
  /** The parts that run as their own processes; each restarts by itself if it dies. */
  services: { postgres: SupervisedService; postgrest: SupervisedService; functions: SupervisedService; worker?: SupervisedService };
  stop(): Promise<void>;
}

type Stopper = () => Promise<void>;

function closeServer(server: Server): Stopper {
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

export async function startStack(config: StackConfig, options: StackOptions = {}): Promise<RunningStack> {
  const log = options.log ?? (() => {});
  const stoppers: Stopper[] = [];
  const stopAll = async () => {
    // Reverse order: web and gateway first, the database last.
    for (const stop of stoppers.reverse().splice(0)) {
      try {
        await stop();
      } catch (error) {
        log(`while stopping: ${(error as Error).message}`);
      }
    }
  };
  const supervision: SuperviseOptions = { log, onGiveUp: options.onFatal ?? log };
  const step = async <T>(name: string, start: () => Promise<T>): Promise<T> => {
    const began = Date.now();
    const result = await start();
    log(`${name} ready (${Date.now() - began} ms)`);
    return result;
  };

  let services: RunningStack['services'];
  try {
    if (options.reset) {
      await wipeData(config);
      log(`wiped ${config.dataDir}`);
    }
    const db = await step('Postgres', () => startDatabase(config, log, supervision));
    stoppers.push(() => db.stop());

    const mailbox = await step('Mailbox', () => startMailbox(config));
    stoppers.push(() => mailbox.stop());

    const [rest, auth, storage] = await Promise.all([
      step('PostgREST', () => superviseService(() => startPostgrest(config), supervision)),
      step('Auth', () => createAuthService(config)),
      step('Storage', () => createStorageService(config)),
    ]);
    stoppers.push(() => rest.stop(), () => auth.close(), () => storage.close());

    const gateway = await step('API gateway', () => startGateway(config, { auth, storage }));
    stoppers.push(closeServer(gateway));

    const sandbox = await step('Sandboxes', () => startSandbox(config));
    stoppers.push(() => sandbox.stop());

    // The parts that need nothing from each other start side by side (npm start's warm start was
    // their sum: the functions host, the worker's tool check and start, the web server), each
    // stopped in reverse of the order it came up in. The scheduler calls the functions: it starts
    // once they answer.
    const together = async <T>(name: string, start: () => Promise<T>, stopper: (part: T) => Stopper): Promise<T> => {
      const part = await step(name, start);
      stoppers.push(stopper(part));
      return part;
    };
    const functionsUp = together(
      'Edge Functions',
      () =>
        superviseService(
          () =>
            startFunctions(config, {
              extraDirs: options.extraFunctionsDirs,
              // This stack's own sandboxes (Stripe, OAuth providers, WordPress, the automation), unless .env
              // points a service at the real one.
              sandboxEnv: { ...stripeFunctionEnv(config), ...oauthFunctionEnv(config), ...automationFunctionEnv(config) },
              onLine: (line) => log(`[functions] ${line}`),
            }),
          supervision,
        ),
      (part) => () => part.stop(),
    );
    const schedulerUp = functionsUp.then(() => together('Scheduler (cron, net)', () => startScheduler(config, log), (scheduler) => () => scheduler.stop()));
    const workerUp =
      (options.worker ?? true)
        ? together('Processing worker', () => superviseService(() => startWorkerProcess(config, (line) => log(line)), supervision), (part) => () => part.stop())
        : Promise.resolve(undefined);
    const webUp = options.web && options.web !== 'none' ? together('Web', () => startWeb(config, options.web as 'dev' | 'preview'), (web) => () => web.stop()) : Promise.resolve(undefined);
    const failed = (await Promise.allSettled([functionsUp, schedulerUp, workerUp, webUp])).find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const functions = await functionsUp;
    const worker = await workerUp;
    services = { postgres: db, postgrest: rest, functions, ...(worker ? { worker } : {}) };
    if (options.watch) {
      const unwatch = watchSources(functionSourceDirs(options.extraFunctionsDirs), (file) => {
        void services.functions.restart(`${path.relative(repoRoot, file)} changed`);
      });
      stoppers.push(async () => unwatch());
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { config, services, stop: stopAll };
}
