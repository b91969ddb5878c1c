// A hostile page agent against a real benchmark run (a child `vitest run`, real Chromium): from its realm (a sandboxed,
// opaque-origin frame) it tries to reach the tester page, Vitest and the Vite server; a page accomplice (a setup file
// in the tester page, standing for page code that escaped, or any page on the server) tries to read the ground truth,
// write on the host, use the scorer as an oracle and break out of its sample through Vitest and our commands; and this
// process probes the same server from outside. A canary planted in every evaluation.json must appear nowhere the agent
// or the run records can see. Each defence has a probe that only it stops (see SECURITY.md).
import { spawn } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePorts } from '../../plugin/free-ports.ts'
import { markAnswersFolder } from '../../src/shared/answer-folders.ts'
import { CONSOLE_MARKER, type Probe, type ProbeOutcome } from './hostile/hostile-agent.ts'
import { vitestCli } from '../helpers/vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const AGENT = join(ROOT, 'test', 'integration', 'hostile', 'hostile-agent.ts')
const ACCOMPLICE = join(ROOT, 'test', 'integration', 'hostile', 'page-accomplice.ts')
const BLOCK = 'ikea-manualbook'
const SAMPLE = 'Chair/logrelm'
const OTHER_SAMPLE = 'Misc/grefodun'
const CHILD_TIMEOUT_MS = 240_000
/** Where the baseline run holds the sample's final episode (a stand-in: the canary's bytes). */
const BASELINE_FINAL = `${BLOCK}/${SAMPLE.replace('/', '--')}/final.episode.zip`
/** The marker of an evaluation.json body, whether or not the canary survived a transformation. */
const GROUND_TRUTH_MARKER = 'gt_poses'

interface Attack {
  /** The port of Vitest's API server, which the run serves the UI on (`--ui --api.port`). */
  uiPort: number
  /** An earlier run the run compares with (AWB_BASELINE), kept in the project outside the runs folder: its final episodes solve samples. */
  baselineDir: string
  /** Answers the run knows nothing of, in the project: a run copied from a CI artifact, a report published from docs/. */
  copiedRunDir: string
  publishedReportDir: string
  canary: string
  packageDir: string
  runsDir: string
  scratch: string
  plantedPath: string
  victimPath: string
  evaluationPath: string
  evaluationHash: string
  /** The Vite server's origin, as the tester page reported it. */
  origin: string | undefined
  /** The ancestors' origins the realm could see (Chromium's location.ancestorOrigins). */
  realmAncestors: string[]
  fromOutside: ProbeOutcome[]
  /** This process's requests for Vite's /__open-in-editor, on the page's server and on the UI's. */
  hostActionsFromOutside: ProbeOutcome[]
  /** Where the run's LAUNCH_EDITOR program (a stand-in for the user's editor) writes each file it is started on. */
  editorLog: string
  /** The realm's probes, from inside the agent's frame. */
  realm: ProbeOutcome[]
  before: ProbeOutcome[]
  after: ProbeOutcome[]
  /** What reached the tester page from the realm: window messages, messages on Vitest's channels. */
  received: string[]
  exitCode: number | null
  output: string
}

const scratchDirs: string[] = []
afterAll(async () => {
  for (const dir of scratchDirs) await rm(dir, { recursive: true, force: true })
})

/** Copies the bundled package to `where`, with a canary in every evaluation.json (a key the scorer ignores). */
async function plantedPackage(where: string, canary: string): Promise<string> {
  const dir = join(where, 'pkg')
  await cp(join(ROOT, 'fixtures', 'awb-mini'), dir, { recursive: true })
  for (const file of await filesUnder(dir)) {
    if (!file.endsWith('evaluation.json')) continue
    const value = JSON.parse(await readFile(file, 'utf8')) as { provenance?: Record<string, unknown> }
    value.provenance = { ...value.provenance, canary }
    await writeFile(file, JSON.stringify(value))
  }
  return dir
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter(entry => entry.isFile()).map(entry => join(entry.parentPath, entry.name))
}

