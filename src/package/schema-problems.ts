// Turns zod issues into package problems that name the file, the field and the rule; no rules of its own.
import type * as z from 'zod'
import type { CheckSink } from './check-sink.ts'
import { PackageError } from './errors.ts'

/** At most this many schema issues are reported per value, so one broken array does not flood a report. */
const MAX_SCHEMA_ISSUES = 20

/** Formats a zod path as `a.b[2].c`, prefixed by `base` when given. */
export function fieldPath(base: string | undefined, path: readonly PropertyKey[]): string | undefined {
  let out = base ?? ''
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`
  return out === '' ? undefined : out
}

/**
 * Parses `value` with `schema`; on failure reports one `PACKAGE_SCHEMA` problem per issue (capped) and
 * returns undefined.
 */
export function parseWithSchema<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: { file: string; field?: string; what: string },
  sink: CheckSink,
): z.infer<S> | undefined {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  for (const issue of result.error.issues.slice(0, MAX_SCHEMA_ISSUES)) {
    sink.problem(
      new PackageError('PACKAGE_SCHEMA', {
        file: where.file,
        field: fieldPath(where.field, issue.path),
        message: `${where.what} does not match the package format: ${issue.message}`,
        fix: 'Fix the field so the file matches the benchmark-package spec (§5–§8), or restore the file from the pinned revision',
      }),
    )
  }
  return undefined
}
