// Pins the caption fonts the worker may download: for every Google Fonts family the profile
// offers (_shared/domain/google-fonts.ts), the npm package @fontsource/<family> at its current
// version with the registry's sha512 integrity, written to worker/media/caption-font-packages.json.
// The worker then fetches exactly that tarball and checks it against the pinned integrity; a
// family without a package is not listed (its captions use the fallback font). Run again to
// move to newer font versions (the diff shows what changed):
//   npx tsx scripts/pin-caption-fonts.ts [--registry https://registry.npmjs.org]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { googleFontFamilies } from '../supabase/functions/_shared/domain/google-fonts.ts';
import { fontsourcePackage, type CaptionFontPins } from '../worker/media/fonts.ts';

const registryFlag = process.argv.indexOf('--registry');
const registry = (registryFlag > 0 ? process.argv[registryFlag + 1] : 'https://registry.npmjs.org').replace(/\/$/, '');
const target = path.resolve(import.meta.dirname, '../worker/media/caption-font-packages.json');

/** The package's latest version and its integrity, or null when the family has no package. */
async function latest(family: string): Promise<{ version: string; integrity: string } | null> {
  const name = fontsourcePackage(family);
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${registry}/${name.replace('/', '%2F')}/latest`, { signal: AbortSignal.timeout(30_000) });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (res.ok) {
      const manifest = (await res.json()) as { version?: string; dist?: { integrity?: string } };
      if (!manifest.version || !manifest.dist?.integrity?.startsWith('sha512-')) throw new Error(`${name}: no version with a sha512 integrity`);
      return { version: manifest.version, integrity: manifest.dist.integrity };
    }
    await res.body?.cancel();
    if (attempt === 3) throw new Error(`${name}: the registry answered ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
  }
}

const pins: CaptionFontPins = {};
let next = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (next < googleFontFamilies.length) {
      const family = googleFontFamilies[next++];
      const pin = await latest(family);
      if (pin) pins[family] = pin;
    }
  }),
);
const sorted = Object.fromEntries(googleFontFamilies.filter((family) => pins[family]).map((family) => [family, pins[family]]));
// One family a line, so a new pin shows as one changed line.
writeFileSync(target, `{\n${Object.entries(sorted).map(([family, pin]) => `${JSON.stringify(family)}: ${JSON.stringify(pin)}`).join(',\n')}\n}\n`);
console.log(`${Object.keys(sorted).length} of ${googleFontFamilies.length} families pinned in ${path.relative(process.cwd(), target)}`);