/** The probes the page runs, given where things are (root-relative URLs only when the package is in the project). */
function pageProbes(attack: Pick<Attack, 'packageDir' | 'runsDir' | 'plantedPath' | 'victimPath' | 'evaluationPath' | 'uiPort' | 'baselineDir' | 'copiedRunDir' | 'publishedReportDir'>): { before: Probe[]; after: Probe[] } {
  const inside = !relative(ROOT, attack.packageDir).startsWith('..')
  const rel = (path: string) => `/${relative(ROOT, path).split('\\').join('/')}`
  const evalRel = relative(attack.packageDir, attack.evaluationPath)
  const urls: [string, string][] = [
    ['fs', `/@fs${attack.evaluationPath}`],
    ['fs-raw', `/@fs${attack.evaluationPath}?raw`],
    ['fs-url', `/@fs${attack.evaluationPath}?url`],
    ['fs-import', `/@fs${attack.evaluationPath}?import`],
    ['fs-inline', `/@fs${attack.evaluationPath}?inline`],
    ['id', `/@id/${attack.evaluationPath}`],
    ['fs-traversal', `/@fs${ROOT}/suites/../${relative(ROOT, attack.evaluationPath)}`],
    ['fs-encoded-traversal', `/@fs${ROOT}/suites/%2e%2e%2f${relative(ROOT, attack.evaluationPath).split('/').map(encodeURIComponent).join('%2f')}`],
    ['fs-benchmark-json', `/@fs${attack.packageDir}/benchmark.json`],
    ['fs-evaluation-renamed-case', `/@fs${attack.evaluationPath.replace(/evaluation\.json$/, 'EVALUATION.json')}`],
    ['attachment', `/__vitest_attachment__?path=${encodeURIComponent(attack.evaluationPath)}&contentType=text/plain`],
    ['input-route-path', `/@awb/input/${BLOCK}/${OTHER_SAMPLE.replace('/', '--')}/initial.episode.zip`],
    ['input-route-traversal', `/@awb/input/x/../../${relative(ROOT, attack.evaluationPath)}`],
    ['runs', `/@fs${attack.runsDir}/`],
    ['demonstrations', `/@fs${ROOT}/fixtures/demonstrations/${BLOCK}/${SAMPLE.replace('/', '--')}.calls.jsonl`],
    ['generator', `/@fs${ROOT}/fixtures/generator/`],
    ['fixtures-root-relative', `/fixtures/demonstrations/${BLOCK}/${SAMPLE.replace('/', '--')}.calls.jsonl`],
    ['baseline-final', `${rel(attack.baselineDir)}/${BASELINE_FINAL}`],
    ['baseline-fs', `/@fs${attack.baselineDir}/${BASELINE_FINAL}`],
    ['baseline-metrics', `${rel(attack.baselineDir)}/metrics.jsonl`],
    ['copied-run-final', `${rel(attack.copiedRunDir)}/${BASELINE_FINAL}`],
    ['copied-run-fs', `/@fs${attack.copiedRunDir}/${BASELINE_FINAL}`],
    ['published-report', `${rel(attack.publishedReportDir)}/index.html`],
    ['published-report-fs', `/@fs${attack.publishedReportDir}/index.html?raw`],
    // A link in the project into a copied run (`latest-block -> artifacts/copied-run/<block>`): no folder on the
    // path as written carries the mark, the folder it leads into does.
    ['linked-run', `${rel(join(attack.copiedRunDir, '..', '..', 'latest-block'))}/${BASELINE_FINAL.slice(BLOCK.length + 1)}`],
    ['linked-run-fs', `/@fs${join(attack.copiedRunDir, '..', '..', 'latest-block')}/${BASELINE_FINAL.slice(BLOCK.length + 1)}`],
  ]
  if (inside) {
    const pkg = rel(attack.packageDir)
    urls.push(
      ['root', `${pkg}/${evalRel}`],
      ['root-raw', `${pkg}/${evalRel}?raw`],
      ['root-url', `${pkg}/${evalRel}?url`],
      ['root-import', `${pkg}/${evalRel}?import`],
      ['root-inline', `${pkg}/${evalRel}?inline`],
      ['root-double-encoded', `/suites/%252e%252e${pkg}/${evalRel}`],
      ['root-benchmark-json', `${pkg}/benchmark.json`],
    )
  }
  const before: Probe[] = [
    ...urls.map(([id, url]) => ({ id: `fetch:${id}`, kind: 'fetch' as const, url })),
    { id: 'import:fs-json', kind: 'import', url: `/@fs${attack.evaluationPath}` },
    { id: 'import:fs-raw', kind: 'import', url: `/@fs${attack.evaluationPath}?raw` },
    ...(inside ? [{ id: 'import:root-json', kind: 'import' as const, url: `${rel(attack.packageDir)}/${evalRel}` }] : []),
    // Vitest's built-in file commands: refused by name (the plugin's override).
    { id: 'vitest-command:readFile', kind: 'command', name: 'readFile', args: [attack.evaluationPath] },
    { id: 'vitest-command:readFile-source', kind: 'command', name: 'readFile', args: ['package.json'] },
    { id: 'vitest-command:writeFile', kind: 'command', name: 'writeFile', args: [attack.plantedPath, 'export const planted = true\n'] },
    { id: 'vitest-command:removeFile', kind: 'command', name: 'removeFile', args: [attack.victimPath] },
    { id: 'vitest-command:fileInfo', kind: 'command', name: '__vitest_fileInfo', args: [attack.evaluationPath, 'utf-8'] },
    { id: 'vitest-command:screenshot', kind: 'command', name: '__vitest_screenshot', args: [attack.plantedPath, {}] },
    // Vitest's RPC, below the commands: reading is held by server.fs.deny, writing by browser.api.allowWrite.
    { id: 'vitest-rpc:readSnapshotFile', kind: 'rpc', method: 'readSnapshotFile', args: [attack.evaluationPath] },
    // The same reader with path forms that skip normalisation: Vite's checks compare the raw string (vite-fs.ts).
    ...rpcPathForms(attack).map(([id, path]) => ({ id: `vitest-rpc:readSnapshotFile-${id}`, kind: 'rpc' as const, method: 'readSnapshotFile', args: [path] })),
    // Vitest's other readers behind the same check: snapshot data (evaluated by Node when exec is on) and mock resolution.
    ...rpcPathForms(attack).map(([id, path]) => ({ id: `vitest-rpc:readSnapshotFileData-${id}`, kind: 'rpc' as const, method: 'readSnapshotFileData', args: [path] })),
    // Vitest 5's benchmark-result reader returns any JSON file it may load, parsed (4.1 has none).
    ...[['plain', attack.evaluationPath] as [string, string], ...rpcPathForms(attack)].map(([id, path]) => ({ id: `vitest-rpc:readBenchmarkResult-${id}`, kind: 'rpc' as const, method: 'readBenchmarkResult', args: [path] })),
    // Below the URL layer too: the answers a run knows nothing of, through Vite's file checks.
    { id: 'vitest-rpc:readSnapshotFile-copied-run', kind: 'rpc', method: 'readSnapshotFile', args: [join(attack.copiedRunDir, BASELINE_FINAL)] },
    { id: 'vitest-rpc:readSnapshotFile-published-report', kind: 'rpc', method: 'readSnapshotFile', args: [join(attack.publishedReportDir, 'index.html')] },
    { id: 'vitest-rpc:readSnapshotFile-linked-run', kind: 'rpc', method: 'readSnapshotFile', args: [join(attack.copiedRunDir, '..', '..', 'latest-block', BASELINE_FINAL.slice(BLOCK.length + 1))] },
    { id: 'vitest-rpc:saveSnapshotFile', kind: 'rpc', method: 'saveSnapshotFile', args: [attack.plantedPath, 'export const planted = true\n'] },
    { id: 'vitest-rpc:removeSnapshotFile', kind: 'rpc', method: 'removeSnapshotFile', args: [attack.victimPath] },
    // Our commands: another block, another sample, this sample again, paths for names, services of other agents.
    { id: 'awb:start-other-block', kind: 'command', name: 'awbStartSample', args: ['partnet-none', '20545'] },
    { id: 'awb:start-other-sample', kind: 'command', name: 'awbStartSample', args: [BLOCK, OTHER_SAMPLE] },
    { id: 'awb:start-again', kind: 'command', name: 'awbStartSample', args: [BLOCK, SAMPLE] },
    { id: 'awb:save-path-block', kind: 'command', name: 'awbSaveFinal', args: ['../../escape', SAMPLE, 'AAAA'] },
    { id: 'awb:save-path-sample', kind: 'command', name: 'awbSaveFinal', args: [BLOCK, '../../../escape', 'AAAA'] },
    { id: 'awb:save-other-sample', kind: 'command', name: 'awbSaveFinal', args: [BLOCK, OTHER_SAMPLE, 'AAAA'] },
    { id: 'awb:record-path-block', kind: 'command', name: 'awbRecord', args: ['../../escape', SAMPLE, { type: 'event', event: 'x' }] },
    { id: 'awb:finish-other-sample', kind: 'command', name: 'awbFinishSample', args: [BLOCK, OTHER_SAMPLE, {}] },
    { id: 'awb:model-request', kind: 'command', name: 'awbModelRequest', args: [{ provider: 'openai', body: { model: 'gpt-x', messages: [] } }] },
    { id: 'awb:run-cli-agent', kind: 'command', name: 'awbRunCliAgent', args: [BLOCK, SAMPLE] },
    { id: 'globals', kind: 'globals' },
    // The run serves Vitest's UI: its API socket takes the token every tester page carries (window.VITEST_API_TOKEN)
    // and answers every test's results (earlier scores: an oracle) and reruns. Only the UI's own origin may open it.
    ...['localhost', '127.0.0.1'].map(host => ({ id: `vitest-ui:api-socket-${host}`, kind: 'eval' as const, code: `
      const token = window.VITEST_API_TOKEN
      const events = []
      await new Promise((done) => {
        const socket = new WebSocket('ws://${host}:${attack.uiPort}/__vitest_api__?token=' + encodeURIComponent(String(token)))
        socket.onopen = () => { events.push('open'); socket.send(JSON.stringify({ t: 'q', i: 'awb-hostile', m: 'getFiles', a: [] })) }
        socket.onmessage = (event) => events.push('message ' + String(event.data).slice(0, 200))
        socket.onerror = () => events.push('error')
        socket.onclose = (event) => { events.push('close ' + event.code); done() }
        setTimeout(() => { events.push('still open after 3 s'); socket.close() }, 3000)
      })
      return { token: typeof token, events }` })),
    // Vite answers other localhost origins (its CORS default), so the UI's routes are readable from the page: its file
    // route must not serve the answers (the serve guard and server.fs.deny hold on the UI's server too).
    ...[attack.evaluationPath, `${attack.evaluationPath.replace(/\/cache\//, '/cache/./')}`].map((path, i) => ({ id: `vitest-ui:attachment-route-${i}`, kind: 'eval' as const, code: `
      const response = await fetch('http://localhost:${attack.uiPort}/__vitest_attachment__?path=' + encodeURIComponent(${JSON.stringify(path)}) + '&contentType=text/plain&token=' + encodeURIComponent(String(window.VITEST_API_TOKEN)))
      return { status: response.status, body: (await response.text()).slice(0, 300) }` })),
    // Vite's /__open-in-editor starts a program on the host for any GET: on the page's own server, in another letter
    // case (connect matches routes case-insensitively) and on the UI's server (readable from the page: localhost CORS).
    { id: 'host-action:open-in-editor', kind: 'eval', code: `
      const answers = {}
      for (const url of ['/__open-in-editor?file=package.json', '/__OPEN-IN-EDITOR?file=package.json', 'http://localhost:${attack.uiPort}/__open-in-editor?file=package.json']) {
        const response = await fetch(url)
        answers[url] = response.status + ' ' + (await response.text()).slice(0, 200)
      }
      return answers` },
  ]
  const emptyZip = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]).toString('base64')
  const finishReport = {
    execution: { status: 'completed', final_answer: null, error: null, usage: null, cost_usd: null, model: null },
    archive: { status: 'saved', sha256: null, calls: 0, error: null },
    agentOutcome: null, toolCalls: 0, durationSeconds: 1, timings: { openMs: 0, agentMs: 0, exportMs: 0, saveMs: 0 }, capture: null,
  }
  const after: Probe[] = [
    { id: 'awb:save-early', kind: 'command', name: 'awbSaveFinal', args: [BLOCK, SAMPLE, emptyZip] },
    { id: 'awb:save-twice', kind: 'command', name: 'awbSaveFinal', args: [BLOCK, SAMPLE, emptyZip] },
    { id: 'awb:finish-early', kind: 'command', name: 'awbFinishSample', args: [BLOCK, SAMPLE, finishReport] },
    { id: 'awb:finish-again', kind: 'command', name: 'awbFinishSample', args: [BLOCK, SAMPLE, finishReport] },
    { id: 'awb:save-after-finish', kind: 'command', name: 'awbSaveFinal', args: [BLOCK, SAMPLE, emptyZip] },
    { id: 'awb:record-after-finish', kind: 'command', name: 'awbRecord', args: [BLOCK, SAMPLE, { type: 'event', event: 'late' }] },
    // No sample of this project is open now: only the running-test check stands between the page and another sample.
    { id: 'awb:start-other-after-finish', kind: 'command', name: 'awbStartSample', args: [BLOCK, OTHER_SAMPLE] },
  ]
  return { before, after }
}

