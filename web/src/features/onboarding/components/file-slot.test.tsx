// @vitest-environment jsdom
// 'Replace existing file' deletes nothing (issue 26, item 6): it opens the chooser beside the
// stored file's name, and 'Keep current file' goes back to it; nothing is sent to the server.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileSlot } from './file-slot';

afterEach(cleanup);

describe('a stored file slot', () => {
  it('replaces without deleting, and keeps the current file on request', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const onChoose = vi.fn();
    render(<FileSlot slot="logo" label="Brand Logo" stored={{ exists: true, filename: 'logo.png' }} chosen={null} onChoose={onChoose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Replace existing file' }));
    expect(screen.getByLabelText('Brand Logo').getAttribute('type')).toBe('file');
    screen.getByText('logo.png stays until the new file is saved.');
    await userEvent.click(screen.getByRole('button', { name: 'Keep current file' }));
    screen.getByText('Current file: logo.png');
    expect(onChoose).toHaveBeenCalledWith(null, null);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
