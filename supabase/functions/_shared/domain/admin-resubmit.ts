// The admin resubmission console (spec sections 3, 4, 5 and 7): what the server answers, what
// the resubmit form accepts, and how a selected log fills the form. Shared by the `api`
// function and the SPA.
import { z } from 'zod/mini';
import { processingStateSchema, type ProcessingState } from './processing.ts';

/** Admin clip styles (spec section 5); they differ from the subscriber's set. */
export const ADMIN_CLIP_STYLES = ['DEFAULT', 'PORTRAIT', 'LANDSCAPE'] as const;
export type AdminClipStyle = (typeof ADMIN_CLIP_STYLES)[number];
export const MIN_DAYS_BETWEEN_CLIPS = 1;
/** Files one resubmission may carry, as for a subscriber's submission. */
const MAX_RESUBMIT_FILES = 10;

export const adminResubmitMessages = {
  noFilesTitle: 'No Files Selected',
  noFiles: 'Please select at least one file to resubmit.',
  emailRequiredTitle: 'Email Required',
  emailRequired: "Please enter the user's email address.",
  /** The spec's words, for a resubmission the automation webhook takes. */
  success: 'Episode successfully resubmitted to an automation webhook',
  successBuiltin: "Episode successfully resubmitted to Castloop's built-in processing",
} as const;

/** Which automation took a submission: the built-in worker, or the webhook (through the outbox). */
export type ResubmitAutomation = 'builtin' | 'webhook';

/** The success message naming the automation that took the resubmission. */
export function resubmitSuccessMessage(automation: ResubmitAutomation): string {
  return automation === 'builtin' ? adminResubmitMessages.successBuiltin : adminResubmitMessages.success;
}

interface SubmissionParameters {
  startTimestamp?: string | null;
  endTimestamp?: string | null;
  clipStyle?: string | null;
  daysBetweenClips?: number | null;
  addLogo?: boolean | null;
  addIntroOutro?: boolean | null;
}

/** skipped: the built-in worker took the submission, so the webhook was not posted. */
type DeliveryState = 'pending' | 'delivered' | 'failed' | 'skipped';

/** One outbox delivery of a log to the automation webhook. */
interface LogDelivery {
  state: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  nextAttemptAt: string;
}

/** Episode submission log (admin), spec section 3, plus its delivery. */
export interface SubmissionLog {
  id: string;
  userEmail: string;
  submittedAt: string;
  status: string;
  objectStorageFiles: string[];
  submissionParameters: SubmissionParameters;
  originalLogId: string | null;
  delivery: LogDelivery | null;
  /** The built-in worker's processing of the log, if it took it. */
  processing: ProcessingState | null;
}

/** Object storage file, spec section 3: size in bytes, uploaded as an ISO date. */
export interface ObjectStorageFile {
  path: string;
  name: string;
  size: number | null;
  uploaded: string;
}

/** GET /api/admin/episode-logs and GET /api/admin/object-storage/files answer one page. */
export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** A page's schema from its item's. */
export const pageOf = <T>(item: z.ZodMiniType<T>): z.ZodMiniType<Page<T>> => z.object({ items: z.array(item), nextCursor: z.nullable(z.string()) });
const optionalNullable = <T>(schema: z.ZodMiniType<T>) => z.optional(z.nullable(schema));

/** A page of GET /api/admin/episode-logs as the SPA parses it. */
export const submissionLogPageSchema: z.ZodMiniType<Page<SubmissionLog>> = pageOf(
  z.object({
    id: z.string(),
    userEmail: z.string(),
    submittedAt: z.string(),
    status: z.string(),
    objectStorageFiles: z.array(z.string()),
    submissionParameters: z.object({
      startTimestamp: optionalNullable(z.string()),
      endTimestamp: optionalNullable(z.string()),
      clipStyle: optionalNullable(z.string()),
      daysBetweenClips: optionalNullable(z.number()),
      addLogo: optionalNullable(z.boolean()),
      addIntroOutro: optionalNullable(z.boolean()),
    }),
    originalLogId: z.nullable(z.string()),
    delivery: z.nullable(
      z.object({
        state: z.enum(['pending', 'delivered', 'failed', 'skipped']),
        attempts: z.number(),
        lastStatus: z.nullable(z.number()),
        lastError: z.nullable(z.string()),
        deliveredAt: z.nullable(z.string()),
        nextAttemptAt: z.string(),
      }),
    ),
    processing: z.nullable(processingStateSchema),
  }),
);

/** POST /api/admin/episodes/resubmit: what the SPA reads of the answer (the toast's words). */
export const resubmitResultSchema = z.object({ message: z.string() });

/** A page of GET /api/admin/object-storage/files as the SPA parses it. */
export const objectStorageFilePageSchema: z.ZodMiniType<Page<ObjectStorageFile>> = pageOf(
  z.object({ path: z.string(), name: z.string(), size: z.nullable(z.number()), uploaded: z.string() }),
);

