import { describe, expect, it } from 'vitest';
import { describeProcessing, type ProcessingState } from './processing.ts';

const state = (patch: Partial<ProcessingState>): ProcessingState => ({
  status: 'queued',
  stage: null,
  progress: 0,
  failureReason: null,
  updatedAt: '2026-11-26T00:00:00Z',
  ...patch,
});

describe('describeProcessing', () => {
  it('says each state in one line', () => {
    expect(describeProcessing(state({}))).toBe('Queued');
    expect(describeProcessing(state({ status: 'processing', stage: 'uploading', progress: 80 }))).toBe('Processing: uploading (80%)');
    expect(describeProcessing(state({ status: 'processing' }))).toBe('Processing: starting (0%)');
    expect(describeProcessing(state({ status: 'delivered', progress: 100 }))).toBe('Delivered');
    expect(describeProcessing(state({ status: 'failed', failureReason: 'The file is not a video.' }))).toBe('Failed: The file is not a video.');
    expect(describeProcessing(state({ status: 'failed' }))).toBe('Failed');
  });
});
