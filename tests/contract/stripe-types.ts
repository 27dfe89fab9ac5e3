// Checks JSON the Stripe sandbox sends against the `stripe` package's types, which Stripe
// generates from its published OpenAPI description (node_modules/stripe/OPENAPI_VERSION):
// every required field present, no field the pinned API version does not have (TypeScript's
// excess-property check on object literals, at every depth).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../../local/config.ts';

export interface Sample {
  /** Shown in the problems, e.g. "event invoice.paid" or "GET /v1/customers/cus_x". */
  label: string;
  /** A type under the `Stripe` namespace: 'Invoice', 'InvoicePaidEvent', 'Checkout.Session', ... */
  type: string;
  value: unknown;
}

/**
 * Decimal fields (`*_decimal`) travel as strings and the SDK turns them into its `Decimal`: the
 * types describe the SDK's value, so the string (checked here to be a decimal) stands in as any
 * Decimal.
 */
const decimalStandIn = '__decimal__';

function decimalsReplaced(value: unknown, problems: string[], at = ''): unknown {
  if (Array.isArray(value)) return value.map((item, index) => decimalsReplaced(item, problems, `${at}[${index}]`));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (key.endsWith('_decimal') && typeof v === 'string') {
        if (!/^-?\d+(\.\d+)?$/.test(v)) problems.push(`${at}.${key}: "${v}" is not a decimal`);
        return [key, decimalStandIn];
      }
      return [key, decimalsReplaced(v, problems, `${at}.${key}`)];
    }),
  );
}

/** Event type words the SDK spells as two: 'invoiceitem.created' -> 'InvoiceItemCreatedEvent'. */
const compoundWords: Record<string, string> = { invoiceitem: 'InvoiceItem' };

/** The SDK's type of one event: 'invoice.payment_succeeded' -> 'InvoicePaymentSucceededEvent'. */
export function eventTypeName(type: string): string {
  return `${type
    .split(/[._]/)
    .map((part) => compoundWords[part] ?? part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Event`;
}

/** Type errors, one line each ("<label>: <message>"); empty when every sample matches. */
export function stripeTypeErrors(samples: Sample[]): string[] {
  const dir = path.join(repoRoot, '.local-data', `stripe-types-${process.pid}`);
  const file = path.join(dir, 'samples.ts');
  const lines = ["import type Stripe from 'stripe';", 'declare const decimal: never;'];
  const starts: Array<{ line: number; label: string }> = [];
  const problems: string[] = [];
  samples.forEach((sample, index) => {
    starts.push({ line: lines.length, label: sample.label });
    const sampleProblems: string[] = [];
    const json = JSON.stringify(decimalsReplaced(sample.value, sampleProblems)).replaceAll(`"${decimalStandIn}"`, 'decimal');
    problems.push(...sampleProblems.map((problem) => `${sample.label}: ${problem}`));
    lines.push(`export const sample${index}: Stripe.${sample.type} = ${json};`);
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, lines.join('\n'));
  try {
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    return problems.concat(ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line : -1;
      const label = [...starts].reverse().find((start) => start.line <= line)?.label ?? 'samples';
      return `${label}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').slice(0, 1500)}`;
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
