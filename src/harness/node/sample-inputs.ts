// The input URLs an open sample's page may load (its initial episode and reference pages, granted by the plugin's
// input route), held from the sample's start until it ends. Grants and revokes only; serves nothing.
import { pageContentType, sampleKey, type PackageSample } from '../../package/index.ts'
import type { StartSampleResponse } from '../sample-messages.ts'

/** Grants a sample same-origin URLs of its agent-visible inputs; `revoke` ends them. */
export interface InputGranter {
  grant(block: string, sampleId: string): { episodeUrl: string; pageUrl(page: number): string; revoke(): void }
}

/** The granted inputs of the open samples. */
export class SampleInputs {
  private readonly granter: InputGranter
  private readonly revokes = new Map<string, () => void>()

  constructor(granter: InputGranter) {
    this.granter = granter
  }

  /** Grants `sample`'s inputs in `block`: the URLs its start response names, never a file path. */
  grant(block: string, sample: PackageSample): Pick<StartSampleResponse, 'episodeUrl' | 'pages'> {
    const inputs = this.granter.grant(block, sample.id)
    this.revokes.set(sampleKey(block, sample.id), inputs.revoke)
    return { episodeUrl: inputs.episodeUrl, pages: sample.pages.map(page => ({ page: page.page, url: inputs.pageUrl(page.page), mimeType: pageContentType(page.path) })) }
  }

  /** Ends the sample's input URLs (nothing when it has none). */
  revoke(block: string, sampleId: string): void {
    this.revokes.get(sampleKey(block, sampleId))?.()
    this.revokes.delete(sampleKey(block, sampleId))
  }

  /** Ends every sample's input URLs (the run is ending). */
  revokeAll(): void {
    for (const revoke of this.revokes.values()) revoke()
    this.revokes.clear()
  }
}
