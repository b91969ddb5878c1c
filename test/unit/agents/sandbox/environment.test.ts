// The environment allow-list: what an agent process inherits from the harness by default, and what only a named
// list (the agent spec's `env`, a CLI's credential family) adds.
import { describe, expect, it } from 'vitest'
import { allowListedEnvironment, DEFAULT_AGENT_VARIABLES } from '../../../../src/agents/sandbox/index.ts'

const HARNESS = {
  PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', LC_ALL: 'C', TERM: 'xterm', HTTPS_PROXY: 'http://proxy:3128',
  OPENAI_API_KEY: 'sk-secret', ANTHROPIC_API_KEY: 'sk-ant-secret', GITHUB_TOKEN: 'ghp-secret', AWS_SECRET_ACCESS_KEY: 'aws-secret',
  AWB_BENCHMARK: '/home/u/project/benchmark', AWB_RUNS: '/home/u/project/runs', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
}

describe('allowListedEnvironment', () => {
  it('passes the documented defaults and nothing else: no key, no token, no AWB setting that names the package', () => {
    expect(allowListedEnvironment(HARNESS)).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', LC_ALL: 'C', TERM: 'xterm', HTTPS_PROXY: 'http://proxy:3128' })
    expect(DEFAULT_AGENT_VARIABLES).not.toContain('OPENAI_API_KEY')
  })

  it('adds exactly the names and prefixes a caller lists', () => {
    const env = allowListedEnvironment(HARNESS, { names: ['OPENAI_API_KEY', 'NOT_SET'], prefixes: ['ANTHROPIC_'] })
    expect(env).toMatchObject({ OPENAI_API_KEY: 'sk-secret', ANTHROPIC_API_KEY: 'sk-ant-secret', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' })
    expect(env).not.toHaveProperty('GITHUB_TOKEN')
    expect(env).not.toHaveProperty('AWS_SECRET_ACCESS_KEY')
    expect(env).not.toHaveProperty('NOT_SET')
  })
})
