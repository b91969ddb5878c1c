// decideBackend without a browser: fake devices (the float32 emulation under a hardware-looking renderer string) drive
// every branch of `auto` and `gpu`: unopenable flag sets, the self-test, the calibration, the refusal of slow GPUs.
import { describe, expect, it } from 'vitest'
import { ScoringPool } from '../../../../src/scoring/workers/index.ts'
import { Float32EmulationDevice, decideBackend, type NearestAnswers, type NearestDevice, type NearestGroup } from '../../../../src/scoring/gpu/index.ts'

/** The emulation under another renderer string and mode; `lie` overstates second distances (a broken device). */
class FakeGpu implements NearestDevice {
  private readonly inner = new Float32EmulationDevice()
  isClosed = false
  readonly renderer: string
  readonly mode: string
  private readonly lie: boolean
  constructor(renderer: string, mode = 'gpu', lie = false) {
    this.renderer = renderer
    this.mode = mode
    this.lie = lie
  }
  upload(cloud: Float32Array): Promise<number> { return this.inner.upload(cloud) }
  release(ids: readonly number[]): Promise<void> { return this.inner.release(ids) }
  async nearest(groups: readonly NearestGroup[]): Promise<NearestAnswers[]> {
    const answers = await this.inner.nearest(groups)
    if (this.lie) for (const a of answers) for (let i = 0; i < a.second.length; i += 50) a.second[i] = a.second[i]! * 5 + 1
    return answers
  }
  async close(): Promise<void> { this.isClosed = true }
}

const NVIDIA = 'ANGLE (NVIDIA, Vulkan 1.3.277 (NVIDIA H200 (0x00002335)), NVIDIA)'
const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)'

/** A scripted calibration clock: cpu from 0 to `cpuMs`, gpu over the next `gpuMs`. */
function clock(cpuMs: number, gpuMs: number): () => number {
  const ticks = [0, cpuMs, cpuMs, cpuMs + gpuMs]
  let at = 0
  return () => ticks[Math.min(at++, ticks.length - 1)]!
}

async function decide(choice: 'auto' | 'gpu', devices: (() => NearestDevice)[], now = clock(100, 900)) {
  const pool = new ScoringPool({ workers: 0 })
  const opened: NearestDevice[] = []
  let at = 0
  try {
    const result = await decideBackend({
      choice, hasGpuDeviceNode: () => true, calibrationParts: 2, calibrationPointsPerPart: 40, _now: now,
      cpuScore: input => pool.scoreSample(input),
      openDevice: async () => {
        const make = devices[at++]
        if (make === undefined) throw new Error('no more flag sets')
        const device = make()
        opened.push(device)
        return device
      },
    })
    return { ...result, opened }
  } finally {
    await pool.close()
  }
}

const unopenable = (): NearestDevice => { throw new Error('Chromium exited: no Vulkan loader') }

describe('decideBackend', () => {
  it('without gpu.js (an optional peer): auto keeps the CPU and says how to install it; gpu fails with that advice', async () => {
    const pool = new ScoringPool({ workers: 0 })
    let opened = 0
    const options = { hasGpuDeviceNode: () => true, hasGpuJs: () => false, cpuScore: (input: Parameters<typeof pool.scoreSample>[0]) => pool.scoreSample(input), openDevice: async () => { opened++; return new FakeGpu(NVIDIA) } }
    try {
      const auto = await decideBackend({ choice: 'auto', ...options })
      expect(auto.device).toBeUndefined()
      expect(auto.decision).toMatchObject({ backend: 'cpu', reason: expect.stringContaining('npm i -D gpu.js@2.24.1') })
      await expect(decideBackend({ choice: 'gpu', ...options })).rejects.toThrow(/gpu\.js is not installed.*npm i -D gpu\.js@2\.24\.1/)
      expect(opened).toBe(0)
    } finally {
      await pool.close()
    }
  })

  it('auto: a hardware GPU that is bit-identical but slower than the CPU is refused, with both times in the reason', async () => {
    const { decision, device, opened } = await decide('auto', [() => new FakeGpu(NVIDIA)])
    expect(device).toBeUndefined()
    expect(decision).toMatchObject({ backend: 'cpu', rendererKind: 'hardware', calibration: { isIdentical: true } })
    expect(decision.reason).toBe('hardware GPU found but not faster: calibration 900 ms on the GPU vs 100 ms on the CPU')
    expect((opened[0] as FakeGpu).isClosed).toBe(true)
  })

  it('auto: a hardware GPU that is bit-identical and faster than 0.8 × the CPU is chosen; just above 0.8 is not', async () => {
    const fast = await decide('auto', [() => new FakeGpu(NVIDIA)], clock(1000, 800))
    expect(fast.decision).toMatchObject({ backend: 'gpu', reason: 'hardware GPU faster: calibration 800 ms on the GPU vs 1000 ms on the CPU' })
    expect(fast.device).toBe(fast.opened[0])
    const close = await decide('auto', [() => new FakeGpu(NVIDIA)], clock(1000, 800.5))
    expect(close.decision.backend).toBe('cpu')
  })

  it('auto: a flag set that cannot start moves on to the next; a hardware GPU failing its self-test is refused', async () => {
    const { decision, device } = await decide('auto', [unopenable, () => new FakeGpu(NVIDIA, 'gpu', true)])
    expect(device).toBeUndefined()
    expect(decision.backend).toBe('cpu')
    expect(decision.reason).toMatch(/^the GPU failed its self-test: .*cannot be trusted/)
  })

  it('auto: software renderers on every flag set are refused and the first one is named', async () => {
    const { decision, opened } = await decide('auto', [() => new FakeGpu(SWIFTSHADER), () => new FakeGpu('ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits), OpenGL ES 3.2)')])
    expect(decision).toMatchObject({ backend: 'cpu', rendererKind: 'software', renderer: SWIFTSHADER })
    expect(opened.every(d => (d as FakeGpu).isClosed)).toBe(true)
  })

  it('auto: no flag set starts → cpu, naming every failure; gpu: the same is SCORING_GPU_UNAVAILABLE', async () => {
    const { decision } = await decide('auto', [unopenable, unopenable])
    expect(decision.backend).toBe('cpu')
    expect(decision.reason).toMatch(/could not open .*no Vulkan loader.*no Vulkan loader/)
    await expect(decide('gpu', [unopenable, unopenable])).rejects.toMatchObject({ code: 'SCORING_GPU_UNAVAILABLE' })
  })

  it('gpu: a hardware page found later replaces a software one; it is self-tested and used', async () => {
    const { decision, device, opened } = await decide('gpu', [() => new FakeGpu(SWIFTSHADER), () => new FakeGpu(NVIDIA)])
    expect(device).toBe(opened[1])
    expect((opened[0] as FakeGpu).isClosed).toBe(true)
    expect(decision).toMatchObject({ backend: 'gpu', rendererKind: 'hardware', reason: 'requested (--backend gpu); hardware renderer' })
  })

  it('gpu: a device failing its self-test is an error, not a silent fallback', async () => {
    await expect(decide('gpu', [() => new FakeGpu(NVIDIA, 'gpu', true), unopenable])).rejects.toMatchObject({ code: 'SCORING_GPU_UNTRUSTED' })
  })
})
