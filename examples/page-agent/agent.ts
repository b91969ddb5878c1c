// A complete page agent that perceives the scene: it finds every part in top-view captures and gathers the parts
// around their common centre. Copy it into your project; it imports only the package's public entry point.
// Run it with `AWB_AGENT=./examples/page-agent/agent.ts npx vitest run --project partnet-none`
// (or `assemblyWorld({ agent: './examples/page-agent/agent.ts' })`). Its tool calls are recorded for you.
//
// Why captures: get_object says position [0, 0, 0] for every part at the start (the scattered placement is baked
// into the vertices, docs/tools.md "Where a part is"), so only the images tell where a part is. Every part is the
// same grey on the solid background, so the agent lifts one part out of view at a time and compares the images.
import { defineAgent } from 'assembly-world-bench/agent'

/** Lifting a part this far up puts it behind the top-view camera: out of the image. */
const LIFT = 100
/** A pixel differs when one of its channels changes by more than this (0–255). */
const PIXEL_TOLERANCE = 12
/** How many times the camera may zoom out until no part touches the image border. */
const MAX_ZOOM_OUTS = 4
/** The solid background of every capture, #181825, as RGB. */
const BACKGROUND = new Uint8ClampedArray([0x18, 0x18, 0x25])

type Vec3 = [number, number, number]
/** capture_scene's answer (docs/tools.md): the PNG, the camera it was taken from and the fixed intrinsics. */
interface CaptureAnswer {
  content: { type: string; data: string }[]
  camera: { position: Vec3; target: Vec3 }
  render: { width: number; height: number; fovy: number }
}
interface Capture extends Omit<CaptureAnswer, 'content'> {
  image: ImageData
}

export default defineAgent({
  name: 'example-gather',
  async run({ prompt, pages, tools, signal }) {
    // prompt: the block's task and the protocol; pages: reference images ({page, mimeType, bytes}) when the block has them.
    console.info(`example agent: ${prompt.length} prompt characters, ${pages.length} reference pages, tools: ${tools.list().map(tool => tool.name).join(', ')}`)
    // Every answer is a JSON string; failures are {"error", "code"} envelopes, never exceptions.
    async function call<T>(name: string, input: Record<string, unknown>): Promise<T> {
      signal.throwIfAborted() // the signal fires at the sample's time limit
      const answer = JSON.parse(await tools.call(name, input)) as T | { error: string; code: string }
      if (answer !== null && typeof answer === 'object' && 'error' in answer) throw new Error(`${name} failed (${answer.code}): ${answer.error}`)
      return answer as T
    }
    async function capture(): Promise<Capture> {
      const answer = await call<CaptureAnswer>('capture_scene', {})
      const png = answer.content.find(item => item.type === 'image')
      if (png === undefined) throw new Error('capture_scene answered no image')
      return { image: await decodePng(png.data), camera: answer.camera, render: answer.render }
    }

    const { objects } = await call<{ objects: { id: string }[] }>('list_objects', {})
    // 1. Look straight down (pitch is clamped just short of the pole), zooming out until every part is in view.
    await call('move_camera', { pitch: -85 })
    let scene = await capture()
    for (let i = 0; i < MAX_ZOOM_OUTS && touchesBorder(scene.image); i++) {
      await call('move_camera', { zoom: 1.5 })
      scene = await capture()
    }
    // 2. Find each part: lift it out of view, capture, and the pixels that changed are its footprint.
    const centres = new Map<string, [number, number]>()
    for (const { id } of objects) {
      await call('translate_objects', { ids: [id], delta: [0, 0, LIFT] })
      const without = await capture()
      await call('translate_objects', { ids: [id], delta: [0, 0, -LIFT] })
      const pixel = changedCentroid(scene.image, without.image)
      if (pixel === null) console.warn(`example agent: ${id} is not in view; it stays where it is`)
      else centres.set(id, unprojectToGround(pixel, scene))
    }
    // 3. Gather: move every part found so that its footprint centre lands on the parts' common centre.
    const found = [...centres.values()]
    const centre = [0, 1].map(axis => found.reduce((sum, xy) => sum + xy[axis]!, 0) / found.length)
    for (const [id, [x, y]] of centres) {
      await call('translate_objects', { ids: [id], delta: [centre[0]! - x, centre[1]! - y, 0] })
    }
    return {
      // The final answer ends with the protocol's JSON object.
      finalAnswer: JSON.stringify({
        status: 'partial',
        summary: `found ${centres.size} of ${objects.length} parts in top-view captures and gathered them around their common centre`,
        checked_connections: [],
        uncertainties: ['parts are gathered, not joined: no part is turned or fitted to another'],
      }),
      usage: null,
      costUsd: null,
      model: null,
    }
  },
})

