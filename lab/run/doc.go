// Package run is the experiment runtime of the lab: it turns a catalogue entry (an Experiment with a
// plan of independent tasks) into a tidy results table, and that table into figures and claim checks
// (whose statistics are those of lab/verdict).
//
// One code path serves the three scales (smoke, quick, paper). Each task gets its own random number
// generator derived from the experiment seed and the task key, so the numbers never depend on the
// worker count, the shard or the order in which tasks run. Each finished task is written at once to
// its own part file (atomically), so an interrupted run resumes where it stopped, and a plan split into
// shards on several machines merges into exactly the bytes an unsharded run writes.
//
// A task gets what it needs from its Env: the scale, its generator, the data source the caller
// chose (Options.Data) and the run's cache, which loads each data set once for all the tasks that
// share it (Cached). The runtime reads nothing from the process environment.
//
// Files under a results root Dir, for an experiment ID at a scale:
//
//	<Dir>/<scale>/<ID>.csv         the tidy table: id,dataset,method,params,rep,metric,value
//	<Dir>/<scale>/<ID>.meta.json   provenance: seed, task counts, Go and module versions, times
//	<Dir>/<scale>/<ID>.parts/      one CSV per finished task, named after the task key
//
// Renderers read only the results table (Results), never recompute; experiments never draw.
package run
