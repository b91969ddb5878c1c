// API agents' model requests, sent from Node so that keys never reach the page, and the spend the provider reports,
// counted per open sample. Which sample may send is the session's check (SampleGate); nothing is written here.
import { ModelRequestSchema, responseUsage, UsageTotals } from '../../agents/api/index.ts'
import { modelRequest } from '../../llm/index.ts'
import type { OpenSample } from './sample-gate.ts'

export interface ModelProxyOptions {
  /** Sends one model request to the provider (default: `modelRequest`, keys from the environment). */
  sendModelRequest?: (request: unknown, signal: AbortSignal) => Promise<unknown>
}

/** Sends the open samples' model requests and keeps what the provider reported they spent. */
export class ModelRequestProxy {
  /** What the provider reported per open API-agent sample, counted here so that no page failure can lose it. */
  private readonly spend = new Map<OpenSample, UsageTotals>()
  private readonly sendRequest: (request: unknown, signal: AbortSignal) => Promise<unknown>

  constructor(options: ModelProxyOptions) {
    this.sendRequest = options.sendModelRequest ?? ((body: unknown, signal: AbortSignal) => modelRequest(body, { signal }))
  }

  /** Sends `request` for `open` (aborted with its signal) and counts the usage the answer reports. */
  async send(open: OpenSample, request: unknown): Promise<unknown> {
    const json = await this.sendRequest(request, open.signal)
    const parsed = ModelRequestSchema.safeParse(request)
    if (parsed.success) {
      const totals = this.spend.get(open) ?? new UsageTotals()
      this.spend.set(open, totals)
      totals.add(responseUsage(parsed.data.provider, json))
    }
    return json
  }

  /** What `open` spent, handed over once as its sample is recorded; undefined when it sent no counted request. */
  takeSpend(open: OpenSample): UsageTotals | undefined {
    const spent = this.spend.get(open)
    this.spend.delete(open)
    return spent
  }
}
