// Registers a runtime's enabled tools on a WebMCP ModelContext in generations (§5.1); no tool semantics here.
import { WebMcpError } from './errors.ts'
import { type ModelContextLike, resolveModelContext, type ModelContextSource, type WebMcpTool } from './model-context.ts'

/** What a superseded registration's `execute` answers; it never reaches the runtime (§4.4). */
export const EXPIRED_REGISTRATION_RESULT = JSON.stringify({ error: 'This tool registration has expired.', code: 'invalid_argument' })

/** One tool as the runtime declares it (§4.2), before `execute` is bound. */
export interface ToolHostDefinition {
  name: string
  description: string
  inputSchema: Record<string, unknown>
  annotations: { readOnlyHint: boolean }
}

/**
 * The runtime side: its enabled tools (enabledTools minus retired ones) and the JSON-string entry point.
 * `callTool` must not throw for tool failures; it answers the `{error, code}` envelope (§4.4).
 */
export interface ToolHost {
  enabledToolDefinitions(): readonly ToolHostDefinition[]
  callTool(name: string, input: unknown, options: ToolHostCallOptions): Promise<string> | string
  /**
   * The host's own registration generation (`WorldRuntime.generation`), when it keeps one: read at
   * registration and passed back on every call, so the host can refuse calls from a registration made
   * before its tool list changed even if the page has not re-registered yet.
   */
  readonly generation?: number
}

/** What `execute` passes to `ToolHost.callTool`. */
export interface ToolHostCallOptions {
  actor: 'agent'
  signal?: AbortSignal
  generation?: number
}

/** One registration round: its tools stay callable but answer "expired" once a later round starts. */
export interface RegistrationGeneration {
  /** 1 for the first registration of a registry, then +1 per round. */
  readonly number: number
  /** The exact objects handed to `registerTool`, in the runtime's order. */
  readonly tools: readonly WebMcpTool[]
  readonly isExpired: boolean
}

/** A registered tool as `listTools` shows it (the registration object without `execute`). */
export type RegisteredToolInfo = Omit<WebMcpTool, 'execute'>

/**
 * Owns the page's tool registrations. `register(host)` aborts the previous generation (its tools are
 * unregistered by the API and their `execute` answers `EXPIRED_REGISTRATION_RESULT`), then registers every
 * enabled tool with one shared AbortSignal. Rounds are queued so two never overlap. `listTools` /
 * `invokeTool` work on the registry's own record, so they behave the same over native WebMCP, the
 * polyfill or a test stub; invoking calls the very `execute` the browser would call.
 */
export class WebMcpToolRegistry {
  readonly context: ModelContextLike
  readonly source: ModelContextSource | 'given'
  private current: { generation: Generation, byName: Map<string, WebMcpTool> } | undefined
  private rounds = 0
  private queue: Promise<unknown> = Promise.resolve()
  private isDisposed = false

  constructor(context: ModelContextLike, source: ModelContextSource | 'given' = 'given') {
    this.context = context
    this.source = source
  }

  /** A registry on the page's API (`resolveModelContext`: native first, else the polyfill). */
  static open(): WebMcpToolRegistry {
    const { context, source } = resolveModelContext()
    return new WebMcpToolRegistry(context, source)
  }

  /**
   * Starts a new generation for `host` once earlier rounds have settled. Resolves when every tool is
   * registered; throws `WebMcpError` (`WEBMCP_REGISTER_FAILED`) if the API rejects one, after aborting
   * the partial generation.
   */
  register(host: ToolHost): Promise<RegistrationGeneration> {
    return this.enqueue(() => this.registerNow(host))
  }

  /** Ends the current generation (its tools expire and are unregistered); queued like `register`. */
  unregister(): Promise<void> {
    return this.enqueue(async () => {
      this.expireCurrent()
    })
  }

