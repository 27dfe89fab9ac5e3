/** A log's or file's time as the console shows it. */
export const formatTime = (iso: string) => new Date(iso).toLocaleString('en-US');
