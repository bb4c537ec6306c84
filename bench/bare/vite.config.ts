import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

/** The yardstick of bench/pages (bench/bare/README.md): React Router's plugin and nothing else. */
export default defineConfig({ plugins: [reactRouter()] });
