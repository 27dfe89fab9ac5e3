// Every text of the admin resubmission console (spec sections 2, 5 and 8).
import { adminResubmitMessages } from '@domain/admin-resubmit';
import { describeProcessing, processingDetail, type ProcessingState } from '@domain/processing';

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
  /**
   * The built-in worker's state of a log after the 'Processing' label: 'Delivered', 'Failed:
   * <reason>', 'uploading to Google Drive (80%)' (the label says Processing once).
   */
  processing: (state: ProcessingState) => (state.status === 'processing' ? processingDetail(state) : describeProcessing(state)),
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

/** The hosting setup queue (issue 26, item 9). */
export const hostingTexts = {
  title: 'Hosting Setup',
  subtitle: 'Subscribers whose podcast hosting is being set up. Episode submission opens when hosting is marked ready.',
  nav: 'Admin pages',
  resubmitLink: 'Episode resubmission',
  hostingLink: 'Hosting setup',
  listTitle: 'Waiting for hosting',
  caption: 'Subscribers waiting for hosting, longest waiting first',
  plan: 'Plan',
  startedLabel: 'Setup started',
  empty: 'Nobody is waiting for hosting setup.',
  noPlan: 'No plan',
  started: (ago: string, when: string) => `${ago} (${when})`,
  markReady: 'Mark hosting ready',
  markReadyFor: (email: string) => `Mark hosting ready for ${email}`,
  marking: 'Marking...',
  loadMore: 'Load more subscribers',
  startTitle: 'Start hosting setup',
  startHint: 'For a subscriber whose hosting must be set up again: their submissions wait until it is marked ready.',
  email: 'Subscriber email',
  start: 'Start hosting setup',
  starting: 'Starting...',
  readyTitle: 'Hosting Ready',
  startedTitle: 'Hosting Setup Started',
  failedTitle: 'Hosting Update Failed',
  failed: 'Could not update hosting',
} as const;
