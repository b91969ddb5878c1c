// `awb env run`: opens an episode, runs a JSONL of agent calls through the world runtime, prints each result
// and writes the exported full episode atomically. No rendering yet (`--render` is a usage error for now).
import { randomUUID } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import * as z from 'zod'
import { decodeEpisode, encodeEpisode } from '../../episode/index.ts'
import { loadMujoco, WorldRuntime } from '../../world/index.ts'
import { parseFlags } from '../flags.ts'
import { readInputFile } from '../read-input-file.ts'
import { UsageError } from '../usage-error.ts'

const EnvFlagsSchema = z.looseObject({
  episode: z.string().optional(),
  calls: z.string().optional(),
  out: z.string().optional(),
  render: z.boolean().optional(),
  json: z.boolean().optional(),
})

/** One line of the calls file. */
const CallLineSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
})

/** A parsed call with its 1-based line number in the calls file. */
type CallLine = z.infer<typeof CallLineSchema> & { line: number }

export async function run(args: unknown[]): Promise<number> {
  const action = args[0]
  const flags = parseFlags('env', EnvFlagsSchema, args.at(-1))
  if (action !== 'run') throw new UsageError(`env: unknown action "${String(action)}"; the only action is \`awb env run --episode IN.zip --calls CALLS.jsonl --out OUT.zip\``)
  if (flags.render === true) throw new UsageError('env run: --render is not available yet in this version; run without it (capture_scene then answers unsupported_capability)')
  if (flags.episode === undefined || flags.calls === undefined || flags.out === undefined) {
    throw new UsageError('env run needs --episode <in.zip> --calls <calls.jsonl> --out <out.zip>')
  }
  if (resolve(flags.out) === resolve(flags.episode)) throw new UsageError(`env run: --out ${flags.out} is the input episode; write the export to a new file`)
  const episodeBytes = await readInputFile(flags.episode, '--episode')
  const calls = parseCallLines(await readInputFile(flags.calls, '--calls'), flags.calls)

  const episode = await decodeEpisode(episodeBytes, { source: flags.episode })
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode, source: flags.episode })
  try {
    for (const call of calls) {
      const output = await runtime.callTool(call.name, call.arguments ?? {})
      process.stdout.write(flags.json === true ? `${JSON.stringify({ line: call.line, name: call.name, output: JSON.parse(output) })}\n` : `${call.name}: ${output}\n`)
    }
    const bytes = await encodeEpisode(runtime.exportEpisode(), { source: flags.out })
    await writeAtomically(flags.out, bytes)
    process.stderr.write(`awb env: wrote ${flags.out} (${calls.length} calls)\n`)
    return 0
  } finally {
    runtime.dispose()
  }
}

/** Parses the calls file: one `{"name", "arguments"?}` object per non-blank line; errors name the line. */
function parseCallLines(bytes: Uint8Array, file: string): CallLine[] {
  const lines = new TextDecoder().decode(bytes).split('\n')
  const calls: CallLine[] = []
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new UsageError(`--calls ${file} line ${i + 1}: not valid JSON (${error instanceof Error ? error.message : String(error)})`)
    }
    const parsed = CallLineSchema.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `
      throw new UsageError(`--calls ${file} line ${i + 1}: expected {"name": string, "arguments": object}; ${where}${issue?.message ?? 'invalid'}`)
    }
    calls.push({ ...parsed.data, line: i + 1 })
  }
  return calls
}

// Temp file beside the target, then rename: readers never see a half-written archive.
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`
  try {
    await writeFile(temp, bytes, { flag: 'wx' })
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}
