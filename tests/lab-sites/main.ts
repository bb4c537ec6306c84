// Runs the reference lab result server alone (tests/lab-sites/server.ts), for the browser journeys:
// `PORT=3103 CA_FILE=.e2e-data/lab-sites-ca.pem node tests/lab-sites/main.ts`. It writes its
// certificate to CA_FILE, which the app is given as LAB_LINKS_TEST_CA.
import { startLabSites } from "./server.ts";

const port = Number(process.env.PORT ?? 3103);
const caFile = process.env.CA_FILE ?? ".e2e-data/lab-sites-ca.pem";
const sites = await startLabSites({ port, caFile });
console.log(`lab sites on ${sites.address}:${sites.port}; certificate in ${caFile}`);
const stop = () => void sites.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
