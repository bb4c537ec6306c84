import type { Config } from "@react-router/dev/config";

/**
 * React Router framework config: server rendering, basename from BASE_PATH (docs/architecture/behaviour.md §4), and
 * the build directory from BUILD_DIR (default build/), so that builds for two base paths can sit
 * side by side (the end-to-end tests run one under /sw).
 */
export default {
  ssr: true,
  basename: process.env.BASE_PATH || "/",
  buildDirectory: process.env.BUILD_DIR || "build",
} satisfies Config;
