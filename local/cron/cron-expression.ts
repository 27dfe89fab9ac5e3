// The schedules pg_cron accepts: five-field cron expressions (minute hour day-of-month month
// day-of-week, with *, lists, ranges and steps; day-of-week 0-7 with 0 and 7 Sunday) and
// '<n> seconds' (1-59). Times are UTC, pg_cron's default on Supabase.

export type Schedule = { kind: 'cron'; fields: Set<number>[]; domAny: boolean; dowAny: boolean } | { kind: 'seconds'; every: number };

const ranges: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

function parseField(text: string, [min, max]: [number, number]): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new Error(`invalid cron field "${text}"`);
    const step = match[4] ? Number(match[4]) : 1;
    let from = min;
    let to = max;
    if (match[1] !== '*') {
      from = Number(match[2]);
      to = match[3] !== undefined ? Number(match[3]) : match[4] ? max : from;
    }
    if (from < min || to > max || from > to || step < 1) throw new Error(`invalid cron field "${text}"`);
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

export function parseSchedule(schedule: string): Schedule {
  const seconds = /^\s*(\d+) seconds?\s*$/.exec(schedule);
  if (seconds) {
    const every = Number(seconds[1]);
    if (every < 1 || every > 59) throw new Error(`invalid interval "${schedule}"`);
    return { kind: 'seconds', every };
  }
  const parts = schedule.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`invalid cron schedule "${schedule}"`);
  const fields = parts.map((part, i) => parseField(part, ranges[i]));
  if (fields[4].has(7)) fields[4].add(0);
  return { kind: 'cron', fields, domAny: parts[2] === '*', dowAny: parts[4] === '*' };
}

/** Whether a cron schedule fires in the minute starting at `at` (UTC). */
export function firesAt(schedule: Schedule & { kind: 'cron' }, at: Date): boolean {
  const [minute, hour, dom, month, dow] = schedule.fields;
  if (!minute.has(at.getUTCMinutes()) || !hour.has(at.getUTCHours()) || !month.has(at.getUTCMonth() + 1)) return false;
  const domMatch = dom.has(at.getUTCDate());
  const dowMatch = dow.has(at.getUTCDay());
  // Standard cron: when both day fields are restricted, either may match.
  if (!schedule.domAny && !schedule.dowAny) return domMatch || dowMatch;
  return domMatch && dowMatch;
}
