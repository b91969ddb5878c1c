// The unit files that replace modules (vi.mock, vi.doMock, vi.resetModules): they need a module registry of their own.
// The other unit files share one per worker (`isolate: false` in test/vitest.config.ts): importing the sources afresh
// for each of 150 files cost about a quarter of the unit lane's CPU time. test/unit/repo/module-mocks.test.ts keeps
// this list complete.

/** Paths from the repository root. */
export const MODULE_MOCKING_UNIT_FILES = [
  'test/unit/fixtures/cli.test.ts',
  'test/unit/shared/atomic-write.test.ts',
]

/** What makes a file's modules its own: a call that swaps or drops modules in the registry. */
export const MODULE_MOCKING_CALL = /\bvi\s*\.\s*(?:mock|doMock|unmock|doUnmock|resetModules|importMock)\s*\(/
