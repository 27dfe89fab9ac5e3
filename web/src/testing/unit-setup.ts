// Testing Library's findBy/waitFor give up after one second by default. In CI the unit files run
// beside the browser suite on two cores, where a screen's first lazy import alone can take longer
// (access-gate.test.tsx failed so once). A wait that succeeds returns as soon as it can, so a
// longer limit only slows a test that is failing anyway.
// Only the component files (jsdom) use Testing Library: the other unit files, most of them, skip
// importing it (about 0.3 CPU s a file).
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 5_000 });
}

export {}; // a module, for the top-level await
