// Lint rules for the whole repository. Feature folders may not import one another or the
// app layer: shared code -> features -> app. The rooms (web, functions, worker, local) import
// one another only as `roomZones` allows (docs/decisions.md, "Architecture: the rooms").
import js from '@eslint/js';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Tests off the real clock (docs/decisions.md, "Tests run off the real clock"): no fixed wait over
// `fixedSleepMs` outside a loop (a wait inside a loop is a poll interval). Its length may be
// written as a number or through constants of the file (`const WATCH_MS = 2_000`, `2 * SECOND`,
// `timings.watch` of a const object), which `constantNumber` follows; a parameter or an import
// is not followed. tests/unit/fixed-waits.test.ts proves the rule.
const fixedSleepMs = 200;
const fixedSleepMessage = `A fixed wait over ${fixedSleepMs} ms on the real clock: poll with a deadline, set the time in SQL, or use fake timers.`;
const loops = new Set(['WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForOfStatement', 'ForInStatement']);

/** The argument that is the wait's length: setTimeout's delay, sleep/delay/wait's and waitForTimeout's only one. */
function waitLength({ callee, arguments: args }) {
  if (callee.type === 'Identifier' && callee.name === 'setTimeout') return args[1];
  if (callee.type === 'Identifier' && /^(sleep|delay|wait)$/.test(callee.name)) return args[0];
  if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name === 'waitForTimeout') return args[0];
  return undefined;
}

/** The `const` a name refers to from `scope` (its declarator, with the scope its value is read in). */
function constDeclarator(name, scope) {
  for (let at = scope; at; at = at.upper) {
    const variable = at.set.get(name);
    if (!variable) continue;
    const [definition] = variable.defs;
    const isConst = definition?.type === 'Variable' && definition.parent.kind === 'const' && definition.node.id.type === 'Identifier';
    return isConst && definition.node.init ? { init: definition.node.init, scope: variable.scope } : undefined;
  }
  return undefined;
}

/** The number `node` always is, through number literals, arithmetic and constants of the file; else undefined. */
function constantNumber(node, scope, depth = 0) {
  if (!node || depth > 20) return undefined;
  const inner = (child, at = scope) => constantNumber(child, at, depth + 1);
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'number' ? node.value : undefined;
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
      return inner(node.expression);
    case 'UnaryExpression': {
      const value = inner(node.argument);
      if (value === undefined) return undefined;
      return node.operator === '-' ? -value : node.operator === '+' ? value : undefined;
    }
    case 'BinaryExpression': {
      const [left, right] = [inner(node.left), inner(node.right)];
      if (left === undefined || right === undefined) return undefined;
      const operations = { '+': left + right, '-': left - right, '*': left * right, '/': left / right };
      return operations[node.operator];
    }
    case 'Identifier': {
      const declarator = constDeclarator(node.name, scope);
      return declarator && inner(declarator.init, declarator.scope);
    }
    case 'MemberExpression': {
      const key = node.computed ? node.property.value : node.property.name;
      const declarator = node.object.type === 'Identifier' ? constDeclarator(node.object.name, scope) : undefined;
      let object = declarator?.init;
      while (object && object.type !== 'ObjectExpression' && 'expression' in object) object = object.expression;
      const property = object?.type === 'ObjectExpression'
        ? object.properties.find((entry) => entry.type === 'Property' && !entry.computed && (entry.key.name ?? entry.key.value) === key)
        : undefined;
      return property && inner(property.value, declarator.scope);
    }
    default:
      return undefined;
  }
}

const testClock = {
  rules: {
    'no-fixed-wait': {
      meta: { type: 'problem', schema: [], messages: { fixedWait: fixedSleepMessage } },
      create(context) {
        return {
          CallExpression(call) {
            const length = waitLength(call);
            if (!length) return;
            const ms = constantNumber(length, context.sourceCode.getScope(call));
            if (ms === undefined || ms <= fixedSleepMs) return;
            if (context.sourceCode.getAncestors(call).some((ancestor) => loops.has(ancestor.type))) return;
            context.report({ node: call, messageId: 'fixedWait' });
          },
        };
      },
    },
  },
};

// Product functions stay short enough to read at once (docs/decisions.md, "One way for each SPA
// job"): every line of a function counts, its comments and blank lines too, as a reader scrolls
// them. tests/unit/function-length.test.ts proves the rule.
const productFunctionMaxLines = 120;

