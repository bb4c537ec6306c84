// The yardstick of bench/pages (bench/bare/README.md): React Router's Express adapter with no
// middleware but the static files. PORT and HOST from the environment; build/ beside this file.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { ServerBuild } from "react-router";

const here = import.meta.dirname;
const build = (await import(pathToFileURL(path.join(here, "build/server/index.js")).href)) as ServerBuild;
const app = express();
app.use("/assets", express.static(path.join(here, "build/client/assets"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(here, "build/client"), { maxAge: "1h" }));
app.all("/{*path}", createRequestHandler({ build, mode: "production" }));
const server = app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1", () => console.log("bare app listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
