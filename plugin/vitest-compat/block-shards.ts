// `--shard i/n` must split a run's samples into n disjoint parts, whichever machine runs which part: the `--merge-reports`
// of the parts is the run. Vitest (4.1 and 5) orders test files for sharding by a hash of each file's path, and every
// block project runs the same file (suites/benchmark-block.ts): the five hashes tie, so which blocks a shard got
// depended on the order Vitest listed the projects in, which differs between processes. Two shards of one run could
// then run one block twice and another not at all (seen on Vitest 4.1: ikea-manualbook in shards 1/2 and 2/2, the
// merge failing on the duplicate). Breaking the ties by project name makes the split the same in every process.
import { BaseSequencer, type TestSequencerConstructor, type TestSpecification } from 'vitest/node'

/** Project name, then file: a total order on a run's test specifications (a project lists a file at most once). */
export function byProjectThenFile(a: TestSpecification, b: TestSpecification): number {
  const an = a.project.name, bn = b.project.name
  if (an !== bn) return an < bn ? -1 : 1
  return a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0
}

/**
 * The run's sequencer (the user's own, else Vitest's) with ties in its shard order broken by project name: Vitest's
 * shard ordering is a stable sort by path hash, so it keeps the order it is given among equal hashes.
 */
export function stableShards(base: TestSequencerConstructor = BaseSequencer): TestSequencerConstructor {
  return class BlockShardSequencer extends (base as typeof BaseSequencer) {
    override shard(files: TestSpecification[]): Promise<TestSpecification[]> {
      return super.shard([...files].sort(byProjectThenFile))
    }
  }
}
