// Node only: turns `--backend auto|cpu|gpu` into the backend a run uses, with the reason (for rows and `awb doctor`):
// `auto` takes the GPU only when a hardware renderer is found AND a short calibration shows it faster and bit-identical.
import { existsSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { CHROMIUM_GPU_ARG_SETS } from '../../shared/chromium.ts'
import { ScoringError } from '../errors.ts'
import type { SampleScore } from '../score-sample.ts'
import type { SampleInput } from '../prepare-sample.ts'
import { CALIBRATION_POINTS_PER_PART, calibrationSample } from './calibration.ts'
import { classifyRenderer, type RendererKind, type ScoringBackendChoice } from './detect.ts'
import type { NearestDevice } from './device.ts'
import { scoreSamplesOnDevice } from './score-samples-on-device.ts'
import { selfTestDevice } from './self-test.ts'

/** Parts of the calibration sample (1000 points each): big enough to be representative, small enough for ~1 s on CPU. */
export const CALIBRATION_PARTS = 3
/** The GPU must take at most this fraction of the CPU's calibration time to be chosen (noise margin). */
export const GPU_MIN_SPEEDUP_FRACTION = 0.8

/** The decision and why, as `awb doctor` prints it. */
export interface BackendDecision {
  choice: ScoringBackendChoice
  backend: 'cpu' | 'gpu'
  reason: string
  /** The WebGL renderer string found, or null when no page was opened. */
  renderer: string | null
  rendererKind: RendererKind | null
  /** Calibration wall times in milliseconds (null when none ran). */
  calibration: { cpuMs: number; gpuMs: number; isIdentical: boolean } | null
}

/** Opens a NearestDevice with these extra Chromium flags (none: the browser's default, SwiftShader without a GPU). */
export type OpenNearestDevice = (extraArgs: readonly string[]) => Promise<NearestDevice>

export interface DecideBackendOptions {
  choice: ScoringBackendChoice
  /** Scores on the CPU backend (the one the run would use), for the calibration. */
  cpuScore: (input: SampleInput) => Promise<SampleScore>
  /**
   * Opens the GPU page with extra Chromium flags (the caller's: src/headless's openPageDevice). Injected, so this
   * folder stays maths and never starts a browser itself. Not called for `cpu`.
   */
  openDevice: OpenNearestDevice
  /** Whether the machine exposes a GPU device node; default looks for /dev/nvidia* and /dev/dri/renderD*. */
  hasGpuDeviceNode?: () => boolean
  /** Whether gpu.js (an optional peer dependency) is installed; default resolves it from this package. */
  hasGpuJs?: () => boolean
  /** Parts of the calibration sample; default CALIBRATION_PARTS. */
  calibrationParts?: number
  /** Points per part of the calibration sample; default CALIBRATION_POINTS_PER_PART (tests shrink it). */
  calibrationPointsPerPart?: number
  /** Millisecond clock for the calibration; default performance.now (tests pass a scripted one). */
  _now?: () => number
}

/** /dev/nvidia0… or a DRM render node: without one, no browser can reach a hardware GPU on Linux. */
export function hasGpuDeviceNode(): boolean {
  try {
    if (readdirSync('/dev').some(name => /^nvidia\d+$/.test(name))) return true
    return existsSync('/dev/dri') && readdirSync('/dev/dri').some(name => name.startsWith('renderD'))
  } catch {
    // An unreadable /dev is a machine where we cannot tell; the browser probe still decides.
    return true
  }
}

/** The gpu.js version the GPU page is tested with; users install it themselves (an optional peer dependency). */
export const GPU_JS_VERSION = '2.24.1'

/**
 * Whether gpu.js can be resolved. It is an optional peer dependency: it brings ~110 MB of native packages (headless-gl,
 * webgpu) that the page never uses, so a user without a GPU is not made to install them.
 */
export function hasGpuJs(): boolean {
  try {
    createRequire(import.meta.url).resolve('gpu.js')
    return true
  } catch {
    return false
  }
}

/** The decision for `--backend cpu`: nothing is probed. */
export function cpuRequestedDecision(): BackendDecision {
  return { choice: 'cpu', backend: 'cpu', reason: 'requested (--backend cpu)', renderer: null, rendererKind: null, calibration: null }
}

/**
 * The backend for `choice`, plus the open device when it is the GPU (the caller closes it). `cpu` opens nothing;
 * `gpu` always uses the GPU page (hardware flags first, SwiftShader if that is all there is); `auto` returns cpu
 * without opening a browser when the machine has no GPU device node, refuses any software renderer, and otherwise
 * times the calibration sample on both backends.
 */
export async function decideBackend(options: DecideBackendOptions): Promise<{ decision: BackendDecision; device: NearestDevice | undefined }> {
  const { choice } = options
  const open = options.openDevice
  const base = { choice, renderer: null, rendererKind: null, calibration: null }
  if (choice === 'cpu') return { decision: cpuRequestedDecision(), device: undefined }
  const hasNode = (options.hasGpuDeviceNode ?? hasGpuDeviceNode)()
  if (choice === 'auto' && !hasNode) {
    return { decision: { ...base, backend: 'cpu', reason: 'no GPU device node (/dev/nvidia*, /dev/dri/renderD*): no hardware GPU to use' }, device: undefined }
  }
  // Try each hardware flag set; keep the first hardware page. Without a device node, flags cannot help: SwiftShader.
  if (!(options.hasGpuJs ?? hasGpuJs)()) {
    const reason = `gpu.js is not installed (an optional peer dependency of this package: npm i -D gpu.js@${GPU_JS_VERSION})`
    if (choice === 'gpu') throw new ScoringError('SCORING_GPU_UNAVAILABLE', `${reason}; or use --backend cpu or auto`)
    return { decision: { ...base, backend: 'cpu', reason }, device: undefined }
  }
  const argSets = hasNode ? CHROMIUM_GPU_ARG_SETS : [[]]
  let device: NearestDevice | undefined
  let kind: RendererKind = 'none'
  // A flag set Chromium cannot start with (no Vulkan loader, say) just moves on to the next one. The first software
  // page is kept in reserve (so `gpu` can still run, and `auto` can name the renderer it refused) until a hardware one.
  const failures: string[] = []
  for (const args of argSets) {
    let opened: NearestDevice
    try {
      opened = await open(args)
    } catch (error) {
      failures.push(`${args.join(' ') || 'default flags'}: ${error instanceof Error ? error.message : String(error)}`)
      continue
    }
    const openedKind = classifyRenderer(opened.renderer, opened.mode)
    if (openedKind === 'hardware') {
      await device?.close()
      device = opened
      kind = openedKind
      break
    }
    if (device === undefined) {
      device = opened
      kind = openedKind
    } else {
      await opened.close()
    }
  }
  if (device === undefined) {
    const reason = `the GPU page could not open (${failures.join('; ')})`
    // `gpu` was asked for explicitly: its failure is the answer. `auto` just keeps the CPU.
    if (choice === 'gpu') throw new ScoringError('SCORING_GPU_UNAVAILABLE', `${reason}; use --backend cpu or auto`)
    return { decision: { ...base, backend: 'cpu', reason }, device: undefined }
  }
  const found = { renderer: device.renderer, rendererKind: kind }
  if (choice === 'gpu' || kind === 'hardware') {
    // Before it scores anything: every self-test answer must satisfy the certificate's premise (self-test.ts).
    try {
      await selfTestDevice(device)
    } catch (error) {
      await device.close()
      if (choice === 'gpu') throw error
      return { decision: { ...base, ...found, backend: 'cpu', reason: `the GPU failed its self-test: ${error instanceof Error ? error.message : String(error)}` }, device: undefined }
    }
  }
  if (choice === 'gpu') {
    const note = kind === 'hardware' ? 'hardware renderer' : `${kind} renderer: exact but slower than the CPU backend`
    return { decision: { ...base, ...found, backend: 'gpu', reason: `requested (--backend gpu); ${note}` }, device }
  }
  if (kind !== 'hardware') {
    await device.close()
    const why = kind === 'software' ? 'is a software rasterizer' : 'is not a usable WebGL2 GPU'
    return { decision: { ...base, ...found, backend: 'cpu', reason: `the browser's WebGL renderer "${device.renderer}" ${why}; the CPU kernels are faster` }, device: undefined }
  }
  const sample = calibrationSample(options.calibrationParts ?? CALIBRATION_PARTS, options.calibrationPointsPerPart ?? CALIBRATION_POINTS_PER_PART)
  const now = options._now ?? (() => performance.now())
  let clock = now()
  const cpu = await options.cpuScore(sample)
  const cpuMs = now() - clock
  clock = now()
  const [outcome] = await scoreSamplesOnDevice(device, [sample])
  const gpuMs = now() - clock
  const isIdentical = outcome !== undefined && 'score' in outcome && JSON.stringify(outcome.score) === JSON.stringify(cpu)
  const calibration = { cpuMs, gpuMs, isIdentical }
  const times = `calibration ${Math.round(gpuMs)} ms on the GPU vs ${Math.round(cpuMs)} ms on the CPU`
  if (!isIdentical) {
    await device.close()
    return { decision: { ...base, ...found, calibration, backend: 'cpu', reason: `the GPU calibration result differs from the CPU's (a bug: please report it); ${times}` }, device: undefined }
  }
  if (!(gpuMs <= GPU_MIN_SPEEDUP_FRACTION * cpuMs)) {
    await device.close()
    return { decision: { ...base, ...found, calibration, backend: 'cpu', reason: `hardware GPU found but not faster: ${times}` }, device: undefined }
  }
  return { decision: { ...base, ...found, calibration, backend: 'gpu', reason: `hardware GPU faster: ${times}` }, device }
}