// Which room may import what, by resolved path (import-x/no-restricted-paths, relative to this
// file). Tests are outside the rooms (they may reach anything they check); so are scripts/ and
// bench/. Pure domain code is the only thing two runtimes share: _shared/domain/ (also bundled
// into the SPA) and _shared/domain-server/ (the functions, the worker and the local stack only).
const functions = 'supabase/functions';
const domainOnly = {
  shared: './_shared/domain',
  server: './_shared/domain-server',
  types: './_shared/database.types.ts',
};
const roomZones = [
  {
    target: 'web',
    from: functions,
    except: [domainOnly.shared, domainOnly.types],
    message:
      'The SPA imports from supabase/functions only the shared domain code (_shared/domain, @domain/*) and the database types: never function runtime code or server-only domain code (_shared/domain-server).',
  },
  {
    target: ['web', 'vite.config.ts'],
    from: ['local', 'worker'],
    message: 'The SPA and its build never import the local stack or the worker.',
  },
  {
    target: functions,
    from: ['local', 'web', 'worker'],
    message: 'The functions never import the local stack, the SPA or the worker.',
  },
  { target: 'worker', from: ['local', 'web'], message: 'The worker never imports the local stack or the SPA.' },
  {
    target: 'worker',
    from: functions,
    except: [domainOnly.shared, domainOnly.server, domainOnly.types],
    message:
      'The worker (Node) shares only pure domain code with the functions (Deno): _shared/domain and _shared/domain-server.',
  },
  {
    target: 'local',
    from: ['web', 'worker'],
    message:
      'The local stack reaches the SPA only through vite.config.ts and the worker only by running worker/main.ts (local/worker.ts), both by path.',
  },
  {
    target: 'local',
    from: functions,
    except: [domainOnly.shared, domainOnly.server],
    message:
      'The local stack runs the functions through the Deno host by path; from supabase/functions it imports only pure domain code.',
  },
  {
    // What the SPA bundles imports nothing server-side: the shared domain code is closed.
    target: `${functions}/_shared/domain`,
    from: functions,
    except: [domainOnly.shared, domainOnly.types],
    message: 'Shared domain code imports only shared domain code and the database types (the SPA bundles it).',
  },
  {
    target: `${functions}/_shared/domain-server`,
    from: functions,
    except: [domainOnly.shared, domainOnly.server, domainOnly.types],
    message:
      'Server-only domain code is pure: it imports only domain code and the database types, never function runtime code.',
  },
];

// One way for each SPA job (docs/decisions.md, "One way for each SPA job"); each rule is proved
// on a violating snippet by tests/unit/spa-one-way.test.ts.
const spaOneWay = {
  castThroughUnknown: {
    selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
    message: 'No `as unknown as` in the SPA: parse with a schema (an /api answer: apiRequest with a @domain schema).',
  },
  inlineQueryKey: {
    selector: "Property[key.name='queryKey'] > ArrayExpression",
    message: 'Query keys come from web/src/lib/query-keys.ts (named by resource), never an inline array.',
  },
  fetch: {
    selector: "CallExpression[callee.name='fetch'], CallExpression[callee.property.name='fetch'][callee.object.name=/^(window|globalThis|self)$/]",
    message: 'Requests go through the one client (lib/api-client.ts: apiRequest/apiLoad) or lib/supabase.ts, from a features/<name>/api/ file.',
  },
  xhr: {
    selector: "NewExpression[callee.name='XMLHttpRequest']",
    message: 'Upload progress is an option of the one client (apiRequest ... { onUploadProgress }), not a second XMLHttpRequest client.',
  },
};
const spaSyntax = (...rules) => ['error', ...rules.map(({ selector, message }) => ({ selector, message }))];
const useFormOutsideForm = {
  name: 'react-hook-form',
  importNames: ['useForm'],
  message: "Forms use useZodForm and Form from '@/components/form' (react-hook-form + zod, one place).",
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.local-data', 'coverage', 'test-results', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-undef': 'off',
    },
  },
  {
    // No import cycles anywhere in the product or the local stack.
    files: ['web/**/*.{ts,tsx}', 'vite.config.ts', 'supabase/functions/**/*.ts', 'local/**/*.ts', 'worker/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    // Packages never import the project back: the walk stays out of node_modules (eslint 16.5 -> 9.6 s).
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The rooms' fences (roomZones above).
    files: ['web/**/*.{ts,tsx}', 'vite.config.ts', 'supabase/functions/**/*.ts', 'local/**/*.ts', 'worker/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: roomZones }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [useFormOutsideForm],
          patterns: [
            {
              group: ['@/features/*', '@/app/*'],
              message: 'A feature imports only shared code (components, lib, @domain); the app composes features.',
            },
            {
              group: ['../../*', '!../../components/*', '!../../lib/*'],
              message: 'Do not reach into another feature.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests off the real clock: no fixed wait over 200 ms in a test. Poll with a deadline
    // (expect.poll, or a loop: a wait inside a loop is a poll interval), set times in SQL, or
    // use fake timers.
    files: ['tests/**/*.ts', '**/*.test.{ts,tsx}'],
    plugins: { 'test-clock': testClock },
    rules: { 'test-clock/no-fixed-wait': 'error' },
  },
  {
    // Product code: the SPA, the functions, the local stack and the worker.
    files: ['web/**/*.{ts,tsx}', 'supabase/functions/**/*.ts', 'local/**/*.ts', 'worker/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'web/src/testing/**'],
    rules: { 'max-lines-per-function': ['error', { max: productFunctionMaxLines }] },
  },
  {
    files: [
      'web/src/components/**/*.{ts,tsx}',
      'web/src/lib/**/*.{ts,tsx}',
      'supabase/functions/_shared/domain/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/features/*', '@/app/*'], message: 'Shared code must not depend on features or the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}'],
    ignores: ['web/src/components/form.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [useFormOutsideForm],
          patterns: [
            { group: ['@/features/*', '@/app/*'], message: 'Shared code must not depend on features or the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/app/**/*.{ts,tsx}', 'web/src/main.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: [useFormOutsideForm] }] },
  },
  {
    // The SPA's product code (its tests stand outside: they fake what the browser lacks).
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'web/src/lib/api-client.ts', 'web/src/lib/supabase.ts'],
    rules: {
      'no-restricted-syntax': spaSyntax(spaOneWay.castThroughUnknown, spaOneWay.inlineQueryKey, spaOneWay.fetch, spaOneWay.xhr),
    },
  },
  {
    // The two files that make requests.
    files: ['web/src/lib/api-client.ts', 'web/src/lib/supabase.ts'],
    rules: { 'no-restricted-syntax': spaSyntax(spaOneWay.castThroughUnknown, spaOneWay.inlineQueryKey) },
  },
);
