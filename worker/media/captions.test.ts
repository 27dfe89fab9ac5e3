import { describe, expect, it } from 'vitest';
import { captionColours, captionGroups, captionScript, clipWords } from './captions.ts';
import { contrast } from './contrast.ts';

const words = (text: string, gapAfter: Record<number, number> = {}) => {
  let t = 0;
  return text.split(' ').map((w, i) => {
    const word = { text: w, start: t, end: t + 0.3 };
    t += 0.35 + (gapAfter[i] ?? 0);
    return word;
  });
};

describe('caption groups', () => {
  it('puts a few words on screen at a time, never across a sentence start or a pause', () => {
    const spoken = words('so what is the plan for today we start with budgets', { 6: 1.2 }).map((w, i) => ({ ...w, sentenceStart: i === 0 || i === 5 }));
    const groups = captionGroups(spoken, 'DEFAULT').map((g) => g.map((w) => w.text).join(' '));
    expect(groups).toEqual(['so what is', 'the plan', 'for today', 'we start with', 'budgets']);
    expect(captionGroups(spoken, 'CREATIVE').every((g) => g.length <= 2)).toBe(true);
    expect(captionGroups(spoken, 'PROFESSIONAL').map((g) => g.length)).toEqual([5, 2, 4]);
  });

  it('takes the words inside the clip, timed from its start', () => {
    const all = words('one two three four five six');
    const inside = clipWords(all, new Set([0, 3]), 0.7, 1.75);
    expect(inside.map((w) => [w.text, w.start, w.sentenceStart])).toEqual([
      ['three', 0, false],
      ['four', expect.closeTo(0.35, 5), true],
      ['five', expect.closeTo(0.7, 5), false],
    ]);
  });
});

describe('caption colours', () => {
  const palettes = [
    { primary: '1F2937', secondary: '6366F1', tertiary: 'F59E0B' },
    { primary: 'FFFFFF', secondary: 'FFFF00', tertiary: 'EEEEEE' },
    { primary: '777777', secondary: '808080', tertiary: '707070' },
    { primary: 'FF0000', secondary: '00FF00', tertiary: '0000FF' },
    { primary: '000000', secondary: '111111', tertiary: 'FFD700' },
  ];
  it('reads at 4.5:1 on the outline or box, the spoken word at 3:1 in a brand colour or by size and underline', () => {
    for (const palette of palettes) {
      const c = captionColours(palette);
      expect(c.backing).toBe(palette.primary);
      expect(contrast(c.text, c.backing)).toBeGreaterThanOrEqual(4.5);
      if (c.accent) {
        expect([palette.secondary, palette.tertiary]).toContain(c.accent);
        expect(contrast(c.accent, c.backing)).toBeGreaterThanOrEqual(3);
      }
    }
    expect(captionColours(palettes[0]).accent).toBe('F59E0B');
    expect(captionColours(palettes[2]).accent).toBeNull();
  });
});

describe('caption script (ASS)', () => {
  const spoken = words('hello {there} world').map((w, i) => ({ ...w, sentenceStart: i === 0 }));
  const script = (style: 'DEFAULT' | 'PROFESSIONAL' | 'CREATIVE', colours = { primary: '1F2937', secondary: '6366F1', tertiary: 'F59E0B' }) =>
    captionScript({ words: spoken, style, colours, fontFamily: 'Open Sans', width: 1080, height: 1920 });

  it('shows each word emphasised while it is spoken, in the brand font, inside the safe area', () => {
    const ass = script('DEFAULT');
    expect(ass).toContain('PlayResX: 1080\nPlayResY: 1920');
    expect(ass).toMatch(/^Style: Caption,Open Sans,86,&H00FFFFFF,&H00FFFFFF,&H0037291F,/m);
    const events = ass.split('\n').filter((l) => l.startsWith('Dialogue:'));
    expect(events).toHaveLength(3);
    // The accent (amber F59E0B as &H000B9EF5) on the spoken word only; braces in words are dropped.
    expect(events[0]).toContain('0:00:00.00,0:00:00.35,Caption,,0,0,0,,{\\an5\\pos(540,1325)}{\\c&H000B9EF5\\fscx112\\fscy112}hello{\\r} there world');
    expect(events[1]).toContain('hello {\\c&H000B9EF5\\fscx112\\fscy112}there{\\r} world');
    expect(events[2]).toMatch(/0:00:00\.70,0:00:01\.40,.*hello there \{.*\}world\{\\r\}$/);
    // Centre at 69% of the height, margins a tenth of the width: inside 12%..75% and the sides.
    expect(ass).toMatch(/,5,108,108,0,1$/m);
  });

  it('differs per style: a box for PROFESSIONAL, upper case for CREATIVE', () => {
    expect(script('PROFESSIONAL')).toMatch(/^Style: Caption,Open Sans,65,.*,3,20,0,5,/m);
    expect(script('CREATIVE')).toContain('HELLO');
    // No brand colour reads on the primary: the spoken word is underlined instead.
    expect(script('DEFAULT', { primary: '777777', secondary: '808080', tertiary: '707070' })).toContain('{\\fscx112\\fscy112\\u1}hello');
  });
});
