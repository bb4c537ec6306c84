import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

const basePath = process.env.BASE_PATH || "/";

export default defineConfig({
  base: basePath.endsWith("/") ? basePath : `${basePath}/`,
  plugins: [reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { assetsInlineLimit: 0 },
});
