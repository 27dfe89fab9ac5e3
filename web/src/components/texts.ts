// Every user-visible text of the shared components.
export const componentTexts = {
  /** A failed form's toast and alert when the error itself says nothing. */
  retryHint: 'Please try again.',
  loading: 'Loading...',
} as const;
