// openReferencePageRenderer in headless Chromium: size, background, part and highlight colours, caption, hidden parts,
// assembled poses, identical bytes for identical requests, and the errors it reports.
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openReferencePageRenderer, REFERENCE_PAGE_RENDERER_NAME, type ReferencePageInput, type ReferencePageRenderer } from '../../../src/headless/index.ts'
import { buildSetupEpisode } from '../../helpers/episode-fixture.ts'

/** CAPTURE_BACKGROUND 0x181825 as 8-bit sRGB. */
const BACKGROUND = [0x18, 0x18, 0x25] as const
/** The top-left area the caption is printed in (pixels). */
const CAPTION_AREA = { width: 360, height: 130 }

type Rgb = readonly [number, number, number]
type Pose = Pick<ReferencePageInput['parts'][number], 'position' | 'quaternion'>
const IDENTITY: Pose = { position: [0, 0, 0], quaternion: [1, 0, 0, 0] }

// Three 0.2-edge boxes baked at x = 0, 0.3, 0.6 (identity body poses), seen by the §2.7 camera.
const episode = buildSetupEpisode({ parts: 3 })
const camera = episode.initial.camera

function page(options: { visible: number[]; highlighted?: number[]; caption?: string; poses?: Record<number, Pose> }): ReferencePageInput {
  return {
    world: episode.world,
    caption: options.caption ?? '',
    camera,
    label: 'test page',
    parts: [1, 2, 3].map(part => ({
      bodyId: `part-000${part}`,
      ...(options.poses?.[part] ?? IDENTITY),
      visible: options.visible.includes(part),
      highlighted: (options.highlighted ?? []).includes(part),
    })),
  }
}

function decode(bytes: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(bytes))
}

function pixel(png: PNG, x: number, y: number): Rgb {
  const i = 4 * (y * png.width + x)
  return [png.data[i] ?? 0, png.data[i + 1] ?? 0, png.data[i + 2] ?? 0]
}

const isBackground = ([r, g, b]: Rgb) => Math.abs(r - BACKGROUND[0]) <= 2 && Math.abs(g - BACKGROUND[1]) <= 2 && Math.abs(b - BACKGROUND[2]) <= 2
// Lit grey parts: nearly equal channels, clearly brighter than the background.
const isGrey = ([r, g, b]: Rgb) => Math.max(r, g, b) - Math.min(r, g, b) < 40 && (r + g + b) / 3 > 70
// The highlight orange: red well above green, green above blue.
const isOrange = ([r, g, b]: Rgb) => r > 100 && r - g > 40 && g - b > 10
const isLight = ([r, g, b]: Rgb) => r > 200 && g > 200 && b > 200

interface Census {
  grey: number
  orange: number
  drawn: number
  /** Mean column and row of drawn pixels. */
  centroid: [number, number]
}

function census(png: PNG, area?: { x0: number; y0: number; x1: number; y1: number }): Census {
  const { x0, y0, x1, y1 } = area ?? { x0: 0, y0: 0, x1: png.width, y1: png.height }
  let grey = 0, orange = 0, drawn = 0, sx = 0, sy = 0
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const rgb = pixel(png, x, y)
    if (isGrey(rgb)) grey++
    if (isOrange(rgb)) orange++
    if (!isBackground(rgb)) {
      drawn++
      sx += x
      sy += y
    }
  }
  return { grey, orange, drawn, centroid: [sx / drawn, sy / drawn] }
}

const BELOW_CAPTION = { x0: 0, y0: CAPTION_AREA.height, x1: 1024, y1: 768 }

let renderer: ReferencePageRenderer
beforeAll(async () => {
  renderer = await openReferencePageRenderer()
})
afterAll(async () => {
  await renderer?.close()
})

