// Pure path rules of the package (§2.1): sample ids, slugs and safe relative paths; touches no file system.
import { PackageError } from './errors.ts'

/** One segment of a sample id or a relative package path (§2.1 rule 4). */
const SAFE_SEGMENT = /^[A-Za-z0-9_.-]+$/

export interface PathLocation {
  file?: string
  field?: string
}

/** True when `id` satisfies §2.1 rule 4: `/`-separated segments of `[A-Za-z0-9_.-]+`, none `.` or `..`. */
export function isValidSampleId(id: string): boolean {
  return id.split('/').every(segment => SAFE_SEGMENT.test(segment) && segment !== '.' && segment !== '..')
}

/** Throws `PACKAGE_INVALID_SAMPLE_ID` unless `id` satisfies §2.1 rule 4. */
export function assertSampleId(id: string, location: PathLocation = {}): void {
  if (isValidSampleId(id)) return
  throw new PackageError('PACKAGE_INVALID_SAMPLE_ID', {
    ...location,
    message: `sample id ${JSON.stringify(id)} is invalid: every "/"-separated segment must match [A-Za-z0-9_.-]+ and must not be "." or ".."`,
    fix: 'Rename the sample in benchmark.json and config.json to a valid dataset id',
  })
}

/** The file-system form of a sample id (§2.1 rule 5): `Chair/reidar` → `Chair--reidar`. Validates the id first. */
export function sampleSlug(id: string, location: PathLocation = {}): string {
  assertSampleId(id, location)
  return id.split('/').join('--')
}

/** Why `path` is not a safe relative package path (§2.1 rule 2), or undefined when it is. */
export function unsafePathReason(path: string): string | undefined {
  if (path.length === 0) return 'it is empty'
  if (path.includes('\\')) return 'it contains a backslash'
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'it is absolute'
  const segments = path.split('/')
  if (segments.some(segment => segment === '..')) return 'it has a ".." segment'
  if (segments.some(segment => segment === '')) return 'it has an empty segment'
  return undefined
}

/** Throws `PACKAGE_UNSAFE_PATH` unless `path` is relative, without `..`, backslashes or empty segments. */
export function assertSafeRelativePath(path: string, location: PathLocation = {}): void {
  const reason = unsafePathReason(path)
  if (reason === undefined) return
  throw new PackageError('PACKAGE_UNSAFE_PATH', {
    ...location,
    message: `path ${JSON.stringify(path)} is not a safe relative package path: ${reason}`,
    fix: 'Package paths must be relative, "/"-separated, without "..", backslashes or empty segments',
  })
}
