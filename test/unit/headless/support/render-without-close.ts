// Child process for the idle-close test: renders one page with the fixtures PageRenderer and never calls close(),
// then prints the PNG's byte count; the process can only end once the renderer closed its browser by itself.
import { resolvePageRenderer } from '../../../../fixtures/generator/index.ts'
import { buildSetupEpisode } from '../../../helpers/episode-fixture.ts'

const IDLE_CLOSE_MS = 200
const episode = buildSetupEpisode({ parts: 1 })
const renderer = await resolvePageRenderer({ idleCloseMs: IDLE_CLOSE_MS })
if (renderer === undefined) throw new Error('no Chromium found')
const png = await renderer.render({
  block: 'b', sampleId: 's', page: 1, kind: 'final', step: null, caption: '', world: episode.world, camera: episode.initial.camera,
  parts: [{ bodyId: 'part-0001', sourceId: '0', mesh: { vertices: new Float64Array(0), faces: new Uint32Array(0) }, position: [0, 0, 0], quaternion: [1, 0, 0, 0], visible: true, highlighted: false }],
})
process.stdout.write(`rendered ${png.length}\n`)
