// The Node side of page agents' realms: the realm code each agent kind gets in its spec, bundled with Vite once per
// run and entry, and the errors a module that cannot run gets (as a load failure of that module, sample by sample).
import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expandProtectedDirs, runProtectedDirs } from '../../../plugin/serve-guard.ts'
import { AgentRealmError } from '../../../src/agents/realm/index.ts'
import { agentFor, type AgentOptions } from '../../../src/harness/node/agent-spec.ts'
import { createAgentRealmBundler } from '../../../src/harness/node/index.ts'
import type { PackageSample } from '../../../src/package/index.ts'
import { ANSWERS_MARKER } from '../../../src/shared/answer-folders.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const sample = { block: 'b', id: 's', slug: 's' } as PackageSample
let scratch: string

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'awb-realm-bundle-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

function options(agent: string, extra: Partial<AgentOptions> = {}): AgentOptions {
  return { agent, model: undefined, demonstrations: join(ROOT, 'fixtures', 'demonstrations'), agentRealm: createAgentRealmBundler({ root: ROOT, protectedDirs: [] }), ...extra }
}

describe('agentFor with the realm bundler', () => {
  it('gives the built-in agents one small realm module, bundled once, without a schema library', async () => {
    const bundler = createAgentRealmBundler({ root: ROOT, protectedDirs: [] })
    const idle = await agentFor(options('idle', { agentRealm: bundler }), sample)
    expect(idle).toMatchObject({ kind: 'idle', realm: expect.stringContaining('export { start }') })
    expect(await bundler.code({ kind: 'built-in' })).toBe((idle as { realm: string }).realm)
    expect((idle as { realm: string }).realm).not.toContain('node_modules/zod')
    expect((idle as { realm: string }).realm.length).toBeLessThan(32 * 1024)
  })

  it('bundles an API agent\'s loop, and a user module with the realm\'s port protocol around it', async () => {
    expect(await agentFor(options('openai:gpt-x'), sample)).toMatchObject({ kind: 'api', spec: { provider: 'openai', model: 'gpt-x' }, realm: expect.stringContaining('createApiAgent') })
    const example = join(ROOT, 'examples', 'page-agent', 'agent.ts')
    const spec = await agentFor(options(example), sample)
    expect(spec).toMatchObject({ kind: 'module', source: example })
    const realm = (spec as { realm: string }).realm
    expect(realm).toContain('example-gather')
    expect(realm).toContain('startModuleRealm')
    // The console is captured before the module runs, so its top-level logging reaches the terminal too.
    expect(realm.indexOf('connectConsole')).toBeLessThan(realm.indexOf('example-gather'))
  })

  it('makes a module that does not build, or imports Vitest, the agent\'s failure, named as a load failure', async () => {
    const broken = join(scratch, 'broken-agent.ts')
    await writeFile(broken, 'export default defineAgent({ name: "x", run: async () => { ')
    expect(await agentFor(options(broken), sample)).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(new RegExp(`^the agent module ${broken} could not be loaded: `)) })
    const vitest = join(scratch, 'vitest-agent.ts')
    await writeFile(vitest, 'import { commands } from "vitest/browser"\nexport default commands\n')
    expect(await agentFor(options(vitest), sample)).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/could not be loaded: .*imports vitest\/browser: page agents run in their own realm/) })
  })

  it('has no page agent outside a Vitest run (no bundler), and no realm for Node-side agents', async () => {
    expect(await agentFor(options('idle', { agentRealm: undefined }), sample)).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/only in a Vitest run/) })
    expect(await agentFor(options('codex', { model: 'gpt-5' }), sample)).toEqual({ kind: 'cli', cli: 'codex', model: 'gpt-5' })
  })
})