export const resubmitPayloadSchema = z.object({
  objectStorageFiles: z
    .array(z.string().check(z.minLength(1), z.maxLength(1024)))
    .check(
      z.minLength(1, adminResubmitMessages.noFiles),
      z.maxLength(MAX_RESUBMIT_FILES, `At most ${MAX_RESUBMIT_FILES} files can be resubmitted at once.`),
    ),
  userEmail: z.string().check(z.trim(), z.minLength(1, adminResubmitMessages.emailRequired), z.maxLength(320)),
  episodeData: z.optional(z.record(z.string(), z.unknown())),
  originalLogId: z.optional(z.nullable(z.uuid('originalLogId must be a submission log id'))),
});
export type ResubmitPayload = z.infer<typeof resubmitPayloadSchema>;

export interface ResubmitForm {
  userEmail: string;
  objectStorageFiles: string[];
  startTimestamp: string;
  endTimestamp: string;
  clipStyle: AdminClipStyle;
  daysBetweenClips: number;
  addLogo: boolean;
  addIntroOutro: boolean;
  originalLogId: string | null;
}

/** The console's form: the files and the e-mail are required (missingForResubmit's words). */
export const resubmitFormSchema: z.ZodMiniType<ResubmitForm, ResubmitForm> = z.object({
  userEmail: z.string().check(z.refine((value) => value.trim() !== '', adminResubmitMessages.emailRequired)),
  objectStorageFiles: z.array(z.string()).check(z.minLength(1, adminResubmitMessages.noFiles)),
  startTimestamp: z.string(),
  endTimestamp: z.string(),
  clipStyle: z.enum(ADMIN_CLIP_STYLES),
  daysBetweenClips: z.number(),
  addLogo: z.boolean(),
  addIntroOutro: z.boolean(),
  originalLogId: z.nullable(z.string()),
});

export const emptyResubmitForm: ResubmitForm = {
  userEmail: '',
  objectStorageFiles: [],
  startTimestamp: '',
  endTimestamp: '',
  clipStyle: 'DEFAULT',
  daysBetweenClips: MIN_DAYS_BETWEEN_CLIPS,
  addLogo: true,
  addIntroOutro: true,
  originalLogId: null,
};

const isAdminClipStyle = (value: unknown): value is AdminClipStyle =>
  typeof value === 'string' && (ADMIN_CLIP_STYLES as readonly string[]).includes(value);

/**
 * Selecting a log fills the form (spec section 4): its e-mail, files and parameters, defaults
 * where missing; addLogo and addIntroOutro stay true unless explicitly false. A clip style
 * outside the admin set falls back to DEFAULT.
 */
export function formFromLog(
  log: Pick<SubmissionLog, 'id' | 'userEmail' | 'objectStorageFiles' | 'submissionParameters'>,
): ResubmitForm {
  const params = log.submissionParameters ?? {};
  const days = Number(params.daysBetweenClips);
  return {
    userEmail: log.userEmail ?? '',
    objectStorageFiles: [...(log.objectStorageFiles ?? [])],
    startTimestamp: params.startTimestamp ?? '',
    endTimestamp: params.endTimestamp ?? '',
    clipStyle: isAdminClipStyle(params.clipStyle) ? params.clipStyle : 'DEFAULT',
    daysBetweenClips: Number.isInteger(days) && days >= MIN_DAYS_BETWEEN_CLIPS ? days : MIN_DAYS_BETWEEN_CLIPS,
    addLogo: params.addLogo !== false,
    addIntroOutro: params.addIntroOutro !== false,
    originalLogId: log.id,
  };
}

/** The request body for a filled form. */
export function resubmitPayloadOf(form: ResubmitForm): ResubmitPayload {
  return {
    objectStorageFiles: form.objectStorageFiles,
    userEmail: form.userEmail.trim(),
    episodeData: {
      startTimestamp: form.startTimestamp.trim() || null,
      endTimestamp: form.endTimestamp.trim() || null,
      clipStyle: form.clipStyle,
      daysBetweenClips: form.daysBetweenClips,
      addLogo: form.addLogo,
      addIntroOutro: form.addIntroOutro,
    },
    originalLogId: form.originalLogId,
  };
}

/** What still keeps the resubmit button disabled, in the spec's words (none: ready). */
export function missingForResubmit(
  form: Pick<ResubmitForm, 'userEmail' | 'objectStorageFiles'>,
): Array<{ title: string; message: string }> {
  const missing: Array<{ title: string; message: string }> = [];
  if (form.objectStorageFiles.length === 0)
    missing.push({ title: adminResubmitMessages.noFilesTitle, message: adminResubmitMessages.noFiles });
  if (!form.userEmail.trim())
    missing.push({ title: adminResubmitMessages.emailRequiredTitle, message: adminResubmitMessages.emailRequired });
  return missing;
}

/** File sizes in MB with 2 decimals (spec section 9). */
export function formatSizeMb(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return '-';
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
