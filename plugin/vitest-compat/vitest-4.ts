// Vitest 4.1: the browser API's permissions live in `test.browser.api`; JUnit suite names are not configurable, so the
// JUnit adapter renames a block's <testsuite> through the writer's public methods. Recovery uses the shared internals.
import type { TestProject } from 'vitest/node'
import type { VitestAdapter } from './adapter.ts'
import { browserPoolInternals, missingBrowserPoolInternals, permissionsOf } from './internals.ts'

export function vitest4Adapter(version: string): VitestAdapter {
  return {
    name: 'vitest-4.1',
    version,
    apiLockdown: port => ({ test: {}, browser: { api: { port, strictPort: false, allowWrite: false, allowExec: false } } }),
    apiOption: 'test.browser.api',
    resolvedApi: (project: TestProject) => permissionsOf(Reflect.get(project.config.browser, 'api')),
    hostFileCommands: ['readFile', 'writeFile', 'removeFile', '__vitest_fileInfo', '__vitest_screenshot', '__vitest_screenshotMatcher'],
    // Every browser project has a pool of its own: blocks run together already.
    blocksTogether: () => ({}),
    startupPatience: ms => ({ test: {}, browser: { connectTimeout: ms } }),
    junitSuiteNames: 'writeElement',
    recoveryInternals: browserPoolInternals,
    missingRecoveryInternals: missingBrowserPoolInternals,
  }
}