/** The forged messages the realm sends on the port it holds (taken by wrapping MessagePort.prototype.postMessage). */
const FORGED_PORT_MESSAGES = [
  // A record of another sample: the request names a block and sample, which the harness never takes from the realm.
  { type: 'request', id: 9001, request: { kind: 'record', entry: { type: 'event', event: 'awb-hostile forged' }, block: 'partnet-none', sampleId: '20545' } },
  // A model request from an agent that is no API agent.
  { type: 'request', id: 9002, request: { kind: 'model', request: { provider: 'openai', body: { model: 'gpt-x', messages: [] } } } },
  // A request the protocol does not have, and a known one with a sample named beside it.
  { type: 'request', id: 9003, request: { kind: 'finish', report: {} } },
  { type: 'request', id: 9004, block: 'partnet-none', sampleId: '20545', request: { kind: 'tool', name: 'list_objects', input: {} } },
]

/** The probes the agent runs in its realm, given where the Vite server is (`origin`). */
function realmProbes(attack: Pick<Attack, 'evaluationPath'>, origin: string): Probe[] {
  const ws = origin.replace(/^http/, 'ws')
  const evaluationUrl = `${origin}/@fs${attack.evaluationPath}`
  const forgePort = `
    let port
    const original = MessagePort.prototype.postMessage
    MessagePort.prototype.postMessage = function (message) { port ??= this; return original.call(this, message) }
    console.debug('awb-hostile: taking the realm port')
    MessagePort.prototype.postMessage = original
    const replies = {}
    const forged = ${JSON.stringify(FORGED_PORT_MESSAGES)}
    // The harness answers every request that carries an id (refusals too): wait for every answer, not for a time.
    const allAnswered = new Promise(resolve => port.addEventListener('message', event => {
      if (event.data?.type === 'reply' && event.data.id >= 9000) replies[event.data.id] = event.data
      if (Object.keys(replies).length === forged.length) resolve()
    }))
    for (const message of forged) port.postMessage(message)
    await allAnswered
    return replies`
  return [
    { id: 'realm:origin', kind: 'eval', code: 'return self.origin' },
    { id: 'realm:globals', kind: 'globals' },
    { id: 'realm:parent-document', kind: 'eval', code: 'return parent.document.title' },
    { id: 'realm:parent-vitest', kind: 'eval', code: 'return typeof parent.__vitest_worker__' },
    { id: 'realm:top-vitest', kind: 'eval', code: 'return typeof top.__vitest_browser_runner__' },
    { id: 'realm:frame-element', kind: 'eval', code: 'return String(frameElement)' },
    { id: 'realm:navigate-parent', kind: 'eval', code: 'parent.location.href = "about:blank"; return "navigated"' },
    { id: 'realm:open-window', kind: 'eval', code: `return String(window.open(${JSON.stringify(`${origin}/__vitest__/`)}))` },
    { id: 'realm:import-vitest-browser', kind: 'import', url: 'vitest/browser' },
    { id: 'realm:import-evaluation', kind: 'import', url: evaluationUrl },
    { id: 'realm:fetch-evaluation', kind: 'fetch', url: evaluationUrl },
    { id: 'realm:fetch-evaluation-no-cors', kind: 'fetch', url: evaluationUrl, mode: 'no-cors' },
    { id: 'realm:fetch-browser-api', kind: 'fetch', url: `${origin}/__vitest_browser_api__` },
    { id: 'realm:fetch-package-json', kind: 'fetch', url: `${origin}/package.json` },
    // Its answer is unreadable (opaque), but the request reaches the server: enough to start a program there.
    { id: 'realm:open-in-editor-no-cors', kind: 'fetch', url: `${origin}/__open-in-editor?file=package.json`, mode: 'no-cors' },
    { id: 'realm:script-evaluation', kind: 'script', src: `${evaluationUrl}?import` },
    { id: 'realm:script-source', kind: 'script', src: `${origin}/src/agents/prompt.ts` },
    { id: 'realm:websocket-tester', kind: 'websocket', url: `${ws}/__vitest_browser_api__?type=tester&rpcId=awb-hostile&sessionId=awb-hostile&projectName=${BLOCK}&method=run&token=0` },
    { id: 'realm:websocket-hmr', kind: 'websocket', url: `${ws}/`, protocols: ['vite-hmr'] },
    { id: 'realm:cookie', kind: 'eval', code: 'return document.cookie' },
    { id: 'realm:local-storage', kind: 'eval', code: 'return localStorage.length' },
    { id: 'realm:indexed-db', kind: 'eval', code: 'indexedDB.open("awb-hostile"); return "opened"' },
    // Vitest's orchestrator and testers talk over BroadcastChannels (a `cancel` on the global one cancels the run).
    { id: 'realm:broadcast-cancel', kind: 'eval', code: 'new BroadcastChannel("vitest:global").postMessage({ type: "cancel", reason: "awb-hostile" }); return "posted"' },
    { id: 'realm:post-parent', kind: 'eval', code: 'parent.postMessage({ type: "cancel", event: "ready", iframeId: "awb-hostile" }, "*"); parent.postMessage({ type: "awb-agent-realm-connect", code: "awb-hostile" }, "*"); return "posted"' },
    { id: 'realm:post-top', kind: 'eval', code: 'top.postMessage({ type: "cancel", event: "response:awb-hostile" }, "*"); return "posted"' },
    { id: 'realm:forged-port', kind: 'eval', code: forgePort },
    // Tools: finite values whose squares overflow would make the world unscorable.
    { id: 'tool:translate-1e308', kind: 'tool', name: 'translate_objects', input: { ids: ['part-0001'], delta: [1e308, 0, 0] } },
    { id: 'tool:set-pose-1e200', kind: 'tool', name: 'set_object_pose', input: { id: 'part-0001', position: [0, 1e200, 0] } },
  ]
}

