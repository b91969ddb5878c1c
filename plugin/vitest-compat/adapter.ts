// What differs between the Vitest majors the plugin supports, as one interface with one adapter per major. Every use
// of a Vitest internal or of behaviour Vitest does not document is named here, so a new Vitest is audited in one place:
// add an adapter, run both test legs (docs/development.md, "Tests and supported Vitest versions"), and the startup report says what is on.
import type { TestProject } from 'vitest/node'

/** The resolved browser-API permissions of one project: both must be false in a block project. */
export interface ApiPermissions {
  allowWrite: boolean
  allowExec: boolean
}

/** The Vitest internals browser recovery reaches (see browser-recovery.ts for why), found on a live project. */
export interface RecoveryInternals {
  /** The orchestrator RPC of each open page, keyed by session id: the pool reads it for every file it runs. */
  orchestrators: Map<string, OrchestratorRpc>
  /** Opens a page for a session (the provider's page and Vitest's session for it). */
  openBrowserPage(sessionId: string, pool: unknown): Promise<void>
  /** Replaces the project's page opener, so the recovery learns each session's pool. */
  wrapOpenBrowserPage(wrap: (open: (sessionId: string, pool: unknown) => Promise<void>) => (sessionId: string, pool: unknown) => Promise<void>): void
  isCancelling(): boolean
  /** Records an error outside any test: the run fails on it, after every project has finished. */
  reportError(error: Error): void
}

/** The orchestrator RPC as the pool uses it (one per page, keyed by session id). */
export interface OrchestratorRpc {
  createTesters(options: unknown): Promise<void>
}

/** A block project's `test` fields that lock the browser API down; where they go differs by major. */
export type ApiLockdown = Record<string, unknown>

export interface VitestAdapter {
  /** `vitest-4.1` or `vitest-5`: named in the startup report. */
  readonly name: string
  readonly version: string
  /**
   * The `test` fields of a block project that switch the browser API's file writes and code execution off on
   * `port`: Vitest 4.1 reads `test.browser.api`, Vitest 5 `test.api` (and warns about `test.browser.api`).
   */
  apiLockdown(port: number): { test: ApiLockdown; browser: ApiLockdown }
  /** Where `apiLockdown` went, in the startup report. */
  readonly apiOption: string
  /** What the resolved config of `project` allows the browser API (both Vitest's checks read it). */
  resolvedApi(project: TestProject): ApiPermissions
  /**
   * Vitest's built-in browser commands (served to every page by name) that read, write or remove host files or write
   * screenshots or traces: replaced by a refusal in block projects. Vitest consults the project's own commands first,
   * so an entry of `browser.commands` replaces the built-in of that name.
   */
  readonly hostFileCommands: readonly string[]
  /**
   * Root `test` fields that let every block's browser run at once, as Vitest 4.1 does by itself: Vitest 5 opens at
   * most `maxWorkers` browser instances (one per project) at a time, which would run the blocks one after another.
   * Applied only where the user set no `maxWorkers` of their own.
   */
  blocksTogether(blockCount: number): Record<string, unknown>
  /**
   * A block project's `test` and `test.browser` fields that give its browser session `ms` to connect and its tester
   * frame `ms` to load (Vitest's default is 60 s each: a busy CI machine loading a block's page for the first time can
   * pass it, and the block's whole file fails). Both majors read `browser.connectTimeout`; Vitest 5's orchestrator
   * reads the frame's limit from the project's `env` (`VITEST_BROWSER_IFRAME_TIMEOUT`), 4.1 has no such limit.
   */
  startupPatience(ms: number): { test: Record<string, unknown>; browser: Record<string, unknown> }
  /** How JUnit names a block's suite after the block: Vitest 5 has public templates, 4.1 only its writer's methods. */
  readonly junitSuiteNames: 'suiteNameTemplate' | 'writeElement'
  /** The internals browser recovery needs, or why they are not there. */
  recoveryInternals(project: TestProject): RecoveryInternals | string
  /** For the startup report, from `configureVitest` on: what recovery would miss (undefined: nothing). */
  missingRecoveryInternals(project: TestProject): string | undefined
}
