// Preloaded into every process of the integration run (NODE_OPTIONS=--import, set by
// tests/global-setup.ts and passed on by tests/integration/server-process.ts `childEnv`): in the
// child that lib/db/database.ts `initializePglite` starts to create a database (node
// lib/db/initdb.ts DIR), it copies the run's blank database (PGLITE_TEMPLATE, made once by the
// global setup with the same initdb) into DIR and exits, instead of running initdb, which costs
// ~3 s of CPU for each of the run's hundred-odd fresh data dirs. The copy keeps the files'
// owner-only modes. In any other process, or with PGLITE_TEMPLATE unset or empty (the tests of
// initdb itself), it does nothing. The production code knows nothing of it.
import { constants, existsSync } from "node:fs";
import { cp } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const initdb = fileURLToPath(new URL("../lib/db/initdb.ts", import.meta.url));
const template = process.env.PGLITE_TEMPLATE;
const dir = process.argv[2];

if (template && dir && process.argv[1] && path.resolve(process.argv[1]) === initdb) {
  // Thrown, it ends the child with its message, as a failed initdb does.
  if (!existsSync(path.join(template, "PG_VERSION"))) throw new Error(`PGLITE_TEMPLATE=${template} holds no database`);
  // fs.promises.cp gives each directory its source's mode; cpSync leaves them to the umask.
  await cp(template, dir, { recursive: true, mode: constants.COPYFILE_FICLONE });
  process.exit(0);
}
