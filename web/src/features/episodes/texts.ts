import { describeProcessing } from '@domain/processing';

export const doneTexts = {
  title: 'Thanks for Submitting!',
  processing: 'Your video is being processed and your clips are being created.',
  drive: 'The complete files will be saved to your Google Drive.',
  timing: 'Processing typically takes 5-15 minutes depending on video length.',
  returnToDashboard: 'Return to Dashboard',
} as const;

/** Submission gating by block reason (spec sections 4 and 8). */
export const gatingTexts = {
  submissionBlockedTitle: 'Submission Blocked',
  toast: {
    google_drive_invalid: 'Google Drive token has expired. Please reconnect your Google Drive account.',
    google_drive_required: 'Google Drive connection required. Please connect your Google Drive account.',
    other: 'Cannot submit episode',
  },
  /** Banners in the Submit New Episode dialog. */
  banner: {
    google_drive_invalid: 'Your Google Drive token has expired. Close this dialog and reconnect Google Drive from the dashboard.',
    google_drive_required: 'Google Drive connection required. Close this dialog and connect your Google Drive account from the dashboard.',
    hosting_setup:
      'Your podcast hosting is being configured and will be ready within one business day. Episode submissions will be enabled once setup is complete.',
    monthly_limit: 'Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.',
    none: 'Episode submission is currently unavailable. Please try again later.',
  },
  /** The orange box on the dashboard's Submit New Episode panel. */
  box: {
    title: 'Episode submission unavailable',
    monthlyLimit: (limit: number) => `Monthly limit reached. Your plan allows ${limit} episode(s) per month.`,
    monthlyLimitHint: 'Upgrade your plan or wait until next month to submit more episodes.',
    /** When hosting setup began: 'Hosting setup started 2 days ago.' */
    hostingStarted: (ago: string) => `Hosting setup started ${ago}.`,
  },
  button: {
    google_drive_invalid: 'Reconnect Google Drive',
    google_drive_required: 'Connect Google Drive First',
    hosting_setup: 'Hosting Setup Required',
    monthly_limit: 'Monthly Limit Reached',
    none: 'Cannot Submit',
  },
} as const;

export const episodeTexts = {
  panelTitle: 'Submit New Episode',
  panelIntro: 'Upload your episode videos and we will turn them into clips, captions, show notes and posts.',
  openDialog: 'Submit New Episode',
  recentTitle: 'Recent Episodes',
  noEpisodes: 'No episodes submitted yet',
  dateUnknown: 'date unknown',
  loadFailed: 'Could not load your episodes.',
  loading: 'Loading episodes...',
  /** An episode's processing by the built-in worker: 'Delivered', 'Failed: <reason>', ... */
  processingState: describeProcessing,
  processingProgress: (title: string) => `Processing progress of ${title}`,
  retry: 'Retry',
  retrying: 'Retrying...',
  retriedTitle: 'Episode Queued Again',
  retried: (title: string) => `${title} is back in the processing queue. It counts toward this month's episodes.`,
  retryFailedTitle: 'Retry Failed',
  retryFailed: 'Could not retry the episode',

  dialogTitle: 'Submit New Episode',
  close: 'Close',
  filesLegend: 'Episode videos',
  chooseFiles: 'Choose MP4 files',
  uploadHint: 'Up to 10 MP4 files, 3GB total limit',
  overallProgress: 'Overall upload progress',
  fileProgress: (name: string) => `Upload progress of ${name}`,
  cancelUpload: (name: string) => `Cancel upload of ${name}`,
  removeFile: (name: string) => `Remove ${name}`,
  retryUpload: (name: string) => `Retry upload of ${name}`,
  uploaded: 'Uploaded',
  uploading: 'Uploading',
  failed: 'Failed',
  fileSize: (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(2)} MB`,
  interruptedTitle: 'Interrupted uploads',
  interruptedHint: 'Choose the same file again to resume where it stopped.',
  notMp4: (name: string) => `${name} is not an MP4 video. Only MP4 files can be uploaded.`,
  tooMany: 'You can upload at most 10 files.',
  tooLarge: (name: string) => `${name} is larger than 3GB.`,
  filesUploadedTitle: 'Files Uploaded Successfully!',
  filesUploaded: (n: number) => `${n} file(s) uploaded to cloud storage.`,
  uploadUrlFailed: 'Failed to get upload URL',

  optionsLegend: 'Episode options',
  startTimestamp: 'Start timestamp (hh:mm:ss)',
  endTimestamp: 'End timestamp (hh:mm:ss)',
  timestampPlaceholder: '00:00:00',
  videoLength: (length: string) => `Your video is ${length} long: the start time must be before its end.`,
  addLogo: 'Add logo',
  addIntroOutro: 'Add intro/outro',
  clipStyle: 'Clip style',
  clipStyles: { DEFAULT: 'Default', PROFESSIONAL: 'Professional', CREATIVE: 'Creative' },
  daysBetweenClips: 'Days between clips (1-30)',

  submit: 'Submit Episode',
  submitting: 'Submitting...',
  processing: 'Processing submission...',
  noFilesTitle: 'No Files Uploaded',
  noFiles: 'Please upload at least one video file before submitting.',
  submitFailedTitle: 'Submission Failed',
  submitFailed: 'Failed to submit episode',
  serverError: (status: number, statusText: string) => `Server error (${status}): ${statusText}`,
  successTitle: 'Episode Submitted Successfully!',
  success: "Your episode files have been sent to processing. You'll receive updates via email.",
} as const;

/** The dashboard's summary cards (spec section 2). */
export const summaryTexts = {
  accountStatus: 'Account Status',
  active: 'Active',
  inactive: 'Inactive',
  setupProgress: 'Setup Progress',
  onboardingDone: 'Onboarding form completed',
  onboardingMissing: 'Onboarding form not completed',
  socialDone: 'Social accounts connected',
  socialMissing: 'No social accounts connected yet',
  setupComplete: 'Setup complete',
  setupIncomplete: 'Setup in progress',
  episodes: 'Episodes',
  used: (count: number, limit: number) => `${count} / ${limit} used`,
  usedUnlimited: (count: number) => `${count} used (unlimited)`,
  thisMonth: 'this month',
  defaultTier: 'Starter',
  totalProcessed: (n: number) => `${n} total processed`,
} as const;
