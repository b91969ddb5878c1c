// Episode archive codec cost on awb-mini: decodes every bundled *.episode.zip (unzip, hash inventory, full validation)
// and re-encodes each decoded episode (validation, canonical JSON, deterministic deflate-9 ZIP). Prints the median of
// several passes (wall and process CPU milliseconds; CPU time is the steadier figure on a shared machine), per pass and
// per episode, and one SHA-256 over all re-encoded archives so that two ZIP writers can be compared for byte identity.
// Usage: tsx bench/episode-codec.ts [--runs N]
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { decodeEpisode, encodeEpisode } from '../src/episode/index.ts'

const PACKAGE = resolve(import.meta.dirname, '..', 'fixtures', 'awb-mini')
const runsAt = process.argv.indexOf('--runs')
const RUNS = runsAt < 0 ? 7 : Number(process.argv[runsAt + 1])
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: expected a whole number ≥ 1, got ${process.argv[runsAt + 1]}`)

const paths = (await readdir(PACKAGE, { recursive: true })).filter(path => path.endsWith('.episode.zip')).sort()
if (paths.length === 0) throw new Error(`no *.episode.zip under ${PACKAGE}`)
const archives = await Promise.all(paths.map(async path => ({ path, bytes: new Uint8Array(await readFile(join(PACKAGE, path))) })))

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

// One untimed pass warms the JIT and the lazily compiled schema validators, which every real run pays once.
const episodes = await Promise.all(archives.map(({ path, bytes }) => decodeEpisode(bytes, { source: path })))
const encoded = await Promise.all(episodes.map(episode => encodeEpisode(episode)))

const cpuMs = (since: NodeJS.CpuUsage) => { const used = process.cpuUsage(since); return (used.user + used.system) / 1000 }
const decodeMs: number[] = []
const encodeMs: number[] = []
const decodeCpuMs: number[] = []
const encodeCpuMs: number[] = []
for (let run = 0; run < RUNS; run++) {
  let started = performance.now()
  let cpu = process.cpuUsage()
  for (const { path, bytes } of archives) await decodeEpisode(bytes, { source: path })
  decodeMs.push(performance.now() - started)
  decodeCpuMs.push(cpuMs(cpu))
  started = performance.now()
  cpu = process.cpuUsage()
  for (const episode of episodes) await encodeEpisode(episode)
  encodeMs.push(performance.now() - started)
  encodeCpuMs.push(cpuMs(cpu))
}

const digest = createHash('sha256')
for (const bytes of encoded) digest.update(bytes)
const inputBytes = archives.reduce((sum, { bytes }) => sum + bytes.byteLength, 0)
const outputBytes = encoded.reduce((sum, bytes) => sum + bytes.byteLength, 0)
const unchanged = archives.filter(({ bytes }, i) => Buffer.compare(bytes, encoded[i]!) === 0).length
const figures = {
  episodes: archives.length,
  runs: RUNS,
  decode_ms: Number(median(decodeMs).toFixed(1)),
  decode_ms_per_episode: Number((median(decodeMs) / archives.length).toFixed(2)),
  decode_cpu_ms: Number(median(decodeCpuMs).toFixed(1)),
  encode_ms: Number(median(encodeMs).toFixed(1)),
  encode_ms_per_episode: Number((median(encodeMs) / archives.length).toFixed(2)),
  encode_cpu_ms: Number(median(encodeCpuMs).toFixed(1)),
  input_bytes: inputBytes,
  reencoded_bytes: outputBytes,
  reencoded_identical_to_input: unchanged,
  reencoded_sha256: digest.digest('hex'),
}
console.log(`episode codec on awb-mini, ${figures.episodes} episodes, median of ${RUNS} passes`)
console.log(`decode ${figures.decode_ms} ms (${figures.decode_ms_per_episode} ms/episode, CPU ${figures.decode_cpu_ms} ms), encode ${figures.encode_ms} ms (${figures.encode_ms_per_episode} ms/episode, CPU ${figures.encode_cpu_ms} ms)`)
console.log(`re-encoded ${outputBytes} bytes from ${inputBytes}; ${unchanged}/${archives.length} byte-identical to the bundled archive`)
console.log(JSON.stringify(figures))
