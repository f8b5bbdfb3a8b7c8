/* global setImmediate */
// Preloaded into a child process by test/load/start-under-load.test.ts (node --import): SIGWINCH
// throws an error outside any request, as a library callback would, so the test can check how the
// process handles a fatal error.
process.on('SIGWINCH', () => {
  setImmediate(() => {
    throw new Error('test: fatal error outside any request');
  });
});
