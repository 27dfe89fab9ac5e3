// Limits on what Storage hands out and keeps (docs/decisions.md, "Storage limits"). Hosted
// Storage has no setting for a signed URL's lifetime, so every code path that signs one uses
// these, and the local Storage refuses longer ones.

/** The longest a signed download URL may live: a week, what the processing automation needs. */
export const SIGNED_URL_MAX_SECONDS = 7 * 24 * 60 * 60;

/** The most object names one Storage request takes (deleting by prefixes, signing many URLs). */
export const STORAGE_MAX_OBJECTS_PER_REQUEST = 1000;

/** An episode upload no submission names is deleted after this long (storage-cleanup). */
export const UNSUBMITTED_UPLOAD_RETENTION_HOURS = 72;

/**
 * A processing piece no plan under way names is deleted after this long (storage-cleanup): past
 * any plan's time limit, and a multi-part upload's joined file is stored just before its plan.
 */
export const ORPHAN_PIECE_RETENTION_HOURS = 24;
