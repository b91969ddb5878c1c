// Where rule checks report what they find: one set of checks, two ways of reporting (throw first, or collect all).
import { PackageError, type PackageWarning } from './errors.ts'

/** Receives the findings of a check. `problem` may throw (open mode) or record and return (validate mode). */
export interface CheckSink {
  problem(error: PackageError): void
  warning(warning: PackageWarning): void
}

/** Open mode: the first problem is thrown; warnings are kept in `warnings`. */
export function createThrowingSink(warnings: PackageWarning[] = []): CheckSink {
  return {
    problem(error) {
      throw error
    },
    warning(warning) {
      warnings.push(warning)
    },
  }
}

/** Validate mode: every problem and warning is kept, in the order found. */
export class CollectingSink implements CheckSink {
  readonly problems: PackageError[] = []
  readonly warnings: PackageWarning[] = []

  problem(error: PackageError): void {
    this.problems.push(error)
  }

  warning(warning: PackageWarning): void {
    this.warnings.push(warning)
  }
}

/**
 * Counts the problems one check reports, so the check can tell whether its own result is usable
 * (in validate mode reporting returns, and later rules must not run on a half-valid value).
 */
export class ScopedSink implements CheckSink {
  private count = 0

  private readonly parent: CheckSink

  constructor(parent: CheckSink) {
    this.parent = parent
  }

  get isClean(): boolean {
    return this.count === 0
  }

  problem(error: PackageError): void {
    this.count += 1
    this.parent.problem(error)
  }

  warning(warning: PackageWarning): void {
    this.parent.warning(warning)
  }

  /** Like `capture`, for async helpers (file reads). */
  async captureAsync<T>(check: () => Promise<T>): Promise<T | undefined> {
    try {
      return await check()
    } catch (error) {
      if (!(error instanceof PackageError)) throw error
      this.problem(error)
      return undefined
    }
  }

  /** Runs `check` and turns a thrown `PackageError` into a reported problem (for helpers that throw). */
  capture<T>(check: () => T): T | undefined {
    try {
      return check()
    } catch (error) {
      if (!(error instanceof PackageError)) throw error
      this.problem(error)
      return undefined
    }
  }
}
