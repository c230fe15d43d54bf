/**
 * PostgreSQL settings of the embedded database, given at every start (they override the
 * `postgresql.conf` that initdb wrote, so an existing data directory gets them too).
 *
 * PGlite's defaults are those of a server: initdb writes `shared_buffers = 128MB` and
 * `max_connections = 100`, and PostgreSQL allocates and zeroes its shared memory (buffers, their
 * descriptors, the lock table sized by connections) when it starts. In WebAssembly that memory
 * is the module's linear memory, which only grows and is never given back: every megabyte
 * PostgreSQL touches once stays resident for the life of the process, and zeroing 128 MB was
 * most of the second PGlite took to open. The figures behind these values are in
 * docs/performance.md, "Start and memory".
 */
export const EMBEDDED_DATABASE_SETTINGS: Readonly<Record<string, string>> = {
  // Pages of tables and indexes kept in the database's own memory. The files below are read
  // through the operating system's page cache, so a miss here costs a system call, not a disk
  // read.
  shared_buffers: '32MB',
  // One session (single-user mode): the lock table and per-connection arrays are sized by this.
  max_connections: '8',
  // Memory for VACUUM and CREATE INDEX: the storage maintenance's packing and partition indexes.
  maintenance_work_mem: '16MB',
};

/**
 * PGlite's start parameters followed by `-c name=value` for each setting (a later `-c` wins).
 * pglite-thread.mjs does the same in the database's thread; keep the two in step.
 */
export function settingsAsStartParams(
  defaults: readonly string[],
  settings: Readonly<Record<string, string>>,
) {
  return [...defaults, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}