/** Far enough up from the project root to reach `/` whatever its depth. */
const TO_FS_ROOT = '/..'.repeat(32)

/** Paths to ground truth, the demonstrations, the host's accounts and this process's environment (API keys), unnormalised. */
function rpcPathForms(attack: Pick<Attack, 'evaluationPath'>): [string, string][] {
  const evaluationDir = attack.evaluationPath.slice(0, attack.evaluationPath.lastIndexOf('/'))
  return [
    ['dot-segment', `${evaluationDir}/./evaluation.json`],
    ['dot-dot', `${ROOT}/suites${TO_FS_ROOT}${attack.evaluationPath}`],
    ['double-slash', `${evaluationDir}//evaluation.json`],
    ['demonstrations', `${ROOT}/suites/../fixtures/demonstrations/${BLOCK}/${SAMPLE.replace('/', '--')}.calls.jsonl`],
    ['etc-passwd', `${ROOT}/suites${TO_FS_ROOT}/etc/passwd`],
    ['proc-environ', `${ROOT}/suites${TO_FS_ROOT}/proc/self/environ`],
    ['git-config', `${ROOT}/suites/./../.git/config`],
  ]
}

/** A GET whose path is sent as written (fetch would normalise `..`). */
function rawGet(origin: string, path: string): Promise<ProbeOutcome> {
  return new Promise((resolvePromise) => {
    const req = request(`${origin}/`, { path, method: 'GET' }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk.toString('utf8') })
      res.on('end', () => resolvePromise({ id: `outside:${path}`, status: res.statusCode ?? 0, body }))
    })
    req.on('error', error => resolvePromise({ id: `outside:${path}`, error: error.message }))
    req.end()
  })
}

