// /api/admin/*: the episode resubmission console (spec sections 2, 5 and 7) and the hosting
// setup queue (issue 26, item 9). Every call runs as
// the caller, and the database decides who is an administrator (is_admin()): a signed-out
// caller gets 401, a signed-in non-administrator 403.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  resubmitPayloadSchema,
  resubmitSuccessMessage,
  type ResubmitAutomation,
  type ObjectStorageFile,
  type Page,
  type SubmissionLog,
} from '../../_shared/domain/admin-resubmit.ts';
import {
  hostingActionSchema,
  hostingMessages,
  type HostingActionResult,
  type HostingSetup,
} from '../../_shared/domain/admin-hosting.ts';
import type { Json } from '../../_shared/database.types.ts';
import { databaseError, type DatabaseError } from '../../_shared/database-errors.ts';
import { HttpError, parseJsonBody } from '../../_shared/http-error.ts';
import { requireCaller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';

const rpcError = (error: DatabaseError) => databaseError(error, 'The database refused the request');

const pageQuery = z.object({
  cursor: z.string().max(2048).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

function parsePageQuery(query: Record<string, string>) {
  const parsed = pageQuery.safeParse(query);
  if (!parsed.success) throw new HttpError(400, 'limit must be a whole number from 1 to 500');
  return parsed.data;
}

// A log cursor is the last log's "submittedAt|id" (newest first).
const logCursor = z.tuple([z.iso.datetime({ offset: true }), z.uuid()]);

export const adminRoutes = new Hono();

adminRoutes.get('/episode-logs', async (c) => {
  const caller = await requireCaller(c);
  const { cursor, limit } = parsePageQuery(c.req.query());
  let before: [string, string] | [null, null] = [null, null];
  if (cursor) {
    const parsed = logCursor.safeParse(cursor.split('|'));
    if (!parsed.success) throw new HttpError(400, 'Invalid cursor');
    before = parsed.data;
  }
  const { data, error } = await userClient(caller.accessToken).rpc('admin_submission_logs', {
    p_before_at: before[0] ?? undefined,
    p_before_id: before[1] ?? undefined,
    p_limit: limit ?? 50,
  });
  if (error) throw rpcError(error);
  const page = data as unknown as { logs: SubmissionLog[]; next: { submittedAt: string; id: string } | null };
  return c.json({
    items: page.logs,
    nextCursor: page.next ? `${page.next.submittedAt}|${page.next.id}` : null,
  } satisfies Page<SubmissionLog>);
});

adminRoutes.get('/object-storage/files', async (c) => {
  const caller = await requireCaller(c);
  const { cursor, limit } = parsePageQuery(c.req.query());
  const { data, error } = await userClient(caller.accessToken).rpc('admin_episode_files', {
    p_after: cursor,
    p_limit: limit ?? 100,
  });
  if (error) throw rpcError(error);
  const page = data as unknown as { files: ObjectStorageFile[]; next: string | null };
  return c.json({ items: page.files, nextCursor: page.next } satisfies Page<ObjectStorageFile>);
});

adminRoutes.post('/episodes/resubmit', async (c) => {
  const caller = await requireCaller(c);
  const payload = await parseJsonBody(c.req.raw, resubmitPayloadSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('admin_resubmit_submission', {
    object_storage_files: payload.objectStorageFiles,
    user_email: payload.userEmail,
    episode_data: (payload.episodeData ?? {}) as Json,
    original_log_id: payload.originalLogId ?? undefined,
  });
  if (error) throw rpcError(error);
  const { automation, ...log } = data as unknown as { automation: ResubmitAutomation; id: string; status: string; submittedAt: string };
  return c.json({ message: resubmitSuccessMessage(automation), automation, log }, 201);
});

// The hosting setup queue, longest waiting first; a cursor is the last row's "startedAt|id".
adminRoutes.get('/hosting-setups', async (c) => {
  const caller = await requireCaller(c);
  const { cursor, limit } = parsePageQuery(c.req.query());
  let after: [string, string] | [null, null] = [null, null];
  if (cursor) {
    const parsed = logCursor.safeParse(cursor.split('|'));
    if (!parsed.success) throw new HttpError(400, 'Invalid cursor');
    after = parsed.data;
  }
  const { data, error } = await userClient(caller.accessToken).rpc('admin_hosting_setups', {
    p_after_started_at: after[0] ?? undefined,
    p_after_id: after[1] ?? undefined,
    p_limit: limit ?? 50,
  });
  if (error) throw rpcError(error);
  const page = data as unknown as { items: HostingSetup[]; next: { startedAt: string; id: string } | null };
  return c.json({
    items: page.items,
    nextCursor: page.next ? `${page.next.startedAt}|${page.next.id}` : null,
  } satisfies Page<HostingSetup>);
});

// Mark hosting ready (submissions open) or start the setup again (they wait): audited by the database.
for (const [action, ready] of [['ready', true], ['start', false]] as const) {
  adminRoutes.post(`/hosting-setups/${action}`, async (c) => {
    const caller = await requireCaller(c);
    const { email } = await parseJsonBody(c.req.raw, hostingActionSchema);
    const { data, error } = await userClient(caller.accessToken).rpc('admin_mark_hosting_ready', { p_email: email, p_ready: ready });
    if (error) throw rpcError(error);
    const subscriber = data as unknown as HostingActionResult['subscriber'];
    const message = ready ? hostingMessages.ready(subscriber.email) : hostingMessages.started(subscriber.email);
    return c.json({ message, subscriber } satisfies HostingActionResult);
  });
}
