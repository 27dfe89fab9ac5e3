// The episode's title is the subscriber's (issue 41, item 1): given at submission it is confirmed;
// without one the worker's suggestion stands until the owner accepts or changes it.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { addCheckedEpisodeFile, createReadySubscriber, createUser, inRolledBackTx, queryAs, runAs } from './db-support.ts';

type Json = Record<string, unknown>;

async function submitted(db: pg.Client, options: Json) {
  const user = await createReadySubscriber(db, 'scale');
  const file = `${user.id}/u/episode-7.mp4`;
  await addCheckedEpisodeFile(db, file, 120);
  const [{ r }] = await queryAs<{ r: Json }>(db, { id: user.id }, 'select public.submit_episode($1, $2) as r', [[file], options]);
  const row = async () => (await db.query('select title, title_confirmed, guests from public.episodes where id = $1', [r.id])).rows[0];
  const processing = (await db.query('select id from public.episode_processing where episode_id = $1', [r.id])).rows[0].id as string;
  return { user, episodeId: String(r.id), row, processing };
}

describe('episode titles and guests', () => {
  it('keeps a given title and the guests; the worker suggests none over it', async () => {
    await inRolledBackTx(async (db) => {
      const { row, processing } = await submitted(db, { title: '  Microphones, Sounds and Dynamics ', guests: ['Ada Lovelace', ' ', 'Alan Turing '] });
      expect(await row()).toEqual({ title: 'Microphones, Sounds and Dynamics', title_confirmed: true, guests: ['Ada Lovelace', 'Alan Turing'] });
      await db.query(`select private.record_suggested_title($1, 'Country')`, [processing]);
      expect((await row()).title).toBe('Microphones, Sounds and Dynamics');
    });
  });

  it("takes the worker's suggestion until the owner accepts or changes it, and only the owner", async () => {
    await inRolledBackTx(async (db) => {
      const { user, episodeId, row, processing } = await submitted(db, {});
      expect(await row()).toMatchObject({ title: 'episode-7', title_confirmed: false, guests: [] });
      await db.query(`select private.record_suggested_title($1, 'Budgets and Savings')`, [processing]);
      expect(await row()).toMatchObject({ title: 'Budgets and Savings', title_confirmed: false });
      const other = await createUser(db);
      expect(await runAs(db, { id: other.id }, 'select public.rename_episode($1, $2)', [episodeId, 'Mine now'])).toMatchObject({ code: 'PT404' });
      expect(await runAs(db, { id: user.id }, 'select public.rename_episode($1, $2)', [episodeId, ' '])).toMatchObject({ code: '22023', message: 'invalid_title' });
      const [{ r }] = await queryAs<{ r: Json }>(db, { id: user.id }, 'select public.rename_episode($1, $2) as r', [episodeId, 'Why Budgets Fail']);
      expect(r).toEqual({ id: episodeId, title: 'Why Budgets Fail', titleConfirmed: true });
      await db.query(`select private.record_suggested_title($1, 'Country')`, [processing]);
      expect(await row()).toMatchObject({ title: 'Why Budgets Fail', title_confirmed: true });
    });
  });

  it('refuses guests that are not a short list of names, and a title over 200 characters', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db);
      const file = `${user.id}/u/a.mp4`;
      await addCheckedEpisodeFile(db, file, 120);
      for (const [options, message] of [
        [{ guests: 'Ada' }, 'invalid_guests'],
        [{ guests: [1] }, 'invalid_guests'],
        [{ guests: Array.from({ length: 11 }, (_, i) => `Guest ${i}`) }, 'invalid_guests'],
        [{ guests: ['x'.repeat(101)] }, 'invalid_guests'],
        [{ title: 'x'.repeat(201) }, 'invalid_title'],
      ] as const) {
        expect(await runAs(db, { id: user.id }, 'select public.submit_episode($1, $2)', [[file], options])).toMatchObject({ code: '22023', message });
      }
    });
  });
});
