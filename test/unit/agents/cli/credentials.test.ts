// Which credential each agent CLI uses, and what of it the sandbox passes on: key variables and the CLI's own
// configuration family by name, its login files read-only (only those that exist), Codex's provider key variables.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliCredentialInUse, cliSandboxAccess } from '../../../../src/agents/cli/index.ts'

let home: string

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'awb-credentials-'))
  await mkdir(join(home, '.claude'))
  await writeFile(join(home, '.claude', '.credentials.json'), '{}')
  await writeFile(join(home, '.claude.json'), '{}')
})

afterAll(async () => {
  if (home !== undefined) await rm(home, { recursive: true, force: true })
})

describe('cliSandboxAccess', () => {
  it('claude: its ANTHROPIC_ / CLAUDE_CODE_ family by prefix, its existing login files read-only', () => {
    expect(cliSandboxAccess('claude', { HOME: home })).toEqual({
      variables: ['CLAUDE_CONFIG_DIR'],
      prefixes: ['ANTHROPIC_', 'CLAUDE_CODE_'],
      loginFiles: [join(home, '.claude', '.credentials.json'), join(home, '.claude.json')],
      configDirs: [],
    })
  })

  it('codex: its key variables and a custom provider\'s env_key; CODEX_HOME becomes a fresh folder with auth.json in it', () => {
    const codexHome = join(home, 'codex-home')
    const access = cliSandboxAccess('codex', { HOME: home, CODEX_HOME: codexHome }, ['model_providers.azure={name="Azure",env_key="AZURE_OPENAI_API_KEY"}'])
    expect(access.variables).toEqual(expect.arrayContaining(['OPENAI_API_KEY', 'CODEX_API_KEY', 'OPENAI_BASE_URL', 'AZURE_OPENAI_API_KEY']))
    expect(access.variables).not.toContain('GITHUB_TOKEN')
    expect(access).toMatchObject({ prefixes: [], loginFiles: [], configDirs: [codexHome] })
  })
})

describe('cliCredentialInUse', () => {
  it('names the variable the CLI reads first, else its login file, else says how to set one; never a value', () => {
    expect(cliCredentialInUse('claude', { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-x', ANTHROPIC_AUTH_TOKEN: 'tok' })).toMatchObject({ kind: 'variable', name: 'ANTHROPIC_AUTH_TOKEN' })
    expect(cliCredentialInUse('claude', { HOME: home })).toEqual({ kind: 'login', file: join(home, '.claude', '.credentials.json'), detail: `the login in ${join(home, '.claude', '.credentials.json')} (read-only in the sandbox)` })
    expect(cliCredentialInUse('codex', { HOME: home, OPENAI_API_KEY: 'sk-x' })).toEqual({ kind: 'variable', name: 'OPENAI_API_KEY', detail: 'OPENAI_API_KEY (exported; value not shown)' })
    expect(cliCredentialInUse('codex', { HOME: home, CODEX_API_KEY: 'sk-y', OPENAI_API_KEY: 'sk-x' })).toMatchObject({ name: 'CODEX_API_KEY' })
    expect(cliCredentialInUse('codex', { HOME: home })).toMatchObject({ kind: 'none', detail: expect.stringContaining('codex login') as unknown })
    expect(JSON.stringify(cliCredentialInUse('claude', { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-x' }))).not.toContain('sk-ant-x')
  })
})
