#!/usr/bin/env node
// A complete AssemblyWorldBench agent as a plain Node program (Node 20+, no dependencies): it finds every part in
// top-view captures and gathers the parts around their common centre. The same strategy as agent.py and the page
// agent example (examples/page-agent/agent.ts).
//
// The harness starts it once per sample with, in its environment:
//   AWB_MCP_URL      the sample's MCP endpoint (Streamable HTTP on 127.0.0.1; the URL is the secret)
//   AWB_PROMPT_FILE  the task prompt (also sent on stdin)
//   AWB_PAGES        JSON array of reference page image files, in page order
// It talks MCP with JSON-RPC over HTTP POST, runs the scene tools through execute_webmcp_tool and prints its final
// answer on stdout, ending with the JSON outcome the prompt asks for. Its exit code and stderr are recorded.
//
// Why captures: get_object says position [0, 0, 0] for every part at the start (the scattered placement is baked
// into the vertices, docs/tools.md "Where a part is"), so only the images tell where a part is. Every part is the
// same grey on the solid background, so the agent lifts one part out of view at a time and compares the images.
import { readFileSync } from 'node:fs'
import { inflateSync } from 'node:zlib'

/** Lifting a part this far up puts it behind the top-view camera: out of the image. */
const LIFT = 100
/** A pixel differs when one of its channels changes by more than this (0–255). */
const PIXEL_TOLERANCE = 12
/** How many times the camera may zoom out until no part touches the image border. */
const MAX_ZOOM_OUTS = 4
/** The solid background of every capture, #181825, as RGB. */
const BACKGROUND = [0x18, 0x18, 0x25]

const MCP_URL = process.env.AWB_MCP_URL
let nextId = 0
let protocolVersion = null

