// The tested CLI versions (one list, read by the test installer and `awb doctor`), `--version` parsing and the
// tested / untested verdict.
import { describe, expect, it } from 'vitest'
import { cliVersionCoverage, parseCliVersion, TESTED_CLI_VERSIONS } from '../../../../src/agents/cli/index.ts'

/** Numeric x.y.z order (the lists hold release versions only). */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map(version => version.split('.').map(Number)) as [number[], number[]]
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return 0
}

describe('tested CLI versions', () => {
  it('lists exact release versions per CLI, oldest first, each once', () => {
    for (const [kind, { pkg, bin, versions }] of Object.entries(TESTED_CLI_VERSIONS)) {
      expect(pkg, kind).toMatch(/^@[a-z-]+\/[a-z-]+$/)
      expect(bin, kind).toBe(kind)
      expect(versions.length, kind).toBeGreaterThan(0)
      for (const version of versions) expect(parseCliVersion(version), kind).toBe(version)
      expect(versions.every(version => /^\d+\.\d+\.\d+$/.test(version)), kind).toBe(true)
      expect([...versions].sort(compareVersions), kind).toEqual(versions)
      expect(new Set(versions).size, kind).toBe(versions.length)
    }
  })
})

describe('parseCliVersion', () => {
  it('finds the version in what the CLIs print', () => {
    expect(parseCliVersion('2.1.197 (Claude Code)')).toBe('2.1.197')
    expect(parseCliVersion('2.1.332 (Claude Code)')).toBe('2.1.332')
    expect(parseCliVersion('codex-cli 0.171.0')).toBe('0.171.0')
  })

  it('keeps a prerelease, drops build metadata, skips a leading v and a sentence end', () => {
    expect(parseCliVersion('codex-cli 0.172.0-alpha.3')).toBe('0.172.0-alpha.3')
    expect(parseCliVersion('2.1.400-rc.1+linux.x64 (Claude Code)')).toBe('2.1.400-rc.1')
    expect(parseCliVersion('claude v2.1.197')).toBe('2.1.197')
    expect(parseCliVersion('This is Claude Code 2.1.332.')).toBe('2.1.332')
  })

  it('answers null without an x.y.z version (two or four parts, none at all)', () => {
    for (const text of ['', 'codex-cli dev', 'claude 2.1', 'build 1.2.3.4', 'node 24']) expect(parseCliVersion(text), text).toBeNull()
  })
})

describe('cliVersionCoverage', () => {
  it('tested: every listed version, exactly', () => {
    for (const version of TESTED_CLI_VERSIONS.claude.versions) expect(cliVersionCoverage('claude', `${version} (Claude Code)`)).toEqual({ version, isTested: true, verdict: 'tested' })
    for (const version of TESTED_CLI_VERSIONS.codex.versions) expect(cliVersionCoverage('codex', `codex-cli ${version}`)).toEqual({ version, isTested: true, verdict: 'tested' })
  })

  it('untested: a version in between, a newer one, a prerelease of a tested one; the verdict lists what is tested', () => {
    expect(cliVersionCoverage('claude', '2.1.250 (Claude Code)')).toEqual({ version: '2.1.250', isTested: false, verdict: 'untested: the tests cover 2.1.197, 2.1.332' })
    expect(cliVersionCoverage('claude', '2.1.332-beta.1 (Claude Code)')).toMatchObject({ version: '2.1.332-beta.1', isTested: false })
    expect(cliVersionCoverage('codex', 'codex-cli 0.172.0')).toEqual({ version: '0.172.0', isTested: false, verdict: 'untested: the tests cover 0.171.0' })
  })

  it('untested when no version can be read, saying so', () => {
    expect(cliVersionCoverage('codex', 'codex-cli dev')).toEqual({ version: null, isTested: false, verdict: 'untested: no version in `codex --version`; the tests cover 0.171.0' })
  })
})
