// A JSON file that mirrors a module's in-memory state, so it survives restarts of `npm start`.
// Writes are coalesced and atomic (write to a temp file, then rename).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class JsonFile<T> {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => T,
  ) {}

  load(): T | null {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as T;
    } catch {
      return null;
    }
  }

  /** Schedules a write shortly (several changes in one tick are written once). */
  save(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), 50);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.snapshot()));
    renameSync(temp, this.file);
  }
}
