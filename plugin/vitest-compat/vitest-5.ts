// Vitest 5: browser instances share one `maxWorkers` budget (so the plugin raises it to the block count); the browser
// API's permissions moved to `test.api` (`test.browser.api` is deprecated and, for the
// permissions, no longer read), JUnit names suites through the public `suiteNameTemplate`, and the browser gained a
// command that records an artifact on any test by id (`__vitest_recordBrowserTrace`): page-written metadata, refused.
import type { TestProject } from 'vitest/node'
import type { VitestAdapter } from './adapter.ts'
import { browserPoolInternals, missingBrowserPoolInternals, permissionsOf } from './internals.ts'

export function vitest5Adapter(version: string): VitestAdapter {
  return {
    name: 'vitest-5',
    version,
    apiLockdown: port => ({ test: { api: { port, strictPort: false, allowWrite: false, allowExec: false } }, browser: {} }),
    apiOption: 'test.api',
    resolvedApi: (project: TestProject) => permissionsOf(Reflect.get(project.config, 'api')),
    hostFileCommands: ['readFile', 'writeFile', 'removeFile', '__vitest_fileInfo', '__vitest_screenshot', '__vitest_screenshotMatcher', '__vitest_recordBrowserTrace'],
    blocksTogether: blockCount => ({ maxWorkers: blockCount }),
    startupPatience: ms => ({ test: { env: { VITEST_BROWSER_IFRAME_TIMEOUT: String(ms) } }, browser: { connectTimeout: ms } }),
    junitSuiteNames: 'suiteNameTemplate',
    recoveryInternals: browserPoolInternals,
    missingRecoveryInternals: missingBrowserPoolInternals,
  }
}
