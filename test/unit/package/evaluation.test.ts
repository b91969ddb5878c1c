import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type EvaluationExpectation, PackageError, parseEvaluation } from '../../../src/package/index.ts'
import { seededPoints } from '../../helpers/package-fixture.ts'

const CONFORMANCE = '../shared/conformance/scoring'
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'))

interface Bench { evaluation: Record<string, unknown> }
const reduced = (): Record<string, unknown> => (readJson(`${CONFORMANCE}/06_bench_fixture.json`) as Bench).evaluation
const chair = (): Record<string, unknown> => readJson(`${CONFORMANCE}/11_chair/evaluation.json`) as Record<string, unknown>

/** A complete single-part evaluation the tests break one field at a time. */
function evaluationWith(partIds: string[]): Record<string, unknown> {
  const similarity = { policy: 'geometry', threshold: 0.0001 }
  return {
    version: 1,
    key: { evaluation_protocol: 'assembly-evaluation-v1', parts: partIds.length, similarity },
    part_ids: partIds,
    scale_divisor: 1,
    points: Object.fromEntries(partIds.map((id, i) => [id, seededPoints(7 + i)])),
    gt_poses: Object.fromEntries(partIds.map(id => [id, [0, 0, 0, 1, 0, 0, 0]])),
    equivalence: { groups: partIds.map(id => [id]), protocol: { ...similarity } },
  }
}

function failure(value: unknown, expect?: EvaluationExpectation): PackageError {
  try {
    parseEvaluation(value, { file: 'cache/x/evaluation.json', expect })
  } catch (error) {
    if (error instanceof PackageError) return error
    throw error
  }
  throw new Error('parseEvaluation accepted an invalid evaluation')
}

describe('parseEvaluation on the conformance files', () => {
  it('accepts the reduced evaluation of 06_bench_fixture (key without sample_id or identity)', () => {
    const evaluation = parseEvaluation(reduced(), { file: '06_bench_fixture.json' })
    expect(evaluation.protocol).toBe('assembly-evaluation-v1')
    expect(evaluation.partIds).toEqual(['p'])
    expect(evaluation.points[0]).toBeInstanceOf(Float64Array)
    expect(evaluation.points[0]?.length).toBe(3000)
    expect(Array.from(evaluation.gtPoses[0] ?? [])).toEqual([0, 0, 0, 1, 0, 0, 0])
    expect(evaluation.groups).toEqual([['p']])
    expect(evaluation.sampleId).toBeUndefined()
  })

  it('accepts the full 11_chair evaluation, records its v2 marker and keeps the points in row order', () => {
    const raw = chair()
    const evaluation = parseEvaluation(raw, { file: '11_chair/evaluation.json' })
    expect(evaluation.protocol).toBe('assembly-evaluation-v2')
    expect(evaluation.partIds).toHaveLength(6)
    expect(evaluation.groups).toEqual([['back'], ['leg_back_left', 'leg_back_right'], ['leg_front_left', 'leg_front_right'], ['seat']])
    const points = raw.points as Record<string, number[][]>
    expect(evaluation.points[5]?.[3 * 999 + 2]).toBe(points.seat?.[999]?.[2])
    expect(evaluation.scaleDivisor).toBeCloseTo(1.0012492197250396, 15)
  })

  it('checks the key against the package when expectations are given', () => {
    const raw = chair()
    const key = raw.key as { identity: EvaluationExpectation['identity']; initial_sha256: string }
    const expect_: EvaluationExpectation = { sampleId: 'synthetic/chair', identity: key.identity, initialSha256: key.initial_sha256, parts: 6 }
    expect(parseEvaluation(raw, { file: 'e.json', expect: expect_ }).sampleId).toBe('synthetic/chair')
    expect(failure(raw, { ...expect_, sampleId: 'other' }).field).toBe('key.sample_id')
    expect(failure(raw, { ...expect_, initialSha256: 'f'.repeat(64) }).field).toBe('key.initial_sha256')
    expect(failure(raw, { ...expect_, parts: 7 }).field).toBe('key.parts')
    expect(failure(raw, { ...expect_, identity: { ...key.identity, engine: '3.11.0' } }).field).toBe('key.identity')
    expect(failure(reduced(), { ...expect_, sampleId: 'p', parts: 1 }).code).toBe('PACKAGE_MISMATCH')
  })
})

