import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAgentCli, checkSandbox, MUJOCO_ENGINE_BUILD, runDoctor } from '../../../src/cli/commands/doctor.ts'
import { hasGpuDeviceNode } from '../../../src/scoring/gpu/index.ts'
import { runCli } from '../../helpers/run-cli.ts'

const SENTINEL_KEY = 'sk-doctor-sentinel-should-never-print'
let bin: string

beforeAll(async () => {
  // A PATH holding a fake `codex` only, so the CLI probes do not depend on this machine.
  bin = await mkdtemp(join(tmpdir(), 'awb-doctor-'))
  await writeFile(join(bin, 'codex'), '#!/bin/sh\necho "codex-cli 9.9.9"\n')
  await chmod(join(bin, 'codex'), 0o755)
  await writeFile(join(bin, '.env'), `CODEX_API_KEY=${SENTINEL_KEY}-dotenv\n`)
})

afterAll(async () => {
  await rm(bin, { recursive: true, force: true })
})

describe('awb doctor', () => {
  it('passes the essentials here: Node, Chromium, MuJoCo with the 3.12.0 engineBuild, a WebMCP round trip; reports CLIs and keys', async () => {
    const report = await runDoctor({ PATH: bin, OPENAI_API_KEY: SENTINEL_KEY, ANTHROPIC_API_KEY: '  ' }, { cwd: bin })
    expect(report.ok).toBe(true)
    expect(report.checks.node).toMatchObject({ status: 'ok', essential: true })
    expect(report.checks.chromium).toMatchObject({ status: 'ok', essential: true, data: { path: expect.any(String), version: expect.stringMatching(/Chrom/) } })
    expect(report.checks.mujoco).toMatchObject({ status: 'ok', data: { version: '3.12.0', engineBuild: MUJOCO_ENGINE_BUILD } })
    expect(report.checks.webmcp).toMatchObject({ status: 'ok', essential: true, data: { via: ['webmcp', 'webmcp'] } })
    // A binary that only prints a version fails the real MCP handshake: finding it is not enough. Its version is
    // named, and it is not one the tests cover.
    expect(report.checks['agent codex']).toMatchObject({
      status: 'failed', essential: false,
      detail: expect.stringMatching(/^codex-cli 9\.9\.9, untested: the tests cover 0\.171\.0; the MCP handshake failed: it made no model request/) as unknown,
      data: { version: 'codex-cli 9.9.9', semver: '9.9.9', tested: false },
    })
    expect(report.checks['agent claude']).toMatchObject({ status: 'missing', essential: false })
    expect(report.checks.OPENAI_API_KEY).toMatchObject({ status: 'ok', detail: 'set (exported; value not shown)' })
    expect(report.checks.ANTHROPIC_API_KEY).toMatchObject({ status: 'missing' })
    expect(report.checks.CODEX_API_KEY).toMatchObject({ status: 'ok', detail: 'set in .env (value not shown)' })
    // Without a GPU device node, auto keeps the CPU without opening a browser (no renderer, no calibration), and
    // says why. With one (a GPU machine), it opened the GPU page: the check names the renderer it found and the
    // backend it chose, and the detail describes that same backend with the decision's reason.
    const scoring = report.checks.scoring
    if (hasGpuDeviceNode()) {
      expect(scoring).toMatchObject({ status: 'ok', essential: false, data: { choice: 'auto', reason: expect.not.stringMatching(/no GPU device node/) as unknown } })
      const data = scoring?.data as { backend: string; reason: string; renderer: string | null }
      expect(['gpu-gpujs', 'cpu-cells']).toContain(data.backend)
      expect(data.reason).not.toBe('')
      expect(scoring?.detail).toMatch(data.backend === 'gpu-gpujs' ? /^GPU \(gpu\.js on / : /^CPU KD-tree \+ Voronoi cells/)
      expect(scoring?.detail.endsWith(`--backend auto: ${data.reason}`)).toBe(true)
      if (data.backend === 'gpu-gpujs') expect(data.renderer).toEqual(expect.any(String))
    } else {
      expect(scoring).toMatchObject({ status: 'ok', essential: false, data: { backend: 'cpu-cells', choice: 'auto', renderer: null, calibration: null, reason: expect.stringMatching(/^no GPU device node/) as unknown } })
      expect(scoring?.detail).toMatch(/^CPU KD-tree \+ Voronoi cells .*; --backend auto: no GPU device node/)
    }
    expect(JSON.stringify(report)).not.toContain(SENTINEL_KEY)
  })

  it('fails (exit 1) without Chromium, skips the WebMCP check, and prints no key in text or JSON', async () => {
    const saved = { AWB_CHROMIUM: process.env.AWB_CHROMIUM, OPENAI_API_KEY: process.env.OPENAI_API_KEY }
    process.env.AWB_CHROMIUM = join(bin, 'no-such-chromium')
    process.env.OPENAI_API_KEY = SENTINEL_KEY
    try {
      const text = await runCli(['doctor'])
      expect(text.code).toBe(1)
      expect(text.stdout).toMatch(/failed\s+chromium\s+AWB_CHROMIUM=.*no-such-chromium is not an executable; install Chromium or set AWB_CHROMIUM/)
      expect(text.stdout).toMatch(/skipped\s+webmcp/)
      expect(text.stdout).toContain('doctor: an essential check failed')
      const json = await runCli(['doctor', '--json'])
      expect(json.code).toBe(1)
      const report = JSON.parse(json.stdout) as { ok: boolean; checks: Record<string, { status: string }> }
      expect(report.ok).toBe(false)
      expect(report.checks.mujoco?.status).toBe('ok')
      expect(report.checks.webmcp?.status).toBe('skipped')
      expect(text.stdout + text.stderr + json.stdout + json.stderr).not.toContain(SENTINEL_KEY)
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
  })
})

describe('awb doctor: agent CLI versions', () => {
  /** A PATH holding only fake CLIs that print `versions[cli]`: nothing installed on this machine is found. */
  async function fakeClis(versions: Partial<Record<'claude' | 'codex', string>>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'awb-doctor-versions-'))
    for (const [cli, text] of Object.entries(versions)) {
      await writeFile(join(dir, cli), `#!/bin/sh\necho '${text}'\n`)
      await chmod(join(dir, cli), 0o755)
    }
    return dir
  }

  it('names a tested version as tested, whatever the handshake says', async () => {
    const dir = await fakeClis({ claude: '2.1.332 (Claude Code)' })
    try {
      const check = await checkAgentCli('claude', { PATH: dir, HOME: dir })
      expect(check).toMatchObject({ status: 'failed', essential: false, data: { version: '2.1.332 (Claude Code)', semver: '2.1.332', tested: true } })
      expect(check.detail).toMatch(/^2\.1\.332 \(Claude Code\), tested; the MCP handshake failed/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('an answer without a version is untested and says so; a CLI not on PATH is missing, not failed', async () => {
    const dir = await fakeClis({ codex: 'codex-cli dev-build' })
    try {
      const codex = await checkAgentCli('codex', { PATH: dir, HOME: dir })
      expect(codex).toMatchObject({ data: { version: 'codex-cli dev-build', semver: null, tested: false } })
      expect(codex.detail).toMatch(/^codex-cli dev-build, untested: no version in `codex --version`; the tests cover 0\.171\.0; /)
      const claude = await checkAgentCli('claude', { PATH: dir, HOME: dir })
      expect(claude).toEqual({ status: 'missing', essential: false, detail: '`claude` is not on PATH (needed only for AWB_AGENT=claude)' })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('awb doctor: the agent sandbox and the credential each CLI uses', () => {
  it('reports whether bubblewrap starts, that the sandbox is off, or how to enable it', async () => {
    expect(await checkSandbox({ PATH: process.env.PATH })).toMatchObject({ status: 'ok', essential: false, detail: expect.stringMatching(/^bubblewrap .* starts: external programs and agent CLIs run sandboxed/) as unknown })
    expect(await checkSandbox({ AWB_SANDBOX: 'off' })).toMatchObject({ status: 'skipped', detail: expect.stringContaining('recorded as unsandboxed') as unknown })
    const missing = await checkSandbox({ AWB_BWRAP: join(bin, 'no-such-bwrap') })
    expect(missing).toMatchObject({ status: 'failed', essential: false })
    expect(missing.detail).toMatch(/no-such-bwrap was not found.*sudo apt-get install bubblewrap.*apparmor_restrict_unprivileged_userns=0/)
    expect(await checkSandbox({ AWB_SANDBOX: 'maybe' })).toMatchObject({ status: 'failed', detail: expect.stringContaining('AWB_SANDBOX="maybe": expected one of on, off') as unknown })
  })

  it('names the key variable or the login file a CLI uses, never a value', async () => {
    const home = await mkdtemp(join(tmpdir(), 'awb-doctor-login-'))
    try {
      const codex = await checkAgentCli('codex', { PATH: bin, HOME: home, OPENAI_API_KEY: SENTINEL_KEY })
      expect(codex.detail).toMatch(/; credential: OPENAI_API_KEY \(exported; value not shown\)$/)
      expect(codex.data).toMatchObject({ credential: 'OPENAI_API_KEY' })
      await mkdir(join(home, '.codex'))
      await writeFile(join(home, '.codex', 'auth.json'), JSON.stringify({ tokens: SENTINEL_KEY }))
      const login = await checkAgentCli('codex', { PATH: bin, HOME: home })
      expect(login.detail).toContain(`; credential: the login in ${join(home, '.codex', 'auth.json')} (read-only in the sandbox)`)
      expect(JSON.stringify([codex, login])).not.toContain(SENTINEL_KEY)
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })
})