  /** The current generation's tools, in registration order; empty when none is registered. */
  listTools(): RegisteredToolInfo[] {
    return [...(this.current?.byName.values() ?? [])].map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations }))
  }

  /**
   * Runs a registered tool's `execute` with `input` (the parsed input object, as browsers pass it) and
   * returns its JSON string. Throws `WebMcpError` (`WEBMCP_TOOL_NOT_REGISTERED`) for a name the current
   * generation lacks; tool failures come back as the `{error, code}` string, never as exceptions.
   */
  invokeTool(name: string, input: unknown = {}, options: { signal?: AbortSignal } = {}): Promise<string> {
    const tool = this.current?.byName.get(name)
    if (tool === undefined) {
      const known = this.listTools().map(t => t.name).join(', ') || 'none'
      return Promise.reject(new WebMcpError('WEBMCP_TOOL_NOT_REGISTERED', `no registered tool "${name}" (registered: ${known}); register the runtime first or enable the tool in manifest.runtime.enabledTools`))
    }
    return tool.execute(input, options.signal === undefined ? undefined : { signal: options.signal })
  }

  /** Expires and unregisters everything; later calls throw `WEBMCP_DISPOSED`. */
  dispose(): void {
    this.isDisposed = true
    this.expireCurrent()
  }

  private enqueue<T>(round: () => Promise<T>): Promise<T> {
    if (this.isDisposed) return Promise.reject(new WebMcpError('WEBMCP_DISPOSED', 'the tool registry was disposed; open a new one with WebMcpToolRegistry.open()'))
    const next = this.queue.then(round)
    // A failed round must not block the rounds queued behind it; its caller still sees the rejection.
    this.queue = next.catch(() => undefined)
    return next
  }

  private async registerNow(host: ToolHost): Promise<RegistrationGeneration> {
    this.expireCurrent()
    const generation = new Generation(++this.rounds)
    const byName = new Map<string, WebMcpTool>()
    for (const definition of host.enabledToolDefinitions()) byName.set(definition.name, bindTool(definition, host, generation))
    generation.tools = [...byName.values()]
    this.current = { generation, byName }
    try {
      for (const tool of generation.tools) await this.context.registerTool(tool, { signal: generation.signal })
    } catch (cause) {
      this.expireCurrent()
      throw new WebMcpError('WEBMCP_REGISTER_FAILED', `registering WebMCP tools (generation ${generation.number}) failed: ${cause instanceof Error ? cause.message : String(cause)}; a tool name may already be registered by other page code`, { cause })
    }
    return generation
  }

  private expireCurrent(): void {
    this.current?.generation.expire()
    this.current = undefined
  }
}

class Generation implements RegistrationGeneration {
  tools: readonly WebMcpTool[] = []
  private readonly controller = new AbortController()

  readonly number: number

  constructor(number: number) {
    this.number = number
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  get isExpired(): boolean {
    return this.controller.signal.aborted
  }

  expire(): void {
    this.controller.abort(new DOMException(`WebMCP tool generation ${this.number} was superseded`, 'AbortError'))
  }
}

function bindTool(definition: ToolHostDefinition, host: ToolHost, generation: Generation): WebMcpTool {
  const { name, description, inputSchema, annotations } = definition
  const hostGeneration = host.generation
  return {
    name,
    description,
    // Copies: the browser may keep or serialise these, and the runtime's catalogue must stay untouched.
    inputSchema: structuredClone(inputSchema),
    annotations: { readOnlyHint: annotations.readOnlyHint },
    async execute(input, context) {
      if (generation.isExpired) return EXPIRED_REGISTRATION_RESULT
      const options: ToolHostCallOptions = { actor: 'agent' }
      if (context?.signal !== undefined) options.signal = context.signal
      if (hostGeneration !== undefined) options.generation = hostGeneration
      try {
        return await host.callTool(name, input, options)
      } catch (error) {
        // §4.4: execute never throws. The runtime answers tool failures itself, so this is a runtime bug;
        // it still reaches the agent as an envelope, with the message intact.
        return JSON.stringify({ error: error instanceof Error ? error.message : String(error), code: 'invalid_argument' })
      }
    },
  }
}
