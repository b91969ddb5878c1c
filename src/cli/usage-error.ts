// The error a command throws when its arguments are wrong (exit code 2); not for runtime failures.
export class UsageError extends Error {
  override readonly name = 'UsageError'
}
