// Sums token usage and provider-reported cost over a run's responses; never estimates either.
import type { ModelTurn } from './dialect.ts'

/** Running totals; `usage` is null until a response reports usage, `costUsd` null unless every response reported cost. */
export class UsageTotals {
  private readonly counts: Record<string, number> = {}
  private hasUsage = false
  private cost = 0
  private responses = 0
  private pricedResponses = 0

  add(turn: Pick<ModelTurn, 'usage' | 'costUsd'>): void {
    this.responses++
    for (const [key, value] of Object.entries(turn.usage)) {
      this.counts[key] = (this.counts[key] ?? 0) + value
      this.hasUsage = true
    }
    if (turn.costUsd !== null) {
      this.cost += turn.costUsd
      this.pricedResponses++
    }
  }

  get usage(): Record<string, number> | null {
    return this.hasUsage ? { ...this.counts } : null
  }

  /** A partial sum would understate the spend, so one unpriced response makes the cost unknown. */
  get costUsd(): number | null {
    return this.responses > 0 && this.pricedResponses === this.responses ? this.cost : null
  }
}