describe('openReferencePageRenderer', () => {
  it('draws a step page: 1024×768 on the capture background, the earlier part grey, the added part orange', async () => {
    expect(renderer.name).toBe(REFERENCE_PAGE_RENDERER_NAME)
    expect(renderer.name).toBe('three-r187/webgl2 (headless chromium)')
    const png = decode(await renderer.render(page({ visible: [1, 2], highlighted: [2], caption: 'Step 2' })))
    expect([png.width, png.height]).toEqual([1024, 768])
    for (const [x, y] of [[0, 0], [1023, 0], [0, 767], [1023, 767]] as const) expect(pixel(png, x, y)).toEqual(BACKGROUND)
    const counts = census(png, BELOW_CAPTION)
    expect(counts.grey).toBeGreaterThan(2000)
    expect(counts.orange).toBeGreaterThan(2000)
  })

  it('draws a final page with no orange at all, and orange only where a part is highlighted', async () => {
    const final = census(decode(await renderer.render(page({ visible: [1, 2, 3] }))))
    expect(final.grey).toBeGreaterThan(5000)
    expect(final.orange).toBe(0)
    // Highlighting part 3 turns its pixels orange and leaves the others grey.
    const highlighted = census(decode(await renderer.render(page({ visible: [1, 2, 3], highlighted: [3] }))))
    expect(highlighted.orange).toBeGreaterThan(2000)
    expect(highlighted.grey).toBeLessThan(final.grey - 2000)
    expect(highlighted.drawn).toBe(final.drawn)
  })

  it('prints the caption large and light at the top-left and changes nothing else', async () => {
    const plain = decode(await renderer.render(page({ visible: [1, 2], highlighted: [2] })))
    const captioned = decode(await renderer.render(page({ visible: [1, 2], highlighted: [2], caption: 'Step 2' })))
    const topLeft = { x0: 0, y0: 0, x1: CAPTION_AREA.width, y1: CAPTION_AREA.height }
    expect(census(plain, topLeft).drawn).toBe(0)
    let light = 0
    for (let y = 0; y < CAPTION_AREA.height; y++) for (let x = 0; x < CAPTION_AREA.width; x++) if (isLight(pixel(captioned, x, y))) light++
    expect(light).toBeGreaterThan(1500)
    let changedOutside = 0
    for (let y = 0; y < 768; y++) for (let x = 0; x < 1024; x++) {
      const inside = x < CAPTION_AREA.width && y < CAPTION_AREA.height
      if (!inside && pixel(plain, x, y).join() !== pixel(captioned, x, y).join()) changedOutside++
    }
    expect(changedOutside).toBe(0)
  })

  it('leaves hidden parts out: fewer drawn pixels per hidden part, nothing drawn when none is visible', async () => {
    const all = census(decode(await renderer.render(page({ visible: [1, 2, 3] }))))
    const two = census(decode(await renderer.render(page({ visible: [1, 2] }))))
    const one = census(decode(await renderer.render(page({ visible: [1] }))))
    const none = census(decode(await renderer.render(page({ visible: [] }))))
    expect(two.drawn).toBeLessThan(all.drawn - 2000)
    expect(one.drawn).toBeLessThan(two.drawn - 2000)
    expect(one.drawn).toBeGreaterThan(2000)
    expect(none.drawn).toBe(0)
    // A hidden part stays hidden even when it is the highlighted one.
    const hiddenHighlight = census(decode(await renderer.render(page({ visible: [1, 2], highlighted: [3] }))))
    expect(hiddenHighlight.orange).toBe(0)
    expect(hiddenHighlight.drawn).toBe(two.drawn)
  })

  it('places each body at its assembled pose (x_world = R·x_local + p)', async () => {
    const at = async (pose: Pose) => census(decode(await renderer.render(page({ visible: [2], poses: { 2: pose } })))).centroid
    const [x0, y0] = await at(IDENTITY)
    // The camera looks along −(1.3, −1.8, 1.5) with +Z up: world +x goes right on screen, +z goes up.
    const [xRight] = await at({ position: [0.2, 0, 0], quaternion: [1, 0, 0, 0] })
    const [, yUp] = await at({ position: [0, 0, 0.2], quaternion: [1, 0, 0, 0] })
    expect(xRight).toBeGreaterThan(x0 + 20)
    expect(yUp).toBeLessThan(y0 - 20)
    // Half a turn about z through the body origin moves the box baked at x = 0.3 to x = −0.3 (left).
    const [xTurned] = await at({ position: [0, 0, 0], quaternion: [0, 0, 0, 1] })
    expect(xTurned).toBeLessThan(x0 - 40)
    // Quaternions are normalised by MuJoCo: a scaled one draws the same page.
    const scaled = await renderer.render(page({ visible: [2], poses: { 2: { position: [0, 0, 0], quaternion: [0, 0, 0, 3] } } }))
    const unit = await renderer.render(page({ visible: [2], poses: { 2: { position: [0, 0, 0], quaternion: [0, 0, 0, 1] } } }))
    expect(Buffer.from(scaled).equals(Buffer.from(unit))).toBe(true)
  })

  it('gives the same bytes for the same request, whatever was drawn before (other pages, another world)', async () => {
    const request = page({ visible: [1, 2], highlighted: [2], caption: 'Step 2' })
    const first = await renderer.render(request)
    await renderer.render(page({ visible: [1, 2, 3], highlighted: [1, 3], caption: 'Step 3' }))
    const other = buildSetupEpisode({ parts: 2 })
    await renderer.render({ world: other.world, parts: [{ bodyId: 'part-0001', ...IDENTITY, visible: true, highlighted: true }], caption: 'Step 1', camera: other.initial.camera })
    const again = await renderer.render(request)
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true)
  })

  it('reports a body the world lacks and a zero quaternion as RENDER_HEADLESS_PAGE naming the page', async () => {
    const unknown = page({ visible: [1] })
    const missing = renderer.render({ ...unknown, parts: [{ bodyId: 'part-0009', ...IDENTITY, visible: true, highlighted: false }] })
    await expect(missing).rejects.toMatchObject({ code: 'RENDER_HEADLESS_PAGE' })
    await expect(missing).rejects.toThrow(/test page.*part-0009/)
    const zero = renderer.render(page({ visible: [1], poses: { 1: { position: [0, 0, 0], quaternion: [0, 0, 0, 0] } } }))
    await expect(zero).rejects.toThrow(/quaternion must not be zero/)
    // The page keeps working after a refused request.
    expect(decode(await renderer.render(page({ visible: [1] }))).width).toBe(1024)
  })
})

describe('openReferencePageRenderer lifecycle', () => {
  it('refuses to render after close() with RENDER_DISPOSED, and close() may be repeated', async () => {
    const own = await openReferencePageRenderer()
    await own.close()
    await own.close()
    await expect(own.render(page({ visible: [1] }))).rejects.toMatchObject({ code: 'RENDER_DISPOSED' })
  })

  it('reports a Chromium that does not start as RENDER_HEADLESS_LAUNCH', async () => {
    await expect(openReferencePageRenderer({ executablePath: '/nonexistent/chromium' })).rejects.toMatchObject({ code: 'RENDER_HEADLESS_LAUNCH' })
  })
})
