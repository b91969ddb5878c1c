// Node only: what a CLI agent or external program sees of its sample through the MCP relay: one page (the sample's,
// named after its block and sample) and the sample's reference pages, read from the package (their bytes re-hashed on
// read). One definition for the launcher, which shows it, and for the rebuild of a lost world, which replays the
// agent's calls over the same view: a difference would make every rebuild of a CLI sample `not rebuilt`.
import { pageContentType, readPage, type BenchmarkPackage, type PackageSample } from '../../package/index.ts'
import type { PageRelayOptions } from '../../mcp/index.ts'
import type { ReferencePage } from '../../shared/agent-io.ts'

export interface CliRelayView {
  page: PageRelayOptions['page']
  referencePages: readonly ReferencePage[]
}

export async function cliRelayView(pkg: BenchmarkPackage, sample: PackageSample): Promise<CliRelayView> {
  return {
    page: { id: 1, url: `awb://${sample.block}/${sample.slug}`, title: `${sample.block} / ${sample.id}` },
    referencePages: await Promise.all(sample.pages.map(async page => ({ page: page.page, mimeType: pageContentType(page.path), bytes: await readPage(pkg, page) }))),
  }
}
