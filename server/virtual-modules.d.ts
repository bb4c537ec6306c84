/** The server build that React Router's Vite plugin provides to server/app.ts (the build's input). */
declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  const build: ServerBuild;
  export = build;
}
