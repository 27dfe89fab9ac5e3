import { describe, expect, it } from 'vitest';
import { parseAnalysisLog } from './analysis.ts';

const log = `
[Parsed_ametadata_4 @ 0x1] frame:0    pts:0       pts_time:0
[Parsed_ametadata_4 @ 0x1] lavfi.astats.Overall.RMS_level=-19.388008
[Parsed_ametadata_4 @ 0x1] frame:1    pts:4000    pts_time:0.5
[Parsed_ametadata_4 @ 0x1] lavfi.astats.Overall.RMS_level=-inf
[silencedetect @ 0x2] silence_start: 0.6
[Parsed_ametadata_4 @ 0x1] lavfi.astats.Overall.RMS_level=-93.9
[silencedetect @ 0x2] silence_end: 1.4 | silence_duration: 0.8
[Parsed_ametadata_4 @ 0x1] lavfi.astats.Overall.RMS_level=-20
[silencedetect @ 0x2] silence_start: 1.9
`;

describe('parseAnalysisLog', () => {
  it('reads the loudness of each window and the pauses, closing one that runs to the end', () => {
    expect(parseAnalysisLog(log, 2)).toEqual({
      windowSeconds: 0.5,
      windowDb: [-19.388008, -120, -93.9, -20],
      silences: [
        { start: 0.6, end: 1.4 },
        { start: 1.9, end: 2 },
      ],
      durationSeconds: 2,
    });
  });
});
