// The package domain's error class and its stable codes; no checking logic lives here.
import { AwbError } from '../shared/errors.ts'

/** Every stable code a package problem or warning can carry. */
export const PACKAGE_ERROR_CODES = [
  'PACKAGE_NOT_FOUND',
  'PACKAGE_FILE_MISSING',
  'PACKAGE_FILE_UNREADABLE',
  'PACKAGE_UNSAFE_PATH',
  'PACKAGE_LINK_ESCAPE',
  'PACKAGE_INVALID_SAMPLE_ID',
  'PACKAGE_UNKNOWN_SAMPLE',
  'PACKAGE_INVALID_JSON',
  'PACKAGE_SCHEMA',
  'PACKAGE_UNKNOWN_PROTOCOL',
  'PACKAGE_DUPLICATE',
  'PACKAGE_MISMATCH',
  'PACKAGE_HASH_MISMATCH',
  'PACKAGE_FROZEN_MISMATCH',
  'PACKAGE_FROZEN_LAYOUT',
  'PACKAGE_EVALUATION',
  'PACKAGE_PAGES',
  'PACKAGE_TASK_ENCODING',
  'PACKAGE_EPISODE_INVALID',
] as const

export type PackageErrorCode = (typeof PACKAGE_ERROR_CODES)[number]

/** Codes of findings that never fail a package (§6 config_id derivation, §15 index, §9.3 release kind). */
export const PACKAGE_WARNING_CODES = [
  'PACKAGE_CONFIG_ID_DERIVATION',
  'PACKAGE_INDEX_MISSING',
  'PACKAGE_INDEX_UNREADABLE',
  'PACKAGE_INDEX_DISAGREES',
  'PACKAGE_NOT_FROZEN_RELEASE',
  'PACKAGE_EPISODE_ID_FORMAT',
] as const

export type PackageWarningCode = (typeof PACKAGE_WARNING_CODES)[number]

export interface PackageErrorOptions {
  /** File relative to the package root (`benchmark.json`, `ikea-manualbook/task.txt`). */
  file?: string
  /** Field inside the file, e.g. `blocks[2].samples.Chair/reidar.sha256`. */
  field?: string
  /** The rule that was broken, stated as a fact about the file. */
  message: string
  /** What the user should do about it. */
  fix: string
  cause?: unknown
}

/** A package that breaks a rule of the benchmark-package spec; the message names file, field, rule and fix. */
export class PackageError extends AwbError {
  declare readonly code: PackageErrorCode

  constructor(code: PackageErrorCode, options: PackageErrorOptions) {
    super(code, `${options.message}. ${options.fix}`, { file: options.file, field: options.field, cause: options.cause })
  }
}

/** A finding worth telling the user that never fails the package. */
export interface PackageWarning {
  code: PackageWarningCode
  file: string
  message: string
}
