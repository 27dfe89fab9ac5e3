// Linting a snippet as if it were a file of the repository, with the repository's own
// eslint.config.js and only the rules a test is about (the others, no-cycle above all, would walk
// each imported module graph). The file need not exist; what it imports must.
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';

const root = path.join(import.meta.dirname, '..', '..');

/** A linter of snippets for `rules`: the messages of those rules for `source` linted as `file` (relative to the repository). */
export function snippetLinter(rules: readonly string[]): (file: string, source: string) => Promise<Linter.LintMessage[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: path.join(root, 'eslint.config.js'),
    ruleFilter: ({ ruleId }) => rules.includes(ruleId),
  });
  return async (file, source) => {
    const [result] = await eslint.lintText(`${source}\n`, { filePath: path.join(root, file) });
    // A snippet that does not parse, or a rule the configuration lacks, is the test's mistake.
    const unexpected = result.messages.find((message) => message.ruleId === null);
    if (unexpected) throw new Error(`${file}: ${unexpected.message}`);
    return result.messages.filter((message) => message.ruleId !== null && rules.includes(message.ruleId));
  };
}
