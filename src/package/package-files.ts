// Opens package files safely: path rules, symlink containment (§2.1) and the frozen list (§9.2); no JSON rules.
import { readFile, realpath, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { isNotFoundError } from '../shared/fs-errors.ts'
import type { CheckSink } from './check-sink.ts'
import { PackageError } from './errors.ts'
import type { FrozenHashList } from './frozen-release.ts'
import { sha256Bytes, sha256File } from './hashing.ts'
import { assertSafeRelativePath } from './paths.ts'

/** How the package is being read: its real root and, for the published release, the frozen list. */
export interface PackageFiles {
  /** Real path of the package root (symlinks resolved). */
  root: string
  /** The frozen list when `benchmark.json` has the pinned hash; undefined for any other package (§9.3). */
  frozen: FrozenHashList | undefined
}

/**
 * The real path of package file `rel`, after the §2.1 rules: `rel` must be a safe relative path and its
 * real path must stay inside the root, except for a Hugging Face cache blob (rule 3). Throws `PackageError`.
 */
export async function resolvePackageFile(root: string, rel: string): Promise<string> {
  assertSafeRelativePath(rel, { file: rel })
  let real: string
  try {
    real = await realpath(join(root, ...rel.split('/')))
  } catch (error) {
    // Only absence is "missing": a folder we may not enter is a permission problem, and says so.
    if (!isNotFoundError(error)) throw unreadable(rel, error)
    throw new PackageError('PACKAGE_FILE_MISSING', {
      file: rel,
      message: 'file not found in the package (local packages are never downloaded into)',
      fix: 'Restore the file from the pinned revision, or point the harness at a complete package',
      cause: error,
    })
  }
  if (isInside(root, real) || isHuggingFaceBlob(root, real)) return real
  throw new PackageError('PACKAGE_LINK_ESCAPE', {
    file: rel,
    message: `the file is a symbolic link that resolves outside the package root (to ${real})`,
    fix: 'Replace the link with the file itself; only Hugging Face cache links into a blobs/ store are allowed',
  })
}

function isInside(root: string, real: string): boolean {
  const rel = relative(root, real)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

/**
 * §2.1 rule 3: a Hugging Face snapshot file links into the blob store `<repo-cache>/blobs/<hash>`, where the
 * snapshot root lies under `<repo-cache>/snapshots/`; a shared `blobs` folder higher up is allowed likewise.
 * So: the target sits directly in a folder named `blobs` whose parent is an ancestor of the package root.
 */
function isHuggingFaceBlob(root: string, real: string): boolean {
  const blobs = dirname(real)
  if (basename(blobs) !== 'blobs') return false
  return isInside(dirname(blobs), root)
}

/** Reads the whole file `rel` after `resolvePackageFile`; throws `PackageError`. */
export async function readPackageBytes(files: PackageFiles, rel: string): Promise<Uint8Array> {
  const real = await resolvePackageFile(files.root, rel)
  try {
    return await readFile(real)
  } catch (error) {
    throw unreadable(rel, error)
  }
}

/** Streams the file `rel` through SHA-256 after `resolvePackageFile`; throws `PackageError`. */
export async function hashPackageFile(files: PackageFiles, rel: string): Promise<string> {
  const real = await resolvePackageFile(files.root, rel)
  try {
    return await sha256File(real)
  } catch (error) {
    throw unreadable(rel, error)
  }
}

/**
 * True when `rel` exists in the package as a regular file or a link to one (no path rules applied). Throws
 * `PACKAGE_FILE_UNREADABLE` when it cannot be told (permission denied, I/O error): that is not absence.
 */
export async function packageFileExists(root: string, rel: string): Promise<boolean> {
  try {
    return (await stat(join(root, ...rel.split('/')))).isFile()
  } catch (error) {
    // A missing optional file is an answer here, not a failure.
    if (isNotFoundError(error)) return false
    throw unreadable(rel, error)
  }
}

function unreadable(rel: string, cause: unknown): PackageError {
  return new PackageError('PACKAGE_FILE_UNREADABLE', {
    file: rel,
    message: `the file cannot be read (${cause instanceof Error ? cause.message : String(cause)})`,
    fix: 'Check the file permissions and that the package is complete',
    cause,
  })
}

/**
 * §9.2: for the published release every listed file must have its listed hash before it is used, and a
 * metadata file the list does not know is not part of the release. Reports to `sink`; false when broken.
 */
export function checkFrozenHash(files: PackageFiles, rel: string, bytes: Uint8Array, sink: CheckSink): boolean {
  if (files.frozen === undefined) return true
  const expected = files.frozen[rel]
  const actual = sha256Bytes(bytes)
  if (expected === actual) return true
  sink.problem(new PackageError('PACKAGE_FROZEN_MISMATCH', {
    file: rel,
    message: expected === undefined
      ? 'Expected frozen v1 metadata checksum, but the frozen list has no entry for this file'
      : `Expected frozen v1 metadata checksum ${expected}, got ${actual}`,
    fix: 'The file differs from the published release: restore it from the pinned revision (never edit frozen files)',
  }))
  return false
}

/** Decodes UTF-8 JSON text; reports `PACKAGE_INVALID_JSON` (naming NaN/Infinity when present) and returns undefined. */
export function parseJsonBytes(rel: string, bytes: Uint8Array, sink: CheckSink): unknown {
  const text = new TextDecoder('utf-8').decode(bytes)
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    const hasNonFinite = /[:[,]\s*-?(?:NaN|Infinity)\b/.test(text)
    sink.problem(new PackageError('PACKAGE_INVALID_JSON', {
      file: rel,
      message: hasNonFinite
        ? 'the file contains a non-finite number (NaN or Infinity), which is not JSON and which the package forbids'
        : `the file is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      fix: 'Restore the file from the pinned revision',
      cause: error,
    }))
    return undefined
  }
}
