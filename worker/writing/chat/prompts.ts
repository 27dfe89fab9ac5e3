// The chat engine's prompts: Markdown files in worker/writing/prompts, each of which an operator
// may replace with a file of the same name in WRITING_PROMPTS_DIR. `{{name}}` marks what the
// engine fills in; a replacement must keep its prompt's marks (checked when the worker starts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REPOSITORY_PROMPTS = path.join(import.meta.dirname, '..', 'prompts');

/** Each prompt and the marks it must hold. */
export const PROMPT_MARKS = {
  system: ['language'],
  piece: ['podcast', 'episode', 'part', 'transcript'],
  episode: ['podcast', 'episode', 'parts', 'chapters'],
  clips: ['podcast', 'title', 'hashtags', 'clips', 'titleLimit', 'youtubeTitleLimit', 'xLimit', 'linkedinLimit'],
  moments: ['podcast', 'episode', 'moments'],
} as const;
export type PromptName = keyof typeof PROMPT_MARKS;
export type Prompts = Record<PromptName, string>;

const names = Object.keys(PROMPT_MARKS) as PromptName[];

const fileOf = (name: PromptName, overrideDir: string | null) => {
  const own = overrideDir ? path.join(overrideDir, `${name}.md`) : null;
  return own && existsSync(own) ? own : path.join(REPOSITORY_PROMPTS, `${name}.md`);
};

/** What is wrong with the prompts an operator's directory gives (empty: nothing). */
export function promptProblems(overrideDir: string): string[] {
  return names.flatMap((name) => {
    const file = path.join(overrideDir, `${name}.md`);
    if (!existsSync(file)) return [];
    const text = readFileSync(file, 'utf8');
    const missing = PROMPT_MARKS[name].filter((mark) => !text.includes(`{{${mark}}}`));
    return missing.length ? [`WRITING_PROMPTS_DIR/${name}.md lacks ${missing.map((m) => `{{${m}}}`).join(', ')}`] : [];
  });
}

/** The prompts: the operator's where given, else the repository's. */
export function loadPrompts(overrideDir: string | null): Prompts {
  return Object.fromEntries(names.map((name) => [name, readFileSync(fileOf(name, overrideDir), 'utf8')])) as Prompts;
}

/** A prompt with its marks filled in (each value once: a value's own `{{...}}` stays text). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (mark, name: string) => values[name] ?? mark);
}
