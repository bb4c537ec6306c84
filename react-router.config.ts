import type { Config } from "@react-router/dev/config";

/** React Router framework config: server rendering, basename from BASE_PATH (DESIGN.md §4). */
export default {
  ssr: true,
  basename: process.env.BASE_PATH || "/",
} satisfies Config;
