// The environment allow-list of agent processes: which of the harness's variables a program inherits. Everything
// else (API keys, GITHUB_TOKEN, the AWB_* settings that name the package or the runs folder) stays behind unless a
// caller lists it. No I/O.

/**
 * Passed when set, to every agent process: what any program needs to run, find its locale and reach the network
 * (proxies and the certificates a proxy needs). docs/agents.md, "The agent sandbox", lists them.
 */
export const DEFAULT_AGENT_VARIABLES = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'TMPDIR',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'all_proxy',
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE',
] as const

/** Name prefixes passed likewise (the locale categories). */
export const DEFAULT_AGENT_PREFIXES = ['LC_'] as const

/** Variables naming certificate files or folders a program may need to read (made visible read-only in the sandbox). */
export const CERTIFICATE_VARIABLES = ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE'] as const

export interface EnvironmentAllowList {
  /** Exact names, beyond the defaults. */
  names?: readonly string[] | undefined
  /** Name prefixes, beyond the defaults (a CLI's own configuration family, e.g. `ANTHROPIC_`). */
  prefixes?: readonly string[] | undefined
}

/** The variables of `base` that the defaults or `allow` name; values are copied unchanged. */
export function allowListedEnvironment(base: NodeJS.ProcessEnv, allow: EnvironmentAllowList = {}): NodeJS.ProcessEnv {
  const names = new Set<string>([...DEFAULT_AGENT_VARIABLES, ...(allow.names ?? [])])
  const prefixes = [...DEFAULT_AGENT_PREFIXES, ...(allow.prefixes ?? [])]
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue
    if (names.has(key) || prefixes.some(prefix => key.startsWith(prefix))) env[key] = value
  }
  return env
}
