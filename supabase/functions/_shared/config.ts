// The functions' settings (settings.ts), read from Deno.env once. Every Deno.env read of the
// functions is here. Each function's index.ts calls requireSettings(<its name>) before it
// serves: a missing or wrong setting throws there, so the function does not start (on hosted
// Supabase its worker fails to boot and the log names the settings; callers get the platform's
// boot error, not a function that half works).
import { readFunctionSettings, type FunctionName, type FunctionSettings } from './settings.ts';

let current: FunctionSettings | null = null;

export function settings(): FunctionSettings {
  current ??= readFunctionSettings(Deno.env.toObject());
  return current;
}

/** Throws, naming them, when function `name` lacks a setting it needs or one is wrong. */
export function requireSettings(name: FunctionName): void {
  current = readFunctionSettings(Deno.env.toObject(), name);
}
