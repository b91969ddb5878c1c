// The Node side of page agents' realms: the realm code each agent kind gets in its spec, bundled with Vite once per
// run and entry, and the errors a module that cannot run gets (as a load failure of that module, sample by sample).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFor, type AgentOptions } from '../../../src/harness/node/agent-spec.ts'
import { createAgentRealmBundler } from '../../../src/harness/node/index.ts'
import type { PackageSample } from '../../../src/package/index.ts'

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
  return { agent, model: undefined, demonstrations: join(ROOT, 'fixtures', 'demonstrations'), agentRealm: createAgentRealmBundler({ root: ROOT }), ...extra }
}

describe('agentFor with the realm bundler', () => {
  it('gives the built-in agents one small realm module, bundled once, without a schema library', async () => {
    const bundler = createAgentRealmBundler({ root: ROOT })
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