// Vite reads in Node any file a module names: an agent module that imports the answers would carry them into its
// realm. Every form below put evaluation.json (or a demonstration, which solves the sample) into the bundle before the
// read guard existed (defence:bundle-reads).
describe('a page agent module that reaches for the answers at bundle time', () => {
  const evaluation = join(ROOT, 'fixtures', 'awb-mini', 'partnet-none', 'partnet-manualpa', 'prep-v1-s0-i0-896b72332167', 'cache', '44266', 'evaluation.json')
  const demonstration = join(ROOT, 'fixtures', 'demonstrations', 'partnet-none', '44266.calls.jsonl')
  const inPackage = relative(join(ROOT, 'fixtures', 'awb-mini'), evaluation)
  let dir: string
  let protectedDirs: string[]

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'awb-realm-reads-'))
    await mkdir(join(dir, 'answers'))
    await writeFile(join(dir, 'answers', 'solution.json'), '{"secret":"awb-hard-linked-answer"}')
    await link(join(dir, 'answers', 'solution.json'), join(dir, 'innocent.txt'))
    await symlink(join(ROOT, 'fixtures', 'awb-mini'), join(dir, 'package-link'))
    await symlink(join(ROOT, 'fixtures', 'demonstrations'), join(dir, 'demonstrations-link'))
    await symlink(evaluation, join(dir, 'notes.txt'))
    // A run copied into the project (a CI artifact, say), outside every folder the run knows: marked as it was written.
    await mkdir(join(dir, 'copied-run', 'partnet-none'), { recursive: true })
    await writeFile(join(dir, 'copied-run', ANSWERS_MARKER), '')
    await writeFile(join(dir, 'copied-run', 'partnet-none', 'final.json'), '{"secret":"awb-copied-run-answer"}')
    await writeFile(join(dir, 'style.css'), `a { background: url(${JSON.stringify(evaluation)}) }`)
    await writeFile(join(dir, 'helper.ts'), `import gt from ${JSON.stringify(`${evaluation}?raw`)}\nexport const answer = gt\n`)
    // A worker is bundled apart from the module, with Vite's `worker.plugins`: the guard must run there too.
    await writeFile(join(dir, 'leaky-worker.ts'), `import gt from ${JSON.stringify(`${evaluation}?raw`)}\nself.postMessage(gt)\n`)
    protectedDirs = [...expandProtectedDirs(runProtectedDirs({ benchmark: join(ROOT, 'fixtures', 'awb-mini'), runsRoot: join(dir, 'runs'), demonstrations: join(ROOT, 'fixtures', 'demonstrations'), agent: join(dir, 'agent.ts') }, join(ROOT, 'fixtures', 'awb-mini'))), join(dir, 'answers')]
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const attacks: [string, (paths: { evaluation: string; demonstration: string; relativeEvaluation: string }) => string][] = [
    ['?raw, absolute', p => `import gt from ${JSON.stringify(`${p.evaluation}?raw`)}\nexport const v = gt`],
    ['a JSON import', p => `import gt from ${JSON.stringify(p.evaluation)}\nexport const v = gt`],
    ['?url (a data URL in a library build)', p => `import gt from ${JSON.stringify(`${p.evaluation}?url`)}\nexport const v = gt`],
    ['?inline', p => `import gt from ${JSON.stringify(`${p.evaluation}?inline`)}\nexport const v = gt`],
    ['a relative path', p => `import gt from ${JSON.stringify(`${p.relativeEvaluation}?raw`)}\nexport const v = gt`],
    ['x/../ and // in the path', p => `import gt from ${JSON.stringify(`${ROOT}/src/..//fixtures/awb-mini/${inPackage}?raw`)}\nexport const v = gt`],
    ['/@fs/', p => `import gt from ${JSON.stringify(`/@fs${p.evaluation}?raw`)}\nexport const v = gt`],
    ['a symlinked folder', () => `import gt from ${JSON.stringify(`./package-link/${inPackage}?raw`)}\nexport const v = gt`],
    ['a symlink with an innocent name', () => `import gt from './notes.txt?raw'\nexport const v = gt`],
    ['a demonstration (a solution by another name)', p => `import calls from ${JSON.stringify(`${p.demonstration}?raw`)}\nexport const v = calls`],
    ['a demonstration through a symlinked folder', () => `import calls from './demonstrations-link/partnet-none/44266.calls.jsonl?raw'\nexport const v = calls`],
    ['a hard link to a protected file', () => `import text from './innocent.txt?raw'\nexport const v = text`],
    ['a file in a folder marked as holding answers (a copied run)', () => `import text from './copied-run/partnet-none/final.json?raw'\nexport const v = text`],
    ['new URL(absolute, import.meta.url)', p => `export const v = new URL(${JSON.stringify(p.evaluation)}, import.meta.url).href`],
    ['new URL(relative, import.meta.url)', p => `export const v = new URL(${JSON.stringify(p.relativeEvaluation)}, import.meta.url).href`],
    ['new URL(template, import.meta.url)', () => 'const name = "44266.calls.jsonl"\nexport const v = new URL(`./demonstrations-link/partnet-none/${name}`, import.meta.url).href'],
    ['import.meta.glob', () => 'export const v = import.meta.glob("/fixtures/awb-mini/**/evaluation.json", { eager: true, query: "?raw", import: "default" })'],
    ['a dynamic import', p => `export const v = () => import(${JSON.stringify(`${p.evaluation}?raw`)})`],
    ['a style sheet with url()', () => `import css from './style.css?inline'\nexport const v = css`],
    ['a module it imports', () => `import { answer } from './helper.ts'\nexport const v = answer`],
    ['a worker (?worker&inline) that imports it', () => `import LeakyWorker from './leaky-worker.ts?worker&inline'\nexport const v = () => new LeakyWorker()`],
    ['a worker (?worker)', () => `import LeakyWorker from './leaky-worker.ts?worker'\nexport const v = () => new LeakyWorker()`],
    ['a shared worker (?sharedworker&inline)', () => `import LeakyWorker from './leaky-worker.ts?sharedworker&inline'\nexport const v = () => new LeakyWorker()`],
    ['a worker URL (?worker&url)', () => `import url from './leaky-worker.ts?worker&url'\nexport const v = url`],
    ['new Worker(new URL(…, import.meta.url))', () => `export const v = () => new Worker(new URL('./leaky-worker.ts', import.meta.url), { type: 'module' })`],
  ]

  it.each(attacks)('is refused, whatever the form: %s', async (name, source) => {
    const agent = join(dir, `agent-${attacks.findIndex(([one]) => one === name)}.ts`)
    const paths = { evaluation, demonstration, relativeEvaluation: relative(dir, evaluation).startsWith('.') ? relative(dir, evaluation) : `./${relative(dir, evaluation)}` }
    await writeFile(agent, `${source(paths)}\nexport default { name: 'attack', run: async () => {} }\n`)
    const bundler = createAgentRealmBundler({ root: ROOT, protectedDirs })
    const error = await bundler.code({ kind: 'module', path: agent }).then(code => new Error(`bundled ${code.length} characters; ground truth in it: ${/gt_poses|part_ids|tool_call/.test(code)}`), (cause: unknown) => cause)
    expect(error).toBeInstanceOf(AgentRealmError)
    expect((error as AgentRealmError).code, String(error)).toBe('AGENT_REALM_FORBIDDEN_IMPORT')
    // A style sheet is refused whole: Vite's CSS plugin reads its url()s and @imports itself, outside the module graph.
    expect((error as Error).message).toMatch(/reads .*no page may read: .*; page agents cannot bundle the benchmark package|style sheet .*has no document to style/)
    // The refusal names the file, never its content.
    expect((error as Error).message).not.toMatch(/gt_poses|awb-hard-linked-answer|awb-copied-run-answer|"tool_call"/)
  })

  it('reaches the sample as a load failure of the module, and still bundles what the module may read', async () => {
    const bundler = createAgentRealmBundler({ root: ROOT, protectedDirs })
    const hostile = join(dir, 'hostile.ts')
    await writeFile(hostile, `import gt from ${JSON.stringify(`${evaluation}?raw`)}\nexport default { name: 'x', run: async () => { console.log(gt) } }\n`)
    expect(await agentFor(options(hostile, { agentRealm: bundler }), sample)).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/could not be loaded: .*evaluation\.json is ground truth/) })
    await writeFile(join(dir, 'prompt.txt'), 'awb-own-prompt')
    await writeFile(join(dir, 'settings.json'), '{"awb-own-setting":1}')
    await writeFile(join(dir, 'weights.bin'), 'awb-own-asset')
    const own = join(dir, 'own.ts')
    await writeFile(join(dir, 'own-worker.ts'), "import prompt from './prompt.txt?raw'\nself.postMessage(`awb-own-worker ${prompt}`)\n")
    await writeFile(own, "import prompt from './prompt.txt?raw'\nimport settings from './settings.json'\nimport OwnWorker from './own-worker.ts?worker&inline'\nconst asset = new URL('./weights.bin', import.meta.url).href\nexport default { name: 'own', run: async () => { console.log(prompt, settings, asset, new OwnWorker()) } }\n")
    const code = await bundler.code({ kind: 'module', path: own })
    // Its own worker is bundled (the realm allows blob: workers), through the same guard.
    expect(code).toContain('awb-own-worker')
    expect(code).toContain('awb-own-prompt')
    expect(code).toContain('awb-own-setting')
    expect(code).toContain(`data:application/octet-stream;base64,${Buffer.from('awb-own-asset').toString('base64')}`)
  })
})