describe('parseEvaluation structural rules', () => {
  it('accepts a well-formed evaluation', () => {
    expect(parseEvaluation(evaluationWith(['a', 'b']), { file: 'e.json' }).partIds).toEqual(['a', 'b'])
  })

  it('rejects a cloud of 999 points', () => {
    const value = evaluationWith(['p'])
    ;(value.points as Record<string, number[][]>).p = seededPoints(1, 999)
    const error = failure(value)
    expect(error.code).toBe('PACKAGE_EVALUATION')
    expect(error.field).toBe('points.p')
    expect(error.message).toContain('exactly 1000 points, got 999')
    expect(error.message).toContain('cache/x/evaluation.json')
  })

  it('rejects a NaN or infinite coordinate (Nonfinite points)', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const value = evaluationWith(['p'])
      const rows = (value.points as Record<string, number[][]>).p ?? []
      rows[500] = [0, bad, 0]
      const error = failure(value)
      expect(error.message).toContain('Nonfinite points')
      expect(error.message).toContain('row 500')
    }
  })

  it('rejects finite ground truth whose squares overflow: huge points, huge translations, a tiny scale divisor', () => {
    const points = evaluationWith(['p'])
    ;((points.points as Record<string, number[][]>).p ?? [])[7] = [0, 0, 1e200]
    expect(failure(points).message).toMatch(/Nonfinite points after squaring: row 7 .* has 1e\+200/)
    const pose = evaluationWith(['p'])
    ;(pose.gt_poses as Record<string, number[]>).p = [1e300, 0, 0, 1, 0, 0, 0]
    expect(failure(pose)).toMatchObject({ field: 'gt_poses.p', message: expect.stringContaining('Nonfinite GT after squaring') })
    const divisor = evaluationWith(['p'])
    divisor.scale_divisor = 1e-300
    expect(failure(divisor).message).toContain('after squaring')
    const edge = evaluationWith(['p'])
    ;((edge.points as Record<string, number[][]>).p ?? [])[7] = [0, 0, 1e150]
    expect(parseEvaluation(edge, { file: 'e.json' }).points[0]?.[23]).toBe(1e150)
  })

  it('rejects a point row that is not three numbers', () => {
    const value = evaluationWith(['p'])
    const rows = (value.points as Record<string, unknown[]>).p ?? []
    rows[3] = [0, 0]
    expect(failure(value).message).toContain('row 3')
  })

  it('rejects a zero GT quaternion and accepts one just above the norm floor', () => {
    const value = evaluationWith(['p'])
    ;(value.gt_poses as Record<string, number[]>).p = [1, 2, 3, 0, 0, 0, 0]
    expect(failure(value).message).toContain('Expected a finite nonzero wxyz quaternion')
    ;(value.gt_poses as Record<string, number[]>).p = [1, 2, 3, 0, 0, 0, 1e-12]
    expect(parseEvaluation(value, { file: 'e.json' }).gtPoses[0]?.[6]).toBe(1e-12)
    ;(value.gt_poses as Record<string, number[]>).p = [1, 2, 3, 0, 0, 0, 0.99e-12]
    expect(failure(value).field).toBe('gt_poses.p')
  })

  it('rejects a non-finite or short GT pose (Nonfinite GT)', () => {
    const value = evaluationWith(['p'])
    ;(value.gt_poses as Record<string, number[]>).p = [Number.NaN, 0, 0, 1, 0, 0, 0]
    expect(failure(value).message).toContain('Nonfinite GT')
    ;(value.gt_poses as Record<string, number[]>).p = [0, 0, 0, 1, 0, 0]
    expect(failure(value).message).toContain('Nonfinite GT')
  })

  it('requires part ids in plain code-point order (not locale order) and unique', () => {
    expect(failure(evaluationWith(['b', 'a'])).message).toContain('code-point order')
    // Code-point order puts "B" (66) before "a" (97); localeCompare would put "a" first.
    expect(parseEvaluation(evaluationWith(['B', 'a']), { file: 'e.json' }).partIds).toEqual(['B', 'a'])
    expect(failure(evaluationWith(['a', 'B'])).field).toBe('part_ids[1]')
    // UTF-16 units would order U+1F600 before U+FF61; code points do not.
    expect(parseEvaluation(evaluationWith(['\uFF61', '\u{1F600}']), { file: 'e.json' }).partIds).toHaveLength(2)
    const duplicated = evaluationWith(['a', 'b'])
    duplicated.part_ids = ['a', 'a']
    expect(failure(duplicated).message).toContain('appears twice')
  })

  it('requires key.parts to equal the number of part ids', () => {
    const value = evaluationWith(['a', 'b'])
    ;(value.key as Record<string, unknown>).parts = 3
    expect(failure(value).field).toBe('key.parts')
  })

  it('requires groups to partition the part ids, without empty groups', () => {
    const cases: [string[][], string][] = [
      [[['a']], 'no group contains "b"'],
      [[['a', 'b'], ['b']], 'more than one group'],
      [[['a'], ['b'], []], 'empty'],
      [[['a'], ['b', 'c']], '"c" is not a part id'],
    ]
    for (const [groups, message] of cases) {
      const value = evaluationWith(['a', 'b'])
      ;(value.equivalence as Record<string, unknown>).groups = groups
      const error = failure(value)
      expect(error.message).toContain('partition')
      expect(error.message).toContain(message)
    }
  })

  it('requires equivalence.protocol to deep-equal key.similarity', () => {
    const value = evaluationWith(['p'])
    ;(value.equivalence as Record<string, unknown>).protocol = { policy: 'geometry', threshold: 0.0002 }
    expect(failure(value).field).toBe('equivalence.protocol')
  })

  it('requires the geometry policy with threshold 1e-4', () => {
    const value = evaluationWith(['p'])
    const similarity = { policy: 'geometry', threshold: 0.001 }
    ;(value.key as Record<string, unknown>).similarity = similarity
    ;(value.equivalence as Record<string, unknown>).protocol = similarity
    expect(failure(value).field).toBe('key.similarity')
  })

  it('requires a positive finite scale_divisor', () => {
    for (const divisor of [0, -1]) {
      const value = evaluationWith(['p'])
      value.scale_divisor = divisor
      expect(failure(value).field).toBe('scale_divisor')
    }
  })

  it('rejects an unknown protocol marker and version other than 1', () => {
    const value = evaluationWith(['p'])
    ;(value.key as Record<string, unknown>).evaluation_protocol = 'assembly-evaluation-v3'
    expect(failure(value).code).toBe('PACKAGE_UNKNOWN_PROTOCOL')
    const versioned = evaluationWith(['p'])
    versioned.version = 2
    expect(failure(versioned).code).toBe('PACKAGE_SCHEMA')
  })

  it('records the v2 marker as read', () => {
    const value = evaluationWith(['p'])
    ;(value.key as Record<string, unknown>).evaluation_protocol = 'assembly-evaluation-v2'
    expect(parseEvaluation(value, { file: 'e.json' }).protocol).toBe('assembly-evaluation-v2')
  })
})