/** Decodes a base64 PNG into RGBA pixels (the realm is a sandboxed frame: no DOM canvas, but these work). */
async function decodePng(base64: string): Promise<ImageData> {
  const bytes = Uint8Array.from(atob(base64), char => char.charCodeAt(0))
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
  const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!
  context.drawImage(bitmap, 0, 0)
  return context.getImageData(0, 0, bitmap.width, bitmap.height)
}

/** Whether anything but the background lies on the image border. */
function touchesBorder({ data, width, height }: ImageData): boolean {
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (y !== 0 && y !== height - 1 && x !== 0 && x !== width - 1) continue
      const i = 4 * (y * width + x)
      if (differs(data, i, BACKGROUND, 0)) return true
    }
  }
  return false
}

/** The mean pixel (column, row) of the pixels that differ between two captures, or null when none does. */
function changedCentroid(a: ImageData, b: ImageData): [number, number] | null {
  let count = 0, sumX = 0, sumY = 0
  for (let i = 0; i < a.data.length; i += 4) {
    if (!differs(a.data, i, b.data, i)) continue
    const pixel = i / 4
    count++
    sumX += pixel % a.width
    sumY += Math.floor(pixel / a.width)
  }
  return count === 0 ? null : [sumX / count, sumY / count]
}

function differs(a: Uint8ClampedArray, i: number, b: Uint8ClampedArray, j: number): boolean {
  return Math.abs(a[i]! - b[j]!) > PIXEL_TOLERANCE || Math.abs(a[i + 1]! - b[j + 1]!) > PIXEL_TOLERANCE || Math.abs(a[i + 2]! - b[j + 2]!) > PIXEL_TOLERANCE
}

/**
 * Where the ray through a pixel meets the ground plane z = 0, as world (x, y). The capture camera is a three.js
 * perspective camera with +Z up: forward = target − position, right = forward × Z, up = right × forward.
 */
function unprojectToGround([column, row]: [number, number], { camera, render }: Capture): [number, number] {
  const [px, py, pz] = camera.position
  const forward = normalize([camera.target[0] - px, camera.target[1] - py, camera.target[2] - pz])
  const right = normalize([forward[1], -forward[0], 0])
  const up: Vec3 = [right[1] * forward[2] - right[2] * forward[1], right[2] * forward[0] - right[0] * forward[2], right[0] * forward[1] - right[1] * forward[0]]
  const halfHeight = Math.tan((render.fovy * Math.PI) / 360)
  const halfWidth = halfHeight * (render.width / render.height)
  const sx = ((column + 0.5) / render.width * 2 - 1) * halfWidth
  const sy = (1 - (row + 0.5) / render.height * 2) * halfHeight
  const ray = [0, 1, 2].map(k => forward[k]! + sx * right[k]! + sy * up[k]!) as Vec3
  const distance = -pz / ray[2]
  return [px + distance * ray[0], py + distance * ray[1]]
}

function normalize([x, y, z]: Vec3): Vec3 {
  const length = Math.hypot(x, y, z)
  return [x / length, y / length, z / length]
}
