// One formatter for every time the console shows: Date's toLocaleString('en-US') builds a new
// one on each call (about a millisecond each, on the main thread while the lists render).
const formatter = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** A log's or file's time as the console shows it (the same text as toLocaleString('en-US')). */
export const formatTime = (iso: string) => formatter.format(new Date(iso));
