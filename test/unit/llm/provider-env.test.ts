import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readProviderEnv } from '../../../src/llm/index.ts'

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'awb-env-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

describe('readProviderEnv', () => {
  it('fills variables from .env while exported ones take precedence (an exported empty value does not)', async () => {
    await writeFile(join(dir, '.env'), 'OPENAI_API_KEY=from-file\nANTHROPIC_API_KEY="quoted file key"\nOPENAI_BASE_URL=http://file.local/v1\n')
    const env = readProviderEnv({ cwd: dir, env: { OPENAI_API_KEY: 'exported', OPENAI_BASE_URL: '' } })
    expect(env.OPENAI_API_KEY).toBe('exported')
    expect(env.ANTHROPIC_API_KEY).toBe('quoted file key')
    expect(env.OPENAI_BASE_URL).toBe('http://file.local/v1')
  })

  it('works without a .env file', () => {
    expect(readProviderEnv({ cwd: dir, env: { OPENAI_API_KEY: 'k' } })).toEqual({ OPENAI_API_KEY: 'k' })
  })
})
