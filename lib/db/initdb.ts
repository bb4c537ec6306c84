// Child process of lib/db/database.ts `initializePglite`: creates an embedded database in the
// directory given as the only argument, then exits, so that the memory initdb used goes with it.
// Usage: node lib/db/initdb.ts DIR (exit code 0 when the database is ready, 1 otherwise).
import { createPgliteHere } from "./database.ts";

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: node lib/db/initdb.ts DIR\n");
  process.exit(2);
}
try {
  await createPgliteHere(dir);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}