/** One JSON-RPC request (or notification, for methods under notifications/) to the MCP endpoint. */
async function rpc(method, params) {
  const isNotification = method.startsWith('notifications/')
  const message = { jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), ...(isNotification ? {} : { id: ++nextId }) }
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }
  if (protocolVersion !== null) headers['MCP-Protocol-Version'] = protocolVersion
  const response = await fetch(MCP_URL, { method: 'POST', headers, body: JSON.stringify(message) })
  const body = await response.text()
  if (isNotification) return null
  const reply = JSON.parse(body)
  if (reply.error) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`)
  return reply.result
}

/** An MCP tool call; returns its content items (text first; capture_scene adds an image item). */
async function callTool(name, args = {}) {
  const result = await rpc('tools/call', { name, arguments: args })
  if (result.isError) throw new Error(`${name}: ${result.content[0].text}`)
  return result.content
}

/** Runs one scene tool through execute_webmcp_tool: its parsed answer, and the PNG when it sent one. */
async function pageTool(pageId, toolName, input = {}) {
  const [text, image] = await callTool('execute_webmcp_tool', { pageId, toolName, input: JSON.stringify(input) })
  const wrapper = JSON.parse(text.text) // {status, output, errorText}
  if (wrapper.status !== 'Completed') throw new Error(`${toolName}: ${wrapper.errorText}`)
  const answer = JSON.parse(wrapper.output) // the tool's own answer, or {error, code}
  if (answer.error !== undefined) throw new Error(`${toolName} failed (${answer.code}): ${answer.error}`)
  return { answer, png: image?.type === 'image' ? Buffer.from(image.data, 'base64') : null }
}

async function main() {
  const prompt = readFileSync(process.env.AWB_PROMPT_FILE, 'utf8')
  const pages = JSON.parse(process.env.AWB_PAGES ?? '[]')
  const init = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'example-agent-node', version: '1.0' } })
  protocolVersion = init.protocolVersion
  await rpc('notifications/initialized')
  const tools = (await rpc('tools/list')).tools.map(tool => tool.name)
  console.error(`tools: ${tools.join(', ')}; prompt of ${prompt.length} characters; ${pages.length} reference pages`)

  // "## Pages\n1: <title> (<url>) [selected]": the environment page's id comes first on its line.
  const pageId = Number((await callTool('list_pages'))[0].text.split('\n')[1].split(':')[0])
  const call = (toolName, input) => pageTool(pageId, toolName, input)
  const capture = async () => {
    const { answer, png } = await call('capture_scene')
    return { image: decodePng(png), camera: answer.camera, render: answer.render }
  }

  const { objects } = (await call('list_objects')).answer
  // 1. Look straight down (pitch is clamped just short of the pole), zooming out until every part is in view.
  await call('move_camera', { pitch: -85 })
  let scene
  try {
    scene = await capture()
  } catch (error) { // a world without a renderer (`awb mcp` without --render): nothing to see
    return finish('unable', `Could not see the scene: ${error.message}`, ['No part was moved.'])
  }
  for (let i = 0; i < MAX_ZOOM_OUTS && touchesBorder(scene.image); i++) {
    await call('move_camera', { zoom: 1.5 })
    scene = await capture()
  }
  // 2. Find each part: lift it out of view, capture, and the pixels that changed are its footprint.
  const centres = new Map()
  for (const { id } of objects) {
    await call('translate_objects', { ids: [id], delta: [0, 0, LIFT] })
    const without = await capture()
    await call('translate_objects', { ids: [id], delta: [0, 0, -LIFT] })
    const pixel = changedCentroid(scene.image, without.image)
    if (pixel === null) console.error(`${id} is not in view; it stays where it is`)
    else centres.set(id, unprojectToGround(pixel, scene))
  }
  // 3. Gather: move every part found so that its footprint centre lands on the parts' common centre.
  const found = [...centres.values()]
  const centre = [0, 1].map(axis => found.reduce((sum, xy) => sum + xy[axis], 0) / found.length)
  for (const [id, [x, y]] of centres) {
    await call('translate_objects', { ids: [id], delta: [centre[0] - x, centre[1] - y, 0] })
  }
  finish('partial', `Found ${centres.size} of ${objects.length} parts in top-view captures and gathered them around their common centre.`,
    ['Parts are gathered, not joined: no part is turned or fitted to another.'])
}

/** The final answer on stdout, ending with the JSON outcome the prompt asks for. */
function finish(status, summary, uncertainties) {
  console.log(`Done.\n${JSON.stringify({ status, summary, checked_connections: [], uncertainties })}`)
}

/**
 * Decodes a PNG (8-bit RGB or RGBA, not interlaced, as capture_scene writes) into {width, height, channels, data}:
 * chunks, then the zlib stream of the IDAT chunks, then each row's filter undone (PNG specification, section 9).
 */
function decodePng(png) {
  let offset = 8 // the signature
  let width = 0, height = 0, channels = 0
  const idat = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const chunk = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = chunk.readUInt32BE(0)
      height = chunk.readUInt32BE(4)
      const [bitDepth, colorType, , , interlace] = chunk.subarray(8)
      channels = { 2: 3, 6: 4 }[colorType]
      if (bitDepth !== 8 || channels === undefined || interlace !== 0) throw new Error('only 8-bit RGB(A), non-interlaced PNGs are decoded here')
    } else if (type === 'IDAT') idat.push(chunk)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const data = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? data[y * stride + x - channels] : 0
      const up = y > 0 ? data[(y - 1) * stride + x] : 0
      const upLeft = x >= channels && y > 0 ? data[(y - 1) * stride + x - channels] : 0
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]
      data[y * stride + x] = (line[x] + predictor) & 0xff
    }
  }
  return { width, height, channels, data }
}

function paeth(a, b, c) {
  const p = a + b - c
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/** Whether anything but the background lies on the image border. */
function touchesBorder({ width, height, channels, data }) {
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (y !== 0 && y !== height - 1 && x !== 0 && x !== width - 1) continue
      if (differs(data, (y * width + x) * channels, BACKGROUND, 0)) return true
    }
  }
  return false
}

/** The mean pixel (column, row) of the pixels that differ between two captures, or null when none does. */
function changedCentroid(a, b) {
  let count = 0, sumX = 0, sumY = 0
  for (let pixel = 0; pixel < a.width * a.height; pixel++) {
    if (!differs(a.data, pixel * a.channels, b.data, pixel * b.channels)) continue
    count++
    sumX += pixel % a.width
    sumY += Math.floor(pixel / a.width)
  }
  return count === 0 ? null : [sumX / count, sumY / count]
}

function differs(a, i, b, j) {
  return Math.abs(a[i] - b[j]) > PIXEL_TOLERANCE || Math.abs(a[i + 1] - b[j + 1]) > PIXEL_TOLERANCE || Math.abs(a[i + 2] - b[j + 2]) > PIXEL_TOLERANCE
}

/**
 * Where the ray through a pixel meets the ground plane z = 0, as world [x, y]. The capture camera is a three.js
 * perspective camera with +Z up: forward = target − position, right = forward × Z, up = right × forward.
 */
function unprojectToGround([column, row], { camera, render }) {
  const [px, py, pz] = camera.position
  const forward = normalize([camera.target[0] - px, camera.target[1] - py, camera.target[2] - pz])
  const right = normalize([forward[1], -forward[0], 0])
  const up = [right[1] * forward[2] - right[2] * forward[1], right[2] * forward[0] - right[0] * forward[2], right[0] * forward[1] - right[1] * forward[0]]
  const halfHeight = Math.tan((render.fovy * Math.PI) / 360)
  const halfWidth = halfHeight * (render.width / render.height)
  const sx = ((column + 0.5) / render.width * 2 - 1) * halfWidth
  const sy = (1 - (row + 0.5) / render.height * 2) * halfHeight
  const ray = [0, 1, 2].map(k => forward[k] + sx * right[k] + sy * up[k])
  const distance = -pz / ray[2]
  return [px + distance * ray[0], py + distance * ray[1]]
}

function normalize([x, y, z]) {
  const length = Math.hypot(x, y, z)
  return [x / length, y / length, z / length]
}

await main()