async function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) text += (chunk as Buffer).toString('utf8')
  return text
}

/** Runs one attack: a child `vitest run` of one sample with the hostile agent, and this process's own probes. */
async function attack(where: 'inside' | 'outside'): Promise<Attack> {
  const id = randomUUID().slice(0, 8)
  const scratch = where === 'inside' ? join(ROOT, '.awb-hostile', id) : join(tmpdir(), `awb-hostile-${id}`)
  scratchDirs.push(scratch)
  await mkdir(scratch, { recursive: true })
  const canary = `AWB-CANARY-${randomUUID()}`
  const packageDir = await plantedPackage(scratch, canary)
  const runsDir = join(scratch, 'runs')
  const evaluationPath = (await filesUnder(packageDir)).find(file => file.endsWith(join(SAMPLE.replace('/', '--'), 'evaluation.json')))!
  const evaluationHash = createHash('sha256').update(await readFile(evaluationPath)).digest('hex')
  // In the project either way: the project root is what Vite may serve, so that is where planting would matter.
  const projectScratch = join(ROOT, '.awb-hostile', `${id}-project`)
  scratchDirs.push(projectScratch)
  await mkdir(projectScratch, { recursive: true })
  const plantedPath = join(projectScratch, 'planted.ts')
  const baselineDir = join(projectScratch, 'baseline-run')
  await mkdir(join(baselineDir, BASELINE_FINAL, '..'), { recursive: true })
  await writeFile(join(baselineDir, BASELINE_FINAL), canary)
  await writeFile(join(baselineDir, 'metrics.jsonl'), '')
  // A run of an earlier version (run.json beside seals.jsonl, no mark) copied into the project, and a report with the
  // answers mark published from a docs folder: the run knows neither.
  const copiedRunDir = join(projectScratch, 'artifacts', 'copied-run')
  await mkdir(join(copiedRunDir, BASELINE_FINAL, '..'), { recursive: true })
  await writeFile(join(copiedRunDir, BASELINE_FINAL), canary)
  await writeFile(join(copiedRunDir, 'run.json'), '{}')
  await writeFile(join(copiedRunDir, 'seals.jsonl'), '')
  await symlink(join(copiedRunDir, BLOCK), join(projectScratch, 'latest-block'))
  const publishedReportDir = join(projectScratch, 'docs', 'report')
  await mkdir(publishedReportDir, { recursive: true })
  await writeFile(join(publishedReportDir, 'index.html'), `<!doctype html><script id="awb-data" type="application/json">"${canary}"</script>`)
  await markAnswersFolder(publishedReportDir)
  const victimPath = join(projectScratch, 'victim.txt')
  await writeFile(victimPath, 'keep me')
  const [uiPort] = await freePorts(1)
  // The run's editor, as Vite would start it for /__open-in-editor: it records the file it is started on.
  const editorLog = join(scratch, 'editor-launched.txt')
  const editor = join(scratch, 'editor.sh')
  await writeFile(editor, `#!/bin/sh\necho "$@" >> '${editorLog}'\n`, { mode: 0o755 })
  const result: Attack = { uiPort: uiPort!, baselineDir, copiedRunDir, publishedReportDir, canary, packageDir, runsDir, scratch, plantedPath, victimPath, evaluationPath, evaluationHash, origin: undefined, realmAncestors: [], fromOutside: [], hostActionsFromOutside: [], editorLog, realm: [], before: [], after: [], received: [], exitCode: null, output: '' }
  const probes = pageProbes(result)

  // The page accomplice asks for its turn at setup and is answered when the agent hands it over; the agent waits
  // until the page has run its probes.
  let givePageTurn: ((probes: { before: Probe[]; after: Probe[] }) => void) | undefined
  const pageTurn = new Promise<{ before: Probe[]; after: Probe[] }>((resolvePromise) => { givePageTurn = resolvePromise })
  let pageDone: (() => void) | undefined
  const pageFinished = new Promise<void>((resolvePromise) => { pageDone = resolvePromise })
  const server: Server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    void (async () => {
      const body = await readBody(req)
      if (req.url === '/page-turn') {
        result.origin = (JSON.parse(body) as { origin: string }).origin
        res.end(JSON.stringify(await pageTurn))
      } else if (req.url === '/realm') {
        result.realmAncestors = (JSON.parse(body) as { ancestorOrigins: string[] }).ancestorOrigins
        res.end(JSON.stringify(realmProbes(result, result.origin ?? result.realmAncestors[0] ?? 'http://localhost')))
      } else if (req.url === '/realm-report') {
        result.realm = JSON.parse(body) as ProbeOutcome[]
        res.end('{}')
      } else if (req.url === '/page-turn-now') {
        // Another process on the same port, while the sample is open: the same URLs, raw.
        const fetches = probes.before.filter((probe): probe is Extract<Probe, { kind: 'fetch' }> => probe.kind === 'fetch')
        if (result.origin !== undefined) for (const probe of fetches) result.fromOutside.push(await rawGet(result.origin, probe.url))
        for (const origin of [result.origin, `http://127.0.0.1:${uiPort}`]) {
          if (origin !== undefined) result.hostActionsFromOutside.push(await rawGet(origin, '/__open-in-editor?file=package.json'))
        }
        givePageTurn!(probes)
        await Promise.race([pageFinished, new Promise(resolvePromise => setTimeout(resolvePromise, 90_000))])
        res.end('{}')
      } else if (req.url === '/report') {
        result.before = JSON.parse(body) as ProbeOutcome[]
        res.end('{}')
      } else if (req.url === '/report-after') {
        const report = JSON.parse(body) as { outcomes: ProbeOutcome[]; received: string[] }
        result.after = report.outcomes
        result.received = report.received
        res.end('{}')
        pageDone!()
      } else {
        res.statusCode = 404
        res.end()
      }
    })()
  })
  await new Promise<void>(resolvePromise => server.listen(0, '127.0.0.1', resolvePromise))
  // The benchmark's config plus the page accomplice as a setup file: it runs in the tester page, before the block
  // suite. Inside the checkout (an ignored folder), where `vitest/config` resolves.
  const configDir = join(ROOT, '.awb-hostile', `${id}-config`)
  scratchDirs.push(configDir)
  await mkdir(configDir, { recursive: true })
  // Not named vitest.config.*: that name is one of Vitest's rerun triggers, and a `vitest watch` of another test would
  // rerun on it.
  const config = join(configDir, 'benchmark.config.ts')
  await writeFile(config, [
    `import { defineConfig } from 'vitest/config'`,
    `import { assemblyWorld } from ${JSON.stringify(join(ROOT, 'plugin', 'index.ts'))}`,
    `export default defineConfig({ root: ${JSON.stringify(ROOT)}, plugins: [assemblyWorld()], test: { setupFiles: [${JSON.stringify(ACCOMPLICE)}] } })`,
  ].join('\n'))
  try {
    const child = spawn(process.execPath, vitestCli('run', ['--config', config, '--project', BLOCK, '-t', SAMPLE, '--ui', '--open=false', `--api.port=${uiPort}`, '--api.strictPort']), {
      cwd: ROOT,
      env: {
        ...process.env,
        AWB_BENCHMARK: packageDir,
        AWB_RUNS: runsDir,
        AWB_AGENT: AGENT,
        AWB_TIMEOUT_SECONDS: '120',
        AWB_BASELINE: baselineDir,
        LAUNCH_EDITOR: editor,
        // Secrets of the user's environment: none may reach the page.
        OPENAI_API_KEY: `sk-${canary}`,
        ANTHROPIC_API_KEY: `sk-ant-${canary}`,
        VITE_AWB_HOSTILE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        NO_COLOR: '1',
        AWB_REPORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.on('data', (chunk: Buffer) => { result.output += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => { result.output += chunk.toString() })
    // A run the attack broke (a realm that could navigate its page, say) must fail this test, not hang it.
    const deadline = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS - 20_000)
    result.exitCode = await new Promise<number | null>(resolvePromise => child.on('close', code => resolvePromise(code)))
    clearTimeout(deadline)
  } finally {
    server.closeAllConnections()
    await new Promise(resolvePromise => server.close(resolvePromise))
  }
  return result
}

function outcome(list: readonly ProbeOutcome[], id: string): ProbeOutcome {
  const found = list.find(entry => entry.id === id)
  if (found === undefined) throw new Error(`probe ${id} did not run`)
  return found
}

function expectNoGroundTruth(attackResult: Attack, outcomes: readonly ProbeOutcome[]): void {
  for (const entry of outcomes) {
    const text = JSON.stringify(entry)
    expect(text, entry.id).not.toContain(attackResult.canary)
    expect(text, entry.id).not.toContain(GROUND_TRUTH_MARKER)
  }
}

// The two attacks are child runs that mostly wait on their pages: both start before the first test, and run at once.
const attacks = new Map<'inside' | 'outside', Promise<Attack>>()
beforeAll(() => {
  for (const where of ['inside', 'outside'] as const) {
    const pending = attack(where)
    // Awaited by its describe's first test; a failure before then is that test's, not an unhandled rejection.
    pending.catch(() => undefined)
    attacks.set(where, pending)
  }
})

describe.each(['inside', 'outside'] as const)('a hostile page agent in a real run (package %s the project)', (where) => {
  let result: Attack
  it('runs the hostile agent in its realm beside a real sample\'s page, and the page accomplice in that page', async () => {
    result = await attacks.get(where)!
    expect(result.origin, result.output).toMatch(/^http:\/\/(localhost|127\.0\.0\.1):\d+$/)
    expect(result.realm.length, result.output).toBe(realmProbes(result, result.origin!).length)
    expect(result.before.length, result.output).toBeGreaterThan(30)
    expect(result.after).toHaveLength(7)
  }, CHILD_TIMEOUT_MS)

  it('runs the agent in its own realm: an opaque origin, no Vitest global, no secret, nothing of the page\'s DOM', () => {
    expect(outcome(result.realm, 'realm:origin').value).toBe('"null"')
    const globals = JSON.parse(outcome(result.realm, 'realm:globals').value!) as { vitest: string[]; env: Record<string, unknown>; process: unknown }
    expect(globals.vitest).toEqual([])
    expect(globals.process).toBeNull()
    expect(JSON.stringify(globals.env)).not.toContain(result.canary)
    for (const id of ['parent-document', 'parent-vitest', 'top-vitest', 'navigate-parent', 'cookie', 'local-storage', 'indexed-db']) {
      expect(outcome(result.realm, `realm:${id}`).error, id).toMatch(/^SecurityError/)
    }
    expect(outcome(result.realm, 'realm:frame-element').value).toBe('"null"')
    expect(outcome(result.realm, 'realm:open-window').value).toBe('"null"')
    // Chromium tells any frame its ancestors' origins: the realm knows where the server is, and gets nothing from it.
    expect(result.realmAncestors[0]).toBe(result.origin)
  })

  it('cannot reach Vitest or the Vite server from its realm: no module, no readable answer, no script, no socket', () => {
    expect(outcome(result.realm, 'realm:import-vitest-browser').error).toMatch(/^TypeError: Failed to resolve module specifier/)
    expect(outcome(result.realm, 'realm:import-evaluation').error).toMatch(/^TypeError/)
    // Cross-origin from the realm's opaque origin: the server sends no CORS header for origin `null`.
    for (const id of ['fetch-evaluation', 'fetch-browser-api', 'fetch-package-json']) expect(outcome(result.realm, `realm:${id}`).error, id).toMatch(/^TypeError: Failed to fetch/)
    expect(outcome(result.realm, 'realm:fetch-evaluation-no-cors')).toMatchObject({ status: 0, body: '' })
    // The realm's policy runs no script from the server (a classic script would bypass CORS).
    for (const id of ['script-evaluation', 'script-source']) expect(outcome(result.realm, `realm:${id}`).value, id).toBe('refused')
    // Without the tester page's token, Vitest's browser API and Vite's HMR socket never open for the realm.
    for (const id of ['websocket-tester', 'websocket-hmr']) {
      const socket = outcome(result.realm, `realm:${id}`).value ?? outcome(result.realm, `realm:${id}`).error ?? ''
      expect(socket, id).not.toMatch(/open|message/)
    }
  })

  it('cannot talk its way out of its realm: forged messages to the page, to Vitest\'s channels and on its own port are refused', () => {
    // Window messages reach the tester page only as inert events from origin `null` (nothing there listens to them,
    // the harness talks over its port); Vitest's BroadcastChannels are out of the opaque origin's reach.
    for (const id of ['broadcast-cancel', 'post-parent', 'post-top']) expect(outcome(result.realm, `realm:${id}`).value, id).toBe('"posted"')
    expect(result.received.filter(line => line.startsWith('broadcast'))).toEqual([])
    expect(result.received.every(line => line.startsWith('window message from null'))).toBe(true)
    const replies = JSON.parse(outcome(result.realm, 'realm:forged-port').value!) as Record<string, { ok: boolean; error?: string }>
    expect(replies['9001']).toMatchObject({ ok: false, error: expect.stringMatching(/not a message of the agent protocol/) })
    expect(replies['9002']).toMatchObject({ ok: false, error: expect.stringMatching(/makes no model requests/) })
    expect(replies['9003']).toMatchObject({ ok: false, error: expect.stringMatching(/not a message of the agent protocol/) })
    expect(replies['9004']).toMatchObject({ ok: false, error: expect.stringMatching(/not a message of the agent protocol/) })
    // The run was not cancelled: the sample was started, probed and finished.
    expect(outcome(result.after, 'awb:finish-early').value).toContain('"row"')
  })

  it('has its console output in the run\'s output', () => {
    expect(result.output).toContain(CONSOLE_MARKER)
  })

  it('never gets an answer from the server for the package, runs or demonstrations: not from the page, not from another process', () => {
    const fetches = result.before.filter(entry => entry.id.startsWith('fetch:'))
    for (const entry of [...fetches, ...result.fromOutside]) {
      expect(entry.status, `${entry.id} → ${entry.body?.slice(0, 120)}`).toBe(404)
      // The serve guard's answer (Vite's own fs.deny would say 403): each of these is stopped before Vite sees it.
      const expected = entry.id.includes('/@awb/input/ikea') || entry.id === 'fetch:input-route-path' ? /Not an agent-visible input of an open sample/ : /^Not served: benchmark package files/
      expect(entry.body, entry.id).toMatch(expected)
    }
    expect(result.fromOutside).toHaveLength(fetches.length)
    expectNoGroundTruth(result, [...fetches, ...result.fromOutside])
  })

  it('cannot make this machine start a program through Vite\'s /__open-in-editor: not from the page, its realm or another process', () => {
    const answers = JSON.parse(outcome(result.before, 'host-action:open-in-editor').value ?? '{}') as Record<string, string>
    expect(Object.keys(answers)).toHaveLength(3)
    const refusal = /^403 Refused: during a benchmark run no page or local process may make this machine open a file in an editor/
    for (const [url, answer] of Object.entries(answers)) expect(answer, url).toMatch(refusal)
    expect(outcome(result.realm, 'realm:open-in-editor-no-cors')).toMatchObject({ status: 0, body: '' })
    expect(result.hostActionsFromOutside).toHaveLength(2)
    for (const entry of result.hostActionsFromOutside) expect(`${entry.status} ${entry.body}`, entry.id).toMatch(refusal)
    // The run has ended, so its programs have too (the editor would share its output pipes): none was ever started.
    expect(existsSync(result.editorLog), `started on: ${existsSync(result.editorLog) ? readFileSync(result.editorLog, 'utf8') : ''}`).toBe(false)
  })

  it('cannot import ground truth as a module', () => {
    for (const entry of result.before.filter(one => one.id.startsWith('import:'))) expect(entry.error, entry.id).toBeDefined()
  })

  it('finds Vitest\'s file commands switched off in block projects', () => {
    for (const id of ['readFile', 'readFile-source', 'writeFile', 'removeFile', 'fileInfo', 'screenshot']) {
      expect(outcome(result.before, `vitest-command:${id}`).error).toMatch(/disabled in benchmark block projects/)
    }
  })

  it('cannot read through Vitest\'s RPC (server.fs.deny), nor write or delete through it (browser.api.allowWrite)', () => {
    expect(outcome(result.before, 'vitest-rpc:readSnapshotFile').error).toMatch(/Access denied/)
    for (const id of ['copied-run', 'published-report', 'linked-run']) expect(outcome(result.before, `vitest-rpc:readSnapshotFile-${id}`).error, id).toMatch(/Access denied/)
    for (const [id] of rpcPathForms(result)) {
      const read = outcome(result.before, `vitest-rpc:readSnapshotFile-${id}`)
      expect(read.error, `readSnapshotFile ${id} → ${JSON.stringify(read.value)?.slice(0, 120)}`).toMatch(/Access denied/)
      // Vitest 4.1 has no snapshot-data reader: there the call finds no such function, which reads nothing either.
      const data = outcome(result.before, `vitest-rpc:readSnapshotFileData-${id}`)
      expect(data.error, `readSnapshotFileData ${id} → ${JSON.stringify(data.value)?.slice(0, 120)}`).toMatch(/Access denied|"readSnapshotFileData" not found/)
      expect(data.value).toBeUndefined()
    }
    for (const [id] of [['plain'], ...rpcPathForms(result)]) {
      // Denied by server.fs, or (a path outside the project) by Vitest's own root check; 4.1 has no such reader.
      const read = outcome(result.before, `vitest-rpc:readBenchmarkResult-${id}`)
      expect(read.error, `readBenchmarkResult ${id} → ${JSON.stringify(read.value)?.slice(0, 120)}`).toMatch(/Access denied|resolves outside the project root|"readBenchmarkResult" not found/)
      expect(read.value).toBeUndefined()
    }
    expect(existsSync(result.plantedPath)).toBe(false)
    expect(existsSync(result.victimPath)).toBe(true)
  })

  it('cannot act on another block or sample, start its own sample twice, or pass paths for names', () => {
    expect(outcome(result.before, 'awb:start-other-block').error).toMatch(/cannot act on block "partnet-none"/)
    expect(outcome(result.before, 'awb:start-other-sample').error).toMatch(/still open|not the running test/)
    expect(outcome(result.before, 'awb:start-again').error).toMatch(/already started/)
    expect(outcome(result.before, 'awb:save-path-block').error).toMatch(/cannot act on block "..\/..\/escape"/)
    expect(outcome(result.before, 'awb:save-path-sample').error).toMatch(/not the open sample/)
    expect(outcome(result.before, 'awb:save-other-sample').error).toMatch(/not the open sample/)
    expect(outcome(result.before, 'awb:record-path-block').error).toMatch(/cannot act on block/)
    expect(outcome(result.before, 'awb:finish-other-sample').error).toBeDefined()
    expect(outcome(result.before, 'awb:model-request').error).toMatch(/runs no API agent/)
    expect(outcome(result.before, 'awb:run-cli-agent').error).toMatch(/not started with a CLI agent/)
    expect(existsSync(join(ROOT, 'escape'))).toBe(false)
  })

  it('cannot reach Vitest\'s UI from the page: its API socket is refused (the run says so), its file route serves no answer', () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const socket = JSON.parse(outcome(result.before, `vitest-ui:api-socket-${host}`).value ?? '{}') as { token?: string; events?: string[] }
      // The page holds the token; the socket still never opens.
      expect(socket.token, host).toBe('string')
      expect(socket.events?.join(', '), host).not.toMatch(/open|message/)
    }
    expect(result.output).toContain("awb integrity: a connection to Vitest's API (the UI's socket) from the foreign origin")
    // The UI's file route answers, but never with the answers (expectNoGroundTruth checks every probe for the canary).
    for (const id of ['vitest-ui:attachment-route-0', 'vitest-ui:attachment-route-1']) {
      const answer = outcome(result.before, id)
      expect(JSON.parse(answer.value ?? '{"status":0}').status, JSON.stringify(answer)).not.toBe(200)
    }
  })

  it('sees no API key or other secret of the environment in its globals', () => {
    const globals = outcome(result.before, 'globals')
    expect(globals.value).toContain('"allowWrite":false')
    expect(globals.value).not.toContain(result.canary)
  })

  it('gets a tool error for positions whose squares overflow', () => {
    for (const id of ['tool:translate-1e308', 'tool:set-pose-1e200']) expect(outcome(result.realm, id).value).toMatch(/Position out of range/)
  })

  it('gets one score for its sample, however early it asks, and never a second', () => {
    expect(outcome(result.after, 'awb:save-early').value).toMatch(/^"[0-9a-f]{64}"$/)
    expect(outcome(result.after, 'awb:save-twice').error).toMatch(/already saved/)
    expect(outcome(result.after, 'awb:finish-early').value).toContain('"row"')
    expect(outcome(result.after, 'awb:finish-again').error).toMatch(/score is computed once/)
    expect(outcome(result.after, 'awb:save-after-finish').error).toMatch(/has finished/)
    expect(outcome(result.after, 'awb:record-after-finish').error).toMatch(/has finished/)
    expect(outcome(result.after, 'awb:start-other-after-finish').error).toMatch(/not the running test/)
    // The harness's own save and finish came after the agent's, and were refused: the test fails, the row stays.
    expect(result.exitCode).not.toBe(0)
    expect(result.output).toMatch(/already saved|has finished/)
  })

  it('leaves no trace of the canary in anything the agent saw or the run recorded, and the ground truth intact', async () => {
    expectNoGroundTruth(result, [...result.realm, ...result.before, ...result.after])
    const recorded = await filesUnder(result.runsDir)
    expect(recorded.some(file => file.endsWith('result.json'))).toBe(true)
    for (const file of recorded) expect((await readFile(file)).includes(result.canary), file).toBe(false)
    // Nothing the realm forged on its port was recorded.
    for (const file of recorded) expect((await readFile(file)).includes('awb-hostile forged'), file).toBe(false)
    expect(createHash('sha256').update(await readFile(result.evaluationPath)).digest('hex')).toBe(result.evaluationHash)
  })
})
