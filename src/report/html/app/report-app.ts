// The report page's script (page code, bundled into the HTML): sortable sample list, per-sample details, score
// curve and the 3D replay. It reads only the data embedded in the page and files beside it.
import type { ReportData, ReportSample } from '../report-types.ts'
import { curvePanelHtml } from './curve-svg.ts'
import { detailsHtml, fmt } from './details-html.ts'
import { createReplayViewer, type ReplayViewer } from './replay-viewer.ts'

type SortKey = 'worst' | 'block' | 'sample_id' | 'SR' | 'PA' | 'SCD' | 'parts' | 'tool_calls'

/** What tests and curious users can drive from the console. */
export interface ReportHandle {
  select(key: string): void
  /** Shows step k of the selected sample in the viewer, the curve and the timeline. */
  step(k: number): void
  readonly viewer: ReplayViewer | undefined
  readonly selected: string | undefined
}

declare global {
  interface Window { awbReport?: ReportHandle }
}


/** Worst first: errors, then SR, then PA ascending, then SCD descending. */
function worstFirst(a: ReportSample, b: ReportSample): number {
  return (a.status === 'error' ? 0 : 1) - (b.status === 'error' ? 0 : 1) || a.SR - b.SR || a.PA - b.PA || (b.SCD ?? Infinity) - (a.SCD ?? Infinity) || a.key.localeCompare(b.key)
}

const COMPARATORS: Record<SortKey, (a: ReportSample, b: ReportSample) => number> = {
  worst: worstFirst,
  block: (a, b) => a.block.localeCompare(b.block) || a.sample_id.localeCompare(b.sample_id),
  sample_id: (a, b) => a.sample_id.localeCompare(b.sample_id),
  SR: (a, b) => a.SR - b.SR,
  PA: (a, b) => a.PA - b.PA,
  SCD: (a, b) => (a.SCD ?? Infinity) - (b.SCD ?? Infinity),
  parts: (a, b) => (a.parts_correct ?? -1) - (b.parts_correct ?? -1),
  tool_calls: (a, b) => (a.tool_calls ?? -1) - (b.tool_calls ?? -1),
}

function start(): void {
  const data = JSON.parse(document.getElementById('awb-data')!.textContent ?? '{}') as ReportData
  const byKey = new Map(data.samples.map(sample => [sample.key, sample]))
  const body = document.querySelector<HTMLTableSectionElement>('#awb-samples tbody')!
  const details = document.getElementById('awb-details')!
  let viewer: ReplayViewer | undefined
  let selected: string | undefined
  let step: (k: number) => void = () => undefined
  let sortKey: SortKey = 'worst'
  let descending = false

  const sortRows = () => {
    const compare = COMPARATORS[sortKey]
    const rows = [...body.querySelectorAll<HTMLTableRowElement>('tr[data-key]')]
    rows.sort((a, b) => {
      const order = compare(byKey.get(a.dataset.key!)!, byKey.get(b.dataset.key!)!)
      return descending ? -order : order
    })
    body.append(...rows)
  }
  for (const th of document.querySelectorAll<HTMLTableCellElement>('#awb-samples th[data-sort]')) {
    th.addEventListener('click', () => {
      const key = th.dataset.sort as SortKey
      descending = key === sortKey ? !descending : false
      sortKey = key
      sortRows()
    })
  }

  const select = (key: string) => {
    const sample = byKey.get(key)
    if (sample === undefined) return
    selected = key
    for (const row of body.querySelectorAll('tr')) row.classList.toggle('selected', row.getAttribute('data-key') === key)
    viewer?.dispose()
    viewer = undefined
    details.innerHTML = detailsHtml(sample)
    const curve = details.querySelector<HTMLElement>('.awb-curve')!
    const stepLabel = details.querySelector<HTMLElement>('.awb-step')
    const slider = details.querySelector<HTMLInputElement>('.awb-slider')
    const canvas = details.querySelector<HTMLCanvasElement>('canvas')
    const showStep = (k: number) => {
      viewer?.show(k)
      const step = sample.steps[k]
      if (slider !== null) slider.value = String(k)
      if (stepLabel !== null) stepLabel.textContent = step === undefined ? 'final state' : `step ${k + 1}/${sample.steps.length}: call ${step.call_index} ${step.tool} — SR ${step.SR}, PA ${fmt(step.PA)}, ${step.parts_correct}/${step.parts_total} parts`
      curve.innerHTML = curvePanelHtml(sample, k)
      for (const row of details.querySelectorAll('tr[data-step]')) row.classList.toggle('selected', row.getAttribute('data-step') === String(k))
    }
    if (canvas !== null && sample.scene !== null) {
      const stateIndex = new Map(sample.scene.states.map((state, i) => [state.state_index, i]))
      const stateOfStep = sample.steps.length === 0 ? [sample.scene.states.length - 1] : sample.steps.map(step => stateIndex.get(step.state_index) ?? -1)
      viewer = createReplayViewer(canvas, sample.scene, stateOfStep)
      details.querySelector('.awb-prev')?.addEventListener('click', () => showStep(Number(slider?.value ?? 0) - 1))
      details.querySelector('.awb-next')?.addEventListener('click', () => showStep(Number(slider?.value ?? 0) + 1))
      slider?.addEventListener('input', () => showStep(Number(slider.value)))
      details.querySelector<HTMLInputElement>('.awb-gt')?.addEventListener('change', event => viewer?.setGroundTruth((event.target as HTMLInputElement).checked))
      for (const row of details.querySelectorAll<HTMLElement>('tr[data-step]')) row.addEventListener('click', () => showStep(Number(row.dataset.step)))
    }
    step = showStep
    showStep(Math.max(0, sample.steps.length - 1))
    if (location.hash !== `#${encodeURIComponent(key)}`) history.replaceState(null, '', `#${encodeURIComponent(key)}`)
  }

  for (const row of body.querySelectorAll<HTMLTableRowElement>('tr[data-key]')) row.addEventListener('click', () => select(row.dataset.key!))
  sortRows()
  window.awbReport = {
    select,
    step: k => step(k),
    get viewer() { return viewer },
    get selected() { return selected },
  }
  const fromHash = decodeURIComponent(location.hash.slice(1))
  const first = body.querySelector<HTMLTableRowElement>('tr[data-key]')?.dataset.key
  const initial = byKey.has(fromHash) ? fromHash : first
  if (initial !== undefined) select(initial)
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
