// HungPageWatch on a scripted clock: a page is hung only when it is both past its time limit and silent.
import { describe, expect, it } from 'vitest'
import { HungPageWatch } from '../../../src/harness/node/index.ts'

function watch() {
  let now = 0
  const hung: string[] = []
  const pages = new HungPageWatch({ timeLimitMs: 10_000, openAllowanceMs: 5_000, graceMs: 60_000, now: () => now, onHung: (block, sampleId, reason) => hung.push(`${block}/${sampleId}: ${reason}`) })
  return { pages, hung, at: (ms: number) => { now = ms; pages.check() } }
}

describe('HungPageWatch', () => {
  it('reports a page that stops checking in once it is past its limit by the grace, once', () => {
    const { pages, hung, at } = watch()
    pages.opened('b', 's')
    at(2_000); pages.beat('b', 's') // the agent starts: its 10 s limit runs from here
    at(3_000); pages.beat('b', 's') // then the page goes silent (a busy loop)
    at(63_000)
    expect(hung).toEqual([]) // silent for 60 s but only 51 s past the limit
    at(72_000)
    expect(hung).toHaveLength(1)
    expect(hung[0]).toMatch(/^b\/s: the page of block b stopped responding: s is 60 s past its time limit of 10 s and the page has not checked in for 69 s/)
    at(200_000)
    expect(hung).toHaveLength(1)
    pages.close()
  })

  it('never reports a page while it keeps checking in (even far past its limit), nor one that ended', () => {
    const { pages, hung, at } = watch()
    pages.opened('b', 'alive')
    pages.opened('b', 'done')
    pages.ended('b', 'done')
    // Checks in every 30 s for 5 minutes (silent stretches under the grace), far past its limit.
    for (let t = 1_000; t <= 301_000; t += 30_000) { at(t); pages.beat('b', 'alive') }
    at(360_000)
    expect(hung).toEqual([])
    at(362_000)
    expect(hung.map(line => line.split(':')[0])).toEqual(['b/alive'])
    pages.close()
  })

  it('counts a page that never started its agent from the open allowance', () => {
    const { pages, hung, at } = watch()
    pages.opened('b', 's')
    at(74_000)
    expect(hung).toEqual([]) // 5 s allowance + 10 s limit + 60 s grace = 75 s
    at(75_000)
    expect(hung).toHaveLength(1)
    pages.close()
  })
})
