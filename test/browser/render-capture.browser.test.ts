import { Vector3 } from 'three'
import { commands, page } from 'vitest/browser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aimCaptureCamera, CAPTURE_BACKGROUND, createCaptureCamera, createThreeSceneRenderer, RenderError } from '../../src/render/index.ts'
import type { CameraState, SceneRenderer } from '../../src/world/index.ts'
import { decodePng, foreground, pngSize, toBase64 } from './support/png-pixels.ts'
import { type FixtureWorld, openFixtureWorld } from './support/fixture-world.ts'

const BACKGROUND: [number, number, number] = [(CAPTURE_BACKGROUND >> 16) & 0xff, (CAPTURE_BACKGROUND >> 8) & 0xff, CAPTURE_BACKGROUND & 0xff]
/** Where the test leaves one capture for people to look at (gitignored; inside the project root as Vitest requires). */
const CAPTURE_ARTIFACT = 'test-results/browser/awb-capture.png'

describe('capture_scene renderer (three.js, WebGL2 on SwiftShader)', () => {
  let world: FixtureWorld
  let renderer: SceneRenderer
  let camera: CameraState

  beforeAll(async () => {
    world = await openFixtureWorld(4)
    renderer = createThreeSceneRenderer()
    camera = world.episode.initial.camera
  })
  afterAll(() => {
    renderer.dispose()
    world.dispose()
  })

  const capture = (state: Float64Array, view: CameraState = camera): Promise<Uint8Array> => {
    world.restore(state)
    return renderer.capture({ model: world.model, data: world.data, camera: view })
  }

  it('names itself after the three.js revision and WebGL2', () => {
    expect(renderer.name).toBe('three-r187/webgl2')
  })

  it('writes a 1024×768 PNG with the parts drawn on the #181825 background', async () => {
    const png = await capture(world.initial)
    expect(pngSize(png)).toEqual({ width: 1024, height: 768 })
    const image = await decodePng(png)
    expect([image.width, image.height]).toEqual([1024, 768])
    expect(Array.from(image.data.subarray(0, 3))).toEqual(BACKGROUND)
    const parts = foreground(image, BACKGROUND)
    // Four 0.2-wide boxes framed at 3.5 scene radii cover a few percent of the frame, far from blank or full.
    expect(parts.count).toBeGreaterThan(0.01 * 1024 * 768)
    expect(parts.count).toBeLessThan(0.5 * 1024 * 768)
    // The §2.7 camera looks at the scene centre, so the parts sit around the image centre.
    expect(Math.abs(parts.x - 512)).toBeLessThan(100)
    expect(Math.abs(parts.y - 384)).toBeLessThan(100)
    // Lit light-grey parts are brighter than the background.
    let brightest = 0
    for (let i = 0; i < image.data.length; i += 4) brightest = Math.max(brightest, image.data[i] ?? 0)
    expect(brightest).toBeGreaterThan(120)
    await commands.writeFile(CAPTURE_ARTIFACT, toBase64(png), 'base64')
  })

  it('moves a part in the image the way the camera projects its world motion', async () => {
    const before = foreground(await decodePng(await capture(world.initial)), BACKGROUND)
    const delta = new Vector3(0, 0, 0.25)
    const moved = world.moved(1, [delta.x, delta.y, delta.z])
    const after = foreground(await decodePng(await capture(moved)), BACKGROUND)
    // Project part-0001's centre (baked at the origin) before and after through the capture camera.
    const projector = aimCaptureCamera(createCaptureCamera(), camera)
    const from = new Vector3(0, 0, 0).project(projector)
    const to = delta.clone().project(projector)
    const expected = { x: (to.x - from.x) * 512, y: -(to.y - from.y) * 384 }
    const shift = { x: after.x - before.x, y: after.y - before.y }
    // One of four equal parts moved, so the centroid follows a quarter of its image motion (roughly: occlusion).
    expect(Math.hypot(shift.x, shift.y)).toBeGreaterThan(0.1 * Math.hypot(expected.x, expected.y))
    expect(shift.x * expected.x + shift.y * expected.y).toBeGreaterThan(0)
  })

  it('draws each geom where MuJoCo puts it: a part moved out of view leaves the image', async () => {
    const all = foreground(await decodePng(await capture(world.initial)), BACKGROUND).count
    const gone = foreground(await decodePng(await capture(world.moved(2, [0, 0, 500]))), BACKGROUND).count
    expect(gone).toBeLessThan(all)
    expect(gone).toBeGreaterThan(0)
  })

  it('renders only the background when the camera looks away from every part', async () => {
    const away: CameraState = { position: camera.position, target: [2 * camera.position[0], 2 * camera.position[1], 2 * camera.position[2]] }
    const image = await decodePng(await capture(world.initial, away))
    expect(foreground(image, BACKGROUND).count).toBe(0)
  })

  it('gives byte-identical PNGs for the same state and camera', async () => {
    const first = await capture(world.moved(3, [0.1, -0.2, 0.3]))
    await capture(world.initial)
    const second = await capture(world.moved(3, [0.1, -0.2, 0.3]))
    expect(toBase64(second)).toBe(toBase64(first))
  })

  it('ignores the page viewport: the same bytes after the viewport is resized (§10.2 Capture)', async () => {
    const before = await capture(world.initial)
    await page.viewport(480, 320)
    const after = await capture(world.initial)
    await page.viewport(1280, 720)
    expect(toBase64(after)).toBe(toBase64(before))
  })

  it('rebuilds its scene when a view brings another compiled model', async () => {
    const four = foreground(await decodePng(await capture(world.initial)), BACKGROUND).count
    const small = await openFixtureWorld(1)
    try {
      const one = foreground(await decodePng(await renderer.capture({ model: small.model, data: small.data, camera })), BACKGROUND).count
      expect(one).toBeGreaterThan(0)
      expect(one).toBeLessThan(four / 2)
    } finally {
      small.dispose()
    }
    expect(foreground(await decodePng(await capture(world.initial)), BACKGROUND).count).toBe(four)
  })

  it('rejects a degenerate camera with RENDER_CAMERA_INVALID', async () => {
    const degenerate: CameraState = { position: [1, 1, 1], target: [1, 1, 1.0005] }
    await expect(capture(world.initial, degenerate)).rejects.toMatchObject({ code: 'RENDER_CAMERA_INVALID' })
    await expect(capture(world.initial, { position: [Number.NaN, 0, 0], target: [0, 0, 0] })).rejects.toBeInstanceOf(RenderError)
  })

  it('refuses to capture after dispose()', async () => {
    const short = createThreeSceneRenderer()
    await short.capture({ model: world.model, data: world.data, camera })
    short.dispose()
    await expect(short.capture({ model: world.model, data: world.data, camera })).rejects.toMatchObject({ code: 'RENDER_DISPOSED' })
  })
})
