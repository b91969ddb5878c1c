// `awb score`: scores final poses or a final episode against one evaluation.json and prints one JSON row.
import * as z from 'zod'
// Light entries only: the scorer (its workers start first) and the row builders. The package and episode readers
// load below while the workers boot (bench/startup.ts measures it).
import { createScorer, parsePosesFile, scoringInput } from '../../evaluate/scorer/index.ts'
import { errorFields, scoredFields } from '../../evaluate/rows/index.ts'
import { BackendFlagSchema, KernelFlagSchema, scoringBackend, parseFlags, WorkersFlagSchema } from '../flags.ts'
import type { Evaluation } from '../../package/index.ts'
import type { BodyPose } from '../../world/index.ts'
import { parseJsonBytes, readInputFile } from '../read-input-file.ts'
import { UsageError } from '../usage-error.ts'

const ScoreFlagsSchema = z.looseObject({
  evaluation: z.string().optional(),
  poses: z.string().optional(),
  episode: z.string().optional(),
  initial: z.string().optional(),
  json: z.boolean().optional(),
  candidates: z.boolean().optional(),
  workers: WorkersFlagSchema,
  kernel: KernelFlagSchema,
  backend: BackendFlagSchema,
})

type FinalInputs =
  | { kind: 'poses'; file: string; bytes: Uint8Array }
  | { kind: 'episode'; finalFile: string; finalBytes: Uint8Array; initialFile: string; initialBytes: Uint8Array }

/** The final poses, plus the row fields only an episode provides (state index, archive hash). */
async function readFinalPoses(inputs: FinalInputs, evaluation: Evaluation): Promise<{ poses: BodyPose[]; extra: Record<string, unknown> }> {
  if (inputs.kind === 'poses') return { poses: parsePosesFile(parseJsonBytes(inputs.bytes, inputs.file), evaluation.partIds, inputs.file), extra: {} }
  // Loaded only for episodes: the zip and episode decoders are most of this command's start-up otherwise.
  const { readFinalScene } = await import('../../evaluate/index.ts')
  const scene = await readFinalScene({
    finalBytes: inputs.finalBytes,
    initialBytes: inputs.initialBytes,
    partIds: evaluation.partIds,
    finalSource: inputs.finalFile,
    initialSource: inputs.initialFile,
  })
  return { poses: scene.poses, extra: { episode_sha256: scene.episodeSha256, state_index: scene.stateIndex } }
}

export async function run(args: unknown[]): Promise<number> {
  const flags = parseFlags('score', ScoreFlagsSchema, args.at(-1))
  if (flags.evaluation === undefined) throw new UsageError('score needs --evaluation <evaluation.json>')
  const hasPoses = flags.poses !== undefined
  const hasEpisode = flags.episode !== undefined || flags.initial !== undefined
  if (hasPoses === hasEpisode) throw new UsageError('score needs either --poses <file> or --episode <final.zip> --initial <initial.zip>')
  if (hasEpisode && (flags.episode === undefined || flags.initial === undefined)) throw new UsageError('--episode and --initial go together')
  const scorer = createScorer({
    ...(flags.workers === undefined ? {} : { workers: flags.workers }),
    ...(flags.kernel === undefined ? {} : { kernel: flags.kernel }),
    backend: scoringBackend(flags.backend),
  })
  // The workers boot while the input is read and parsed below.
  scorer.start()
  const { parseEvaluation } = await import('../../package/index.ts')
  const evaluationBytes = await readInputFile(flags.evaluation, '--evaluation')
  const inputs: FinalInputs = hasPoses
    ? { kind: 'poses', file: flags.poses!, bytes: await readInputFile(flags.poses!, '--poses') }
    : {
        kind: 'episode',
        finalFile: flags.episode!,
        finalBytes: await readInputFile(flags.episode!, '--episode'),
        initialFile: flags.initial!,
        initialBytes: await readInputFile(flags.initial!, '--initial'),
      }

  const started = performance.now()
  let row: Record<string, unknown>
  try {
    const evaluation = parseEvaluation(parseJsonBytes(evaluationBytes, flags.evaluation), { file: flags.evaluation })
    const { poses: finalPoses, extra } = await readFinalPoses(inputs, evaluation)
    const score = await scorer.score(scoringInput(evaluation, finalPoses))
    row = { ...scoredFields(score, { includeCandidates: flags.candidates === true }), ...extra }
  } catch (error) {
    row = { ...errorFields(error) }
  } finally {
    await scorer.close()
  }
  row.backend = scorer.backend
  row.workers = scorer.workers
  row.kernel = scorer.kernel
  row.seconds = Math.round(performance.now() - started) / 1000
  process.stdout.write(`${JSON.stringify(row, null, flags.json === true ? undefined : 2)}\n`)
  return row.status === 'scored' ? 0 : 1
}
