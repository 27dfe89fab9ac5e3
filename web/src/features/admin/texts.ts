// Every text of the admin resubmission console (spec sections 2, 5 and 8).
import { adminResubmitMessages } from '@domain/admin-resubmit';
import { describeProcessing } from '@domain/processing';

export const texts = {
  title: 'Episode Resubmission Admin',
  subtitle: 'Resubmit past episode submissions to the automation webhook.',
  loading: 'Loading...',
  accessDeniedTitle: 'Access Denied',
  accessDenied:
    "You don't have permission to access the admin panel. This page is only available to authorized administrators.",

  logsTitle: 'Submission Logs',
  noLogs: 'No submissions yet.',
  selectLog: (email: string, when: string) => `Select the submission by ${email} on ${when}`,
  files: (n: number) => `${n} file${n === 1 ? '' : 's'}`,
  resubmissionOf: 'Resubmission',
  deliveryLabel: 'Delivery',
  deliveryStates: {
    pending: 'pending',
    delivered: 'delivered',
    failed: 'failed',
    skipped: 'skipped (built-in processing took it)',
  } as Record<string, string>,
  processingLabel: 'Processing',
  /** The built-in worker's state of a log: 'Delivered', 'Failed: <reason>', ... */
  processing: describeProcessing,
  noProcessing: 'none (webhook automation)',
  noDelivery: 'none',
  attempts: (n: number) => `${n} attempt${n === 1 ? '' : 's'}`,
  lastError: 'Last error',
  loadMoreLogs: 'Load more logs',

  filesTitle: 'Object Storage Files',
  noFiles: 'No files in object storage.',
  filesCaption: 'Files in the episodes bucket, in path order',
  fileColumns: { select: 'Select', path: 'Path', name: 'Name', size: 'Size', uploaded: 'Uploaded' },
  selectFile: (path: string) => `Select ${path}`,
  loadMoreFiles: 'Load more files',
  loadFailed: 'Could not load',

  formTitle: 'Resubmit Episode',
  userEmail: 'User email',
  selectedFiles: 'Selected files',
  noneSelected: 'None selected: choose a log or files from the list.',
  removeFile: (path: string) => `Remove ${path}`,
  startTimestamp: 'Start time (hh:mm:ss)',
  endTimestamp: 'End time (hh:mm:ss)',
  clipStyle: 'Clip style',
  daysBetweenClips: 'Days between clips',
  addLogo: 'Add logo',
  addIntroOutro: 'Add intro/outro',
  clear: 'Clear form',
  resubmit: 'Resubmit Episode',
  resubmitting: 'Resubmitting...',
  noFilesSelectedTitle: adminResubmitMessages.noFilesTitle,
  noFilesSelected: adminResubmitMessages.noFiles,
  emailRequiredTitle: adminResubmitMessages.emailRequiredTitle,
  emailRequired: adminResubmitMessages.emailRequired,
  successTitle: 'Resubmission Successful',
  success: adminResubmitMessages.success,
  failedTitle: 'Resubmission Failed',
  failed: 'Failed to resubmit episode',
} as const;
