// Bounded concurrency for the worker's side-by-side work (the join's downloads, the writing
// engine's requests, the hosted transcription's pieces).

/** `run` over every item, at most `atOnce` at a time; the answers in the items' order. One failing starts no more. */
export async function inTurns<T, R>(items: readonly T[], atOnce: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const answers: R[] = [];
  let next = 0;
  let failed = false;
  const runner = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      answers[i] = await run(items[i], i).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, runner));
  return answers;
}
