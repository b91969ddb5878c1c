// `awb env run`: opens an episode, runs a JSONL of agent calls through the world runtime (in Node, or in headless
// Chromium with the three.js renderer when `--render`), prints each result and writes the export atomically.
import { resolve } from 'node:path'
import * as z from 'zod'
import { parseCallsScript, type ScriptCall } from '../../agents/index.ts'
import { decodeEpisode, encodeEpisode } from '../../episode/index.ts'
import { writeFileAtomic } from '../../shared/atomic-write.ts'
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

export async function run(args: unknown[]): Promise<number> {
  const action = args[0]
  const flags = parseFlags('env', EnvFlagsSchema, args.at(-1))
  if (action !== 'run') throw new UsageError(`env: unknown action "${String(action)}"; the only action is \`awb env run --episode IN.zip --calls CALLS.jsonl --out OUT.zip\``)
  if (flags.episode === undefined || flags.calls === undefined || flags.out === undefined) {
    throw new UsageError('env run needs --episode <in.zip> --calls <calls.jsonl> --out <out.zip>')
  }
  if (resolve(flags.out) === resolve(flags.episode)) throw new UsageError(`env run: --out ${flags.out} is the input episode; write the export to a new file`)
  const episodeBytes = await readInputFile(flags.episode, '--episode')
  const calls = parseCalls(await readInputFile(flags.calls, '--calls'), flags.calls)
  const print = (call: ScriptCall, output: string) => {
    process.stdout.write(flags.json === true ? `${JSON.stringify({ line: call.line, name: call.name, output: JSON.parse(output) })}\n` : `${call.name}: ${output}\n`)
  }
  const bytes = flags.render === true
    ? await runInBrowser(episodeBytes, calls, flags.episode, print)
    : await runInNode(episodeBytes, calls, flags.episode, flags.out, print)
  await writeFileAtomic(flags.out, bytes)
  process.stderr.write(`awb env: wrote ${flags.out} (${calls.length} calls${flags.render === true ? ', rendered in headless Chromium' : ''})\n`)
  return 0
}

async function runInNode(episodeBytes: Uint8Array, calls: ScriptCall[], source: string, out: string, print: (call: ScriptCall, output: string) => void): Promise<Uint8Array> {
  const episode = await decodeEpisode(episodeBytes, { source })
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode, source })
  try {
    for (const call of calls) print(call, await runtime.callTool(call.name, call.arguments))
    return await encodeEpisode(runtime.exportEpisode(), { source: out })
  } finally {
    runtime.dispose()
  }
}

/** The same run in headless Chromium, where capture_scene renders with three.js (loaded only when asked for). */
async function runInBrowser(episodeBytes: Uint8Array, calls: ScriptCall[], source: string, print: (call: ScriptCall, output: string) => void): Promise<Uint8Array> {
  const { runEpisodeInBrowser } = await import('../../headless/index.ts')
  const result = await runEpisodeInBrowser({ episode: episodeBytes, calls: calls.map(call => ({ name: call.name, arguments: call.arguments })), source })
  result.outputs.forEach((output, index) => print(calls[index]!, output.output))
  return result.episode
}

function parseCalls(bytes: Uint8Array, file: string): ScriptCall[] {
  try {
    return parseCallsScript(new TextDecoder().decode(bytes), `--calls ${file}`)
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}
