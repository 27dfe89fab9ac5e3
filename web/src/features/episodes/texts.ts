export const doneTexts = {
  title: 'Thanks for Submitting!',
  processing: 'Your video is being processed and your clips are being created.',
  drive: 'The complete files will be saved to your Google Drive.',
  timing: 'Processing typically takes 5-15 minutes depending on video length.',
  returnToDashboard: 'Return to Dashboard',
} as const;
