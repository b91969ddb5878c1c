// Which credential each agent CLI uses, and what of its login the sandbox passes on: the key variables and the
// CLI's own configuration family through the environment allow-list, its login files read-only. Reads no value.
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { CliAgentKind } from './cli-agent-kind.ts'

export interface CliSandboxAccess {
  /** Variable names passed beyond the default allow-list. */
  variables: string[]
  /** Variable prefixes passed: the CLI's own configuration family. */
  prefixes: string[]
  /** Login files that exist, shown read-only at their place (a login keeps working; it cannot be changed). */
  loginFiles: string[]
  /** Configuration folders a variable moved outside HOME: they start empty and writable inside, with the login files. */
  configDirs: string[]
}

/** The credential a CLI will use, first match in the CLI's own order; `detail` never holds a value. */
export type CliCredential =
  | { kind: 'variable', name: string, detail: string }
  | { kind: 'login', file: string, detail: string }
  | { kind: 'none', detail: string }

/** Codex `model_providers.<id>.env_key = "NAME"`: the variable a custom provider reads its key from. */
const ENV_KEY = /env_key\s*=\s*"([A-Za-z_][A-Za-z0-9_]*)"/g

/** What the sandbox of `kind` passes on, for the environment `env` and Codex's `--codex-config` entries. */
export function cliSandboxAccess(kind: CliAgentKind, env: NodeJS.ProcessEnv, codexConfig: readonly string[] = []): CliSandboxAccess {
  if (kind === 'claude') {
    const configDir = nonEmpty(env.CLAUDE_CONFIG_DIR)
    return {
      variables: ['CLAUDE_CONFIG_DIR'],
      prefixes: ['ANTHROPIC_', 'CLAUDE_CODE_'],
      loginFiles: claudeLoginFiles(env).filter(file => existsSync(file)),
      configDirs: configDir === undefined ? [] : [configDir],
    }
  }
  const codexHome = nonEmpty(env.CODEX_HOME)
  const providerKeys = codexConfig.flatMap(entry => [...entry.matchAll(ENV_KEY)].map(match => match[1]!))
  return {
    variables: ['OPENAI_API_KEY', 'CODEX_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_ORG_ID', 'OPENAI_ORGANIZATION', 'OPENAI_PROJECT', 'CODEX_HOME', ...providerKeys],
    prefixes: [],
    loginFiles: [codexAuthFile(env)].filter(file => existsSync(file)),
    configDirs: codexHome === undefined ? [] : [codexHome],
  }
}

/** The credential `kind` will use with `env` (`awb doctor` prints `detail`). */
export function cliCredentialInUse(kind: CliAgentKind, env: NodeJS.ProcessEnv, codexConfig: readonly string[] = []): CliCredential {
  const exported = (name: string): CliCredential | undefined => nonEmpty(env[name]) === undefined ? undefined : { kind: 'variable', name, detail: `${name} (exported; value not shown)` }
  if (kind === 'claude') {
    // Claude Code's order: a cloud provider, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN, then the /login.
    for (const cloud of ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX']) {
      if (nonEmpty(env[cloud]) !== undefined) return { kind: 'variable', name: cloud, detail: `${cloud} (a cloud provider; its AWS/Google credentials are not passed into the sandbox)` }
    }
    const variable = exported('ANTHROPIC_AUTH_TOKEN') ?? exported('ANTHROPIC_API_KEY') ?? exported('CLAUDE_CODE_OAUTH_TOKEN')
    if (variable !== undefined) return variable
    const [credentials] = claudeLoginFiles(env)
    if (credentials !== undefined && existsSync(credentials)) return { kind: 'login', file: credentials, detail: `the login in ${credentials} (read-only in the sandbox)` }
    return { kind: 'none', detail: 'none found: set ANTHROPIC_API_KEY, or log in with `claude` (its login is used read-only)' }
  }
  // `codex exec` reads CODEX_API_KEY first; the harness hands an exported OPENAI_API_KEY over as CODEX_API_KEY.
  const provider = codexConfig.flatMap(entry => [...entry.matchAll(ENV_KEY)].map(match => match[1]!)).find(name => nonEmpty(env[name]) !== undefined)
  const variable = (provider === undefined ? undefined : exported(provider)) ?? exported('CODEX_API_KEY') ?? exported('OPENAI_API_KEY')
  if (variable !== undefined) return variable
  const auth = codexAuthFile(env)
  if (existsSync(auth)) return { kind: 'login', file: auth, detail: `the login in ${auth} (read-only in the sandbox)` }
  return { kind: 'none', detail: 'none found: set OPENAI_API_KEY, or log in with `codex login` (its login is used read-only)' }
}

/** Claude Code's OAuth credentials, then its global config (which names the logged-in account). */
function claudeLoginFiles(env: NodeJS.ProcessEnv): string[] {
  const configDir = nonEmpty(env.CLAUDE_CONFIG_DIR)
  const home = nonEmpty(env.HOME) ?? homedir()
  return configDir === undefined
    ? [join(home, '.claude', '.credentials.json'), join(home, '.claude.json')]
    : [join(configDir, '.credentials.json'), join(configDir, '.claude.json')]
}

function codexAuthFile(env: NodeJS.ProcessEnv): string {
  return join(nonEmpty(env.CODEX_HOME) ?? join(nonEmpty(env.HOME) ?? homedir(), '.codex'), 'auth.json')
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value
}
