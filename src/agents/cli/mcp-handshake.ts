// Node only: `awb doctor`'s real handshake — runs an installed Codex CLI / Claude Code once, exactly as a benchmark
// sample runs it, against a local model stub and a throwaway MCP endpoint, and reports whether its model was
// offered the benchmark tools. No real model is called and no key is needed.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SandboxSettings } from '../sandbox/index.ts'
import { BENCHMARK_TOOL_NAMES, createMcpSurface, startMcpHttpServer, type ToolRelay } from '../../mcp/index.ts'
import { startHandshakeModelStub } from './handshake-model-stub.ts'
import { MCP_SERVER_NAME } from './invocation.ts'
import type { CliAgentKind } from './cli-agent-kind.ts'
import { runCliAgent } from './run-cli-agent.ts'

/** One CLI start with its MCP connection on a slow machine, in milliseconds. */
export const HANDSHAKE_TIMEOUT_MS = 90_000
/** The provider id Codex gets for the stub (HTTP only: no WebSocket retries to wait through). */
const CODEX_STUB_PROVIDER = 'awb_doctor'

export interface HandshakeResult {
  /** True when the CLI listed the tools over MCP and offered all four benchmark tools to its model. */
  isOk: boolean
  /** The benchmark tools the model was offered (as the CLI names them). */
  tools: string[]
  /** One line for people: what worked, or what failed and where to look. */
  detail: string
}

export interface HandshakeOptions {
  kind: CliAgentKind
  /** Any environment; the stub's endpoint and a placeholder key are set over it. */
  env: NodeJS.ProcessEnv
  /** The world the MCP endpoint serves (its tools are listed, never called). */
  relay: ToolRelay
  timeoutMs?: number | undefined
  /** The sandbox the CLI runs in, as in a benchmark run (default: sandboxed). */
  sandbox?: SandboxSettings | undefined
}

/** Runs the handshake; never throws for a CLI failure (it comes back as `isOk: false` with the reason). */
export async function checkCliMcpHandshake(options: HandshakeOptions): Promise<HandshakeResult> {
  const stub = await startHandshakeModelStub()
  const surface = createMcpSurface({ relay: options.relay })
  const endpoint = await startMcpHttpServer({ surface })
  const workspace = await mkdtemp(join(tmpdir(), 'awb-doctor-handshake-'))
  try {
    const isCodex = options.kind === 'codex'
    const env: NodeJS.ProcessEnv = isCodex
      ? { ...options.env, AWB_DOCTOR_STUB_KEY: 'awb-doctor-placeholder' }
      : { ...options.env, ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_KEY: 'awb-doctor-placeholder', ANTHROPIC_AUTH_TOKEN: '' }
    const run = await runCliAgent({
      kind: options.kind,
      model: 'awb-doctor',
      prompt: 'awb doctor: MCP handshake. Reply OK.',
      pages: [],
      mcp: { url: endpoint.url },
      workspace,
      env,
      sandbox: options.sandbox,
      timeoutMs: options.timeoutMs ?? HANDSHAKE_TIMEOUT_MS,
      codexConfig: isCodex
        ? [`model_providers.${CODEX_STUB_PROVIDER}={name="awb doctor",base_url=${JSON.stringify(`${stub.url}/v1`)},wire_api="responses",env_key="AWB_DOCTOR_STUB_KEY",supports_websockets=false}`, `model_provider="${CODEX_STUB_PROVIDER}"`]
        : undefined,
      onRecord: () => undefined,
    })
    const tools = [...stub.offeredTools].filter(name => BENCHMARK_TOOL_NAMES.some(tool => name === `mcp__${MCP_SERVER_NAME}__${tool}` || name === `mcp__${MCP_SERVER_NAME}.${tool}`)).sort()
    const isOk = surface.listings > 0 && tools.length === BENCHMARK_TOOL_NAMES.length
    if (isOk) return { isOk, tools, detail: `its model is offered the ${tools.length} benchmark tools over MCP (${tools.join(', ')})` }
    const why = stub.requests === 0
      ? `it made no model request (${run.execution.error ?? run.execution.status}${run.execution.stderr.trim() === '' ? '' : `; stderr: ${run.execution.stderr.trim().split('\n').slice(-3).join(' / ')}`})`
      : surface.listings === 0
        ? 'it never listed the tools of its MCP server (the server did not connect)'
        : `its model was offered ${tools.length === 0 ? 'none' : tools.join(', ')} of the ${BENCHMARK_TOOL_NAMES.length} benchmark tools`
    return { isOk, tools, detail: `the MCP handshake failed: ${why}` }
  } finally {
    await endpoint.close()
    await stub.close()
    await rm(workspace, { recursive: true, force: true })
  }
}
