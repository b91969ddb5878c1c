// Public entry of the package domain: read, verify and validate a benchmark package; nothing else is public.
export { configIdFor } from './config-id.ts'
export { PACKAGE_ERROR_CODES, PACKAGE_WARNING_CODES, PackageError } from './errors.ts'
export type { PackageErrorCode, PackageWarning, PackageWarningCode } from './errors.ts'
export { EVALUATION_POINTS_PER_PART, GT_POSE_LENGTH, MIN_QUATERNION_NORM, parseEvaluation } from './evaluation.ts'
export type { Evaluation, EvaluationExpectation, ParseEvaluationOptions } from './evaluation.ts'
export { FROZEN_BLOCKS, FROZEN_SAMPLES_PER_BLOCK, FROZEN_TOTAL_SAMPLES, FrozenHashListSchema, loadFrozenHashList } from './frozen-release.ts'
export type { FrozenBlock, FrozenHashList } from './frozen-release.ts'
export { canonicalJson } from './json-values.ts'
// Defined in src/shared (the episode codec and the scoring core sort with it too); offered to the package's users.
export { compareCodePoints } from '../shared/code-points.ts'
export type { BenchmarkPackage, PackageBlock, PackagePage, PackageSample } from './model.ts'
export { findSample, loadEvaluation, openPackage, readEpisode, readPage, verifyEpisode } from './open-package.ts'
export type { OpenPackageOptions } from './open-package.ts'
export { resolvePackageFile } from './package-files.ts'
export { isPageMimeType, PAGE_FILE_EXTENSIONS, PAGE_MIME_TYPES, pageContentType, pageFileExtension, pageMimeType, type PageMimeType } from './page-types.ts'
export { assertSafeRelativePath, assertSampleId, isValidSampleId, sampleSlug } from './paths.ts'
// Defined in src/shared (the scoring core and the runs key samples too); offered here to the package's own users.
export { sampleKey } from '../shared/sample-key.ts'
export {
  ENGINE_VERSION,
  EVALUATION_PROTOCOLS,
  isEvaluationProtocol,
  PREPARATION_PROTOCOL,
  RUNTIME_CONTRACT,
  SIMILARITY_POLICY,
  SIMILARITY_THRESHOLD,
} from './protocol-constants.ts'
export type { EvaluationProtocol } from './protocol-constants.ts'
export type { EpisodeCheck } from './sample-checks.ts'
export {
  BenchmarkSchema,
  BlockSchema,
  ConfigSchema,
  EvaluationEnvelopeSchema,
  IdentitySchema,
  PagesSchema,
  SampleRecordSchema,
} from './schemas.ts'
export type { BenchmarkRecord, BlockRecord, ConfigRecord, Identity, PagesRecord, ReferenceMode, SampleRecord } from './schemas.ts'
export { validatePackage } from './validate-package.ts'
export type { ValidatePackageOptions, ValidationProblem, ValidationReport } from './validate-package.ts'
